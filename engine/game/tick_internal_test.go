package game

import (
	"context"
	"testing"
	"time"

	"orrery/engine"
	"orrery/engine/enginetest/toy"
	"orrery/engine/store/storetest"
)

// A tick that opens a new step for a bot seat (here a deadline resolving
// the step a human missed) has the bot answer it at once.
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
			now = now.Add(2 * time.Hour) // ann missed the deadline
			res, err := svc.Tick(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if len(res) != 2 || len(res[0].Steps) != 1 || len(res[1].Steps) != 1 {
				t.Fatalf("the tick did %+v, want the deadline's step in a and b", res)
			}
			for _, id := range []string{"a", "b"} {
				if step, ok := botAnswered(id); step != 1 || !ok {
					t.Errorf("game %s: bob has not answered step %d after the tick that opened it", id, step)
				}
			}
		})
	}
}
