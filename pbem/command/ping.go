package command

import "orrery/engine/lang"

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
	Parse: func(in In) (Command, bool, lang.Msg) {
		if len(in.Args) == 0 {
			return start(Ping, in), true, lang.Msg{}
		}
		return start(Ping, in), false, lang.M("PING takes no arguments")
	},
	Examples:  []string{"PING", "ping"},
	Malformed: "PING me",
}
