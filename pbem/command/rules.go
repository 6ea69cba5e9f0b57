package command

import (
	"orrery/engine/lang"
	"strings"
)

// Rules answers with a ruleset's rules summary and order language.
const Rules Name = "RULES"

// RulesCmd is RULES.
var RulesCmd = Descriptor{
	Name:  Rules,
	Help:  []HelpLine{{"RULES <ruleset>", "the rules and the order language of a ruleset"}},
	Usage: lang.M("write RULES and a ruleset, like: RULES prosper (LIST names the rulesets)"),
	Kind:  Read, Limit: Reads,
	Parse: func(in In) (Command, bool, lang.Msg) {
		cmd := start(Rules, in)
		if len(in.Args) == 1 {
			cmd.Ruleset = strings.ToLower(in.Args[0])
			return cmd, true, lang.Msg{}
		}
		if len(in.Args) == 0 && in.Game != "" {
			return cmd, true, lang.Msg{} // the rules of this mail's game
		}
		return cmd, false, lang.M("RULES needs one ruleset name")
	},
	Examples:  []string{"RULES prosper", "RULES"},
	Malformed: "RULES prosper and more",
}
