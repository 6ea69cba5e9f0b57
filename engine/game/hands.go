package game

import (
	"strings"
	"unicode/utf8"

	"orrery/engine/lang"
)

// This file says who plays a seat that changed hands (issue 45): a seat
// keeps its name for ever (its orders, reports and history are the
// seat's), but the others should see that bob left ("seat bob, played by
// eve", "seat bob (bot)"), and the new holder is greeted by their own name.

// Hand is a seat now held by someone other than its first holder: By is
// the new holder's own name, or Bot set when the computer plays it. In a
// public report (PublicHandsAt) By is empty for a holder who has no name
// of their own: "played by a new player".
type Hand struct {
	Seat string
	By   string
	Bot  bool
}

// Hands lists the seats of g that changed hands and are held now by
// someone other than the player who first held them, in seat order. A
// seat the bot played from the start, or given back to its first
// player, is not listed.
func (g *Game) Hands() []Hand { return g.hands(0, false) }

// PublicHandsAt is HandsAt as observers read it: a public report or web
// page may be anyone's to read, so it names a new holder only by the
// name they gave or were given (JOIN's, game replace --name), never by
// their address's local part as the players' own reports do (a public
// export blanks the holders' addresses too).
func (g *Game) PublicHandsAt(n uint64) []Hand { return g.handsAt(n, true) }

// HandsAt is Hands as they stood at step n: who held each seat when its
// orders for step n were theirs to send (the last holder whose From is
// at most n), so that a past report, read again in HISTORY, on a step's
// web page or in an archive, says who played the seat then and not who
// plays it today. The latest step is Hands (a seat handed over since it
// resolved is played by its new holder from the next); an earlier step 0
// (the setup) lists none.
func (g *Game) HandsAt(n uint64) []Hand { return g.handsAt(n, false) }

func (g *Game) handsAt(n uint64, public bool) []Hand {
	switch {
	case n >= g.Step:
		return g.hands(0, public)
	case n == 0:
		return nil
	}
	return g.hands(n, public)
}

// hands lists the seats whose holder at step n (0: now) is not their
// first; public leaves By empty for a holder without a name of their own.
func (g *Game) hands(n uint64, public bool) []Hand {
	var out []Hand
	for _, p := range g.Players {
		hs := p.History(g)
		if len(hs) < 2 {
			continue
		}
		first, cur := hs[0], p.Current()
		if contains(g.Kicked, p.Name) {
			cur = nil
		}
		if n > 0 {
			at := 0
			for i := range hs {
				if hs[i].From <= n {
					at = i
				}
			}
			// The seat's state now does not matter: whoever held it at
			// step n, unless their holding had ended before it (a seat
			// kicked or resigned plays its defaults, held by nobody).
			cur = &hs[at]
			if cur.Ended != "" && cur.To < n {
				cur = nil
			}
		}
		if cur == nil {
			continue
		}
		if cur.Bot == first.Bot && (cur.Bot || SameAddress(cur.Email, first.Email)) {
			continue
		}
		h := Hand{Seat: p.Name, By: holderName(p, *cur), Bot: cur.Bot}
		if public {
			h.By = cur.Name
		}
		out = append(out, h)
	}
	return out
}

// OwnName is the name to greet the holder of seat p by: the seat's name
// while its first player holds it, else the name the new holder gave
// (JOIN's), else their address's local part.
func (p Player) OwnName() string {
	h := p.Current()
	if h == nil || h.Bot || len(p.Holders) < 2 || SameAddress(h.Email, p.Holders[0].Email) {
		return p.Name
	}
	return holderName(p, *h)
}

func holderName(p Player, h Holder) string {
	if h.Bot {
		return ""
	}
	if h.Name != "" {
		return h.Name
	}
	local, _, _ := strings.Cut(h.Email, "@")
	if local == "" {
		return p.Name
	}
	return local
}

// HandNotes are the notes a board's picture carries under its legend
// for hs (engine.NotedView): "bob: played by eve", "dan: played by the
// computer"; the side that draws it writes them in the reader's language.
func HandNotes(hs []Hand) []lang.Msg {
	var out []lang.Msg
	for _, h := range hs {
		switch {
		case h.Bot:
			out = append(out, lang.M("%s: played by the computer", h.Seat))
		case h.By == "":
			out = append(out, lang.M("%s: played by a new player", h.Seat))
		default:
			out = append(out, lang.M("%s: played by %s", h.Seat, h.By))
		}
	}
	return out
}

// maxHolderName is the longest own name a seat's new holder may be given.
const maxHolderName = 40

// holderNameOK checks the own name the GM gives the new holder of seat p
// (Seat.Name): a name that reads as a name in every report, never an
// address (reports and public pages show it) nor another seat's name.
func holderNameOK(g *Game, p *Player, to Seat) error {
	switch {
	case to.Bot:
		return userErr(lang.M("the computer takes no name of its own: give a name with an address"))
	case strings.ContainsAny(to.Name, "@<>\r\n\t") || utf8.RuneCountInString(to.Name) > maxHolderName:
		return userErr(lang.M("%q is not a name to show in reports: at most %d letters, without @ or line breaks", to.Name, maxHolderName))
	}
	if q := g.player(to.Name); q != nil && q.Name != p.Name {
		return userErr(lang.M("%s is the name of another seat of %s: give the new player another name", q.Name, g.ID))
	}
	return nil
}
