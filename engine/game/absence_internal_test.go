package game

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"orrery/engine"
	"orrery/engine/enginetest/toy"
	"orrery/engine/store/storetest"
)

func twoSeats(t *testing.T, svc *Service, id string, st Settings) {
	t.Helper()
	if _, err := svc.Create(context.Background(), CreateRequest{ID: id, Ruleset: "toy", DiceSecret: id, Options: map[string]string{"finish": "1000"},
		Players:  []PlayerSpec{{Name: "ann", Email: "ann@example.org"}, {Name: "bob", Email: "bob@example.org"}},
		Settings: &st}); err != nil {
		t.Fatal(err)
	}
}

// VACATION ALL declares one absence in every game the address plays,
// under each game's policy and cap, and in the games it joins later.
func TestVacationAll(t *testing.T) {
	for _, k := range storetest.Kinds() {
		t.Run(k.Name, func(t *testing.T) {
			st := storetest.Open(t, k)
			now := utc(2026, 12, 1, 12, 0)
			svc := New(st, []engine.Ruleset{toy.Ruleset()}, WithClock(func() time.Time { return now }))
			ctx := context.Background()
			twoSeats(t, svc, "a", Settings{Early: true, TurnLength: 72 * time.Hour, Vacation: "defaults", MaxVacation: 30 * 24 * time.Hour})
			twoSeats(t, svc, "b", Settings{Early: true, TurnLength: 72 * time.Hour, Vacation: "extend", MaxVacation: 7 * 24 * time.Hour})
			from, to := utc(2026, 12, 2, 0, 0), utc(2026, 12, 16, 0, 0)
			res, err := svc.VacationAll(ctx, "Bob@Example.org", from, to, "test")
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(res.Games, []string{"a", "b"}) {
				t.Fatalf("declared in %v, want a and b", res.Games)
			}
			a, _ := svc.Get(ctx, "a")
			b, _ := svc.Get(ctx, "b")
			if len(a.Vacations) != 1 || !a.Vacations[0].To.Equal(to) {
				t.Errorf("a: %+v, want the whole vacation", a.Vacations)
			}
			if len(b.Vacations) != 1 || !b.Vacations[0].To.Equal(from.Add(7*24*time.Hour)) {
				t.Errorf("b: %+v, want it capped at 7 days", b.Vacations)
			}
			if !b.Deadline.Equal(from.Add(7 * 24 * time.Hour)) {
				t.Errorf("b's deadline %v does not wait for bob", b.Deadline)
			}
			moved := false
			for _, n := range res.Notices {
				moved = moved || (n.Kind == "deadline" && strings.Contains(n.Text, "moves from") && slices.Contains(n.To, "ann"))
			}
			if !moved {
				t.Errorf("ann was not told that b's deadline moved, and from when: %+v", res.Notices)
			}
			// Again: nothing new.
			if res, err := svc.VacationAll(ctx, "bob@example.org", from, to, "test"); err != nil || len(res.Games) != 0 {
				t.Errorf("the same vacation again: %+v %v", res, err)
			}
			// A game bob joins later keeps it.
			twoSeats(t, svc, "c", Settings{Early: true, TurnLength: 72 * time.Hour, Vacation: "defaults"})
			c, _ := svc.Get(ctx, "c")
			if len(c.Vacations) != 1 || c.Vacations[0].Player != "bob" {
				t.Errorf("c: %+v, want bob's standing vacation", c.Vacations)
			}
		})
	}
}

// The yearly allowance is spent, by the hour, when a deadline passes
// without a player's orders: the step waits for them, everyone is told,
// and AUTOVACATION off stops it. A restart in the middle changes nothing.
func TestAllowanceSpentByTheHour(t *testing.T) {
	for _, k := range storetest.Kinds() {
		t.Run(k.Name, func(t *testing.T) {
			st := storetest.Open(t, k)
			now := utc(2026, 3, 2, 12, 0)
			clock := WithClock(func() time.Time { return now })
			svc := New(st, []engine.Ruleset{toy.Ruleset()}, clock, WithAllowance(10))
			ctx := context.Background()
			twoSeats(t, svc, "a", Settings{Early: true, TurnLength: 24 * time.Hour, MaxVacation: 14 * 24 * time.Hour})
			if _, err := svc.Submit(ctx, Input{Game: "a", Player: "ann", Text: "PUSH 1", Source: "test"}); err != nil {
				t.Fatal(err)
			}
			now = now.Add(24 * time.Hour)
			res, err := svc.Tick(ctx)
			if err != nil {
				t.Fatal(err)
			}
			g, _ := svc.Get(ctx, "a")
			if g.Step != 0 || len(res) != 1 || len(res[0].Notices) != 1 || !strings.Contains(res[0].Notices[0].Text, "bob is using vacation days") {
				t.Fatalf("step %d, tick %+v: want the step to wait for bob, and everyone told", g.Step, res)
			}
			if !slices.Contains(res[0].Notices[0].To, "ann") || !g.Deadline.Equal(now.Add(24*time.Hour)) {
				t.Fatalf("notice to %v, deadline %v", res[0].Notices[0].To, g.Deadline)
			}
			// A restart: a new service over the same store.
			svc = New(st, []engine.Ruleset{toy.Ruleset()}, clock, WithAllowance(10))
			now = now.Add(150 * time.Minute)
			if _, err := svc.Submit(ctx, Input{Game: "a", Player: "bob", Text: "PUSH 2", Source: "test"}); err != nil {
				t.Fatal(err)
			}
			if g, _ = svc.Get(ctx, "a"); g.Step != 1 {
				t.Fatalf("step %d after bob's orders", g.Step)
			}
			a, err := svc.AbsenceOf(ctx, "bob@example.org")
			if err != nil {
				t.Fatal(err)
			}
			if left, days, off := svc.AllowanceLeft(a); a.Spent[2026] != 3*time.Hour || left != 237*time.Hour || days != 10 || off {
				t.Fatalf("spent %v, left %v of %d days (off %v); want 3 hours (2.5 rounded up)", a.Spent, left, days, off)
			}
			if err := svc.SetAutoVacation(ctx, "bob@example.org", false); err != nil {
				t.Fatal(err)
			}
			if _, err := svc.Submit(ctx, Input{Game: "a", Player: "ann", Text: "PUSH 1", Source: "test"}); err != nil {
				t.Fatal(err)
			}
			now = g.Deadline
			if _, err := svc.Tick(ctx); err != nil {
				t.Fatal(err)
			}
			if g, _ = svc.Get(ctx, "a"); g.Step != 2 {
				t.Fatalf("step %d: with AUTOVACATION off the deadline plays bob's defaults", g.Step)
			}
		})
	}
}
