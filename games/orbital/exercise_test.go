package orbital

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"orrery/engine"
)

// exercised is the ruleset with its bot replaced by the exerciser.
type exercised struct{ ruleset }

func (exercised) Bot(v engine.View, p engine.Prompt, r *rand.Rand) string { return exerciser(v, p, r) }

// exerciser plays random legal orders, with a little sense: it keeps
// every weapon on FIRE/STRIKE AT ANY, sets and cancels standing drop
// triggers, launches what its bays hold, deploys satellites, throttles
// Buses and Gunships toward orbital speed, and buys what it can. It was the
// ruleset's bot before the bot played to win; the property test keeps it
// for the rules it wanders into (contra launches, recycling, landings,
// pick-ups, triggers, fire orders with priorities and budgets).
func exerciser(v engine.View, p engine.Prompt, r *rand.Rand) string {
	vw, ok := v.(*view)
	if !ok {
		return ""
	}
	s := vw.s
	if len(s.Placing) > 0 {
		// A placement step: keep the spot, or try a few hexes of the ring
		// for one far enough from the enemy.
		for _, u := range s.stations(vw.player) {
			n := u.Hex.ring()
			for try := 0; try < 4 && r.IntN(2) == 0; try++ {
				if h := hexAt(n, r.IntN(6), r.IntN(n)); s.tooClose(vw.player, h).IsZero() {
					return "PLACE " + u.ID + " " + h.Name()
				}
			}
		}
		return ""
	}
	var lines []string
	var stations []*Unit
	for _, u := range s.Units {
		if u.Owner != vw.player {
			continue
		}
		if u.Kind == Station {
			stations = append(stations, u)
		}
		if s.TurnN == 0 {
			if u.Kind == Station && s.Opts["placement"] == "simultaneous" && r.IntN(2) == 0 {
				n := u.Hex.ring()
				lines = append(lines, "PLACE "+u.ID+" "+hexAt(n, r.IntN(6), r.IntN(n)).Name())
			}
		} else if c := s.unit(u.In); c != nil && c.Kind == Station && c.In == "" && r.IntN(2) == 0 {
			off := []string{"", " LEFT", " RIGHT", " CONTRA", " RIGHT CONTRA"}[r.IntN(5)]
			lines = append(lines, "LAUNCH "+u.ID+off)
		} else if u.In == "" && s.thrust(u) > 0 && r.IntN(3) == 0 {
			g := s.rings.green(u.Hex)
			dv := 0
			if u.V < g {
				dv = 1
			} else if u.V > g+1 {
				dv = -1
			}
			lines = append(lines, fmt.Sprintf("THRUST %s %+d", u.ID, dv))
		}
		if u.Kind.satellite() && !u.Deployed && r.IntN(2) == 0 {
			lines = append(lines, fmt.Sprintf("DEPLOY %s AT %d", u.ID, 1+r.IntN(7)))
		}
		if u.Trigger != nil && r.IntN(4) == 0 {
			lines = append(lines, "CANCEL "+u.ID) // triggers stand; sometimes the bot thinks better of one
		}
		if u.Kind.warhead() && u.In != "" && r.IntN(4) == 0 {
			if c := s.unit(u.In); c != nil && c.Kind != Booster {
				if r.IntN(2) == 0 {
					lines = append(lines, "DROP "+u.ID+" WHEN "+[]string{"ANY", "STATION", "GUNSHIP"}[r.IntN(3)])
				} else {
					lines = append(lines, fmt.Sprintf("DROP %s AT %d", u.ID, 1+r.IntN(7)))
				}
			}
		}
		if s.TurnN > 0 {
			lines = append(lines, botExtras(s, u, r)...)
		}
		if u.Kind == Scoopship && u.Atmo && r.IntN(2) == 0 {
			lines = append(lines, fmt.Sprintf("EXIT %s %s", u.ID, hexAt(1, r.IntN(6), 0).Name()))
		}
	}
	ru := 0
	if pl := s.player(vw.player); pl != nil {
		ru = pl.RU
	}
	for _, st := range stations {
		for _, m := range st.Modules {
			if m.Damage > 0 && r.IntN(2) == 0 {
				lines = append(lines, fmt.Sprintf("REPAIR %s %s %d", st.ID, strings.ToUpper(string(m.Kind)), min(m.Damage, 4)))
			}
		}
		for n := 1 + r.IntN(3); n > 0; n-- {
			k := []string{"ENGINE", "PD", "FACTORY", "ARMOR", "COLLECTOR", "REFINERY", "BUS", "GUNSHIP", "SCOOPSHIP",
				"DEFSAT INTO SPACE", "COMSAT INTO SPACE", "ECMSAT INTO SPACE", "BOOSTER WARHEAD", "BOOSTER PULSE",
				"BOOSTER COMSAT", "WARHEAD", "CORE"}[r.IntN(17)]
			words := strings.Fields(k)
			if kind, _ := parseKind(words[0]); specs[kind].Module && kind != Core && st.module(kind) != nil {
				continue
			}
			kind, _ := parseKind(words[0])
			cost := specs[kind].Cost
			if len(words) > 1 && words[1] != "INTO" {
				pk, _ := parseKind(words[1])
				cost += specs[pk].Cost
			}
			if cost > ru {
				continue
			}
			ru -= cost
			line := "BUY " + words[0]
			rest := ""
			if len(words) > 1 && words[1] != "INTO" {
				line += " " + words[1]
			} else if len(words) > 1 {
				rest = " " + strings.Join(words[1:], " ")
			}
			lines = append(lines, line+" AT "+st.ID+rest)
		}
	}
	// Anything the view rejects (a module bought twice this turn) is dropped.
	var ok2 []string
	for _, l := range lines {
		if _, errs := vw.parse(strings.Join(append(append([]string(nil), ok2...), l), "\n")); len(errs) == 0 {
			ok2 = append(ok2, l)
		}
	}
	return strings.Join(ok2, "\n")
}

// botExtras gives the bot's rarer orders, so that random play reaches every
// rule: contra launches, recycling, landings, pick-ups, and fire orders with
// priorities, budgets and holds.
func botExtras(s *State, u *Unit, r *rand.Rand) []string {
	var out []string
	c := s.unit(u.In)
	inBay := c != nil && c.Kind == Station
	switch {
	case inBay && r.IntN(12) == 0:
		out = append(out, "RECYCLE "+u.ID)
	case inBay && u.Kind == Booster && len(s.cargo(u.ID)) == 0:
		for _, x := range s.cargo(c.ID) {
			if x.Kind.satellite() || x.Kind.warhead() {
				out = append(out, fmt.Sprintf("PICKUP %s %s AT 1", u.ID, x.ID))
				break
			}
		}
	case u.In == "" && u.Kind == Station && r.IntN(3) == 0:
		for _, m := range s.Moons {
			if m.Hex == u.Hex && m.V == u.V && m.F == u.F {
				out = append(out, "LAND "+u.ID+" AT 1")
				break
			}
		}
	case u.In == "" && (u.Kind == Bus || u.Kind == Gunship) && r.IntN(4) == 0:
		for _, x := range s.Units {
			if x.Owner == u.Owner && x.In == "" && x.Hex == u.Hex && x.V == u.V && x.F == u.F && x.Kind.warhead() {
				out = append(out, fmt.Sprintf("PICKUP %s %s AT %d", u.ID, x.ID, 1+r.IntN(7)))
				break
			}
		}
	}
	if u.Kind == DefSat || u.Kind == Gunship || u.module(PointDef) != nil {
		switch r.IntN(8) {
		case 0:
			out = append(out, "HOLD "+u.ID)
		case 1:
			out = append(out, "FIRE "+u.ID+" AT GUNSHIP STATION ANY SHOTS 1 MIN 2")
		case 2:
			out = append(out, "FIRE "+u.ID)
		}
	}
	if u.Kind.warhead() && r.IntN(6) == 0 {
		out = append(out, "STRIKE "+u.ID+" AT STATION GUNSHIP")
	}
	return out
}
