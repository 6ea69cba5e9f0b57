package command

import "orrery/engine/lang"

// Resend mails the sender's report of the last (or that) turn again.
const Resend Name = "RESEND"

// ResendCmd is RESEND.
var ResendCmd = Descriptor{
	Name:  Resend,
	Help:  []HelpLine{{"RESEND <game> [turn]", "your report of the last turn (or that turn) again"}},
	Usage: lang.M("write RESEND, a game and maybe a turn, like: RESEND demo1 or RESEND demo1 3"),
	Kind:  Read, Limit: Reads,
	Parse:     gameTurn(Resend),
	Examples:  []string{"RESEND demo1", "resend 3"},
	Malformed: "RESEND demo1 3 4",
}
