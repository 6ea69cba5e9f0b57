package command

import "fmt"

// Observe receives the public reports of a game, once the sender confirms it.
const Observe Name = "OBSERVE"

// ObserveCmd is OBSERVE.
var ObserveCmd = Descriptor{
	Name:  Observe,
	Help:  []HelpLine{{"OBSERVE <game>", "receive a game's public reports (if its GM allows)"}},
	Usage: "write OBSERVE and a game, like: OBSERVE demo1",
	Kind:  Change, Limit: Changes,
	Parse: func(in In) (Command, bool, string) {
		cmd := start(Observe, in)
		if len(in.Args) == 1 && gameArg(&cmd, in.Args[0]) || len(in.Args) == 0 && in.Game != "" {
			return cmd, true, ""
		}
		return cmd, false, fmt.Sprintf("%s needs one game id", Observe)
	},
	Examples:  []string{"OBSERVE demo1", "observe"},
	Malformed: "OBSERVE demo1 demo2",
}
