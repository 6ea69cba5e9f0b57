package command

// The commands about the player rather than a game: settings, absences,
// how their mail reaches the server, and confirming what a mail asked.

import (
	"strings"
	"time"

	"orrery/engine/lang"
	"orrery/pbem/settings"
)

// Set changes a setting of the sender's address, in every game: SET LANG
// ru, SET TZ Europe/Moscow (pbem/settings checks keys and values).
const Set Name = "SET"

// SetCmd is SET.
var SetCmd = Descriptor{
	Name: Set,
	Help: []HelpLine{
		{"SET LANG ru", "write to me in that language: en (English) or ru (Russian); kept for your address, in every game"},
		{"SET TZ Europe/Moscow", "show times in that time zone, with UTC beside them"},
		{"SET REMINDERS off", "no reminders of missing orders, in any game (SET REMINDERS on: again)"},
		{"SET DIGEST on", "one mail a day with every game's news, instead of a report each step"},
		{"SET PICTURES off", "no picture of the board in your reports: smaller mails (SET PICTURES on: again)"},
	},
	Usage: lang.M("write SET, a setting and its value, like: SET LANG ru or SET TZ Europe/Moscow"),
	Kind:  Change, Limit: Changes,
	Parse: func(in In) (Command, bool, lang.Msg) {
		// SET KEY VALUE: a setting's name, and one word (a time zone
		// has no spaces); "set fleet 2" in a game mail stays an order.
		cmd, args := start(Set, in), in.Args
		if len(args) == 2 {
			if _, known := settings.Find(args[0]); known {
				cmd.Verb, cmd.Text = strings.ToUpper(args[0]), args[1]
				return cmd, true, lang.Msg{}
			}
			return cmd, false, lang.M("there is no setting %q (the settings are %s)", args[0], strings.Join(settings.Names(), ", "))
		}
		return cmd, false, lang.M("SET needs a setting and one value")
	},
	Examples:  []string{"SET LANG ru", "set tz Europe/Moscow"},
	Malformed: "SET COLOUR blue",
}

// Settings answers with the sender's settings.
const Settings Name = "SETTINGS"

// SettingsCmd is SETTINGS.
var SettingsCmd = Descriptor{
	Name:  Settings,
	Help:  []HelpLine{{"SETTINGS", "your settings, and how to change them"}},
	Usage: lang.M("write SETTINGS alone on its line"),
	// Counted with the changes, as it always was: it is answered once
	// per mail whatever the count.
	Kind: Read, Limit: Changes,
	Parse:     noArgs(Settings, lang.M("SETTINGS takes no arguments")),
	Examples:  []string{"SETTINGS", "settings"},
	Malformed: "SETTINGS LANG",
}

// Vacation declares an absence: VACATION [game] FROM date TO date.
const Vacation Name = "VACATION"

// VacationCmd is VACATION.
var VacationCmd = Descriptor{
	Name: Vacation,
	Help: []HelpLine{{"VACATION <game> FROM 2026-12-20 TO 2027-01-03", "a declared absence (first and last day away)"},
		{"VACATION ALL FROM 2026-12-20 TO 2027-01-03", "one absence for every game you play, and the games you join later, each under its own vacation rules (send it as a mail of one of your games, with its secret)"}},
	Usage: lang.M("write VACATION, a game and two dates, like: VACATION demo1 FROM 2026-12-20 TO 2027-01-03"),
	Kind:  Change, Limit: Changes,
	Parse: func(in In) (Command, bool, lang.Msg) {
		cmd, args := start(Vacation, in), in.Args
		if len(args) == 5 && strings.EqualFold(args[0], "ALL") {
			// Authenticated as any command of the mail's game is; it
			// then holds in every game of the sender.
			cmd.All, args = true, args[1:]
		} else if len(args) == 5 && gameArg(&cmd, args[0]) {
			args = args[1:]
		}
		if cmd.Game == "" && cmd.All {
			return cmd, false, lang.M("VACATION ALL needs a mail of one of your games, with its secret, like [demo1 yoursecret] in the subject")
		}
		if cmd.Game == "" {
			return cmd, false, lang.M("VACATION needs a game")
		}
		if len(args) != 4 || !strings.EqualFold(args[0], "FROM") || !strings.EqualFold(args[2], "TO") {
			return cmd, false, lang.M("VACATION needs FROM a date TO a date")
		}
		from, err1 := time.Parse("2006-01-02", args[1])
		to, err2 := time.Parse("2006-01-02", args[3])
		if err1 != nil || err2 != nil {
			return cmd, false, lang.M("VACATION's dates are written year-month-day, like 2026-12-20")
		}
		if to.Before(from) {
			return cmd, false, lang.M("VACATION's last day comes before its first")
		}
		cmd.From, cmd.Until = from, to.AddDate(0, 0, 1)
		return cmd, true, lang.Msg{}
	},
	Examples:  []string{"VACATION demo1 FROM 2026-12-20 TO 2027-01-03", "vacation from 2026-12-20 to 2026-12-20", "VACATION ALL FROM 2026-12-20 TO 2027-01-03"},
	Malformed: "VACATION demo1 FROM 2027-01-03 TO 2026-12-20",
}

// Ping answers how the sender's mail reached the server: the sender
// authentication verdicts as the daemon read them, the address it saw,
// whether it accepts such mail, and the address to add to one's contacts
// so that reports are not filtered (issue 41).
const Ping Name = "PING"

// PingCmd is PING.
var PingCmd = Descriptor{
	Name:  Ping,
	Help:  []HelpLine{{"PING", "how your mail reached me (SPF, DKIM, DMARC) and the address to add to your contacts so that my mail is not filtered"}},
	Usage: lang.M("write PING alone on its line"),
	// Counted with the changes, as SETTINGS and MY GAMES: answered once a
	// mail whatever the count.
	Kind: Read, Limit: Changes,
	Parse:     noArgs(Ping, lang.M("PING takes no arguments")),
	Examples:  []string{"PING", "ping"},
	Malformed: "PING me",
}

// Confirm applies orders held as a possibly stale copy, or confirms a
// JOIN or an OBSERVE: in a reply to the mail that says so, or with the
// code it gives.
const Confirm Name = "CONFIRM"

// ConfirmCmd is CONFIRM.
var ConfirmCmd = Descriptor{
	Name:  Confirm,
	Help:  []HelpLine{{"CONFIRM [code]", "in a reply to my mail that holds your orders as a possible stale copy, or that asks you to confirm a JOIN or an OBSERVE: do it now"}},
	Usage: lang.M("reply to my mail that holds your orders (or asks you to confirm) with CONFIRM alone on a line, or write CONFIRM and the code it gives"),
	Kind:  Marker, Limit: Unlimited,
	Parse: func(in In) (Command, bool, lang.Msg) {
		cmd := start(Confirm, in)
		if len(in.Args) == 0 {
			return cmd, true, lang.Msg{}
		}
		if t := strings.ToLower(in.Args[0]); len(in.Args) == 1 && tokenPattern.MatchString(t) {
			cmd.Token = t
			return cmd, true, lang.Msg{}
		}
		return cmd, false, lang.M("CONFIRM takes nothing, or the code my mail that asks you to confirm gives")
	},
	Examples:  []string{"CONFIRM", "confirm 0123456789abcdef"},
	Malformed: "CONFIRM please",
}
