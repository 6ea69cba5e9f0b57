package game

import (
	"context"
	"testing"
	"time"

	"orrery/engine"
	"orrery/engine/enginetest/toy"
	"orrery/engine/store"
	"orrery/engine/store/storetest"
)

// A step the GM forces (advance --force) is not the awaited player's
// miss: it neither counts toward abandoning the seat nor stays in the
// holder's record, now or after a rollback's recount.
func TestForcedStepIsNoMiss(t *testing.T) {
	for _, k := range storetest.Kinds() {
		t.Run(k.Name, func(t *testing.T) {
			now := utc(2026, 6, 1, 12, 0)
			svc := New(storetest.Open(t, k), []engine.Ruleset{toy.Ruleset()}, WithClock(func() time.Time { return now }))
			ctx := context.Background()
			twoSeats(t, svc, "a", Settings{Early: true, TurnLength: 24 * time.Hour, AbandonAfter: 1})
			if _, err := svc.Submit(ctx, Input{Game: "a", Player: "ann", Text: "PUSH 1", Source: "test"}); err != nil {
				t.Fatal(err)
			}
			if _, err := svc.Advance(ctx, "a", true); err != nil {
				t.Fatal(err)
			}
			g, _ := svc.Get(ctx, "a")
			bob, _ := g.PlayerByName("bob")
			if g.Step != 1 || contains(g.Abandoned, "bob") || g.Missed["bob"] != 0 || bob.Current().Missed != 0 {
				t.Fatalf("step %d: abandoned %v, missed %v, bob's record %+v", g.Step, g.Abandoned, g.Missed, bob.Current())
			}
			// One more step (both in), then back to step 1: a recount.
			for _, p := range []string{"ann", "bob"} {
				if _, err := svc.Submit(ctx, Input{Game: "a", Player: p, Text: "PUSH 1", Source: "test"}); err != nil {
					t.Fatal(err)
				}
			}
			if _, _, err := svc.Rollback(ctx, "a", 1, "recount"); err != nil {
				t.Fatal(err)
			}
			g, _ = svc.Get(ctx, "a")
			if bob, _ = g.PlayerByName("bob"); contains(g.Abandoned, "bob") || bob.Current().Missed != 0 {
				t.Fatalf("after the recount: abandoned %v, bob's record %+v", g.Abandoned, bob.Current())
			}
		})
	}
}

// A game whose last person's seat passes to the bot pauses and asks the
// GM, instead of playing itself to its end.
func TestLastHumanToBotPauses(t *testing.T) {
	for _, k := range storetest.Kinds() {
		t.Run(k.Name, func(t *testing.T) {
			now := utc(2026, 6, 1, 12, 0)
			svc := New(storetest.Open(t, k), []engine.Ruleset{toy.Ruleset()}, WithClock(func() time.Time { return now }))
			ctx := context.Background()
			if _, err := svc.Create(ctx, CreateRequest{ID: "a", Ruleset: "toy", DiceSecret: "a",
				Players:  []PlayerSpec{{Name: "ann", Email: "ann@example.org"}, {Name: "bob", Bot: true}},
				Settings: &Settings{Early: true, TurnLength: time.Hour, AbandonAfter: 1, Abandoned: "bot"}}); err != nil {
				t.Fatal(err)
			}
			now = now.Add(time.Hour)
			res, err := svc.Tick(ctx)
			if err != nil {
				t.Fatal(err)
			}
			g, _ := svc.Get(ctx, "a")
			if !g.Paused || g.Over() || g.Step != 1 {
				t.Fatalf("step %d paused %v over %v: want it paused after the step that lost ann", g.Step, g.Paused, g.Over())
			}
			asked := false
			for _, r := range res {
				for _, n := range r.Notices {
					asked = asked || (n.Kind == "paused" && len(n.To) == 1 && n.To[0] == GM)
				}
			}
			if !asked {
				t.Errorf("the GM was not asked: %+v", res)
			}
		})
	}
}

// A sign of life (a mail held as a possible stale copy) keeps the step's
// defaults from counting as the player's miss.
func TestSignOfLifeIsNoMiss(t *testing.T) {
	for _, k := range storetest.Kinds() {
		t.Run(k.Name, func(t *testing.T) {
			now := utc(2026, 6, 1, 12, 0)
			svc := New(storetest.Open(t, k), []engine.Ruleset{toy.Ruleset()}, WithClock(func() time.Time { return now }))
			ctx := context.Background()
			twoSeats(t, svc, "a", Settings{Early: true, TurnLength: time.Hour, AbandonAfter: 1})
			if err := svc.SignOfLife(ctx, "a", "bob"); err != nil {
				t.Fatal(err)
			}
			now = now.Add(time.Hour)
			if _, err := svc.Tick(ctx); err != nil {
				t.Fatal(err)
			}
			g, _ := svc.Get(ctx, "a")
			bob, _ := g.PlayerByName("bob")
			if g.Step != 1 || contains(g.Abandoned, "bob") || bob.Current().Missed != 0 || len(g.Alive) != 0 {
				t.Fatalf("step %d: abandoned %v, bob's record %+v, alive %v", g.Step, g.Abandoned, bob.Current(), g.Alive)
			}
			// The next step, without a sign of life, is his miss.
			now = now.Add(time.Hour)
			if _, err := svc.Tick(ctx); err != nil {
				t.Fatal(err)
			}
			if g, _ = svc.Get(ctx, "a"); !contains(g.Abandoned, "bob") {
				t.Fatalf("step %d: bob's second silent step was no miss", g.Step)
			}
		})
	}
}

// A creator's own START and INVITE are logged as the player's, not as
// the GM's.
func TestPlayersOwnActsLoggedAsTheirs(t *testing.T) {
	now := utc(2026, 6, 1, 12, 0)
	st := storetest.Open(t, storetest.Kinds()[0])
	svc := New(st, []engine.Ruleset{toy.Ruleset()}, WithClock(func() time.Time { return now }))
	ctx := context.Background()
	if _, err := svc.Create(ctx, CreateRequest{ID: "a", Ruleset: "toy", DiceSecret: "a", Seats: 3, Creator: "ann@example.org",
		Players: []PlayerSpec{{Name: "ann", Email: "ann@example.org"}}}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := svc.Invite(ctx, "a", "ann@example.org", []string{"bob@example.org"}); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Join(ctx, "a", PlayerSpec{Name: "bob", Email: "bob@example.org"}); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.StartNow(ctx, "a", "ann@example.org"); err != nil {
		t.Fatal(err)
	}
	var entries []*Entry
	if err := st.View(ctx, func(tx store.Tx) error {
		b, err := gameBucket(tx, "a")
		if err != nil {
			return err
		}
		entries, err = readLog(b)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	who := map[string]string{}
	for _, e := range entries {
		if e.Kind == "gm" {
			who[e.Source] = e.Player
		}
	}
	if who["invite"] != "ann" || who["start"] != "ann" || who["join"] != "bob" {
		t.Errorf("log entries by source, as whose: %v", who)
	}
}
