package command

import "fmt"

// Unobserve stops receiving them.
const Unobserve Name = "UNOBSERVE"

// UnobserveCmd is UNOBSERVE.
var UnobserveCmd = Descriptor{
	Name:  Unobserve,
	Help:  []HelpLine{{"UNOBSERVE <game>", "stop receiving them"}},
	Usage: "write UNOBSERVE and a game, like: UNOBSERVE demo1",
	Kind:  Change, Limit: Changes,
	Parse: func(in In) (Command, bool, string) {
		cmd := start(Unobserve, in)
		if len(in.Args) == 1 && gameArg(&cmd, in.Args[0]) || len(in.Args) == 0 && in.Game != "" {
			return cmd, true, ""
		}
		return cmd, false, fmt.Sprintf("%s needs one game id", Unobserve)
	},
	Examples:  []string{"UNOBSERVE demo1", "unobserve"},
	Malformed: "UNOBSERVE demo1 demo2",
}
