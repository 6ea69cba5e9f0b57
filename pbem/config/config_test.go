package config

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const base = `
from: "Orrery <orrery@example.org>"
imap:
  server: 127.0.0.1:1143
  tls: none
  username: bot
  password_env: ORRERY_TEST_PW
smtp:
  server: 127.0.0.1:2525
  tls: none
  auth: none
`

func TestExampleConfigLoads(t *testing.T) {
	t.Setenv("ORRERY_IMAP_PASSWORD", "x")
	t.Setenv("ORRERY_SMTP_PASSWORD", "y")
	c, err := Load("../../config.example.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if c.IMAP.Server != "imap.example.org:993" || !c.IMAP.UseIdle() || c.Limits.MaxText != 262144 || c.Tick != 10*time.Second ||
		c.Bounces.VERP != "on" || c.Bounces.NoVERP() || c.Bounces.VERPDelimiter != "+" {
		t.Errorf("example decoded as %+v", c)
	}
	user, pw, err := c.SMTP.Credentials(context.Background())
	if user != "orrery@example.org" || pw != "y" || err != nil {
		t.Errorf("smtp credentials %q %q %v", user, pw, err)
	}
}

func TestDefaults(t *testing.T) {
	t.Setenv("ORRERY_TEST_PW", "pw")
	c, err := Parse([]byte(base))
	if err != nil {
		t.Fatal(err)
	}
	if c.DB != "orrery.db" || c.Folders.Processed != "Orrery/Processed" || c.Limits.Strangers != "daily" ||
		c.IMAP.Auth != "plain" || c.IMAP.PollInterval != 30*time.Second || c.Limits.RepliesPerHour != 30 ||
		c.SMTP.Connections != 1 || c.Limits.MaxMail != 20<<20 || c.Limits.BatchBytes != 32<<20 || c.Limits.ReadsPerMail != 3 ||
		c.Limits.MaxReply != 256<<10 || c.Limits.MaxObservers != 50 || c.Limits.PressPerDay != 50 || len(c.Security.PlusDistinctDomains) != 0 ||
		c.Games.OpenBy != "players" || c.Games.MaxOpen != 2 || c.Bounces.HardLimit != 3 || c.Bounces.Within != 14*24*time.Hour ||
		c.Bounces.VERP != "on" || c.Bounces.VERPDelimiter != "+" || c.Bounces.VERPLocal != "" ||
		c.Retention != 90*24*time.Hour || c.GCPercent != DefaultGCPercent || c.Backup != (Backup{Keep: 7}) || c.SMTP.KeepAlive != 10*time.Second {
		t.Errorf("defaults: %+v", c)
	}
	if c.Limits.StrangerRepliesDomainPerDay != 50 || c.Limits.StrangerJoinReserve != 100 || c.Games.NewPerDay != 3 || c.Games.InvitesPerDay != 20 {
		t.Errorf("budget defaults: domain %d, reserve %d, new %d, invites %d", c.Limits.StrangerRepliesDomainPerDay,
			c.Limits.StrangerJoinReserve, c.Games.NewPerDay, c.Games.InvitesPerDay)
	}
	// The reserve is a part of the global budget.
	if _, err := Parse([]byte(base + "limits:\n  stranger_replies_global_per_day: 100\n  stranger_join_reserve: 100\n")); err == nil ||
		!strings.Contains(err.Error(), "stranger_join_reserve") {
		t.Errorf("a reserve as large as the whole budget: %v", err)
	}
}

// The web pages are off without http.listen; with it, the address in mail
// defaults to the listen address, and a configured one loses its slash.
func TestHTTP(t *testing.T) {
	t.Setenv("ORRERY_TEST_PW", "pw")
	cases := []struct{ yaml, listen, url string }{
		{"", "", ""},
		{"http:\n  listen: 127.0.0.1:8080\n", "127.0.0.1:8080", "http://127.0.0.1:8080"},
		{"http:\n  listen: :8080\n", ":8080", "http://localhost:8080"},
		{"http:\n  listen: 127.0.0.1:8080\n  url: https://games.example.org/\n", "127.0.0.1:8080", "https://games.example.org"},
	}
	for _, c := range cases {
		cfg, err := Parse([]byte(base + c.yaml))
		if err != nil {
			t.Fatalf("%q: %v", c.yaml, err)
		}
		if cfg.HTTP.Listen != c.listen || cfg.HTTP.URL != c.url {
			t.Errorf("%q: listen %q url %q, want %q %q", c.yaml, cfg.HTTP.Listen, cfg.HTTP.URL, c.listen, c.url)
		}
	}
}

// Every bad config gets one message naming the key.
func TestBadConfigNamesTheKey(t *testing.T) {
	t.Setenv("ORRERY_TEST_PW", "pw")
	pwFile := filepath.Join(t.TempDir(), "pw")
	os.WriteFile(pwFile, []byte("secret\n"), 0o600)
	cases := []struct {
		name, edit, want string
	}{
		{"unknown top key", "colour: red\n", `colour: unknown key`},
		{"unknown nested key", strings.Replace(base, "username: bot", "usernme: bot", 1), `imap.usernme: unknown key (line 6`},
		{"no from", strings.Replace(base, `from: "Orrery <orrery@example.org>"`, "", 1), "from: missing"},
		{"bad from", strings.Replace(base, `"Orrery <orrery@example.org>"`, "orrery", 1), "from:"},
		{"no server", strings.Replace(base, "server: 127.0.0.1:1143", "", 1), "imap.server: missing"},
		{"no port", strings.Replace(base, "127.0.0.1:1143", "127.0.0.1", 1), "imap.server:"},
		{"plain text off loopback", strings.Replace(base, "127.0.0.1:1143", "imap.example.org:143", 1), "imap.tls: none"},
		{"bad tls", strings.Replace(base, "tls: none\n  username", "tls: ssl\n  username", 1), "imap.tls: must be"},
		{"no password", strings.Replace(base, "password_env: ORRERY_TEST_PW", "", 1), "imap.password_env: give exactly one"},
		{"empty env", strings.Replace(base, "ORRERY_TEST_PW", "ORRERY_UNSET_VARIABLE", 1), "ORRERY_UNSET_VARIABLE is empty"},
		{"both passwords", strings.Replace(base, "password_env: ORRERY_TEST_PW", "password_env: ORRERY_TEST_PW\n  password_file: "+pwFile, 1), "give exactly one"},
		{"oauth without token", strings.Replace(base, "password_env: ORRERY_TEST_PW", "auth: xoauth2", 1), "imap.oauth2: missing"},
		{"no token file", strings.Replace(base, "password_env: ORRERY_TEST_PW", "auth: xoauth2\n  oauth2:\n    token_file: /no/such/token", 1), "imap.oauth2.token_file: stat /no/such/token"},
		{"no token command", strings.Replace(base, "password_env: ORRERY_TEST_PW", "auth: xoauth2\n  oauth2:\n    token_command: [/no/such/refresher, --account, bot]", 1), "imap.oauth2.token_command:"},
		{"empty token command", strings.Replace(base, "password_env: ORRERY_TEST_PW", "auth: xoauth2\n  oauth2:\n    token_command: []", 1), "imap.oauth2: give exactly one"},
		{"smtp token file", strings.Replace(base, "auth: none", "auth: oauthbearer\n  username: bot\n  oauth2:\n    token_file: /no/such/token", 1), "smtp.oauth2.token_file:"},
		{"no host", strings.Replace(base, "127.0.0.1:1143", ":1143", 1), `imap.server: ":1143" names no host`},
		{"login on imap", strings.Replace(base, "password_env: ORRERY_TEST_PW", "auth: login\n  password_env: ORRERY_TEST_PW", 1), "imap.auth: must be one of plain, xoauth2, oauthbearer"},
		{"idle on smtp", base + "  idle: false\n", "smtp.idle"},
		{"too many connections", base + "  connections: 50\n", "smtp.connections: must be from 1 to 16"},
		{"connections on imap", strings.Replace(base, "username: bot", "username: bot\n  connections: 2", 1), "imap.connections"},
		{"bad strangers", base + "limits:\n  strangers: weekly\n", "limits.strangers"},
		{"bad sender_auth", base + "security:\n  sender_auth: spf\n", "security.sender_auth: must be dmarc, strict or off"},
		{"bad ping pong", base + "limits:\n  ping_pong: -1\n", "limits.ping_pong"},
		{"bad max_mail", base + "limits:\n  max_mail: -1\n", "limits.max_mail: must be positive"},
		{"max_mail under max_text", base + "limits:\n  max_mail: 1000\n", "limits.max_mail: 1000 bytes is less than limits.max_text"},
		{"bad reads_per_mail", base + "limits:\n  reads_per_mail: -3\n", "limits.reads_per_mail"},
		{"tiny max_reply", base + "limits:\n  max_reply: 100\n", "limits.max_reply: 100 bytes cannot hold a report"},
		{"bad max_observers", base + "limits:\n  max_observers: -1\n", "limits.max_observers"},
		{"bad press_per_day", base + "limits:\n  press_per_day: -1\n", "limits.press_per_day"},
		{"bad plus domain", base + "security:\n  plus_distinct_domains: [ann@example.org]\n", `security.plus_distinct_domains: "ann@example.org" is not a domain`},
		{"bad open_by", base + "games:\n  open_by: everybody\n", "games.open_by: must be anyone, players or gm"},
		{"bad max_open", base + "games:\n  max_open: -1\n", "games.max_open"},
		{"bad hard_limit", base + "bounces:\n  hard_limit: -3\n", "bounces.hard_limit"},
		{"bad within", base + "bounces:\n  within: a fortnight\n", `bounces.within: "a fortn..." is not a duration`},
		{"bad verp", base + "bounces:\n  verp: yes\n", `bounces.verp: must be on or off, not "yes"`},
		{"bad verp_delimiter", base + "bounces:\n  verp_delimiter: \"++\"\n", "bounces.verp_delimiter"},
		{"bad verp_local", base + "bounces:\n  verp_local: a@b\n", "bounces.verp_local"},
		{"long verp_local", base + "bounces:\n  verp_local: " + strings.Repeat("a", 30) + "\n", "bounces.verp_local"},
		{"bad duration", base + "tick: soon\n", `tick: "soon" is not a duration`},
		{"negative retention", base + "retention: -24h\n", "retention: must be positive"},
		{"negative gc_percent", base + "gc_percent: -1\n", "gc_percent: must be positive"},
		{"keep_alive on imap", strings.Replace(base, "imap:\n", "imap:\n  keep_alive: 10s\n", 1), "imap.keep_alive: the IMAP connection stays open anyway"},
		{"long keep_alive", strings.Replace(base, "smtp:\n", "smtp:\n  keep_alive: 1h\n", 1), "smtp.keep_alive: at most 5m"},
		{"backup without dir", base + "backup:\n  every: 24h\n", "backup.every needs backup.dir"},
		{"negative backup.every", base + "backup:\n  dir: /tmp\n  every: -1h\n", "backup.every: must be positive"},
		{"backup every second", base + "backup:\n  dir: /tmp\n  every: 1s\n", "backup.every: at least 1m"},
		{"negative backup.keep", base + "backup:\n  dir: /tmp\n  keep: -1\n", "backup.keep: must be positive"},
		{"backup of postgres", base + "store: postgres\ndsn: postgres://orrery@localhost/orrery\nbackup:\n  dir: /tmp\n", "back up PostgreSQL with its own tools"},
		{"same folders", base + "folders:\n  processed: INBOX\n", "folders:"},
		{"bad type", base + "limits:\n  max_text: lots\n", `limits.max_text: "lots" is not a whole number`},
		{"no templates dir", base + "templates: /no/such/dir\n", "templates:"},
		{"bad log level", base + "log_level: loud\n", "log.level"},
		{"bad log.level", base + "log:\n  level: loud\n", "log.level: must be"},
		{"both log levels", base + "log_level: info\nlog:\n  level: debug\n", "log_level: give log.level only"},
		{"bad log.format", base + "log:\n  format: xml\n", "log.format: must be text or json"},
		{"bad metrics.listen", base + "metrics:\n  listen: 9464\n", "metrics.listen:"},
		{"bad no-secret game", base + "security:\n  no_secret_games: [friends, Big Game]\n", `security.no_secret_games: "Big Game" is not a game id`},
		{"http listen not host:port", base + "http:\n  listen: 8080\n", `http.listen: "8080" must be host:port`},
		{"http bad port", base + "http:\n  listen: 127.0.0.1:http\n", "http.listen: port"},
		{"http url without listen", base + "http:\n  url: https://games.example.org\n", "http.url: needs http.listen"},
		{"http url not http", base + "http:\n  listen: 127.0.0.1:8080\n  url: ftp://games.example.org\n", "http.url:"},
		{"empty", "", "empty"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse([]byte(c.edit))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("got %v, want an error containing %q", err, c.want)
			}
			if err != nil && strings.Count(err.Error(), "\n") > 0 {
				t.Errorf("message spans lines: %q", err)
			}
		})
	}
}

// TestSenderAuth: DMARC is on unless the config says otherwise, and the
// keys it replaced still load, each with a warning naming the new key.
func TestSenderAuth(t *testing.T) {
	t.Setenv("ORRERY_TEST_PW", "pw")
	tests := []struct {
		name, edit, want string
		warnings         []string
	}{
		{"default", base, "dmarc", nil},
		{"off", base + "security:\n  sender_auth: off\n", "off", nil},
		{"require_dkim", base + "security:\n  auth_serv_id: mx.example.org\n  require_dkim: true\n", "strict",
			[]string{"security.require_dkim is replaced by security.sender_auth", "read as strict"}},
		{"verify_dkim false", base + "security:\n  verify_dkim: false\n", "dmarc", []string{"security.verify_dkim is replaced by security.sender_auth"}},
		{"old key beside the new", base + "security:\n  require_spf: true\n  sender_auth: dmarc\n", "dmarc", []string{"security.require_spf is replaced"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Parse([]byte(tc.edit))
			if err != nil {
				t.Fatal(err)
			}
			if c.Security.SenderAuth != tc.want || c.Security.DNSGrace != time.Hour {
				t.Errorf("sender_auth %q, dns_grace %v; want %q, 1h", c.Security.SenderAuth, c.Security.DNSGrace, tc.want)
			}
			if len(c.Warnings) != len(tc.warnings) {
				t.Fatalf("warnings %q, want %q", c.Warnings, tc.warnings)
			}
			for i, w := range tc.warnings {
				if !strings.Contains(c.Warnings[i], w) {
					t.Errorf("warning %q, want %q", c.Warnings[i], w)
				}
			}
		})
	}
}

func TestPasswordFileAndTokens(t *testing.T) {
	dir := t.TempDir()
	pw := filepath.Join(dir, "pw")
	os.WriteFile(pw, []byte("hunter2\nignored\n"), 0o600)
	c, err := Parse([]byte(strings.Replace(base, "password_env: ORRERY_TEST_PW", "password_file: "+pw, 1)))
	if err != nil {
		t.Fatal(err)
	}
	if _, p, err := c.IMAP.Credentials(context.Background()); p != "hunter2" || err != nil {
		t.Errorf("password file: %q %v", p, err)
	}
	tok := filepath.Join(dir, "tok")
	os.WriteFile(tok, []byte("tok1\n"), 0o600)
	c, err = Parse([]byte(strings.Replace(base, "password_env: ORRERY_TEST_PW", "auth: xoauth2\n  oauth2:\n    token_file: "+tok, 1)))
	if err != nil {
		t.Fatal(err)
	}
	if _, p, _ := c.IMAP.Credentials(context.Background()); p != "tok1" {
		t.Errorf("token file: %q", p)
	}
	os.WriteFile(tok, []byte(`{"access_token": "tok2", "expires_in": 3600}`), 0o600)
	if _, p, _ := c.IMAP.Credentials(context.Background()); p != "tok2" {
		t.Errorf("rewritten token file: %q", p)
	}
}

// A token command runs again only once its token has expired.
func TestTokenCommandRefreshes(t *testing.T) {
	dir := t.TempDir()
	counter := filepath.Join(dir, "n")
	script := filepath.Join(dir, "tok.sh")
	os.WriteFile(script, []byte("#!/bin/sh\necho x >> "+counter+"\nn=$(wc -l < "+counter+")\necho \"{\\\"access_token\\\": \\\"t$n\\\", \\\"expires_in\\\": 3600}\"\n"), 0o700)
	c, err := Parse([]byte(strings.Replace(base, "password_env: ORRERY_TEST_PW", "auth: oauthbearer\n  oauth2:\n    token_command: ["+script+"]", 1)))
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	c.IMAP.tokens.now = func() time.Time { return now }
	get := func() string {
		_, p, err := c.IMAP.Credentials(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(p)
	}
	if a, b := get(), get(); a != "t1" || b != "t1" {
		t.Errorf("tokens %q %q, want t1 cached", a, b)
	}
	now = now.Add(time.Hour)
	if p := get(); p != "t2" {
		t.Errorf("after expiry: %q, want t2", p)
	}
}

func TestGMSecret(t *testing.T) {
	t.Setenv("ORRERY_TEST_PW", "pw")
	c, err := Parse([]byte(base))
	if err != nil {
		t.Fatal(err)
	}
	if s, err := c.GMSecret(); s != "" || err != nil {
		t.Errorf("no GM secret configured: %q %v", s, err)
	}
	file := filepath.Join(t.TempDir(), "gm")
	os.WriteFile(file, []byte("s3cret-s3cret-s3cret\n"), 0o600)
	c, err = Parse([]byte("gm: gm@example.org\ngm_secret_file: " + file + "\n" + base))
	if err != nil {
		t.Fatal(err)
	}
	if s, err := c.GMSecret(); s != "s3cret-s3cret-s3cret" || err != nil {
		t.Errorf("GM secret from file: %q %v", s, err)
	}
	t.Setenv("ORRERY_TEST_GM", "envsecret-envsecret")
	c, err = Parse([]byte("gm: gm@example.org\ngm_secret_env: ORRERY_TEST_GM\n" + base))
	if err != nil {
		t.Fatal(err)
	}
	if s, _ := c.GMSecret(); s != "envsecret-envsecret" {
		t.Errorf("GM secret from env: %q", s)
	}
	for _, bad := range []string{
		"gm: gm@example.org\ngm_secret_env: ORRERY_TEST_UNSET\n",
		"gm_secret_env: ORRERY_TEST_GM\n",
		"gm: gm@example.org\ngm_secret_env: ORRERY_TEST_GM\ngm_secret_file: " + file + "\n",
	} {
		if _, err := Parse([]byte(bad + base)); err == nil || !strings.Contains(err.Error(), "gm_secret") {
			t.Errorf("%q: error %v, want one naming gm_secret", bad, err)
		}
	}
}

// A short GM secret is refused at load, whichever way it is given; a long
// or generated one is taken.
func TestGMSecretStrength(t *testing.T) {
	t.Setenv("ORRERY_TEST_PW", "pw")
	dir := t.TempDir()
	for _, c := range []struct {
		name, secret string
		ok           bool
	}{
		{"one character", "x", false},
		{"fifteen", "abcdefghijklmno", false},
		{"sixteen", "abcdefghijklmnop", true},
		{"generated", NewSecret(), true},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("ORRERY_TEST_GM", c.secret)
			file := filepath.Join(dir, c.name)
			require.NoError(t, os.WriteFile(file, []byte(c.secret+"\n"), 0o600))
			for _, how := range []string{"gm_secret_env: ORRERY_TEST_GM\n", "gm_secret_file: " + file + "\n"} {
				_, err := Parse([]byte("gm: gm@example.org\n" + how + base))
				if c.ok {
					assert.NoError(t, err, how)
					continue
				}
				if assert.Error(t, err, how) {
					key, _, _ := strings.Cut(how, ":")
					assert.Contains(t, err.Error(), key+": the GM secret has")
					assert.Contains(t, err.Error(), "orrery secret new")
					assert.NotContains(t, err.Error(), c.secret+" ", "the message must not repeat the secret")
				}
			}
		})
	}
	a, b := NewSecret(), NewSecret()
	assert.NotEqual(t, a, b)
	assert.Regexp(t, `^[a-z2-7]{26}$`, a)
}

func TestLogAndMetricsKeys(t *testing.T) {
	t.Setenv("ORRERY_TEST_PW", "pw")
	c, err := Parse([]byte(base))
	require.NoError(t, err)
	assert.Equal(t, Log{Level: "info", Format: "text"}, c.Log)
	assert.Empty(t, c.Metrics.Listen, "metrics are off by default")
	c, err = Parse([]byte(base + "log_level: warn\n"))
	require.NoError(t, err)
	assert.Equal(t, "warn", c.Log.Level, "log_level is still read")
	c, err = Parse([]byte(base + "log:\n  level: debug\n  format: json\nmetrics:\n  listen: 127.0.0.1:9464\n"))
	require.NoError(t, err)
	assert.Equal(t, Log{Level: "debug", Format: "json"}, c.Log)
	assert.Equal(t, "127.0.0.1:9464", c.Metrics.Listen)
	assert.Empty(t, c.SecurityWarnings())
}

// Files of secrets readable by others, and metrics on every address, are
// warned about; owner-only files are not.
func TestWarnings(t *testing.T) {
	t.Setenv("ORRERY_TEST_PW", "pw")
	dir := t.TempDir()
	open := filepath.Join(dir, "open")
	closed := filepath.Join(dir, "closed")
	require.NoError(t, os.WriteFile(open, []byte("hunter2-hunter2-hunter2\n"), 0o644))
	require.NoError(t, os.WriteFile(closed, []byte("hunter2-hunter2-hunter2\n"), 0o600))
	require.NoError(t, os.Chmod(open, 0o644)) // whatever the umask
	doc := strings.Replace(base, "password_env: ORRERY_TEST_PW", "password_file: "+open, 1) +
		"gm: gm@example.org\ngm_secret_file: " + closed + "\nmetrics:\n  listen: :9464\n"
	c, err := Parse([]byte(doc))
	require.NoError(t, err)
	w := c.SecurityWarnings()
	require.Len(t, w, 2, "%q", w)
	assert.Contains(t, w[0], "imap.password_file: "+open+" can be read by other users (mode 0644); run chmod 600")
	assert.Contains(t, w[1], "metrics.listen: :9464 is reachable from other machines")
}

// TestVERPOff: bounces.verp: off reads as off (YAML 1.1 would make it a
// boolean).
func TestVERPOff(t *testing.T) {
	t.Setenv("ORRERY_TEST_PW", "pw")
	c, err := Parse([]byte(base + "bounces:\n  verp: off\n  verp_local: bounces\n  verp_delimiter: \"-\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if !c.Bounces.NoVERP() || c.Bounces.VERPLocal != "bounces" || c.Bounces.VERPDelimiter != "-" {
		t.Errorf("bounces %+v", c.Bounces)
	}
}

// TestDecodeIsStrictButUnchecked: Decode, for the commands that read a
// few keys, names a misspelt key as Parse does, but asks for none of what
// only orrery serve needs (from, the servers, their passwords).
func TestDecodeIsStrictButUnchecked(t *testing.T) {
	c, err := Decode([]byte("gm: gm@example.org\nbounces:\n  hard_limit: 5\n"))
	if err != nil || c.GM != "gm@example.org" || c.Bounces.HardLimit != 5 {
		t.Errorf("Decode of a partial config: %+v, %v", c, err)
	}
	if _, err := Decode([]byte("bounces:\n  hard_limt: 5\n")); err == nil || !strings.Contains(err.Error(), "bounces.hard_limt: unknown key") {
		t.Errorf("Decode of a misspelt key: %v", err)
	}
}
