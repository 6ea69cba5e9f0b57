package command

import (
	"orrery/engine/lang"
)

// oneGame parses the commands that take one game or none (the mail's):
// STATUS, BOARD, RESIGN, WAIT and ORDERS (which needs no game at all).
func oneGame(n Name, noGame bool) func(In) (Command, bool, lang.Msg) {
	return func(in In) (Command, bool, lang.Msg) {
		cmd := start(n, in)
		switch {
		case len(in.Args) == 1 && gameArg(&cmd, in.Args[0]):
			return cmd, true, lang.Msg{}
		case len(in.Args) == 0 && (in.Game != "" || noGame):
			return cmd, true, lang.Msg{}
		case len(in.Args) == 0:
			return cmd, false, lang.M("%s needs a game", n)
		}
		return cmd, false, lang.M("%s takes one game id", n)
	}
}

// gameOrMail parses OBSERVE, UNOBSERVE and START: one game id, or none
// in a mail about a game; why is the reason given for any other line.
func gameOrMail(n Name, why lang.Msg) func(In) (Command, bool, lang.Msg) {
	return func(in In) (Command, bool, lang.Msg) {
		cmd := start(n, in)
		if len(in.Args) == 1 && gameArg(&cmd, in.Args[0]) || len(in.Args) == 0 && in.Game != "" {
			return cmd, true, lang.Msg{}
		}
		return cmd, false, why
	}
}
