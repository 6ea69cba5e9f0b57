package game_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"orrery/engine"
	"orrery/engine/enginetest/toy"
	"orrery/engine/game"
	"orrery/engine/store/storetest"
)

// playSecretRace plays the secret toy race (secret dice for each pusher,
// secret mottos) of ann, bob and cyd to its end, the same orders every
// time, on a fixed clock, and returns the game's export as JSON: its
// record, state, steps with their seeds and rolls, and its log. With
// previews set, cyd (and ann) preview before and after the others' orders
// in every step, and check what each preview shows.
func playSecretRace(t *testing.T, previews bool) []byte {
	t.Helper()
	ctx := context.Background()
	at := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	st := storetest.Open(t, storetest.Default())
	svc := game.New(st, []engine.Ruleset{secretToy{toy.Ruleset()}}, game.WithClock(func() time.Time { return at }))
	if _, err := svc.Create(ctx, game.CreateRequest{ID: "r", Ruleset: "secret-toy", DiceSecret: "fixed", Options: map[string]string{"finish": "30"},
		Players: []game.PlayerSpec{{Name: "ann"}, {Name: "bob"}, {Name: "cyd"}}}); err != nil {
		t.Fatal(err)
	}
	preview := func(player, text string) *game.PreviewResult {
		t.Helper()
		res, err := svc.Preview(ctx, game.Input{Game: "r", Player: player, Text: text})
		if err != nil {
			t.Fatalf("preview of %s %q: %v", player, text, err)
		}
		return res
	}
	for step := 0; ; step++ {
		g, err := svc.Get(ctx, "r")
		if err != nil {
			t.Fatal(err)
		}
		if g.Over() {
			break
		}
		if step > 100 {
			t.Fatal("the race does not end")
		}
		if previews {
			preview("cyd", "")
		}
		if _, err := svc.Submit(ctx, game.Input{Game: "r", Player: "bob", Text: "PUSH 3", Source: "test"}); err != nil {
			t.Fatal(err)
		}
		if _, err := svc.Submit(ctx, game.Input{Game: "r", Player: "ann", Prompt: "motto:ann", Text: "MOTTO step " + string(rune('a'+step%26)), Source: "test"}); err != nil {
			t.Fatal(err)
		}
		if previews {
			res := preview("cyd", "PUSH 2")
			if res.Report == nil || len(res.Errors) > 0 {
				t.Fatalf("cyd's preview: %+v", res)
			}
			text := strings.Join(res.Report.Events, "\n")
			if !strings.Contains(text, "cyd pushes 2+") || !strings.Contains(text, "bob pushes 1+") || strings.Contains(text, "bob pushes 3+") {
				t.Fatalf("cyd's preview shows %q: want her PUSH 2 and bob's default, never his pending PUSH 3", text)
			}
			for _, roll := range res.Report.Rolls {
				if roll.Stream != "" && roll.Stream != "cyd" || strings.Contains(roll.Purpose, "of ann") || strings.Contains(roll.Purpose, "of bob") {
					t.Fatalf("cyd's preview shows someone else's secret roll %+v", roll)
				}
			}
			if strings.Contains(res.Report.Board+res.Report.Status, "step ") {
				t.Fatalf("cyd's preview shows ann's secret motto:\n%s", res.Report.Board+res.Report.Status)
			}
			if res.Report.RevealedSeed != "" || res.Report.DiceSecret != "" || len(res.Report.Inputs) > 0 {
				t.Fatalf("a preview shows the game's dice: %+v", res.Report)
			}
			if bad := preview("cyd", "PUSH 9\nPUSH x"); len(bad.Errors) == 0 || bad.Report != nil {
				t.Fatalf("bad orders previewed: %+v", bad)
			}
			if held := preview("bob", ""); !held.Held || !strings.Contains(strings.Join(held.Report.Events, "\n"), "bob pushes 3+") {
				t.Fatalf("bob's preview of his held orders: %+v", held)
			}
		}
		for _, p := range []string{"ann", "cyd"} {
			if _, err := svc.Submit(ctx, game.Input{Game: "r", Player: p, Text: "PUSH 2", Source: "test"}); err != nil {
				t.Fatal(err)
			}
		}
	}
	x, err := svc.Export(ctx, "r")
	if err != nil {
		t.Fatal(err)
	}
	// The seats' secrets are drawn at random when a game is created: the
	// only bytes that differ between two plays of the same game.
	for i := range x.Game.Players {
		x.Game.Players[i].Secret = ""
	}
	// The steps as the GM reads them: seeds, commitments, inputs, every
	// roll, hidden or not, and the hidden seeds.
	var steps []*game.Report
	for n := uint64(0); n <= x.Game.Step; n++ {
		r, err := svc.StepReport(ctx, "r", n, game.GM)
		if err != nil {
			t.Fatal(err)
		}
		steps = append(steps, r)
	}
	data, err := json.Marshal(struct {
		X     *game.Export
		Steps []*game.Report
	}{x, steps})
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestPreviewChangesNothing plays the same game with and without previews
// and gets the same bytes: state, steps (seeds, commitments, inputs,
// rolls) and log.
func TestPreviewChangesNothing(t *testing.T) {
	without, with := playSecretRace(t, false), playSecretRace(t, true)
	if !bytes.Equal(without, with) {
		t.Fatalf("the game played with previews differs from the one without (%d and %d bytes)", len(with), len(without))
	}
	if !bytes.Contains(with, []byte("crossed the line")) {
		t.Fatal("the race was not played to its end")
	}
}
