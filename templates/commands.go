package templates

import (
	"strings"

	"orrery/engine"
)

// Command is one line of the HELP reply: a command as typed, and what it
// does (in English, translated by the catalog).
type Command struct{ Syntax, Help string }

// Commands are the players' commands, in the order HELP lists them
// (pbem/route reads them).
var Commands = []Command{
	{"HELP [ruleset]", "this text (and a ruleset's orders)"},
	{"LIST [page N]", "games you can join (and yours), the rulesets I know"},
	{"RULES <ruleset>", "the rules and the order language of a ruleset"},
	{"JOIN <game> [name]", "take a seat in a game that is signing up"},
	{"STATUS <game>", "the board as it stands, and who is still to send"},
	{"BOARD <game>", "the same as STATUS"},
	{"HISTORY <game> [turn]", "the report of a past turn (the last one without), with the press you sent or got then"},
	{"RESIGN <game>", "leave a game"},
	{"WAIT <game>", "ask the game not to resolve early this turn"},
	{"ORDERS <game>", "every line below is an order"},
	{"PRESS <game> TO ann, bob", "a message to those players (TO ALL: to every player); write it below, then a line END (a seat's press a day is limited)"},
	{"VACATION <game> FROM 2026-12-20 TO 2027-01-03", "a declared absence (first and last day away)"},
	{"OBSERVE <game>", "receive a game's public reports (if its GM allows)"},
	{"UNOBSERVE <game>", "stop receiving them"},
	{"RESEND <game> [turn]", "your report of the last turn (or that turn) again"},
	{"CONFIRM [code]", "in a reply to my mail that holds your orders as a possible stale copy, or that asks you to confirm a JOIN or an OBSERVE: do it now"},
	{"SET LANG ru", "write to me in that language: en (English) or ru (Russian); kept for your address, in every game"},
	{"SET TZ Europe/Moscow", "show times in that time zone, with UTC beside them"},
	{"SET REMINDERS off", "no reminders of missing orders, in any game (SET REMINDERS on: again)"},
	{"SET DIGEST on", "one mail a day with every game's news, instead of a report each step"},
	{"SET PICTURES off", "no picture of the board in your reports: smaller mails (SET PICTURES on: again)"},
	{"SETTINGS", "your settings, and how to change them"},
	{"MY GAMES", "the games you play or observe: your seat, the turn, whether your orders are in, who is awaited, the deadline; and your record"},
	{"SECRET <game> [seat]", "your secret in a game, mailed again to the address your seat is held with (never to another)"},
	{"NEW <ruleset> [seats] [name=value]", "open a game for others to JOIN, such as NEW prosper 4 turn=48h (settings: id, seat, turn, abandoned, abandon-after, press, observers, the ruleset's options)"},
	{"START <game>", "start a game you opened, with the players it has"},
	{"INVITE <game> <address>...", "invite others to a game you opened"},
}

// GMCommands are the game master's commands.
var GMCommands = []Command{
	{"GM PAUSE <game> [reason]", "pause the deadlines"},
	{"GM RESUME <game>", "resume them"},
	{"GM DEADLINE <game> +24h reason", "move the deadline (or to a time: 2026-12-01T18:00)"},
	{"GM ADVANCE <game> [FORCE]", "resolve the step now"},
	{"GM ROLLBACK <game> TURN <n> [reason]", "play again from a turn"},
	{"GM REPLACE <game> <player> <address>|BOT [reason]", "give a seat to a new player, or to the computer; its player is told why"},
	{"GM KICK <game> <player> [reason]", "remove a player, who is told why"},
	{"GM MESSAGE <game> <text>", "a message to every player (with no text on its line: the lines below, up to END)"},
	{"GM RESEND <game> [player] [TURN <n>]", "send reports again"},
	{"GM STATUS <game>", "the game as the GM sees it, hidden parts too"},
	{"GM VACATION <game> <player> FROM 2026-12-20 TO 2027-01-03", "an absence, declared for a player"},
	{"GM ORDERS <game> <player>", "orders phoned in: they follow, then END"},
	{"GM JOIN <game> <seat> <address>", "seat a player in a game signing up"},
	{"GM OBSERVE <game> <address> [OFF]", "add (or remove) an observer"},
	{"GM LIST", "every game: turn, deadline, who is awaited"},
	{"GM SHOW <game> [AS <player> | PUBLIC]", "a report as that reader gets it"},
	{"GM PLAYERS <game>", "what orrery game players prints on the server"},
	{"GM LOG <game>", "what orrery game log prints on the server"},
	{"GM EXPORT <game>", "what orrery game export prints on the server"},
	{"GM VERIFY <game>", "what orrery game verify prints on the server"},
}

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
