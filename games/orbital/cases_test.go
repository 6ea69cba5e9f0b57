package orbital

import (
	"flag"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"orrery/engine"
	"orrery/engine/enginetest"
)

var update = flag.Bool("update", false, "rewrite the want sections of rule cases and golden files")

// TestRuleCases runs testdata/cases/*.txtar with the shared runner
// (enginetest.Cases): a position ("setup", see buildState), the dice in
// the order the rules roll them, orders ("orders <player>") resolved
// together at each "resolve" section (a player with no orders sends
// none), the position after ("want", from dump) and lines that must each
// appear in some event ("events").
func TestRuleCases(t *testing.T) {
	h := enginetest.Cases{Ruleset: Ruleset(), Update: *update,
		Dump: func(s engine.State) string { return s.(*State).dump() },
		Sections: map[string]func(c *enginetest.Case, args []string, text string){
			"setup": func(c *enginetest.Case, _ []string, text string) { c.State = buildState(c.T, text) },
		}}
	h.Run(t, "testdata/cases/*.txtar")
}

// buildState reads a setup section:
//
//	player ann 8                      name and RU
//	turn 3
//	opt ecm 0
//	placing ann bob                   seats still to place, in order
//	moon M1 3B0 v3 W x2
//	unit ann station S1 4A0 v3 NW core:0,pd:1 fire ANY
//	unit ann warhead W3 in:B2 strike ANY
//	unit ann defsat D4 4A1 v3 NW deployed damage 0 disabled 2
//	unit ann warhead W5 in:B2 trigger DROP:GUNSHIP
func buildState(t *testing.T, text string) *State {
	t.Helper()
	s := &State{Opts: map[string]string{}, TurnN: 1, rings: standardRings}
	for _, o := range options {
		s.Opts[o.Name] = o.Default
	}
	atoi := func(w string) int {
		n, err := strconv.Atoi(strings.TrimLeft(w, "vxVX"))
		if err != nil {
			t.Fatalf("setup: %q is not a number", w)
		}
		return n
	}
	hex := func(w string) Hex {
		h, err := parseHex(w)
		if err != nil {
			t.Fatalf("setup: %v", err)
		}
		return h
	}
	dir := func(w string) int {
		f, ok := parseDir(w)
		if !ok {
			t.Fatalf("setup: %q is not a facing", w)
		}
		return f
	}
	for _, line := range strings.Split(text, "\n") {
		w := strings.Fields(line)
		if len(w) == 0 || strings.HasPrefix(w[0], "#") {
			continue
		}
		switch w[0] {
		case "player":
			s.Players = append(s.Players, Player{Name: w[1], RU: atoi(w[2])})
		case "turn":
			s.TurnN = atoi(w[1])
		case "opt":
			s.Opts[w[1]] = w[2]
		case "placing":
			s.Placing = w[1:]
		case "moon":
			s.Moons = append(s.Moons, Moon{ID: w[1], Hex: hex(w[2]), V: atoi(w[3]), F: dir(w[4]), X: atoi(w[5])})
		case "unit":
			u := &Unit{Owner: w[1], Kind: Kind(w[2]), ID: w[3]}
			if n := atoi(strings.TrimLeft(u.ID, "SYKBGDCEWPR")); n > s.NextID {
				s.NextID = n
			}
			rest := w[4:]
			if strings.HasPrefix(rest[0], "in:") {
				u.In = rest[0][3:]
				rest = rest[1:]
			} else {
				u.Hex, u.V, u.F = hex(rest[0]), atoi(rest[1]), dir(rest[2])
				rest = rest[3:]
			}
			for i := 0; i < len(rest); i++ {
				switch rest[i] {
				case "deployed":
					u.Deployed = true
				case "atmo":
					u.Atmo = true
				case "gas":
					u.Gas = 1
				case "damage":
					i++
					u.Damage = atoi(rest[i])
				case "disabled":
					i++
					u.Disabled = atoi(rest[i])
				case "moon":
					i++
					u.Moon = rest[i]
				case "trigger":
					i++
					verb, when, _ := strings.Cut(rest[i], ":")
					u.Trigger = &Trigger{Verb: verb, When: when}
				case "fire", "strike":
					i++
					f := &FireOrder{}
					if rest[i] != "ANY" {
						f.Targets = strings.Split(rest[i], ",")
					}
					u.Fire = f
				default:
					for _, m := range strings.Split(rest[i], ",") {
						k, n, _ := strings.Cut(m, ":")
						u.Modules = append(u.Modules, Module{Kind: Kind(k), Damage: atoi(n)})
					}
				}
			}
			s.Units = append(s.Units, u)
		default:
			t.Fatalf("setup: unknown line %q", line)
		}
	}
	s.syncCargo()
	return s
}

// dump writes the position compactly for the want sections.
func (s *State) dump() string {
	var b strings.Builder
	fmt.Fprintf(&b, "turn %d\n", s.TurnN)
	if len(s.Placing) > 0 {
		fmt.Fprintf(&b, "placing %s\n", strings.Join(s.Placing, " "))
	}
	for _, p := range s.Players {
		fmt.Fprintf(&b, "player %s ru=%d", p.Name, p.RU)
		if p.Refined > 0 {
			fmt.Fprintf(&b, " refined=%d", p.Refined)
		}
		if p.Out {
			b.WriteString(" out")
		}
		b.WriteString("\n")
	}
	for _, m := range s.Moons {
		fmt.Fprintf(&b, "moon %s %s v%d %s\n", m.ID, m.Hex.Name(), m.V, dirNames[m.F])
	}
	for _, u := range s.Units {
		fmt.Fprintf(&b, "unit %s %s %s", u.Owner, u.Kind, u.ID)
		if u.In != "" {
			fmt.Fprintf(&b, " in:%s", u.In)
		} else if u.Atmo {
			b.WriteString(" atmosphere")
		} else {
			fmt.Fprintf(&b, " %s v%d %s", u.Hex.Name(), u.V, dirNames[u.F])
		}
		var mods []string
		for _, m := range u.Modules {
			mods = append(mods, fmt.Sprintf("%s:%d", m.Kind, m.Damage))
		}
		if len(mods) > 0 {
			b.WriteString(" " + strings.Join(mods, ","))
		}
		if u.Deployed {
			b.WriteString(" deployed")
		}
		if u.Damage > 0 {
			fmt.Fprintf(&b, " damage %d", u.Damage)
		}
		if u.Disabled > 0 {
			fmt.Fprintf(&b, " disabled %d", u.Disabled)
		}
		if u.Gas > 0 {
			b.WriteString(" gas")
		}
		if u.Moon != "" {
			b.WriteString(" moon " + u.Moon)
		}
		if u.Fire != nil {
			tg := "ANY"
			if len(u.Fire.Targets) > 0 {
				tg = strings.Join(u.Fire.Targets, ",")
			}
			fmt.Fprintf(&b, " fire %s", tg)
		}
		if u.Trigger != nil {
			fmt.Fprintf(&b, " trigger %s:%s", u.Trigger.Verb, u.Trigger.When)
		}
		b.WriteString("\n")
	}
	if s.Result.Over {
		fmt.Fprintf(&b, "over %v: %s\n", s.Result.Winners, s.Result.Text)
	}
	return b.String()
}
