package command

import (
	"orrery/engine/lang"
	"strconv"
)

// gameTurn parses HISTORY and RESEND: [game] [turn].
func gameTurn(n Name) func(In) (Command, bool, lang.Msg) {
	return func(in In) (Command, bool, lang.Msg) {
		cmd, args := start(n, in), in.Args
		var rest []string
		if len(args) > 0 && !isNumber(args[0]) {
			if !gameArg(&cmd, args[0]) {
				return cmd, false, lang.M("%q is not a game id", args[0])
			}
			rest = args[1:]
		} else {
			rest = args
		}
		if cmd.Game == "" {
			return cmd, false, lang.M("%s needs a game", n)
		}
		switch len(rest) {
		case 0:
			return cmd, true, lang.Msg{}
		case 1:
			if t, err := strconv.Atoi(rest[0]); err == nil && t >= 0 {
				cmd.Turn = t
				return cmd, true, lang.Msg{}
			}
			return cmd, false, lang.M("%q is not a turn number", rest[0])
		}
		return cmd, false, lang.M("%s takes a game and a turn number", n)
	}
}
