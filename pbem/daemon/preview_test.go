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
	sent := h.say("ann@example.org", "[g1 "+h.secret("ann")+"] try", "PREVIEW\npush 2")
	if len(to(sent, "bob@example.org")) != 0 {
		t.Fatalf("bob was told of ann's preview")
	}
	m := one(t, to(sent, "ann@example.org"), "ann",
		"Preview of your orders", "would do if the step resolved now", "  PUSH 2", "ann pushes 2+", "bob pushes 1+", "not the game's", "2 more previews")
	if strings.Contains(m, "bob pushes 3+") || strings.Contains(m, "Orders received") {
		t.Errorf("ann's preview shows bob's pending orders or took hers:\n%s", m)
	}
	if h.answered("ann") {
		t.Fatal("a preview submitted ann's orders")
	}
	// Alone: the orders she sent (none yet: her default).
	try := "[g1 " + h.secret("ann") + "] try"
	one(t, to(h.say("ann@example.org", try, "PREVIEW g1"), "ann@example.org"), "ann", "your default was tried", "PUSH 1")
	// Bad orders, and the fourth preview of the step.
	one(t, to(h.say("ann@example.org", try, "PREVIEW\npush 9"), "ann@example.org"), "ann", "line 2")
	one(t, to(h.say("ann@example.org", try, "PREVIEW\npush 1"), "ann@example.org"), "ann", "the most I answer")
	if h.answered("ann") {
		t.Fatal("a preview submitted ann's orders")
	}
}
