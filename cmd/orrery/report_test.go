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

// game show of a step that rolled no die the reader sees keeps only the
// seed and the commitment to the next step's seed, as the mail does.
func TestReportTextWithoutDice(t *testing.T) {
	seed, commit, next := strings.Repeat("ab", 32), strings.Repeat("cd", 32), strings.Repeat("ef", 32)
	r := &game.Report{Game: "g", Title: "Toy", Player: "ann", Step: 3, Turn: 3, Phase: "orders", Board: "board", Status: "status",
		RevealedSeed: seed, RevealedCommitment: commit, NextCommitment: next, DiceScheme: dice.Scheme2,
		Inputs: []dice.Part{{Head: "ann turn:ann sent", Hash: strings.Repeat("12", 32)}}, Digest: strings.Repeat("34", 32),
		RollSeed: strings.Repeat("56", 32), LastOrders: "ann"}
	out := reportText(r)
	for _, gone := range []string{commit, r.Digest, r.RollSeed, "ann turn:ann sent", "Last orders in"} {
		if strings.Contains(out, gone) {
			t.Errorf("a step without dice still shows %q:\n%s", gone, out)
		}
	}
	flat := strings.Join(strings.Fields(out), " ")
	for _, want := range []string{seed, "Commitment for step 4: " + next} {
		if !strings.Contains(flat, want) {
			t.Errorf("a step without dice lacks %q:\n%s", want, out)
		}
	}
	r.Rolls = []dice.Roll{{N: 1, Sides: 6, Value: 4, Purpose: "ann pushes"}}
	if out := reportText(r); !strings.Contains(out, commit) || !strings.Contains(out, r.Digest) {
		t.Errorf("a step with dice lost its check:\n%s", out)
	}
}
