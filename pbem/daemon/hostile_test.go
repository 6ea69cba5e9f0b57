package daemon_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"orrery/engine/game"
	"orrery/engine/store"

	"orrery/pbem/daemon"
	"orrery/pbem/outbox"
	"orrery/pbem/pbemtest"
)

// A mail whose header holds a subject or an address far longer than any
// client writes is handled once, like any other: the daemon's records
// keyed by address and subject (rate limits, ping-pong) must not refuse
// such a key (bbolt's keys end at 32 KB) and leave the mail to be retried
// for ever.
func TestHugeSubjectAndAddress(t *testing.T) {
	h := newHarness(t)
	h.flush() // the welcome mails
	for _, c := range []struct{ name, from, subject string }{
		{"a 100 KB subject", "ann@example.org", "[g1 " + h.secret("ann") + "] " + strings.Repeat("very long ", 10000)},
		{"a 40 KB address", strings.Repeat("x", 40000) + "@example.org", "hello " + strings.Repeat("y", 40000)},
	} {
		if _, err := h.d.Handle(context.Background(), h.mail(c.from, c.subject, "PUSH 9")); err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
	}
	long := strings.Repeat("z", 40000) + "@example.org"
	m := h.mail("ann@example.org", "[g1 "+h.secret("ann")+"] orders", "PUSH 2")
	m.Raw = []byte(strings.Replace(string(m.Raw), "Message-ID: <m3@example.org>", "Message-ID: <"+long+">", 1))
	if _, err := h.d.Handle(context.Background(), m); err != nil {
		t.Errorf("a 40 KB Message-ID: %v", err)
	}
	if seen, err := h.d.Seen(context.Background(), long); err != nil || !seen {
		t.Errorf("the mail with a 40 KB Message-ID is not recorded as seen (%v, %v)", seen, err)
	}
	m.UID++
	if _, err := h.d.Handle(context.Background(), m); err != nil {
		t.Errorf("the same again: %v", err)
	}
	sentNow := h.flush()
	if items, _ := outbox.Pending(h.st); len(items) > 0 {
		for _, it := range items {
			t.Logf("still queued: %v %q %v", it.Mail.To, it.Mail.Subject, it.LastError)
		}
	}
	if got := to(sentNow, "ann@example.org"); len(got) != 2 {
		var subjects []string
		for _, m := range got {
			subjects = append(subjects, header([]byte(m), "Subject"))
		}
		t.Errorf("ann got %d answers %q; want one to the 100 KB subject and one to the mail with the long Message-ID, seen once", len(got), subjects)
	}
}

// One mail's answers are bounded: a repeated read command is answered
// once (any command repeated word for word is done once), at most
// ReadsPerMail distinct ones, at most 10 commands that change a game,
// each left out listed with its line; and the whole answer
// fits in MaxReply bytes, cut at a line with a note.
func TestOneMailBounded(t *testing.T) {
	h := newHarness(t, func(c *daemon.Config) { c.ReadsPerMail = 2 })
	h.flush() // the welcome mails
	subj := "[g1 " + h.secret("ann") + "] please"
	a := to(h.say("ann@example.org", subj, "STATUS\nBOARD\nSTATUS g1\nHELP\nRULES toy\nHISTORY 1"), "ann@example.org")
	if len(a) != 1 {
		t.Fatalf("ann got %d mails", len(a))
	}
	for _, want := range []string{"line 5, you wrote: RULES", "line 6, you wrote: HISTORY g1", "one mail gets at most 2 answers"} {
		if !strings.Contains(a[0], want) {
			t.Errorf("the answer lacks %q:\n%s", want, a[0])
		}
	}
	if strings.Contains(a[0], "line 2,") || strings.Contains(a[0], "line 3,") || strings.Contains(a[0], "line 4,") {
		t.Errorf("a repeated read command (BOARD, STATUS g1) or HELP was refused:\n%s", a[0])
	}
	h.handle(h.mail("ann@example.org", subj, strings.Repeat("WAIT\n", 25)))
	// (One WAIT gets an answer and the engine's notice.)
	if a = to(h.flush(), "ann@example.org"); len(a) != 2 || strings.Contains(strings.Join(a, ""), "at most") {
		t.Errorf("WAIT × 25: want one WAIT done, and nothing refused: %d mails, %q", len(a), a)
	}
	var press strings.Builder
	for i := range 12 {
		fmt.Fprintf(&press, "PRESS TO bob\nNews number %d.\nEND\n", i)
	}
	h.handle(h.mail("ann@example.org", subj, press.String()))
	sent := h.flush()
	a = to(sent, "ann@example.org")
	if len(a) != 1 || strings.Count(a[0], "one mail may hold at most 10 commands") != 2 || !strings.Contains(a[0], "line 31,") {
		t.Errorf("12 PRESS: %q", a)
	}
	if n := len(to(sent, "bob@example.org")); n != 10 {
		t.Errorf("bob got %d press mails; want 10", n)
	}

	h = newHarness(t, func(c *daemon.Config) { c.MaxReply = 3000 })
	h.flush()
	a = to(h.say("ann@example.org", subj, "HELP"), "ann@example.org")
	if len(a) != 1 || !strings.Contains(a[0], "The rest is cut: one answer of mine holds at most 3 KiB") {
		t.Fatalf("HELP with MaxReply 3000: %q", a)
	}
	if _, body, _ := strings.Cut(a[0], "\n\n"); len(body) > 3000 {
		t.Errorf("an answer of %d bytes; MaxReply is 3000", len(body))
	}
}

// A limit of one reads as one, in English and in Russian (the plural
// forms come from engine/lang and ru.po): "at most 1 answer", never "1
// answers".
func TestReadsPerMailOfOne(t *testing.T) {
	for _, c := range []struct{ lang, want string }{
		{"", "one mail gets at most 1 answer to HELP"},
		{"ru", "не больше чем на 1 команду HELP"},
	} {
		h := newHarness(t, func(c *daemon.Config) { c.ReadsPerMail = 1 })
		h.flush()
		if c.lang != "" {
			h.handle(h.mail("ann@example.org", "settings", "SET LANG "+c.lang))
			h.flush()
		}
		a := to(h.say("ann@example.org", "[g1 "+h.secret("ann")+"] please", "STATUS\nRULES toy"), "ann@example.org")
		if len(a) != 1 {
			t.Fatalf("LANG %q: ann got %d mails", c.lang, len(a))
		}
		if got := strings.Join(strings.Fields(a[0]), " "); !strings.Contains(got, c.want) {
			t.Errorf("LANG %q: the answer lacks %q:\n%s", c.lang, c.want, a[0])
		}
	}
}

// A JOIN or an OBSERVE is done only when the very address it was asked
// from confirms it within three days; plus-addresses are one person
// except in the domains configured as distinct.
func TestConsent(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	h := newHarness(t, func(c *daemon.Config) {
		c.Now = func() time.Time { return now }
		c.PlusDistinct = []string{"example.net"}
	})
	h.flush()
	observers := func() []string {
		g, _ := h.d.Service().Get(context.Background(), "g1")
		return g.Observers
	}
	code := func(sent []pbemtest.Mail, addr string) string {
		for _, m := range to(sent, addr) {
			if i := strings.Index(m, "CONFIRM "); i >= 0 {
				return m[i+8 : i+24]
			}
		}
		t.Fatalf("no code for %s", addr)
		return ""
	}
	h.handle(h.mail("olga@example.org", "watch", "OBSERVE g1"))
	c := code(h.flush(), "olga@example.org")
	// Another address with olga's code: refused, nothing done.
	h.handle(h.mail("mallory@example.org", "x", "CONFIRM "+c))
	one(t, to(h.flush(), "mallory@example.org"), "mallory", "asked of another address")
	if len(observers()) != 0 {
		t.Fatalf("observers %v after a confirmation from another address", observers())
	}
	// Four days on, the request has lapsed.
	now = now.Add(4 * 24 * time.Hour)
	one(t, to(h.say("olga@example.org", "x", "CONFIRM "+c), "olga@example.org"), "olga", "lapsed unconfirmed")
	// A fresh request, confirmed with its code in a new mail: done, once.
	h.handle(h.mail("olga@example.org", "watch", "OBSERVE g1"))
	c = code(h.flush(), "olga@example.org")
	h.handle(h.mail("olga@example.org", "x", "CONFIRM "+c))
	one(t, to(h.flush(), "olga@example.org"), "olga", "You now receive the public reports of game g1")
	h.handle(h.mail("olga@example.org", "x again", "CONFIRM "+c))
	one(t, to(h.flush(), "olga@example.org"), "olga", "no request of yours waiting")
	// olga+news@ is olga; in example.net, ivan+a@ and ivan+b@ are two.
	h.handle(h.mail("olga+news@example.org", "watch", "OBSERVE g1"))
	one(t, to(h.flush(), "olga+news@example.org"), "olga", "you observe game g1 already, as olga@example.org")
	for _, a := range []string{"ivan+a@example.net", "ivan+b@example.net"} {
		h.handle(h.mail(a, "watch", "OBSERVE g1"))
		h.handle(h.mail(a, "ok", "CONFIRM "+code(h.flush(), a)))
		h.flush()
	}
	if obs := observers(); len(obs) != 3 {
		t.Errorf("observers %v; want olga and both ivans", obs)
	}
}

// A mail whose orders complete a step is answered before the step's
// report, in the orders' own transaction; if the daemon stops before it
// records the mail as seen, the retry must not answer it a second time
// (the seen record's transaction drops the mail's parts, the record of
// that early answer among them, so it is read first).
func TestEarlyAnswerNotRepeatedAfterACrash(t *testing.T) {
	ctx, crash := context.WithCancel(context.Background())
	// The "crash": once ann's orders resolve the step, the context ends,
	// so the mail's seen record (the next transaction) is not written.
	stop := func(tx store.Tx, c *game.Change) error {
		if c.Input != nil && c.Input.Player == "ann" && len(c.Steps) > 0 {
			crash()
		}
		return nil
	}
	h := rig{opts: []game.Option{game.WithHooks(stop)}, game: g1("100")}.start(t)
	d := h.d
	h.flush()
	h.handle(h.mail("bob@example.org", "[g1 "+h.secret("bob")+"] orders", "PUSH 1"))
	m := h.mail("ann@example.org", "[g1 "+h.secret("ann")+"] orders", "PUSH 2")
	if _, err := d.Handle(ctx, m); err == nil {
		t.Fatal("the mail was recorded although the daemon stopped")
	}
	if seen, _ := d.Seen(context.Background(), "m2@example.org"); seen {
		t.Fatal("the mail is recorded as seen: no crash was simulated")
	}
	h.handle(m) // the retry
	acks := 0
	for _, a := range to(h.flush(), "ann@example.org") {
		if strings.Contains(header([]byte(a), "X-Orrery-Kind"), "reply") {
			acks++
		}
	}
	if acks != 1 {
		t.Errorf("ann's mail got %d answers; want 1", acks)
	}
}
