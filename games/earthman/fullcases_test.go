package earthman

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"orrery/engine"
	"orrery/engine/enginetest"
)

// TestFullRuleCases runs testdata/full/*.txtar with the shared runner,
// for the full rules. A "begin" section runs 2.1 and 2.2 for the active
// player, as when a turn begins; a "new" section (players, options)
// starts a game by section 1 instead of a "setup" position; "prelude
// <player>" answers a prelude turn (6.4).
func TestFullRuleCases(t *testing.T) {
	h := enginetest.Cases{Ruleset: Full(), Update: *update,
		Dump: func(s engine.State) string { return s.(*FullState).dumpFull() },
		Sections: map[string]func(c *enginetest.Case, args []string, text string){
			"setup": func(c *enginetest.Case, _ []string, text string) { c.State = buildFull(c.T, text) },
			"new": func(c *enginetest.Case, _ []string, text string) {
				// A new game by section 1, with the case's dice for the
				// first player (and the Skynet shuffle).
				setup := engine.Setup{GameID: "case", Options: map[string]string{}}
				for _, line := range strings.Split(text, "\n") {
					w := strings.Fields(line)
					switch {
					case len(w) == 0:
					case w[0] == "players":
						setup.Players = w[1:]
					case w[0] == "option" && len(w) == 3:
						setup.Options[w[1]] = w[2]
					default:
						c.T.Fatalf("new: unknown line %q", line)
					}
				}
				st, err := Full().NewState(setup, c.Dice())
				if err != nil {
					c.T.Fatalf("new: %v", err)
				}
				c.State = st
			},
			"begin": func(c *enginetest.Case, _ []string, _ string) {
				r := &frun{s: c.State.(*FullState), d: c.Dice()}
				r.beginTurn()
				c.Events = append(c.Events, r.events...)
			},
			"prelude": func(c *enginetest.Case, args []string, text string) {
				c.SubmitKind(args[0], text, false, engine.KindStep)
			},
		}}
	h.Run(t, "testdata/full/*.txtar")
}

// buildFull reads a full position. Lines: "players a b", "active a",
// "first a", "fleet <place> <p> <ok> [<at risk>]", "region <world> <n>
// <owner> <devs> [risk]", "devastation <world> <n> <count>", "<p> <field>
// <n>" for economy, discontent, power, vp, ai, sanctions; "tech <p> <tech>
// <level>"; "pi <world> <p>"; "order <p> <standing order>"; "triggered";
// "option skynet|strict"; "deck <card>...". Regions are numbered from 1.
// Every region starts empty (no UN, no Devastation) unless set.
func buildFull(t *testing.T, text string) *FullState {
	t.Helper()
	s := &FullState{Stage: "turns", TurnN: 1}
	atoi := func(x string) int {
		n, err := strconv.Atoi(x)
		if err != nil {
			t.Fatalf("setup: %v", err)
		}
		return n
	}
	seat := func(p string) int {
		for i, q := range s.Players {
			if q == p {
				return i
			}
		}
		t.Fatalf("setup: no player %q", p)
		return 0
	}
	for _, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		switch f[0] {
		case "players":
			s.fullState = *newFullState(f[1:])
			for w := range s.Regions {
				s.Regions[w] = make([]fullRegion, len(s.Regions[w]))
			}
			for _, p := range f[1:] {
				*s.P[p] = fullPlayer{}
				s.Fleets["Earth"][p] = &fullFleets{}
			}
		case "active":
			s.Active = seat(f[1])
		case "first":
			s.First = seat(f[1])
		case "fleet":
			ff := s.fleetsAt(f[2], f[1])
			ff.Ok = atoi(f[3])
			if len(f) > 4 {
				ff.Risk = atoi(f[4])
			}
		case "region":
			r := &s.Regions[f[1]][atoi(f[2])-1]
			r.Owner, r.Devs = f[3], atoi(f[4])
			r.AtRisk = len(f) > 5 && f[5] == "risk"
		case "devastation":
			s.Regions[f[1]][atoi(f[2])-1].Devastation = atoi(f[3])
		case "tech":
			if s.P[f[1]].Tech == nil {
				s.P[f[1]].Tech = map[string]int{}
			}
			s.P[f[1]].Tech[f[2]] = atoi(f[3])
		case "pi":
			s.PI[f[1]] = append(s.PI[f[1]], f[2])
		case "order":
			o, e := namer{players: s.Players}.parseFull(strings.Join(f[2:], " "))
			if e != nil {
				t.Fatalf("setup: %v", e)
			}
			(&frun{s: s}).standing(f[1], o)
		case "rogue":
			s.Rogue = atoi(f[1])
		case "triggered":
			s.Triggered = true
		case "option":
			switch f[1] {
			case "skynet":
				s.Skynet = true
			case "strict":
				s.Strict = true
			case "collab":
				s.Collab = true
			case "territory":
				s.Territory = true
			}
		case "deck":
			for _, c := range f[1:] {
				s.Deck = append(s.Deck, atoi(c))
			}
		case "prelude":
			for _, p := range f[1:] {
				s.Preludes = append(s.Preludes, seat(p))
			}
			s.Stage, s.TurnN = "prelude", 0
		default:
			pl := s.P[f[0]]
			if pl == nil || len(f) != 3 {
				t.Fatalf("setup: unknown line %q", line)
			}
			n := atoi(f[2])
			switch f[1] {
			case "economy":
				pl.Economy = n
			case "discontent":
				pl.Discontent = n
			case "power":
				pl.Power = n
			case "vp":
				pl.VP = n
			case "ai":
				pl.AI = n
			case "sanctions":
				pl.Sanctions, pl.SanctionRs = true, n
			default:
				t.Fatalf("setup: unknown field in %q", line)
			}
		}
	}
	return s
}

// dumpFull is a compact, stable text of a full position.
func (s *FullState) dumpFull() string {
	var b strings.Builder
	switch s.Stage {
	case "over":
		fmt.Fprintf(&b, "over: %s (winners %s)\n", s.Result.Text, strings.Join(s.Result.Winners, " "))
	case "prelude":
		fmt.Fprintf(&b, "prelude, %d left\n", len(s.Preludes))
	default:
		fmt.Fprintf(&b, "turn %d active %s triggered=%v\n", s.TurnN, s.Players[s.Active], s.Triggered)
	}
	var opts []string
	if s.Skynet {
		opts = append(opts, fmt.Sprintf("skynet (deck %d)", len(s.Deck)))
	}
	if s.Collab {
		opts = append(opts, "research-collaborations")
	}
	if s.Territory {
		opts = append(opts, "territorial-agreements")
	}
	if s.Strict {
		opts = append(opts, "victory more-than-30")
	}
	if len(opts) > 0 {
		fmt.Fprintf(&b, "options: %s\n", strings.Join(opts, ", "))
	}
	for _, p := range s.Players {
		pl := s.P[p]
		fmt.Fprintf(&b, "%s: vp %d power %d economy %d discontent %d ai %d", p, pl.VP, pl.Power, pl.Economy, pl.Discontent, pl.AI)
		if pl.Sanctions {
			fmt.Fprintf(&b, " sanctions %d", pl.SanctionRs)
		}
		for _, t := range techs {
			if lv, pr := pl.Tech[t.Name], pl.Progress[t.Name]; lv+pr > 0 {
				fmt.Fprintf(&b, " %s=%d+%d", t.Name, lv, pr)
			}
		}
		b.WriteString("\n")
	}
	for _, pl := range board.Places {
		if f := s.fleetsOf(pl.Name); f != "-" {
			fmt.Fprintf(&b, "%s fleets %s\n", pl.Name, f)
		}
	}
	for _, w := range board.Worlds() {
		if r := s.regionsOf(w.Name); strings.Trim(r, "[.]") != "" {
			fmt.Fprintf(&b, "%s %s\n", w.Name, r)
		}
	}
	if s.Rogue > 0 {
		fmt.Fprintf(&b, "rogue %d\n", s.Rogue)
	}
	return b.String()
}
