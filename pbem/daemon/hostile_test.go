package daemon_test

import (
	"context"
	"strings"
	"testing"
)

// A mail whose header holds a subject or an address far longer than any
// client writes is handled once, like any other: the daemon's records
// keyed by address and subject (rate limits, ping-pong) must not refuse
// such a key (bbolt's keys end at 32 KB) and leave the mail to be retried
// for ever.
func TestHugeSubjectAndAddress(t *testing.T) {
	h := newHarness(t)
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
	if n := len(to(h.flush(), "ann@example.org")); n != 2 {
		t.Errorf("ann got %d answers; want one to the 100 KB subject and one to the mail with the long Message-ID, seen once", n)
	}
}
