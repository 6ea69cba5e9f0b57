package command

import (
	"orrery/engine/lang"
	"strings"
)

// Join takes a seat in a game that is signing up, once the sender
// confirms it from their address.
const Join Name = "JOIN"

// JoinCmd is JOIN.
var JoinCmd = Descriptor{
	Name:  Join,
	Help:  []HelpLine{{"JOIN <game> [name]", "take a seat in a game that is signing up"}},
	Usage: lang.M("write JOIN and a game, like: JOIN demo1, or JOIN demo1 ann to choose your seat name"),
	Kind:  Change, Limit: Changes,
	Parse: func(in In) (Command, bool, lang.Msg) {
		cmd, args := start(Join, in), in.Args
		if len(args) >= 1 && len(args) <= 2 && gameArg(&cmd, args[0]) {
			if len(args) == 2 {
				cmd.Seat = strings.ToLower(args[1])
				if !SeatPattern.MatchString(cmd.Seat) {
					return cmd, false, lang.M("%q cannot be a seat name: use a letter then up to 15 letters, digits, '-' or '_'", args[1])
				}
			}
			return cmd, true, lang.Msg{}
		}
		if len(args) == 0 && in.Game != "" {
			return cmd, true, lang.Msg{}
		}
		return cmd, false, lang.M("JOIN needs a game")
	},
	Examples:  []string{"JOIN demo1", "join demo1 ann", "JOIN"},
	Malformed: "JOIN demo1 9lives",
}
