package command

// The commands of a seat's life: opening, joining, watching and leaving a
// game, and the press between its players.

import (
	"strings"

	"orrery/engine/lang"
)

// New opens a game for signup: NEW <ruleset> [seats] [name=value ...].
const New Name = "NEW"

// NewCmd is NEW.
var NewCmd = Descriptor{
	Name: New,
	Help: []HelpLine{{"NEW <ruleset> [seats] [name=value]", "open a game for others to JOIN, such as NEW prosper 4 turn=48h (settings: id, seat, turn, abandoned, abandon-after, press, observers, the ruleset's options)"},
		{"NEW <ruleset> quiet=23-07 weekends=off", "no deadline falls in any player's night (23:00 to 07:00 in each player's own time zone, SET TZ), and the deadline clock stops from Saturday 00:00 to Monday 00:00"}},
	Usage: lang.M("write NEW, a ruleset and maybe the seats and settings, like: NEW prosper 4 turn=48h"),
	Kind:  Change, Limit: Changes,
	Parse: func(in In) (Command, bool, lang.Msg) {
		// The daemon reads the settings; a line whose first word is not
		// a ruleset is not NEW.
		cmd := start(New, in)
		if len(in.Args) == 0 {
			return cmd, false, lang.M("NEW needs a ruleset, like NEW prosper (LIST names the rulesets)")
		}
		cmd.Ruleset, cmd.Args, cmd.Game = strings.ToLower(in.Args[0]), in.Args[1:], ""
		if in.IsRuleset != nil && !in.IsRuleset(cmd.Ruleset) {
			return cmd, false, lang.M("there is no ruleset %q (LIST names them)", cmd.Ruleset)
		}
		return cmd, true, lang.Msg{}
	},
	Examples:  []string{"NEW prosper", "new prosper 4 turn=48h"},
	Malformed: "NEW",
}

// Start starts a game the sender opened, with the players it has.
const Start Name = "START"

// StartCmd is START.
var StartCmd = Descriptor{
	Name:  Start,
	Help:  []HelpLine{{"START <game>", "start a game you opened, with the players it has"}},
	Usage: lang.M("write START and your game, like: START prosper-k7f3"),
	Kind:  Change, Limit: Changes,
	Parse:     gameOrMail(Start, lang.M("START needs the game you opened")),
	Examples:  []string{"START prosper-k7f3", "start"},
	Malformed: "START two games",
}

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

// Invite invites addresses to a game the sender opened: INVITE [game]
// address...
const Invite Name = "INVITE"

// InviteCmd is INVITE.
var InviteCmd = Descriptor{
	Name:  Invite,
	Help:  []HelpLine{{"INVITE <game> <address>...", "invite others to a game you opened"}},
	Usage: lang.M("write INVITE, your game and addresses, like: INVITE prosper-k7f3 ann@example.org bob@example.org"),
	Kind:  Change, Limit: Changes,
	Parse: func(in In) (Command, bool, lang.Msg) {
		cmd, args := start(Invite, in), in.Args
		if len(args) > 0 && !strings.Contains(args[0], "@") && gameArg(&cmd, args[0]) {
			args = args[1:]
		}
		if cmd.Game == "" {
			return cmd, false, lang.M("INVITE needs the game you opened")
		}
		if len(args) == 0 {
			return cmd, false, lang.M("INVITE needs the addresses to invite")
		}
		for _, a := range strings.FieldsFunc(strings.Join(args, " "), func(r rune) bool { return r == ',' || r == ' ' || r == ';' }) {
			a = strings.Trim(a, "<>")
			if !strings.Contains(a, "@") {
				return cmd, false, lang.M("%q is not a mail address", a)
			}
			cmd.Args = append(cmd.Args, a)
		}
		return cmd, true, lang.Msg{}
	},
	Examples:  []string{"INVITE prosper-k7f3 ann@example.org bob@example.org", "invite <ann@example.org>; bob@example.org"},
	Malformed: "INVITE demo1 ann",
}

// Observe receives the public reports of a game, once the sender confirms it.
const Observe Name = "OBSERVE"

// ObserveCmd is OBSERVE.
var ObserveCmd = Descriptor{
	Name:  Observe,
	Help:  []HelpLine{{"OBSERVE <game>", "receive a game's public reports (if its GM allows)"}},
	Usage: lang.M("write OBSERVE and a game, like: OBSERVE demo1"),
	Kind:  Change, Limit: Changes,
	Parse:     gameOrMail(Observe, lang.M("OBSERVE needs one game id")),
	Examples:  []string{"OBSERVE demo1", "observe"},
	Malformed: "OBSERVE demo1 demo2",
}

// Unobserve stops receiving them.
const Unobserve Name = "UNOBSERVE"

// UnobserveCmd is UNOBSERVE.
var UnobserveCmd = Descriptor{
	Name:  Unobserve,
	Help:  []HelpLine{{"UNOBSERVE <game>", "stop receiving them"}},
	Usage: lang.M("write UNOBSERVE and a game, like: UNOBSERVE demo1"),
	Kind:  Change, Limit: Changes,
	Parse:     gameOrMail(Unobserve, lang.M("UNOBSERVE needs one game id")),
	Examples:  []string{"UNOBSERVE demo1", "unobserve"},
	Malformed: "UNOBSERVE demo1 demo2",
}

// Resign leaves the game: the seat plays its defaults from then on.
const Resign Name = "RESIGN"

// ResignCmd is RESIGN.
var ResignCmd = Descriptor{
	Name:  Resign,
	Help:  []HelpLine{{"RESIGN <game>", "leave a game"}},
	Usage: lang.M("write RESIGN and a game, like: RESIGN demo1"),
	Kind:  Change, Limit: Changes,
	Parse:     oneGame(Resign, false),
	Examples:  []string{"RESIGN demo1", "resign"},
	Malformed: "RESIGN demo1 now",
}

// Wait asks the game not to resolve early this turn.
const Wait Name = "WAIT"

// WaitCmd is WAIT.
var WaitCmd = Descriptor{
	Name:  Wait,
	Help:  []HelpLine{{"WAIT <game>", "ask the game not to resolve early this turn"}},
	Usage: lang.M("write WAIT and a game, like: WAIT demo1"),
	Kind:  Change, Limit: Changes,
	Parse:     oneGame(Wait, false),
	Examples:  []string{"WAIT demo1", "wait"},
	Malformed: "WAIT demo1 now",
}

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
