package command

import "orrery/engine/lang"

// History answers with the report of a past turn (the last without a
// turn), with the press of then.
const History Name = "HISTORY"

// HistoryCmd is HISTORY.
var HistoryCmd = Descriptor{
	Name:  History,
	Help:  []HelpLine{{"HISTORY <game> [turn]", "the report of a past turn (the last one without), with the press you sent or got then"}},
	Usage: lang.M("write HISTORY, a game and maybe a turn, like: HISTORY demo1 3"),
	Kind:  Read, Limit: Reads,
	Parse:     gameTurn(History),
	Examples:  []string{"HISTORY demo1 3", "history", "HISTORY 2"},
	Malformed: "HISTORY demo1 third",
}
