package command

import "orrery/engine/lang"

// Status answers with the current board and who is still to send.
const Status Name = "STATUS"

// StatusCmd is STATUS.
var StatusCmd = Descriptor{
	Name:  Status,
	Help:  []HelpLine{{"STATUS <game>", "the board as it stands, and who is still to send"}},
	Usage: lang.M("write STATUS and a game, like: STATUS demo1"),
	Kind:  Read, Limit: Reads,
	Parse:     oneGame(Status, false),
	Examples:  []string{"STATUS demo1", "status"},
	Malformed: "STATUS demo1 now",
}
