package outbox_test

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/rsa"
	"testing"

	msgdkim "github.com/emersion/go-msgauth/dkim"

	"orrery/pbem/dkim"
	"orrery/pbem/outbox"
	"orrery/pbem/pbemtest"
)

// signedReport is a report mail as the daemon queues it, with the
// one-click unsubscribe headers.
func signedReport() outbox.Mail {
	m := reportMail(1)
	m.Headers = map[string]string{"List-Id": "<g1.orrery.pbem.test>",
		"List-Unsubscribe":      "<https://games.pbem.test/unsubscribe/YW5uQGV4YW1wbGUub3JnAGcxAHJlcG9ydHM.1sN1IvKiU4XCJs-7oPgT3g>, <mailto:bot@pbem.test?subject=UNSUBSCRIBE%20YW5uQGV4YW1wbGUub3JnAGcxAHJlcG9ydHM.1sN1IvKiU4XCJs-7oPgT3g>",
		"List-Unsubscribe-Post": "List-Unsubscribe=One-Click"}
	return m
}

func verifyDKIM(raw []byte, s *dkim.Signer) error {
	vs, err := msgdkim.VerifyWithOptions(bytes.NewReader(raw), &msgdkim.VerifyOptions{
		LookupTXT: func(string) ([]string, error) { return []string{s.Record()}, nil }})
	if err != nil {
		return err
	}
	if len(vs) != 1 {
		return msgdkim.ErrTooManySignatures
	}
	return vs[0].Err
}

// TestSendsSigned: with SMTP.DKIM set, the mail the server receives (a
// report: HTML, an attachment, the List-* headers) verifies, and one
// whose List-Unsubscribe is altered does not.
func TestSendsSigned(t *testing.T) {
	_, key, _ := ed25519.GenerateKey(rand.Reader)
	s, err := dkim.New("pbem.test", "orrery", key)
	if err != nil {
		t.Fatal(err)
	}
	srv := pbemtest.StartT(t, pbemtest.Options{})
	st := openStore(t)
	smtp := sender(srv)
	smtp.DKIM = s
	q := outbox.New(st, smtp, outbox.Options{})
	enqueue(t, st, q, signedReport())
	if _, err := q.RunOnce(context.Background()); err != nil {
		t.Fatal(err)
	}
	sent := srv.Sent()
	if len(sent) != 1 {
		t.Fatalf("%d mails sent", len(sent))
	}
	raw := sent[0].Data
	if err := verifyDKIM(raw, s); err != nil {
		t.Fatalf("the mail sent does not verify: %v\n%s", err, raw[:min(len(raw), 2000)])
	}
	altered := bytes.Replace(raw, []byte("unsubscribe/YW5u"), []byte("unsubscribe/ZW5u"), 1)
	if bytes.Equal(altered, raw) {
		t.Fatal("the List-Unsubscribe URI is not in the mail as written")
	}
	if err := verifyDKIM(altered, s); err == nil {
		t.Error("a mail whose List-Unsubscribe was altered still verifies")
	}
}

// BenchmarkComposeSigned is what DKIM adds to a turn mail: composing a
// report of the daemon's size (docs/benchmarks.md) alone, and composed and
// signed with RSA-2048 and with Ed25519 (the mail is written once more to
// be signed).
func BenchmarkComposeSigned(b *testing.B) {
	rk, _ := rsa.GenerateKey(rand.Reader, 2048)
	_, ek, _ := ed25519.GenerateKey(rand.Reader)
	rs, _ := dkim.New("pbem.test", "orrery", rk)
	es, _ := dkim.New("pbem.test", "orrery", ek)
	m := signedReport()
	for _, c := range []struct {
		name string
		s    outbox.Signer
	}{{"unsigned", nil}, {"rsa2048", rs}, {"ed25519", es}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			var buf bytes.Buffer
			for b.Loop() {
				msg, err := outbox.Compose(m)
				if err != nil {
					b.Fatal(err)
				}
				if c.s != nil {
					if err := outbox.Sign(msg, c.s); err != nil {
						b.Fatal(err)
					}
				}
				buf.Reset()
				msg.WriteTo(&buf)
			}
		})
	}
}
