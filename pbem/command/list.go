package command

import (
	"orrery/engine/lang"
	"strconv"
	"strings"
)

// List lists games: a stranger sees those open to JOIN, a player theirs
// first, the GM all; 20 a page.
const List Name = "LIST"

// ListCmd is LIST.
var ListCmd = Descriptor{
	Name:  List,
	Help:  []HelpLine{{"LIST [page N]", "games you can join (and yours), the rulesets I know"}},
	Usage: lang.M("write LIST alone on its line, or LIST page 2 for the next games"),
	Kind:  Read, Limit: Reads,
	Parse: func(in In) (Command, bool, lang.Msg) {
		cmd, args := start(List, in), in.Args
		if len(args) == 0 {
			return cmd, true, lang.Msg{}
		}
		// LIST 2, LIST page 2
		if len(args) == 2 && strings.EqualFold(args[0], "PAGE") {
			args = args[1:]
		}
		if n, err := strconv.Atoi(args[0]); err == nil && len(args) == 1 && n >= 1 {
			cmd.Page = n
			return cmd, true, lang.Msg{}
		}
		return cmd, false, lang.M("LIST takes only a page number, like LIST page 2")
	},
	Examples:  []string{"LIST", "list page 2", "LIST 3"},
	Malformed: "LIST everything",
}
