package earthman

import (
	"testing"

	"orrery/engine/enginetest"
	"orrery/engine/game"
)

// TestNobodyComputesTheSkynetDeck plays Skynet games among bots and, as
// each player and an observer, tries to recompute the hidden shuffle of the
// Skynet deck from what they were sent before the end (issue 15: a script
// applying the README's roll rule to the welcome mail's seed did it).
func TestNobodyComputesTheSkynetDeck(t *testing.T) {
	for seed := uint64(1); seed <= 3; seed++ {
		players := []string{"ann", "bob", "cat"}
		hook, sent := enginetest.RecordReports(players)
		enginetest.PlayBots(t, Full(), enginetest.Options{Players: players, Seed: seed, MaxSteps: 40,
			Options: map[string]string{"skynet": "on"}, Hooks: []game.Hook{hook}})
		if n := enginetest.CheckHiddenRolls(t, sent, players); n == 0 {
			t.Fatalf("seed %d: no hidden roll to try: is Skynet on?", seed)
		}
	}
}
