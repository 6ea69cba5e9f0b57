package command

import (
	"orrery/engine/lang"
	"strings"
)

// Press sends a message to some players (TO ALL: everyone); its lines
// follow, up to a line END.
const Press Name = "PRESS"

// PressCmd is PRESS.
var PressCmd = Descriptor{
	Name:  Press,
	Help:  []HelpLine{{"PRESS <game> TO ann, bob", "a message to those players (TO ALL: to every player); write it below, then a line END (a seat's press a day is limited)"}},
	Usage: lang.M("write PRESS TO ann, bob (or PRESS TO ALL), your message below it, and a line END after it"),
	Kind:  Change, Limit: Changes,
	Parse: func(in In) (Command, bool, lang.Msg) {
		// PRESS [game] TO a, b | PRESS [game] TO ALL
		cmd, args := start(Press, in), in.Args
		if len(args) > 0 && !strings.EqualFold(args[0], "TO") && gameArg(&cmd, args[0]) {
			args = args[1:]
		}
		if cmd.Game == "" {
			return cmd, false, lang.M("PRESS needs a game")
		}
		if len(args) < 2 || !strings.EqualFold(args[0], "TO") {
			return cmd, false, lang.M("PRESS needs TO and the players it goes to")
		}
		names := strings.FieldsFunc(strings.Join(args[1:], " "), func(r rune) bool { return r == ',' || r == ' ' })
		if len(names) == 1 && strings.EqualFold(names[0], "ALL") {
			return cmd, true, lang.Msg{}
		}
		for _, n := range names {
			if strings.EqualFold(n, "and") {
				continue
			}
			cmd.To = append(cmd.To, strings.ToLower(n))
		}
		return cmd, true, lang.Msg{}
	},
	Block:     func(Command) bool { return true },
	Examples:  []string{"PRESS TO ann, bob", "press demo1 to all", "PRESS TO ann and bob"},
	Malformed: "PRESS demo1 ann",
}
