package command

import (
	"orrery/engine/lang"
	"strings"
	"time"
)

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
