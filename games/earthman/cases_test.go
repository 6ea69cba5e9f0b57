package earthman

import (
	"flag"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"testing"

	"orrery/engine"
	"orrery/engine/dice"
	"orrery/engine/enginetest"
)

var update = flag.Bool("update", false, "rewrite the want sections of rule cases and golden files")

// TestRuleCases runs testdata/cases/*.txtar with the shared runner
// (enginetest.Cases: dice, turn, anytime, choice, timeout, want, events).
// A case starts from a position ("setup", see buildState) or from the
// rules' setup ("new", then "place <player>" setup placements); "want"
// is dump's position.
func TestRuleCases(t *testing.T) {
	h := enginetest.Cases{Ruleset: Classic(), Update: *update,
		Dump: func(s engine.State) string { return s.(*State).dump() },
		Sections: map[string]func(c *enginetest.Case, args []string, text string){
			"setup": func(c *enginetest.Case, _ []string, text string) { c.State = buildState(c.T, text) },
			// A new game from the setup section of the rules, with the
			// case's dice for its random first placer.
			"new": func(c *enginetest.Case, _ []string, text string) { c.State = newCase(c.T, text, c.Dice()) },
			// The next setup placement, which must be this player's.
			"place": func(c *enginetest.Case, args []string, text string) {
				c.SubmitKind(args[0], text, false, engine.KindStep)
			},
		}}
	h.Run(t, "testdata/cases/*.txtar")
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
