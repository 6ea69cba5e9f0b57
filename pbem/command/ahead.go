package command

import (
	"strconv"
	"strings"

	"orrery/engine/lang"
)

// NextTurn is Command.Turn of ORDERS … NEXT: the turn after the current
// one.
const NextTurn = -1

// parseOrders reads ORDERS [game] [TURN n | NEXT]: the orders below are
// for the current step, or held for that later turn (Turn; NextTurn for
// NEXT).
func parseOrders(in In) (Command, bool, lang.Msg) {
	cmd, args := start(Orders, in), in.Args
	if len(args) > 0 && !strings.EqualFold(args[0], "TURN") && !strings.EqualFold(args[0], "NEXT") {
		if !gameArg(&cmd, args[0]) {
			return cmd, false, lang.M("ORDERS takes one game id, and maybe TURN and a turn or NEXT")
		}
		args = args[1:]
	}
	switch {
	case len(args) == 0:
		return cmd, true, lang.Msg{}
	case len(args) == 1 && strings.EqualFold(args[0], "NEXT"):
		cmd.Turn = NextTurn
		return cmd, true, lang.Msg{}
	case len(args) == 2 && strings.EqualFold(args[0], "TURN"):
		n, err := strconv.Atoi(args[1])
		if err != nil || n < 1 {
			return cmd, false, lang.M("TURN needs a turn number, not %q", args[1])
		}
		cmd.Turn = n
		return cmd, true, lang.Msg{}
	}
	return cmd, false, lang.M("ORDERS takes one game id, and maybe TURN and a turn or NEXT")
}
