package game

import (
	"context"
	"crypto/subtle"
	"fmt"
	"strings"
	"time"

	"orrery/engine/lang"
	"orrery/engine/store"
)

// This file gives a seat back to its player: under the "bot" policy for
// abandoned seats, a player who writes again, with the secret they held
// the seat with, within the game's return window (Settings.ReturnWindow
// turns after the bot took over) gets the seat back, with a summary of
// what the bot did; the others and the GM are told, and the seat's
// holders show the bot's holding ended "returned".

// DefaultReturnWindow is the return window when the game sets none.
const DefaultReturnWindow = 2

// returnWindow is g's return window in steps.
func (st Settings) returnWindow() int {
	if st.ReturnWindow > 0 {
		return st.ReturnWindow
	}
	return DefaultReturnWindow
}

// returnable finds the seat of g that addr held until the bot took it
// (abandoned), if it may still come back with secret: the game is fewer
// than the return window's turns past the turn the bot took over in.
// botSteps is how many steps the bot played. ok false: none.
func returnable(g *Game, addr, secret string) (p *Player, botSteps int, ok bool) {
	if g.Over() || g.Settings.Abandoned != "bot" || strings.TrimSpace(secret) == "" {
		return nil, 0, false
	}
	for i := range g.Players {
		q := &g.Players[i]
		n := len(q.Holders)
		if !q.Bot || n < 2 {
			continue
		}
		prev, cur := q.Holders[n-2], q.Holders[n-1]
		if !cur.Bot || prev.Ended != "abandoned" || !SameAddress(prev.Email, addr) || prev.Secret == "" ||
			subtle.ConstantTimeCompare([]byte(strings.ToLower(prev.Secret)), []byte(strings.ToLower(strings.TrimSpace(secret)))) != 1 {
			continue
		}
		played := 0
		if g.Step >= cur.From {
			played = int(g.Step - cur.From + 1)
		}
		if cur.Turn == 0 || g.Turn >= cur.Turn+g.Settings.returnWindow() {
			return nil, 0, false
		}
		return q, played, true
	}
	return nil, 0, false
}

// MayReturn reports whether a mail from addr with secret would get a
// seat of game g back from the bot (ReturnSeat): the mail side asks
// before it refuses an address no seat has now.
func MayReturn(g *Game, addr, secret string) bool {
	_, _, ok := returnable(g, addr, secret)
	return ok
}

// ReturnSeat gives addr back the seat of game id the bot took from it,
// if addr writes with its old secret within the return window; the seat
// keeps the secret it had. It returns the seat's name ("" and no error
// when there is none to give back).
func (s *Service) ReturnSeat(ctx context.Context, id, addr, secret string, hooks ...Hook) (string, []Notice, error) {
	var name string
	_, ns, err := s.gmChange(ctx, id, hooks, func(b store.Bucket, g *Game, now time.Time) ([]Notice, string, error) {
		name = ""
		p, played, ok := returnable(g, addr, secret)
		if !ok {
			return nil, "", nil
		}
		name = p.Name
		botFrom := p.Holders[len(p.Holders)-1].From
		old := p.Holders[len(p.Holders)-2]
		g.handOver(p, old.Email, false, "returned", "its player wrote again", now)
		p.Secret = old.Secret
		summary := lang.MN("The bot played it for %d step (steps %d to %d): HISTORY %s shows what it did.",
			"The bot played it for %d steps (steps %d to %d): HISTORY %s shows what it did.", played, int(botFrom), int(g.Step), g.ID)
		if played == 0 {
			summary = lang.M("The bot has not played a step of it yet.")
		}
		if err := appendLog(b, &Entry{Time: now, Kind: "gm", Step: g.Step, Player: p.Name, Source: "mail",
			Text: fmt.Sprintf("%s takes seat %s back from the bot", old.Email, p.Name)}); err != nil {
			return nil, "", err
		}
		return []Notice{
			tell("returned", []string{p.Name}, lang.M("Welcome back to %s: your seat %s is yours again from step %d. %s", g.ID, p.Name, int(g.Step+1), summary)),
			tell("returned", append(others(g, []string{p.Name}), GM), lang.M("%s of %s is played by its player again, who wrote within %d turns of the bot taking over.", p.Name, g.ID, g.Settings.returnWindow())),
		}, "", nil
	})
	if err != nil {
		return "", nil, err
	}
	return name, ns, nil
}

// lastHumanGone pauses g when the bot now plays every seat that is not
// kicked, so that it does not play itself to its end unwatched, and
// returns the notice that asks the GM; none while a person plays.
func lastHumanGone(g *Game, now time.Time) []Notice {
	for _, p := range g.Players {
		if !p.Bot && !contains(g.Kicked, p.Name) {
			return nil
		}
	}
	if g.Paused {
		return nil
	}
	g.Paused, g.PausedAt = true, now
	return []Notice{tell("paused", []string{GM}, lang.M("The last seat a person played in %s passed to the bot, so the game is paused rather than played by bots alone to its end. To let the bots finish it: orrery game resume %s (or GM RESUME %s by mail); a seat may also go to a new player first (orrery game replace).", g.ID, g.ID, g.ID))}
}

// FormerHolding finds the seat of g that addr held and holds no more:
// its name, and the holding that ended (the last one). ok is false when
// addr holds a seat of g now, or never held one.
func FormerHolding(g *Game, addr string) (seat string, h Holder, next Holder, ok bool) {
	if _, now := g.PlayerByEmail(addr); now || strings.TrimSpace(addr) == "" {
		return "", Holder{}, Holder{}, false
	}
	for _, p := range g.Players {
		for i := len(p.Holders) - 2; i >= 0; i-- {
			if !p.Holders[i].Bot && SameAddress(p.Holders[i].Email, addr) {
				return p.Name, p.Holders[i], p.Holders[i+1], true
			}
		}
	}
	return "", Holder{}, Holder{}, false
}

// PassedMsg tells the former holder of seat (FormerHolding) who writes
// again that the seat passed to another player, when and why, instead of
// a bare "your address is not registered".
func PassedMsg(g *Game, seat string, h, next Holder) lang.Msg {
	var why lang.Msg
	switch h.Ended {
	case "replaced":
		why = lang.M("the GM gave it to a new player")
	case "kicked":
		why = lang.M("the GM removed you from the game")
	case "resigned":
		why = lang.M("you resigned")
	case "abandoned":
		why = lang.M("no orders came from you for several steps in a row")
	case "unreachable":
		why = lang.M("mail to your address bounced")
	case "taken":
		why = lang.M("it was offered to others, and a new player took it")
	default:
		why = lang.M("it changed hands")
	}
	if h.Why != "" && (h.Ended == "replaced" || h.Ended == "kicked") {
		why = lang.M("%s (%s)", why, h.Why)
	}
	if next.Bot {
		return lang.M("Your seat %s in %s passed to the bot on %s: %s. This address no longer plays in %s.", seat, g.ID, h.Until, why, g.ID)
	}
	return lang.M("Your seat %s in %s passed to another player on %s: %s. This address no longer plays in %s.", seat, g.ID, h.Until, why, g.ID)
}

// SignOfLife records that player of game id wrote this step though no
// orders of theirs count yet (the mail side held them as a possible stale
// copy, to be confirmed): if the step then plays their defaults, it is no
// miss, and the seat is not abandoned for it. Saying it twice changes
// nothing.
func (s *Service) SignOfLife(ctx context.Context, id, player string, hooks ...Hook) error {
	_, _, err := s.gmChange(ctx, id, hooks, func(_ store.Bucket, g *Game, _ time.Time) ([]Notice, string, error) {
		if _, ok := g.PlayerByName(player); ok && !contains(g.Alive, player) {
			g.Alive = append(g.Alive, player)
		}
		return nil, "", nil
	})
	return err
}
