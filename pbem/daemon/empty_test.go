package daemon_test

import (
	"strings"
	"testing"
)

// TestEmptyGameMailIsEmptyOrders: a reply to a game mail with nothing but a
// signature is empty orders (a pass where the rules allow it), not a request
// for HELP that would leave the game waiting for that player for ever.
func TestEmptyGameMailIsEmptyOrders(t *testing.T) {
	h := newHarness(t)
	h.flush()
	h.handle(h.mail("ann@example.org", "Re: [g1 "+h.secret("ann")+"] report", "\n\n-- \nAnn"))
	acks := to(h.flush(), "ann@example.org")
	if len(acks) != 1 || !strings.Contains(acks[0], "Orders received") || strings.Contains(acks[0], "commands you can send") {
		t.Fatalf("ann's empty reply got %q", acks)
	}
	g, err := h.d.Service().Get(t.Context(), "g1")
	if err != nil {
		t.Fatal(err)
	}
	if w := g.Waiting(); len(w) != 1 || w[0] != "bob" {
		t.Fatalf("after ann's empty orders the game waits for %v, want bob only", w)
	}
}
