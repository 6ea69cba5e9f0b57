package command

import (
	"strings"

	"orrery/engine/lang"
)

// GM is a game master's command; its Verb says which (GMVerbs).
const GM Name = "GM"

// Verb is one of the GM's commands, GM <verb> <game> ...
type Verb struct {
	Name string   // PAUSE…
	Help HelpLine // its line in HELP
	// CLI is the `orrery game` command that does the same on the
	// server's command line (a test in cmd/orrery checks it exists).
	CLI string
	// Query says that the daemon answers it by running CLI, which only
	// reads, and prints what it prints; cmd/orrery runs only those.
	Query bool
	// Block says whether the verb takes the lines below it, up to END,
	// as its Text (nil: never).
	Block func(Command) bool
}

// GMVerbs are the GM's verbs, in the order HELP lists them.
var GMVerbs = []Verb{
	{Name: "PAUSE", Help: HelpLine{"GM PAUSE <game> [reason]", "pause the deadlines"}, CLI: "pause"},
	{Name: "RESUME", Help: HelpLine{"GM RESUME <game>", "resume them"}, CLI: "resume"},
	{Name: "DEADLINE", Help: HelpLine{"GM DEADLINE <game> +24h reason", "move the deadline (or to a time: 2026-12-01T18:00)"}, CLI: "deadline"},
	{Name: "ADVANCE", Help: HelpLine{"GM ADVANCE <game> [FORCE]", "resolve the step now"}, CLI: "advance"},
	{Name: "ROLLBACK", Help: HelpLine{"GM ROLLBACK <game> TURN <n> [reason]", "play again from a turn"}, CLI: "rollback"},
	{Name: "REPLACE", Help: HelpLine{"GM REPLACE <game> <player> <address>|BOT [reason]", "give a seat to a new player, or to the computer; its player is told why"}, CLI: "replace"},
	{Name: "KICK", Help: HelpLine{"GM KICK <game> <player> [reason]", "remove a player, who is told why"}, CLI: "kick"},
	{Name: "MESSAGE", Help: HelpLine{"GM MESSAGE <game> <text>", "a message to every player (with no text on its line: the lines below, up to END)"}, CLI: "message",
		Block: func(c Command) bool { return c.Text == "" }},
	{Name: "RESEND", Help: HelpLine{"GM RESEND <game> [player] [TURN <n>]", "send reports again"}, CLI: "resend"},
	{Name: "STATUS", Help: HelpLine{"GM STATUS <game>", "the game as the GM sees it, hidden parts too"}, CLI: "show"},
	{Name: "VACATION", Help: HelpLine{"GM VACATION <game> <player> FROM 2026-12-20 TO 2027-01-03", "an absence, declared for a player"}, CLI: "vacation"},
	{Name: "ORDERS", Help: HelpLine{"GM ORDERS <game> <player>", "orders phoned in: they follow, then END"}, CLI: "orders",
		Block: func(Command) bool { return true }},
	{Name: "JOIN", Help: HelpLine{"GM JOIN <game> <seat> <address>", "seat a player in a game signing up"}, CLI: "join"},
	{Name: "OBSERVE", Help: HelpLine{"GM OBSERVE <game> <address> [OFF]", "add (or remove) an observer"}, CLI: "observe"},
	{Name: "LIST", Help: HelpLine{"GM LIST", "every game: turn, deadline, who is awaited"}, CLI: "list", Query: true},
	{Name: "SHOW", Help: HelpLine{"GM SHOW <game> [AS <player> | PUBLIC]", "a report as that reader gets it"}, CLI: "show", Query: true},
	{Name: "PLAYERS", Help: HelpLine{"GM PLAYERS <game>", "what orrery game players prints on the server"}, CLI: "players", Query: true},
	{Name: "LOG", Help: HelpLine{"GM LOG <game>", "what orrery game log prints on the server"}, CLI: "log", Query: true},
	{Name: "EXPORT", Help: HelpLine{"GM EXPORT <game>", "what orrery game export prints on the server"}, CLI: "export", Query: true},
	{Name: "VERIFY", Help: HelpLine{"GM VERIFY <game>", "what orrery game verify prints on the server"}, CLI: "verify", Query: true},
}

// FindVerb finds a GM verb by its name in upper case.
func FindVerb(name string) (Verb, bool) {
	for _, v := range GMVerbs {
		if v.Name == name {
			return v, true
		}
	}
	return Verb{}, false
}

// IsQuery says whether name is an `orrery game` command a GM verb by
// mail runs (GM LIST runs `orrery game list`…): the only ones the
// daemon's GM queries may run.
func IsQuery(name string) bool {
	for _, v := range GMVerbs {
		if v.Query && v.CLI == name {
			return true
		}
	}
	return false
}

// GMHelpLines are the GM's lines of the HELP reply, in order.
func GMHelpLines() []HelpLine {
	out := make([]HelpLine, len(GMVerbs))
	for i, v := range GMVerbs {
		out[i] = v.Help
	}
	return out
}

func verbNames() string {
	names := make([]string, len(GMVerbs))
	for i, v := range GMVerbs {
		names[i] = v.Name
	}
	return strings.Join(names, ", ")
}

// GMCmd is GM <verb> <game> ...; its HELP lines are its verbs'.
var GMCmd = Descriptor{
	Name:  GM,
	Usage: lang.M("write GM, a verb and a game, like: GM PAUSE demo1 the reason"),
	Kind:  GMKind,
	// The GM's mail is not limited; a GM line from anyone else is
	// refused, and counts as a change until then.
	Limit: Changes,
	Parse: func(in In) (Command, bool, lang.Msg) {
		// GM VERB game args..., or GM LIST (every game: no game named)
		cmd, args := start(GM, in), in.Args
		if len(args) >= 1 && strings.EqualFold(args[0], "LIST") {
			cmd.Verb, cmd.Game = "LIST", ""
			if len(args) > 1 {
				return cmd, false, lang.M("GM LIST takes no arguments: it lists every game")
			}
			return cmd, true, lang.Msg{}
		}
		if len(args) < 2 {
			return cmd, false, lang.M("GM needs a verb and a game")
		}
		cmd.Verb = strings.ToUpper(args[0])
		if _, ok := FindVerb(cmd.Verb); !ok {
			return cmd, false, lang.M("%q is not a GM verb: use one of %s", args[0], verbNames())
		}
		if !gameArg(&cmd, args[1]) {
			return cmd, false, lang.M("%q is not a game id", args[1])
		}
		cmd.Args = args[2:]
		cmd.Text = strings.Join(cmd.Args, " ")
		return cmd, true, lang.Msg{}
	},
	Block: func(c Command) bool {
		v, _ := FindVerb(c.Verb)
		return v.Block != nil && v.Block(c)
	},
	Examples:  []string{"GM PAUSE demo1 the reason", "gm list", "GM ORDERS demo1 ann", "GM MESSAGE demo1"},
	Malformed: "GM DANCE demo1",
}
