package prosper

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"

	"orrery/engine"
)

// bot plays to win. There are no dice in this game, so it plans exactly:
// every movement is tried on a scratch board before it is written, so its
// orders always parse and do what it expects.
//
// Settling: while its opponents still hold ships to place it settles
// cheaply for production (small planets first, they cost one ship for
// two a round), keeping its supply for later; once an opponent has placed
// everything, it strikes: it settles enough ships next to that
// opponent's weakest stack to take it in the first round, if it can
// afford to. What is left goes for production, then onto its own planets
// that face an enemy.
//
// Movement, three a round: take an enemy planet if the planets next to it
// can (several attacks in a row, after one gathering move if that is what
// makes the difference); else take the natives' planets it can afford,
// best production for the cost first, nearest the enemy first; reinforce
// a planet an enemy could take; bring ships from safe planets to the
// planets facing its target; and wear the target down with ships that
// its full frontier planets would otherwise waste.
func bot(v *view, p engine.Prompt, r *rand.Rand) string {
	s := v.s
	me := p.Player
	if p.Kind == engine.KindAnytime {
		return botPlan(s, me, r)
	}
	switch s.Phase_ {
	case phaseSettle:
		if lines := settleLines(s, me); len(lines) > 0 {
			return strings.Join(lines, "\n")
		}
		return p.Default
	case phaseMove:
		lines := planMoves(s, me)
		if len(lines) == 0 {
			return "DONE"
		}
		return strings.Join(lines, "\n")
	}
	return ""
}

// botPlan answers the plan prompt, mostly with the picks the bot means to
// make next (as if nobody else picked meanwhile: a later pick may find
// them taken, and the plan drops them), sometimes with PLAN NONE (its
// next pick then waits for it, which costs a bot nothing), sometimes with
// nothing (no change). The mixture keeps bot games exercising plans.
func botPlan(s *State, me string, r *rand.Rand) string {
	switch r.IntN(6) {
	case 0:
		return ""
	case 1:
		return "PLAN NONE"
	}
	scratch := s.clone()
	scratch.Supply = map[string]int{}
	for k, n := range s.Supply {
		scratch.Supply[k] = n
	}
	scratch.Reserve = map[string]int{}
	var lines []string
	for k := 1 + r.IntN(3); k > 0 && scratch.Supply[me] > 0; k-- {
		line := settlePick(scratch, me)
		if line == "" {
			break
		}
		o, errs := parseLine(line, scratch)
		if len(errs) > 0 || len(o.alts) == 0 {
			break
		}
		scratch.settle(me, o.alts[0].planet, o.alts[0].ships)
		lines = append(lines, line)
	}
	if len(lines) == 0 {
		return "PLAN NONE"
	}
	return strings.Join(lines, "\n")
}

// settleLines is the bot's pick, and, once every opponent has placed
// all their ships (so the board can change only by the bot's own picks),
// the plan of its remaining picks: they play without a mail each, as a
// player by mail would send them. While an opponent still has ships to
// place, the bot sends its pick alone, to see theirs before the next.
func settleLines(s *State, me string) []string {
	scratch := s.clone()
	scratch.Supply = map[string]int{}
	for k, n := range s.Supply {
		scratch.Supply[k] = n
	}
	scratch.Reserve = map[string]int{}
	placed := true
	for _, e := range s.enemies(me) {
		placed = placed && s.Supply[e] == 0
	}
	var lines []string
	for scratch.Supply[me] > 0 {
		line := settlePick(scratch, me)
		if line == "" {
			break
		}
		lines = append(lines, line)
		o, errs := parseLine(line, scratch)
		if !placed || len(errs) > 0 || len(o.alts) == 0 {
			break
		}
		scratch.settle(me, o.alts[0].planet, o.alts[0].ships)
	}
	return lines
}

// enemies lists the players still in the game other than me.
func (s *State) enemies(me string) []string {
	var out []string
	for _, p := range s.Seats {
		if p != me && !s.out(p) {
			out = append(out, p)
		}
	}
	return out
}

// foe reports whether planet i is held by another player.
func (s *State) foe(i int, me string) bool {
	o := s.Planets[i].Owner
	return o != "" && o != me
}

// settlePick is the bot's next pick as a SETTLE line, or "".
func settlePick(s *State, me string) string {
	supply := s.Supply[me]
	if supply <= 0 {
		return ""
	}
	line := func(i, n int) string { return fmt.Sprintf("SETTLE %s %d", s.Planets[i].Name, n) }
	// Every opponent has placed all their ships: strike at a stack.
	placed := true
	for _, e := range s.enemies(me) {
		if s.Supply[e] > 0 {
			placed = false
		}
	}
	if placed {
		if i, n := strikePick(s, me); i >= 0 {
			return line(i, n)
		}
	}
	// Production, cheapest first; a planet an enemy stack could take at
	// once is worth less.
	best, bestN, bestScore := -1, 0, 0.0
	for i, pl := range s.Planets {
		if pl.Owner != "" {
			continue
		}
		n := s.minSettle(i)
		if s.checkSettle(me, i, n) != nil {
			continue
		}
		score := float64(pl.Size.Production()) / float64(n)
		for _, j := range s.neighbours(i) {
			if s.Planets[j].Owner == me {
				score += 0.2
			}
			if s.foe(j, me) && s.Planets[j].Ships-1 > n-s.settleCost(i, me)+1 {
				score -= 1.5
			}
		}
		if best < 0 || score > bestScore {
			best, bestN, bestScore = i, n, score
		}
	}
	if best >= 0 {
		return line(best, bestN)
	}
	// No free planet can be afforded: the rest goes onto a planet of ours,
	// one that faces an enemy if any, with the most room.
	best, room := -1, 0
	for _, i := range s.owned(me, false) {
		pl := s.Planets[i]
		r := pl.Size.Limit() - pl.Ships
		if r <= 0 {
			continue
		}
		if s.facesFoe(i, me) {
			r += 1000
		}
		if r > room {
			best, room = i, r
		}
	}
	if best >= 0 {
		n := min(supply, s.Planets[best].Size.Limit()-s.Planets[best].Ships)
		return line(best, n)
	}
	return ""
}

// facesFoe reports whether planet i has an enemy neighbour.
func (s *State) facesFoe(i int, me string) bool {
	for _, j := range s.neighbours(i) {
		if s.foe(j, me) {
			return true
		}
	}
	return false
}

// strikePick finds a free planet next to an enemy stack where the bot's
// supply can settle enough to take the stack in round 1: its attack,
// leaving one ship behind, must beat the stack's ships, its defence point,
// and whatever its owner could move in first along its own planets. It
// prefers the richest stack, then the cheapest strike.
func strikePick(s *State, me string) (int, int) {
	supply := s.Supply[me]
	bestI, bestN, bestValue := -1, 0, -1
	for t, tp := range s.Planets {
		if !s.foe(t, me) {
			continue
		}
		defence := tp.Ships
		if !s.movesBefore(me, tp.Owner) {
			// Its owner moves first in round 1 and may gather there.
			comp := s.components(tp.Owner)
			for k, kp := range s.Planets {
				if k != t && comp[k] == comp[t] {
					defence += kp.Ships - 1
				}
			}
			defence = min(defence, tp.Size.Limit())
		}
		value := tp.Size.Production()*4 + tp.Ships
		for _, f := range s.neighbours(t) {
			fp := s.Planets[f]
			if fp.Owner != "" && fp.Owner != me {
				continue
			}
			// Ships there after settling must be defence + 3: one stays,
			// and defence + 2 beat ships + 1 with one left.
			need := defence + 3 - fp.Ships
			if fp.Owner == "" {
				need = max(need, 0) + s.settleCost(f, me)
				need = max(need, s.minSettle(f))
			}
			if need < 1 || need > supply || s.checkSettle(me, f, need) != nil {
				continue
			}
			if value > bestValue || value == bestValue && need < bestN {
				bestI, bestN, bestValue = f, need, value
			}
		}
	}
	return bestI, bestN
}

// movesBefore reports whether a moves before b in round 1 (seat order).
func (s *State) movesBefore(a, b string) bool {
	for _, p := range s.Seats {
		if p == a {
			return true
		}
		if p == b {
			return false
		}
	}
	return false
}

// planMoves chooses up to three movements, applying each to a scratch
// board so that the next is planned on the board it leaves.
func planMoves(s *State, me string) []string {
	b := &mover{s: s.clone(), me: me}
	for len(b.lines) < 3 {
		if !b.capture() && !b.expand() && !b.reinforce() && !b.gather() && !b.wearDown() {
			break
		}
		if b.over() {
			break
		}
	}
	return b.lines
}

// mover plans one player's movements on a scratch board.
type mover struct {
	s     *State
	me    string
	lines []string
}

func (b *mover) left() int { return 3 - len(b.lines) }

func (b *mover) over() bool {
	for _, e := range b.s.enemies(b.me) {
		if len(b.s.owned(e, false)) > 0 {
			return false
		}
	}
	return true
}

// do applies one movement to the scratch board and writes its line.
func (b *mover) do(n, from, to int) bool {
	if _, err := b.s.move(b.me, n, from, to); err != nil {
		return false
	}
	b.lines = append(b.lines, fmt.Sprintf("MOVE %d FROM %s TO %s", n, b.s.Planets[from].Name, b.s.Planets[to].Name))
	return true
}

// step is one movement of a plan.
type step struct{ n, from, to int }

// attackers lists my planets next to planet t, most ships first.
func (b *mover) attackers(t int) []int {
	var out []int
	for _, j := range b.s.neighbours(t) {
		if b.s.Planets[j].Owner == b.me && b.s.Planets[j].Ships > 1 {
			out = append(out, j)
		}
	}
	sort.SliceStable(out, func(x, y int) bool { return b.s.Planets[out[x]].Ships > b.s.Planets[out[y]].Ships })
	return out
}

// tryPlan reports whether steps (a gathering move into an attacker, if
// any, then attacks on t) leave planet t mine. It works out the attacks
// as the rules do (004-G5, 004-G6, 004-G8) on two numbers rather than a
// copy of the board: the planners try thousands of plans a turn.
func (b *mover) tryPlan(steps []step, t int) bool {
	tp := b.s.Planets[t]
	owner, ships := tp.Owner, tp.Ships
	for _, st := range steps {
		if st.to != t {
			continue // the gathering move: it changes only the attacker
		}
		n := st.n
		switch {
		case owner == b.me:
			ships = min(ships+n, tp.Size.Limit())
		case owner == "":
			if n > tp.Size.Natives() {
				owner, ships = b.me, min(n-tp.Size.Natives(), tp.Size.Limit())
			}
		case n > ships+1:
			owner, ships = b.me, min(n-ships-1, tp.Size.Limit())
		case n == ships+1:
			owner, ships = "", 0
		default:
			if b.s.Rules.Defence == "strict" {
				ships -= n
			} else {
				ships = ships + 1 - n
			}
			if ships <= 0 {
				owner, ships = "", 0
			}
		}
	}
	return owner == b.me
}

// assault is the cheapest plan of at most k movements that takes enemy
// planet t: attacks from its neighbours, biggest first, all but one ship
// each, the last sending only what it needs plus what the planet can hold;
// before them, if movements remain, one gathering move into an attacker.
func (b *mover) assault(t, k int) []step {
	att := b.attackers(t)
	tp := b.s.Planets[t]
	// No plan can take t unless the ships that could reach it outnumber
	// its defence: count them before trying any plan on a copy.
	reach := 0
	for _, a := range att {
		reach += b.s.Planets[a].Ships - 1
	}
	if k >= 2 {
		most := 0
		for _, src := range b.s.owned(b.me, false) {
			most = max(most, b.s.Planets[src].Ships-1)
		}
		reach += most
	}
	if len(att) == 0 || reach <= tp.Ships+1 {
		return nil
	}
	build := func(gather *step) []step {
		var steps []step
		if gather != nil {
			steps = append(steps, *gather)
		}
		ships := func(i int) int {
			n := b.s.Planets[i].Ships
			if gather != nil && gather.to == i {
				n += gather.n
			}
			if gather != nil && gather.from == i {
				n -= gather.n
			}
			return n
		}
		for _, a := range att {
			if len(steps) >= k {
				break
			}
			n := ships(a) - 1
			if n < 1 {
				continue
			}
			steps = append(steps, step{n, a, t})
			if b.tryPlan(steps, t) {
				// Send no more than wins and fits: survivors over the
				// limit are lost.
				last := &steps[len(steps)-1]
				for last.n > 1 {
					last.n--
					if !b.tryPlan(steps, t) {
						last.n++
						break
					}
					if last.n <= tp.Size.Limit() {
						// Keep the surplus as a garrison on t.
						break
					}
				}
				return steps
			}
		}
		return nil
	}
	if steps := build(nil); steps != nil {
		return steps
	}
	if k < 2 {
		return nil
	}
	// One gathering move into the attacker with the most room, from the
	// planet of the same chain with the most ships that is not itself an
	// attacker.
	comp := b.s.components(b.me)
	isAtt := map[int]bool{}
	for _, a := range att {
		isAtt[a] = true
	}
	var best []step
	for _, a := range att {
		room := b.s.Planets[a].Size.Limit() - b.s.Planets[a].Ships
		if room <= 0 {
			continue
		}
		for _, src := range b.s.owned(b.me, false) {
			if isAtt[src] || comp[src] != comp[a] || b.s.Planets[src].Ships < 2 {
				continue
			}
			g := step{min(room, b.s.Planets[src].Ships-1), src, a}
			if steps := build(&g); steps != nil && (best == nil || len(steps) < len(best)) {
				best = steps
			}
		}
	}
	return best
}

// capture takes the most valuable enemy planet that a plan within the
// movements left can take.
func (b *mover) capture() bool {
	var best []step
	bestValue := -1
	for t, tp := range b.s.Planets {
		if !b.s.foe(t, b.me) {
			continue
		}
		steps := b.assault(t, b.left())
		if steps == nil {
			continue
		}
		value := tp.Size.Production()*4 + tp.Ships - 2*len(steps)
		if value > bestValue {
			best, bestValue = steps, value
		}
	}
	if best == nil {
		return false
	}
	for _, st := range best {
		if !b.do(st.n, st.from, st.to) {
			return true // cannot happen: the plan was played on a copy
		}
	}
	return true
}

// distToFoe is each planet's distance in links to the nearest enemy
// planet (a large number where none can be reached).
func (b *mover) distToFoe() []int {
	const far = 1 << 20
	dist := make([]int, len(b.s.Planets))
	var queue []int
	for i := range dist {
		dist[i] = far
		if b.s.foe(i, b.me) {
			dist[i] = 0
			queue = append(queue, i)
		}
	}
	for len(queue) > 0 {
		i := queue[0]
		queue = queue[1:]
		for _, j := range b.s.neighbours(i) {
			if dist[j] > dist[i]+1 {
				dist[j] = dist[i] + 1
				queue = append(queue, j)
			}
		}
	}
	return dist
}

// expand takes the natives' planet with the best production for its cost
// that a neighbour of mine can afford, nearest the enemy first, keeping
// what an enemy next to the source could take it with.
func (b *mover) expand() bool {
	dist := b.distToFoe()
	bestT, bestF, bestN := -1, -1, 0
	bestScore := 0.0
	for t, tp := range b.s.Planets {
		if tp.Owner != "" {
			continue
		}
		need := tp.Size.Natives() + 1
		for _, f := range b.s.neighbours(t) {
			fp := b.s.Planets[f]
			if fp.Owner != b.me {
				continue
			}
			spare := fp.Ships - 1 - b.guard(f)
			if spare < need {
				continue
			}
			score := float64(tp.Size.Production())/float64(need) - 0.01*float64(dist[t])
			if bestT < 0 || score > bestScore {
				// Send what is needed and half the spare as a garrison.
				n := need + (spare-need)/2
				n = min(n, tp.Size.Natives()+tp.Size.Limit())
				bestT, bestF, bestN, bestScore = t, f, n, score
			}
		}
	}
	if bestT < 0 {
		return false
	}
	return b.do(bestN, bestF, bestT)
}

// threat is the most ships an enemy could attack planet i with next:
// the biggest neighbouring enemy stack, all but one.
func (b *mover) threat(i int) int {
	most := 0
	for _, j := range b.s.neighbours(i) {
		if b.s.foe(j, b.me) {
			most = max(most, b.s.Planets[j].Ships-1+b.s.Planets[j].Size.Production())
		}
	}
	return most
}

// guard is how many ships planet i should keep against the threat next
// to it: enough that the biggest enemy attack fails.
func (b *mover) guard(i int) int {
	t := b.threat(i)
	if t == 0 {
		return 0
	}
	return min(t, b.s.Planets[i].Size.Limit()-1)
}

// reinforce brings ships to a planet of mine that an enemy could take
// next round, from a safe planet of the same chain.
func (b *mover) reinforce() bool {
	comp := b.s.components(b.me)
	for _, i := range b.s.owned(b.me, true) {
		pl := b.s.Planets[i]
		want := b.threat(i) // ships+1 must reach it for the attack to fail
		if want == 0 || pl.Ships+1 >= want {
			continue
		}
		need := min(want-pl.Ships, pl.Size.Limit()-pl.Ships)
		if need <= 0 {
			continue
		}
		src := b.richestSafe(comp, comp[i], i)
		if src < 0 {
			continue
		}
		n := min(need, b.s.Planets[src].Ships-1)
		if n > 0 && b.do(n, src, i) {
			return true
		}
	}
	return false
}

// richestSafe is the planet of chain c (not except) with the most ships
// to spare that faces no enemy, or -1.
func (b *mover) richestSafe(comp []int, c, except int) int {
	best, most := -1, 0
	for _, j := range b.s.owned(b.me, false) {
		if j == except || comp[j] != c || b.s.facesFoe(j, b.me) {
			continue
		}
		if n := b.s.Planets[j].Ships - 1; n > most {
			best, most = j, n
		}
	}
	return best
}

// target is the enemy planet the bot builds up against: the one next to
// its planets that is cheapest to take, counting what it has next to it.
func (b *mover) target() int {
	best, bestCost := -1, 0
	for t, tp := range b.s.Planets {
		if !b.s.foe(t, b.me) {
			continue
		}
		att := b.attackers(t)
		if len(att) == 0 {
			continue
		}
		cost := tp.Ships + 2*tp.Size.Production() - 2*tp.Size.Production()*len(att)
		if best < 0 || cost < bestCost {
			best, bestCost = t, cost
		}
	}
	return best
}

// gather moves ships from a safe planet to the planet next to the target
// (or, with no target, next to any enemy or natives) with the most room.
func (b *mover) gather() bool {
	comp := b.s.components(b.me)
	t := b.target()
	var fronts []int
	for _, i := range b.s.owned(b.me, false) {
		if t >= 0 && b.s.adjacent(i, t) || t < 0 && b.s.facesFoe(i, b.me) {
			fronts = append(fronts, i)
		}
	}
	if len(fronts) == 0 {
		// No enemy in reach: bring ships to the planet nearest one.
		dist := b.distToFoe()
		best := -1
		for _, i := range b.s.owned(b.me, false) {
			if best < 0 || dist[i] < dist[best] {
				best = i
			}
		}
		if best >= 0 {
			fronts = []int{best}
		}
	}
	sort.SliceStable(fronts, func(x, y int) bool {
		rx := b.s.Planets[fronts[x]].Size.Limit() - b.s.Planets[fronts[x]].Ships
		ry := b.s.Planets[fronts[y]].Size.Limit() - b.s.Planets[fronts[y]].Ships
		return rx > ry
	})
	for _, f := range fronts {
		room := b.s.Planets[f].Size.Limit() - b.s.Planets[f].Ships
		if room <= 0 {
			continue
		}
		src := b.richestSafe(comp, comp[f], f)
		if src < 0 || b.s.adjacent(src, t) && t >= 0 {
			continue
		}
		n := min(room, b.s.Planets[src].Ships-1)
		// Not worth a movement for a ship or two.
		if n >= 3 && b.do(n, src, f) {
			return true
		}
	}
	return false
}

// wearDown attacks the target with ships that would be wasted: from a
// planet next to it that is full (its production would be lost), when
// the target cannot be taken this round. The target's own production is
// lost while it is full, so an attack costs it ships it would regain only
// slowly; the next round's assault then needs less.
func (b *mover) wearDown() bool {
	t := b.target()
	if t < 0 {
		return false
	}
	for _, a := range b.attackers(t) {
		ap := b.s.Planets[a]
		if ap.Ships+ap.Size.Production() <= ap.Size.Limit() {
			continue
		}
		n := ap.Ships - 1 - b.guardExcept(a, t)
		if n >= 2 && b.do(n, a, t) {
			return true
		}
	}
	return false
}

// guardExcept is guard, ignoring the target's own stack (which the
// attack wears down).
func (b *mover) guardExcept(i, t int) int {
	most := 0
	for _, j := range b.s.neighbours(i) {
		if j != t && b.s.foe(j, b.me) {
			most = max(most, b.s.Planets[j].Ships-1+b.s.Planets[j].Size.Production())
		}
	}
	return min(most, b.s.Planets[i].Size.Limit()-1)
}
