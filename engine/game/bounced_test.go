package game_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"orrery/engine"
	"orrery/engine/enginetest/toy"
	"orrery/engine/game"
	"orrery/engine/store"
	"orrery/engine/store/storetest"
)

// Issue 39: losing mail is not losing the seat.

// TestUnreachableSeatKeptForTheWindow: a seat whose address bounces plays
// its defaults at once (the game waits for it no more) and the GM and the
// other players are told, but it stays its holder's for the abandon
// window (--abandon-after 2: two steps by defaults): under open a
// stranger's JOIN right after is refused, under bot the bot does not take
// it; once the window has passed, the policy applies as before. A second
// mark changes nothing, and the log replays.
func TestUnreachableSeatKeptForTheWindow(t *testing.T) {
	ctx := context.Background()
	for _, policy := range []string{"defaults", "bot", "open"} {
		t.Run(policy, func(t *testing.T) {
			svc, clk := newService(t)
			createWith(t, svc, game.Settings{Early: true, AbandonAfter: 2, Abandoned: policy}, "ann", "bob", "cyd")
			_, ns, err := svc.MarkUnreachable(ctx, "g", "BOB@example.org", "3 hard bounces within 14 days")
			if err != nil {
				t.Fatal(err)
			}
			if kinds(ns) != "unreachable:ann,cyd," || !strings.Contains(ns[0].Text, "Mail to bob in g bounces") ||
				!strings.Contains(ns[0].Text, "if they do not write again within 2 steps") {
				t.Fatalf("notices %+v", ns)
			}
			if _, again, _ := svc.MarkUnreachable(ctx, "g", "bob@example.org", "again"); len(again) != 0 {
				t.Errorf("a second call: %+v", again)
			}
			held := func(when string) {
				t.Helper()
				g := mustGet(t, svc, "g")
				if bob, _ := g.PlayerByName("bob"); bob.Bot || bob.Email != "bob@example.org" || len(g.OpenSeats()) != 0 || len(g.Abandoned) != 0 {
					t.Fatalf("%s: bob's seat %+v, open %v, abandoned %v", when, bob, g.OpenSeats(), g.Abandoned)
				}
				if _, err := svc.Join(ctx, "g", game.PlayerSpec{Name: "dan", Email: "dan@example.org"}); err == nil || !strings.Contains(err.Error(), "no seat open to take") {
					t.Fatalf("%s: a stranger's JOIN: %v", when, err)
				}
			}
			held("right after")
			// The game no longer waits for bob: ann and cyd complete the step.
			submit(t, svc, "g", "ann", "PUSH 1")
			if steps, ns := submitTold(t, svc, "cyd", "PUSH 1"); steps != 1 || len(ns) != 0 {
				t.Fatalf("the first step: %d steps, notices %q", steps, kinds(ns))
			}
			held("after one step by defaults")
			clk.t = clk.t.Add(time.Hour)
			submit(t, svc, "g", "ann", "PUSH 1")
			_, told := submitTold(t, svc, "cyd", "PUSH 1")
			g := mustGet(t, svc, "g")
			bob, _ := g.PlayerByName("bob")
			switch policy {
			case "defaults":
				if kinds(told) != "abandoned:" || !strings.Contains(told[0].Text, "still bounces after 2 steps played by defaults: the seat is marked abandoned") {
					t.Errorf("window closed: notices %+v", told)
				}
				if bob.Bot || strings.Join(g.Abandoned, ",") != "bob" {
					t.Errorf("window closed: bob %+v, abandoned %v", bob, g.Abandoned)
				}
			case "bot":
				if kinds(told) != "unreachable:ann,cyd," || !strings.Contains(told[0].Text, "the computer plays the seat from now on") {
					t.Errorf("window closed: notices %+v", told)
				}
				if got := holders(g, "bob"); !bob.Bot || got != "bob@example.org@1-2:unreachable bot@3" {
					t.Errorf("window closed: bob %+v, history %q", bob, got)
				}
			case "open":
				if kinds(told) != "unreachable:ann,cyd," || !strings.Contains(told[0].Text, "the seat is open for anyone to take (send JOIN g)") {
					t.Errorf("window closed: notices %+v", told)
				}
				if _, err := svc.Join(ctx, "g", game.PlayerSpec{Name: "dan", Email: "dan@example.org"}); err != nil {
					t.Fatalf("JOIN after the window: %v", err)
				}
				g = mustGet(t, svc, "g")
				if p, _ := g.PlayerByEmail("dan@example.org"); p.Name != "bob" {
					t.Errorf("dan's seat after JOIN: %+v", p)
				}
			}
			p, _ := g.PlayerByName("bob")
			spells := p.Holders[0].Bounces
			if len(spells) != 1 || spells[0].Ended != "abandoned" || len(spells[0].Defaults) != 2 || spells[0].Defaults[0] != 1 || spells[0].Defaults[1] != 2 {
				t.Errorf("bob's spell of bouncing: %+v", spells)
			}
			if again, _ := svc.MarkReachable(ctx, "bob@example.org", []string{"g"}); len(again) != 0 {
				t.Errorf("writing after the window gave something back: %+v", again)
			}
			verifyClean(t, svc, "g")
		})
	}
}

// submitTold submits player's orders in game g and returns how many steps
// they resolved and the notices of the change.
func submitTold(t *testing.T, svc *game.Service, player, text string) (int, []game.Notice) {
	t.Helper()
	var ns []game.Notice
	hook := func(_ store.Tx, c *game.Change) error { ns = append(ns, c.Notices...); return nil }
	r, err := svc.Submit(context.Background(), game.Input{Game: "g", Player: player, Text: text, Source: "test"}, hook)
	if err != nil {
		t.Fatal(err)
	}
	return len(r.Steps), ns
}

// TestReachableBeforeTheWindowCloses: bob's mail bounces in a game under
// --abandoned open; after one step played by his defaults he writes again
// (MarkReachable): the seat is his as before, the game waits for him
// again, the GM and the others are told, and he is told what happened:
// since when, which step played his defaults, what the others were told.
// The state survives a restart in the middle, and the log replays.
func TestReachableBeforeTheWindowCloses(t *testing.T) {
	ctx := context.Background()
	open := storetest.Default().New(t)
	st, err := open()
	if err != nil {
		t.Fatal(err)
	}
	clk := &clock{t: time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)}
	svc := game.New(st, []engine.Ruleset{toy.Ruleset()}, game.WithClock(clk.now))
	createWith(t, svc, game.Settings{Early: true, AbandonAfter: 2, Abandoned: "open"}, "ann", "bob", "cyd")
	_, marked, err := svc.MarkUnreachable(ctx, "g", "bob@example.org", "3 hard bounces within 14 days")
	if err != nil || len(marked) != 1 {
		t.Fatalf("mark: %v %+v", err, marked)
	}
	submit(t, svc, "g", "ann", "PUSH 1")
	submit(t, svc, "g", "cyd", "PUSH 1") // step 1: bob's defaults
	// A restart: all of it is in the store.
	st.Close()
	if st, err = open(); err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	svc = game.New(st, []engine.Ruleset{toy.Ruleset()}, game.WithClock(clk.now))
	if b := mustGet(t, svc, "g").Bouncing("bob"); b == nil || len(b.Defaults) != 1 {
		t.Fatalf("after a restart, bob's spell: %+v", b)
	}
	clk.t = clk.t.Add(time.Hour)
	ns, err := svc.MarkReachable(ctx, "bob@example.org", []string{"g", "gone"})
	if err != nil {
		t.Fatal(err)
	}
	if kinds(ns) != "back:ann,cyd, reachable:bob" {
		t.Fatalf("notices %q", kinds(ns))
	}
	if !strings.Contains(ns[0].Text, "bob writes again in g: the seat is theirs as before") {
		t.Errorf("the others are told %q", ns[0].Text)
	}
	want := "Mail to you bounced from Sun 2026-11-01 12:00 UTC, so you got no reports of g. Now that you write again, your seat bob is yours again and I write to you again. " +
		"Meanwhile your defaults were played at step 1; the GM and the other players were told: " + marked[0].Text
	if ns[1].Text != want {
		t.Errorf("bob is told\n%q, want\n%q", ns[1].Text, want)
	}
	g := mustGet(t, svc, "g")
	if len(g.Unreachable) != 0 || g.Bouncing("bob") != nil || len(g.Abandoned) != 0 || len(g.OpenSeats()) != 0 {
		t.Fatalf("after bob wrote: unreachable %v, abandoned %v, open %v", g.Unreachable, g.Abandoned, g.OpenSeats())
	}
	if spell := g.Players[1].Holders[0].Bounces; len(spell) != 1 || spell[0].Ended != "back" {
		t.Errorf("bob's spell %+v", spell)
	}
	// The game waits for bob again, and a stranger finds no seat.
	submit(t, svc, "g", "ann", "PUSH 1")
	if r := submit(t, svc, "g", "cyd", "PUSH 1"); len(r.Steps) != 0 {
		t.Fatal("the game did not wait for bob once he wrote again")
	}
	if r := submit(t, svc, "g", "bob", "PUSH 1"); len(r.Steps) != 1 {
		t.Fatal("bob's orders did not complete the step")
	}
	if _, err := svc.Join(ctx, "g", game.PlayerSpec{Name: "dan", Email: "dan@example.org"}); err == nil {
		t.Error("a stranger took bob's seat")
	}
	if again, _ := svc.MarkReachable(ctx, "bob@example.org", []string{"g"}); len(again) != 0 {
		t.Errorf("a second call: %+v", again)
	}
	verifyClean(t, svc, "g")
}

// TestRollbackForgetsTheBouncedSteps: a step played by defaults while
// mail bounced and then rolled back no longer counts toward the window.
func TestRollbackForgetsTheBouncedSteps(t *testing.T) {
	ctx := context.Background()
	svc, _ := newService(t)
	createWith(t, svc, game.Settings{Early: true, AbandonAfter: 2, Abandoned: "open"}, "ann", "bob", "cyd")
	if _, _, err := svc.MarkUnreachable(ctx, "g", "bob@example.org", "bounces"); err != nil {
		t.Fatal(err)
	}
	submit(t, svc, "g", "ann", "PUSH 1")
	submit(t, svc, "g", "cyd", "PUSH 1")
	if _, _, err := svc.Rollback(ctx, "g", 0, "misread"); err != nil {
		t.Fatal(err)
	}
	g := mustGet(t, svc, "g")
	if b := g.Bouncing("bob"); b == nil || len(b.Defaults) != 0 || len(g.Abandoned) != 0 {
		t.Fatalf("after the rollback: spell %+v, abandoned %v", b, g.Abandoned)
	}
	submit(t, svc, "g", "ann", "PUSH 1")
	submit(t, svc, "g", "cyd", "PUSH 1")
	if g := mustGet(t, svc, "g"); len(g.OpenSeats()) != 0 {
		t.Fatalf("the seat opened after one counted step: %v", g.OpenSeats())
	}
	verifyClean(t, svc, "g")
}

// TestUnreachableAfterAbandoned: a seat abandoned already (its player went
// silent, --abandoned open) whose mail then bounces has nothing kept for
// it: it stays open, and its holder writing again does not say the game
// waits for them.
func TestUnreachableAfterAbandoned(t *testing.T) {
	ctx := context.Background()
	svc, clk := newService(t)
	createWith(t, svc, game.Settings{Early: true, TurnLength: 24 * time.Hour, AbandonAfter: 1, Abandoned: "open"}, "ann", "bob")
	submit(t, svc, "g", "ann", "PUSH 1")
	clk.t = clk.t.Add(25 * time.Hour)
	tick(t, svc)
	if g := mustGet(t, svc, "g"); len(g.OpenSeats()) != 1 {
		t.Fatalf("bob's seat is not open after a step without orders: %v", g.OpenSeats())
	}
	_, ns, err := svc.MarkUnreachable(ctx, "g", "bob@example.org", "bounces")
	if err != nil || kinds(ns) != "unreachable:ann," || !strings.Contains(ns[0].Text, "the seat plays its defaults from now on") {
		t.Fatalf("mark: %v %+v", err, ns)
	}
	g := mustGet(t, svc, "g")
	if g.Bouncing("bob") != nil || len(g.OpenSeats()) != 1 {
		t.Errorf("an abandoned seat kept for its holder: %+v, open %v", g.Bouncing("bob"), g.OpenSeats())
	}
	if back, _ := svc.MarkReachable(ctx, "bob@example.org", []string{"g"}); len(back) != 0 {
		t.Errorf("an abandoned seat given back: %+v", back)
	}
	verifyClean(t, svc, "g")
}
