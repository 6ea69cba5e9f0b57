package prosper

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"orrery/engine"
)

// bot plays random legal orders that make progress: it settles affordable
// planets, and attacks where it can win, else gathers its ships. Every
// order is checked on a scratch board before it is written, so its orders
// always parse.
func bot(v *view, p engine.Prompt, r *rand.Rand) string {
	s := v.s
	me := p.Player
	if p.Kind == engine.KindAnytime {
		return botPlan(s, me, r)
	}
	switch s.Phase_ {
	case phaseSettle:
		options := settleOptions(s, me, r)
		if len(options) == 0 {
			return p.Default
		}
		return options[r.IntN(len(options))]
	case phaseMove:
		scratch := s.clone()
		var lines []string
		for k := 0; k < 3; k++ {
			line := botMove(scratch, me, r)
			if line == "" {
				break
			}
			lines = append(lines, line)
		}
		if len(lines) == 0 {
			return "DONE"
		}
		return strings.Join(lines, "\n")
	}
	return ""
}

// settleOptions are SETTLE lines player me could send as a pick now, one
// a planet, each with a random number of ships that fits.
func settleOptions(s *State, me string, r *rand.Rand) []string {
	var options []string
	for i := range s.Planets {
		lo := s.minSettle(i)
		if s.Planets[i].Owner == me {
			lo = 1
		}
		hi := min(s.Supply[me], s.Planets[i].Size.Limit()+s.settleCost(i, me)-s.Planets[i].Ships)
		if hi < lo {
			continue
		}
		n := lo + r.IntN(hi-lo+1)
		if s.checkSettle(me, i, n) == nil {
			options = append(options, fmt.Sprintf("SETTLE %s %d", s.Planets[i].Name, n))
		}
	}
	return options
}

// botPlan answers the plan prompt: mostly a new plan of one to three
// picks that are possible on the board now (a later pick may find them
// taken, which exercises dropping), sometimes PLAN NONE, sometimes
// nothing (no change).
func botPlan(s *State, me string, r *rand.Rand) string {
	options := settleOptions(s, me, r)
	switch k := r.IntN(6); {
	case k == 0:
		return ""
	case k == 1 || len(options) == 0:
		return "PLAN NONE"
	}
	r.Shuffle(len(options), func(a, b int) { options[a], options[b] = options[b], options[a] })
	return strings.Join(options[:min(len(options), 1+r.IntN(3))], "\n")
}

// botMove picks one movement on scratch and applies it there.
func botMove(s *State, me string, r *rand.Rand) string {
	type cand struct{ n, from, to int }
	var attacks, gathers []cand
	comp := s.components(me)
	for _, i := range s.owned(me, false) {
		ships := s.Planets[i].Ships
		for _, j := range s.neighbours(i) {
			t := s.Planets[j]
			if t.Owner == me {
				continue
			}
			need := t.Size.Natives() + 1
			if t.Owner != "" {
				need = t.Ships + 2
			}
			if ships >= need {
				attacks = append(attacks, cand{need + r.IntN(ships-need+1), i, j})
			}
		}
		if ships > 1 {
			for _, j := range s.owned(me, false) {
				room := s.Planets[j].Size.Limit() - s.Planets[j].Ships
				if j != i && room > 0 && comp[i] == comp[j] {
					gathers = append(gathers, cand{1 + r.IntN(min(ships-1, room)), i, j})
				}
			}
		}
	}
	pool := attacks
	if len(pool) == 0 || (len(gathers) > 0 && r.IntN(4) == 0) {
		pool = append(pool, gathers...)
	}
	r.Shuffle(len(pool), func(a, b int) { pool[a], pool[b] = pool[b], pool[a] })
	for _, c := range pool {
		if _, err := s.move(me, c.n, c.from, c.to); err == nil {
			return fmt.Sprintf("MOVE %d FROM %s TO %s", c.n, s.Planets[c.from].Name, s.Planets[c.to].Name)
		}
	}
	return ""
}
