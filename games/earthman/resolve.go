package earthman

import (
	"fmt"
	"sort"
	"strings"

	"orrery/engine"
	"orrery/engine/dice"
	"orrery/engine/draw"
	"orrery/engine/lang"
)

// Resolve applies answers: a placement, a whole turn, or one player's
// extraordinary actions and standing orders received at any time.
func (s *State) Resolve(answers []engine.Answer, d *dice.Dice) ([]engine.Event, error) {
	if s.Stage == stageOver {
		return nil, fmt.Errorf("the game is over")
	}
	r := &run{s: s, d: d}
	s.begin()
	// A game that ends with a turn ends in that turn: Turn() keeps its
	// number, not the next one's, which is never played.
	turn := s.TurnN
	defer func() {
		if s.Stage == stageOver {
			s.TurnN = turn
		}
	}()
	for _, a := range answers {
		p := a.Prompt.Player
		orders, err := r.parse(a)
		if err != nil {
			return nil, err
		}
		switch a.Prompt.Kind {
		case engine.KindStep:
			for _, o := range orders {
				if o.Verb == vPlace {
					r.place(p, o)
				} else {
					r.anytime(p, o)
				}
			}
		case engine.KindTurn:
			r.turn(p, orders, a.Default)
		case engine.KindChoice:
			if err := r.answerWindow(p, orders, a.Default); err != nil {
				return nil, err
			}
		case engine.KindAnytime:
			for _, o := range orders {
				r.anytime(p, o)
			}
		}
	}
	r.events = append(r.events, s.checkEnd()...)
	if s.Stage == stageTurns && !s.alive(s.Players[s.Active]) {
		// A player who left the board takes no turns (000-G17), and a
		// window in their turn closes with it.
		if s.Window != nil {
			s.Window = nil
			r.say(lang.M("%s left the board during an interrupt window: the rest of the turn is not played.", s.Players[s.Active]))
		}
		r.nextTurn()
		r.events = append(r.events, s.checkEnd()...)
	}
	return r.events, nil
}

// run is one resolution: the state, its dice, and the events told.
type run struct {
	s      *State
	d      *dice.Dice
	events []engine.Event
	// Per-turn bookkeeping that never outlives a Resolve call.
	phase       int
	moveOrders  []order
	usedFleets  map[string]int // this phase's groups, by world
	usedDevs    map[string]int
	earthCombat bool
	unReroll    bool
}

func (r *run) parse(a engine.Answer) ([]order, error) {
	var out []order
	if a.Orders == nil {
		return nil, nil
	}
	n := namer{players: r.s.Players}
	for _, line := range a.Orders.Lines() {
		o, e := n.parseLine(line)
		if e != nil {
			return nil, fmt.Errorf("stored order %q of %s does not parse: %w", line, a.Prompt.Player, e)
		}
		out = append(out, o)
	}
	return out, nil
}

// place is one setup placement (000-B3).
func (r *run) place(p string, o order) {
	s := r.s
	if s.Stage != stageSetup || s.Players[s.Placers[s.Placed]] != p {
		return
	}
	s.addFleet(p, o.World, 1)
	s.tell(draw.Built, "", o.World, p)
	r.say(lang.M("%s places a fleet on %s.", p, o.World))
	s.Placed++
	if s.Placed < len(s.Placers) {
		return
	}
	// Ten UN fleets on Earth; the last placer plays first, then clockwise.
	s.addFleet(un, "Earth", 10)
	last := s.Placers[len(s.Placers)-1]
	s.Placers, s.Placed = nil, 0
	s.Stage, s.Active, s.StartSeat, s.TurnN, s.Round = stageTurns, last, last, 1, 1
	r.say(lang.M("The UN places 10 fleets on Earth. %s, the last to place a fleet, plays first; turns go clockwise.", s.Players[last]))
}

// nextTurn passes the turn clockwise to the next player with units.
func (r *run) nextTurn() {
	s := r.s
	n := len(s.Players)
	pos := func(i int) int { return ((i-s.StartSeat)%n + n) % n }
	cur := s.Active
	for k := 1; k <= n; k++ {
		next := (cur + k) % n
		if pos(next) <= pos(s.Active) {
			s.Round++
		}
		s.Active = next
		if s.alive(s.Players[next]) {
			break
		}
	}
	s.TurnN++
}

// turn runs a whole turn. Phase orders come in phase order (Parse saw to
// it); extraordinary actions run where they are written (000-C1 (i)).
func (r *run) turn(p string, orders []order, defaulted bool) {
	s := r.s
	if s.Stage != stageTurns || s.Players[s.Active] != p || s.Window != nil {
		return
	}
	if defaulted {
		r.say(lang.M("No orders came from %s: only the compulsory moves are made.", p))
	}
	r.play(p, orders, 0, -1)
}

// play runs orders[from:] of p's turn and ends it, unless an interrupt
// window pauses it; the attack at index windowed has had its window.
func (r *run) play(p string, orders []order, from, windowed int) {
	r.moveOrders = nil
	for _, o := range orders {
		if phaseOf(o.Verb) == phaseMovement {
			r.moveOrders = append(r.moveOrders, o)
		}
	}
	for i := from; i < len(orders); i++ {
		o := orders[i]
		ph := phaseOf(o.Verb)
		if ph == phaseNone {
			r.anytime(p, o)
			continue
		}
		r.enter(p, ph)
		switch o.Verb {
		case vFire, vCoup:
			if i != windowed && r.openWindow(p, orders, i) {
				return
			}
			r.attack(p, o)
		case vBuild:
			r.build(p, o)
		case vDevelop:
			r.develop(p, o)
		}
	}
	r.enter(p, phaseDevelopment)
	r.end(p, phaseDevelopment)
	r.say(lang.M("End of %s's turn.", p))
	r.nextTurn()
}

// enter moves the turn on to phase ph, ending the phases in between.
func (r *run) enter(p string, ph int) {
	for r.phase < ph {
		if r.phase != phaseNone {
			r.end(p, r.phase)
		}
		r.phase++
		r.usedFleets, r.usedDevs = map[string]int{}, map[string]int{}
		switch r.phase {
		case phaseMovement:
			r.move(p)
		case phaseCombat:
			// The gift bar lasts until the player's next combat phase (000-G14).
			delete(r.s.Tasked, p)
		}
	}
}

func (r *run) end(p string, ph int) {
	switch ph {
	case phaseCombat:
		r.reprisal(p)
	case phaseDevelopment:
		// 000-G12: the UN claims every unclaimed region of Earth.
		if u := r.s.unclaimed("Earth"); u > 0 {
			r.s.addDev(un, "Earth", u)
			r.say(lang.M("The UN claims the %s of Earth.", lang.MN("%d unclaimed region", "%d unclaimed regions", u)))
		}
	}
}

// move is phase 1: launches skyward, and the one compulsory move worldward
// of every fleet that started the phase in space (000-B4, 000-B5, 000-G13).
// Fleets in space go where this turn's ROUTE says, else towards their
// stored destination, else to the first branch; a ROUTE to a place more
// than one move away is stored for the turns after (000-B5's proposal).
func (r *run) move(p string) {
	s := r.s
	start := map[string]int{}
	for _, pl := range board.Places {
		start[pl.Name] = s.fleets(p, pl.Name)
	}
	arrive := map[string]int{}
	left := map[string]int{}
	for k, v := range start {
		left[k] = v
	}
	routed := map[string]bool{}
	rerouted := map[Course]bool{} // stored destinations a ROUTE names again: kept, not replaced
	var courses []Course
	for _, o := range r.moveOrders {
		if o.Verb != vRoute {
			continue
		}
		routed[o.From] = true
		again := false
		for _, c := range s.Courses[p] {
			if c.At == o.From && c.To == o.To && c.N == o.N && !rerouted[c] {
				rerouted[c], again = true, true
				break
			}
		}
		if again {
			continue // the stored destination, named again: it carries them on below
		}
		if o.N == 0 {
			continue // ROUTE NONE: only forgets the stored destinations
		}
		n := min(o.N, left[o.From])
		if n < o.N {
			r.say(lang.M("%s routes %s from %s to %s, but only %d remain there.", p, lang.MN("%d fleet", "%d fleets", o.N), o.From, o.To, n))
		}
		if n > 0 {
			to := board.StepToward(o.From, o.To)
			left[o.From] -= n
			arrive[to] += n
			s.addFleet(p, o.From, -n)
			s.tell(draw.Move, o.From, to, p)
			if to == o.To {
				r.say(lang.M("%s: %s worldward from %s to %s.", p, movesM(n), o.From, to))
			} else {
				courses = append(courses, Course{At: to, To: o.To, N: n})
				r.say(lang.M("%s: %s worldward from %s to %s (bound for %s; the destination is kept for the next turns).", p, movesM(n), o.From, to, o.To))
			}
		}
	}
	for _, c := range s.Courses[p] {
		if routed[c.At] && !rerouted[c] {
			r.say(lang.M("%s's ROUTE from %s replaces the stored destination of %s there (bound for %s).", p, c.At, lang.MN("%d fleet", "%d fleets", c.N), c.To))
			continue
		}
		n := min(c.N, left[c.At])
		to := board.StepToward(c.At, c.To)
		switch {
		case to == "":
			r.say(lang.M("%s: the stored destination %s cannot be reached from %s; it is dropped.", p, c.To, c.At))
			continue
		case n < c.N:
			r.say(lang.M("%s: %s on %s were bound for %s, but only %d are there.", p, lang.MN("%d fleet", "%d fleets", c.N), c.At, c.To, n))
		}
		if n == 0 {
			continue
		}
		left[c.At] -= n
		arrive[to] += n
		s.addFleet(p, c.At, -n)
		s.tell(draw.Move, c.At, to, p)
		if to == c.To {
			r.say(lang.M("%s: %s worldward from %s to %s and reach their stored destination.", p, movesM(n), c.At, to))
		} else {
			courses = append(courses, Course{At: to, To: c.To, N: n})
			r.say(lang.M("%s: %s worldward from %s to %s, on their stored way to %s.", p, movesM(n), c.At, to, c.To))
		}
	}
	r.setCourses(p, courses)
	for _, t := range board.Trajectories() {
		if n := left[t.Name]; n > 0 {
			to := board.Children(t.Name)[0]
			left[t.Name] = 0
			arrive[to] += n
			s.addFleet(p, t.Name, -n)
			s.tell(draw.Move, t.Name, to, p)
			r.say(lang.M("%s: %s on %s had no route and no stored destination and take the first branch, to %s.", p, lang.MN("%d fleet", "%d fleets", n), t.Name, to))
		}
	}
	for _, o := range r.moveOrders {
		if o.Verb != vLaunch {
			continue
		}
		n := min(o.N, left[o.From], s.fleets(p, o.From))
		if n < o.N {
			r.say(lang.M("%s launches %s from %s, but only %d are there.", p, lang.MN("%d fleet", "%d fleets", o.N), o.From, n))
		}
		if n > 0 {
			left[o.From] -= n
			s.addFleet(p, o.From, -n)
			s.addFleet(p, o.To, n)
			s.tell(draw.Launch, o.From, o.To, p)
			r.say(lang.M("%s: %s from %s to %s.", p, lang.MN("%d fleet launches", "%d fleets launch", n), o.From, o.To))
		}
	}
	for _, pl := range board.Places {
		if n := arrive[pl.Name]; n > 0 {
			s.addFleet(p, pl.Name, n)
		}
	}
}

// setCourses stores a player's destinations in board order, merging
// fleets at one place bound for one place.
func (r *run) setCourses(p string, cs []Course) {
	s := r.s
	at := func(name string) int { return board.index[strings.ToLower(name)] }
	sort.SliceStable(cs, func(i, j int) bool {
		if at(cs[i].At) != at(cs[j].At) {
			return at(cs[i].At) < at(cs[j].At)
		}
		return at(cs[i].To) < at(cs[j].To)
	})
	var out []Course
	for _, c := range cs {
		if k := len(out) - 1; k >= 0 && out[k].At == c.At && out[k].To == c.To {
			out[k].N += c.N
			continue
		}
		out = append(out, c)
	}
	if s.Courses == nil {
		s.Courses = map[string][]Course{}
	}
	s.Courses[p] = out
	if len(out) == 0 {
		delete(s.Courses, p)
	}
	if len(s.Courses) == 0 {
		s.Courses = nil
	}
}

// attack resolves one fire or overthrow group (phase 2).
func (r *run) attack(p string, o order) {
	s := r.s
	w, t := o.World, o.Target
	coup := o.Verb == vCoup
	have := s.fleets(p, w) - r.usedFleets[w]
	if coup {
		have = s.devs(p, w) - r.usedDevs[w]
	}
	a := min(o.N, max(have, 0))
	if a == 0 {
		if coup {
			r.say(lang.M("%s has no developments left on %s for %s.", p, w, o.String()))
		} else {
			r.say(lang.M("%s has no fleets left on %s for %s.", p, w, o.String()))
		}
		return
	}
	if a < o.N {
		r.say(lang.M("%s: only %s on %s are free for %s; the group is %d strong.", p, unitM(a, coup), w, o.String(), a))
	}
	if coup {
		r.usedDevs[w] += a
		s.task(p, w, 0, a)
	} else {
		r.usedFleets[w] += a
		s.task(p, w, a, 0)
	}
	if coup && t != un {
		r.standingCoup(t, w)
	}
	if s.units(t, w) > 0 && (!coup || s.devs(t, w) > 0) {
		// Point P1: the target's own triggers, then its allies' gifts.
		r.react(t, evAttacked, p, o.Verb, w, a)
	}
	r.support(p, t, w)
	if s.units(t, w) == 0 || coup && s.devs(t, w) == 0 {
		// 000-G3: the target is gone; the group is spent and does nothing.
		r.say(lang.M("%s's group of %d finds no %s target on %s: it does nothing.", p, a, t, w))
		return
	}
	if w == "Earth" {
		r.earthCombat = true
	}
	r.combat(p, t, w, a, coup)
}

// standingCoup applies the target's ON COUP standing order before any die
// of the overthrow is rolled (000-C1 (iii), point P1).
func (r *run) standingCoup(t, w string) {
	s := r.s
	act := s.OnCoup[t][w]
	if act == "" {
		act = s.OnCoup[t]["ANY"]
	}
	n := s.devs(t, w)
	if act == "" || act == "NONE" || n == 0 {
		return
	}
	if act == vEvac {
		s.addDev(t, w, -n)
		s.addFleet(t, w, n)
		r.say(lang.M("%s's standing order ON COUP evacuates %s on %s into fleets.", t, devsM(n), w))
	} else {
		s.addDev(t, w, -n)
		r.say(lang.M("%s's standing order ON COUP decommissions %s on %s.", t, devsM(n), w))
	}
}

// saveOn returns the number a save needs (0: none possible), by the bands
// of the Combat section; the best band that applies wins (000-G1).
func saveOn(coup bool, a, d int) int {
	switch {
	case d >= 2*a:
		if coup {
			return 3
		}
		return 5
	case d > a:
		if coup {
			return 4
		}
		return 6
	}
	if coup {
		return 5
	}
	return 0
}

// combat rolls a group of a units of p against t on w and applies the
// damage. D is measured now, when the group resolves (000-G2).
func (r *run) combat(p, t, w string, a int, coup bool) {
	s := r.s
	d := s.units(t, w)
	s.tell(draw.Battle, "", w, "")
	var faces []string
	victories := 0
	for i := 1; i <= a; i++ {
		purpose := lang.M("%s fires at %s on %s (die %d of %d)", p, t, w, i, a)
		if coup {
			purpose = lang.M("%s attempts overthrow at %s on %s (die %d of %d)", p, t, w, i, a)
		}
		v := r.d.RollMsg(6, purpose)
		faces = append(faces, fmt.Sprint(v))
		switch v {
		case 5:
			victories++
		case 6:
			victories += 2
		}
	}
	need := saveOn(coup, a, d)
	aid := coup && w == "Earth" && s.unOnEarth()
	saved := 0
	var saves []string
	if need > 0 {
		for i := 1; i <= victories; i++ {
			v := r.d.RollMsg(6, lang.M("%s saves against %s on %s (victory %d of %d, needs %d+)", t, p, w, i, victories, need))
			txt := fmt.Sprint(v)
			if v < need && aid {
				// 000-G6: UN aid re-rolls each failed save once.
				v = r.d.RollMsg(6, lang.M("UN aid: %s re-rolls a failed save on %s", t, w))
				txt += "→" + fmt.Sprint(v)
			}
			if v >= need {
				saved++
			}
			saves = append(saves, txt)
		}
	}
	band := lang.M("no save")
	if need > 0 {
		band = lang.M("saves on %d+", need)
	}
	left := victories - saved
	vs := lang.MN("%d victory", "%d victories", victories)
	dice := strings.Join(faces, " ")
	msg := lang.M("%s (A=%d) fires at %s (D=%d) on %s: dice %s, %s; %s", p, a, t, d, w, dice, vs, band)
	if coup {
		msg = lang.M("%s (A=%d) attempts overthrow at %s (D=%d) on %s: dice %s, %s; %s", p, a, t, d, w, dice, vs, band)
	}
	if need > 0 && victories > 0 {
		msg = lang.M("%s [%s], %d saved", msg, strings.Join(saves, " "), saved)
	}
	if coup {
		n := min(left, s.devs(t, w))
		s.addDev(t, w, -n)
		s.addDev(p, w, n)
		r.say(lang.M("%s; %s hands.", msg, lang.MN("%d development changes", "%d developments change", n)))
		if n > 0 {
			s.tell(draw.Captured, "", w, p)
			r.react(t, evLoss, p, vCoup, w, a) // point P2
		}
		return
	}
	lf := min(left, s.fleets(t, w))
	ld := min(left-lf, s.devs(t, w))
	s.addFleet(t, w, -lf)
	s.addDev(t, w, -ld)
	r.say(lang.M("%s; %s loses %s and %s.", msg, t, lang.MN("%d fleet", "%d fleets", lf), devsM(ld)))
	if lf+ld > 0 {
		s.tell(draw.Destroyed, "", w, "")
		r.react(t, evLoss, p, vFire, w, a) // point P2
	}
}

// reprisal is the UN's fire at the end of a combat phase in which the
// player started combat on Earth (000-G7).
func (r *run) reprisal(p string) {
	s := r.s
	if !r.earthCombat {
		return
	}
	r.earthCombat = false
	a := s.fleets(un, "Earth")
	switch {
	case !s.unOnEarth():
		r.say(lang.M("No UN units remain on Earth: there is no reprisal."))
	case a == 0:
		r.say(lang.M("The UN has no fleets on Earth to fire in reprisal."))
	case s.units(p, "Earth") == 0:
		r.say(lang.M("%s has no units left on Earth: the UN's reprisal has no target.", p))
	default:
		r.say(lang.M("The UN opens fire in reprisal for combat on Earth."))
		r.react(p, evAttacked, un, vFire, "Earth", a)
		if s.units(p, "Earth") == 0 {
			r.say(lang.M("%s has no units left on Earth: the UN's reprisal has no target.", p))
			return
		}
		r.combat(un, p, "Earth", a, false)
	}
}

// build is one BUILD order (phase 3): one fleet per group, and a group
// whose dice all show less than 3 loses a development (000-G10).
func (r *run) build(p string, o order) {
	s := r.s
	w := o.World
	for gi, size := range o.Sizes {
		free := s.devs(p, w) - r.usedDevs[w]
		g := min(size, max(free, 0))
		if g == 0 {
			r.say(lang.M("%s has no developments left on %s for construction group %d.", p, w, gi+1))
			continue
		}
		r.usedDevs[w] += g
		s.addFleet(p, w, 1)
		ok := false
		var faces []string
		for i := 1; i <= g; i++ {
			v := r.d.RollMsg(6, lang.M("%s constructs on %s (group %d, die %d of %d)", p, w, gi+1, i, g))
			faces = append(faces, fmt.Sprint(v))
			ok = ok || v >= 3
		}
		var dice any = strings.Join(faces, " ") // or a message, with the UN's re-roll
		if !ok && w == "Earth" && !r.unReroll && s.devs(un, "Earth") > 0 {
			// 000-B9: the UN's one re-roll a turn, used on the first failure.
			r.unReroll = true
			v := r.d.RollMsg(6, lang.M("UN aid: %s re-rolls a construction die on Earth", p))
			dice = lang.M("%s (UN re-roll %d)", strings.Join(faces, " "), v)
			ok = v >= 3
		}
		s.tell(draw.Built, "", w, p)
		if ok {
			r.say(lang.M("%s builds a fleet on %s with a group of %d: dice %s.", p, w, g, dice))
			continue
		}
		s.addDev(p, w, -1)
		r.usedDevs[w]--
		r.say(lang.M("%s builds a fleet on %s with a group of %d: dice %s, over-exploited: loses a development.", p, w, g, dice))
	}
}

// develop is one DEVELOP order (phase 4): sequential attempts (000-G11).
func (r *run) develop(p string, o order) {
	s := r.s
	w := o.World
	wins := 0
	for i := 1; i <= o.N; i++ {
		if s.fleets(p, w) == 0 {
			r.say(lang.M("%s has no fleet on %s for development attempt %d.", p, w, i))
			return
		}
		u := s.unclaimed(w)
		if u == 0 {
			r.say(lang.M("%s has no unclaimed region left for development attempt %d.", w, i))
			return
		}
		s.addFleet(p, w, -1)
		ok := false
		var faces []string
		for k := 1; k <= u; k++ {
			v := r.d.RollMsg(6, lang.M("%s develops on %s (attempt %d, die %d of %d)", p, w, i, k, u))
			faces = append(faces, fmt.Sprint(v))
			ok = ok || v >= 3
		}
		if ok {
			s.addDev(p, w, 1)
			s.tell(draw.Built, "", w, p)
			wins++
			r.say(lang.M("%s spends a fleet and claims a region of %s: dice %s.", p, w, strings.Join(faces, " ")))
		} else {
			r.say(lang.M("%s spends a fleet on %s, but the colony does not take root: dice %s.", p, w, strings.Join(faces, " ")))
		}
		if o.Until > 0 && wins >= o.Until {
			return
		}
	}
}

// anytime applies an extraordinary action or a standing order, cut down to
// what the player has when it runs.
func (r *run) anytime(p string, o order) {
	s := r.s
	w := o.World
	switch o.Verb {
	case vEvac:
		n := min(o.N, s.devs(p, w))
		if n == 0 {
			r.say(lang.M("%s has no development on %s to evacuate.", p, w))
			return
		}
		s.addDev(p, w, -n)
		s.addFleet(p, w, n)
		r.say(lang.M("%s evacuates %s on %s into fleets.", p, devsM(n), w))
	case vGift, vDecom:
		have := s.fleets(p, w)
		if o.Dev {
			have = s.devs(p, w)
		}
		if o.Verb == vGift {
			t := s.tasked(p, w)
			if o.Dev {
				have -= t.Devs
			} else {
				have -= t.Fleets
			}
		}
		n := min(o.N, max(have, 0))
		if n < o.N {
			if o.Verb == vGift {
				r.say(lang.M("%s can only gift %s on %s.", p, unitM(n, o.Dev), w))
			} else {
				r.say(lang.M("%s can only decommission %s on %s.", p, unitM(n, o.Dev), w))
			}
		}
		if n == 0 {
			return
		}
		if o.Verb == vGift {
			s.give(p, o.To, w, n, o.Dev)
			r.say(lang.M("%s gives %s on %s to %s.", p, unitM(n, o.Dev), w, o.To))
		} else {
			add := s.addFleet
			if o.Dev {
				add = s.addDev
			}
			add(p, w, -n)
			r.say(lang.M("%s decommissions %s on %s.", p, unitM(n, o.Dev), w))
		}
	case vAgree:
		if s.Agree == nil {
			s.Agree = map[string]string{}
		}
		if o.Target == "NONE" {
			delete(s.Agree, p)
			r.say(lang.M("%s withdraws agreement on a winner.", p))
		} else if o.Target == "DRAW" {
			s.Agree[p] = o.Target
			r.say(lang.M("%s proposes a draw.", p))
		} else {
			s.Agree[p] = o.Target
			r.say(lang.M("%s agrees that %s has won.", p, o.Target))
		}
	case vConcede:
		// House rule: conceding removes all of the player's units at once.
		for _, pl := range board.Places {
			s.addFleet(p, pl.Name, -s.fleets(p, pl.Name))
			s.addDev(p, pl.Name, -s.devs(p, pl.Name))
		}
		delete(s.Agree, p)
		r.setCourses(p, nil)
		r.say(lang.M("%s concedes and leaves the board.", p))
	case vOn:
		if o.Trig.Event != "" {
			s.setTrigger(p, o.Trig)
			r.events = append(r.events, engine.Tell(lang.M("Your standing order is now: %s.", o.String()), p))
			return
		}
		if o.Target != "" {
			var keep []Support
			for _, x := range s.Support[p] {
				if x.Target != o.Target || x.World != w {
					keep = append(keep, x)
				}
			}
			if o.Action == vGift {
				keep = append(keep, Support{Target: o.Target, World: w, N: o.N, Dev: o.Dev})
			}
			if s.Support == nil {
				s.Support = map[string][]Support{}
			}
			s.Support[p] = keep
			if len(keep) == 0 {
				delete(s.Support, p)
			}
			r.events = append(r.events, engine.Tell(lang.M("Your standing order is now: %s.", o.String()), p))
			return
		}
		if s.OnCoup == nil {
			s.OnCoup = map[string]map[string]string{}
		}
		if s.OnCoup[p] == nil {
			s.OnCoup[p] = map[string]string{}
		}
		if o.Action == "NONE" {
			delete(s.OnCoup[p], w)
			if len(s.OnCoup[p]) == 0 {
				delete(s.OnCoup, p)
			}
		} else {
			s.OnCoup[p][w] = o.Action
		}
		r.events = append(r.events, engine.Tell(lang.M("Your standing order is now: %s.", o.String()), p))
	}
}

// support runs the one-shot ON ATTACK triggers of other players for t at
// w, in seat order from the target, before the group rolls: their gifts
// raise D (000-C1's example). The attacker's own triggers do not fire.
func (r *run) support(attacker, t, w string) {
	s := r.s
	if s.units(t, w) == 0 {
		return // nothing to defend: a gift would only make a target
	}
	n := len(s.Players)
	start := 0
	for i, p := range s.Players {
		if p == t {
			start = i
		}
	}
	for k := 0; k < n; k++ {
		q := s.Players[(start+k)%n]
		if q == attacker || q == t {
			continue
		}
		for i, x := range s.Support[q] {
			if x.Target != t || x.World != w && x.World != "ANY" {
				continue
			}
			s.Support[q] = append(s.Support[q][:i:i], s.Support[q][i+1:]...)
			if len(s.Support[q]) == 0 {
				delete(s.Support, q)
			}
			have := s.fleets(q, w) - s.tasked(q, w).Fleets
			if x.Dev {
				have = s.devs(q, w) - s.tasked(q, w).Devs
			}
			g := min(x.N, max(have, 0))
			if g > 0 {
				s.give(q, t, w, g, x.Dev)
			}
			r.say(lang.M("%s's standing order ON ATTACK ON %s fires: %s gives %s on %s to %s before %s's group rolls.", q, t, q, unitM(g, x.Dev), w, t, attacker))
			break
		}
	}
}
