package earthman

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"

	"orrery/engine"
)

// The full rules' bot plays for Victory Points: they come from Power (at
// least 8 and more than the others: two a turn), and Power from
// developments. So it expands: its fleets go in groups of three (sure
// success; two with a level of Colonisation) to the worlds with regions to
// develop or Devastation to clear, nearest first; the developments build
// fleets in pairs (no Risk roll) while there are resources to pay for them
// and research the rest (Colonisation first); a world with nothing left to
// develop sets its fleets aside for Political Influence (Power for every
// development there; the fleets come back as resources); and the UN's
// assistance brings a fleet a turn while it is free. Fleets that meet an
// enemy whose every unit is in that orbit, and who has no development,
// open fire: a player with no unit on the map has lost (the concession
// rule, 2.1). It reads only the board every player sees and its own
// standing orders.
//
// Agreement (issue 18's rule for every bot): it never says PEACE YES, and
// concedes only after the first quarter of the game (a leader with a
// quarter of the Victory Points that end it) and only while far behind on
// Victory Points. Victory Points never fall, so a concession made while
// behind still holds when the leader's turn begins and it takes effect.
func fullBot(s *FullState, p engine.Prompt, _ *rand.Rand) string {
	switch p.Kind {
	case engine.KindStep:
		return "PRELUDE FLEET"
	case engine.KindAnytime, engine.KindChoice:
		return ""
	}
	b := &fullPlan{s: s, me: p.Player}
	return b.turn()
}

// fullPlan is one turn's planning.
type fullPlan struct {
	s      *FullState
	me     string
	demand map[string]int // fleets each world still wants
	after  map[string]int // my fleets in orbit of each world after movement
	keep   map[string]int // fleets a world keeps (not launched)
	moves  []string
	kill   map[string]string // world → enemy to destroy there
}

// fleetCount counts a player's fleets at a place, healthy and At Risk.
func (s *fullState) fleetCount(p, at string) int {
	if f := s.Fleets[at][p]; f != nil {
		return f.Ok + f.Risk
	}
	return 0
}

// expansionNeed is how many Expansion successes world w can still use:
// one for each empty region, one for each Devastation counter on a region
// without developments. Earth's regions are the UN's.
func (s *fullState) expansionNeed(p, w string) int {
	if w == "Earth" {
		return 0
	}
	n := 0
	for _, reg := range s.Regions[w] {
		if reg.Devs == 0 {
			n += 1 + reg.Devastation
		}
	}
	return n
}

// groupSize is the fewest fleets whose Expansion cannot fail.
func (s *fullState) groupSize(p string) int { return max(1, 3-s.level(p, "Colonisation")) }

func (b *fullPlan) enemies() []string {
	var out []string
	for _, q := range b.s.Players {
		if q != b.me && (b.s.unitsOf(q) > 0 || b.s.P[q].Economy > 0) {
			out = append(out, q)
		}
	}
	return out
}

func (b *fullPlan) turn() string {
	s, me := b.s, b.me
	b.demand, b.after, b.keep, b.kill = map[string]int{}, map[string]int{}, map[string]int{}, map[string]string{}
	g := s.groupSize(me)
	for _, w := range board.Worlds() {
		if need := s.expansionNeed(me, w.Name); need > 0 {
			// Two groups a world at most, so that fleets spread out.
			want := g * min(need, 2)
			b.keep[w.Name] = min(s.fleetCount(me, w.Name), want)
			b.demand[w.Name] = want - s.fleetCount(me, w.Name)
		}
	}
	b.findKills()
	b.planMoves()
	var lines []string
	lines = append(lines, b.moves...)
	lines = append(lines, b.fleetActions()...)
	lines = append(lines, b.devActions()...)
	if pl := s.P[me]; !pl.Sanctions && s.unDevsOn("Earth") {
		if pl.Economy > 0 {
			lines = append(lines, "UN FLEET")
		} else {
			lines = append(lines, "UN RESEARCH")
		}
	}
	lines = append(lines, b.standing()...)
	if len(lines) == 0 {
		// A mail with no order line may not count as an answer.
		return "PAY DISCONTENT"
	}
	return strings.Join(lines, "\n")
}

// findKills finds enemies whose every unit is in one orbit where the bot
// has fleets, and who hold no development: destroying those fleets takes
// them off the map.
func (b *fullPlan) findKills() {
	s := b.s
	if s.TurnN <= 2*len(s.Players) {
		// Everyone starts so, in orbit of Earth: an enemy who has had two
		// turns and still has not left it is not developing.
		return
	}
	for _, e := range b.enemies() {
		total := s.unitsOf(e)
		if total == 0 {
			continue
		}
		for _, w := range board.Worlds() {
			if s.fleetCount(e, w.Name) == total {
				b.kill[w.Name] = e
				b.keep[w.Name] = s.fleetCount(b.me, w.Name)
				// Enough fleets that a turn or two of fire finishes it
				// (a hit on 5+); the world's own need stays.
				b.demand[w.Name] = max(b.demand[w.Name], 0) + 2*total + 2 - s.fleetCount(b.me, w.Name)
			}
		}
	}
}

// planMoves routes fleets in space and launches spare fleets from worlds,
// towards the worlds that want them, nearest first.
func (b *fullPlan) planMoves() {
	s, me := b.s, b.me
	for _, w := range board.Worlds() {
		b.after[w.Name] = s.fleetCount(me, w.Name)
	}
	pick := func(options []string, turns func(x string) int) string {
		best, bestScore := "", 0.0
		for _, x := range options {
			if d := b.demand[x]; d > 0 {
				if score := float64(min(d, 6)) / float64(1+turns(x)); score > bestScore {
					best, bestScore = x, score
				}
			}
		}
		return best
	}
	// Fleets in space move one step worldward (one pass): Approach fleets
	// land this turn.
	for _, t := range board.Trajectories() {
		n := s.fleetCount(me, t.Name)
		if n == 0 {
			continue
		}
		var options []string
		for _, w := range board.Worlds() {
			if board.StepToward(t.Name, w.Name) != "" {
				options = append(options, w.Name)
			}
		}
		dests := map[string]int{}
		for n > 0 {
			x := pick(options, func(x string) int { return depth(x) - depth(t.Name) })
			if x == "" {
				x = b.fullFallback(options)
			}
			k := min(n, max(b.demand[x], 1))
			dests[x] += k
			b.demand[x] -= k
			n -= k
		}
		var names []string
		for x := range dests {
			names = append(names, x)
		}
		sort.Slice(names, func(i, j int) bool {
			return board.index[strings.ToLower(names[i])] < board.index[strings.ToLower(names[j])]
		})
		for _, x := range names {
			if board.StepToward(t.Name, x) == x {
				b.after[x] += dests[x]
			}
			b.moves = append(b.moves, fOrder{Verb: "ROUTE", N: dests[x], From: t.Name, To: x}.String())
		}
	}
	for _, w := range board.Worlds() {
		spare := s.fleetCount(me, w.Name) - b.keep[w.Name]
		if spare <= 0 {
			continue
		}
		var options []string
		for _, x := range board.Worlds() {
			if x.Name != w.Name {
				options = append(options, x.Name)
			}
		}
		launches := map[string]int{}
		for spare > 0 {
			x := pick(options, func(x string) int { return travel(w.Name, x) })
			if x == "" {
				break
			}
			k := min(spare, max(b.demand[x], 1))
			b.demand[x] -= k
			spare -= k
			launches[ancestorOf(w.Name, x)] += k
		}
		for _, t := range board.Trajectories() {
			if k := launches[t.Name]; k > 0 {
				b.after[w.Name] -= k
				b.moves = append(b.moves, fOrder{Verb: "LAUNCH", N: k, From: w.Name, To: t.Name}.String())
			}
		}
	}
}

// fullFallback is where fleets go when nothing down their branch wants
// them: the world with most regions, not Earth.
func (b *fullPlan) fullFallback(options []string) string {
	best, most := options[0], -1
	for _, x := range options {
		if p, _ := board.Get(x); p.Regions > most && x != "Earth" {
			best, most = x, p.Regions
		}
	}
	return best
}

// fleetActions: fire where an enemy can be taken off the map, expand
// where regions are left, pacify with what is left over when something is
// At Risk.
func (b *fullPlan) fleetActions() []string {
	s, me := b.s, b.me
	g := s.groupSize(me)
	var out []string
	for _, w := range board.Worlds() {
		n := b.after[w.Name]
		if n == 0 {
			continue
		}
		if e := b.kill[w.Name]; e != "" && (n > s.fleetCount(e, w.Name) || n >= 4) {
			out = append(out, fOrder{Verb: "FIRE", World: w.Name, N: n, Target: e}.String())
			continue
		}
		if need := s.expansionNeed(me, w.Name); need > 0 {
			var sizes []string
			for n >= g && len(sizes) < need {
				sizes = append(sizes, fmt.Sprint(g))
				n -= g
			}
			if n > 0 && len(sizes) < need && g > 1 {
				sizes = append(sizes, fmt.Sprint(n))
				n = 0
			}
			if len(sizes) > 0 {
				out = append(out, fOrder{Verb: "EXPAND", World: w.Name, Sizes: sizes}.String())
			}
		}
		if n >= 2 && b.troubled(w.Name) {
			out = append(out, fOrder{Verb: "PACIFY", World: w.Name, N: n}.String())
		}
	}
	return out
}

// troubled reports whether pacification on w has something to mend: an
// At Risk fleet in orbit or region there, or Discontent to remove (which
// needs a development there and a resource).
func (b *fullPlan) troubled(w string) bool {
	s, me := b.s, b.me
	if f := s.Fleets[w][me]; f != nil && f.Risk > 0 {
		return true
	}
	for _, reg := range s.Regions[w] {
		if reg.Owner == me && reg.AtRisk {
			return true
		}
	}
	return s.P[me].Discontent > 0 && s.devsOn(me, w) > 0 && s.P[me].Economy > 0
}

// devActions: Political Influence on a world that is fully developed and
// has fleets to set aside; else construction in pairs paid from the
// Economy Pool, and research with the rest.
func (b *fullPlan) devActions() []string {
	s, me := b.s, b.me
	pl := s.P[me]
	budget := pl.Economy - 2 // a reserve for a lost development's cost
	if !pl.Sanctions && s.unDevsOn("Earth") && pl.Economy > 0 {
		budget-- // the UN's fleet
	}
	var out []string
	researching := false
	for _, w := range board.Worlds() {
		d := s.devsOn(me, w.Name)
		if d == 0 {
			continue
		}
		fleets := b.after[w.Name]
		if !s.hasPI(me, w.Name) && d >= 2 && fleets >= 5 && s.expansionNeed(me, w.Name) == 0 && b.kill[w.Name] == "" {
			out = append(out, fOrder{Verb: "INFLUENCE", World: w.Name, N: fleets}.String())
			continue
		}
		var sizes []string
		for d >= 2 && budget > 0 {
			sizes = append(sizes, "2")
			d -= 2
			budget--
		}
		if len(sizes) > 0 {
			out = append(out, fOrder{Verb: "BUILD", World: w.Name, Sizes: sizes}.String())
		}
		if d > 0 {
			out = append(out, fOrder{Verb: "RESEARCH", World: w.Name, N: d}.String())
			researching = true
		}
	}
	_ = researching
	return out
}

// fullTechPlan is the bot's research order: Colonisation makes smaller
// groups expand surely; Nanotechnology stacks developments (more Power
// per region); Research speeds the rest.
var fullTechPlan = []string{"Colonisation", "Nanotechnology", "Research", "Durability", "Attack"}

// fullQuarter is the first quarter of a game of the full rules: until a
// player holds a quarter of the Victory Points that end it.
func (s *FullState) fullQuarter() bool {
	for _, p := range s.Players {
		if 4*s.P[p].VP >= victoryThreshold {
			return false
		}
	}
	return true
}

// standing keeps the research plan, and concedes only when far behind on
// Victory Points after the first quarter.
func (b *fullPlan) standing() []string {
	s, me := b.s, b.me
	pl := s.P[me]
	var out []string
	if strings.Join(pl.TechPlan, ",") != strings.Join(fullTechPlan, ",") {
		out = append(out, fOrder{Verb: "TECH", List: fullTechPlan}.String())
	}
	leader, lv := "", -1
	for _, q := range s.Players {
		if q != me && s.P[q].VP > lv {
			leader, lv = q, s.P[q].VP
		}
	}
	want := ""
	if leader != "" && !s.fullQuarter() && lv >= pl.VP+8 && 2*lv >= 3*pl.VP {
		want = leader
	}
	if want != pl.ConcedeTo {
		t := want
		if t == "" {
			t = "NONE"
		}
		out = append(out, fOrder{Verb: "CONCEDE", Target: t}.String())
	}
	if pl.Peace {
		out = append(out, fOrder{Verb: "PEACE", Word: "NO"}.String())
	}
	return out
}
