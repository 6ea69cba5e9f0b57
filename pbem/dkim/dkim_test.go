package dkim

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/emersion/go-msgauth/dkim"
)

const message = "From: Orrery <orrery@example.org>\r\n" +
	"To: ann@example.net\r\n" +
	"Subject: [demo1] Turn 3\r\n" +
	"Date: Mon, 23 Nov 2026 18:00:00 +0000\r\n" +
	"Message-ID: <abc.demo1.orrery@example.org>\r\n" +
	"List-Unsubscribe: <https://games.example.org/unsubscribe/TOKEN>, <mailto:orrery@example.org?subject=UNSUBSCRIBE%20TOKEN>\r\n" +
	"List-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n" +
	"List-Id: <demo1.orrery.example.org>\r\n" +
	"MIME-Version: 1.0\r\n" +
	"Content-Type: text/plain; charset=UTF-8\r\n" +
	"\r\n" +
	"Your orders for turn 3 are due.\r\n"

// Keys are made once: RSA-2048 takes a while.
var rsaKey, _ = rsa.GenerateKey(rand.Reader, 2048)
var _, edKey, _ = ed25519.GenerateKey(rand.Reader)

// verify checks msg with go-msgauth, the DNS answered with s's record.
func verify(t *testing.T, s *Signer, msg []byte) error {
	t.Helper()
	vs, err := dkim.VerifyWithOptions(bytes.NewReader(msg), &dkim.VerifyOptions{LookupTXT: func(name string) ([]string, error) {
		if name != s.Name() {
			t.Errorf("looked up %s, want %s", name, s.Name())
		}
		return []string{s.Record()}, nil
	}})
	if err != nil {
		return err
	}
	if len(vs) != 1 {
		t.Fatalf("%d signatures", len(vs))
	}
	return vs[0].Err
}

func TestSignVerifies(t *testing.T) {
	for name, key := range map[string]any{"rsa": rsaKey, "ed25519": edKey} {
		t.Run(name, func(t *testing.T) {
			var s *Signer
			var err error
			switch k := key.(type) {
			case *rsa.PrivateKey:
				s, err = New("example.org", "orrery", k)
			case ed25519.PrivateKey:
				s, err = New("example.org", "orrery", k)
			}
			if err != nil {
				t.Fatal(err)
			}
			signed, err := s.SignMessage([]byte(message))
			if err != nil {
				t.Fatal(err)
			}
			if err := verify(t, s, signed); err != nil {
				t.Fatalf("does not verify: %v\n%s", err, signed)
			}
			h := string(signed[:bytes.Index(signed, []byte("\r\n\r\n"))])
			for _, k := range []string{"from", "subject", "date", "message-id", "to", "list-unsubscribe", "list-unsubscribe-post"} {
				if !strings.Contains(strings.ToLower(h), ":"+k+":") && !strings.Contains(strings.ToLower(h), "h="+k+":") {
					t.Errorf("the signature does not cover %s:\n%s", k, h)
				}
			}
			// Whitespace a relay may change passes (relaxed).
			if err := verify(t, s, bytes.Replace(signed, []byte("Subject: [demo1] Turn 3"), []byte("Subject:  [demo1]  Turn 3 "), 1)); err != nil {
				t.Errorf("relaxed canonicalization: %v", err)
			}
			// Altered or added headers fail.
			for what, altered := range map[string][]byte{
				"List-Unsubscribe altered":      bytes.Replace(signed, []byte("unsubscribe/TOKEN"), []byte("unsubscribe/EVIL"), 1),
				"List-Unsubscribe-Post dropped": bytes.Replace(signed, []byte("List-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n"), nil, 1),
				"Subject altered":               bytes.Replace(signed, []byte("Turn 3\r\n"), []byte("Turn 4\r\n"), 1),
				"body altered":                  bytes.Replace(signed, []byte("are due"), []byte("are late"), 1),
				"Cc added":                      bytes.Replace(signed, []byte("To: ann"), []byte("Cc: eve@example.com\r\nTo: ann"), 1),
			} {
				if err := verify(t, s, altered); err == nil {
					t.Errorf("%s: still verifies", what)
				}
			}
		})
	}
}

func TestLoadAndRecord(t *testing.T) {
	dir := t.TempDir()
	der, _ := x509.MarshalPKCS8PrivateKey(edKey)
	ed := filepath.Join(dir, "ed.pem")
	os.WriteFile(ed, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}), 0o600)
	rs := filepath.Join(dir, "rsa.pem")
	os.WriteFile(rs, pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(rsaKey)}), 0o600)
	for _, f := range []string{ed, rs} {
		s, err := Load("example.org", "orrery", f)
		if err != nil {
			t.Fatal(err)
		}
		if !s.Matches(s.Record()) || !s.Matches(strings.ReplaceAll(s.Record(), "p=", "p= ")) {
			t.Errorf("%s: its own record does not match: %s", f, s.Record())
		}
	}
	s, _ := Load("example.org", "orrery", ed)
	r, _ := Load("example.org", "orrery", rs)
	if s.Matches(r.Record()) || s.Matches("v=DKIM1; p=") {
		t.Error("another key's record matches")
	}
	if _, err := New("example.org", "orrery", (*rsa.PrivateKey)(nil)); err == nil {
		t.Error("no key signs")
	}
	if _, err := Load("example.org", "orrery", filepath.Join(dir, "none.pem")); err == nil {
		t.Error("a missing key file loads")
	}
}

// BenchmarkSign is the cost of signing one mail of a report's size (about
// 20 KB with its HTML part), RSA-2048 and Ed25519.
func BenchmarkSign(b *testing.B) {
	body := strings.Repeat("A line of a turn report, as long as most of them are in a board.\r\n", 300)
	msg := []byte(message + body)
	for name, s := range map[string]*Signer{"rsa2048": must(New("example.org", "orrery", rsaKey)), "ed25519": must(New("example.org", "orrery", edKey))} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := s.Sign(msg); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func must(s *Signer, err error) *Signer {
	if err != nil {
		panic(err)
	}
	return s
}
