package game

import (
	"context"
	"strings"
	"testing"
	"time"

	"orrery/engine"
	"orrery/engine/enginetest/toy"
	"orrery/engine/store/storetest"
)

// Under --abandoned bot, the player the bot took a seat from gets it back
// by writing with their secret within the return window, with a summary
// of what the bot did; after the window, or with another secret, not.
func TestBotGivesTheSeatBack(t *testing.T) {
	for _, k := range storetest.Kinds() {
		t.Run(k.Name, func(t *testing.T) {
			now := utc(2026, 6, 1, 12, 0)
			svc := New(storetest.Open(t, k), []engine.Ruleset{toy.Ruleset()}, WithClock(func() time.Time { return now }))
			ctx := context.Background()
			twoSeats(t, svc, "a", Settings{Early: true, TurnLength: time.Hour, AbandonAfter: 1, Abandoned: "bot", ReturnWindow: 2})
			g, _ := svc.Get(ctx, "a")
			bob, _ := g.PlayerByName("bob")
			id := "a"
			round := func() {
				t.Helper()
				if _, err := svc.Submit(ctx, Input{Game: id, Player: "ann", Text: "PUSH 1", Source: "test"}); err != nil {
					t.Fatal(err)
				}
				if g, _ := svc.Get(ctx, id); !isBot(g, "bob") {
					now = now.Add(time.Hour)
					if _, err := svc.Tick(ctx); err != nil {
						t.Fatal(err)
					}
				}
			}
			round() // bob misses step 1: the bot takes his seat
			if g, _ = svc.Get(ctx, "a"); !isBot(g, "bob") {
				t.Fatal("the bot did not take bob's seat")
			}
			if name, _, err := svc.ReturnSeat(ctx, "a", "bob@example.org", "wrong"); err != nil || name != "" {
				t.Fatalf("another secret got the seat back: %q %v", name, err)
			}
			round() // the bot plays a turn
			name, ns, err := svc.ReturnSeat(ctx, "a", "Bob@example.org", bob.Secret)
			if err != nil || name != "bob" {
				t.Fatalf("ReturnSeat: %q %v", name, err)
			}
			g, _ = svc.Get(ctx, "a")
			p, _ := g.PlayerByName("bob")
			if p.Bot || p.Email != "bob@example.org" || p.Secret != bob.Secret {
				t.Fatalf("bob's seat: %+v", p)
			}
			if n := len(p.Holders); n != 3 || p.Holders[1].Ended != "returned" || !p.Holders[1].Bot {
				t.Fatalf("holders %+v", p.Holders)
			}
			if len(ns) != 2 || !strings.Contains(ns[0].Text, "The bot played it for") || ns[0].To[0] != "bob" {
				t.Fatalf("notices %+v", ns)
			}
			// In game b the bot plays two turns of bob's seat: too late.
			id = "b"
			twoSeats(t, svc, "b", Settings{Early: true, TurnLength: time.Hour, AbandonAfter: 1, Abandoned: "bot", ReturnWindow: 2})
			g, _ = svc.Get(ctx, "b")
			bob, _ = g.PlayerByName("bob")
			round()
			round()
			round()
			if g, _ = svc.Get(ctx, "b"); !isBot(g, "bob") || g.Over() {
				t.Fatal("the bot does not play bob's seat in b")
			}
			if name, _, err := svc.ReturnSeat(ctx, "b", "bob@example.org", bob.Secret); err != nil || name != "" {
				t.Fatalf("after the window: %q %v", name, err)
			}
		})
	}
}
