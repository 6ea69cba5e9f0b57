package config

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"orrery/pbem/imapin"
	"orrery/pbem/outbox"
	"orrery/pbem/pbemtest"
)

// TestTokenExpiringMidRunIsRefreshed runs an IMAP reader and an SMTP
// sender as `orrery serve` wires them (Credentials and Refused from this
// package) against servers that take only the provider's current tokens,
// with a token_command and a controllable clock: a token that expires
// while the daemon runs is replaced at the next login, and one the
// provider revokes before its stated expiry is dropped when refused and
// replaced at the next try — for IMAP (XOAUTH2) and SMTP (OAUTHBEARER).
func TestTokenExpiringMidRunIsRefreshed(t *testing.T) {
	const bot = "bot@example.org"
	srv := pbemtest.StartT(t, pbemtest.Options{OAuth: true, NoDeliver: true, Users: map[string]string{bot: "pw"}})
	// The token command prints "imap-N" or "smtp-N", N counting its runs,
	// each token with a two-minute lifetime.
	script := pbemtest.TokenCommand(t, t.TempDir(), 2*time.Minute)
	c, err := Parse([]byte(fmt.Sprintf(`from: "Orrery <%s>"
imap:
  server: %s
  tls: none
  username: %s
  auth: xoauth2
  oauth2:
    token_command: [%s, imap]
smtp:
  server: %s
  tls: none
  username: %s
  auth: oauthbearer
  oauth2:
    token_command: [%s, smtp]
`, bot, srv.IMAPAddr, bot, script, srv.SMTPAddr, bot, script)))
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	now := time.Date(2026, 11, 24, 6, 0, 0, 0, time.UTC)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	c.IMAP.tokens.now, c.SMTP.tokens.now = clock, clock

	handled := make(chan string, 10)
	r := imapin.New(imapin.Config{Addr: c.IMAP.Server, TLS: c.IMAP.TLS, Auth: c.IMAP.Auth,
		Credentials: c.IMAP.Credentials, Refused: c.IMAP.Refused,
		MinBackoff: 10 * time.Millisecond, MaxBackoff: 50 * time.Millisecond, IdleRestart: 200 * time.Millisecond})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		done <- r.Run(ctx, func(_ context.Context, m imapin.Message) (imapin.Disposition, error) {
			subject, _, _ := strings.Cut(strings.SplitAfter(string(m.Raw), "Subject: ")[1], "\r\n")
			handled <- subject
			return imapin.Processed, nil
		})
	}()
	s := &outbox.SMTP{Addr: c.SMTP.Server, TLS: c.SMTP.TLS, Auth: c.SMTP.Auth, Timeout: 2 * time.Second,
		Credentials: c.SMTP.Credentials, Refused: c.SMTP.Refused}

	// step delivers one mail to the bot and sends one from it; it returns
	// the SMTP error of each try until one goes through (at most three).
	step := func(n int) []error {
		t.Helper()
		srv.Append(bot, "INBOX", []byte(fmt.Sprintf("From: ann@example.org\r\nSubject: m%d\r\nMessage-ID: <m%d@example.org>\r\n\r\nx\r\n", n, n)))
		select {
		case got := <-handled:
			if got != fmt.Sprintf("m%d", n) {
				t.Fatalf("handled %q, want m%d", got, n)
			}
		case err := <-done:
			t.Fatalf("the reader stopped: %v (last logins %q)", err, last(srv.Logins()))
		case <-ctx.Done():
			t.Fatalf("m%d never handled; %d logins, the last %q", n, len(srv.Logins()), last(srv.Logins()))
		}
		var errs []error
		for range 3 {
			m := outbox.Mail{MessageID: fmt.Sprintf("r%d.%d@example.org", n, len(errs)), From: bot, To: []string{"ann@example.org"},
				Subject: fmt.Sprintf("r%d", n), Text: "x", Date: clock()}
			err := s.Send(ctx, []outbox.Mail{m})[0]
			errs = append(errs, err)
			if err == nil {
				break
			}
		}
		return errs
	}
	// dropIMAP ends the bot's IMAP session, and the SMTP connection the
	// outbox keeps between batches, as a provider does when the token
	// they logged in with expires.
	dropIMAP := func() {
		srv.StopIMAP()
		if err := srv.StartIMAP(); err != nil {
			t.Fatal(err)
		}
		srv.StopSMTP()
		if err := srv.StartSMTP(); err != nil {
			t.Fatal(err)
		}
	}

	srv.AcceptTokens("imap-1", "smtp-1")
	if errs := step(1); len(errs) != 1 || errs[0] != nil {
		t.Fatalf("first send: %v", errs)
	}

	// Two minutes on, both tokens have expired; the provider takes only new
	// ones and drops the session.
	mu.Lock()
	now = now.Add(2 * time.Minute)
	mu.Unlock()
	srv.AcceptTokens("imap-2", "smtp-2")
	dropIMAP()
	if errs := step(2); len(errs) != 1 || errs[0] != nil {
		t.Fatalf("send after expiry: %v", errs)
	}

	// The provider revokes both tokens a second later, long before their
	// stated expiry: the first try with each is refused, the next fetches
	// a new token.
	mu.Lock()
	now = now.Add(time.Second)
	mu.Unlock()
	srv.AcceptTokens("imap-3", "smtp-3")
	dropIMAP()
	if errs := step(3); len(errs) != 2 || errs[0] == nil || errs[1] != nil {
		t.Fatalf("sends after revocation: %v, want one refusal then success", errs)
	}

	want := []string{
		"IMAP XOAUTH2 " + bot + " imap-1", "SMTP OAUTHBEARER " + bot + " smtp-1",
		"IMAP XOAUTH2 " + bot + " imap-2", "SMTP OAUTHBEARER " + bot + " smtp-2",
		"IMAP XOAUTH2 " + bot + " imap-2 refused", "IMAP XOAUTH2 " + bot + " imap-3",
		"SMTP OAUTHBEARER " + bot + " smtp-2 refused", "SMTP OAUTHBEARER " + bot + " smtp-3",
	}
	if got := srv.Logins(); !slices.Equal(got, want) {
		t.Errorf("logins:\n got %q\nwant %q", got, want)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("reader: %v", err)
	}
}

// last is the end of a long list of logins, for failure messages.
func last(logins []string) []string { return logins[max(len(logins)-4, 0):] }
