package command

import "orrery/engine/lang"

// Start starts a game the sender opened, with the players it has.
const Start Name = "START"

// StartCmd is START.
var StartCmd = Descriptor{
	Name:  Start,
	Help:  []HelpLine{{"START <game>", "start a game you opened, with the players it has"}},
	Usage: lang.M("write START and your game, like: START prosper-k7f3"),
	Kind:  Change, Limit: Changes,
	Parse:     gameOrMail(Start, lang.M("START needs the game you opened")),
	Examples:  []string{"START prosper-k7f3", "start"},
	Malformed: "START two games",
}
