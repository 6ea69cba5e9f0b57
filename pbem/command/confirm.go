package command

import (
	"orrery/engine/lang"
	"strings"
)

// Confirm applies orders held as a possibly stale copy, or confirms a
// JOIN or an OBSERVE: in a reply to the mail that says so, or with the
// code it gives.
const Confirm Name = "CONFIRM"

// ConfirmCmd is CONFIRM.
var ConfirmCmd = Descriptor{
	Name:  Confirm,
	Help:  []HelpLine{{"CONFIRM [code]", "in a reply to my mail that holds your orders as a possible stale copy, or that asks you to confirm a JOIN or an OBSERVE: do it now"}},
	Usage: lang.M("reply to my mail that holds your orders (or asks you to confirm) with CONFIRM alone on a line, or write CONFIRM and the code it gives"),
	Kind:  Marker, Limit: Unlimited,
	Parse: func(in In) (Command, bool, lang.Msg) {
		cmd := start(Confirm, in)
		if len(in.Args) == 0 {
			return cmd, true, lang.Msg{}
		}
		if t := strings.ToLower(in.Args[0]); len(in.Args) == 1 && tokenPattern.MatchString(t) {
			cmd.Token = t
			return cmd, true, lang.Msg{}
		}
		return cmd, false, lang.M("CONFIRM takes nothing, or the code my mail that asks you to confirm gives")
	},
	Examples:  []string{"CONFIRM", "confirm 0123456789abcdef"},
	Malformed: "CONFIRM please",
}
