package orbital

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"orrery/engine"
)

// Bot plays to win on value and by the hunt. Its Station stays in its
// starting orbit (on a debris ring it collects every turn), and its first
// purchase is a Resource Collector, which doubles what it collects: at the
// turn limit the greater value (bank plus units) wins, and everything it
// buys keeps its price in that sum. Then it buys a Gunship and launches it
// contra-orbitally: on the same ring the other way round it meets the
// enemy's Station twice an orbit, and its standing fire order (any enemy)
// shoots it on every pass; a Station destroyed ends the game at once. Then
// a Point Defense module against the enemy's hunters, Active Armor, and
// repairs of whatever is damaged. It never thrusts its Station off the
// ring it collects on. It reads only its own view.
func (ruleset) Bot(v engine.View, p engine.Prompt, _ *rand.Rand) string {
	vw, ok := v.(*view)
	if !ok || p.Kind != engine.KindTurn {
		return p.Default
	}
	return botTurn(vw.s, vw.player)
}

// botTurn is one turn's orders for player me.
func botTurn(s *State, me string) string {
	pl := s.player(me)
	if pl == nil {
		return ""
	}
	ru := pl.RU
	var lines []string
	var stations []*Unit
	for _, u := range s.Units {
		if u.Owner == me && u.Kind == Station && u.In == "" {
			stations = append(stations, u)
		}
	}
	hunters := 0
	for _, u := range s.Units {
		if u.Owner != me || u.Kind != Gunship {
			continue
		}
		hunters++
		if c := s.unit(u.In); c != nil && c.Kind == Station && s.TurnN > 0 {
			// Launch against the orbit, where the enemy will come: the
			// price again, paid now.
			if cost := specs[Gunship].Cost; ru >= cost && c.operational(Core) && c.Disabled == 0 {
				lines = append(lines, "LAUNCH "+u.ID+" CONTRA")
				ru -= cost
			}
		}
	}
	for _, st := range stations {
		quota := stationQuota(st)
		spend := func(cost int) bool {
			if cost > ru || cost > quota.general {
				return false
			}
			ru -= cost
			quota.general -= cost
			return true
		}
		for _, m := range st.Modules {
			if m.Damage > 0 {
				n := min(m.Damage, 4)
				if m.Kind == Core && quota.coreOnly > 0 {
					// A disabled Core's own quota pays for its repair.
					n = min(n, ru)
					if n > 0 {
						ru -= n
						lines = append(lines, fmt.Sprintf("REPAIR %s %s %d", st.ID, strings.ToUpper(string(m.Kind)), n))
					}
					continue
				}
				for n > 0 && !spend(n) {
					n--
				}
				if n > 0 {
					lines = append(lines, fmt.Sprintf("REPAIR %s %s %d", st.ID, strings.ToUpper(string(m.Kind)), n))
				}
			}
		}
		if !st.operational(Core) {
			continue
		}
		buyModule := func(k Kind) {
			if st.module(k) == nil && spend(specs[k].Cost) {
				lines = append(lines, fmt.Sprintf("BUY %s AT %s", strings.ToUpper(string(k)), st.ID))
			}
		}
		switch {
		case onDebris(s, st) || st.Moon != "":
			buyModule(Collector)
		case climbToDebris(s, st):
			// Off the debris rings nothing is collected: an Engine Module
			// lets the Station climb a ring a turn to the next one out.
			if st.operational(Engine) && st.Disabled == 0 && st.V == s.rings.green(st.Hex) {
				lines = append(lines, "THRUST "+st.ID+" +1")
			} else {
				buyModule(Engine)
			}
		}
		if st.module(Collector) != nil || !onDebris(s, st) {
			// Keep the contra launch's price for next turn.
			if hunters == 0 && ru >= 2*specs[Gunship].Cost && spend(specs[Gunship].Cost) {
				lines = append(lines, fmt.Sprintf("BUY GUNSHIP AT %s INTO BAY", st.ID))
				hunters++
			}
			if hunters > 0 {
				buyModule(PointDef)
				buyModule(Armor)
			}
		}
	}
	// Anything the view refuses is dropped, so the orders always parse.
	v := &view{s: s, player: me}
	var ok []string
	for _, l := range lines {
		if _, errs := v.parse(strings.Join(append(append([]string(nil), ok...), l), "\n")); len(errs) == 0 {
			ok = append(ok, l)
		}
	}
	if len(ok) == 0 {
		// A mail with no order line at all may not count as an answer.
		for _, st := range stations {
			if st.operational(PointDef) {
				return "FIRE " + st.ID
			}
		}
		return ""
	}
	return strings.Join(ok, "\n")
}

// onDebris reports whether a unit is on a debris ring, where a Station
// collects.
func onDebris(s *State, u *Unit) bool {
	r := u.Hex.ring()
	return r >= 0 && r < len(s.rings.Debris) && s.rings.Debris[r]
}

// climbToDebris reports whether a debris ring lies outside the unit's
// ring, so that climbing (a +1 burn raises an orbit by exactly one ring)
// reaches it.
func climbToDebris(s *State, u *Unit) bool {
	for r := u.Hex.ring() + 1; r < len(s.rings.Debris); r++ {
		if s.rings.Debris[r] {
			return true
		}
	}
	return false
}
