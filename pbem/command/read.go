package command

// The commands that read: rules, boards, past reports and the player's
// games. They change nothing (each descriptor's Limit says how it counts
// against a mail's bounds).

import (
	"strconv"
	"strings"

	"orrery/engine/lang"
)

// Help answers with what a mail may hold; HELP <ruleset> adds that
// ruleset's orders (HELP <game>: its game's).
const Help Name = "HELP"

// HelpCmd is HELP.
var HelpCmd = Descriptor{
	Name:  Help,
	Help:  []HelpLine{{"HELP [ruleset]", "this text (and a ruleset's orders)"}},
	Usage: lang.M("write HELP alone on its line"),
	Kind:  Read, Limit: Reads,
	Parse: func(in In) (Command, bool, lang.Msg) {
		cmd := start(Help, in)
		switch len(in.Args) {
		case 0:
			return cmd, true, lang.Msg{}
		case 1:
			cmd.Ruleset = strings.ToLower(in.Args[0])
			return cmd, true, lang.Msg{}
		}
		return cmd, false, lang.M("%s takes no arguments", Help)
	},
	Examples:  []string{"HELP", "help prosper"},
	Malformed: "HELP me please",
}

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

// Rules answers with a ruleset's rules summary and order language.
const Rules Name = "RULES"

// RulesCmd is RULES.
var RulesCmd = Descriptor{
	Name:  Rules,
	Help:  []HelpLine{{"RULES <ruleset>", "the rules and the order language of a ruleset"}},
	Usage: lang.M("write RULES and a ruleset, like: RULES prosper (LIST names the rulesets)"),
	Kind:  Read, Limit: Reads,
	Parse: func(in In) (Command, bool, lang.Msg) {
		cmd := start(Rules, in)
		if len(in.Args) == 1 {
			cmd.Ruleset = strings.ToLower(in.Args[0])
			return cmd, true, lang.Msg{}
		}
		if len(in.Args) == 0 && in.Game != "" {
			return cmd, true, lang.Msg{} // the rules of this mail's game
		}
		return cmd, false, lang.M("RULES needs one ruleset name")
	},
	Examples:  []string{"RULES prosper", "RULES"},
	Malformed: "RULES prosper and more",
}

// Status answers with the current board and who is still to send.
const Status Name = "STATUS"

// StatusCmd is STATUS.
var StatusCmd = Descriptor{
	Name:  Status,
	Help:  []HelpLine{{"STATUS <game>", "the board as it stands, and who is still to send"}},
	Usage: lang.M("write STATUS and a game, like: STATUS demo1"),
	Kind:  Read, Limit: Reads,
	Parse:     oneGame(Status, false),
	Examples:  []string{"STATUS demo1", "status"},
	Malformed: "STATUS demo1 now",
}

// Board answers as STATUS does.
const Board Name = "BOARD"

// BoardCmd is BOARD.
var BoardCmd = Descriptor{
	Name:  Board,
	Help:  []HelpLine{{"BOARD <game>", "the same as STATUS"}},
	Usage: lang.M("write BOARD and a game, like: BOARD demo1"),
	Kind:  Read, Limit: Reads,
	Asks:      Status,
	Parse:     oneGame(Board, false),
	Examples:  []string{"BOARD demo1", "board"},
	Malformed: "BOARD demo1 now",
}

// History answers with the report of a past turn (the last without a
// turn), with the press of then.
const History Name = "HISTORY"

// HistoryCmd is HISTORY.
var HistoryCmd = Descriptor{
	Name:  History,
	Help:  []HelpLine{{"HISTORY <game> [turn]", "the report of a past turn (the last one without), with the press you sent or got then"}},
	Usage: lang.M("write HISTORY, a game and maybe a turn, like: HISTORY demo1 3"),
	Kind:  Read, Limit: Reads,
	Parse:     gameTurn(History),
	Examples:  []string{"HISTORY demo1 3", "history", "HISTORY 2"},
	Malformed: "HISTORY demo1 third",
}

// Resend mails the sender's report of the last (or that) turn again.
const Resend Name = "RESEND"

// ResendCmd is RESEND.
var ResendCmd = Descriptor{
	Name:  Resend,
	Help:  []HelpLine{{"RESEND <game> [turn]", "your report of the last turn (or that turn) again"}},
	Usage: lang.M("write RESEND, a game and maybe a turn, like: RESEND demo1 or RESEND demo1 3"),
	Kind:  Read, Limit: Reads,
	Parse:     gameTurn(Resend),
	Examples:  []string{"RESEND demo1", "resend 3"},
	Malformed: "RESEND demo1 3 4",
}

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

// noArgs parses SETTINGS and PING: the word alone; why is the reason
// given for a line with more.
func noArgs(n Name, why lang.Msg) func(In) (Command, bool, lang.Msg) {
	return func(in In) (Command, bool, lang.Msg) {
		if len(in.Args) == 0 {
			return start(n, in), true, lang.Msg{}
		}
		return start(n, in), false, why
	}
}
