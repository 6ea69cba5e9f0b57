package burning

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"orrery/engine"
	"orrery/engine/dice"
)

// botStats is what a quick in-memory bot game reports: how it ended, and
// how many of the bots' lines failed when their turn ran.
type botStats struct {
	won, allied, atLimit bool
	lines, fails         int
	acts, actFails       int // SHIP lines, and those of them that failed
	rounds               int
	planFails            []string // failures the dice do not explain
	fleet30              float64  // warships per player when round 30 begins
}

// playBotGame plays one bot game in memory (no store, no replay: the
// store-backed games of TestBotGames verify), up to the turn limit.
func playBotGame(t testing.TB, seed, players, turns int) botStats {
	t.Helper()
	names := []string{"ann", "bob", "cy", "dee", "eve", "fay"}[:players]
	o, err := engine.ResolveOptions(Ruleset().Info(), map[string]string{"turns": fmt.Sprint(turns)})
	if err != nil {
		t.Fatal(err)
	}
	st, err := Ruleset().NewState(engine.Setup{GameID: "g", Players: names, Options: o}, dice.New(fmt.Sprint("strength", seed)))
	if err != nil {
		t.Fatal(err)
	}
	s := st.(*State)
	r := rand.New(rand.NewPCG(uint64(seed), 7))
	var bs botStats
	for step := 0; step < turns*players+10 && !s.Done; step++ {
		if s.Round == 30 && s.Active == 0 && bs.fleet30 == 0 {
			for _, sh := range s.Ships {
				if sh.Class != Cargo {
					bs.fleet30 += 1 / float64(players)
				}
			}
		}
		p := s.Prompts()[0]
		text := Ruleset().Bot(s.View(p.Player), p, r)
		orders, errs := s.View(p.Player).Parse(p, text)
		if len(errs) > 0 {
			t.Fatalf("seed %d: the bot's orders do not parse: %v\n%s", seed, errs, text)
		}
		bs.lines += len(orders.Lines())
		for _, l := range orders.Lines() {
			if strings.HasPrefix(l, "SHIP ") {
				bs.acts++
			}
		}
		events, err := s.Resolve([]engine.Answer{{Prompt: p, Orders: orders}}, dice.New(fmt.Sprint("strength", seed, step)))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range events {
			if strings.Contains(e.Text, "was not carried out") {
				bs.fails++
				if strings.Contains(e.Text, `"SHIP `) {
					bs.actFails++
				}
				if !strings.Contains(e.Text, "nothing to attack at") {
					bs.planFails = append(bs.planFails, e.Text)
				}
			}
		}
	}
	bs.rounds = s.Round
	bs.won = s.Done && !strings.Contains(s.EndText, "turn limit")
	bs.atLimit = s.Done && !bs.won
	bs.allied = bs.won && len(s.Winners) > 1
	return bs
}

// TestBotStrength plays 100 seeded games of 2 to 4 bots with a 60-turn
// limit and checks that the bots play towards victory and plan their turns
// as they will run: games end with a winner by conquest before the limit
// (no alliance: under issue 18's rule for bots' agreements a bot allies
// only when behind, and only to complete a shared victory, so two bots
// never do), their fleets grow, and few ship actions fail when the turn
// runs (only the dice should make one fail: a target already destroyed by
// an earlier attack). The bots before this rule won 46 of these games, 27
// of them by alliances between bots, 19 by conquest, with 4.1 warships a
// player at round 30; these win 19 by conquest with 4.7.
func TestBotStrength(t *testing.T) {
	if testing.Short() {
		t.Skip("100 games: runs without -short")
	}
	const games, turns = 100, 60
	won, allied, acts, actFails := 0, 0, 0, 0
	var planFails []string
	byPlayers := map[int]int{}
	fleet, counted := 0.0, 0
	for seed := 0; seed < games; seed++ {
		bs := playBotGame(t, seed, 2+seed%3, turns)
		if bs.won {
			won++
			byPlayers[2+seed%3]++
		}
		if bs.allied {
			allied++
		}
		if bs.fleet30 > 0 {
			fleet += bs.fleet30
			counted++
		}
		acts += bs.acts
		actFails += bs.actFails
		planFails = append(planFails, bs.planFails...)
	}
	failed := 100 * float64(actFails) / float64(max(acts, 1))
	fleet /= float64(max(counted, 1))
	t.Logf("%d of %d games won before the %d-turn limit (%d by an alliance; by player count %v); %.1f warships a player at round 30; %d of %d ship actions failed (%.1f%%)",
		won, games, turns, allied, byPlayers, fleet, actFails, acts, failed)
	if won-allied < 15 {
		t.Errorf("only %d games won by conquest: the bots do not play towards victory", won-allied)
	}
	if allied > 0 {
		t.Errorf("%d games ended in an alliance of bots: a bot allied while level or ahead", allied)
	}
	if fleet < 4.4 {
		t.Errorf("%.1f warships a player at round 30: the bots' economy does not build a fleet", fleet)
	}
	if len(planFails) > 0 {
		// Only the dice may spoil a bot's line: the target of an attack
		// destroyed by an earlier one. Anything else is a planning error.
		t.Errorf("%d bot lines failed for a reason the dice do not explain, e.g. %q", len(planFails), planFails[0])
	}
	if failed > 5 {
		t.Errorf("%.1f%% of the bots' ship actions failed: they do not plan where their ships will be", failed)
	}
}

func TestKillChance(t *testing.T) {
	for _, c := range []struct {
		die, def, shield int
		want             float64
	}{
		{8, 8, 4, 22.0 / 64},  // a large ship against a cannon
		{4, 8, 4, 0},          // a small one can never beat shield 4
		{4, 4, 0, 6.0 / 16},   // small against small: ties fail
		{20, 0, 18, 2.0 / 20}, // a huge ship against an asteroid
		{0, 6, 0, 0},
	} {
		if got := killChance(c.die, c.def, c.shield); got != c.want {
			t.Errorf("killChance(%d, %d, %d) = %v, want %v", c.die, c.def, c.shield, got, c.want)
		}
	}
}
