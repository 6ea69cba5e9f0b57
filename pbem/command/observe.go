package command

import "orrery/engine/lang"

// Observe receives the public reports of a game, once the sender confirms it.
const Observe Name = "OBSERVE"

// ObserveCmd is OBSERVE.
var ObserveCmd = Descriptor{
	Name:  Observe,
	Help:  []HelpLine{{"OBSERVE <game>", "receive a game's public reports (if its GM allows)"}},
	Usage: lang.M("write OBSERVE and a game, like: OBSERVE demo1"),
	Kind:  Change, Limit: Changes,
	Parse:     gameOrMail(Observe, lang.M("OBSERVE needs one game id")),
	Examples:  []string{"OBSERVE demo1", "observe"},
	Malformed: "OBSERVE demo1 demo2",
}
