package orbital

import (
	"testing"

	"orrery/engine/enginetest"
)

func TestConformance(t *testing.T) { enginetest.Conformance(t, Ruleset(), 30) }

func TestBotGames(t *testing.T) {
	n := 100
	if testing.Short() {
		n = 10
	}
	for seed := 1; seed <= n; seed++ {
		opts := map[string]string{"turn-limit": "12"}
		switch seed % 4 {
		case 1:
			opts["scenario"] = "fast"
			opts["moons"] = "random"
			opts["moon-count"] = "4"
		case 2:
			opts["scenario"] = "refinery"
			opts["refinery-goal"] = "10"
			opts["station-ring"] = "2"
			opts["hit-location"] = "sheet"
		case 3:
			opts["moon-count"] = "3"
			opts["hidden-cargo"] = "on"
			opts["opening"] = "off"
		}
		// Odd seeds: the random exerciser, which wanders over the rules;
		// even seeds: the ruleset's own bot, which plays to win.
		rs := Ruleset()
		if seed%2 == 1 {
			rs = exercised{}
		}
		enginetest.PlayBots(t, rs, enginetest.Options{Players: []string{"ann", "bob"}, Seed: uint64(seed),
			MaxSteps: 40, Options: opts})
	}
}
