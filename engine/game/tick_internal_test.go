package game

import (
	"context"
	"testing"
	"time"

	"orrery/engine"
	"orrery/engine/enginetest/toy"
	"orrery/engine/store/storetest"
)

// A game record read ahead of its tick (readAhead) stands in for reading
// it only while it is the stored record byte for byte, and only once: a
// change made in between wins, and a transaction tried again reads the
// game afresh.
func TestTickReadAheadOnlyWhileUnchanged(t *testing.T) {
	for _, k := range storetest.Kinds() {
		t.Run(k.Name, func(t *testing.T) {
			st := storetest.Open(t, k)
			now := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
			svc := New(st, []engine.Ruleset{toy.Ruleset()}, WithClock(func() time.Time { return now }))
			ctx := context.Background()
			for _, id := range []string{"a", "b"} {
				if _, err := svc.Create(ctx, CreateRequest{ID: id, Ruleset: "toy", DiceSecret: id,
					Players: []PlayerSpec{{Name: "ann", Email: "ann@example.org"}}, Settings: &Settings{TurnLength: time.Hour}}); err != nil {
					t.Fatal(err)
				}
			}
			recs := <-svc.readAhead(ctx, []string{"a", "b", "nosuch"})
			if len(recs) != 2 || recs["a"] == nil || recs["b"] == nil {
				t.Fatalf("read ahead %v, want the records of a and b", recs)
			}
			// a is paused after its record was read ahead; b is not.
			if _, _, err := svc.Pause(ctx, "a", "holiday"); err != nil {
				t.Fatal(err)
			}
			now = now.Add(2 * time.Hour) // past both deadlines
			for _, c := range []struct {
				id    string
				steps int
			}{{"a", 0}, {"b", 1}} {
				r, err := svc.tickOne(ctx, c.id, nil, recs[c.id])
				if err != nil {
					t.Fatal(err)
				}
				got := 0
				if r != nil {
					got = len(r.Steps)
				}
				if got != c.steps {
					t.Errorf("game %s: the tick resolved %d steps, want %d", c.id, got, c.steps)
				}
				if recs[c.id].take(recs[c.id].raw) != nil {
					t.Errorf("game %s: the record read ahead can be taken twice", c.id)
				}
			}
			g, err := svc.Get(ctx, "a")
			if err != nil {
				t.Fatal(err)
			}
			if !g.Paused || g.Step != 0 {
				t.Errorf("game a after the tick: paused %v, step %d; want paused at step 0", g.Paused, g.Step)
			}
		})
	}
}

// A tick that opens a new step for a bot seat (here a deadline resolving
// the step a human missed) has the bot answer it at once, whether the
// game's record was read ahead or not.
func TestTickPlaysBotsItGivesOrdersToGive(t *testing.T) {
	for _, k := range storetest.Kinds() {
		t.Run(k.Name, func(t *testing.T) {
			st := storetest.Open(t, k)
			now := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
			svc := New(st, []engine.Ruleset{toy.Ruleset()}, WithClock(func() time.Time { return now }))
			ctx := context.Background()
			for _, id := range []string{"a", "b"} {
				if _, err := svc.Create(ctx, CreateRequest{ID: id, Ruleset: "toy", DiceSecret: id,
					Players:  []PlayerSpec{{Name: "ann", Email: "ann@example.org"}, {Name: "bob", Bot: true}},
					Settings: &Settings{Early: true, TurnLength: time.Hour}}); err != nil {
					t.Fatal(err)
				}
			}
			botAnswered := func(id string) (uint64, bool) {
				g, err := svc.Get(ctx, id)
				if err != nil {
					t.Fatal(err)
				}
				for _, p := range g.Prompts {
					if p.Player == "bob" && p.Kind.Blocks() {
						return g.Step, contains(g.Answered, p.ID)
					}
				}
				t.Fatalf("game %s at step %d asks bob nothing", id, g.Step)
				return 0, false
			}
			for _, id := range []string{"a", "b"} {
				if step, ok := botAnswered(id); step != 0 || !ok {
					t.Fatalf("game %s: bob has not answered step %d after the creation", id, step)
				}
			}
			// a's record is read ahead (as a batch's would be); b's not.
			recs := <-svc.readAhead(ctx, []string{"a"})
			now = now.Add(2 * time.Hour) // ann missed the deadline
			for _, id := range []string{"a", "b"} {
				r, err := svc.tickOne(ctx, id, nil, recs[id])
				if err != nil {
					t.Fatal(err)
				}
				if r == nil || len(r.Steps) != 1 {
					t.Fatalf("game %s: the tick did %+v, want the deadline's step", id, r)
				}
				if step, ok := botAnswered(id); step != 1 || !ok {
					t.Errorf("game %s: bob has not answered step %d after the tick that opened it", id, step)
				}
			}
		})
	}
}
