package daemon_test

import (
	"strings"
	"testing"
)

// TestLongBadOrdersGetAShortAnswer: 1,000 bad lines get a reply that lists
// the first errors and counts the rest, not a quarter-megabyte mail; more
// than 1,000 lines of orders are not read at all.
func TestLongBadOrdersGetAShortAnswer(t *testing.T) {
	h := newHarness(t)
	h.flush()
	h.handle(h.mail("ann@example.org", "[g1 "+h.secret("ann")+"] orders", strings.Repeat("push 9\n", 1000)))
	acks := to(h.flush(), "ann@example.org")
	if len(acks) != 1 {
		t.Fatalf("%d answers", len(acks))
	}
	if len(acks[0]) > 32<<10 || !strings.Contains(acks[0], "and 950 more errors") || !strings.Contains(acks[0], "line 50, you wrote") {
		t.Fatalf("answer of %d bytes:\n%.600s", len(acks[0]), acks[0])
	}
	h.handle(h.mail("ann@example.org", "[g1 "+h.secret("ann")+"] orders", strings.Repeat("push 9\n", 10000)))
	acks = to(h.flush(), "ann@example.org")
	if len(acks) != 1 || len(acks[0]) > 8<<10 || !strings.Contains(acks[0], "line 1001, you wrote: push 9") ||
		!strings.Contains(acks[0], "your mail holds 10000 lines of orders; I read at most 1000") {
		t.Fatalf("10,000 lines: %q", acks)
	}
}
