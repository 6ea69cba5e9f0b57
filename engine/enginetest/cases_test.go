package enginetest_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"orrery/engine"
	"orrery/engine/enginetest"
	"orrery/engine/enginetest/toy"
)

// TestCases runs the toy's rule cases through the shared runner: setup is
// the game's own section, the rest (dice, orders and resolve, anytime,
// turn, want, events with @player and !, errors) the runner's.
func TestCases(t *testing.T) {
	h := enginetest.Cases{Ruleset: toy.Ruleset(),
		Dump: func(st engine.State) string {
			s := st.(*toy.State)
			var b strings.Builder
			if s.Winner != "" {
				fmt.Fprintf(&b, "over: %s\n", s.Winner)
			}
			for _, p := range s.Players {
				fmt.Fprintf(&b, "%s %d\n", p, s.Pos[p])
			}
			return b.String()
		},
		Sections: map[string]func(c *enginetest.Case, args []string, text string){
			"setup": func(c *enginetest.Case, _ []string, text string) {
				s := &toy.State{Pos: map[string]int{}, Motto: map[string]string{}, Finish: 30, TurnN: 1}
				for _, line := range strings.Split(text, "\n") {
					f := strings.Fields(line)
					switch {
					case len(f) == 0:
					case f[0] == "players":
						s.Players = f[1:]
					case f[0] == "pos" && len(f) == 3:
						s.Pos[f[1]], _ = strconv.Atoi(f[2])
					default:
						c.T.Fatalf("setup: %q", line)
					}
				}
				c.State = s
			},
		}}
	h.Run(t, "testdata/cases/*.txtar")
}

// TestScriptDice: "k*v" is k dice of v.
func TestScriptDice(t *testing.T) {
	got := enginetest.ScriptDice(t, "3 2*1 6")
	if fmt.Sprint(got) != "[3 1 1 6]" {
		t.Errorf("got %v", got)
	}
}
