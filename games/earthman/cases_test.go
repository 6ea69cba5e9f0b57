package earthman

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"orrery/engine"
	"orrery/engine/dice"
)

var update = flag.Bool("update", false, "rewrite the want sections of rule cases and golden files")

// TestRuleCases runs testdata/cases/*.txtar. Each case is a position
// ("setup"), the dice in the order the rules roll them ("dice"), then any
// number of "turn <player>", "anytime <player>" and "choice <player>"
// submissions resolved in order (or "new", a game from the rules' setup,
// then "place <player>" setup placements) ("timeout <player>": an interrupt window's
// deadline passed with no answer), and the position after ("want", from
// dump; a case may check the position between submissions too). Lines of
// "events" must each appear in some event. Every scripted die must be used.
func TestRuleCases(t *testing.T) {
	files, err := filepath.Glob("testdata/cases/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no rule cases: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var s *State
			var script dice.Scripted
			var events []engine.Event
			var d *dice.Dice
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
					s = buildState(t, string(f.Data))
				case "new":
					// A new game from the setup section of the rules, with
					// the case's dice for its random first placer.
					if d == nil {
						d = dice.FromSource(script)
					}
					s = newCase(t, string(f.Data), d)
				case "place":
					// The next setup placement, which must be this player's.
					ps := s.Prompts()
					if len(ps) == 0 || ps[0].Kind != engine.KindStep {
						t.Fatalf("%s: no placement is open", f.Name)
					}
					if ps[0].Player != name[1] {
						t.Fatalf("%s: the next placement is %s's", f.Name, ps[0].Player)
					}
					o, errs := s.View(name[1]).Parse(ps[0], string(f.Data))
					if len(errs) > 0 {
						t.Fatalf("%s: orders rejected: %v", f.Name, errs)
					}
					ev, err := s.Resolve([]engine.Answer{{Prompt: ps[0], Orders: o}}, d)
					if err != nil {
						t.Fatalf("%s: %v", f.Name, err)
					}
					events = append(events, ev...)
				case "dice":
					// Read before the loop: all the case's dice, in order.
				case "turn", "anytime", "choice", "timeout":
					if d == nil {
						d = dice.FromSource(script)
					}
					kind := map[string]engine.PromptKind{"turn": engine.KindTurn, "anytime": engine.KindAnytime,
						"choice": engine.KindChoice, "timeout": engine.KindChoice}[name[0]]
					p := engine.Prompt{ID: name[0] + ":" + name[1], Player: name[1], Kind: kind}
					if kind == engine.KindChoice {
						// An interrupt window must be open for this player.
						found := false
						for _, q := range s.Prompts() {
							if q.Kind == engine.KindChoice && q.Player == name[1] {
								p, found = q, true
							}
						}
						if !found {
							t.Fatalf("%s: no interrupt window is open for %s", f.Name, name[1])
						}
					}
					o, errs := s.View(name[1]).Parse(p, string(f.Data))
					if len(errs) > 0 {
						t.Fatalf("%s: orders rejected: %v", f.Name, errs)
					}
					// Each step starts from a stored state, as in a real game.
					b, err := s.Marshal()
					if err != nil {
						t.Fatal(err)
					}
					st, err := Classic().LoadState(b)
					if err != nil {
						t.Fatal(err)
					}
					s = st.(*State)
					ev, err := s.Resolve([]engine.Answer{{Prompt: p, Orders: o, Default: name[0] == "timeout"}}, d)
					if err != nil {
						t.Fatalf("%s: %v", f.Name, err)
					}
					events = append(events, ev...)
				case "want":
					wantAt = i
					got := s.dump()
					if *update {
						ar.Files[i].Data = []byte(got)
						continue
					}
					if want := string(f.Data); strings.TrimSpace(got) != strings.TrimSpace(want) {
						t.Errorf("position after:\n%s\nwant:\n%s", got, want)
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
			if d == nil {
				d = dice.FromSource(script)
			}
			if err := d.Err(); err != nil {
				t.Errorf("dice: %v\nevents:\n%s", err, eventText(events))
			}
			if n := len(d.Rolls()); n != len(script) {
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

func eventText(ev []engine.Event) string {
	var b strings.Builder
	for _, e := range ev {
		b.WriteString("  " + e.Text + "\n")
	}
	return b.String()
}

// newCase starts a game as Classic().NewState does: "players a b c" and
// "option <name> <value>" lines (turn-limit defaults to 0).
func newCase(t *testing.T, text string, d *dice.Dice) *State {
	t.Helper()
	setup := engine.Setup{GameID: "case", Options: map[string]string{"turn-limit": "0"}}
	for _, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) == 0:
		case f[0] == "players":
			setup.Players = f[1:]
		case f[0] == "option" && len(f) == 3:
			setup.Options[f[1]] = f[2]
		default:
			t.Fatalf("new: unknown line %q", line)
		}
	}
	st, err := Classic().NewState(setup, d)
	if err != nil {
		t.Fatalf("new: %v", err)
	}
	return st.(*State)
}

// buildState reads a position: "players a b c", "active a", "round n",
// "fleet <place> <faction> <n>", "dev <world> <faction> <n>",
// "oncoup <player> <world|ANY> <action>", "agree <player> <winner>",
// "tasked <player> <world> <fleets> <devs>", "limit <rounds>",
// "course <player> <at> <to> <n>", "interrupts" (the option on), "trigger <player> <ON ATTACKED|LOSS …>".
func buildState(t *testing.T, text string) *State {
	t.Helper()
	s := &State{Places: map[string]*Units{}, Stage: stageTurns, TurnN: 1, Round: 1}
	for _, p := range board.Places {
		s.Places[p.Name] = &Units{}
	}
	atoi := func(x string) int {
		n, err := strconv.Atoi(x)
		if err != nil {
			t.Fatalf("setup: %v", err)
		}
		return n
	}
	for _, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		switch f[0] {
		case "players":
			s.Players = f[1:]
		case "active":
			for i, p := range s.Players {
				if p == f[1] {
					s.Active, s.StartSeat = i, i
				}
			}
		case "start":
			for i, p := range s.Players {
				if p == f[1] {
					s.StartSeat = i
				}
			}
		case "round":
			s.Round = atoi(f[1])
		case "limit":
			s.TurnLimit = atoi(f[1])
		case "fleet":
			s.addFleet(f[2], f[1], atoi(f[3]))
		case "dev":
			s.addDev(f[2], f[1], atoi(f[3]))
		case "oncoup":
			if s.OnCoup == nil {
				s.OnCoup = map[string]map[string]string{}
			}
			if s.OnCoup[f[1]] == nil {
				s.OnCoup[f[1]] = map[string]string{}
			}
			s.OnCoup[f[1]][f[2]] = f[3]
		case "agree":
			if s.Agree == nil {
				s.Agree = map[string]string{}
			}
			s.Agree[f[1]] = f[2]
		case "tasked":
			s.task(f[1], f[2], atoi(f[3]), atoi(f[4]))
		case "trigger":
			o, e := (namer{players: s.Players}).parseLine(strings.Join(f[2:], " "))
			if e != nil || o.Trig.Event == "" {
				t.Fatalf("setup: %q is not a trigger: %v", line, e)
			}
			s.setTrigger(f[1], o.Trig)
		case "interrupts":
			s.Interrupts = true
		case "course":
			if s.Courses == nil {
				s.Courses = map[string][]Course{}
			}
			s.Courses[f[1]] = append(s.Courses[f[1]], Course{At: f[2], To: f[3], N: atoi(f[4])})
		default:
			t.Fatalf("setup: unknown line %q", line)
		}
	}
	return s
}

// dump is a compact, stable text of a position for rule cases.
func (s *State) dump() string {
	var b strings.Builder
	switch s.Stage {
	case stageOver:
		fmt.Fprintf(&b, "over: %s (winners %s)\n", s.Result.Text, strings.Join(s.Result.Winners, " "))
	case stageTurns:
		fmt.Fprintf(&b, "turn %d round %d active %s\n", s.TurnN, s.Round, s.Players[s.Active])
	case stageSetup:
		fmt.Fprintf(&b, "setup: placement %d of %d, %s to place\n", s.Placed+1, len(s.Placers), s.Players[s.Placers[s.Placed]])
	}
	for _, p := range board.Places {
		u := s.Places[p.Name]
		if len(u.Fleets)+len(u.Devs) == 0 {
			continue
		}
		var parts []string
		for _, f := range s.factions() {
			if n := u.Devs[f]; n > 0 {
				parts = append(parts, fmt.Sprintf("dev %s=%d", f, n))
			}
		}
		for _, f := range s.factions() {
			if n := u.Fleets[f]; n > 0 {
				parts = append(parts, fmt.Sprintf("fleet %s=%d", f, n))
			}
		}
		fmt.Fprintf(&b, "%s: %s\n", p.Name, strings.Join(parts, " "))
	}
	var keys []string
	for p, w := range s.Agree {
		keys = append(keys, p+"→"+w)
	}
	sort.Strings(keys)
	if len(keys) > 0 {
		fmt.Fprintf(&b, "agree: %s\n", strings.Join(keys, " "))
	}
	if w := s.Window; w != nil {
		fmt.Fprintf(&b, "window: %s before %s (A=%d, D=%d)\n", w.Target, w.Orders[w.Next], w.A, w.D)
	}
	for _, p := range s.Players {
		for _, x := range s.Triggers[p] {
			fmt.Fprintf(&b, "trigger %s: %s\n", p, x)
		}
		for _, c := range s.Courses[p] {
			fmt.Fprintf(&b, "course %s: %d on %s bound for %s\n", p, c.N, c.At, c.To)
		}
	}
	return b.String()
}
