package command

import (
	"orrery/engine/lang"
	"strings"

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
