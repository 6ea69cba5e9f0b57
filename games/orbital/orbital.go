// Package orbital is the untitled orbital-mechanics game of Stations,
// Satellites, Boosters and Warheads (seeds/orbital.md, analysis "Game 002"):
// two players plot a turn at once; the server flies eight impulses under
// real (hex) gravity, fires lasers and warheads by standing orders, then
// collects, repairs and builds. README.md says which proposal every gap uses.
package orbital

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"orrery/engine"
	"orrery/engine/dice"
)

// Ruleset returns the orbital game.
func Ruleset() engine.Ruleset { return ruleset{} }

type ruleset struct{}

var options = []engine.Option{
	{Name: "scenario", Default: "slow", Choices: []string{"slow", "fast", "refinery"},
		Help: "8.1 slow (both Stations orbit the same way), 8.2 fast (opposite ways), 8.3 refinery (opposite; first to refine the goal wins, 002-F19)"},
	{Name: "moons", Default: "fixed", Choices: []string{"fixed", "random", "agreed", "none"},
		Help: "moon placement: fixed (rings 3, 6, 2 at set corners), random (2d6 each: ring, sextant; 002-R1), agreed (moon-spots) or none"},
	{Name: "moon-spots", Default: "", Help: "with moons=agreed: the players' moons as ring and sextant, e.g. \"3B 6E\" (one moon a ring, up to 4)"},
	{Name: "moon-sense", Default: "ccw", Choices: []string{"ccw", "cw"}, Help: "the one direction all moons orbit in"},
	{Name: "moon-count", Default: "2", Choices: []string{"0", "1", "2", "3", "4"},
		Help: "how many fixed or random moons: the scenarios say up to 3, the general setup up to 4 (002-G25); 4 is the GM's choice"},
	{Name: "station-ring", Default: "4", Choices: []string{"1", "2", "3", "4", "5", "6", "7", "8", "9", "10"},
		Help: "the ring both starting Stations orbit in, on opposite corners (4 is a debris ring, so they can collect from turn 1)"},
	{Name: "station-spots", Default: "", Help: "the two starting Stations' hexes, first player first, e.g. \"4A0 4D2\" (overrides station-ring; the sense comes from the scenario)"},
	{Name: "opening", Default: "on", Choices: []string{"on", "off"}, Help: "a purchase-only turn 0 to spend the starting 8 RU before anything moves (002-B3)"},
	{Name: "turn-limit", Default: "40", Help: "end after this many turns; the greater value (bank plus units) wins, 002-F20; 0 = none"},
	{Name: "ecm", Default: "1", Choices: []string{"0", "1", "2"}, Help: "hit range lost to a target within 1 hex of its side's ECMSat (our design, 002-F13)"},
	{Name: "comsat", Default: "1", Choices: []string{"0", "1", "2"}, Help: "hit range gained when the attacker's ComSat sees the target (our design, 002-F14)"},
	{Name: "armor", Default: "2", Choices: []string{"0", "1", "2", "3"}, Help: "damage Active Armor stops on every hit on its Station (our design, 002-F9)"},
	{Name: "hit-location", Default: "even", Choices: []string{"even", "sheet"},
		Help: "which module a hit on a Station lands on (our design, 002-F8): even = any module alike; sheet = a d8 on the data sheet's order, 1 Core … 7 Collector, 8 Core, a missing module's face hitting the Core"},
	{Name: "refinery", Default: "2d6", Choices: []string{"1d6", "2d6", "3d6"}, Help: "RU a refinery makes of one scoopship load (our design, 002-F11)"},
	{Name: "refinery-goal", Default: "40", Help: "refinery scenario: refined RU that win (002-F19)"},
	{Name: "hidden-cargo", Default: "off", Choices: []string{"off", "on"}, Help: "hide enemy bay contents and payloads until launched or dropped (002-E); Booster payloads are always hidden"},
	{Name: "sat-weight", Default: "2", Choices: []string{"2", "3"}, Help: "satellite weight: 2 by the data sheet, 3 by the Bus example (002-G16)"},
}

func (ruleset) Info() engine.Info {
	return engine.Info{
		Version: 1, // see engine.Info.Version: raise it with a rule change
		Name:    "orbital", Title: "Orbital: Stations, Satellites, Boosters and Warheads",
		MinPlayers: 2, MaxPlayers: 2, Options: options,
		Summary: "Two players fly Stations, Buses, Gunships, Scoopships, satellites, Boosters and Warheads " +
			"around one planet on a hex map of orbital rings with real gravity. Both plot each turn at once; " +
			"the server flies eight impulses, fires lasers and warheads by your standing orders, then you " +
			"collect resources, repair and build. You lose when you have no Station left.",
		OrderHelp: strings.Join(grammar, "\n") + "\n" +
			"Units are named by ID (S1, B7, R12). Hexes: ring, sextant A-F, offset (5A0, 4C2, P = planet).\n" +
			"Targets: enemy IDs or types (station bus gunship scoopship booster warhead pulse satellite any).",
	}
}

func (ruleset) NewState(s engine.Setup, d *dice.Dice) (engine.State, error) { return newState(s, d) }

func (ruleset) LoadState(data []byte) (engine.State, error) { return loadState(data) }

// Bot plays random legal orders, with a little sense: it keeps every weapon
// on FIRE/STRIKE AT ANY, sets and cancels standing drop triggers, launches what its bays hold, deploys satellites,
// throttles Buses and Gunships toward orbital speed, and buys what it can.
func (ruleset) Bot(v engine.View, p engine.Prompt, r *rand.Rand) string {
	vw, ok := v.(*view)
	if !ok {
		return ""
	}
	s := vw.s
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
			if u.Kind == Station && r.IntN(2) == 0 {
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
