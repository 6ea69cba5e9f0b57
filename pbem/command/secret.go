package command

import (
	"strings"

	"orrery/engine/lang"
)

// SendSecret mails a seat's secret to the seat's own address: SECRET
// <game> [seat], or SECRET alone in a mail about a game. The same word
// also gives the sender's secret ("SECRET k7f3q"), which is not a
// command: pbem/route reads it when this parser says the line is not a
// request. One word keeps every old mail working; the answers say which
// way a line was read when that way fails (a refused request: "I read
// SECRET g2 as asking…"; a wrong secret, or a secret given to no game:
// "I read … as your secret", with how to ask), so a sender who meant the
// other is never left guessing.
const SendSecret Name = "SECRET"

// SecretCmd is SECRET as a request.
var SecretCmd = Descriptor{
	Name: SendSecret,
	Help: []HelpLine{{"SECRET <game> [seat]", "your secret in a game, mailed again to the address your seat is held with (never to another)"}},
	// No Usage: a line that is not a request gives a secret, and
	// pbem/route answers one that does neither.
	Kind: Change, Limit: Changes,
	Parse: func(in In) (Command, bool, lang.Msg) {
		// Its word must name a game that exists (IsGame), and a bare
		// SECRET in a mail about a game asks for that game's.
		c, args := start(SendSecret, in), in.Args
		switch {
		case len(args) == 0 && in.Game != "":
			return c, true, lang.Msg{}
		case len(args) >= 1 && len(args) <= 2 && in.IsGame != nil:
			id := strings.ToLower(args[0])
			if !IDPattern.MatchString(id) || !in.IsGame(id) {
				return c, false, lang.Msg{}
			}
			c.Game = id
			if len(args) == 2 {
				c.Seat = strings.ToLower(args[1])
				if !SeatPattern.MatchString(c.Seat) {
					return c, false, lang.Msg{}
				}
			}
			return c, true, lang.Msg{}
		}
		return c, false, lang.Msg{}
	},
	Examples:  []string{"SECRET", "secret demo1", "SECRET demo1 ann"},
	Malformed: "SECRET demo1 9lives",
}
