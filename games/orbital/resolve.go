package orbital

import (
	"fmt"
	"sort"
	"strings"

	"orrery/engine"
	"orrery/engine/dice"
	"orrery/engine/draw"
	"orrery/engine/lang"
)

// impulseRows is the movement chart (1.3): the speeds that move one hex in
// impulses 1–6 (002-G2). Speeds above 6 move in every row and again in
// impulse 7, the overspeed impulse.
var impulseRows = [6][]int{{6}, {6, 5, 4, 3}, {6, 5, 2}, {6, 5, 4, 3}, {6, 5, 4}, {6, 5, 4, 3, 2, 1}}

func movesIn(v, imp int) int {
	if imp == 7 {
		return max(v-6, 0)
	}
	if v >= 6 {
		return 1
	}
	for _, s := range impulseRows[imp-1] {
		if s == v {
			return 1
		}
	}
	return 0
}

// turn is one resolution in progress.
type turn struct {
	s      *State
	d      *dice.Dice
	ev     []engine.Event
	orders map[string][]order
	parked map[string]bool // scoopships leaving the atmosphere do not move
	imp    int
	sub    int // pass of impulse 7 for units with several overspeed hexes
	moved  []lang.Msg
	// shotsNow counts each laser's shots in this impulse, for SHOTS n.
	shotsNow map[string]int
}

func (t *turn) say(m lang.Msg) {
	t.ev = append(t.ev, t.about(engine.Tell(m)))
}

// about marks e as news for the seats it names, or whose units it names
// (engine.Event.About): their reports open with it.
func (t *turn) about(e engine.Event) engine.Event {
	return e.Concerning(engine.SeatsNamed(*e.Msg, func(name string) string {
		for _, p := range t.s.Players {
			if p.Name == name {
				return name
			}
		}
		for _, u := range t.s.Units {
			if u.ID == name {
				return u.Owner
			}
		}
		return ""
	})...)
}

// sayAt puts a public event at index i, so that a movement summary comes
// before the losses (into the planet, off the map) that the moves caused.
func (t *turn) sayAt(i int, m lang.Msg) {
	e := t.about(engine.Tell(m))
	t.ev = append(t.ev[:i], append([]engine.Event{e}, t.ev[i:]...)...)
}

func (t *turn) tell(player string, m lang.Msg) {
	t.ev = append(t.ev, engine.Tell(m, player))
}

// Resolve plays one whole turn: Phase 1 (launch, thrust, eight impulses)
// and Phase 2 (collection, repairs, purchases), then checks the end.
func (s *State) Resolve(answers []engine.Answer, d *dice.Dice) ([]engine.Event, error) {
	if s.Result.Over {
		return nil, fmt.Errorf("the game is over")
	}
	t := &turn{s: s, d: d, orders: map[string][]order{}, parked: map[string]bool{}}
	for _, a := range answers {
		set, ok := a.Orders.(*orderSet)
		if !ok {
			var errs []engine.LineError
			v := s.View(a.Prompt.Player).(*view)
			set, errs = v.parse(engine.OrdersText(a.Orders))
			if len(errs) > 0 {
				return nil, fmt.Errorf("stored orders of %s no longer parse: %v", a.Prompt.Player, errs[0])
			}
		}
		t.orders[a.Prompt.Player] = set.list
	}
	s.Story = nil
	if len(s.Placing) > 0 { // Setup 2: one Station placed, in seat order
		p := s.Placing[0]
		if len(answers) != 1 || answers[0].Prompt.Player != p {
			return nil, fmt.Errorf("the placement is %s's", p)
		}
		s.Placing = s.Placing[1:]
		placed := false
		t.each("PLACE", func(p string, o order) {
			if u := s.unit(o.Unit); u != nil && o.Hex != nil {
				t.place(p, u, *o.Hex)
				placed = true
			}
		})
		if !placed {
			for _, u := range s.stations(p) {
				t.say(lang.M("%s keeps %s at %s, velocity %d heading %s", p, u.ID, u.Hex.Name(), u.V, dirNames[u.F]))
			}
		}
		s.syncCargo()
		return t.ev, nil
	}
	if s.TurnN == 0 { // 002-B3: the starting RU are spent before anything moves
		t.say(lang.M("Opening purchases"))
		t.placeAtOnce()
		s.syncCargo()
		t.standing()
		t.repairsAndPurchases()
		s.TurnN++
		return t.ev, nil
	}
	t.say(lang.M("Turn %d", s.TurnN))
	start := t.spots()
	for _, u := range s.Units {
		u.Shots = 0
	}
	t.standing()
	t.exits()
	t.launches()
	t.thrusts()
	for imp := 1; imp <= 7; imp++ {
		t.impulse(imp)
	}
	t.gravity()
	t.toldMoves(start)
	for _, u := range s.Units {
		if u.Kind == Scoopship && u.Atmo && u.Gas == 0 {
			u.Gas = 1
			t.say(lang.M("%s scoops a load of gas in the atmosphere", u.ID))
		}
	}
	t.phase2()
	t.checkEnd()
	if !s.Result.Over { // a game that ends in turn N stays at turn N
		s.TurnN++
	}
	return t.ev, nil
}

func (t *turn) each(verb string, f func(p string, o order)) {
	for _, p := range t.s.Players {
		for _, o := range t.orders[p.Name] {
			if o.Verb == verb {
				f(p.Name, o)
			}
		}
	}
}

// standing records FIRE, STRIKE and HOLD, which stay until changed (002-C1).
func (t *turn) standing() {
	for _, verb := range []string{"FIRE", "STRIKE", "HOLD"} {
		t.each(verb, func(p string, o order) {
			u := t.s.unit(o.Unit)
			if u == nil {
				return
			}
			if verb == "HOLD" {
				u.Fire = nil
				t.tell(p, lang.M("%s holds fire", u.ID))
				return
			}
			f := o.Fire
			u.Fire = &f
			t.tell(p, lang.M("%s's standing order: %s", p, o.line()))
		})
	}
	// Triggers stand too (002-C3); any DROP, DEPLOY or CANCEL for a unit
	// replaces the trigger it had.
	for _, verb := range []string{"DROP", "DEPLOY", "CANCEL"} {
		t.each(verb, func(p string, o order) {
			u := t.s.unit(o.Unit)
			if u == nil {
				return
			}
			if old := u.Trigger; old != nil {
				u.Trigger = nil
				was := order{Verb: old.Verb, Unit: u.ID, When: old.When}.line()
				if verb == "CANCEL" {
					t.tell(p, lang.M("%s is cancelled", was))
				} else if o.line() != was {
					t.tell(p, lang.M("%s replaces %s", o.line(), was))
				}
			}
			if o.When != "" {
				u.Trigger = &Trigger{Verb: verb, When: o.When}
				t.tell(p, lang.M("%s's standing trigger: %s (until it fires or you CANCEL %s)", p, o.line(), u.ID))
			}
		})
	}
}

// exits returns scoopships from the atmosphere to ring 1 (002-F11, 002-G19).
func (t *turn) exits() {
	for _, u := range t.s.Units {
		if u.Kind != Scoopship || !u.Atmo {
			continue
		}
		at, ccw := u.AtmoFrom, true
		for _, o := range t.orders[u.Owner] {
			if o.Verb == "EXIT" && o.Unit == u.ID {
				if o.Hex != nil {
					at = *o.Hex
				}
				ccw = !o.CW
			}
		}
		if at.ring() != 1 {
			at = hexAt(1, 0, 0)
		}
		u.Atmo, u.Hex, u.V, u.F = false, at, t.s.rings.Green[1], tangent(at, ccw)
		t.parked[u.ID] = true
		t.say(lang.M("%s rises from the atmosphere to %s at velocity %d heading %s", u.ID, at.Name(), u.V, dirNames[u.F]))
	}
	t.s.syncCargo()
}

// launches is 1.1: out of a bay at the Station's velocity, the vector up to
// one facing off, or reversed at the price of the unit again (contra).
func (t *turn) launches() {
	t.each("LAUNCH", func(p string, o order) {
		u := t.s.unit(o.Unit)
		if u == nil {
			return
		}
		st := t.s.unit(u.In)
		switch {
		case st == nil || st.Kind != Station:
			t.tell(p, lang.M("%s cannot launch: it is not in a Station's bay", u.ID))
			return
		case st.In != "" || st.pulsed(t.s.TurnN) || !st.operational(Core):
			t.tell(p, lang.M("%s cannot launch %s: the Station is disabled", st.ID, u.ID))
			return
		}
		f := st.F + o.N
		if o.Contra {
			pl := t.s.player(p)
			cost := u.spec().Cost
			if pl.RU < cost {
				t.tell(p, lang.M("%s cannot launch %s contra-orbitally: it needs %d RU, %s has %d", st.ID, u.ID, cost, p, pl.RU))
				return
			}
			pl.RU -= cost
			f += 3
			t.say(lang.M("%s pays %d RU for a contra-orbital launch", p, cost))
		}
		u.In, u.F = "", mod6(f)
		t.say(lang.M("%s launches %s at velocity %d heading %s", st.ID, u.ID, u.V, dirNames[u.F]))
		t.found(u)
	})
	t.s.syncCargo()
}

// thrusts is 1.2: |dv| + facings × velocity, velocity before the change
// (002-G4); from velocity 0 a new vector is free.
func (t *turn) thrusts() {
	t.each("THRUST", func(p string, o order) {
		u := t.s.unit(o.Unit)
		if u == nil {
			return
		}
		if u.In != "" {
			t.tell(p, lang.M("%s cannot thrust: it is still carried", u.ID))
			return
		}
		th := t.s.thrust(u)
		cost := abs(o.N) + abs(o.Turn)*u.V
		if cost > th || u.V+o.N < 0 {
			t.tell(p, lang.M("%s cannot thrust %+d turn %+d: it costs %d of its %d thrust", u.ID, o.N, o.Turn, cost, th))
			return
		}
		old := u.V
		if o.Face > 0 && u.V == 0 {
			u.F = o.Face - 1
		}
		u.F = mod6(u.F + o.Turn)
		u.V += o.N
		u.Moon = ""
		t.say(lang.M("%s thrusts: velocity %d→%d heading %s (%d thrust)", u.ID, old, u.V, dirNames[u.F], cost))
	})
	t.s.syncCargo()
}

// free lists units in space in ID-creation order.
func (t *turn) free() []*Unit {
	var out []*Unit
	for _, u := range t.s.Units {
		if u.In == "" && !u.Atmo {
			out = append(out, u)
		}
	}
	return out
}

// impulse runs one of impulses 1–7: everybody due moves (steps 1–2 per hex
// entered), then steps 3–7 once for the whole board (002-G3). In impulse 7
// a unit above speed 7 has several overspeed hexes: the impulse runs as
// that many passes, every such unit moving one hex a pass with steps 3–7
// after each (002-G2: the entry steps for each hex), so a fast craft can be
// shot, struck or drop a payload in a hex it passes through. Orders timed
// AT 7 act in the first pass; triggers and fire are checked in every pass.
func (t *turn) impulse(imp int) {
	t.imp = imp
	t.shotsNow = map[string]int{}
	left := map[*Unit]int{} // by pointer: a Core dropped mid-impulse takes a Station's ID
	passes := 1
	// Carried units count their hexes too: one dropped in a pass of impulse
	// 7 goes on with the overspeed hexes its carrier has left.
	for _, u := range t.s.Units {
		if !t.parked[u.ID] && !u.Atmo {
			left[u] = movesIn(u.V, imp)
			passes = max(passes, left[u])
		}
	}
	for t.sub = 1; t.sub <= passes; t.sub++ {
		t.moved = nil
		mark := len(t.ev)
		for _, u := range append([]*Unit(nil), t.s.Units...) {
			if left[u] == 0 || t.s.unit(u.ID) != u {
				continue
			}
			n := left[u]
			if imp == 7 {
				n = 1
			}
			left[u] -= n
			if u.In != "" || u.Atmo {
				continue // it moves with its carrier
			}
			for i := 0; i < n && t.s.unit(u.ID) != nil && !u.Atmo; i++ {
				t.moveOne(u)
			}
		}
		for i := range t.s.Moons {
			if t.sub > 1 {
				break
			}
			m := &t.s.Moons[i]
			for k := movesIn(m.V, imp); k > 0; k-- {
				from := m.Hex
				m.Hex = m.Hex.step(m.F)
				if b := t.s.rings.blue(m.Hex); b > m.V {
					if d, up := towardPlanet(m.Hex, m.F); !up {
						m.F = mod6(m.F + d)
					}
				}
				// Moons are told too: a LAND order is timed by where the moon is.
				t.moved = append(t.moved, lang.M("moon %s %s→%s", m.ID, from.Name(), m.Hex.Name()))
			}
		}
		t.s.syncCargo()
		if len(t.moved) > 0 {
			what := lang.M("impulse %d moves", imp)
			if passes > 1 {
				what = lang.M("impulse %d moves (overspeed hex %d of %d)", imp, t.sub, passes)
			}
			t.sayAt(mark, lang.M("%s: %s", what, semi(t.moved)))
		}
		t.step3(imp)
		t.step4(imp)
		t.step5(imp)
		t.lasers(imp)
		t.warheads(imp)
		t.losCheck()
	}
}

// moveOne moves u one hex along its vector with steps 1 and 2: the climb
// cost, then the blue-number turn (with the capture rule of 002-F1).
func (t *turn) moveOne(u *Unit) {
	from := u.Hex
	to := from.step(u.F)
	note := lang.M("%s %s→%s", u.ID, from.Name(), to.Name())
	if to.ring() == 0 {
		t.moved = append(t.moved, note)
		t.intoPlanet(u, from)
		return
	}
	if to.ring() > Radius {
		t.moved = append(t.moved, note)
		t.lose(u, lang.M("%s drifts off the map into deep space", u.ID))
		return
	}
	u.Hex = to
	blue := t.s.rings.blue(to)
	if to.ring() > from.ring() {
		w := t.s.rings.white(from)
		old := u.V
		u.V = max(0, u.V-w)
		note = lang.M("%s climbs (velocity %d−%d=%d)", note, old, w, u.V)
		blue = t.s.rings.Green[to.ring()] + 1 // capture (002-F1)
	}
	if blue > u.V {
		if d, up := towardPlanet(to, u.F); d != 0 && !up {
			u.F = mod6(u.F + d)
			note = lang.M("%s bends to %s (blue %d > %d)", note, dirNames[u.F], blue, u.V)
		}
	}
	t.moved = append(t.moved, note)
}

// intoPlanet: only scoopships enter the atmosphere; anything else burns up
// (002-F2).
func (t *turn) intoPlanet(u *Unit, from Hex) {
	if u.Kind == Scoopship {
		u.Atmo, u.AtmoFrom, u.Hex = true, from, Hex{}
		t.say(lang.M("%s dives into the atmosphere", u.ID))
		return
	}
	t.lose(u, lang.M("%s falls into the planet and burns up", u.ID))
}

// lose removes u (and what it carries) with the sentence that says why
// ("S3 is destroyed").
func (t *turn) lose(u *Unit, why lang.Msg) {
	if u.In == "" && !u.Atmo {
		t.told(draw.Destroyed, nil, u.Hex, "")
	}
	ids := t.s.remove(u.ID)
	if len(ids) > 1 {
		why = lang.M("%s with %s aboard", why, lang.MN("%d unit", "%d units", len(ids)-1))
	}
	t.say(why)
}

// ordersAt runs the orders of verb due in impulse imp: those for this
// impulse, then each player's standing triggers (002-C3) whose enemy is free
// in the unit's hex. A trigger ends once its unit is dropped or deployed; if
// the carrier cannot release it now, it stands and tries again.
func (t *turn) ordersAt(verb string, imp int, f func(p string, o order)) {
	t.each(verb, func(p string, o order) {
		if o.When == "" && o.At == imp && t.sub <= 1 {
			f(p, o)
		}
	})
	if verb != "DROP" && verb != "DEPLOY" {
		return
	}
	done := func(u *Unit) bool { return (verb == "DROP" && u.In == "") || (verb == "DEPLOY" && u.Deployed) }
	for _, p := range t.s.Players {
		// f may remove units (a spent Booster), so walk a copy.
		for _, u := range append([]*Unit(nil), t.s.Units...) {
			if u.Owner != p.Name || u.Trigger == nil || u.Trigger.Verb != verb || t.s.unit(u.ID) != u {
				continue
			}
			if done(u) {
				u.Trigger = nil
				continue
			}
			o := order{Verb: verb, Unit: u.ID, When: u.Trigger.When}
			for _, e := range t.free() {
				if e.Owner != p.Name && e.Hex == u.Hex && matches(o.When, e) {
					t.tell(p.Name, lang.M("impulse %d: %s's trigger (%s) sees %s", imp, u.ID, o.line(), e.ID))
					f(p.Name, o)
					if done(u) {
						u.Trigger = nil
					}
					break
				}
			}
		}
	}
}

// carrierBusy reports why a carrier cannot release anything now.
func (t *turn) carrierBusy(c *Unit) lang.Msg {
	switch {
	case c.In != "":
		return lang.M("it is itself carried")
	case c.pulsed(t.s.TurnN):
		return lang.M("it is disabled by a pulse")
	case c.Kind == Station && !c.operational(Core):
		return lang.M("its Core is disabled")
	}
	return lang.Msg{}
}

// step3: pick-ups and drops. A dropped Core founds a Station (002-B11).
func (t *turn) step3(imp int) {
	t.ordersAt("DROP", imp, func(p string, o order) {
		u := t.s.unit(o.Unit)
		if u == nil || u.In == "" {
			return
		}
		c := t.s.unit(u.In)
		if why := t.carrierBusy(c); !why.IsZero() {
			t.tell(p, lang.M("impulse %d: %s cannot drop %s: %s", imp, c.ID, u.ID, why))
			return
		}
		u.In = ""
		t.say(lang.M("impulse %d: %s drops %s in %s", imp, c.ID, u.ID, u.Hex.Name()))
		t.found(u)
	})
	t.ordersAt("PICKUP", imp, func(p string, o order) {
		c, u := t.s.unit(o.Unit), t.s.unit(o.Other)
		if c == nil || u == nil {
			return
		}
		// Loading inside a Station's bay: both in the same bay of a working Station.
		bay := c.In != "" && c.In == u.In
		why := t.carrierBusy(c)
		if bay {
			st := t.s.unit(c.In)
			why = lang.Msg{}
			if st == nil || st.Kind != Station {
				why = lang.M("they are not in a Station's bay")
			} else {
				why = t.carrierBusy(st)
			}
		}
		switch {
		case !why.IsZero():
		case bay:
		case u.In != "" || c.Hex != u.Hex || c.V != u.V || c.F != u.F:
			why = lang.M("they are not free in the same hex at the same velocity and vector")
		case c.Kind == Booster && (len(t.s.cargo(c.ID)) > 0 || !(u.Kind.satellite() || u.Kind.warhead())):
			why = lang.M("a Booster carries one satellite or warhead")
		case c.Kind != Booster && c.spec().Payload > 0 && t.s.load(c.ID)+t.s.weight(u) > c.spec().Payload:
			// A Booster's payload is one satellite or warhead, whatever it weighs (checked above).
			why = lang.M("it would carry %d of %d", t.s.load(c.ID)+t.s.weight(u), c.spec().Payload)
		case u.Kind == Station:
			why = lang.M("Stations are not cargo")
		}
		if !why.IsZero() {
			t.tell(p, lang.M("impulse %d: %s cannot pick up %s: %s", imp, c.ID, u.ID, why))
			return
		}
		u.In, u.Deployed = c.ID, false
		if c.Kind == Booster || t.s.hiddenCargo() {
			t.tell(p, lang.M("impulse %d: %s picks up %s", imp, c.ID, u.ID))
			t.say(lang.M("impulse %d: %s picks up a payload", imp, c.ID))
			return
		}
		t.say(lang.M("impulse %d: %s picks up %s", imp, c.ID, u.ID))
	})
}

// found turns a free Core Module into a new Station.
func (t *turn) found(u *Unit) {
	if u.Kind != Core {
		return
	}
	old := u.ID
	u.Kind, u.ID = Station, t.s.newID(Station)
	u.Modules, u.Damage = []Module{{Kind: Core, Damage: u.Damage}}, 0
	t.say(lang.M("core %s founds Station %s in %s", old, u.ID, u.Hex.Name()))
}

// step4: landing on a moon (002-G22).
func (t *turn) step4(imp int) {
	t.ordersAt("LAND", imp, func(p string, o order) {
		u := t.s.unit(o.Unit)
		if u == nil || u.In != "" || u.Atmo {
			return
		}
		for _, m := range t.s.Moons {
			if m.Hex == u.Hex && m.V == u.V && m.F == u.F {
				u.Moon = m.ID
				t.say(lang.M("impulse %d: %s lands on moon %s", imp, u.ID, m.ID))
				return
			}
		}
		t.tell(p, lang.M("impulse %d: %s cannot land: no moon in %s at its velocity and vector", imp, u.ID, u.Hex.Name()))
	})
}

// step5: satellites deploy, from a booster (which is spent), from a bay or
// payload (dropped and deployed at once), or where they float.
func (t *turn) step5(imp int) {
	t.ordersAt("DEPLOY", imp, func(p string, o order) {
		u := t.s.unit(o.Unit)
		if u == nil || u.Deployed {
			return
		}
		if u.In != "" {
			c := t.s.unit(u.In)
			if why := t.carrierBusy(c); !why.IsZero() {
				t.tell(p, lang.M("impulse %d: %s cannot deploy from %s: %s", imp, u.ID, c.ID, why))
				return
			}
			u.In = ""
			if c.Kind == Booster {
				t.s.remove(c.ID)
				t.say(lang.M("impulse %d: booster %s releases %s %s and is spent", imp, c.ID, kindMsg(u.Kind), u.ID))
			}
		}
		u.Deployed = true
		if u.Fire == nil && u.Kind == DefSat {
			u.Fire = &FireOrder{}
		}
		t.say(lang.M("impulse %d: %s %s deploys in %s", imp, kindMsg(u.Kind), u.ID, u.Hex.Name()))
	})
}

// initiative orders the players who want to act this impulse by a d6 each,
// re-rolling ties (002-R2, 002-G12). With one player there is no roll.
func (t *turn) initiative(players []string, what lang.Msg) []string {
	if len(players) < 2 {
		return players
	}
	for try := 0; ; try++ {
		rolls := map[string]int{}
		var parts []lang.Msg
		seen := map[int]bool{}
		tie := false
		for _, p := range players {
			r := t.d.RollMsg(6, lang.M("%s initiative for %s, impulse %d", p, what, t.imp))
			rolls[p] = r
			tie = tie || seen[r]
			seen[r] = true
			parts = append(parts, lang.M("%s %d", p, r))
		}
		again := lang.Msg{}
		if tie {
			again = lang.M(" (tie, roll again)")
		}
		t.say(lang.M("impulse %d: %s initiative: %s%s", t.imp, what, lang.ArgOf(parts), again))
		// A broken die source (a short test script) must not loop forever.
		if !tie || try >= 20 || t.d.Err() != nil {
			out := append([]string(nil), players...)
			sort.SliceStable(out, func(i, j int) bool { return rolls[out[i]] > rolls[out[j]] })
			return out
		}
	}
}

// hitRange is the highest d6 that hits: 3, 2 or 1 by shot (1.4), less the
// target side's ECM, plus the attacker's ComSat (002-F13, 002-F14; ours).
func (t *turn) hitRange(owner string, target *Unit, shot int) (int, lang.Msg) {
	r := 3 - shot
	note := lang.Msg{}
	ecm, com := t.s.optInt("ecm"), t.s.optInt("comsat")
	hasECM, hasCom := false, false
	for _, u := range t.s.Units {
		if u.In != "" || !u.Deployed {
			continue
		}
		if u.Kind == ECMSat && u.Owner == target.Owner && dist(u.Hex, target.Hex) <= 1 {
			hasECM = true
		}
		if u.Kind == ComSat && u.Owner == owner && !blocked(u.Hex, target.Hex) {
			hasCom = true
		}
	}
	if hasECM && ecm > 0 {
		r -= ecm
		note = lang.M("%s −%d ECM", note, ecm)
	}
	if hasCom && com > 0 {
		r += com
		note = lang.M("%s +%d ComSat", note, com)
	}
	return r, note
}

// matches reports whether target fits a priority entry.
func matches(entry string, u *Unit) bool {
	switch entry {
	case "ANY":
		return true
	case "SATELLITE":
		return u.Kind.satellite()
	}
	return entry == u.ID || strings.EqualFold(entry, string(u.Kind))
}

// pickTarget applies a standing order: the first priority entry with a
// target in range worth shooting at (same hex before adjacent, then by ID).
func (t *turn) pickTarget(a *Unit, fo *FireOrder, laser bool, shot int) *Unit {
	prio := fo.Targets
	if len(prio) == 0 {
		prio = []string{"ANY"}
	}
	var cands []*Unit
	for _, u := range t.free() {
		if u.Owner == a.Owner {
			continue
		}
		d := dist(a.Hex, u.Hex)
		if d == 0 || (laser && d == 1 && u.Kind != Booster && !u.Kind.warhead()) {
			cands = append(cands, u)
		}
	}
	sort.SliceStable(cands, func(i, j int) bool {
		return (cands[i].Hex == a.Hex) && (cands[j].Hex != a.Hex)
	})
	min := max(fo.Min, 1)
	for _, e := range prio {
		for _, c := range cands {
			if r, _ := t.hitRange(a.Owner, c, shot); matches(e, c) && r >= min {
				return c
			}
		}
	}
	return nil
}

// laserShots is how many laser shots u may take this turn, 0 if none now.
func (t *turn) laserShots(u *Unit) int {
	if u.In != "" || u.Atmo || u.Fire == nil || u.pulsed(t.s.TurnN) {
		return 0
	}
	switch {
	case u.Kind == DefSat && u.Deployed:
		return 1
	case u.Kind == Gunship:
		return 2
	case u.Kind == Station && u.operational(PointDef):
		return 3
	}
	return 0
}

// lasers is step 6 (1.4): initiative, then one shot each in turn, each by
// the shooter's standing order, until nobody has a shot left.
func (t *turn) lasers(imp int) {
	used := t.shotsNow
	next := func(p string) (*Unit, *Unit) {
		for _, u := range t.s.Units {
			if u.Owner != p {
				continue
			}
			n := t.laserShots(u)
			if n == 0 || u.Shots >= n || (u.Fire.PerImpulse > 0 && used[u.ID] >= u.Fire.PerImpulse) || imp < u.Fire.From {
				continue
			}
			if tg := t.pickTarget(u, u.Fire, true, u.Shots); tg != nil {
				return u, tg
			}
		}
		return nil, nil
	}
	var want []string
	for _, p := range t.s.Players {
		if a, _ := next(p.Name); a != nil {
			want = append(want, p.Name)
		}
	}
	if len(want) == 0 {
		return
	}
	seq := t.initiative(want, lang.M("laser fire"))
	for fired := true; fired; {
		fired = false
		for _, p := range seq {
			a, tg := next(p)
			if a == nil {
				continue
			}
			fired = true
			t.tell(a.Owner, lang.M("impulse %d: your standing order %s chooses %s", imp,
				order{Verb: "FIRE", Unit: a.ID, Fire: *a.Fire}.line(), tg.ID))
			shot := a.Shots
			a.Shots++
			used[a.ID]++
			t.told(draw.Attack, &a.Hex, tg.Hex, a.Owner)
			t.told(draw.Battle, nil, tg.Hex, "")
			r, note := t.hitRange(a.Owner, tg, shot)
			roll := t.d.RollMsg(6, lang.M("%s lasers %s (shot %d, hits on %s)", a.ID, tg.ID, shot+1, hits(r)))
			if roll > r {
				t.say(lang.M("impulse %d: %s fires at %s, shot %d, hits on %s%s: rolls %d, misses", imp, a.ID, tg.ID, shot+1, hits(r), note, roll))
				continue
			}
			dmg := t.d.RollMsg(6, lang.M("%s laser damage to %s", a.ID, tg.ID))
			t.say(lang.M("impulse %d: %s fires at %s, shot %d, hits on %s%s: rolls %d, hits for %d", imp, a.ID, tg.ID, shot+1, hits(r), note, roll, dmg))
			t.damage(tg, dmg)
		}
	}
}

func hits(r int) lang.Msg {
	switch {
	case r <= 0:
		return lang.M("nothing")
	case r == 1:
		return lang.M("%d", 1)
	}
	return lang.M("1-%d", min(r, 6))
}

// damage applies n points to u: a Station's module by the hit-location roll
// (002-F8), less Active Armor's reduction (002-F9); anything else dies at
// its hit points.
func (t *turn) damage(u *Unit, n int) {
	if u.Kind != Station {
		u.Damage += n
		if u.Damage >= u.spec().HP {
			t.lose(u, lang.M("%s is destroyed", u.ID))
		} else {
			t.say(lang.M("%s has %d damage of %d", u.ID, u.Damage, u.spec().HP))
		}
		return
	}
	if len(u.Modules) == 0 {
		t.lose(u, lang.M("%s is destroyed", u.ID))
		return
	}
	i, where := t.hitLocation(u)
	m := &u.Modules[i]
	red := t.s.optInt("armor")
	if m.Kind != Armor && red > 0 && u.operational(Armor) {
		t.say(lang.M("Active Armor of %s stops %d of %d", u.ID, min(red, n), n))
		n = max(0, n-red)
	}
	m.Damage += n
	hp := specs[m.Kind].HP
	switch {
	case m.Damage >= hp:
		k := m.Kind
		u.Modules = append(u.Modules[:i], u.Modules[i+1:]...)
		t.say(lang.M("%s's %s module takes %d and is destroyed%s", u.ID, kindMsg(k), n, where))
		if k == Core && u.operational(Factory) {
			t.say(lang.M("%s survives on its Factory; it can buy a new Core", u.ID))
		}
	case m.disabled():
		t.say(lang.M("%s's %s module takes %d%s: %d of %d, disabled", u.ID, kindMsg(m.Kind), n, where, m.Damage, hp))
	default:
		t.say(lang.M("%s's %s module takes %d%s: %d of %d", u.ID, kindMsg(m.Kind), n, where, m.Damage, hp))
	}
	// Without a Core a Station lives only while its Factory works (section 1).
	if u.module(Core) == nil && !u.operational(Factory) {
		t.lose(u, lang.M("%s is destroyed, having neither Core nor working Factory", u.ID))
	}
}

// sheetTable is the hit-location option "sheet" (our design, an alternative
// to 002-F8): a d8 read against the data sheet's order of modules, face 8
// the Core again; a face whose module the Station lacks hits the Core.
var sheetTable = [8]Kind{Core, Engine, Factory, PointDef, Refinery, Armor, Collector, Core}

// hitLocation picks the module a hit on Station u lands on and says how
// (002-R7). Option hit-location: "even" (002-F8: a d6, a d8 with seven
// modules, over the modules in installation order, rolled again above the
// count) or "sheet" (sheetTable; rolled again only when the Core is gone
// too). A Station with one module takes every hit there without a roll.
func (t *turn) hitLocation(u *Unit) (int, lang.Msg) {
	k := len(u.Modules)
	if k == 1 {
		return 0, lang.M(" (its only module)")
	}
	for {
		if t.s.Opts["hit-location"] == "sheet" {
			r := t.d.RollMsg(8, lang.M("hit location on %s (data-sheet table)", u.ID))
			want := sheetTable[r-1]
			if u.module(want) == nil {
				want = Core
			}
			for i, m := range u.Modules {
				if m.Kind == want {
					if want != sheetTable[r-1] {
						return i, lang.M(" (location die %d: no %s, so the Core)", r, kindMsg(sheetTable[r-1]))
					}
					return i, lang.M(" (location die %d)", r)
				}
			}
			if t.d.Err() != nil {
				return 0, lang.M(" (no location die)")
			}
			t.say(lang.M("hit location on %s: %d, the %s and the Core are gone, roll again", u.ID, r, kindMsg(sheetTable[r-1])))
			continue
		}
		sides := 6
		if k > 6 {
			sides = 8
		}
		r := t.d.RollMsg(sides, lang.M("hit location on %s (%d modules)", u.ID, k))
		if r <= k || t.d.Err() != nil {
			r = min(r, k)
			return r - 1, lang.M(" (location die %d)", r)
		}
		t.say(lang.M("hit location on %s: %d, no such module, roll again", u.ID, r))
	}
}

// striker returns the warhead's strike position: a free warhead, or one on
// a free booster (002-G13), and the booster if any.
func (t *turn) striker(w *Unit) (*Unit, bool) {
	if w.In == "" {
		return nil, !w.Atmo
	}
	b := t.s.unit(w.In)
	if b != nil && b.Kind == Booster && b.In == "" {
		return b, true
	}
	return nil, false
}

// warheads is step 7 (1.5): pulses first, then basic warheads by initiative.
func (t *turn) warheads(imp int) {
	armed := func(k Kind) []*Unit {
		var out []*Unit
		for _, w := range t.s.Units {
			if w.Kind != k || w.Fire == nil || imp < w.Fire.From {
				continue
			}
			if _, ok := t.striker(w); ok && t.pickTarget(w, w.Fire, false, 0) != nil {
				out = append(out, w)
			}
		}
		return out
	}
	for _, w := range armed(Pulse) {
		if t.s.unit(w.ID) == nil {
			continue
		}
		t.pulse(w)
	}
	next := func(p string) (*Unit, *Unit) {
		for _, w := range armed(Warhead) {
			if w.Owner == p {
				return w, t.pickTarget(w, w.Fire, false, 0)
			}
		}
		return nil, nil
	}
	var want []string
	for _, p := range t.s.Players {
		if w, _ := next(p.Name); w != nil {
			want = append(want, p.Name)
		}
	}
	if len(want) == 0 {
		return
	}
	seq := t.initiative(want, lang.M("warhead strikes"))
	for fired := true; fired; {
		fired = false
		for _, p := range seq {
			w, tg := next(p)
			if w == nil {
				continue
			}
			fired = true
			t.tell(w.Owner, lang.M("impulse %d: your standing order %s chooses %s", imp,
				order{Verb: "STRIKE", Unit: w.ID, Fire: *w.Fire}.line(), tg.ID))
			if b, _ := t.striker(w); b != nil {
				t.s.remove(b.ID)
				w.In = ""
				t.say(lang.M("impulse %d: booster %s releases warhead %s", imp, b.ID, w.ID))
			}
			t.s.remove(w.ID)
			t.told(draw.Attack, &w.Hex, tg.Hex, w.Owner)
			t.told(draw.Battle, nil, tg.Hex, "")
			r, note := t.hitRange(w.Owner, tg, 0)
			roll := t.d.RollMsg(6, lang.M("warhead %s strikes %s (hits on %s)", w.ID, tg.ID, hits(r)))
			if roll > r {
				t.say(lang.M("impulse %d: warhead %s strikes at %s, hits on %s%s: rolls %d, misses", imp, w.ID, tg.ID, hits(r), note, roll))
				continue
			}
			dmg := t.d.RollMsg(6, lang.M("warhead %s damage to %s", w.ID, tg.ID)) + 1
			t.say(lang.M("impulse %d: warhead %s strikes at %s, hits on %s%s: rolls %d, hits for %d (d6+1)", imp, w.ID, tg.ID, hits(r), note, roll, dmg))
			t.damage(tg, dmg)
		}
	}
}

// pulse detonates w (002-F17): every one-hit-point unit free in the hex is
// destroyed; Stations and Gunships are disabled through next turn's Phase 1.
// Cargo of a disabled carrier is unharmed (1.5).
func (t *turn) pulse(w *Unit) {
	if b, _ := t.striker(w); b != nil {
		t.s.remove(b.ID)
		w.In = ""
	}
	at := w.Hex
	t.s.remove(w.ID)
	t.tell(w.Owner, lang.M("impulse %d: your standing order %s finds a target", t.imp,
		order{Verb: "STRIKE", Unit: w.ID, Fire: *w.Fire}.line()))
	t.say(lang.M("impulse %d: pulse warhead %s detonates in %s", t.imp, w.ID, at.Name()))
	t.told(draw.Battle, nil, at, "")
	for _, u := range t.free() {
		if u.Hex != at {
			continue
		}
		if u.Kind == Station || u.Kind == Gunship {
			u.Disabled = t.s.TurnN + 1
			t.say(lang.M("%s is disabled by the pulse until the end of turn %d's movement", u.ID, t.s.TurnN+1))
			continue
		}
		if t.s.unit(u.ID) != nil {
			t.lose(u, lang.M("%s is destroyed by the pulse", u.ID))
		}
	}
}

// losCheck removes boosters and free warheads that see no friendly Station
// or deployed ComSat (rules at 1.6; 002-G17). A lost booster drops its payload.
func (t *turn) losCheck() {
	sees := func(u *Unit) bool {
		for _, x := range t.free() {
			if x.Owner == u.Owner && (x.Kind == Station || (x.Kind == ComSat && x.Deployed)) && !blocked(u.Hex, x.Hex) {
				return true
			}
		}
		return false
	}
	for _, k := range []Kind{Booster, Warhead, Pulse} {
		for _, u := range t.free() {
			if u.Kind != k || sees(u) {
				continue
			}
			if k == Booster {
				for _, c := range t.s.cargo(u.ID) {
					c.In = ""
					t.say(lang.M("%s tumbles free from %s", c.ID, u.ID))
				}
			}
			t.lose(u, lang.M("%s has no line of sight to a friendly Station or ComSat and is lost", u.ID))
		}
	}
}

// gravity is impulse 8 (1.6), with the gravity-blue clarification of 002-F1.
func (t *turn) gravity() {
	t.imp = 8
	var moved []lang.Msg
	mark := len(t.ev)
	for _, u := range t.free() {
		g := t.s.rings.green(u.Hex)
		if t.s.unit(u.ID) == nil || u.V >= g {
			continue
		}
		from := u.Hex
		to := inward(from, u.F)
		note := lang.M("%s %s→%s (velocity %d < green %d)", u.ID, from.Name(), to.Name(), u.V, g)
		if to.ring() == 0 {
			moved = append(moved, note)
			t.intoPlanet(u, from)
			continue
		}
		u.Hex = to
		if b := t.s.rings.blue(to); b > u.V && to.step(u.F).ring() > to.ring() {
			if d, up := towardPlanet(to, u.F); d != 0 && !up {
				u.F = mod6(u.F + d)
				note = lang.M("%s bends to %s", note, dirNames[u.F])
			}
		}
		moved = append(moved, note)
	}
	t.s.syncCargo()
	if len(moved) > 0 {
		t.sayAt(mark, lang.M("gravity: %s", semi(moved)))
	}
	t.losCheck()
}

// place puts p's Station u on hex h of its ring at the ring's speed,
// keeping its sense of orbit.
func (t *turn) place(p string, u *Unit, h Hex) {
	ccw := tangent(u.Hex, true) == u.F
	u.Hex, u.V, u.F = h, t.s.rings.green(h), tangent(h, ccw)
	t.told(draw.Built, nil, h, p)
	t.say(lang.M("%s places %s at %s, velocity %d heading %s", p, u.ID, u.Hex.Name(), u.V, dirNames[u.F]))
}

// placeAtOnce applies the opening's sealed PLACE orders (option
// placement=simultaneous). Nobody saw the other's choice, so a placement
// that would start a Station within min-distance of an enemy Station, as
// it would stand after every placement, is refused and the Station keeps
// its spot; refusals are checked again until none is left to make, so the
// order of the orders does not matter.
func (t *turn) placeAtOnce() {
	s := t.s
	type move struct {
		p  string
		u  *Unit
		to Hex
		ok bool
	}
	var moves []*move
	t.each("PLACE", func(p string, o order) {
		if u := s.unit(o.Unit); u != nil && o.Hex != nil {
			moves = append(moves, &move{p: p, u: u, to: *o.Hex, ok: true})
		}
	})
	at := func(u *Unit) Hex {
		for _, m := range moves {
			if m.u == u && m.ok {
				return m.to
			}
		}
		return u.Hex
	}
	min := s.optInt("min-distance")
	for {
		// Every placement is judged against the others as they stand
		// this round; the refusals of a round apply together.
		var refused []*move
		for _, m := range moves {
			if !m.ok {
				continue
			}
			for _, o := range s.Units {
				if o.Kind == Station && o.Owner != m.p && o.In == "" && dist(m.to, at(o)) < min {
					refused = append(refused, m)
					t.say(lang.M("%s's %s may not start at %s: %s's %s would be %s away, and Stations start at least %d apart (option min-distance); it stays at %s",
						m.p, m.u.ID, m.to.Name(), o.Owner, o.ID, lang.MN("%d hex", "%d hexes", dist(m.to, at(o))), min, m.u.Hex.Name()))
					break
				}
			}
		}
		if len(refused) == 0 {
			break
		}
		for _, m := range refused {
			m.ok = false
		}
	}
	for _, m := range moves {
		if m.ok {
			t.place(m.p, m.u, m.to)
		}
	}
}
