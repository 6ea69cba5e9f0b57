package daemon_test

import (
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// TestAckCarriesReceipt sends orders by mail: the ack gives their receipt
// and the shell command that checks it, the command (run by /bin/sh, as
// mailed, folded lines and all) prints the receipt, and the step's report
// lists the same hash among its parts.
func TestAckCarriesReceipt(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	h := newHarness(t)
	h.flush()
	acks := to(h.say("ann@example.org", "[g1 "+h.secret("ann")+"] orders", "push 2"), "ann@example.org")
	if len(acks) != 1 {
		t.Fatalf("%d acks", len(acks))
	}
	m := regexp.MustCompile(`(?s)RECEIPT\n.*?\n  ([0-9a-f]{64})\n.*?\n(  printf .*?sha256sum)\n`).FindStringSubmatch(acks[0])
	if m == nil {
		t.Fatalf("the ack has no receipt:\n%s", acks[0])
	}
	receipt, cmd := m[1], m[2]
	if !strings.Contains(cmd, "'ann push:ann sent'") || !strings.Contains(cmd, "'salt ") || !strings.Contains(cmd, "'PUSH 2'") {
		t.Errorf("the command does not hash ann's salted part: %s", cmd)
	}
	out, err := exec.Command(sh, "-c", cmd).Output()
	if err != nil || !strings.HasPrefix(string(out), receipt+" ") {
		t.Fatalf("%s prints %q (%v), the receipt is %s", cmd, out, err, receipt)
	}
	reports := to(h.say("bob@example.org", "[g1 "+h.secret("bob")+"] orders", "push 3"), "ann@example.org")
	if len(reports) != 1 || !strings.Contains(reports[0], "    "+receipt+"\n") {
		t.Fatalf("ann's report does not list her receipt %s:\n%s", receipt, reports)
	}
}
