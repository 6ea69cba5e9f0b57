package burning

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestBotAlliesOnlyWhenBehind holds the bot to issue 18's rule for every
// bot's agreements: an alliance shares the victory, so the bot declares
// one only after the first quarter of the game, only while another
// survivor has more planets, and only when its declarations complete the
// shared victory (every other survivor has declared it and each other).
func TestBotAlliesOnlyWhenBehind(t *testing.T) {
	for _, c := range []struct {
		name        string
		round       int
		extraForAnn bool // ann holds a second planet: bob is behind
		cyDeclares  bool // cy has declared bob too
		want        bool
	}{
		{"behind, after the first quarter, completing the victory", 20, true, true, true},
		{"level on planets", 20, false, true, false},
		{"in the first quarter", 5, true, true, false},
		{"a declaration that would stand and wait", 20, true, false, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := newGame(t, []string{"ann", "bob", "cy"}, nil, "diplomacy")
			s.Round = c.round
			// Every planet goes to nobody, then one each; ann a second one.
			for _, pl := range s.Planets {
				pl.Owner = ""
			}
			owners := []string{"ann", "bob", "cy"}
			for i, p := range owners {
				s.Planets[i].Owner = p
			}
			if c.extraForAnn {
				s.Planets[3].Owner = "ann"
			}
			s.Allies = map[string][]string{"ann": {"bob", "cy"}, "cy": {"ann"}}
			if c.cyDeclares {
				s.Allies["cy"] = []string{"ann", "bob"}
			}
			for s.active() != "bob" {
				s.Active = (s.Active + 1) % len(s.Seats)
			}
			p := s.Prompts()[0]
			if p.Player != "bob" {
				t.Fatalf("the prompt is %s's", p.Player)
			}
			text := Ruleset().Bot(s.View("bob"), p, rand.New(rand.NewPCG(1, 2)))
			if got := strings.Contains(text, "ALLY"); got != c.want {
				t.Errorf("bob's orders declare an alliance: %v, want %v:\n%s", got, c.want, text)
			}
		})
	}
}
