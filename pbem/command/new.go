package command

import (
	"orrery/engine/lang"
	"strings"
)

// New opens a game for signup: NEW <ruleset> [seats] [name=value ...].
const New Name = "NEW"

// NewCmd is NEW.
var NewCmd = Descriptor{
	Name: New,
	Help: []HelpLine{{"NEW <ruleset> [seats] [name=value]", "open a game for others to JOIN, such as NEW prosper 4 turn=48h (settings: id, seat, turn, abandoned, abandon-after, press, observers, the ruleset's options)"},
		{"NEW <ruleset> quiet=23-07 weekends=off", "no deadline falls in any player's night (23:00 to 07:00 in each player's own time zone, SET TZ), and the deadline clock stops from Saturday 00:00 to Monday 00:00"}},
	Usage: lang.M("write NEW, a ruleset and maybe the seats and settings, like: NEW prosper 4 turn=48h"),
	Kind:  Change, Limit: Changes,
	Parse: func(in In) (Command, bool, lang.Msg) {
		// The daemon reads the settings; a line whose first word is not
		// a ruleset is not NEW.
		cmd := start(New, in)
		if len(in.Args) == 0 {
			return cmd, false, lang.M("NEW needs a ruleset, like NEW prosper (LIST names the rulesets)")
		}
		cmd.Ruleset, cmd.Args, cmd.Game = strings.ToLower(in.Args[0]), in.Args[1:], ""
		if in.IsRuleset != nil && !in.IsRuleset(cmd.Ruleset) {
			return cmd, false, lang.M("there is no ruleset %q (LIST names them)", cmd.Ruleset)
		}
		return cmd, true, lang.Msg{}
	},
	Examples:  []string{"NEW prosper", "new prosper 4 turn=48h"},
	Malformed: "NEW",
}
