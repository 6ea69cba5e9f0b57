package command

import (
	"orrery/engine/lang"
	"strings"
)

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
