package game_test

// Regression tests for defects found in review, one per defect.

import (
	"context"
	"testing"
	"time"

	"orrery/engine/game"
)

func TestAnytimeAnswerDoesNotResolveAPausedOrWaitingTurn(t *testing.T) {
	ctx := context.Background()
	for _, hold := range []string{"pause", "wait"} {
		svc, _ := newService(t)
		createWith(t, svc, game.Settings{Early: true, TurnLength: 24 * time.Hour}, "ann", "bob")
		if hold == "pause" {
			svc.Pause(ctx, "g", "server move")
		} else {
			svc.Wait(ctx, "g", "bob")
		}
		submit(t, svc, "g", "ann", "PUSH 2")
		submit(t, svc, "g", "bob", "PUSH 1")
		res, err := svc.Submit(ctx, game.Input{Game: "g", Player: "bob", Prompt: "motto:bob", Text: "MOTTO hi"})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Steps) != 1 {
			t.Errorf("%s: an anytime answer resolved %d steps, want only its own", hold, len(res.Steps))
		}
	}
}

func TestImportLogsEditedPendingOrders(t *testing.T) {
	ctx := context.Background()
	svc, _ := newService(t)
	create(t, svc, "g", "ann", "bob")
	submit(t, svc, "g", "ann", "PUSH 3")
	x, err := svc.Export(ctx, "g")
	if err != nil {
		t.Fatal(err)
	}
	for id, p := range x.Pending {
		p.Text = "PUSH 1"
		x.Pending[id] = p
	}
	other, _ := newService(t)
	if _, err := other.Import(ctx, x, game.ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	r := submit(t, other, "g", "bob", "PUSH 1")
	if len(r.Steps) != 1 {
		t.Fatal("the imported game did not resolve")
	}
	if v, _ := other.Verify(ctx, "g"); !v.OK() {
		t.Fatalf("verify after importing edited pending orders: %v", v.Problems)
	}
}

func TestAdvanceLeavesAPausedGame(t *testing.T) {
	ctx := context.Background()
	svc, clk := newService(t)
	createWith(t, svc, game.Settings{Early: true, TurnLength: 24 * time.Hour}, "ann", "bob")
	svc.Pause(ctx, "g", "server move")
	clk.t = clk.t.Add(48 * time.Hour)
	res, err := svc.Advance(ctx, "g", false)
	if err != nil || res.Due || !res.Paused {
		t.Fatalf("advance of a paused game past its deadline: %+v %v", res, err)
	}
}

func TestRollbackDuringPauseThenResume(t *testing.T) {
	ctx := context.Background()
	svc, clk := newService(t)
	createWith(t, svc, game.Settings{Early: true, TurnLength: 24 * time.Hour}, "ann")
	submit(t, svc, "g", "ann", "PUSH 1")
	svc.Pause(ctx, "g", "fix")
	clk.t = clk.t.Add(10 * time.Hour)
	if _, _, err := svc.Rollback(ctx, "g", 0, "mistake"); err != nil {
		t.Fatal(err)
	}
	clk.t = clk.t.Add(10 * time.Hour)
	g, _, err := svc.Resume(ctx, "g")
	if err != nil {
		t.Fatal(err)
	}
	if max := clk.t.Add(24 * time.Hour); g.Deadline.After(max) {
		t.Fatalf("deadline %v after resume, want at most a turn from now (%v)", g.Deadline, max)
	}
}

func TestResumeRemindsForTheMovedDeadline(t *testing.T) {
	ctx := context.Background()
	svc, clk := newService(t)
	createWith(t, svc, game.Settings{Early: true, TurnLength: 24 * time.Hour, Reminders: []time.Duration{2 * time.Hour}}, "ann", "bob")
	clk.t = clk.t.Add(23 * time.Hour)
	if _, n := tick(t, svc); kinds(n) != "reminder:ann reminder:bob" {
		t.Fatalf("first reminder: %s", kinds(n))
	}
	svc.Pause(ctx, "g", "x")
	clk.t = clk.t.Add(72 * time.Hour)
	svc.Resume(ctx, "g")
	clk.t = clk.t.Add(30 * time.Minute)
	if _, n := tick(t, svc); kinds(n) != "reminder:ann reminder:bob" {
		t.Fatalf("after resume: %q, want a reminder for the moved deadline", kinds(n))
	}
}

func TestRollbackRestoresAbandonedSeats(t *testing.T) {
	ctx := context.Background()
	svc, clk := newService(t)
	createWith(t, svc, game.Settings{Early: true, TurnLength: 24 * time.Hour, AbandonAfter: 2}, "ann", "bob")
	for i := 0; i < 2; i++ {
		submit(t, svc, "g", "ann", "PUSH 1")
		clk.t = clk.t.Add(25 * time.Hour)
		tick(t, svc)
	}
	if g, _ := svc.Get(ctx, "g"); len(g.Abandoned) != 1 {
		t.Fatalf("bob not abandoned: %v", g.Abandoned)
	}
	if _, _, err := svc.Rollback(ctx, "g", 0, "the server lost bob's mail"); err != nil {
		t.Fatal(err)
	}
	if r := submit(t, svc, "g", "ann", "PUSH 1"); len(r.Steps) != 0 {
		t.Fatal("after the rollback the game does not wait for bob")
	}
}

func TestEarlyDelayStartsWhenTheLastAwaitedPlayerDropsOut(t *testing.T) {
	ctx := context.Background()
	svc, clk := newService(t)
	createWith(t, svc, game.Settings{Early: true, EarlyDelay: time.Hour, TurnLength: 72 * time.Hour}, "ann", "bob")
	submit(t, svc, "g", "ann", "PUSH 1")
	svc.Kick(ctx, "g", "bob")
	tick(t, svc) // starts the delay
	clk.t = clk.t.Add(61 * time.Minute)
	if s, _ := tick(t, svc); len(s) != 1 {
		t.Fatal("the game waits for its deadline although nobody is awaited")
	}
}
