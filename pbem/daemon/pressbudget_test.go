package daemon_test

import (
	"context"
	"testing"
	"time"

	"orrery/pbem/daemon"
	"orrery/pbem/settings"
)

// TestPressBudget: a seat's press is relayed up to Config.PressPerDay times
// in any 24 hours; the next is refused, nothing of it relayed, with the
// limit and the time it may go named, in the sender's language; a day
// after the first, press goes again.
func TestPressBudget(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	h := newHarness(t, func(c *daemon.Config) {
		c.Now = func() time.Time { return now }
		c.RepliesPerHour = 1000
		c.PressPerDay = 3
	})
	h.flush()
	ann := "[g1 " + h.secret("ann") + "]"
	press := func(text string) string { return "PRESS TO bob\n" + text + "\nEND\n" }
	h.handle(h.mail("ann@example.org", ann, press("one")+press("two")))
	now = now.Add(time.Hour)
	h.handle(h.mail("ann@example.org", ann, press("three")))
	sent := h.flush()
	if n := len(to(sent, "bob@example.org")); n != 3 {
		t.Fatalf("bob got %d press mails within the budget, want 3", n)
	}
	now = now.Add(time.Hour)
	h.handle(h.mail("ann@example.org", ann, press("four, one too many")))
	sent = h.flush()
	if b := to(sent, "bob@example.org"); len(b) != 0 {
		t.Errorf("press over the budget was relayed: %q", b)
	}
	says(t, to(sent, "ann@example.org"), "ann", "3 press messages", "game g1", "Mon 2026-11-23 12:00 UTC")
	// In Russian, with the time in the reader's zone.
	if _, err := settings.Put(context.Background(), h.st, "ann@example.org", settings.Lang, "ru"); err != nil {
		t.Fatal(err)
	}
	h.handle(h.mail("ann@example.org", ann, press("five")))
	says(t, to(h.flush(), "ann@example.org"), "ann", "3 сообщения прессы", "g1", "пн 2026-11-23 12:00 UTC")
	// A day after the first press, the budget has room again.
	now = time.Date(2026, 11, 23, 12, 0, 1, 0, time.UTC)
	if n := len(to(h.say("ann@example.org", ann, press("six")), "bob@example.org")); n != 1 {
		t.Errorf("a day later bob got %d press mails, want 1", n)
	}
}
