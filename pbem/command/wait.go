package command

import "orrery/engine/lang"

// Wait asks the game not to resolve early this turn.
const Wait Name = "WAIT"

// WaitCmd is WAIT.
var WaitCmd = Descriptor{
	Name:  Wait,
	Help:  []HelpLine{{"WAIT <game>", "ask the game not to resolve early this turn"}},
	Usage: lang.M("write WAIT and a game, like: WAIT demo1"),
	Kind:  Change, Limit: Changes,
	Parse:     oneGame(Wait, false),
	Examples:  []string{"WAIT demo1", "wait"},
	Malformed: "WAIT demo1 now",
}
