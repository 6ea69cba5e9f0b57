package policy

import (
	"bytes"
	"crypto/ed25519"
	"encoding/base64"
	"errors"
	"strings"
	"testing"

	"github.com/emersion/go-msgauth/dkim"
)

func TestVerifyDKIM(t *testing.T) {
	pub, priv, err := ed25519.GenerateKey(bytes.NewReader(bytes.Repeat([]byte{7}, 64)))
	if err != nil {
		t.Fatal(err)
	}
	record := "v=DKIM1; k=ed25519; p=" + base64.StdEncoding.EncodeToString(pub)
	lookup := func(name string) ([]string, error) {
		if name == "s1._domainkey.example.org" {
			return []string{record}, nil
		}
		return nil, errors.New("no such record")
	}
	sign := func(from, body string) []byte {
		msg := "From: Ann <" + from + ">\r\nTo: orrery@example.net\r\nSubject: [demo1] orders\r\n\r\n" + body
		var out bytes.Buffer
		if err := dkim.Sign(&out, strings.NewReader(msg), &dkim.SignOptions{Domain: "example.org", Selector: "s1", Signer: priv}); err != nil {
			t.Fatal(err)
		}
		return out.Bytes()
	}
	good := sign("ann@example.org", "hold\r\n")
	tests := []struct {
		name string
		raw  []byte
		from string
		want string // substring of the error; "" = pass
	}{
		{"valid and aligned", good, "ann@example.org", ""},
		{"parent domain aligns", sign("ann@mail.example.org", "hold\r\n"), "ann@mail.example.org", ""},
		{"body changed", bytes.Replace(good, []byte("hold"), []byte("move"), 1), "ann@example.org", "d=example.org"},
		{"other domain", sign("ann@evil.example", "hold\r\n"), "ann@evil.example", "does not match evil.example"},
		{"unsigned", []byte("From: ann@example.org\r\n\r\nhold\r\n"), "ann@example.org", "no DKIM signature"},
		{"no domain", good, "ann", "has no domain"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := VerifyDKIM(tc.raw, tc.from, lookup)
			if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
				t.Errorf("VerifyDKIM = %v, want %q", err, tc.want)
			}
		})
	}
	failing := func(string) ([]string, error) { return nil, errors.New("dns down") }
	if err := VerifyDKIM(good, "ann@example.org", failing); err == nil {
		t.Error("a failing DNS lookup must not pass")
	}
}
