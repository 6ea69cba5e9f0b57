package game_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"orrery/engine"
	"orrery/engine/enginetest/toy"
	"orrery/engine/game"
	"orrery/engine/store"
	"orrery/engine/store/storetest"
)

// TestOrdersAhead: ann holds orders for turn 3 during turn 1 (then replaces
// them); bob holds orders for turn 2 that do not fit when it opens. bob is
// told at once and plays turn 2 as if he had sent nothing; ann's orders
// become hers when turn 3 opens, the turn resolves with them, and the game
// still replays (Verify).
func TestOrdersAhead(t *testing.T) {
	ctx := context.Background()
	svc, _ := newService(t)
	create(t, svc, "a", "ann", "bob")
	var notices []game.Notice
	hook := func(_ store.Tx, c *game.Change) error { notices = append(notices, c.Notices...); return nil }
	hold := func(player, text string, turn int) *game.AheadResult {
		t.Helper()
		res, err := svc.Hold(ctx, game.Input{Game: "a", Player: player, Text: text, Source: "test"}, turn, hook)
		if err != nil {
			t.Fatalf("hold %s %q for %d: %v", player, text, turn, err)
		}
		return res
	}
	if res := hold("ann", "PUSH 1", 3); res.Replaced || res.Held.Turn != 3 {
		t.Fatalf("first hold: %+v", res)
	}
	if res := hold("ann", "PUSH 3", 3); !res.Replaced {
		t.Fatalf("second hold for turn 3 does not say it replaced the first: %+v", res)
	}
	if res := hold("bob", "PUSH 9", game.Next); res.Held.Turn != 2 {
		t.Fatalf("NEXT in turn 1 held for turn %d", res.Held.Turn)
	}
	if _, err := svc.Hold(ctx, game.Input{Game: "a", Player: "ann", Text: "PUSH 1"}, 1); err == nil || !game.IsUserError(err) {
		t.Fatalf("orders held for the current turn: %v", err)
	}
	if held, err := svc.HeldAhead(ctx, "a", "ann"); err != nil || len(held) != 1 || held[0].Text != "PUSH 3" {
		t.Fatalf("ann's held orders: %+v %v", held, err)
	}
	turn1 := func(player, text string) {
		t.Helper()
		if res, err := svc.Submit(ctx, game.Input{Game: "a", Player: player, Text: text, Source: "test"}, hook); err != nil || !res.Accepted {
			t.Fatalf("%s %q: %v %+v", player, text, err, res)
		}
	}
	turn1("ann", "PUSH 1")
	turn1("bob", "PUSH 1") // turn 2 opens: bob's held orders do not fit
	var told bool
	for _, n := range notices {
		if n.Kind == "ahead-rejected" && len(n.To) == 1 && n.To[0] == "bob" && strings.Contains(n.Text, "turn 2") {
			told = true
		}
	}
	if !told {
		t.Fatalf("bob was not told his held orders no longer fit: %+v", notices)
	}
	g, _ := svc.Get(ctx, "a")
	if g.Turn != 2 || len(g.Answered) != 0 {
		t.Fatalf("turn 2 opened as %d with answers %v", g.Turn, g.Answered)
	}
	turn1("ann", "PUSH 2")
	turn1("bob", "PUSH 2") // turn 3 opens: ann's held orders are hers
	g, _ = svc.Get(ctx, "a")
	if g.Turn != 3 || len(g.Answered) != 1 || g.Answered[0] != "push:ann" {
		t.Fatalf("turn 3 opened as %d with answers %v, want ann's held orders in", g.Turn, g.Answered)
	}
	turn1("bob", "PUSH 1")
	rep, err := svc.StepReport(ctx, "a", g.Step+1, "bob")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(rep.Events, "\n"), "ann pushes 3+") {
		t.Fatalf("turn 3 did not use ann's held orders: %q", rep.Events)
	}
	if held, _ := svc.HeldAhead(ctx, "a", ""); len(held) != 0 {
		t.Fatalf("held orders left after they applied: %+v", held)
	}
	v, err := svc.Verify(ctx, "a")
	if err != nil || !v.OK() {
		t.Fatalf("verify: %v %+v", err, v)
	}
}

// TestExportImportAhead: orders held for a later turn travel with the
// export, on every store: imported into another database, ann's orders
// held for turn 3 during turn 1 become hers when turn 3 opens there, and
// the turn resolves with them. An export whose held orders name no player
// of the game, or hold twice for one turn, is refused.
func TestExportImportAhead(t *testing.T) {
	storetest.Each(t, func(t *testing.T, k storetest.Kind) {
		ctx := context.Background()
		svc := game.New(storetest.Open(t, k), []engine.Ruleset{toy.Ruleset()})
		create(t, svc, "a", "ann", "bob")
		if _, err := svc.Hold(ctx, game.Input{Game: "a", Player: "ann", Text: "PUSH 3", Source: "test"}, 3); err != nil {
			t.Fatal(err)
		}
		submit(t, svc, "a", "ann", "PUSH 1")
		x, err := svc.Export(ctx, "a")
		if err != nil {
			t.Fatal(err)
		}
		if len(x.Ahead) != 1 || x.Ahead[0].Player != "ann" || x.Ahead[0].Turn != 3 || x.Ahead[0].Text != "PUSH 3" {
			t.Fatalf("exported held orders: %+v", x.Ahead)
		}
		// Held orders need the format that carries them: a release that
		// reads only orrery-game/1 refuses the document, not the orders.
		if x.Format != game.ExportFormat {
			t.Errorf("an export with held orders says format %q, want %q", x.Format, game.ExportFormat)
		}
		data, err := json.Marshal(x)
		if err != nil {
			t.Fatal(err)
		}
		read := func() *game.Export {
			var y game.Export
			if err := json.Unmarshal(data, &y); err != nil {
				t.Fatal(err)
			}
			return &y
		}
		other := game.New(storetest.Open(t, k), []engine.Ruleset{toy.Ruleset()})
		for name, spoil := range map[string]func(*game.Export){
			"no such player": func(y *game.Export) { y.Ahead[0].Player = "zed" },
			"held twice":     func(y *game.Export) { y.Ahead = append(y.Ahead, y.Ahead[0]) },
			"turn 0":         func(y *game.Export) { y.Ahead[0].Turn = 0 },
			"held in v1":     func(y *game.Export) { y.Format = game.ExportFormatV1 },
			"newer format":   func(y *game.Export) { y.Format = "orrery-game/3" },
		} {
			y := read()
			spoil(y)
			if _, err := other.Import(ctx, y, game.ImportOptions{}); err == nil || !game.IsUserError(err) {
				t.Errorf("%s: import gave %v, want a refusal", name, err)
			}
		}
		if _, err := other.Import(ctx, read(), game.ImportOptions{}); err != nil {
			t.Fatal(err)
		}
		if held, err := other.HeldAhead(ctx, "a", "ann"); err != nil || len(held) != 1 || held[0].Turn != 3 || held[0].Text != "PUSH 3" {
			t.Fatalf("held orders after import: %+v %v", held, err)
		}
		play := func(player, text string) {
			t.Helper()
			if res, err := other.Submit(ctx, game.Input{Game: "a", Player: player, Text: text, Source: "test"}); err != nil || !res.Accepted {
				t.Fatalf("%s %q: %v %+v", player, text, err, res)
			}
		}
		play("bob", "PUSH 1") // turn 2
		play("ann", "PUSH 1")
		play("bob", "PUSH 1") // turn 3 opens: ann's held orders are hers
		g, _ := other.Get(ctx, "a")
		if g.Turn != 3 || len(g.Answered) != 1 || g.Answered[0] != "push:ann" {
			t.Fatalf("turn 3 opened as %d with answers %v, want ann's held orders in", g.Turn, g.Answered)
		}
		play("bob", "PUSH 1")
		rep, err := other.StepReport(ctx, "a", g.Step+1, "bob")
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(strings.Join(rep.Events, "\n"), "ann pushes 3+") {
			t.Fatalf("turn 3 did not use ann's held orders: %q", rep.Events)
		}
		if v, err := other.Verify(ctx, "a"); err != nil || !v.OK() {
			t.Fatalf("verify: %v %+v", err, v)
		}
		// Its held orders applied, the game exports as orrery-game/1
		// again, which every release reads.
		if y, err := other.Export(ctx, "a"); err != nil || len(y.Ahead) != 0 || y.Format != game.ExportFormatV1 {
			t.Errorf("export with nothing held: format %q, %d held, %v; want %q", y.Format, len(y.Ahead), err, game.ExportFormatV1)
		}
	})
}
