package main

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
	"time"

	"orrery/engine"
	"orrery/engine/enginetest/toy"
	"orrery/engine/store"
	"orrery/pbem/inmail"
	"orrery/pbem/outbox"
	"orrery/pbem/pbemtest"
)

// syncBuffer is a bytes.Buffer safe for a writer goroutine and a reader.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func startServe(t *testing.T, args ...string) (*syncBuffer, func()) {
	t.Helper()
	out := &syncBuffer{}
	e := &env{stdin: strings.NewReader(""), stdout: out, stderr: out, rulesets: []engine.Ruleset{toy.Ruleset()}}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- run(ctx, e, append([]string{"serve"}, args...)) }()
	stop := func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("serve: %v\n%s", err, out)
			}
		case <-time.After(10 * time.Second):
			t.Error("serve did not stop")
		}
	}
	return out, stop
}

// gmCommand runs a command as a shell would: forwarded to the daemon that
// holds db.
func gmCommand(t *testing.T, db string, args ...string) string {
	t.Helper()
	var out bytes.Buffer
	e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &out, rulesets: []engine.Ruleset{toy.Ruleset()}}
	if err := runOrForward(context.Background(), e, append(args, "--db", db)); err != nil {
		t.Fatalf("orrery %s: %v\n%s", strings.Join(args, " "), err, out.String())
	}
	return out.String()
}

func waitFor(t *testing.T, what string, f func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if f() {
			return
		}
	}
	t.Fatalf("timed out waiting for %s", what)
}

func sendMail(t *testing.T, smtpAddr, from, to, subject, body string) {
	t.Helper()
	s := &outbox.SMTP{Addr: smtpAddr, TLS: "none"}
	m := outbox.Mail{From: from, To: []string{to}, Subject: subject, Text: body, MessageID: outbox.NewMessageID("example.org"), Date: time.Now()}
	if errs := s.Send(context.Background(), []outbox.Mail{m}); errs[0] != nil {
		t.Fatal(errs[0])
	}
}

// With --embedded a person can play: the GM's command goes through the
// daemon, a player's mail is answered in their mailbox.
func TestServeEmbedded(t *testing.T) {
	db := filepath.Join(t.TempDir(), "e.db")
	out, stop := startServe(t, "--embedded", "--db", db)
	defer stop()
	re := regexp.MustCompile(`IMAP\s+(\S+) port (\d+)[\s\S]*SMTP\s+(\S+) port (\d+)`)
	var m []string
	waitFor(t, "the ports", func() bool { m = re.FindStringSubmatch(out.String()); return m != nil })
	imapAddr, smtpAddr := m[1]+":"+m[2], m[3]+":"+m[4]
	waitFor(t, "the control socket", func() bool { _, err := os.Stat(ControlPath(db)); return err == nil })
	gm := gmCommand(t, db, "game", "new", "toy", "--id", "t1", "--player", "ann=ann@example.org", "--player", "bob=bob@example.org")
	secret := regexp.MustCompile(`ann\s+ann@example.org\s+secret (\S+)`).FindStringSubmatch(gm)
	if secret == nil {
		t.Fatalf("game new printed:\n%s", gm)
	}
	sendMail(t, smtpAddr, "ann@example.org", "orrery@pbem.test", "[t1 "+secret[1]+"] orders", "push 2\n")
	var msgs [][]byte
	waitFor(t, "ann's welcome and ack", func() bool {
		msgs, _ = pbemtest.FetchAll(imapAddr, "ann@example.org", "password", "INBOX")
		return len(msgs) >= 2
	})
	if !strings.Contains(string(msgs[0]), "Welcome") || !strings.Contains(string(msgs[1]), "Orders received") {
		t.Errorf("ann's mails:\n%s\n---\n%s", msgs[0], msgs[1])
	}
}

// serve --config against mail servers given by a config file.
func TestServeWithConfig(t *testing.T) {
	srv := pbemtest.StartT(t, pbemtest.Options{Users: map[string]string{"bot@pbem.test": "s3cret"}})
	dir := t.TempDir()
	t.Setenv("ORRERY_TEST_IMAP_PW", "s3cret")
	cfg := filepath.Join(dir, "config.yaml")
	db := filepath.Join(dir, "c.db")
	os.WriteFile(cfg, []byte(fmt.Sprintf(`db: %s
from: "Orrery <bot@pbem.test>"
imap:
  server: %s
  tls: none
  username: bot@pbem.test
  password_env: ORRERY_TEST_IMAP_PW
  idle: false
  poll_interval: 50ms
smtp:
  server: %s
  tls: none
  auth: none
tick: 1s
log_level: warn
`, db, srv.IMAPAddr, srv.SMTPAddr)), 0o600)
	out, stop := startServe(t, "--config", cfg)
	defer stop()
	waitFor(t, "the control socket", func() bool { _, err := os.Stat(ControlPath(db)); return err == nil })
	gmCommand(t, db, "game", "new", "toy", "--id", "t2", "--player", "ann=ann@example.org")
	srv.Append("bot@pbem.test", "INBOX", []byte("From: ann@example.org\r\nSubject: hi\r\nMessage-ID: <x1@example.org>\r\n\r\nHELP\r\n"))
	waitFor(t, "the help reply", func() bool { return len(srv.Sent()) >= 2 })
	waitFor(t, "the mail filed", func() bool {
		p, _ := srv.Messages("bot@pbem.test", "Orrery/Processed")
		return len(p) == 1
	})
	if !strings.Contains(out.String(), "serving") {
		t.Errorf("serve printed: %s", out)
	}
}

func TestServeNeedsConfig(t *testing.T) {
	t.Setenv("ORRERY_CONFIG", "")
	if _, err := cli(t, "", "", "serve"); err == nil || !strings.Contains(err.Error(), "--config") {
		t.Errorf("serve without config: %v", err)
	}
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	os.WriteFile(bad, []byte("from: x@y\nimap:\n  sever: a:1\n"), 0o600)
	if _, err := cli(t, "", "", "serve", "--config", bad); err == nil || !strings.Contains(err.Error(), "imap.sever: unknown key") {
		t.Errorf("bad config: %v", err)
	}
}

// Without a daemon, a GM command given a config queues its mails in the
// outbox; serve sends them when it starts.
func TestMailOptionsQueueWithoutDaemon(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "c.yaml")
	os.WriteFile(cfg, []byte("from: \"Orrery <bot@pbem.test>\"\n"), 0o600)
	e := &env{rulesets: []engine.Ruleset{toy.Ruleset()}}
	opts, err := mailOptions(e, cfg)
	if err != nil || len(opts) != 1 {
		t.Fatalf("mailOptions: %v %v", opts, err)
	}
	var out bytes.Buffer
	e = &env{stdin: strings.NewReader(""), stdout: &out, stderr: &out, rulesets: []engine.Ruleset{toy.Ruleset()}, options: opts}
	db := filepath.Join(dir, "q.db")
	if err := run(context.Background(), e, []string{"game", "new", "toy", "--id", "q1", "--player", "ann=ann@example.org", "--db", db}); err != nil {
		t.Fatal(err, out.String())
	}
	st, err := store.Open(db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	items, _ := outbox.Pending(st)
	if len(items) != 1 || items[0].Mail.To[0] != "ann@example.org" || items[0].Mail.Kind != "welcome" {
		t.Errorf("queued: %+v", items)
	}
	if opts, err := mailOptions(e, ""); opts != nil || err != nil {
		t.Errorf("no config: %v %v", opts, err)
	}
}

func TestServeWrongPassword(t *testing.T) {
	srv := pbemtest.StartT(t, pbemtest.Options{Users: map[string]string{"bot@pbem.test": "s3cret"}})
	dir := t.TempDir()
	t.Setenv("ORRERY_TEST_IMAP_PW", "wrong")
	cfg := filepath.Join(dir, "config.yaml")
	os.WriteFile(cfg, []byte(fmt.Sprintf("db: %s\nfrom: bot@pbem.test\nimap:\n  server: %s\n  tls: none\n  username: bot@pbem.test\n  password_env: ORRERY_TEST_IMAP_PW\nsmtp:\n  server: %s\n  tls: none\n  auth: none\nlog_level: error\n",
		filepath.Join(dir, "w.db"), srv.IMAPAddr, srv.SMTPAddr)), 0o600)
	_, err := cli(t, "", "", "serve", "--config", cfg)
	if err == nil || !strings.Contains(err.Error(), "refused the login") || !strings.Contains(err.Error(), "imap.password_env") {
		t.Errorf("serve with a wrong password: %v", err)
	}
}

// serve --config with OAuth2 bearer tokens from token commands, as for
// Gmail or Microsoft 365: IMAP logs in with XOAUTH2, SMTP with
// OAUTHBEARER, and when the provider revokes the IMAP token the daemon
// fetches a new one and goes on reading.
func TestServeWithOAuth(t *testing.T) {
	const bot = "bot@pbem.test"
	srv := pbemtest.StartT(t, pbemtest.Options{OAuth: true, Users: map[string]string{bot: "unused"}})
	srv.AcceptTokens("imap-1", "smtp-1")
	dir := t.TempDir()
	script := pbemtest.TokenCommand(t, dir, time.Hour)
	cfg := filepath.Join(dir, "config.yaml")
	db := filepath.Join(dir, "o.db")
	os.WriteFile(cfg, []byte(fmt.Sprintf(`db: %s
from: "Orrery <%s>"
imap:
  server: %s
  tls: none
  username: %s
  auth: xoauth2
  oauth2:
    token_command: [%s, imap]
  idle: false
  poll_interval: 50ms
smtp:
  server: %s
  tls: none
  username: %s
  auth: oauthbearer
  oauth2:
    token_command: [%s, smtp]
tick: 1s
log_level: error
`, db, bot, srv.IMAPAddr, bot, script, srv.SMTPAddr, bot, script)), 0o600)
	_, stop := startServe(t, "--config", cfg)
	defer stop()
	waitFor(t, "the control socket", func() bool { _, err := os.Stat(ControlPath(db)); return err == nil })
	help := func(n int) {
		srv.Append(bot, "INBOX", []byte(fmt.Sprintf("From: ann@example.org\r\nSubject: hi\r\nMessage-ID: <o%d@example.org>\r\n\r\nHELP\r\n", n)))
		waitFor(t, fmt.Sprintf("help reply %d", n), func() bool { return len(srv.Sent()) >= n })
	}
	help(1)
	if sent := srv.Sent(); sent[0].Login != "OAUTHBEARER "+bot+" smtp-1" {
		t.Errorf("the reply went out after login %q", sent[0].Login)
	}
	srv.AcceptTokens("imap-2", "smtp-1") // the provider revokes imap-1
	srv.StopIMAP()
	if err := srv.StartIMAP(); err != nil {
		t.Fatal(err)
	}
	help(2)
	logins := strings.Join(srv.Logins(), "\n")
	for _, want := range []string{"IMAP XOAUTH2 " + bot + " imap-1\n", "IMAP XOAUTH2 " + bot + " imap-1 refused\n", "IMAP XOAUTH2 " + bot + " imap-2"} {
		if !strings.Contains(logins+"\n", want) {
			t.Errorf("no login %q among:\n%s", strings.TrimSpace(want), logins)
		}
	}
}

// GM queries by mail answer with what the same `orrery game` commands
// print on the server.
func TestGMQueryByMail(t *testing.T) {
	const bot, gm = "bot@pbem.test", "gm@example.org"
	srv := pbemtest.StartT(t, pbemtest.Options{Users: map[string]string{bot: "pw"}})
	dir := t.TempDir()
	t.Setenv("ORRERY_TEST_IMAP_PW", "pw")
	t.Setenv("ORRERY_TEST_GM_SECRET", "gm-s3cret-s3cret-s3cret")
	cfg := filepath.Join(dir, "config.yaml")
	db := filepath.Join(dir, "q.db")
	os.WriteFile(cfg, []byte(fmt.Sprintf(`db: %s
from: "Orrery <%s>"
gm: %s
gm_secret_env: ORRERY_TEST_GM_SECRET
imap:
  server: %s
  tls: none
  username: %s
  password_env: ORRERY_TEST_IMAP_PW
  idle: false
  poll_interval: 50ms
smtp:
  server: %s
  tls: none
  auth: none
tick: 1s
log_level: error
`, db, bot, gm, srv.IMAPAddr, bot, srv.SMTPAddr)), 0o600)
	_, stop := startServe(t, "--config", cfg)
	defer stop()
	waitFor(t, "the control socket", func() bool { _, err := os.Stat(ControlPath(db)); return err == nil })
	gmCommand(t, db, "game", "new", "toy", "--id", "t4", "--player", "ann=ann@example.org", "--player", "bob=bob@example.org")
	list := gmCommand(t, db, "game", "list")
	players := gmCommand(t, db, "game", "players", "t4")
	// GM LOG shows the welcome mails as sent only once they are: the
	// query's mail is handled in a transaction that the outbox waits for.
	waitFor(t, "the welcome mails", func() bool {
		return strings.Count(gmCommand(t, db, "game", "log", "t4"), "mail     sent welcome") == 2
	})
	srv.Append(bot, "INBOX", []byte("From: "+gm+"\r\nSubject: queries\r\nMessage-ID: <q1@example.org>\r\n\r\n"+
		"SECRET gm-s3cret-s3cret-s3cret\r\nGM LIST\r\nGM PLAYERS t4\r\nGM LOG t4\r\n"))
	var answer string
	waitFor(t, "the GM's answer", func() bool {
		for _, m := range srv.Sent() {
			if m.To[0] == gm && strings.Contains(string(m.Data), "Answer to your GM query") {
				answer = string(m.Data)
				return true
			}
		}
		return false
	})
	// The text part is quoted-printable: compare the decoded mail.
	pm, err := inmail.Parse([]byte(answer), inmail.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"orrery game list\n\n" + list, "orrery game players t4\n\n" + players, "orrery game log t4\n", "create",
		"mail     sent welcome to ann@example.org: [t4 "} {
		if !strings.Contains(pm.Body, want) {
			t.Errorf("the answer lacks %q:\n%s", want, pm.Body)
		}
	}
}

// The daemon's process takes gc_percent as its collector's target, unless
// the operator set GOGC, which wins.
func TestSetGC(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	log := slog.New(slog.DiscardHandler)
	t.Setenv("GOGC", "")
	setGC(250, log)
	if got := debug.SetGCPercent(100); got != 250 {
		t.Errorf("gc_percent 250 without GOGC: the collector's target is %d", got)
	}
	t.Setenv("GOGC", "150")
	setGC(250, log)
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("gc_percent 250 with GOGC=150: the target moved to %d; GOGC should win", got)
	}
}
