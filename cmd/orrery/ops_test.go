package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"orrery/engine/store/storetest"
	"orrery/games"
	"orrery/pbem/pbemtest"
)

func TestSecretNew(t *testing.T) {
	out := must(t, "", "", "secret", "new")
	assert.Regexp(t, regexp.MustCompile(`^[a-z2-7]{26}\n$`), out)
	assert.NotEqual(t, out, must(t, "", "", "secret", "new"), "two secrets alike")

	file := filepath.Join(t.TempDir(), "gm-secret")
	out = must(t, "", "", "secret", "new", "--out", file)
	assert.Contains(t, out, "wrote a new GM secret to "+file+" (mode 0600)")
	st, err := os.Stat(file)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), st.Mode().Perm())
	data, _ := os.ReadFile(file)
	assert.NotContains(t, out, strings.TrimSpace(string(data)), "--out must not print the secret")

	_, err = cli(t, "", "", "secret", "new", "--out", file)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "exists already")
	again, _ := os.ReadFile(file)
	assert.Equal(t, data, again, "an existing secret file was overwritten")
}

// game export leaves the secrets out unless asked; --out writes the file
// owner-only, also through a running daemon; importing a redacted export
// says what it lacks.
func TestExportSecrets(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "x.db")
	out := must(t, db, "", "game", "new", "toy", "--id", "g", "--player", "ann=ann@example.org")
	secret := regexp.MustCompile(`secret (\S+)`).FindStringSubmatch(out)[1]

	plain := must(t, db, "", "game", "export", "g")
	assert.NotContains(t, plain, secret)
	assert.Contains(t, plain, `"redacted": [`)
	assert.Contains(t, must(t, db, "", "game", "export", "g", "--with-secrets"), secret)

	_, err := cli(t, filepath.Join(dir, "other.db"), plain, "game", "import")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "made without its secrets")
	assert.Contains(t, err.Error(), "--with-secrets --out FILE")

	// An existing file readable by others is narrowed before it is written.
	file := filepath.Join(dir, "g.json")
	require.NoError(t, os.WriteFile(file, []byte("old"), 0o644))
	require.NoError(t, os.Chmod(file, 0o644))
	out = must(t, db, "", "game", "export", "g", "--with-secrets", "--out", file)
	assert.Contains(t, out, "wrote g to "+file+" (mode 0600), with its secrets")
	assertOwnerOnly(t, file)
	data, _ := os.ReadFile(file)
	assert.Contains(t, string(data), secret)
	out = must(t, filepath.Join(dir, "copy.db"), string(data), "game", "import")
	assert.Contains(t, out, "imported g")
}

func assertOwnerOnly(t *testing.T, path string) {
	t.Helper()
	st, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), st.Mode().Perm(), path)
}

// metricsURL waits for the line a command prints when its metrics listener
// is up, and returns the URL of /metrics.
func metricsURL(t *testing.T, out *syncBuffer) string {
	t.Helper()
	re := regexp.MustCompile(`metrics on (http://\S+/metrics)`)
	var url string
	waitFor(t, "the metrics listener", func() bool {
		m := re.FindStringSubmatch(out.String())
		if m != nil {
			url = m[1]
		}
		return m != nil
	})
	return url
}

func scrape(url string) (int, string, error) {
	res, err := http.Get(url)
	if err != nil {
		return 0, "", err
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	return res.StatusCode, string(body), err
}

// /metrics answers while a demo runs with --metrics-listen (the demo's
// metrics.listen), and counts the demo's mails.
func TestMetricsDuringDemo(t *testing.T) {
	if raceOn {
		t.Skip("under the race detector its demo's mail pictures take a minute; the main pass runs it, and TestDemoPlaysAGameByMail races a demo")
	}
	out := &syncBuffer{}
	e := &env{stdin: strings.NewReader(""), stdout: out, stderr: out, rulesets: games.All()}
	done := make(chan error, 1)
	go func() {
		done <- run(context.Background(), e, []string{"demo", "--turns", "3", "--metrics-listen", "127.0.0.1:0"})
	}()
	url := metricsURL(t, out)
	var scrapes []string
	for running := true; running; {
		select {
		case err := <-done:
			require.NoError(t, err, out.String())
			running = false
		case <-time.After(50 * time.Millisecond):
			if code, body, err := scrape(url); err == nil && code == 200 {
				scrapes = append(scrapes, body)
			}
		}
	}
	require.NotEmpty(t, scrapes, "/metrics never answered during the demo")
	last := scrapes[len(scrapes)-1]
	for _, name := range []string{"orrery_mails_received_total", "orrery_orders_applied_total", "orrery_steps_resolved_total",
		"orrery_ack_latency_seconds_bucket", "orrery_outbox_depth", "orrery_imap_up 1"} {
		assert.Contains(t, last, name)
	}
	assert.Regexp(t, `orrery_mails_received_total [1-9]`, strings.Join(scrapes, "\n"), "no mail counted in any scrape")
	_, _, err := scrape(url)
	assert.Error(t, err, "the listener outlived the demo")
}

// serve --config with metrics.listen: the daemon's counts on /metrics follow
// the mail it handles; /healthz and /readyz answer.
func TestServeMetrics(t *testing.T) {
	const bot = "bot@pbem.test"
	srv := pbemtest.StartT(t, pbemtest.Options{Users: map[string]string{bot: "pw"}})
	dir := t.TempDir()
	t.Setenv("ORRERY_TEST_IMAP_PW", "pw")
	cfg := filepath.Join(dir, "config.yaml")
	db := filepath.Join(dir, "m.db")
	require.NoError(t, os.WriteFile(cfg, []byte(fmt.Sprintf(`db: %s
from: "Orrery <%s>"
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
log:
  level: error
metrics:
  listen: 127.0.0.1:0
`, db, bot, srv.IMAPAddr, bot, srv.SMTPAddr)), 0o600))
	out, stop := startServe(t, "--config", cfg)
	defer stop()
	url := metricsURL(t, out)
	assert.NotContains(t, out.String(), "beside the web pages")
	base := strings.TrimSuffix(url, "/metrics")
	waitFor(t, "the control socket", func() bool { _, err := os.Stat(ControlPath(db)); return err == nil })
	created := gmCommand(t, db, "game", "new", "toy", "--id", "m1", "--player", "ann=ann@example.org", "--player", "bob=bob@example.org")
	secret := regexp.MustCompile(`ann\s+\S+\s+secret (\S+)`).FindStringSubmatch(created)[1]
	require.NoError(t, srv.Append(bot, "INBOX", []byte("From: ann@example.org\r\nSubject: [m1 "+secret+"] orders\r\nMessage-ID: <o1@example.org>\r\n\r\nPUSH 2\r\n")))
	require.NoError(t, srv.Append(bot, "INBOX", []byte("From: ann@example.org\r\nSubject: away\r\nAuto-Submitted: auto-replied\r\nMessage-ID: <a1@example.org>\r\n\r\nI am away.\r\n")))
	var body string
	waitFor(t, "the counts", func() bool {
		_, body, _ = scrape(url)
		return strings.Contains(body, "orrery_mails_received_total 2\n") && strings.Contains(body, "orrery_ack_latency_seconds_count 1\n")
	})
	for _, want := range []string{"orrery_mails_answered_total 1\n", `orrery_mails_silenced_total{reason="automatic"} 1` + "\n",
		`orrery_mails_rejected_total{reason="automatic"} 1` + "\n", "orrery_orders_applied_total 1\n", "orrery_imap_up 1\n"} {
		assert.Contains(t, body, want)
	}
	code, health, err := scrape(base + "/healthz")
	require.NoError(t, err)
	assert.Equal(t, 200, code)
	assert.Equal(t, "ok\n", health)
	code, ready, err := scrape(base + "/readyz")
	require.NoError(t, err)
	assert.Equal(t, 200, code, ready)
}

// serve --embedded keeps its games in orrery-embedded.db in the working
// directory, says so at start and at exit, and finds them again.
func TestServeEmbeddedKeepsItsGames(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	db := filepath.Join(dir, "orrery-embedded.db")
	out, stop := startServe(t, "--embedded")
	waitFor(t, "the control socket", func() bool { _, err := os.Stat(ControlPath(db)); return err == nil })
	assert.Contains(t, out.String(), "db     "+db+" (kept when you stop")
	gmCommand(t, db, "game", "new", "toy", "--id", "kept", "--player", "ann=ann@example.org")
	stop()
	assert.Contains(t, out.String(), "the games are kept in "+db)

	_, stop = startServe(t, "--embedded")
	defer stop()
	waitFor(t, "the control socket", func() bool { _, err := os.Stat(ControlPath(db)); return err == nil })
	assert.Contains(t, gmCommand(t, db, "game", "list"), "kept")
}

// serve --embedded --db postgres:DSN keeps its games in PostgreSQL: no
// bbolt file appears in the working directory (the DSN is not a file
// name), the command it prints can be pasted into a shell, and a GM
// command on the same database reaches the games directly.
func TestServeEmbeddedOnPostgres(t *testing.T) {
	dsn := storetest.NewSchema(t)
	dir := t.TempDir()
	t.Chdir(dir)
	out, stop := startServe(t, "--embedded", "--http", "", "--db", "postgres:"+dsn)
	waitFor(t, "the daemon's summary", func() bool { return strings.Contains(out.String(), "Stop with Ctrl-C") })
	assert.Contains(t, out.String(), "--db '"+dsn+"'")
	gmCommand(t, "postgres:"+dsn, "game", "new", "toy", "--id", "kept", "--player", "ann=ann@example.org")
	assert.Contains(t, gmCommand(t, "postgres:"+dsn, "game", "list"), "kept")
	stop()
	assert.Contains(t, out.String(), "the games are kept in "+dsn)
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Empty(t, entries, "serve --embedded on PostgreSQL wrote files in the working directory")
}

// shellWord leaves plain words alone and quotes what a shell would read.
func TestShellWord(t *testing.T) {
	for in, want := range map[string]string{
		"/tmp/orrery-embedded.db":                "/tmp/orrery-embedded.db",
		"postgres://u@h:5432/db?sslmode=disable": "'postgres://u@h:5432/db?sslmode=disable'",
		"it's":                                   `'it'\''s'`,
		"":                                       "''",
	} {
		assert.Equal(t, want, shellWord(in), in)
	}
}

// runAll runs a command line with every ruleset.
func runAll(t *testing.T, db string, args ...string) (string, error) {
	t.Helper()
	var out bytes.Buffer
	e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &out, rulesets: games.All()}
	err := run(context.Background(), e, append(args, "--db", db))
	return out.String(), err
}

// game list keeps its columns with an 18-character id and the phase
// "fleet placement": every row's fields start where the header's do.
func TestGameListColumns(t *testing.T) {
	db := filepath.Join(t.TempDir(), "l.db")
	for _, id := range []string{"a", "eighteen-chars-id1"} {
		_, err := runAll(t, db, "game", "new", "earthman-classic", "--id", id, "--player", "ann=ann@example.org", "--player", "bob=bob@example.org")
		require.NoError(t, err)
	}
	out, err := runAll(t, db, "game", "list")
	require.NoError(t, err)
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	require.Len(t, lines, 3, out)
	assert.Contains(t, out, "fleet placement")
	starts := func(l string) []int {
		var at []int
		for i := range l {
			if i > 0 && l[i] != ' ' && l[i-1] == ' ' && l[i-2] == ' ' {
				at = append(at, i)
			}
		}
		return at
	}
	head := starts(lines[0])
	require.Len(t, head, 6, lines[0])
	for _, l := range lines[1:] {
		for _, col := range head[:5] {
			assert.NotEqual(t, ' ', rune(l[col]), "a field does not start under its header:\n%s", out)
			assert.Equal(t, ' ', rune(l[col-1]), "a field runs into the next column:\n%s", out)
		}
	}
}

// A bad flag: the error once, the usage line, where the help is; nothing
// on standard output.
func TestBadFlag(t *testing.T) {
	var stdout, stderr bytes.Buffer
	e := &env{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr, rulesets: games.All()}
	err := run(context.Background(), e, []string{"game", "list", "--bogus"})
	require.Error(t, err)
	assert.Equal(t, "flag provided but not defined: -bogus\nusage: orrery game list [--ruleset NAME] [--player ADDRESS] [--awaiting] [--open] [--limit N] [--after ID]\n(orrery game list --help says more)", err.Error())
	assert.Empty(t, stdout.String())
	assert.Empty(t, stderr.String(), "the flag package printed the error too")
	err = run(context.Background(), e, []string{"orders", "demo1", "--as"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "usage: orrery orders ID --as PLAYER -f FILE\n(orrery orders --help says more)")
}

func TestLengths(t *testing.T) {
	for in, want := range map[string]time.Duration{"72h": 72 * time.Hour, "3d": 72 * time.Hour, "2d12h": 60 * time.Hour, "90m": 90 * time.Minute, "0": 0} {
		got, err := parseLength(in)
		require.NoError(t, err, in)
		assert.Equal(t, want, got, in)
	}
	for _, bad := range []string{"3 days", "d", "-1d", "soon", "3x"} {
		_, err := parseLength(bad)
		if assert.Error(t, err, bad) {
			assert.Contains(t, err.Error(), "72h", bad)
		}
	}
	db := filepath.Join(t.TempDir(), "d.db")
	out := must(t, db, "", "game", "new", "toy", "--id", "g", "--player", "ann=ann@example.org", "--turn-length", "3d", "--remind", "1d")
	assert.Contains(t, out, "created g")
	_, err := cli(t, db, "", "game", "deadline", "g", "--extend", "2 days", "--reason", "x")
	require.Error(t, err)
	assert.Contains(t, err.Error(), `"2 days" is not a length of time: write days as 3d, or hours as 72h`)
}

func TestTimeZoneSuggestion(t *testing.T) {
	if len(zoneNames()) == 0 {
		t.Skip("no zoneinfo on this machine")
	}
	db := filepath.Join(t.TempDir(), "z.db")
	_, err := cli(t, db, "", "game", "new", "toy", "--id", "g", "--player", "ann=ann@example.org", "--schedule", "Mon 18:00", "--tz", "Berlin")
	require.Error(t, err)
	assert.Equal(t, `--tz "Berlin" is not a time zone name: did you mean Europe/Berlin?`, err.Error())
	_, err = cli(t, db, "", "game", "new", "toy", "--id", "g", "--player", "ann=ann@example.org", "--schedule", "Mon 18:00", "--tz", "new york")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "America/New_York")
	_, err = cli(t, db, "", "game", "new", "toy", "--id", "g", "--player", "ann=ann@example.org", "--schedule", "Mon 18:00", "--tz", "Atlantis")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "write an IANA name like Europe/Berlin")
	must(t, db, "", "game", "new", "toy", "--id", "g", "--player", "ann=ann@example.org", "--schedule", "Mon 18:00", "--tz", "Europe/Berlin")
}

// A command that reads games and finds no database says which file it
// looked for and how to name one, and creates nothing.
func TestNoDatabase(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	t.Setenv("ORRERY_CONFIG", "")
	_, err := cli(t, "", "", "game", "list")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "no database at orrery.db (the default: no --db, no --config, ORRERY_CONFIG not set)")
	assert.Contains(t, err.Error(), "--db FILE, --config FILE (its db key) or ORRERY_CONFIG=FILE")
	_, statErr := os.Stat(filepath.Join(dir, "orrery.db"))
	assert.True(t, os.IsNotExist(statErr), "an empty orrery.db was created")

	cfg := filepath.Join(dir, "c.yaml")
	require.NoError(t, os.WriteFile(cfg, []byte("db: games/club.db\n"), 0o600))
	_, err = cli(t, "", "", "game", "show", "x", "--as", "ann", "--config", cfg)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "no database at games/club.db (the db key of "+cfg+" (--config))")
	_, err = cli(t, filepath.Join(dir, "typo.db"), "", "game", "list")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "typo.db (--db)")
}

// orders check works offline for every ruleset.
func TestOrdersCheckOfflineEveryRuleset(t *testing.T) {
	bad := map[string]string{"prosper": "SETLE Rigel 10\n", "earthman-classic": "LANCH 1 FROM Earth TO Cislunar\n",
		"earthman": "LANCH 1 FROM Earth TO Cislunar\n", "burning": "FLYY 1 2\n", "orbital": "THRUSTT S1 +1\n"}
	for _, rs := range games.All() {
		name := rs.Info().Name
		text, ok := bad[name]
		require.True(t, ok, "no bad orders for %s here: add them", name)
		var out bytes.Buffer
		e := &env{stdin: strings.NewReader(text), stdout: &out, stderr: &out, rulesets: games.All()}
		err := run(context.Background(), e, []string{"orders", "check", name, "-f", "-"})
		require.Error(t, err, name)
		assert.Equal(t, "1 error", err.Error(), name)
		assert.Contains(t, out.String(), "line 1:", name)
		assert.NotContains(t, out.String(), "no offline check", name)
		out.Reset()
		e.stdin = strings.NewReader("# nothing yet\n")
		require.NoError(t, run(context.Background(), e, []string{"orders", "check", name, "-f", "-"}), name)
		assert.Contains(t, out.String(), "orders OK", name)
	}
}

// Handlers whose keys name the same address share one listener; another
// address gets its own. (metrics.listen now, the web pages later.)
func TestHTTPServersShareByAddress(t *testing.T) {
	hs := newHTTPServers()
	hs.Mux("127.0.0.1:0").HandleFunc("GET /metrics", func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "m") })
	hs.Mux("127.0.0.1:0").HandleFunc("GET /game/", func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "g") })
	hs.Mux("localhost:0").HandleFunc("GET /other", func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "o") })
	ctx, cancel := context.WithCancel(context.Background())
	bound, wait, err := hs.Start(ctx, slog.New(slog.DiscardHandler))
	require.NoError(t, err)
	require.Len(t, bound, 2)
	for path, want := range map[string]string{"/metrics": "m", "/game/x": "g"} {
		_, body, err := scrape("http://" + bound["127.0.0.1:0"] + path)
		require.NoError(t, err)
		assert.Equal(t, want, body)
	}
	code, _, _ := scrape("http://" + bound["localhost:0"] + "/metrics")
	assert.Equal(t, 404, code)
	cancel()
	wait()
	_, _, err = scrape("http://" + bound["127.0.0.1:0"] + "/metrics")
	assert.Error(t, err, "still listening after the context ended")
}

// metrics.listen naming http.listen's address shares the web pages'
// listener: /metrics and the pages answer on one port.
func TestMetricsBesideWebPages(t *testing.T) {
	const bot = "bot@pbem.test"
	srv := pbemtest.StartT(t, pbemtest.Options{Users: map[string]string{bot: "pw"}})
	dir := t.TempDir()
	t.Setenv("ORRERY_TEST_IMAP_PW", "pw")
	cfg := filepath.Join(dir, "config.yaml")
	port := freePort(t)
	require.NoError(t, os.WriteFile(cfg, []byte(fmt.Sprintf(`db: %s
from: "Orrery <%s>"
imap: {server: %s, tls: none, username: %s, password_env: ORRERY_TEST_IMAP_PW, idle: false, poll_interval: 50ms}
smtp: {server: %s, tls: none, auth: none}
log: {level: error}
http: {listen: "%s"}
metrics: {listen: "%s"}
`, filepath.Join(dir, "w.db"), bot, srv.IMAPAddr, bot, srv.SMTPAddr, port, port)), 0o600))
	out, stop := startServe(t, "--config", cfg)
	defer stop()
	url := metricsURL(t, out)
	assert.Contains(t, out.String(), "beside the web pages")
	code, body, err := scrape(url)
	require.NoError(t, err)
	assert.Equal(t, 200, code)
	assert.Contains(t, body, "orrery_mails_received_total")
	code, _, err = scrape(strings.TrimSuffix(url, "/metrics") + "/")
	require.NoError(t, err)
	assert.Equal(t, 200, code, "the web pages on the shared listener")
}
