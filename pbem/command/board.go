package command

import "orrery/engine/lang"

// Board answers as STATUS does.
const Board Name = "BOARD"

// BoardCmd is BOARD.
var BoardCmd = Descriptor{
	Name:  Board,
	Help:  []HelpLine{{"BOARD <game>", "the same as STATUS"}},
	Usage: lang.M("write BOARD and a game, like: BOARD demo1"),
	Kind:  Read, Limit: Reads,
	Asks:      Status,
	Parse:     oneGame(Board, false),
	Examples:  []string{"BOARD demo1", "board"},
	Malformed: "BOARD demo1 now",
}
