package daemon_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"orrery/engine/game"
	"orrery/pbem/daemon"
)

// TestTwoDaemonsShareOnePostgres runs two daemons, each with its own
// connection pool, outbox worker and tick, on one PostgreSQL database and
// one mailbox: one reads the mail (the leader), and every mail is answered
// exactly once. Then the leader stops; the standby takes the mailbox over
// within seconds and answers the mails that came meanwhile, once each.
func TestTwoDaemonsShareOnePostgres(t *testing.T) {
	// Both tick often while they share the mail, and the standby polls
	// the queue at the default pace.
	tick := func(c *daemon.Config) { c.TickEvery, c.QueuePoll = 200*time.Millisecond, 0 }
	ctx, srv, a, b := twoWorkers(t, tick)
	g, err := a.d.Service().Create(ctx, game.CreateRequest{ID: "g1", Ruleset: "toy",
		Players: []game.PlayerSpec{{Name: "ann", Email: "ann@example.org"}, {Name: "bob", Email: "bob@example.org"}},
		Options: map[string]string{"finish": "8"}})
	if err != nil {
		t.Fatal(err)
	}
	a.run(ctx, srv)
	b.run(ctx, srv)
	n := 0
	send := func(k int) {
		for range k {
			n++
			raw := fmt.Sprintf("From: ann@example.org\r\nTo: %s\r\nSubject: help %d\r\nMessage-ID: <h%d@example.org>\r\nDate: Sun, 22 Nov 2026 12:00:00 +0000\r\n\r\nHELP\r\n", botAddr, n, n)
			if err := srv.Append(botAddr, "INBOX", []byte(raw)); err != nil {
				t.Fatal(err)
			}
		}
	}
	secret := func(name string) string { p, _ := g.PlayerByName(name); return p.Secret }
	for _, p := range []string{"ann", "bob"} {
		raw := fmt.Sprintf("From: %s@example.org\r\nTo: %s\r\nSubject: [g1 %s] orders\r\nMessage-ID: <o-%s@example.org>\r\nDate: Sun, 22 Nov 2026 12:00:00 +0000\r\n\r\npush 3\r\n", p, botAddr, secret(p), p)
		if err := srv.Append(botAddr, "INBOX", []byte(raw)); err != nil {
			t.Fatal(err)
		}
	}
	send(6)
	wctx, wcancel := context.WithTimeout(ctx, 30*time.Second)
	defer wcancel()
	if _, err := srv.WaitMessages(wctx, botAddr, "Orrery/Processed", 8); err != nil {
		t.Fatalf("the first mails were not all handled: %v", err)
	}
	leader, standby := a, b
	if !a.leading.Load() {
		leader, standby = b, a
	}
	if !leader.leading.Load() || standby.leading.Load() {
		t.Fatalf("leading: a %v, b %v; want exactly one", a.leading.Load(), b.leading.Load())
	}
	leader.stop()
	<-leader.done
	stopped := time.Now()
	send(6)
	if _, err := srv.WaitMessages(wctx, botAddr, "Orrery/Processed", 14); err != nil {
		t.Fatalf("the standby did not take over: %v", err)
	}
	t.Logf("the standby read the mailbox %v after the leader stopped", time.Since(stopped).Round(time.Millisecond))
	if !standby.leading.Load() {
		t.Error("the standby handled the mail without leading")
	}
	// welcome, the ack of the orders, the report, and 12 answers to HELP.
	if _, err := srv.WaitMessages(wctx, "ann@example.org", "INBOX", 15); err != nil {
		t.Fatal(err)
	}
	if n := settle(t, standby); n != 0 {
		t.Errorf("the outbox holds %d mails once all 15 came: a mail answered twice", n)
	}
	if msgs, _ := srv.Messages("ann@example.org", "INBOX"); len(msgs) != 15 {
		t.Errorf("ann got %d mails, want 15: a mail answered twice, or not at all", len(msgs))
	}
	if got, err := standby.d.Service().Get(ctx, "g1"); err != nil || got.Step != 1 {
		t.Errorf("g1 is at step %v (%v), want 1: both orders applied, once", got.Step, err)
	}
}
