package earthman

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"orrery/engine"
	"orrery/engine/dice"
)

// TestFullRuleCases runs testdata/full/*.txtar like TestRuleCases, for the
// full rules. A "begin" section runs 2.1 and 2.2 for the active player, as
// when a turn begins; a "new" section (players, options) starts a game by
// section 1 instead of a "setup" position.
func TestFullRuleCases(t *testing.T) {
	files, err := filepath.Glob("testdata/full/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no rule cases: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var s *FullState
			var script dice.Scripted
			var d *dice.Dice
			var events []engine.Event
			dz := func() *dice.Dice {
				if d == nil {
					d = dice.FromSource(script)
				}
				return d
			}
			for _, f := range ar.Files {
				if f.Name == "dice" {
					for _, w := range strings.Fields(string(f.Data)) {
						v, err := strconv.Atoi(w)
						if err != nil {
							t.Fatalf("dice: %v", err)
						}
						script = append(script, v)
					}
				}
			}
			wantAt := -1
			for i, f := range ar.Files {
				name := strings.Fields(f.Name)
				switch name[0] {
				case "setup":
					s = buildFull(t, string(f.Data))
				case "new":
					// A new game by section 1, with the case's dice for the
					// first player (and the Skynet shuffle).
					setup := engine.Setup{GameID: "case", Options: map[string]string{}}
					for _, line := range strings.Split(string(f.Data), "\n") {
						w := strings.Fields(line)
						switch {
						case len(w) == 0:
						case w[0] == "players":
							setup.Players = w[1:]
						case w[0] == "option" && len(w) == 3:
							setup.Options[w[1]] = w[2]
						default:
							t.Fatalf("new: unknown line %q", line)
						}
					}
					st, err := Full().NewState(setup, dz())
					if err != nil {
						t.Fatalf("new: %v", err)
					}
					s = st.(*FullState)
				case "dice":
					// Read before the loop: all the case's dice, in order.
				case "begin":
					r := &frun{s: s, d: dz()}
					r.beginTurn()
					events = append(events, r.events...)
				case "turn", "anytime", "prelude":
					kind := map[string]engine.PromptKind{"turn": engine.KindTurn, "anytime": engine.KindAnytime, "prelude": engine.KindStep}[name[0]]
					p := engine.Prompt{ID: name[0] + ":" + name[1], Player: name[1], Kind: kind}
					o, errs := s.View(name[1]).Parse(p, string(f.Data))
					if len(errs) > 0 {
						t.Fatalf("%s: orders rejected: %v", f.Name, errs)
					}
					// Each step starts from a stored state, as in a real game.
					b, err := s.Marshal()
					if err != nil {
						t.Fatal(err)
					}
					st, err := Full().LoadState(b)
					if err != nil {
						t.Fatal(err)
					}
					s = st.(*FullState)
					ev, err := s.Resolve([]engine.Answer{{Prompt: p, Orders: o}}, dz())
					if err != nil {
						t.Fatalf("%s: %v", f.Name, err)
					}
					events = append(events, ev...)
				case "want":
					wantAt = i
					got := s.dumpFull()
					if *update {
						ar.Files[i].Data = []byte(got)
						continue
					}
					if strings.TrimSpace(got) != strings.TrimSpace(string(f.Data)) {
						t.Errorf("position after:\n%s\nwant:\n%s\nevents:\n%s", got, f.Data, eventText(events))
					}
				case "events":
					for _, want := range strings.Split(strings.TrimSpace(string(f.Data)), "\n") {
						found := false
						for _, e := range events {
							found = found || strings.Contains(e.Text, want)
						}
						if !found {
							t.Errorf("no event contains %q; events:\n%s", want, eventText(events))
						}
					}
				default:
					t.Fatalf("unknown section %q", f.Name)
				}
			}
			if wantAt < 0 {
				t.Fatalf("case has no want section")
			}
			if err := dz().Err(); err != nil {
				t.Errorf("dice: %v\nevents:\n%s", err, eventText(events))
			}
			if n := len(dz().Rolls()); n != len(script) {
				t.Errorf("the rules rolled %d dice, the case scripted %d\nevents:\n%s", n, len(script), eventText(events))
			}
			if *update {
				if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if testing.Verbose() {
				t.Logf("events:\n%s", eventText(events))
			}
		})
	}
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
