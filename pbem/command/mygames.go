package command

import (
	"orrery/engine/lang"
	"strings"
)

// MyGames lists the games the sender plays or observes, and their
// record.
const MyGames Name = "MY GAMES"

// MyGamesCmd is MY GAMES, written MY GAMES or MYGAMES.
var MyGamesCmd = Descriptor{
	Name:  MyGames,
	Words: []Name{"MY", "MYGAMES"},
	Help:  []HelpLine{{"MY GAMES", "the games you play or observe: your seat, the turn, whether your orders are in, who is awaited, the deadline; and your record"}},
	Usage: lang.M("write MY GAMES alone on its line"),
	Kind:  Read, Limit: Changes,
	Parse: func(in In) (Command, bool, lang.Msg) {
		cmd, args := start(MyGames, in), in.Args
		if in.Word == "MYGAMES" && len(args) == 0 || len(args) == 1 && strings.EqualFold(args[0], "GAMES") {
			return cmd, true, lang.Msg{}
		}
		if in.Word == "MY" && (len(args) == 0 || !strings.EqualFold(args[0], "GAMES")) {
			return cmd, false, lang.Msg{} // "my fleet moves…": not a command
		}
		return cmd, false, lang.M("MY GAMES takes no arguments")
	},
	Examples:  []string{"MY GAMES", "my games", "MYGAMES"},
	Malformed: "MY GAMES please",
}
