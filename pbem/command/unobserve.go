package command

import "orrery/engine/lang"

// Unobserve stops receiving them.
const Unobserve Name = "UNOBSERVE"

// UnobserveCmd is UNOBSERVE.
var UnobserveCmd = Descriptor{
	Name:  Unobserve,
	Help:  []HelpLine{{"UNOBSERVE <game>", "stop receiving them"}},
	Usage: lang.M("write UNOBSERVE and a game, like: UNOBSERVE demo1"),
	Kind:  Change, Limit: Changes,
	Parse:     gameOrMail(Unobserve, lang.M("UNOBSERVE needs one game id")),
	Examples:  []string{"UNOBSERVE demo1", "unobserve"},
	Malformed: "UNOBSERVE demo1 demo2",
}
