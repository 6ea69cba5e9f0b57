package daemon_test

import (
	"context"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"orrery/engine"
	"orrery/engine/enginetest/toy"
	"orrery/pbem/daemon"
)

// TestOrdersAheadByMail: ann sends orders for turn 2 during turn 1 (then
// replaces them), bob orders for NEXT that will not fit. The acks say so;
// ORDERS g1 lists what ann holds; when turn 2 opens bob is told at once,
// ann's orders are hers, and the turn resolves with them. (The harness's
// race ends in turn 2 or 3: no later turn is sure to come.)
func TestOrdersAheadByMail(t *testing.T) {
	h := newHarness(t)
	h.flush()
	ann, bob := "[g1 "+h.secret("ann")+"] later", "[g1 "+h.secret("bob")+"] later"
	one(t, to(h.say("ann@example.org", ann, "ORDERS TURN 2\npush 1"), "ann@example.org"), "ann",
		"Your orders for turn 2 of game g1 are held", "push 1")
	h.handle(h.mail("ann@example.org", ann, "ORDERS g1 TURN 2\npush 3"))
	h.flush()
	if h.answered("ann") {
		t.Fatal("orders for turn 2 answered turn 1")
	}
	h.handle(h.mail("ann@example.org", ann, "ORDERS g1"))
	if m := to(h.flush(), "ann@example.org"); len(m) != 1 || !strings.Contains(m[0], "TURN 2") || !strings.Contains(m[0], "push 3") || strings.Contains(m[0], "push 1") {
		t.Fatalf("ann's list of held orders: %q", m)
	}
	one(t, to(h.say("bob@example.org", bob, "ORDERS NEXT\npush 9"), "bob@example.org"), "bob", "turn 2 of game g1 are held")
	h.handle(h.mail("ann@example.org", ann, "push 1"))
	h.handle(h.mail("bob@example.org", bob, "push 1"))
	sent := h.flush()
	var told, applied bool
	var receipt []string // the applied notice's receipt and its shell check
	for _, m := range to(sent, "ann@example.org") {
		if strings.Contains(m, "Your orders held for turn 2 of game g1 are now your orders for it") && strings.Contains(m, "PUSH 3") {
			applied, receipt = true, receiptRE.FindStringSubmatch(m)
		}
	}
	if !applied {
		t.Fatalf("ann was not told her held orders are in: %q", to(sent, "ann@example.org"))
	}
	if receipt == nil {
		t.Fatalf("the notice of ann's held orders applied carries no receipt: %q", to(sent, "ann@example.org"))
	}
	if _, err := exec.LookPath("sh"); err == nil {
		if out, err := exec.Command("sh", "-c", receipt[2]).Output(); err != nil || !strings.HasPrefix(string(out), receipt[1]+" ") {
			t.Errorf("%s prints %q (%v), the receipt is %s", receipt[2], out, err, receipt[1])
		}
	}
	for _, m := range to(sent, "bob@example.org") {
		told = told || strings.Contains(m, "Your orders held for turn 2 of game g1 no longer fit") && strings.Contains(m, "line 2: PUSH")
	}
	if !told {
		t.Fatalf("bob was not told that his orders for turn 2 no longer fit: %q", to(h.srv.Sent(), "bob@example.org"))
	}
	if h.answered("bob") || !h.answered("ann") {
		t.Fatal("turn 2 opened without ann's held orders, or with bob's")
	}
	h.handle(h.mail("bob@example.org", bob, "push 1"))
	var used bool
	for _, m := range to(h.flush(), "bob@example.org") {
		used = used || strings.Contains(m, "ann pushes 3+")
	}
	if !used {
		t.Fatal("turn 2 did not resolve with ann's held orders")
	}
	g, err := h.d.Service().Get(context.Background(), "g1")
	if err != nil {
		t.Fatal(err)
	}
	_, facts, err := h.d.Service().Facts(context.Background(), "g1", "ann")
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, f := range facts {
		for _, p := range f.Inputs {
			found = found || p.Hash == receipt[1]
		}
	}
	if !found && g.DiceScheme >= 2 {
		t.Errorf("the receipt %s of ann's held orders is not among the parts of any step", receipt[1])
	}
}

// TestInspectSaysWhatOrdersAreFor: orrery mail check tells a PREVIEW's
// orders and orders for a later turn from orders for the step.
func TestInspectSaysWhatOrdersAreFor(t *testing.T) {
	for body, want := range map[string]string{
		"push 1":                 "",
		"PREVIEW\npush 1":        "preview",
		"ORDERS TURN 4\npush 1":  "turn 4",
		"ORDERS g1 NEXT\npush 1": "the next turn",
	} {
		raw := "From: ann@example.org\r\nTo: orrery@pbem.test\r\nSubject: [g1 k7f3q]\r\nMessage-ID: <x@example.org>\r\n\r\n" + strings.ReplaceAll(body, "\n", "\r\n") + "\r\n"
		if got := daemon.Inspect([]byte(raw), []engine.Ruleset{toy.Ruleset()}, "toy", 0).OrdersFor; got != want {
			t.Errorf("%q: orders for %q, want %q", body, got, want)
		}
	}
}

// receiptRE finds a mail's RECEIPT section: the hash, and the shell
// command that checks it.
var receiptRE = regexp.MustCompile(`(?s)RECEIPT\n.*?\n  ([0-9a-f]{64})\n.*?\n(  printf .*?sha256sum)\n`)
