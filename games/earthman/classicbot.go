package earthman

import (
	"sort"
	"strings"

	"orrery/engine"
)

// The first edition's bot plays for the only win the rules know against a
// player who will not agree: being the last on the board. It builds an
// economy first (developments are the fleets of every later turn), then
// masses its fleets where an enemy is weakest for its strength and fires
// when its group is big enough that the target cannot save, and on Earth
// big enough to outlast the UN's reprisal. It reads only the board every
// player sees and its own standing orders.
//
//   - Placement: fleets go skyward of Earth where the most unclaimed
//     regions are near and fewest fleets are placed already: Cislunar
//     (Luna next turn), Inner (Mercury, Venus), Solar.
//   - Movement: fleets in space go to the world of their branch that
//     most needs them (unclaimed regions, or the strike target); fleets on
//     a world that has nothing left for them launch towards the same.
//   - Combat: all fleets on a world fire at the enemy with most units
//     there when they outnumber it, or (on Earth, where the UN answers)
//     when they are enough to destroy it and outlast the reprisal;
//     developments attempt overthrow of an enemy's developments where
//     that brings no reprisal.
//   - Construction: every development builds alone (a fleet each); a
//     development lost to over-exploitation is claimed again in the
//     development phase by the fleet it built.
//   - Development: every fleet on a world with unclaimed regions tries to
//     claim one, except the fleets kept for a strike.
//
// Agreement (issue 18's rule for every bot): it agrees that another
// player has won only after the first quarter of the game and only while
// clearly behind on the turn limit's score (developments, then fleets);
// it withdraws that agreement once it is not behind; it proposes itself
// when ahead, and never a draw.
func classicBot(s *State, p engine.Prompt) string {
	me := p.Player
	switch p.Kind {
	case engine.KindStep:
		return "PLACE " + classicPlacement(s, me)
	case engine.KindAnytime:
		return ""
	case engine.KindChoice:
		return classicWindow(s, me)
	}
	b := &classicPlan{s: s, me: me}
	return b.turn()
}

// classicPlacement picks where the next fleet goes.
func classicPlacement(s *State, me string) string {
	type spot struct {
		place   string
		regions int // unclaimed regions within reach of the first turns
		turns   int // turns from there to those worlds
	}
	spots := []spot{{"Cislunar", 0, 1}, {"Inner", 0, 2}, {"Solar", 0, 3}}
	for i, sp := range spots {
		for _, w := range board.Worlds() {
			if w.Name != "Earth" && board.StepToward(sp.place, w.Name) != "" {
				spots[i].regions += s.unclaimed(w.Name)
			}
		}
		if sp.place == "Solar" {
			// Only the nearer worlds of the centre count: the outer ones are
			// turns away.
			spots[i].regions = min(spots[i].regions, 7)
		}
	}
	best, bestScore := "Earth", 0.0
	for _, sp := range spots {
		placed := 0
		for _, f := range s.Players {
			placed += s.fleets(f, sp.place)
		}
		score := float64(sp.regions-placed) / float64(sp.turns)
		if score > bestScore {
			best, bestScore = sp.place, score
		}
	}
	return best
}

// classicWindow answers an interrupt window: an overthrow that would take
// developments is met by evacuating them into fleets (the units stay, the
// attacker gains nothing); fire is let through, since evacuating only
// turns the developments into the fleets that are lost first.
func classicWindow(s *State, me string) string {
	w := s.Window
	if w == nil || w.Next >= len(w.Orders) {
		return ""
	}
	o, e := (namer{players: s.Players}).parseLine(w.Orders[w.Next])
	if e != nil || o.Verb != vCoup || s.devs(me, o.World) == 0 || w.A < w.D {
		return ""
	}
	return order{Verb: vEvac, World: o.World, N: s.devs(me, o.World)}.String()
}

// classicPlan is one turn's planning.
type classicPlan struct {
	s  *State
	me string
	// after is each world's fleets of mine once this turn's movement has
	// run; keep is what a world keeps for developing and striking.
	after  map[string]int
	keep   map[string]int
	demand map[string]int
	target string // the strike's world, "" for none
	foe    string // the strike's enemy
	need   int    // fleets the strike needs on the target world
	moves  []string
}

func (b *classicPlan) enemies() []string {
	var out []string
	for _, p := range b.s.Players {
		if p != b.me && b.s.alive(p) {
			out = append(out, p)
		}
	}
	return out
}

func (b *classicPlan) turn() string {
	s, me := b.s, b.me
	b.after, b.keep, b.demand = map[string]int{}, map[string]int{}, map[string]int{}
	standing := b.standing()
	for _, l := range standing {
		if strings.HasPrefix(l, vAgree+" ") && l != vAgree+" "+me && l != vAgree+" NONE" {
			// Agreeing that another has won ends the game with this turn:
			// a quiet one, so the bot gains nothing before it ends.
			return strings.Join(standing, "\n")
		}
	}
	b.chooseTarget()
	b.planDemand()
	b.planMoves()
	var lines []string
	lines = append(lines, b.moves...)
	lines = append(lines, b.combat()...)
	for _, w := range board.Worlds() {
		if d := s.devs(me, w.Name); d > 0 {
			sizes := make([]int, d)
			for i := range sizes {
				sizes[i] = 1
			}
			lines = append(lines, order{Verb: vBuild, World: w.Name, Sizes: sizes}.String())
		}
	}
	for _, w := range board.Worlds() {
		// Fleets built this turn are there too; DEVELOP stops when no
		// region is left, spending nothing more.
		n := b.after[w.Name] + s.devs(me, w.Name) - b.strikeKeep(w.Name)
		// A development lost to over-exploitation is worth more than a
		// fleet kept for the strike: claim its region again.
		n = max(n, min(s.devs(me, w.Name), b.after[w.Name]+s.devs(me, w.Name)))
		if n > 0 && (s.unclaimed(w.Name) > 0 || s.devs(me, w.Name) > 0) {
			lines = append(lines, order{Verb: vDevelop, World: w.Name, N: n}.String())
		}
	}
	lines = append(lines, standing...)
	if len(lines) == 0 {
		// Restate a standing order: a mail with no order line at all may
		// not count as an answer on the mail side.
		return classicDefence.String()
	}
	return strings.Join(lines, "\n")
}

// classicDefence is the bot's standing answer to a big overthrow: before
// the dice, its developments there become fleets.
var classicDefence = Trigger{Event: evAttacked, World: "ANY", Kind: vCoup, If: "A>=2D", Action: vEvac}

// strikeKeep is what world w keeps back from developing for the strike.
func (b *classicPlan) strikeKeep(w string) int {
	if w != b.target {
		return 0
	}
	return b.need
}

// strikeNeed is how many fleets must fire at d units of an enemy on w:
// twice d and a margin (A ≥ D leaves no save, and each die makes half a
// victory on average); on Earth at least enough units that the UN's
// reprisal meets saves.
func (b *classicPlan) strikeNeed(w string, d int) int {
	n := 2*d + 3
	if w == "Earth" {
		n = max(n+2, b.s.fleets(un, "Earth")+2)
	}
	return n
}

// chooseTarget picks the enemy position to mass against: the one whose
// destruction is worth most for the fleets it needs, off Earth if that is
// as good (no reprisal there).
func (b *classicPlan) chooseTarget() {
	s := b.s
	best := -1.0
	for _, e := range b.enemies() {
		for _, w := range board.Worlds() {
			u := s.units(e, w.Name)
			if u == 0 {
				continue
			}
			need := b.strikeNeed(w.Name, u)
			value := float64(2*s.devs(e, w.Name)+s.fleets(e, w.Name)) / float64(need)
			if f, d := s.total(e); f+d == u {
				value *= 2 // the enemy's last position: it leaves the board
			}
			if value > best {
				best, b.target, b.foe, b.need = value, w.Name, e, need
			}
		}
	}
}

// planDemand counts what each world wants of my fleets still to come:
// one more than its unclaimed regions, less the fleets already there; and
// the strike's world what the strike needs. Earth's regions are the
// UN's, so only a strike sends fleets there.
func (b *classicPlan) planDemand() {
	s := b.s
	total := 0
	for _, p := range board.Places {
		total += s.fleets(b.me, p.Name)
	}
	for _, w := range board.Worlds() {
		if u := s.unclaimed(w.Name); u > 0 && w.Name != "Earth" {
			b.demand[w.Name] = u + 1 - s.fleets(b.me, w.Name)
			b.keep[w.Name] = min(s.fleets(b.me, w.Name), u+1)
		}
	}
	if b.target != "" {
		// Mass for the strike once the fleets for it exist; until then,
		// the economy comes first, and spare fleets still gather there.
		if total >= b.need {
			b.demand[b.target] += 100
		}
		b.keep[b.target] = s.fleets(b.me, b.target)
	}
}

// ancestorOf is the lowest place skyward of (or at) both a and c.
func ancestorOf(a, c string) string {
	up := map[string]bool{a: true}
	for _, x := range board.Skyward(a) {
		up[x] = true
	}
	if up[c] {
		return c
	}
	for _, x := range board.Skyward(c) {
		if up[x] {
			return x
		}
	}
	return "Solar"
}

// depth counts the moves from the centre to a place.
func depth(p string) int { return len(board.Skyward(p)) }

// travel is the turns from world w to world x: launch to their common
// trajectory at once, then a move a turn.
func travel(w, x string) int {
	if w == x {
		return 0
	}
	return depth(x) - depth(ancestorOf(w, x))
}

// planMoves routes the fleets in space and launches the spare fleets on
// worlds, each towards the world that wants them most and soonest.
func (b *classicPlan) planMoves() {
	s, me := b.s, b.me
	for _, w := range board.Worlds() {
		b.after[w.Name] = s.fleets(me, w.Name)
	}
	pick := func(options []string, from func(x string) int) string {
		best, bestScore := "", 0.0
		for _, x := range options {
			d := b.demand[x]
			if d <= 0 {
				continue
			}
			score := float64(min(d, 10)) / float64(1+from(x))
			if x == b.target && d > 50 {
				score = 1000 // the strike is on
			}
			if score > bestScore {
				best, bestScore = x, score
			}
		}
		return best
	}
	// Fleets in space: they must move one step worldward; choose their
	// world among those of their branch.
	for _, t := range board.Trajectories() {
		n := s.fleets(me, t.Name)
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
				// Nothing wanted down this branch: the world nearest the
				// strike, else the one with most regions.
				x = b.fallback(options)
			}
			k := min(n, max(b.demand[x], 1))
			if b.demand[x] > 50 {
				k = n
			}
			dests[x] += k
			b.demand[x] -= k
			n -= k
		}
		b.route(t.Name, dests)
	}
	// Spare fleets on worlds.
	for _, w := range board.Worlds() {
		spare := s.fleets(me, w.Name) - b.keep[w.Name]
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
				b.moves = append(b.moves, order{Verb: vLaunch, N: k, From: w.Name, To: t.Name}.String())
			}
		}
	}
}

// fallback is where fleets go when no world of their branch wants them:
// the strike's world if it is there, else the world with most regions.
func (b *classicPlan) fallback(options []string) string {
	best, most := options[0], -1
	for _, x := range options {
		if x == b.target {
			return x
		}
		if p, _ := board.Get(x); p.Regions > most && x != "Earth" {
			best, most = x, p.Regions
		}
	}
	return best
}

// route writes the ROUTE orders for the fleets at t, unless the
// destinations stored with them already say the same, and counts the
// fleets that arrive on a world this turn.
func (b *classicPlan) route(t string, dests map[string]int) {
	stored := map[string]int{}
	for _, c := range b.s.coursesAt(b.me, t) {
		stored[c.To] += c.N
	}
	same := len(stored) == len(dests)
	for x, n := range dests {
		if stored[x] != n {
			same = false
		}
	}
	var names []string
	for x := range dests {
		names = append(names, x)
	}
	sort.Slice(names, func(i, j int) bool {
		return board.index[strings.ToLower(names[i])] < board.index[strings.ToLower(names[j])]
	})
	for _, x := range names {
		if next := board.StepToward(t, x); next == x {
			b.after[x] += dests[x]
		}
		if !same {
			b.moves = append(b.moves, order{Verb: vRoute, N: dests[x], From: t, To: x}.String())
		}
	}
}

// combat fires and overthrows where it pays, on the fleets each world
// will hold after the movement.
func (b *classicPlan) combat() []string {
	s, me := b.s, b.me
	var fire, coup []string
	earth := false // a strike on Earth is on: the reprisal comes anyway
	for _, w := range board.Worlds() {
		a := b.after[w.Name]
		best, bestU := "", 0
		for _, e := range b.enemies() {
			if u := s.units(e, w.Name); u > bestU {
				best, bestU = e, u
			}
		}
		if a == 0 || best == "" {
			continue
		}
		ok := a >= bestU && a >= 2
		if w.Name == "Earth" {
			ok = a >= b.strikeNeed("Earth", bestU)
		}
		if ok {
			fire = append(fire, order{Verb: vFire, World: w.Name, N: a, Target: best}.String())
			earth = earth || w.Name == "Earth"
		}
	}
	for _, w := range board.Worlds() {
		d := s.devs(me, w.Name)
		if d == 0 || w.Name == "Earth" && !earth {
			continue
		}
		best, bestD := "", 0
		for _, e := range b.enemies() {
			if n := s.devs(e, w.Name); n > bestD {
				best, bestD = e, n
			}
		}
		if best != "" {
			coup = append(coup, order{Verb: vCoup, World: w.Name, N: d, Target: best}.String())
		}
	}
	// FIRE lines of a world must come before its COUP lines: all fire
	// first.
	return append(fire, coup...)
}

// classicQuarter is the first quarter of a classic game, in rounds: a
// quarter of the turn limit, or, with none, of a game of 32 rounds (the
// length bot games without agreement take to be decided).
func (s *State) classicQuarter() int {
	if s.TurnLimit > 0 {
		return (s.TurnLimit + 3) / 4
	}
	return 8
}

// classicScore is the turn limit's score: developments, then fleets.
func (s *State) classicScore(p string) (int, int) {
	f, d := s.total(p)
	return d, f
}

// standing sets the bot's standing orders: its defence against a big
// overthrow, and its agreement.
func (b *classicPlan) standing() []string {
	s, me := b.s, b.me
	var out []string
	has := false
	for _, t := range s.Triggers[me] {
		if t == classicDefence {
			has = true
		}
	}
	if !has {
		out = append(out, classicDefence.String())
	}
	leader, ld, lf := "", -1, -1
	for _, p := range s.Players {
		if !s.alive(p) {
			continue
		}
		if d, f := s.classicScore(p); d > ld || d == ld && f > lf {
			leader, ld, lf = p, d, f
		}
	}
	md, mf := s.classicScore(me)
	want := ""
	switch {
	case leader == me && b.ahead():
		want = me
	case leader != me && s.Round > s.classicQuarter() && clearlyBehind(md, mf, ld, lf) && b.othersAgree(leader):
		// The game ends with this turn, which gains the bot nothing
		// (see quiet), so it is still behind when the game ends.
		want = leader
	}
	cur := s.Agree[me]
	switch {
	case want != "" && want != cur:
		out = append(out, order{Verb: vAgree, Target: want}.String())
	case want == "" && cur != "" && cur != me:
		out = append(out, order{Verb: vAgree, Target: "NONE"}.String())
	}
	return out
}

// othersAgree reports whether every other player on the board already
// agrees that leader has won, so that the bot's agreement ends the game at
// the end of its own turn. An agreement that stood through other players'
// turns could end the game after a turn that changed the score.
func (b *classicPlan) othersAgree(leader string) bool {
	for _, p := range b.s.Players {
		if p != b.me && b.s.alive(p) && b.s.Agree[p] != leader {
			return false
		}
	}
	return true
}

// ahead reports whether the bot is strictly first on the score.
func (b *classicPlan) ahead() bool {
	md, mf := b.s.classicScore(b.me)
	for _, p := range b.enemies() {
		if d, f := b.s.classicScore(p); d > md || d == md && f >= mf {
			return false
		}
	}
	return true
}

// clearlyBehind is the bot's test for agreeing that the leader has won:
// the leader has at least three developments more and half as many again,
// and no fewer units. A margin, so that one turn of the others cannot
// bring the bot level while its agreement stands.
func clearlyBehind(md, mf, ld, lf int) bool {
	return ld >= md+4 && ld >= 2*md && 2*(ld+lf) >= 3*(md+mf)
}
