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

// playClassicBots plays one game of the ruleset's bots in memory and
// returns the final state.
func playClassicBots(t *testing.T, seed, players, maxSteps int, opts map[string]string) *State {
	t.Helper()
	rs := Classic()
	o, err := engine.ResolveOptions(rs.Info(), opts)
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"ann", "bob", "cat", "dan", "eve", "fay"}[:players]
	st, err := rs.NewState(engine.Setup{GameID: "g", Players: names, Options: o}, dice.New(fmt.Sprint("classic-bots-", seed)))
	if err != nil {
		t.Fatal(err)
	}
	s := st.(*State)
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
			if strings.Contains(text, "AGREE DRAW") || strings.Contains(text, "CONCEDE") {
				t.Errorf("seed %d step %d: the bot proposes a draw or concedes:\n%s", seed, step, text)
			}
			answers = append(answers, engine.Answer{Prompt: p, Orders: orders})
		}
		if _, err := s.Resolve(answers, dice.New(fmt.Sprint("classic-bots-", seed, "-", step))); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

// TestClassicBotsAgreeOnlyWhenBehind holds the bots to issue 18's rule for
// every bot's agreement: a game of bots that ends by agreement ends after
// the first quarter of the game, and every player who agreed that another
// had won was behind that player on the turn limit's score (developments,
// then fleets) when it ended. Bot games must still end, by agreement or
// by conquest, and later than the first quarter.
func TestClassicBotsAgreeOnlyWhenBehind(t *testing.T) {
	if testing.Short() {
		t.Skip("whole games: run without -short")
	}
	n := 60
	ended, agreed := 0, 0
	rounds := 0
	for seed := 1; seed <= n; seed++ {
		s := playClassicBots(t, seed, 2+seed%3, 600, nil)
		if !s.Result.Over {
			continue
		}
		ended++
		rounds += s.Round
		if !strings.Contains(s.Result.Text, "agrees") {
			continue
		}
		agreed++
		w := s.Result.Winners[0]
		wd, wf := s.classicScore(w)
		if s.Round <= s.classicQuarter() {
			t.Errorf("seed %d: the game ended by agreement in round %d, within the first quarter (%d rounds)", seed, s.Round, s.classicQuarter())
		}
		for _, p := range s.Players {
			if p == w || !s.alive(p) {
				continue
			}
			if d, f := s.classicScore(p); d > wd || d == wd && f >= wf {
				t.Errorf("seed %d: %s agreed that %s won while level or ahead (%d developments, %d fleets against %d, %d)", seed, p, w, d, f, wd, wf)
			}
		}
	}
	t.Logf("%d of %d bot games ended (%d by agreement), mean length %.1f rounds", ended, n, agreed, float64(rounds)/float64(max(ended, 1)))
	if ended < n*9/10 {
		t.Errorf("only %d of %d bot games ended within 600 steps", ended, n)
	}
}

// TestClassicBotGamesVerify plays games of the ruleset's own bots through
// the engine and verifies them by replay.
func TestClassicBotGamesVerify(t *testing.T) {
	if testing.Short() {
		t.Skip("whole games: run without -short")
	}
	n := 6
	for seed := 1; seed <= n; seed++ {
		players := []string{"ann", "bob", "cat", "dan"}[:2+seed%3]
		opts := map[string]string{}
		if seed%2 == 0 {
			opts["interrupts"] = "on"
		}
		res := enginetest.PlayBots(t, Classic(), enginetest.Options{Players: players, Seed: uint64(seed), MaxSteps: 400, Options: opts})
		if !res.Game.Outcome.Over {
			t.Errorf("seed %d: a game of %d bots is not over after 400 steps", seed, len(players))
		}
	}
}
