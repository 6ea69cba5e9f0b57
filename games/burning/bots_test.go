package burning

import (
	"strings"
	"testing"

	"orrery/engine/enginetest"
)

func TestConformance(t *testing.T) { enginetest.Conformance(t, Ruleset(), 60) }

// TestBotGames plays seeded bot games through the real store and verifies
// each by replay; player count, factions and languages vary with the seed.
func TestBotGames(t *testing.T) {
	n := 100
	if testing.Short() {
		n = 10
	}
	for seed := 0; seed < n; seed++ {
		players := []string{"ann", "bob", "cy", "dee", "eve", "fay"}[:2+seed%5]
		opts := map[string]string{"lang": []string{langEN, langRU}[seed%2], "huge": []string{"a", "b"}[seed/2%2]}
		if seed%3 == 0 {
			opts["banks"] = "public"
		}
		if seed%4 == 0 {
			opts["turns"] = "6" // these games end, by the turn limit
		}
		if seed%5 == 1 {
			opts["home_placement"] = "player" // the bots place some tiles and cannons themselves
		}
		if seed%5 == 3 || seed%10 == 1 {
			opts["asteroid_placement"] = "player" // and pick some asteroids' cells
		}
		res := enginetest.PlayBots(t, Ruleset(), enginetest.Options{Players: players, Seed: uint64(seed), MaxSteps: 80, Options: opts})
		if res.Game == nil {
			t.Fatalf("seed %d: no game", seed)
		}
		if seed%5 == 1 && seed < 40 {
			ev := strings.Join(res.Events(t), "\n")
			if !strings.Contains(ev, " places ") && !strings.Contains(ev, " размещает ") {
				t.Errorf("seed %d: no bot placed its home planet itself:\n%s", seed, ev[:min(len(ev), 2000)])
			}
		}
		if seed%5 == 3 && seed < 40 {
			ev := strings.Join(res.Events(t), "\n")
			if !strings.Contains(ev, " places asteroid ") && !strings.Contains(ev, " помещает астероид ") {
				t.Errorf("seed %d: no bot chose an asteroid's cell:\n%s", seed, ev[:min(len(ev), 2000)])
			}
		}
		if seed%4 == 0 && len(players)*6 < 40 && seed%5 != 1 && seed%5 != 3 && !res.Game.Outcome.Over {
			t.Errorf("seed %d: %d players, 6 turns, 40 steps, and the game is not over", seed, len(players))
		}
	}
}
