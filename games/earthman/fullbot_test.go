package earthman

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"orrery/engine"
	"orrery/engine/dice"
	"orrery/engine/enginetest"
)

// playFullBots plays one game of the ruleset's bots in memory and returns
// the final state.
func playFullBots(t *testing.T, seed, players, maxSteps int, opts map[string]string) *FullState {
	t.Helper()
	rs := Full()
	o, err := engine.ResolveOptions(rs.Info(), opts)
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"ann", "bob", "cat", "dan", "eve", "fay"}[:players]
	st, err := rs.NewState(engine.Setup{GameID: "g", Players: names, Options: o}, dice.New(fmt.Sprint("full-bots-", seed)))
	if err != nil {
		t.Fatal(err)
	}
	s := st.(*FullState)
	for step := 0; step < maxSteps && !s.Result.Over; step++ {
		var answers []engine.Answer
		for _, p := range s.Prompts() {
			if !p.Kind.Blocks() {
				continue
			}
			v := s.View(p.Player)
			text := rs.Bot(v, p, rand.New(rand.NewPCG(uint64(seed), uint64(step))))
			orders, errs := v.Parse(p, text)
			if len(errs) > 0 {
				t.Fatalf("seed %d step %d: the bot's orders do not parse: %v\n%s", seed, step, errs, text)
			}
			if strings.Contains(text, "PEACE YES") {
				t.Errorf("seed %d step %d: the bot agrees to peace:\n%s", seed, step, text)
			}
			if strings.Contains(text, "CONCEDE TO") && s.fullQuarter() {
				t.Errorf("seed %d step %d: the bot concedes in the first quarter:\n%s", seed, step, text)
			}
			answers = append(answers, engine.Answer{Prompt: p, Orders: orders})
		}
		if _, err := s.Resolve(answers, dice.New(fmt.Sprint("full-bots-", seed, "-", step))); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

// TestFullBotsConcedeOnlyWhenBehind holds the bots to issue 18's rule for
// every bot's agreement: no bot says PEACE YES or concedes in the first
// quarter of the game, and a game that ends by concession ends with every
// conceding player behind the winner on Victory Points. Bot games end.
func TestFullBotsConcedeOnlyWhenBehind(t *testing.T) {
	if testing.Short() {
		t.Skip("whole games: run without -short")
	}
	n := 40
	ended, conceded, turns := 0, 0, 0
	for seed := 1; seed <= n; seed++ {
		opts := map[string]string{}
		if seed%3 == 0 {
			opts["prelude"] = "on"
		}
		s := playFullBots(t, seed, 2+seed%3, 600, opts)
		if !s.Result.Over {
			continue
		}
		ended++
		turns += s.TurnN
		if !strings.Contains(s.Result.Text, "concedes") {
			continue
		}
		conceded++
		w := s.Result.Winners[0]
		for _, p := range s.Players {
			if p != w && s.unitsOf(p) > 0 && s.P[p].VP >= s.P[w].VP {
				t.Errorf("seed %d: %s conceded to %s while level or ahead (%d VP against %d)", seed, p, w, s.P[p].VP, s.P[w].VP)
			}
		}
	}
	t.Logf("%d of %d bot games ended (%d by concession), mean length %.1f turns", ended, n, conceded, float64(turns)/float64(max(ended, 1)))
	if ended < n*9/10 {
		t.Errorf("only %d of %d bot games ended within 600 steps", ended, n)
	}
}

// TestFullBotGamesVerify plays games of the ruleset's own bots through the
// engine and verifies them by replay.
func TestFullBotGamesVerify(t *testing.T) {
	if testing.Short() {
		t.Skip("whole games: run without -short")
	}
	n := 4
	for seed := 1; seed <= n; seed++ {
		players := []string{"ann", "bob", "cat", "dan"}[:2+seed%3]
		opts := map[string]string{}
		if seed%2 == 0 {
			opts["prelude"] = "on"
		}
		res := enginetest.PlayBots(t, Full(), enginetest.Options{Players: players, Seed: uint64(seed), MaxSteps: 400, Options: opts})
		if !res.Game.Outcome.Over {
			t.Errorf("seed %d: a game of %d bots is not over after 400 steps", seed, len(players))
		}
	}
}
