package bounce

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"orrery/engine/store"
)

// TestVERPTokens: an address made for a mail gives back its sequence
// number, whatever the case; any other address, a token changed in one
// character, another key's token or another domain's gives nothing; the
// local part stays within 64 characters for the largest sequence number.
func TestVERPTokens(t *testing.T) {
	v := VERP{Key: []byte("0123456789abcdef0123456789abcdef"), Local: "orrery", Delimiter: "+", Domain: "pbem.test"}
	other := v
	other.Key = []byte("another key, another server.....")
	for _, seq := range []uint64{0, 1, 127, 128, 1 << 20, 1<<64 - 1} {
		a := v.Address(seq)
		if !strings.HasPrefix(a, "orrery+b-") || !strings.HasSuffix(a, "@pbem.test") || a != strings.ToLower(a) {
			t.Errorf("seq %d: address %q", seq, a)
		}
		if local, _, _ := strings.Cut(a, "@"); len(local) > MaxLocalLen || len(local) > LocalLen("orrery", "+") {
			t.Errorf("seq %d: local part of %d characters: %q", seq, len(local), a)
		}
		for _, s := range []string{a, strings.ToUpper(a), "<" + a + ">"} {
			if got, ok := v.Seq(s); !ok || got != seq {
				t.Errorf("Seq(%q) = %d, %v; want %d", s, got, ok, seq)
			}
		}
		if _, ok := other.Seq(a); ok {
			t.Errorf("another key took %q", a)
		}
		local, _, _ := strings.Cut(a, "@")
		for i := len("orrery+b-"); i < len(local); i++ {
			c := byte('a')
			if local[i] == 'a' {
				c = 'b'
			}
			bad := local[:i] + string(c) + local[i+1:] + "@pbem.test"
			if got, ok := v.Seq(bad); ok {
				t.Errorf("a token changed at %d was taken: %q → %d", i, bad, got)
			}
		}
	}
	for _, s := range []string{"orrery@pbem.test", "orrery+b-@pbem.test", "orrery+b-aaaa@pbem.test", "mallory+b-" + strings.TrimPrefix(v.Address(5), "orrery+b-"),
		strings.Replace(v.Address(5), "pbem.test", "evil.example", 1), "", "no address", strings.Repeat("a", 500) + "@pbem.test",
		"orrery+b-" + strings.Repeat("a", 200) + "@pbem.test"} {
		if got, ok := v.Seq(s); ok {
			t.Errorf("Seq(%q) = %d, want none", s, got)
		}
	}
	if (VERP{Local: "orrery", Delimiter: "+", Domain: "pbem.test"}).Address(5) == v.Address(5) {
		t.Error("the token does not depend on the key")
	}
	if _, ok := (VERP{Local: "orrery", Delimiter: "+", Domain: "pbem.test"}).Seq(v.Address(5)); ok {
		t.Error("a VERP without a key took a token")
	}
}

// TestVERPKeyIsMadeOnce: the key is made on first use and read the same
// afterwards; without create, none is made.
func TestVERPKeyIsMadeOnce(t *testing.T) {
	st := openStore(t)
	var none, k1, k2 []byte
	var err error
	st.View(context.Background(), func(tx store.Tx) error { none, err = VERPKey(tx, false); return err })
	if none != nil || err != nil {
		t.Fatalf("a key before any was made: %x, %v", none, err)
	}
	for _, k := range []*[]byte{&k1, &k2} {
		if err := st.Update(context.Background(), func(tx store.Tx) error { *k, err = VERPKey(tx, true); return err }); err != nil {
			t.Fatal(err)
		}
	}
	if len(k1) != 32 || string(k1) != string(k2) {
		t.Errorf("keys %x and %x", k1, k2)
	}
}

// TestEnvelopeRecipients: Dovecot's Delivered-To comes first, then
// X-Original-To, then To; only the header is read.
func TestEnvelopeRecipients(t *testing.T) {
	raw := "Return-Path: <>\r\nDelivered-To: orrery+b-abc@pbem.test\r\nReceived: by x\r\nX-Original-To: orrery+b-def@pbem.test\r\n" +
		"From: MAILER-DAEMON@x\r\nTo: Orrery <orrery+b-ghi@pbem.test>, other@x\r\n\r\nDelivered-To: body@x\r\n"
	got := fmt.Sprint(EnvelopeRecipients([]byte(raw)))
	if want := "[orrery+b-abc@pbem.test orrery+b-def@pbem.test orrery+b-ghi@pbem.test other@x]"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if got := EnvelopeRecipients([]byte("Subject: x\n\nTo: body@x\n")); len(got) != 0 {
		t.Errorf("from the body: %v", got)
	}
}

// TestNoteIsBounded: bounces of one mail count once (a hard one after a
// soft one replaces it); an address keeps MaxEvents events at most, the
// soft ones dropped first; and the record stays small however many are
// noted, with diagnostics as long as a sender cares to write.
func TestNoteIsBounded(t *testing.T) {
	st := openStore(t)
	p := Policy{HardLimit: 5}.WithDefaults()
	t0 := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	note := func(at time.Time, kind Kind, id, diag string) (s State) {
		if err := st.Update(context.Background(), func(tx store.Tx) error {
			var err error
			_, s, err = Note(tx, "bob@x.test", Event{Time: at, Kind: kind.String(), Status: "5.2.2", Diagnostic: diag, MessageID: id}, p)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		return s
	}
	note(t0, Soft, "m1@x", "delayed")
	s := note(t0.Add(time.Minute), Soft, "M1@x", "delayed")
	if h, so := s.Count(); h != 0 || so != 1 {
		t.Errorf("two soft bounces of one mail: %d hard, %d soft", h, so)
	}
	note(t0.Add(2*time.Minute), Hard, "m1@x", "given up")
	s = note(t0.Add(3*time.Minute), Hard, "m1@x", "given up again")
	if h, so := s.Count(); h != 1 || so != 0 || s.Events[0].Diagnostic != "given up" {
		t.Errorf("a soft then two hard bounces of one mail: %d hard, %d soft, %+v", h, so, s.Events)
	}
	long := strings.Repeat("x", 100<<10)
	for i := range 200 {
		kind := Soft
		if i%50 == 0 {
			kind = Hard
		}
		s = note(t0.Add(time.Duration(10+i)*time.Minute), kind, fmt.Sprintf("n%d@x", i), long)
	}
	if len(s.Events) != p.MaxEvents() {
		t.Errorf("%d events kept, want %d", len(s.Events), p.MaxEvents())
	}
	if h, _ := s.Count(); h != 5 {
		t.Errorf("%d hard bounces kept, want all 5", h)
	}
	for i := 1; i < len(s.Events); i++ {
		if s.Events[i].Time.Before(s.Events[i-1].Time) {
			t.Fatalf("events out of order at %d", i)
		}
	}
	var size int
	st.View(context.Background(), func(tx store.Tx) error {
		size = len(tx.Bucket(store.BucketMail).Bucket(store.BucketMailBounces).Get([]byte("bob@x.test")))
		return nil
	})
	if size > 8<<10 {
		t.Errorf("the address's record is %d bytes", size)
	}
}

// TestParseReadsAFewBlocks: a report of thousands of recipient blocks
// (forged: ours go to one recipient) is read to its first maxBlocks, and
// a field of thousands of continuation lines to maxField bytes.
func TestParseReadsAFewBlocks(t *testing.T) {
	raw := forgedDSN("mallory@evil.example", "abc.orrery@pbem.test", 3400)
	if len(raw) < 200<<10 {
		t.Fatalf("the forged DSN is %d bytes", len(raw))
	}
	r, err := Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Recipients) > maxBlocks || len(r.Recipients) == 0 || r.MessageID != "abc.orrery@pbem.test" {
		t.Errorf("%d recipients, Message-ID %q", len(r.Recipients), r.MessageID)
	}
	long := "Content-Type: multipart/report; report-type=delivery-status; boundary=b\r\n\r\n--b\r\nContent-Type: message/delivery-status\r\n\r\n" +
		"Reporting-MTA: dns; x\r\n\r\nFinal-Recipient: rfc822; bob@x.test\r\nAction: failed\r\nStatus: 5.1.1\r\nDiagnostic-Code: smtp; 550\r\n" +
		strings.Repeat(" and on\r\n", 20000) + "--b--\r\n"
	if r, err = Parse([]byte(long)); err != nil {
		t.Fatal(err)
	}
	if n := len(r.Recipients[0].Diagnostic); n > maxField+100 {
		t.Errorf("a diagnostic of %d bytes", n)
	}
}

// forgedDSN is the attack of issue 39: a report of n recipient blocks,
// each naming addr, quoting the Message-ID id.
func forgedDSN(addr, id string, n int) []byte {
	var b strings.Builder
	b.WriteString("From: MAILER-DAEMON@evil.example\r\nTo: orrery@pbem.test\r\nSubject: Undelivered\r\nMIME-Version: 1.0\r\n" +
		"Content-Type: multipart/report; report-type=delivery-status; boundary=\"b\"\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\nNo.\r\n" +
		"--b\r\nContent-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; mx.evil.example\r\n")
	for i := range n {
		fmt.Fprintf(&b, "\r\nFinal-Recipient: rfc822; %s\r\nAction: failed\r\nStatus: 5.1.1\r\nDiagnostic-Code: smtp; 550 5.1.1 no such user %d\r\n", addr, i)
	}
	fmt.Fprintf(&b, "--b\r\nContent-Type: text/rfc822-headers\r\n\r\nFrom: Orrery <orrery@pbem.test>\r\nTo: %s\r\nMessage-ID: <%s>\r\nSubject: x\r\n\r\n--b--\r\n", addr, id)
	return []byte(b.String())
}
