package bounce

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"orrery/engine/store"
)

// readFile reads a mail of testdata.
func readFile(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// openStore opens an empty bbolt store of the test's own.
func openStore(t *testing.T) *store.Store {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "b.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// TestCorpus reads each DSN of testdata/dsn, written as Postfix, Exim,
// Exchange and Gmail write them, and the mails that are not DSNs.
func TestCorpus(t *testing.T) {
	cases := []struct {
		file                  string
		recipient, action     string
		status                string
		kind                  Kind
		messageID, subject    string
		reportingMTA, diagSub string
	}{
		{"postfix-user-unknown.eml", "bob@example.org", "failed", "5.1.1", Hard,
			"9f2c4e1b7a3d5e6f8a9b0c1d.demo1.e0s3.orrery@pbem.test", "[demo1 k7f3qm2x9p] Turn 3 report", "dns; mail.pbem.test", "User unknown in virtual mailbox table"},
		{"postfix-delayed.eml", "ann@example.net", "delayed", "4.2.2", Soft,
			"0a1b2c3d4e5f60718293a4b5.demo1.e0s3.orrery@pbem.test", "[demo1 q8w2e4r6t9] Reminder: your orders are due", "dns; mail.pbem.test", "Mailbox full"},
		{"exim-user-unknown.eml", "cyd@example.com", "failed", "5.0.0", Hard,
			"5d6e7f8091a2b3c4d5e6f708.demo1.e0s4.orrery@pbem.test", "[demo1 h3j5k7m9n2] Turn 4 report — Prosper", "dns; relay.example.com", "User unknown"},
		{"exim-delayed.eml", "cyd@example.com", "delayed", "4.0.0", Soft,
			"5d6e7f8091a2b3c4d5e6f708.demo1.e0s4.orrery@pbem.test", "[demo1 h3j5k7m9n2] Turn 4 report", "dns; relay.example.com", "Mailbox over quota"},
		{"exchange-mailbox-full.eml", "dan@contoso.com", "failed", "5.2.2", Hard,
			"aa11bb22cc33dd44ee55ff66.demo1.e0s5.orrery@pbem.test", "[demo1 r2t4y6u8i3] Turn 5 report", "dns;BN8PR12MB3300.namprd12.prod.outlook.com", "QuotaExceededException"},
		{"gmail-no-such-user.eml", "eve.typo@gmail.com", "failed", "5.1.1", Hard,
			"c0ffee01badd00d5eed5a1e0.demo1.e0s5.orrery@pbem.test", "[demo1 w3e5r7t9y2] Welcome to demo1", "dns; googlemail.com", "550 5.1.1  https://support.google.com/mail/?p=NoSuchUser"},
		// Captured from scripts/mailstack.sh's Postfix (bounce ADDRESS).
		{"postfix-mailstack-error-transport.eml", "xbounce@example.org", "failed", "5.2.2", Hard,
			"abc123.g.e0s1.orrery@pbem.test", "test", "dns; mail.pbem.test", "X-Postfix; mailbox full"},
		{"gmail-over-quota-delay.eml", "fay@gmail.com", "delayed", "4.2.2", Soft,
			"d00dfeed0123456789abcdef.demo1.e0s6.orrery@pbem.test", "[demo1 u4i6o8p2a5] Turn 6 report", "dns; googlemail.com", "out of storage space"},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			raw := readFile(t, filepath.Join("testdata", "dsn", c.file))
			r, err := Parse(raw)
			if err != nil {
				t.Fatal(err)
			}
			if len(r.Recipients) != 1 {
				t.Fatalf("%d recipients, want 1: %+v", len(r.Recipients), r.Recipients)
			}
			rc := r.Recipients[0]
			if rc.Address() != c.recipient || rc.Action != c.action || rc.Status != c.status || rc.Kind() != c.kind {
				t.Errorf("recipient %+v (%s), want %s %s %s %s", rc, rc.Kind(), c.recipient, c.action, c.status, c.kind)
			}
			if r.MessageID != c.messageID || r.Subject != c.subject || r.ReportingMTA != c.reportingMTA {
				t.Errorf("report: id %q subject %q mta %q", r.MessageID, r.Subject, r.ReportingMTA)
			}
			if !strings.Contains(rc.Diagnostic, c.diagSub) {
				t.Errorf("diagnostic %q lacks %q", rc.Diagnostic, c.diagSub)
			}
		})
	}
	for _, f := range []string{"not-a-dsn-out-of-office.eml", "not-a-dsn-read-receipt.eml"} {
		raw := readFile(t, filepath.Join("testdata", "dsn", f))
		if _, err := Parse(raw); !errors.Is(err, ErrNotDSN) {
			t.Errorf("%s: %v, want ErrNotDSN", f, err)
		}
	}
}

// TestMalformedReports: a report without its status part, one that names
// no recipient, and one whose fields are folded oddly.
func TestMalformedReports(t *testing.T) {
	head := "From: MAILER-DAEMON@x.test\r\nTo: orrery@pbem.test\r\nMIME-Version: 1.0\r\n" +
		"Content-Type: multipart/report; report-type=delivery-status; boundary=b\r\n\r\n"
	text := "--b\r\nContent-Type: text/plain\r\n\r\nsorry\r\n"
	cases := []struct {
		name, body string
		ok         bool
	}{
		{"no status part", text + "--b--\r\n", false},
		{"no recipient", text + "--b\r\nContent-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; x.test\r\n\r\n--b--\r\n", false},
		{"lower-case fields, no space, CRLF, tab folding", text + "--b\r\nContent-Type: message/delivery-status\r\n\r\n" +
			"reporting-mta:dns;x.test\r\n\r\nfinal-recipient:RFC822;<Bob@Example.ORG>\r\naction:Failed\r\nstatus:5.7.1 (delivery not authorized)\r\n" +
			"diagnostic-code:smtp;550 5.7.1\r\n\tnot allowed\r\n\r\n--b--\r\n", true},
	}
	for _, c := range cases {
		r, err := Parse([]byte(head + c.body))
		if (err == nil) != c.ok {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if c.ok {
			rc := r.Recipients[0]
			if rc.Final != "bob@example.org" || rc.Action != "failed" || rc.Status != "5.7.1" || rc.Kind() != Hard || rc.Diagnostic != "smtp;550 5.7.1 not allowed" {
				t.Errorf("%s: %+v", c.name, rc)
			}
		}
	}
}

// FuzzParse: Parse never panics, and whatever it accepts names a recipient.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "dsn", "*.eml"))
	for _, fn := range files {
		b, _ := os.ReadFile(fn)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		r, err := Parse(raw)
		if err == nil && len(r.Recipients) == 0 {
			t.Fatal("a report with no recipient was accepted")
		}
	})
}

// TestHardLimitWithinWindow: three hard bounces within the window make an
// address unreachable (once); soft ones never do; old ones fall out.
func TestHardLimitWithinWindow(t *testing.T) {
	st := openStore(t)
	p := Policy{}.WithDefaults()
	t0 := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	note := func(addr string, at time.Time, kind Kind) (became bool) {
		err := st.Update(context.Background(), func(tx store.Tx) error {
			var err error
			became, _, err = Note(tx, addr, Event{Time: at, Kind: kind.String(), Status: "5.2.2", Diagnostic: "smtp; 552 5.2.2 Mailbox full"}, p)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return became
	}
	state := func(addr string) (s State) {
		st.View(context.Background(), func(tx store.Tx) error { s, _ = Load(tx, addr); return nil })
		return s
	}
	// Two hard bounces 15 days apart, then one more: only two in 14 days.
	if note("bob@x.test", t0, Hard) || note("bob@x.test", t0.Add(15*24*time.Hour), Hard) || note("bob@x.test", t0.Add(16*24*time.Hour), Hard) {
		t.Fatal("unreachable with two hard bounces within the window")
	}
	for i := 0; i < 10; i++ {
		if note("bob@x.test", t0.Add(16*24*time.Hour+time.Duration(i)*time.Hour), Soft) {
			t.Fatal("soft bounces made an address unreachable")
		}
	}
	if !note("BOB@x.test", t0.Add(17*24*time.Hour), Hard) {
		t.Fatal("the third hard bounce within 14 days did not make the address unreachable")
	}
	if note("bob@x.test", t0.Add(18*24*time.Hour), Hard) {
		t.Error("became unreachable twice")
	}
	s := state("bob@x.test")
	if hard, soft := s.Count(); hard != 4 || soft != 10 || s.Unreachable.IsZero() || s.Settled {
		t.Errorf("state %+v (%d hard, %d soft)", s, hard, soft)
	}
	var unsettled []string
	st.Update(context.Background(), func(tx store.Tx) error {
		unsettled, _ = Unsettled(tx)
		if len(unsettled) == 1 {
			Settle(tx, unsettled[0])
		}
		return nil
	})
	if len(unsettled) != 1 || unsettled[0] != "bob@x.test" {
		t.Errorf("unsettled %v", unsettled)
	}
	st.Update(context.Background(), func(tx store.Tx) error {
		if !Unreachable(tx, "bob@x.test") {
			t.Error("not unreachable")
		}
		if n, _ := Unsettled(tx); len(n) != 0 {
			t.Errorf("still unsettled: %v", n)
		}
		if ok, _ := Clear(tx, "bob@x.test"); !ok || Unreachable(tx, "bob@x.test") {
			t.Error("Clear did not clear")
		}
		return nil
	})
}

// TestWhyCountsAgree: the reason an address was given up on writes its
// counts as engine/lang does, so a policy of one hard bounce within a day
// reads "1 hard bounce within 1 day", not "1 hard bounces".
func TestWhyCountsAgree(t *testing.T) {
	st := openStore(t)
	for _, c := range []struct {
		p    Policy
		n    int
		want string
	}{
		{Policy{HardLimit: 1, Window: 24 * time.Hour}, 1, "1 hard bounce within 1 day, the last 5.2.2"},
		{Policy{HardLimit: 2, Window: 3 * 24 * time.Hour}, 2, "2 hard bounces within 3 days, the last 5.2.2"},
	} {
		addr := fmt.Sprintf("n%d@x.test", c.n)
		t0 := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
		var s State
		for i := range c.n {
			err := st.Update(context.Background(), func(tx store.Tx) error {
				var err error
				_, s, err = Note(tx, addr, Event{Time: t0.Add(time.Duration(i) * time.Hour), Kind: Hard.String(), Status: "5.2.2"}, c.p.WithDefaults())
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
		}
		if s.Unreachable.IsZero() || s.Why != c.want {
			t.Errorf("%+v: why %q; want %q", c.p, s.Why, c.want)
		}
	}
}
