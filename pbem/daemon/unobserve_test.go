package daemon_test

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"testing"

	"orrery/pbem/imapin"
	"orrery/pbem/pbemtest"
)

// TestUnobserveNeedsNoConfirmation pins the choice pbem/README.md argues
// ("UNOBSERVE is done at once"): UNOBSERVE acts on one mail, with no round
// trip, because it only takes mail away. What keeps a forger from using it
// unseen: a mail that fails its domain's DMARC policy does nothing, and
// the answer always goes to the observer's own address (never a Reply-To),
// saying how to come back.
func TestUnobserveNeedsNoConfirmation(t *testing.T) {
	pub, _, _ := ed25519.GenerateKey(rand.Reader)
	h := newHarness(t, byDMARC(pbemtest.DNS{"_dmarc.example.org": "v=DMARC1; p=reject",
		"s1._domainkey.example.org": "v=DKIM1; k=ed25519; p=" + base64.StdEncoding.EncodeToString(pub)}))
	ctx := context.Background()
	svc := h.d.Service()
	for _, addr := range []string{"olga@example.org", "pat@example.net"} {
		if _, _, err := svc.Observe(ctx, "g1", addr, true); err != nil {
			t.Fatal(err)
		}
	}
	h.flush()
	observing := func(addr string) bool {
		g, err := svc.Get(ctx, "g1")
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range g.Observers {
			if o == addr {
				return true
			}
		}
		return false
	}
	// Forged in the name of a domain that publishes p=reject: nothing.
	if d := h.handle(h.mail("olga@example.org", "stop", "UNOBSERVE g1", "Reply-To: eve@evil.example")); d != imapin.Rejected {
		t.Errorf("a forged UNOBSERVE was %v", d)
	}
	if sent := h.flush(); len(sent) != 0 || !observing("olga@example.org") {
		t.Errorf("a forged UNOBSERVE from a p=reject domain: %d mails, olga observing: %v", len(sent), observing("olga@example.org"))
	}
	// From a domain without DMARC the From cannot be told from a forgery,
	// and one mail is enough; the answer goes to the observer's address,
	// never to the Reply-To, and says how to come back.
	h.handle(h.mail("pat@example.net", "stop", "UNOBSERVE g1", "Reply-To: eve@evil.example"))
	sent := h.flush()
	if observing("pat@example.net") {
		t.Error("UNOBSERVE did not act at once")
	}
	if e := to(sent, "eve@evil.example"); len(e) != 0 {
		t.Errorf("the answer went to the Reply-To: %q", e)
	}
	says(t, to(sent, "pat@example.net"), "pat", "You no longer receive the reports of game g1", "If you did not ask for this", "OBSERVE g1")
}
