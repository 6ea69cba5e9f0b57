package command

import (
	"fmt"
	"strconv"
)

// gameTurn parses HISTORY and RESEND: [game] [turn].
func gameTurn(n Name) func(In) (Command, bool, string) {
	return func(in In) (Command, bool, string) {
		cmd, args := start(n, in), in.Args
		var rest []string
		if len(args) > 0 && !isNumber(args[0]) {
			if !gameArg(&cmd, args[0]) {
				return cmd, false, fmt.Sprintf("%q is not a game id", args[0])
			}
			rest = args[1:]
		} else {
			rest = args
		}
		if cmd.Game == "" {
			return cmd, false, fmt.Sprintf("%s needs a game", n)
		}
		switch len(rest) {
		case 0:
			return cmd, true, ""
		case 1:
			if t, err := strconv.Atoi(rest[0]); err == nil && t >= 0 {
				cmd.Turn = t
				return cmd, true, ""
			}
			return cmd, false, fmt.Sprintf("%q is not a turn number", rest[0])
		}
		return cmd, false, fmt.Sprintf("%s takes a game and a turn number", n)
	}
}
