package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"orrery/engine/game"
	"orrery/games"
	"orrery/pbem/botplayer"
	"orrery/pbem/config"
	"orrery/pbem/inmail"
	"orrery/pbem/outbox"
	"orrery/pbem/pbemtest"
)

// TestNoSecretInDebugLog runs a bot game by mail through the daemon as
// `orrery serve` wires it, with log.level debug, together with the mail
// that used to put secrets in the log (an autoresponder quoting the tagged
// subject, GM commands with the right and a wrong secret, control-socket
// commands), and fails if any player's secret, the GM secret or the game's
// dice secret appears in the log, in either format.
func TestNoSecretInDebugLog(t *testing.T) {
	if raceOn {
		t.Skip("under the race detector its game's mail pictures take a minute; the main pass runs it, and the serve tests race the daemon")
	}
	for _, format := range []string{"text", "json"} {
		t.Run(format, func(t *testing.T) { noSecretInLog(t, format) })
	}
}

func noSecretInLog(t *testing.T, format string) {
	const bot, gm = "bot@pbem.test", "gm@example.org"
	gmSecret := config.NewSecret()
	srv := pbemtest.StartT(t, pbemtest.Options{Users: map[string]string{bot: "pw"}})
	dir := t.TempDir()
	t.Setenv("ORRERY_TEST_IMAP_PW", "pw")
	t.Setenv("ORRERY_TEST_GM_SECRET", gmSecret)
	cfgPath := filepath.Join(dir, "config.yaml")
	db := filepath.Join(dir, "secret.db")
	require.NoError(t, os.WriteFile(cfgPath, []byte(fmt.Sprintf(`db: %s
from: "Orrery <%s>"
gm: %s
gm_secret_env: ORRERY_TEST_GM_SECRET
imap:
  server: %s
  tls: none
  username: %s
  password_env: ORRERY_TEST_IMAP_PW
  idle: false
  poll_interval: 20ms
smtp:
  server: %s
  tls: none
  auth: none
tick: 100ms
log:
  level: debug
  format: %s
`, db, bot, gm, srv.IMAPAddr, bot, srv.SMTPAddr, format)), 0o600))
	cfg, err := config.Load(cfgPath)
	require.NoError(t, err)
	logBuf := &syncBuffer{}
	e := &env{stdin: strings.NewReader(""), stdout: logBuf, stderr: logBuf, rulesets: games.All()}
	s, err := newServer(e, cfg, cfgPath)
	require.NoError(t, err)
	defer s.st.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- runDaemon(runCtx, e, s.st, s.d, s.r, s.ws, s.cfg.From, s.log) }()
	defer func() { stop(); <-done }()

	svc := game.New(s.st, e.rulesets)
	g, err := s.d.Service().Create(ctx, game.CreateRequest{ID: "leak", Ruleset: "prosper",
		Players: []game.PlayerSpec{{Name: "ann", Email: "ann@example.org"}, {Name: "bob", Email: "bob@example.org"}}})
	require.NoError(t, err)
	ann, _ := g.PlayerByName("ann")
	secrets := map[string]string{"the GM secret": gmSecret, "the dice secret": g.DiceSecret}

	send := func(from, subject, body string, headers ...string) {
		t.Helper()
		raw := "From: " + from + "\r\nTo: " + bot + "\r\nSubject: " + subject + "\r\nMessage-ID: <" + outbox.NewMessageID("example.org") + ">\r\n"
		for _, h := range headers {
			raw += h + "\r\n"
		}
		require.NoError(t, srv.Append(bot, "INBOX", []byte(raw+"\r\n"+body)))
	}
	// An autoresponder quotes the tagged subject: silenced, and logged.
	send("ann@example.org", "Auto: Re: [leak "+ann.Secret+"] your report", "I am away.", "Auto-Submitted: auto-replied")
	// A wrong and a right GM secret; the GM's export by mail.
	send(gm, "GM [leak "+ann.Secret+"]", "SECRET not-"+gmSecret+"\r\nGM STATUS leak\r\n")
	send(gm, "GM secret="+gmSecret, "SECRET "+gmSecret+"\r\nGM STATUS leak\r\nGM EXPORT leak\r\n")
	// Orders from a forged address with a player's secret in the subject.
	send("mallory@example.net", "[leak "+ann.Secret+"] orders", "SECRET "+ann.Secret+"\r\n")

	sender := &outbox.SMTP{Addr: srv.SMTPAddr, TLS: "none"}
	players := &botplayer.Players{Service: svc, Game: g.ID, Bot: bot, Rand: rand.New(rand.NewPCG(1, 2)),
		Fetch: func(addr string) ([][]byte, error) { return srv.Messages(addr, "INBOX") },
		Send: func(ctx context.Context, m outbox.Mail) error {
			m.Kind = ""
			return sender.Send(ctx, []outbox.Mail{m})[0]
		}}
	g, err = players.Play(ctx, 2)
	require.NoError(t, err)
	require.Greater(t, g.Step, uint64(1), "the bots played no step")
	// Control-socket commands are logged with their arguments.
	gmCommand(t, db, "game", "show", "leak", "--as", "ann")
	gmCommand(t, db, "game", "replace", "leak", "bob", "--email", "bob2@example.org")
	g, err = svc.Get(ctx, "leak")
	require.NoError(t, err)
	for _, p := range g.Players {
		secrets[p.Name+"'s secret"] = p.Secret
	}
	secrets["ann's secret"] = ann.Secret
	var export string
	waitFor(t, "the GM's export", func() bool {
		for _, m := range srv.Sent() {
			if m.To[0] == gm && strings.Contains(string(m.Data), "orrery game export leak") {
				pm, err := inmail.Parse(m.Data, inmail.Options{})
				require.NoError(t, err)
				export = pm.Body
				return true
			}
		}
		return false
	})
	// GM EXPORT by mail leaves the secrets out, and says so.
	assert.Contains(t, export, `"redacted": [`)
	assert.NotContains(t, export, g.DiceSecret)
	assert.NotContains(t, export, ann.Secret)
	stop()
	require.NoError(t, <-done)
	done <- nil

	out := logBuf.String()
	require.Contains(t, out, "not answering", "the autoresponder was not logged: the test tests nothing")
	for what, secret := range secrets {
		require.NotEmpty(t, secret, what)
		assert.NotContains(t, out, secret, "%s is in the %s log", what, format)
	}
}
