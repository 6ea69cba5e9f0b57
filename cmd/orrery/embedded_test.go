package main

import (
	"bytes"
	"context"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"orrery/engine"
	"orrery/engine/enginetest/toy"
	"orrery/pbem/pbemtest"
)

// freeAddr is a loopback address nothing listens on (now).
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	return ln.Addr().String()
}

// A player's mail client is set up once: serve --embedded started again
// on the same db listens on the same ports and holds the same mail, kept
// beside the db; the mail read before is not read again.
func TestServeEmbeddedRestartKeepsPortsAndMail(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "games.db")
	imapAddr, smtpAddr := freeAddr(t), freeAddr(t)
	args := []string{"--embedded", "--db", db, "--http", "", "--imap-addr", imapAddr, "--smtp-addr", smtpAddr}
	ports := regexp.MustCompile(`IMAP\s+(\S+) port (\d+)[\s\S]*SMTP\s+(\S+) port (\d+)`)
	start := func() (*syncBuffer, func()) {
		out, stop := startServe(t, args...)
		waitFor(t, "the banner", func() bool { return strings.Contains(out.String(), "Stop with Ctrl-C") })
		m := ports.FindStringSubmatch(out.String())
		require.NotNil(t, m, out.String())
		assert.Equal(t, imapAddr, m[1]+":"+m[2], "IMAP port")
		assert.Equal(t, smtpAddr, m[3]+":"+m[4], "SMTP port")
		assert.Contains(t, out.String(), "mail   "+filepath.Join(dir, "games.mail")+" (the mailboxes, kept when you stop")
		assert.Contains(t, out.String(), "The ports and the mailboxes are the same at every start")
		waitFor(t, "the control socket", func() bool { _, err := os.Stat(ControlPath(db)); return err == nil })
		return out, stop
	}
	inbox := func(n int) [][]byte {
		var msgs [][]byte
		waitFor(t, "ann's mail", func() bool {
			msgs, _ = pbemtest.FetchAll(imapAddr, "ann@example.org", "password", "INBOX")
			return len(msgs) >= n
		})
		return msgs
	}

	out, stop := start()
	gm := gmCommand(t, db, "game", "new", "toy", "--id", "t1", "--player", "ann=ann@example.org", "--player", "bob=bob@example.org")
	secret := regexp.MustCompile(`ann\s+ann@example.org\s+secret (\S+)`).FindStringSubmatch(gm)
	require.NotNil(t, secret, gm)
	sendMail(t, smtpAddr, "ann@example.org", "orrery@pbem.test", "[t1 "+secret[1]+"] orders", "push 2\n")
	before := inbox(2) // welcome and ack
	stop()
	assert.Contains(t, out.String(), "the mailboxes in "+filepath.Join(dir, "games.mail"))

	_, stop = start()
	defer stop()
	after, err := pbemtest.FetchAll(imapAddr, "ann@example.org", "password", "INBOX")
	require.NoError(t, err)
	assert.Equal(t, before, after, "ann's mailbox after the restart")
	sendMail(t, smtpAddr, "ann@example.org", "orrery@pbem.test", "[t1 "+secret[1]+"] orders", "push 1\n")
	after = inbox(3)
	assert.Len(t, after, 3, "one ack for the new mail, none again for the old one")
	// The bot's mails, read before and after the restart, are filed.
	waitFor(t, "the bot's two mails filed", func() bool {
		msgs, _ := pbemtest.FetchAll(imapAddr, "orrery@pbem.test", "orrery", "Orrery/Processed")
		return len(msgs) == 2
	})
}

// The mail servers' addresses are checked before anything starts, and a
// wrong one is named with what is wanted.
func TestEmbeddedAddrFlags(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer busy.Close()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"serve", "--embedded", "--imap-addr", "localhost"}, `--imap-addr "localhost": want host:port`},
		{[]string{"serve", "--embedded", "--smtp-addr", "127.0.0.1:99999"}, `--smtp-addr "127.0.0.1:99999": the port must be a number from 0 to 65535`},
		{[]string{"serve", "--embedded", "--smtp-addr", ":2525"}, `--smtp-addr ":2525": name the host, as 127.0.0.1:2525`},
		{[]string{"serve", "--embedded", "--imap-addr", busy.Addr().String()}, "--imap-addr " + busy.Addr().String() + ": cannot listen there"},
		{[]string{"serve", "--config", "x.yaml", "--imap-addr", "127.0.0.1:1"}, "--imap-addr is for serve --embedded"},
		{[]string{"demo", "--imap-addr", "127.0.0.1"}, `--imap-addr "127.0.0.1": want host:port`},
		{[]string{"demo", "--smtp-addr", "127.0.0.1:smtp"}, `--smtp-addr "127.0.0.1:smtp": the port must be a number`},
		{[]string{"demo", "--smtp-addr", busy.Addr().String()}, "--smtp-addr " + busy.Addr().String() + ": cannot listen there"},
	} {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			t.Chdir(t.TempDir()) // nothing may be written; the test would see it
			var out bytes.Buffer
			e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &out, rulesets: []engine.Ruleset{toy.Ruleset()}}
			err := run(context.Background(), e, c.args)
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.want)
			entries, _ := os.ReadDir(".")
			assert.Empty(t, entries, "a refused command wrote files")
		})
	}
}

// A default port that is taken falls back to a free one, with a note
// that a mail client set up for it will not reach this run; a port the
// user named must be free.
func TestPickAddr(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer busy.Close()
	addr := busy.Addr().String()
	_, port, _ := net.SplitHostPort(addr)
	got, note, err := pickAddr("imap-addr", addr, false)
	require.NoError(t, err)
	assert.Equal(t, "127.0.0.1:0", got)
	assert.Contains(t, note, "port "+port+" is taken, so IMAP is on another port for this run only")
	_, _, err = pickAddr("imap-addr", addr, true)
	assert.ErrorContains(t, err, "is another orrery serve --embedded running?")
	free := freeAddr(t)
	got, note, err = pickAddr("smtp-addr", free, false)
	require.NoError(t, err)
	assert.Equal(t, free, got)
	assert.Empty(t, note)
}

func TestMailDirBeside(t *testing.T) {
	for db, want := range map[string]string{
		"/x/orrery-embedded.db": "/x/orrery-embedded.mail",
		"/x/games":              "/x/games.mail",
		"/x/a.b/games.bolt":     "/x/a.b/games.mail",
		"/x/odd.mail":           "/x/odd.mail.mail",
	} {
		assert.Equal(t, want, mailDirBeside(db), db)
	}
}
