package orbital

import (
	"sort"

	"orrery/engine"
	"orrery/engine/draw"
	"orrery/engine/lang"
)

// phase2 is construction and resource management (section 2): collection,
// recycling and refinery deliveries; repairs; purchases. Each player's
// orders run in the order written; players in seat order.
func (t *turn) phase2() {
	s := t.s
	for _, st := range s.Units {
		if st.Kind != Station || st.In != "" || !st.operational(Core) {
			continue
		}
		pl := s.player(st.Owner)
		two := st.operational(Collector) // 002-F12
		if m := t.landedOn(st); m != nil {
			n := m.X
			if two {
				n *= 2
			}
			sum := 0
			for i := 0; i < n; i++ {
				sum += t.d.RollMsg(6, lang.M("%s collects on moon %s (die %d of %d)", st.ID, m.ID, i+1, n))
			}
			pl.RU += sum
			t.say(lang.M("%s collects %d RU on moon %s (%dd6)", st.ID, sum, m.ID, n))
			continue
		}
		if s.rings.Debris[st.Hex.ring()] {
			n := 1
			if two {
				n = 2
			}
			sum := n
			for i := 0; i < n; i++ {
				sum += t.d.RollMsg(4, lang.M("%s collects in debris ring %d", st.ID, st.Hex.ring()))
			}
			pl.RU += sum
			t.say(lang.M("%s collects %d RU in the debris of ring %d (%dd4+%d)", st.ID, sum, st.Hex.ring(), n, n))
		}
	}
	t.each("RECYCLE", func(p string, o order) {
		u := s.unit(o.Unit)
		if u == nil {
			return
		}
		if c := s.unit(u.In); c == nil || c.Kind != Station {
			t.tell(p, lang.M("%s cannot be recycled: it is not in a Station's bay", u.ID))
			return
		}
		s.remove(u.ID)
		got := max(0, u.spec().Cost-1)
		s.player(p).RU += got
		if t.s.hiddenCargo() {
			t.tell(p, lang.M("%s recycles %s %s for %d RU", p, kindMsg(u.Kind), u.ID, got))
			t.say(lang.M("%s recycles something from a bay", p))
			return
		}
		t.say(lang.M("%s recycles %s %s for %d RU", p, kindMsg(u.Kind), u.ID, got))
	})
	t.deliveries()
	t.repairsAndPurchases()
}

// landedOn returns the moon u sits on, if it is still with it.
func (t *turn) landedOn(u *Unit) *Moon {
	for i := range t.s.Moons {
		m := &t.s.Moons[i]
		if u.Moon == m.ID && m.Hex == u.Hex {
			return m
		}
	}
	u.Moon = ""
	return nil
}

// deliveries: a loaded scoopship in the hex of a friendly Station with an
// operational refinery unloads for the refinery's yield (002-F11; ours).
func (t *turn) deliveries() {
	s := t.s
	for _, k := range s.Units {
		if k.Kind != Scoopship || k.Gas == 0 || k.Atmo || k.In != "" {
			continue
		}
		for _, st := range s.stations(k.Owner) {
			if st.Hex != k.Hex || st.In != "" || !st.operational(Refinery) {
				continue
			}
			n := 2
			if s.Opts["refinery"] == "1d6" {
				n = 1
			} else if s.Opts["refinery"] == "3d6" {
				n = 3
			}
			sum := 0
			for i := 0; i < n; i++ {
				sum += t.d.RollMsg(6, lang.M("refinery of %s yield from %s (die %d of %d)", st.ID, k.ID, i+1, n))
			}
			pl := s.player(k.Owner)
			pl.RU += sum
			pl.Refined += sum
			k.Gas = 0
			t.say(lang.M("%s delivers its gas to %s's refinery: %d RU (%d refined in all)", k.ID, st.ID, sum, pl.Refined))
			break
		}
	}
}

// quota is what a Station may still spend this turn (002-G21, 002-G14): the
// Core's 10 and an operational Factory's 20; a disabled Core's 10 pays only
// for repairing the Core.
type quota struct{ general, coreOnly int }

func stationQuota(st *Unit) quota {
	var q quota
	if c := st.module(Core); c != nil {
		if c.disabled() {
			q.coreOnly = specs[Core].Quota
		} else {
			q.general += specs[Core].Quota
		}
	}
	if st.operational(Factory) {
		q.general += specs[Factory].Quota
	}
	return q
}

func (t *turn) repairsAndPurchases() {
	s := t.s
	quotas := map[string]*quota{}
	q := func(st *Unit) *quota {
		if quotas[st.ID] == nil {
			x := stationQuota(st)
			quotas[st.ID] = &x
		}
		return quotas[st.ID]
	}
	repaired := map[string]int{}
	t.each("REPAIR", func(p string, o order) {
		st := s.unit(o.Unit)
		if st == nil || st.Kind != Station {
			t.tell(p, lang.M("%s cannot repair: it is gone", o.Unit))
			return
		}
		m := st.module(o.Kind)
		if m == nil {
			t.tell(p, lang.M("%s has no %s module to repair", st.ID, kindMsg(o.Kind)))
			return
		}
		key := st.ID + " " + string(o.Kind)
		n := min(o.N, m.Damage, 4-repaired[key])
		qq := q(st)
		avail := qq.general
		if o.Kind == Core {
			avail += qq.coreOnly
		}
		pl := s.player(p)
		n = min(n, avail, pl.RU)
		if n <= 0 {
			t.tell(p, lang.M("%s repairs nothing on its %s (damage %d, RU %d, quota left %d)", st.ID, kindMsg(o.Kind), m.Damage, pl.RU, avail))
			return
		}
		m.Damage -= n
		repaired[key] += n
		pl.RU -= n
		if o.Kind == Core {
			c := min(n, qq.coreOnly)
			qq.coreOnly -= c
			qq.general -= n - c
		} else {
			qq.general -= n
		}
		t.say(lang.M("%s repairs %s of its %s for %d RU (damage now %d)", st.ID, lang.MN("%d point", "%d points", n), kindMsg(o.Kind), n, m.Damage))
	})
	t.each("BUY", func(p string, o order) { t.buy(p, o, q) })
}

func (t *turn) buy(p string, o order, q func(*Unit) *quota) {
	s := t.s
	st := s.unit(o.Unit)
	if st == nil || st.Kind != Station {
		t.tell(p, lang.M("%s cannot buy: Station %s is gone", p, o.Unit))
		return
	}
	cost := specs[o.Kind].Cost + specs[o.Payload].Cost
	pl, qq := s.player(p), q(st)
	what := lang.M("%s", upperKind(o.Kind))
	if o.Payload != "" {
		what = lang.M("%s with %s", upperKind(o.Kind), aKind(o.Payload))
	}
	switch {
	case pl.RU < cost:
		t.tell(p, lang.M("%s cannot buy %s at %s: it costs %d RU, the bank has %d", p, what, st.ID, cost, pl.RU))
		return
	case qq.general < cost:
		t.tell(p, lang.M("%s cannot buy %s at %s: it costs %d, the production quota left is %d", p, what, st.ID, cost, qq.general))
		return
	case st.In != "":
		t.tell(p, lang.M("%s cannot build while carried", st.ID))
		return
	}
	module := specs[o.Kind].Module && (o.Kind != Core || st.module(Core) == nil)
	if module {
		if st.module(o.Kind) != nil {
			t.tell(p, lang.M("%s already has %s module", st.ID, aKind(o.Kind)))
			return
		}
		st.Modules = append(st.Modules, Module{Kind: o.Kind})
		sort.SliceStable(st.Modules, func(i, j int) bool { return modIndex(st.Modules[i].Kind) < modIndex(st.Modules[j].Kind) })
		pl.RU -= cost
		qq.general -= cost
		if o.Kind == PointDef && st.Fire == nil {
			st.Fire = &FireOrder{} // a new laser stands at FIRE AT ANY
		}
		t.say(lang.M("%s installs %s module on %s for %d RU", p, aKind(o.Kind), st.ID, cost))
		return
	}
	var in *Unit
	switch o.Place {
	case "BAY":
		in = st
	case "SPACE":
	default:
		c := s.unit(o.Place)
		w := specs[o.Kind].Weight + specs[o.Payload].Weight
		if o.Kind.satellite() {
			w = s.optInt("sat-weight")
		}
		switch {
		case c == nil || c.In != "" || c.Hex != st.Hex:
			t.tell(p, lang.M("%s cannot take %s: it is not free in %s's hex", o.Place, what, st.ID))
			return
		case c.Kind == Booster && (len(s.cargo(c.ID)) > 0 || !(o.Kind.satellite() || o.Kind.warhead())):
			t.tell(p, lang.M("booster %s carries one satellite or warhead", c.ID))
			return
		case c.Kind != Booster && c.spec().Payload > 0 && s.load(c.ID)+w > c.spec().Payload: // a Booster: one, any weight
			t.tell(p, lang.M("%s has room for %d, not %d", c.ID, c.spec().Payload-s.load(c.ID), w))
			return
		}
		in = c
	}
	pl.RU -= cost
	qq.general -= cost
	t.told(draw.Built, nil, st.Hex, p)
	u := s.add(p, o.Kind, in, st.Hex, st.V, st.F)
	if in == nil {
		u.Hex, u.V, u.F = st.Hex, st.V, st.F
		u.Deployed = o.Kind.satellite()
	}
	if o.Kind == DefSat || o.Kind == Gunship || o.Kind.warhead() {
		u.Fire = &FireOrder{} // new weapons stand at FIRE/STRIKE AT ANY until told otherwise
	}
	where := lang.M("into %s's bay", st.ID)
	if in == nil {
		where = lang.M("into space at %s", st.Hex.Name())
	} else if in != st {
		where = lang.M("onto %s", in.ID)
	}
	if o.Payload != "" {
		pu := s.add(p, o.Payload, u, u.Hex, u.V, u.F)
		if o.Payload.warhead() {
			pu.Fire = &FireOrder{}
		}
		t.tell(p, lang.M("%s buys booster %s carrying %s %s %s for %d RU", p, u.ID, kindMsg(o.Payload), pu.ID, where, cost))
		t.say(lang.M("%s buys booster %s %s", p, u.ID, where))
		return
	}
	if in != nil && in.Kind == Booster {
		t.tell(p, lang.M("%s buys %s %s %s for %d RU", p, kindMsg(o.Kind), u.ID, where, cost))
		t.say(lang.M("%s loads a payload onto booster %s", p, in.ID))
		return
	}
	if in != nil && t.s.hiddenCargo() {
		t.tell(p, lang.M("%s buys %s %s %s for %d RU", p, kindMsg(o.Kind), u.ID, where, cost))
		t.say(lang.M("%s builds something %s", p, where))
		return
	}
	t.say(lang.M("%s buys %s %s %s for %d RU", p, kindMsg(o.Kind), u.ID, where, cost))
}

func modIndex(k Kind) int {
	for i, m := range moduleOrder {
		if m == k {
			return i
		}
	}
	return len(moduleOrder)
}

// value is what a player still owns, for the turn limit (002-F20).
func (s *State) value(p string) int {
	v := s.player(p).RU
	for _, u := range s.Units {
		if u.Owner != p {
			continue
		}
		v += u.spec().Cost
		for _, m := range u.Modules {
			v += specs[m.Kind].Cost
		}
	}
	return v
}

// checkEnd: a player with no Station is out; the last with one wins (8.1,
// 8.2; both at once is a draw, 002-H). 8.3 is also won by refining the goal
// first (002-F19). At the turn limit the greater value wins (002-F20).
func (t *turn) checkEnd() {
	s := t.s
	defer func() {
		if s.Result.Over {
			t.say(lang.M("game over: %s", *s.Result.Msg))
		}
	}()
	var alive []string
	for i := range s.Players {
		p := &s.Players[i]
		if len(s.stations(p.Name)) == 0 {
			if !p.Out {
				t.say(lang.M("%s has no Station left", p.Name))
			}
			p.Out = true
			continue
		}
		alive = append(alive, p.Name)
	}
	switch len(alive) {
	case 0:
		s.Result = over(nil, lang.M("both players lost their last Station in the same turn: a draw"))
		return
	case 1:
		s.Result = over(alive, lang.M("%s has the only Station left", alive[0]))
		return
	}
	if s.Opts["scenario"] == "refinery" {
		goal := s.optInt("refinery-goal")
		best, who := 0, []string(nil)
		for _, p := range s.Players {
			if p.Refined >= goal && p.Refined > best {
				best, who = p.Refined, []string{p.Name}
			} else if p.Refined >= goal && p.Refined == best {
				who = append(who, p.Name)
			}
		}
		if len(who) == 1 {
			s.Result = over(who, lang.M("%s refined %d RU, reaching the goal of %d", who[0], best, goal))
			return
		} else if len(who) > 1 {
			s.Result = over(nil, lang.M("both players reached the refinery goal with equal totals: a draw"))
			return
		}
	}
	if limit := s.optInt("turn-limit"); limit > 0 && s.TurnN >= limit {
		a, b := s.value(alive[0]), s.value(alive[1])
		text := lang.M("turn limit: %s holds %d RU of value, %s %d", alive[0], a, alive[1], b)
		switch {
		case a > b:
			s.Result = over(alive[:1], text)
		case b > a:
			s.Result = over(alive[1:], text)
		default:
			s.Result = over(nil, lang.M("%s: a draw", text))
		}
	}
}

func over(winners []string, m lang.Msg) engine.Outcome {
	return engine.Ended(m, winners...)
}
