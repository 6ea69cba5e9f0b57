package command

import (
	"orrery/engine/lang"
	"strings"
)

// Help answers with what a mail may hold; HELP <ruleset> adds that
// ruleset's orders (HELP <game>: its game's).
const Help Name = "HELP"

// HelpCmd is HELP.
var HelpCmd = Descriptor{
	Name:  Help,
	Help:  []HelpLine{{"HELP [ruleset]", "this text (and a ruleset's orders)"}},
	Usage: lang.M("write HELP alone on its line"),
	Kind:  Read, Limit: Reads,
	Parse: func(in In) (Command, bool, lang.Msg) {
		cmd := start(Help, in)
		switch len(in.Args) {
		case 0:
			return cmd, true, lang.Msg{}
		case 1:
			cmd.Ruleset = strings.ToLower(in.Args[0])
			return cmd, true, lang.Msg{}
		}
		return cmd, false, lang.M("%s takes no arguments", Help)
	},
	Examples:  []string{"HELP", "help prosper"},
	Malformed: "HELP me please",
}
