package daemon_test

import (
	"strings"
	"testing"
)

// TestPreviewByMail: PREVIEW with orders answers the sender alone with the
// would-be step (her orders, the others' defaults, dice not the game's),
// submits nothing, and a budget of previews per step refuses the fourth;
// PREVIEW alone tries the orders she sent.
func TestPreviewByMail(t *testing.T) {
	h := newHarness(t)
	h.flush()
	// bob's real orders are in: a preview must not use them.
	h.handle(h.mail("bob@example.org", "[g1 "+h.secret("bob")+"] orders", "push 3"))
	h.flush()
	h.handle(h.mail("ann@example.org", "[g1 "+h.secret("ann")+"] try", "PREVIEW\npush 2"))
	sent := h.flush()
	if len(to(sent, "bob@example.org")) != 0 {
		t.Fatalf("bob was told of ann's preview")
	}
	got := to(sent, "ann@example.org")
	if len(got) != 1 {
		t.Fatalf("%d mails to ann", len(got))
	}
	m := got[0]
	for _, want := range []string{"Preview of your orders", "would do if the step resolved now", "  PUSH 2", "ann pushes 2+", "bob pushes 1+", "not the game's", "2 more previews"} {
		if !strings.Contains(m, want) {
			t.Errorf("ann's preview lacks %q:\n%s", want, m)
		}
	}
	if strings.Contains(m, "bob pushes 3+") || strings.Contains(m, "Orders received") {
		t.Errorf("ann's preview shows bob's pending orders or took hers:\n%s", m)
	}
	if h.answered("ann") {
		t.Fatal("a preview submitted ann's orders")
	}
	// Alone: the orders she sent (none yet: her default).
	h.handle(h.mail("ann@example.org", "[g1 "+h.secret("ann")+"] try", "PREVIEW g1"))
	if m := to(h.flush(), "ann@example.org"); len(m) != 1 || !strings.Contains(m[0], "your default was tried") || !strings.Contains(m[0], "PUSH 1") {
		t.Fatalf("ann's preview of nothing: %q", m)
	}
	h.handle(h.mail("ann@example.org", "[g1 "+h.secret("ann")+"] try", "PREVIEW\npush 9"))
	if m := to(h.flush(), "ann@example.org"); len(m) != 1 || !strings.Contains(m[0], "line 2") {
		t.Fatalf("ann's preview of bad orders: %q", m)
	}
	h.handle(h.mail("ann@example.org", "[g1 "+h.secret("ann")+"] try", "PREVIEW\npush 1"))
	if m := to(h.flush(), "ann@example.org"); len(m) != 1 || !strings.Contains(m[0], "the most I answer") {
		t.Fatalf("ann's fourth preview of the step: %q", m)
	}
	if h.answered("ann") {
		t.Fatal("a preview submitted ann's orders")
	}
}
