package game

// This file keeps the seat of a player whose mail bounces (issue 39:
// losing mail is not losing the seat). When the mail side gives up on an
// address (MarkUnreachable), each seat it holds starts a spell of
// bouncing on its holder's record: the seat plays its defaults and the
// game waits for it no more, the GM and the other players are told, but
// the seat stays its holder's for the game's abandon window (Settings.
// BounceWindow: --abandon-after steps played by defaults, or
// DefaultBounceWindow when the game never abandons a silent seat). Only
// when the window has passed does the game's abandon policy apply, as it
// does to a seat whose player stopped sending (abandonSeat): under "open"
// the seat is offered to JOIN only then, under "bot" the bot takes it
// only then. If the holder writes before (MarkReachable, which the mail
// side calls for mail it believes comes from the address), the spell ends:
// the seat is theirs as before, the game waits for them again, and they
// are told what happened while their mail bounced. Everything is in the
// game's record (Holder.Bounces, Game.Unreachable), so a restart changes
// nothing; the log gets a gm entry for each change, which replay skips.

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"orrery/engine/lang"
	"orrery/engine/store"
)

// DefaultBounceWindow is how many steps played by defaults a seat whose
// mail bounces stays its holder's in a game that never abandons a silent
// seat (AbandonAfter 0): its abandon policy still applies in the end.
const DefaultBounceWindow = 3

// BounceWindow is how many steps played by defaults a seat whose mail
// bounces stays its holder's before the abandon policy applies to it: the
// game's AbandonAfter, or DefaultBounceWindow.
func (st Settings) BounceWindow() int {
	if st.AbandonAfter > 0 {
		return st.AbandonAfter
	}
	return DefaultBounceWindow
}

// Bounce is one spell during which mail to a seat's holder bounced.
type Bounce struct {
	// Since is when the mail side gave the address up (MarkUnreachable),
	// at the game's step Step; Why is its reason.
	Since time.Time `json:"since"`
	Step  uint64    `json:"step"`
	Why   string    `json:"why,omitempty"`
	// Told is what the GM and the other players were told then.
	Told string `json:"told,omitempty"`
	// ToldMsg is Told as a message (see lang.Msg), for the player told
	// later in their own language; nil in games from before messages.
	ToldMsg *lang.Msg `json:"told_msg,omitempty"`
	// Defaults are the steps the seat played by defaults since: the
	// window closes when there are BounceWindow of them.
	Defaults []uint64 `json:"defaults,omitempty"`
	// Ended says how the spell ended ("" while it lasts): "back" (the
	// holder wrote before the window closed) or "abandoned" (it closed,
	// and the abandon policy applied), at Until.
	Until time.Time `json:"until,omitempty"`
	Ended string    `json:"ended,omitempty"`
}

// bouncing is the spell of bouncing of p's current holder that keeps the
// seat theirs now, or nil: none, or its window has closed (the seat is
// abandoned), or the seat was unreachable before spells were recorded.
func bouncing(g *Game, p *Player) *Bounce {
	if p == nil || p.Bot || !contains(g.Unreachable, p.Name) || contains(g.Kicked, p.Name) {
		return nil
	}
	h := p.Current()
	if h == nil || h.Bot || len(h.Bounces) == 0 {
		return nil
	}
	if b := &h.Bounces[len(h.Bounces)-1]; b.Ended == "" {
		return b
	}
	return nil
}

// Bouncing is the spell of bouncing that keeps seat name its holder's
// now (see MarkUnreachable), or nil when there is none.
func (g *Game) Bouncing(name string) *Bounce {
	return bouncing(g, g.player(name))
}

// markBouncing starts a spell of bouncing for seat p: it plays its
// defaults and the game no longer waits for it, but it stays its holder's
// for the window. It returns what to tell the GM and the other players.
func markBouncing(g *Game, p *Player, why string, now time.Time) []Notice {
	ensureHolders(g)
	h := p.Current()
	if h == nil {
		return nil
	}
	if !contains(g.Unreachable, p.Name) {
		g.Unreachable = append(g.Unreachable, p.Name)
		sortStrings(g.Unreachable)
	}
	within := lang.MN("%d step", "%d steps", g.Settings.BounceWindow())
	var m lang.Msg
	switch g.Settings.Abandoned {
	case "bot":
		m = lang.M("Mail to %s in %s bounces, so they get no reports: the seat plays its defaults, and if they do not write again within %s the computer plays it from then on.", p.Name, g.ID, within)
	case "open":
		m = lang.M("Mail to %s in %s bounces, so they get no reports: the seat plays its defaults, and if they do not write again within %s it is open for anyone to take (JOIN %s).", p.Name, g.ID, within, g.ID)
	default:
		m = lang.M("Mail to %s in %s bounces, so they get no reports: the seat plays its defaults, and if they do not write again within %s it is marked abandoned.", p.Name, g.ID, within)
	}
	h.Bounces = append(h.Bounces, Bounce{Since: now, Step: g.Step, Why: why, Told: m.English(), ToldMsg: &m})
	return []Notice{seatNotice("unreachable", append(others(g, []string{p.Name}), GM), p.Name, m)}
}

// bounceWindow counts step rec against every seat kept for a holder whose
// mail bounces, if the seat played it by defaults, and applies the abandon
// policy to those whose window it closes. Called by afterStep, in the
// step's transaction.
func bounceWindow(g *Game, rec *StepRecord, now time.Time) []Notice {
	if len(g.Unreachable) == 0 {
		return nil
	}
	defaulted := map[string]bool{}
	for _, a := range rec.Answers {
		if a.Default && a.Prompt.Kind.Blocks() {
			defaulted[a.Prompt.Player] = true
		}
	}
	var out []Notice
	for i := range g.Players {
		p := &g.Players[i]
		b := bouncing(g, p)
		if b == nil || !defaulted[p.Name] {
			continue
		}
		b.Defaults = append(b.Defaults, rec.N)
		if len(b.Defaults) < g.Settings.BounceWindow() {
			continue
		}
		b.Until, b.Ended = now, "abandoned"
		out = append(out, abandonSeat(g, p.Name, orDefault(b.Why, "mail to the address bounces"), "unreachable", now)...)
	}
	return out
}

// trimBounces forgets, after a rollback to step to, the steps undone from
// the windows still open: they no longer count.
func trimBounces(g *Game, to uint64) {
	for i := range g.Players {
		b := bouncing(g, &g.Players[i])
		if b == nil {
			continue
		}
		kept := b.Defaults[:0]
		for _, n := range b.Defaults {
			if n <= to {
				kept = append(kept, n)
			}
		}
		b.Defaults = kept
		if len(kept) == 0 {
			b.Defaults = nil
		}
	}
}

// MarkReachable ends, in each of games ids, the spell of bouncing of every
// seat addr holds whose window is still open: addr wrote again (the mail
// side calls it for mail it believes comes from the address). The seat is
// its holder's as before, the game waits for its orders again, the GM and
// the other players are told, and the holder is told what happened while
// their mail bounced (a "reachable" notice to the seat). A seat whose
// window closed (abandoned under the game's policy) stays as it is. All
// the games change in one transaction, each with its hooks, so that a
// hook may make the address reachable on the mail side in it too; it
// returns the notices, none when there was nothing to end.
func (s *Service) MarkReachable(ctx context.Context, addr string, ids []string, hooks ...Hook) ([]Notice, error) {
	var all []Notice
	err := s.st.Update(ctx, func(tx store.Tx) error {
		all = nil
		for _, id := range ids {
			b, err := gameBucket(tx, id)
			if err != nil {
				continue // gone since the address's games were listed
			}
			g, err := readGame(b)
			if err != nil {
				return fmt.Errorf("game %s: %w", id, err)
			}
			if g.Over() || len(g.Unreachable) == 0 {
				continue
			}
			now := s.now().UTC()
			var ns []Notice
			var names []string
			for i := range g.Players {
				p := &g.Players[i]
				if !SameAddress(p.Email, addr) {
					continue
				}
				sp := bouncing(g, p)
				if sp == nil {
					continue
				}
				sp.Until, sp.Ended = now, "back"
				g.Unreachable = remove(g.Unreachable, p.Name)
				delete(g.Missed, p.Name) // the run of defaults was the bounces', not theirs
				ns = append(ns,
					seatNotice("back", append(others(g, []string{p.Name}), GM), p.Name,
						lang.M("%s writes again in %s: the seat is theirs as before, and the game waits for their orders again.", p.Name, g.ID)),
					seatNotice("reachable", []string{p.Name}, p.Name, backText(g, p.Name, sp)))
				names = append(names, p.Name)
			}
			if len(names) == 0 {
				continue
			}
			g.Updated = now
			if err := writeGame(b, g); err != nil {
				return err
			}
			if err := appendLog(b, &Entry{Time: now, Kind: "gm", Step: g.Step, Source: "gm",
				Text: fmt.Sprintf("reachable %s (%s): wrote again before the seat was abandoned", strings.Join(names, ", "), addr)}); err != nil {
				return err
			}
			all = append(all, ns...)
			if err := runHooks(tx, &Change{Game: g, Notices: ns, Service: s}, hooks); err != nil {
				return err
			}
		}
		return nil
	})
	return all, err
}

// backText tells the holder of seat of g what happened while their mail
// bounced (spell b): since when, which steps played their defaults, and
// what the GM and the other players were told. One sentence pattern for
// each case, so that the mail side translates it whole.
func backText(g *Game, seat string, b *Bounce) lang.Msg {
	since := b.Since
	told := lang.ArgOf(b.Told)
	if b.ToldMsg != nil {
		told = lang.ArgOf(*b.ToldMsg)
	}
	if len(b.Defaults) == 0 {
		return lang.M("Mail to you bounced from %s, so you got no reports of %s. Now that you write again, your seat %s is yours again and I write to you again. No step was played by your defaults meanwhile; the GM and the other players were told: %s",
			since, g.ID, seat, told)
	}
	return lang.M("Mail to you bounced from %s, so you got no reports of %s. Now that you write again, your seat %s is yours again and I write to you again. Meanwhile your defaults were played at %s; the GM and the other players were told: %s",
		since, g.ID, seat, stepList(b.Defaults), told)
}

// stepList names steps: "step 4", "steps 4 and 5", "steps 4, 5 and 6".
func stepList(ns []uint64) lang.Msg {
	if len(ns) == 1 {
		return lang.M("step %d", int(ns[0]))
	}
	var s []string
	for _, n := range ns {
		s = append(s, strconv.FormatUint(n, 10))
	}
	return lang.M("steps %s", lang.Strings(s))
}
