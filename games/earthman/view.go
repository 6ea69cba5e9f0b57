package earthman

import (
	"fmt"
	"strings"

	"orrery/engine"
	"orrery/engine/lang"
)

type view struct {
	s      *State
	player string
	public bool // an observer's: no seat, and no orders to check
}

// PublicView is what an observer sees (engine.PublicViewer): the whole
// board and the status table, as every player sees them (000-H: there is
// no hidden information), without anyone's standing orders, trigger
// orders or stored fleet destinations, which are their owner's alone.
func (s *State) PublicView() engine.View { return &view{s: s, public: true} }

func (v *view) Player() string {
	if v.public {
		return engine.Observer
	}
	return v.player
}

// Parse checks a submission for prompt p. Counts that the turn itself will
// change (fleets that arrive, units lost in combat) cannot be known in
// advance: orders that ask for more than is there when they run are cut
// down at resolution, and the report says so.
func (v *view) Parse(p engine.Prompt, text string) (engine.Orders, []engine.LineError) {
	if v.public {
		return nil, []engine.LineError{{Msg: "an observer has no orders to give", Fix: "join the game as a player to give orders"}}
	}
	me := v.player
	if me == "" {
		me = p.Player
	}
	n := namer{players: v.s.Players}
	var out engine.TextOrders
	var errs []engine.LineError
	phase := phaseNone
	places := 0
	launched := map[string]int{}
	routed := map[string]int{}
	coupAt := map[string]bool{}
	var setNow []Trigger      // triggers these orders set before a NONE cancels one
	spent := map[string]int{} // anytime: units used so far, by kind and world
	for i, raw := range strings.Split(text, "\n") {
		line := strings.TrimSpace(raw)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fail := func(msg, fix string) {
			errs = append(errs, engine.LineError{Line: i + 1, Text: line, Msg: msg, Fix: fix})
		}
		o, e := n.parseLine(line)
		if e != nil {
			fail(e.msg, e.fix)
			continue
		}
		ph := phaseOf(o.Verb)
		switch {
		case o.Verb == vPlace:
			if p.Kind != engine.KindStep {
				fail("PLACE is only for setting up fleets at the start of the game", "")
				continue
			}
			places++
			if places > 1 {
				fail("one fleet is placed at a time", "keep one PLACE line")
				continue
			}
		case ph != phaseNone:
			if p.Kind != engine.KindTurn {
				fail(fmt.Sprintf("%s is a %s order and can only be given in your turn", o.Verb, phaseNames[ph]),
					"send it with your turn's orders; at any time you may EVACUATE, GIFT, DECOMMISSION, AGREE, CONCEDE or set ON COUP")
				continue
			}
			if ph < phase {
				fail(fmt.Sprintf("%s is a %s order, but it comes after %s orders: the phases are taken in strict order", o.Verb, phaseNames[ph], phaseNames[phase]),
					"move this line up, before the "+phaseNames[phase]+" orders")
				continue
			}
			phase = ph
		}
		if msg, fix := v.check(me, o, p, launched, routed, coupAt, spent, setNow); msg != "" {
			fail(msg, fix)
			continue
		}
		if o.Trig.Event != "" && o.Trig.Action != "NONE" {
			setNow = append(setNow, o.Trig)
		}
		out = append(out, o.String())
	}
	if p.Kind == engine.KindStep && places == 0 && len(errs) == 0 {
		errs = append(errs, engine.LineError{Msg: "no PLACE order", Fix: "write e.g. PLACE Earth"})
	}
	if len(errs) > 0 {
		return nil, errs
	}
	if p.Kind == engine.KindTurn && len(out) == 0 {
		// An empty turn is not nothing (engine.View.Parse): the fleets in
		// space make their move worldward all the same. Say so in orders.
		return v.s.emptyTurn(me), nil
	}
	return out, nil
}

// check tests one order against the position the player sees.
func (v *view) check(me string, o order, p engine.Prompt, launched, routed map[string]int, coupAt map[string]bool, spent map[string]int, setNow []Trigger) (string, string) {
	s := v.s
	switch o.Verb {
	case vLaunch:
		launched[o.From] += o.N
		if have := s.fleets(me, o.From); launched[o.From] > have {
			return fmt.Sprintf("you launch %s from %s but have %d there", lang.N(launched[o.From], "fleet", "fleets"), o.From, have), "launch at most " + fmt.Sprint(have)
		}
	case vRoute:
		if o.N == 0 && len(s.coursesAt(me, o.From)) == 0 {
			return fmt.Sprintf("none of your fleets on %s has a stored destination to forget", o.From),
				"your status lists the destinations kept with your fleets"
		}
		routed[o.From] += o.N
		if have := s.fleets(me, o.From); routed[o.From] > have {
			return fmt.Sprintf("you route %s from %s but have %d there", lang.N(routed[o.From], "fleet", "fleets"), o.From, have), "route at most " + fmt.Sprint(have)
		}
	case vFire, vCoup:
		if o.Target == me {
			return "you cannot attack yourself", "name another faction after AT"
		}
		if o.Verb == vCoup {
			coupAt[o.World] = true
		} else if coupAt[o.World] {
			return fmt.Sprintf("FIRE at %s comes after a COUP there: fleets open fire before developments attempt overthrow", o.World),
				"move the FIRE line above the COUP lines for " + o.World
		}
	case vGift:
		if o.To == me {
			return "you cannot give a unit to yourself", "name another faction after TO"
		}
	case vOn:
		switch {
		case o.Trig.To == me:
			return "you cannot give a unit to yourself", "name another faction after TO"
		case o.Trig.By == me:
			return "you never attack yourself, so this trigger could not fire", "name another faction after BY, or leave BY out"
		case o.Trig.Event != "" && o.Trig.Action == "NONE" && !v.hasTrigger(me, o.Trig, setNow):
			return fmt.Sprintf("you have no standing order %s … to cancel", strings.TrimSuffix(o.Trig.String(), " NONE")),
				"your status lists your standing orders; NONE must name the same event, world, BY and FIRE|COUP"
		}
	case vConcede:
		if s.Stage == stageSetup {
			return "you cannot concede while fleets are being placed", "concede once the first turn has begun"
		}
	case vAgree:
		if !s.alive(o.Target) && o.Target != "NONE" && o.Target != "DRAW" {
			return o.Target + " has no units left on the board", "agree on a player still on the board"
		}
	}
	if extraordinary(o.Verb) && p.Kind != engine.KindTurn {
		// Outside the turn nothing moves while the orders wait, so the
		// counts can be checked exactly.
		dev := o.Dev || o.Verb == vEvac
		key := fmt.Sprintf("%v %s", dev, o.World)
		spent[key] += o.N
		have := s.fleets(me, o.World)
		what := "fleets"
		if dev {
			have, what = s.devs(me, o.World), "developments"
		}
		if o.Verb == vGift {
			t := s.tasked(me, o.World)
			if dev {
				have -= t.Devs
			} else {
				have -= t.Fleets
			}
			what += " free to give (units of your last attacking groups may not be given)"
		}
		if o.Verb == vEvac {
			// The evacuated developments become fleets there.
			spent[fmt.Sprintf("%v %s", false, o.World)] -= o.N
		}
		if spent[key] > have {
			return fmt.Sprintf("you have %d %s on %s, and these orders use %d", have, what, o.World, spent[key]), "use fewer"
		}
	}
	return "", ""
}

// hasTrigger says whether p has a trigger that t would replace, set
// before or earlier in the same orders.
func (v *view) hasTrigger(p string, t Trigger, setNow []Trigger) bool {
	for _, x := range append(append([]Trigger(nil), v.s.Triggers[p]...), setNow...) {
		if x.same(t) {
			return true
		}
	}
	return false
}

// standingOrders is the part of the status only its reader sees: their
// standing orders and the destinations stored with their fleets.
func (v *view) standingOrders() string {
	s := v.s
	var so []string
	for _, w := range append([]string{"ANY"}, board.Names(isWorld)...) {
		if a := s.OnCoup[v.player][w]; a != "" {
			so = append(so, fmt.Sprintf("ON COUP AT %s %s", w, a))
		}
	}
	for _, x := range s.Support[v.player] {
		so = append(so, order{Verb: vOn, Target: x.Target, World: x.World, N: x.N, Dev: x.Dev, Action: vGift}.String())
	}
	for _, t := range s.Triggers[v.player] {
		so = append(so, t.String())
	}
	if len(so) == 0 {
		so = []string{"none (attacks are met with saves only)"}
	}
	out := wrap(fmt.Sprintf("Your standing orders: %s.", strings.Join(so, "; ")), 78)
	var cs []string
	for _, c := range s.Courses[v.player] {
		cs = append(cs, fmt.Sprintf("%s on %s bound for %s", unitN(c.N, false), c.At, c.To))
	}
	if len(cs) > 0 {
		out += wrap(fmt.Sprintf("Your fleets' destinations (kept until they arrive; ROUTE NONE FROM <place> forgets one): %s.", strings.Join(cs, "; ")), 78)
	}
	return out
}

// Board and Status are in render.go.

// emptyTurn is what a turn sent empty does, written as the orders that do
// it: every fleet of p in space makes its one move worldward (000-B4),
// towards its stored destination (a ROUTE to the same place keeps it),
// the rest to the first branch.
func (s *State) emptyTurn(p string) engine.TextOrders {
	var out engine.TextOrders
	for _, t := range board.Trajectories() {
		left := s.fleets(p, t.Name)
		for _, c := range s.coursesAt(p, t.Name) {
			if n := min(c.N, left); n > 0 {
				out = append(out, order{Verb: vRoute, N: n, From: t.Name, To: c.To}.String())
				left -= n
			}
		}
		if left > 0 {
			out = append(out, order{Verb: vRoute, N: left, From: t.Name, To: board.Children(t.Name)[0]}.String())
		}
	}
	return out
}
