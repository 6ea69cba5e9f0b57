package main

import (
	"strings"
	"testing"
	"unicode/utf8"

	"orrery/engine"
	"orrery/engine/dice"
	"orrery/engine/game"
)

// game show prints within 78 columns: a long event (an Orbital impulse
// moves a dozen craft in one line), a long die purpose, a long prompt and
// the seeds wrap or stand on their own lines, and no word is lost.
func TestReportTextFitsSeventyEightColumns(t *testing.T) {
	moves := strings.Repeat("C9 4F1→4F2; ", 30)
	seed := strings.Repeat("ab", 32)
	r := &game.Report{Game: "g-orbital", Title: "Orbital: Stations, Satellites, Boosters and Warheads", Player: "ann",
		Step: 41, Turn: 41, Phase: "orders", Reason: "all orders in",
		Board: "board", Status: "status",
		Events:       []string{"impulse 2 moves: " + moves},
		Rolls:        []dice.Roll{{N: 1, Sides: 6, Value: 4, Purpose: "D35 fires at B78, shot 1, hits on 1-4 +1 ComSat, the second of the turn"}},
		RevealedSeed: seed, RevealedCommitment: seed, NextCommitment: seed,
		Prompts: []engine.Prompt{{Player: "ann", Kind: engine.KindTurn, Ask: "Your orders for turn 42: thrust, launch, fire, buy, and anything else the scenario allows you this turn.", Default: "HOLD"}},
	}
	out := reportText(r)
	for _, l := range strings.Split(out, "\n") {
		if n := utf8.RuneCountInString(l); n > 78 {
			t.Errorf("a line of %d columns: %q", n, l)
		}
	}
	flat := strings.Join(strings.Fields(out), " ")
	for _, want := range []string{"impulse 2 moves: " + strings.TrimSpace(moves), "hits on 1-4 +1 ComSat, the second of the turn",
		"Seed of step 41: " + seed, "anything else the scenario allows you this turn.", "— as ann"} {
		if !strings.Contains(flat, want) {
			t.Errorf("the report lost %q:\n%s", want, out)
		}
	}
}
