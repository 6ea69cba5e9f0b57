package templates

import (
	"strings"

	"orrery/engine"
	"orrery/pbem/command"
)

// Command is one line of the HELP reply: a command as typed, and what it
// does (in English, translated by the catalog).
type Command = command.HelpLine

// Commands are the players' commands, in the order HELP lists them: the
// lines of pbem/command's table.
var Commands = command.HelpLines()

// GMCommands are the game master's commands, from the same table.
var GMCommands = command.GMHelpLines()

// cmdColumn is where the help of a command starts in the text part.
const cmdColumn = 27

// cmd writes one command of the HELP reply: the command at two spaces,
// its help at cmdColumn (on the next line when the command is longer),
// continued under that column.
func cmd(syntax, help string) string {
	pad := strings.Repeat(" ", cmdColumn)
	first := "  " + syntax
	if engine.Width(first)+1 > cmdColumn {
		return verbatim(first + "\n" + engine.Wrap(help, Width, pad, pad))
	}
	first += strings.Repeat(" ", cmdColumn-engine.Width(first))
	return verbatim(engine.Wrap(help, Width, first, pad))
}
