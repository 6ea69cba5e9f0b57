package command

import "orrery/engine/lang"

// Resign leaves the game: the seat plays its defaults from then on.
const Resign Name = "RESIGN"

// ResignCmd is RESIGN.
var ResignCmd = Descriptor{
	Name:  Resign,
	Help:  []HelpLine{{"RESIGN <game>", "leave a game"}},
	Usage: lang.M("write RESIGN and a game, like: RESIGN demo1"),
	Kind:  Change, Limit: Changes,
	Parse:     oneGame(Resign, false),
	Examples:  []string{"RESIGN demo1", "resign"},
	Malformed: "RESIGN demo1 now",
}
