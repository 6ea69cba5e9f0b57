package games

import (
	"fmt"
	"testing"

	"orrery/engine"
	"orrery/engine/dice"
	"orrery/engine/enginetest"
)

// TestEveryRulesetConforms runs the engine's conformance suite over every
// listed ruleset, so a game added to All is checked without a line more.
func TestEveryRulesetConforms(t *testing.T) {
	seen := map[string]bool{}
	for _, rs := range All() {
		name := rs.Info().Name
		if seen[name] {
			t.Fatalf("two rulesets are named %q", name)
		}
		seen[name] = true
		t.Run(name, func(t *testing.T) { enginetest.Conformance(t, rs, 60) })
	}
}

// TestEveryGameDrawsAPublicBoard: observers subscribe to every game, so every
// listed ruleset draws a public board (engine.PublicViewer); without one they
// would get the events alone. What it hides is each game's own test.
func TestEveryGameDrawsAPublicBoard(t *testing.T) {
	for _, rs := range All() {
		info := rs.Info()
		opts, err := engine.ResolveOptions(info, nil)
		if err != nil {
			t.Fatal(err)
		}
		var players []string
		for i := 0; i < info.MinPlayers; i++ {
			players = append(players, fmt.Sprintf("p%d", i+1))
		}
		st, err := rs.NewState(engine.Setup{GameID: "pub", Players: players, Options: opts}, dice.New("pub"))
		if err != nil {
			t.Fatalf("%s: %v", info.Name, err)
		}
		if _, ok := st.(engine.PublicViewer); !ok {
			t.Errorf("%s: its state has no PublicView, so observers would get no board", info.Name)
		}
	}
}
