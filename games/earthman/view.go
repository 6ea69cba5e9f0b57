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
	// lang is the language the board, status and picture are drawn in
	// (Localize): "" or "en" for English.
	lang string
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
		return nil, []engine.LineError{engine.LineErr(0, "", lang.M("an observer has no orders to give"), lang.M("join the game as a player to give orders"))}
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
		fail := func(why, hint lang.Msg) {
			errs = append(errs, engine.LineErr(i+1, line, why, hint))
		}
		o, e := n.parseLine(line)
		if e != nil {
			errs = append(errs, e.lineErr(i+1, line))
			continue
		}
		ph := phaseOf(o.Verb)
		switch {
		case o.Verb == vPlace:
			if p.Kind != engine.KindStep {
				fail(lang.M("PLACE is only for setting up fleets at the start of the game"), lang.Msg{})
				continue
			}
			places++
			if places > 1 {
				fail(lang.M("one fleet is placed at a time"), lang.M("keep one PLACE line"))
				continue
			}
		case ph != phaseNone:
			if p.Kind != engine.KindTurn {
				fail(lang.M("%s is a %s order and can only be given in your turn", o.Verb, phaseMsg(ph)),
					lang.M("send it with your turn's orders; at any time you may EVACUATE, GIFT, DECOMMISSION, AGREE, CONCEDE or set ON COUP"))
				continue
			}
			if ph < phase {
				fail(lang.M("%s is a %s order, but it comes after %s orders: the phases are taken in strict order", o.Verb, phaseMsg(ph), phaseMsg(phase)),
					lang.M("move this line up, before the %s orders", phaseMsg(phase)))
				continue
			}
			phase = ph
		}
		if why, hint := v.check(me, o, p, launched, routed, coupAt, spent, setNow); !why.IsZero() {
			fail(why, hint)
			continue
		}
		if o.Trig.Event != "" && o.Trig.Action != "NONE" {
			setNow = append(setNow, o.Trig)
		}
		out = append(out, o.String())
	}
	if p.Kind == engine.KindStep && places == 0 && len(errs) == 0 {
		errs = append(errs, engine.LineErr(0, "", lang.M("no PLACE order"), lang.M("write e.g. PLACE Earth")))
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
func (v *view) check(me string, o order, p engine.Prompt, launched, routed map[string]int, coupAt map[string]bool, spent map[string]int, setNow []Trigger) (why, hint lang.Msg) {
	s := v.s
	switch o.Verb {
	case vLaunch:
		launched[o.From] += o.N
		if have := s.fleets(me, o.From); launched[o.From] > have {
			return lang.M("you launch %s from %s but have %d there", fleetsM(launched[o.From]), o.From, have), lang.M("launch at most %d", have)
		}
	case vRoute:
		if o.N == 0 && len(s.coursesAt(me, o.From)) == 0 {
			return lang.M("none of your fleets on %s has a stored destination to forget", o.From),
				lang.M("your status lists the destinations kept with your fleets")
		}
		routed[o.From] += o.N
		if have := s.fleets(me, o.From); routed[o.From] > have {
			return lang.M("you route %s from %s but have %d there", fleetsM(routed[o.From]), o.From, have), lang.M("route at most %d", have)
		}
	case vFire, vCoup:
		if o.Target == me {
			return lang.M("you cannot attack yourself"), lang.M("name another faction after AT")
		}
		if o.Verb == vCoup {
			coupAt[o.World] = true
		} else if coupAt[o.World] {
			return lang.M("FIRE at %s comes after a COUP there: fleets open fire before developments attempt overthrow", o.World),
				lang.M("move the FIRE line above the COUP lines for %s", o.World)
		}
	case vGift:
		if o.To == me {
			return lang.M("you cannot give a unit to yourself"), lang.M("name another faction after TO")
		}
	case vOn:
		switch {
		case o.Trig.To == me:
			return lang.M("you cannot give a unit to yourself"), lang.M("name another faction after TO")
		case o.Trig.By == me:
			return lang.M("you never attack yourself, so this trigger could not fire"), lang.M("name another faction after BY, or leave BY out")
		case o.Trig.Event != "" && o.Trig.Action == "NONE" && !v.hasTrigger(me, o.Trig, setNow):
			return lang.M("you have no standing order %s … to cancel", strings.TrimSuffix(o.Trig.String(), " NONE")),
				lang.M("your status lists your standing orders; NONE must name the same event, world, BY and FIRE|COUP")
		}
	case vConcede:
		if s.Stage == stageSetup {
			return lang.M("you cannot concede while fleets are being placed"), lang.M("concede once the first turn has begun")
		}
	case vAgree:
		if !s.alive(o.Target) && o.Target != "NONE" && o.Target != "DRAW" {
			return lang.M("%s has no units left on the board", o.Target), lang.M("agree on a player still on the board")
		}
	}
	if extraordinary(o.Verb) && p.Kind != engine.KindTurn {
		// Outside the turn nothing moves while the orders wait, so the
		// counts can be checked exactly.
		dev := o.Dev || o.Verb == vEvac
		key := fmt.Sprintf("%v %s", dev, o.World)
		spent[key] += o.N
		have := s.fleets(me, o.World)
		if dev {
			have = s.devs(me, o.World)
		}
		if o.Verb == vGift {
			t := s.tasked(me, o.World)
			if dev {
				have -= t.Devs
			} else {
				have -= t.Fleets
			}
		}
		if o.Verb == vEvac {
			// The evacuated developments become fleets there.
			spent[fmt.Sprintf("%v %s", false, o.World)] -= o.N
		}
		if spent[key] > have {
			var why lang.Msg
			switch {
			case o.Verb == vGift && dev:
				why = lang.M("you have %d developments free to give (units of your last attacking groups may not be given) on %s, and these orders use %d", have, o.World, spent[key])
			case o.Verb == vGift:
				why = lang.M("you have %d fleets free to give (units of your last attacking groups may not be given) on %s, and these orders use %d", have, o.World, spent[key])
			case dev:
				why = lang.M("you have %d developments on %s, and these orders use %d", have, o.World, spent[key])
			default:
				why = lang.M("you have %d fleets on %s, and these orders use %d", have, o.World, spent[key])
			}
			return why, lang.M("use fewer")
		}
	}
	return lang.Msg{}, lang.Msg{}
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
	list := v.t(lang.M("none (attacks are met with saves only)"))
	if len(so) > 0 {
		list = strings.Join(so, "; ")
	}
	out := wrap(v.t(lang.M("Your standing orders: %s.", list)), 78)
	var cs []string
	for _, c := range s.Courses[v.player] {
		cs = append(cs, v.t(lang.M("%s on %s bound for %s", fleetsM(c.N), c.At, c.To)))
	}
	if len(cs) > 0 {
		out += wrap(v.t(lang.M("Your fleets' destinations (kept until they arrive; ROUTE NONE FROM <place> forgets one): %s.", strings.Join(cs, "; "))), 78)
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
