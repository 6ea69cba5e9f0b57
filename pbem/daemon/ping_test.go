package daemon_test

import (
	"crypto/ed25519"
	"crypto/rand"
	"strings"
	"testing"

	"orrery/pbem/dkim"
	"orrery/pbem/imapin"
	"orrery/pbem/pbemtest"
)

// TestPingSaysTheVerdicts: PING's answer names the address the daemon saw,
// the DMARC verdict as it read it (a valid aligned DKIM signature, or
// none) and the domain's policy, that the mail is accepted under
// sender_auth, and the address to add to one's contacts.
func TestPingSaysTheVerdicts(t *testing.T) {
	_, key, _ := ed25519.GenerateKey(rand.Reader)
	signer, err := dkim.New("example.org", "s1", key)
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, byDMARC(pbemtest.DNS{"_dmarc.example.org": "v=DMARC1; p=none", "s1._domainkey.example.org": signer.Record()}))
	h.flush()
	answer := func(m imapin.Message) string {
		t.Helper()
		h.handle(m)
		got := to(h.flush(), "ann@example.org")
		if len(got) != 1 {
			t.Fatalf("%d answers to PING", len(got))
		}
		return strings.Join(strings.Fields(got[0]), " ")
	}
	plain := answer(h.mail("ann@example.org", "ping", "PING"))
	for _, want := range []string{"Your mail reached me from ann@example.org.", "No DKIM signature or SPF result aligned with your domain example.org vouches for it.",
		"DMARC policy p=none", "(sender_auth dmarc) I accept your mail", "Add orrery@pbem.test to your contacts"} {
		if !strings.Contains(plain, want) {
			t.Errorf("PING's answer does not say %q:\n%s", want, plain)
		}
	}
	m := h.mail("ann@example.org", "ping", "PING")
	if m.Raw, err = signer.SignMessage(m.Raw); err != nil {
		t.Fatal(err)
	}
	signed := answer(m)
	if !strings.Contains(signed, "It is authenticated: a valid DKIM signature of example.org vouches for your domain example.org") {
		t.Errorf("PING's answer to a signed mail does not say it is authenticated:\n%s", signed)
	}
}
