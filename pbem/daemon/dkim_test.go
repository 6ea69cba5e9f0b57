package daemon_test

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"strings"
	"testing"

	"github.com/emersion/go-msgauth/dkim"

	"orrery/pbem/daemon"
	"orrery/pbem/imapin"
)

// With verify_dkim, only mail signed by the sender's domain is applied; a
// forged sender gets nothing applied and no answer (no backscatter).
func TestVerifyDKIM(t *testing.T) {
	pub, priv, _ := ed25519.GenerateKey(rand.Reader)
	records := map[string]string{"s1._domainkey.example.org": "v=DKIM1; k=ed25519; p=" + base64.StdEncoding.EncodeToString(pub),
		"s1._domainkey.evil.org": "v=DKIM1; k=ed25519; p=" + base64.StdEncoding.EncodeToString(pub)}
	h := newHarness(t, func(c *daemon.Config) {
		c.VerifyDKIM = true
		c.LookupTXT = func(name string) ([]string, error) {
			if r, ok := records[name]; ok {
				return []string{r}, nil
			}
			return nil, errors.New("no such record")
		}
	})
	h.flush()
	sign := func(m imapin.Message, domain string) imapin.Message {
		var out bytes.Buffer
		if err := dkim.Sign(&out, bytes.NewReader(m.Raw), &dkim.SignOptions{Domain: domain, Selector: "s1", Signer: priv}); err != nil {
			t.Fatal(err)
		}
		m.Raw = out.Bytes()
		return m
	}
	subj := "[g1 " + h.secret("ann") + "]"
	if d := h.handle(h.mail("ann@example.org", subj, "push 1")); d != imapin.Rejected {
		t.Errorf("unsigned: %v", d)
	}
	if d := h.handle(sign(h.mail("ann@example.org", subj, "push 2"), "evil.org")); d != imapin.Rejected {
		t.Errorf("signed by another domain: %v", d)
	}
	if a := to(h.flush(), "ann@example.org"); len(a) != 0 {
		t.Errorf("answered a forged sender: %q", a)
	}
	if d := h.handle(sign(h.mail("ann@example.org", subj, "push 3"), "example.org")); d != imapin.Processed {
		t.Errorf("signed: %v", d)
	}
	if a := to(h.flush(), "ann@example.org"); len(a) != 1 || !strings.Contains(a[0], "PUSH 3") {
		t.Errorf("ack of the signed mail: %q", a)
	}
}
