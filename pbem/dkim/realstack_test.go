package dkim_test

import (
	"bytes"
	"context"
	"crypto"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/rsa"
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"

	msgdkim "github.com/emersion/go-msgauth/dkim"

	"orrery/engine/store"
	"orrery/engine/store/storetest"
	"orrery/pbem/dkim"
	"orrery/pbem/outbox"
	"orrery/pbem/pbemtest"
)

// dkimpy is Debian's python3-dkim (dkimverify's library), asked to verify
// the message on stdin with the DNS answered from the test's own record:
// an independent verifier, not go-msgauth checking itself.
const dkimpy = `import dkim, sys
rec = sys.argv[1].encode()
msg = sys.stdin.buffer.read()
ok = dkim.verify(msg, dnsfunc=lambda name, timeout=5: rec)
sys.exit(0 if ok else 1)
`

func dkimverify(t *testing.T, record string, msg []byte) error {
	t.Helper()
	cmd := exec.Command("/usr/bin/python3", "-c", dkimpy, record)
	cmd.Stdin = bytes.NewReader(msg)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("dkimverify: %v %s", err, out)
	}
	return nil
}

func goVerify(s *dkim.Signer, msg []byte) error {
	vs, err := msgdkim.VerifyWithOptions(bytes.NewReader(msg), &msgdkim.VerifyOptions{
		LookupTXT: func(string) ([]string, error) { return []string{s.Record()}, nil }})
	if err != nil {
		return err
	}
	if len(vs) != 1 {
		return fmt.Errorf("%d signatures", len(vs))
	}
	return vs[0].Err
}

// TestSignedThroughPostfixAndDovecot sends a signed report mail through
// the real Postfix into Dovecot, reads it back over IMAP, and verifies it
// with go-msgauth and with python3-dkim; the same mail with its
// List-Unsubscribe altered fails both.
func TestSignedThroughPostfixAndDovecot(t *testing.T) {
	s, ok := pbemtest.RealStackFromEnv()
	if !ok {
		t.Skip(pbemtest.RealStackHowTo)
	}
	if _, err := exec.Command("/usr/bin/python3", "-c", "import dkim").CombinedOutput(); err != nil {
		t.Skip("python3-dkim is not installed (apt-get install python3-dkim)")
	}
	rk, _ := rsa.GenerateKey(rand.Reader, 2048)
	_, ek, _ := ed25519.GenerateKey(rand.Reader)
	for name, key := range map[string]crypto.Signer{"rsa2048": rk, "ed25519": ek} {
		t.Run(name, func(t *testing.T) {
			signer, err := dkim.New(s.Domain, "orrery", key)
			if err != nil {
				t.Fatal(err)
			}
			rcpt := fmt.Sprintf("dkim-%s-%d@%s", name, time.Now().UnixNano(), s.Domain)
			st := storetest.Open(t, storetest.Bolt)
			q := outbox.New(st, &outbox.SMTP{Addr: s.SMTP, TLS: "none", DKIM: signer}, outbox.Options{})
			m := outbox.Mail{From: "Orrery <orrery@" + s.Domain + ">", To: []string{rcpt}, Subject: "[g1] Turn 2, race: report for ann",
				Text: strings.Repeat("ann      -------*\nbob      ------*\n", 40), HTML: "<pre>ann -------*</pre>", Auto: "auto-generated",
				Kind: "report", Game: "g1", InReplyTo: "game-g1.orrery@" + s.Domain, References: []string{"game-g1.orrery@" + s.Domain},
				Files: []outbox.File{{Name: "report.json", ContentType: "application/json", Data: []byte(`{"turn":2}`)}},
				Headers: map[string]string{"List-Id": "<g1.orrery." + s.Domain + ">",
					"List-Unsubscribe":      "<https://games." + s.Domain + "/unsubscribe/YW5uQGV4YW1wbGUub3JnAGcxAHJlcG9ydHM.1sN1IvKiU4XCJs-7oPgT3g>, <mailto:orrery@" + s.Domain + "?subject=UNSUBSCRIBE%20YW5uQGV4YW1wbGUub3JnAGcxAHJlcG9ydHM.1sN1IvKiU4XCJs-7oPgT3g>",
					"List-Unsubscribe-Post": "List-Unsubscribe=One-Click"}}
			ctx := context.Background()
			if err := st.Update(ctx, func(tx store.Tx) error { return q.Enqueue(tx, m) }); err != nil {
				t.Fatal(err)
			}
			if _, err := q.RunOnce(ctx); err != nil {
				t.Fatal(err)
			}
			var got []byte
			for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
				msgs, err := s.Messages(rcpt, "INBOX")
				if err == nil && len(msgs) > 0 {
					got = msgs[0]
					break
				}
			}
			if got == nil {
				t.Fatalf("the mail to %s did not arrive in Dovecot", rcpt)
			}
			if !bytes.Contains(got, []byte("Received:")) {
				t.Errorf("the mail read back did not pass through Postfix:\n%s", got[:min(len(got), 1500)])
			}
			if err := goVerify(signer, got); err != nil {
				t.Errorf("go-msgauth: %v\n%s", err, got[:min(len(got), 3000)])
			}
			if err := dkimverify(t, signer.Record(), got); err != nil {
				t.Errorf("python3-dkim: %v\n%s", err, got[:min(len(got), 3000)])
			}
			altered := bytes.Replace(got, []byte("unsubscribe/YW5u"), []byte("unsubscribe/ZW5u"), 1)
			if bytes.Equal(altered, got) {
				t.Fatal("the List-Unsubscribe URI is not in the mail as read back")
			}
			if goVerify(signer, altered) == nil {
				t.Error("go-msgauth verifies a mail whose List-Unsubscribe was altered")
			}
			if dkimverify(t, signer.Record(), altered) == nil {
				t.Error("python3-dkim verifies a mail whose List-Unsubscribe was altered")
			}
		})
	}
}
