package hostile

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"orrery/pbem/inmail"
	"orrery/pbem/pbemtest"
	"orrery/pbem/policy"
)

// TestForgedAuthResultsThroughPostfix is issue 39's fourth attack, through
// the real Postfix's SMTP port (not LMTP, so that its header_checks
// apply): a mail from envelope evil@evil.example that carries a forged
// "Authentication-Results: mx.pbem.test; spf=pass smtp.mailfrom=ann@…",
// From ann and with ann's secret, under sender_auth strict. Postfix must
// strip the forged header and write its own verdict (spf=fail for
// evil.example, scripts/mailstack.sh's fixed table), so the mail is not
// answered as ann and applies nothing. The same mail from ann's own
// envelope gets Postfix's pass and is applied: the silence is Postfix's
// stripping at work, not a set-up that refuses everything.
//
// There is no in-process case: the MTA's stripping is what is tested.
func TestForgedAuthResultsThroughPostfix(t *testing.T) {
	s, ok := pbemtest.RealStackFromEnv()
	if !ok {
		t.Skip(pbemtest.RealStackHowTo)
	}
	e := start(t, backend{real: true, stack: s}, envOptions{
		policy: policy.Config{AuthServID: authServ, SenderAuth: policy.AuthStrict}, dns: pbemtest.DNS{}})
	subj := "[g1 " + e.secret("ann") + "] orders"
	evil := e.addr("evil", "evil.example")
	for i, c := range []struct{ name, hdr string }{
		{"as the attacker wrote it", "Authentication-Results: " + authServ + "; spf=pass smtp.mailfrom=" + e.ann},
		{"in capitals, with a version and a comment", "Authentication-Results: (relayed)\r\n " + strings.ToUpper(authServ) +
			" 1; spf=pass smtp.mailfrom=" + e.ann + "; dkim=pass header.d=example.org"},
	} {
		id, raw := e.msg("Ann <"+e.ann+">", subj, "PUSH 3", c.hdr)
		// A copy to a witness's mailbox shows what Postfix made of it.
		witness := e.addr(fmt.Sprintf("witness%d", i), "example.org")
		e.submit(evil, witness, raw)
		e.checkOwnResults(witness, "spf=fail smtp.mailfrom="+evil)
		e.submit(evil, e.bot, raw)
		e.waitSeen(id)
		e.settle()
		if ms := e.take(); len(ms) != 0 {
			t.Errorf("%s: answered a forged mail: %v to %v", c.name, subjects(ms), recipients(ms))
		}
		e.nothingApplied(id)
	}
	id, raw := e.msg("Ann <"+e.ann+">", subj, "PUSH 3")
	e.submit(e.ann, e.bot, raw)
	e.waitSeen(id)
	e.settle()
	expectOne(t, e.take(), e.ann, "")
	if n := e.applied(id); n != 1 {
		t.Errorf("ann's own mail through Postfix was applied %d times, want 1", n)
	}
}

// submit hands raw to Postfix's SMTP port for rcpt, with envelope sender
// from, as a remote MTA would.
func (e *env) submit(from, rcpt string, raw []byte) {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := e.stack.Submit(ctx, from, rcpt, raw); err != nil {
		e.t.Fatalf("Postfix refused the mail: %v", err)
	}
}

// waitSeen waits until the daemon has handled the mail with Message-ID id
// (answered, refused or filed: it is in the daemon's record of mails).
func (e *env) waitSeen(id string) {
	e.t.Helper()
	for deadline := time.Now().Add(e.settleIn); ; time.Sleep(e.poll) {
		if ok, _ := e.d.Seen(context.Background(), id); ok {
			return
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("the daemon never handled %s", id)
		}
	}
}

// checkOwnResults waits for the one mail in user's mailbox and checks that
// it carries exactly one Authentication-Results header with our id, the
// one Postfix wrote (saying want, and without the key of
// scripts/mailstack.sh's header_checks), right above the Received header
// of Postfix's smtpd.
func (e *env) checkOwnResults(user, want string) {
	e.t.Helper()
	var msgs [][]byte
	for deadline := time.Now().Add(e.settleIn); len(msgs) == 0; time.Sleep(e.poll) {
		if time.Now().After(deadline) {
			e.t.Fatalf("nothing arrived for %s", user)
		}
		msgs, _ = e.srv.messages(user)
	}
	head, _, _ := strings.Cut(string(msgs[0]), "\r\n\r\n")
	head = regexp.MustCompile(`\r?\n[ \t]+`).ReplaceAllString(head, " ") // unfold
	lines := strings.Split(head, "\r\n")
	var ours []int
	for i, l := range lines {
		if strings.HasPrefix(strings.ToLower(l), "authentication-results:") &&
			strings.Contains(strings.ToLower(l), strings.ToLower(authServ)) {
			ours = append(ours, i)
		}
	}
	if len(ours) != 1 {
		e.t.Fatalf("%d Authentication-Results headers with %s arrived, want Postfix's only:\n%s", len(ours), authServ, head)
	}
	got := lines[ours[0]]
	if !strings.Contains(got, want) || strings.Contains(got, "mailstack") {
		e.t.Errorf("the header Postfix wrote: %q; want it to say %q, without the key", got, want)
	}
	if below := ours[0] + 1; below >= len(lines) || !strings.Contains(lines[below], "(Postfix)") {
		e.t.Errorf("Postfix's header is not right above its own Received header:\n%s", head)
	}
	m, err := inmail.Parse(msgs[0], inmail.Options{})
	if err != nil {
		e.t.Fatal(err)
	}
	if r := policy.ReadResults(m.AuthResults, authServ); !r.Trusted {
		e.t.Errorf("Postfix's own header is not believed: %s", r.Why)
	}
}
