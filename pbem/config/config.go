// Package config reads the daemon's YAML configuration (config.example.yaml
// at the top of the repository shows every key). Decoding is strict: an
// unknown key, a wrong type or an inconsistent setting is one error that
// names the key ("imap.tls: ..."), so an operator never runs a daemon that
// silently ignores half of its configuration.
package config

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"go.yaml.in/yaml/v3"
)

// Config is the whole file.
type Config struct {
	DB   string `yaml:"db"`   // database file (default orrery.db)
	From string `yaml:"from"` // the bot's address: "Orrery <orrery@example.org>"
	GM   string `yaml:"gm"`   // the game master's address for notices
	// GMSecretEnv or GMSecretFile hold the GM secret, which a mail from
	// the gm address must carry ("SECRET ...") to run GM commands. Like
	// passwords it never goes in this file; with neither, GM commands by
	// mail are off.
	GMSecretEnv  string   `yaml:"gm_secret_env"`
	GMSecretFile string   `yaml:"gm_secret_file"`
	IMAP         Server   `yaml:"imap"`      // where players' mail arrives
	SMTP         Server   `yaml:"smtp"`      // where the bot's mail leaves
	Folders      Folders  `yaml:"folders"`   // where read mail is filed
	Limits       Limits   `yaml:"limits"`    // what the daemon accepts and sends
	Security     Security `yaml:"security"`  // who may act for a seat
	Templates    string   `yaml:"templates"` // directory of template overrides ("" = built in)
	HTTP         HTTP     `yaml:"http"`      // the read-only web pages (off unless listen is set)
	// DKIM signs the bot's mail in process (dkim.go), off unless set.
	DKIM DKIM `yaml:"dkim"`
	// Games says who may open games by mail (NEW) and how many at once.
	Games Games `yaml:"games"`
	// Bounces says when an address whose mail bounces is given up on.
	Bounces Bounces `yaml:"bounces"`
	// Tick is how often deadlines and reminders are checked.
	Tick time.Duration `yaml:"tick"`
	// MinNotice is how long at least a deadline moved earlier stays
	// after the mail that tells the players (default 1h): no step is
	// resolved by its deadline sooner after a mail that told a later one.
	MinNotice time.Duration `yaml:"min_notice"`
	// Vacation is the players' yearly allowance of vacation days.
	Vacation Vacation `yaml:"vacation"`
	// Retention is how long records of sent mail are kept whole; older
	// ones are compacted to what game log shows (default 2160h, 90 days).
	Retention time.Duration `yaml:"retention"`
	// Backup has orrery serve copy its bbolt file while it runs.
	Backup Backup `yaml:"backup"`
	// GCPercent is the Go garbage collector's target (GOGC) for orrery
	// serve: the heap may grow this many percent over what is live before
	// a collection. The daemon's live heap is small (tens of MB at 100,000
	// games) and a turn's reports allocate a lot, so the default, 400,
	// trades a few tens of MB for about a third less CPU a mail (see
	// docs/benchmarks.md). GOGC in the environment wins over it.
	GCPercent int `yaml:"gc_percent"`
	// LogLevel is the older spelling of log.level, still read.
	LogLevel string `yaml:"log_level"`

	// Warnings name the keys of an older config that still load but are
	// replaced, with the key to use instead; orrery serve logs them.
	Warnings []string `yaml:"-"`
	// Log and Metrics are the operator's keys (operate.go).
	Log     Log     `yaml:"log"`
	Metrics Metrics `yaml:"metrics"`
	// Database chooses the store: bbolt (db) or PostgreSQL (store.go).
	Database `yaml:",inline"`
}

// Vacation is the yearly allowance of vacation days every player has
// (AllowanceDays, default 0: none), spent by the hour when a deadline
// passes without their orders: the step waits for them, up to each
// game's max_vacation, instead of playing their defaults.
type Vacation struct {
	AllowanceDays int `yaml:"allowance_days"`
}

// Backup is where and how often orrery serve copies its bbolt file (the
// games and everything else the store holds) while it runs: a file copy
// taken from outside meanwhile may hold half a commit, and nothing else
// may open the file. PostgreSQL is backed up with its own tools.
type Backup struct {
	// Dir receives the copies, orrery-YYYYMMDDTHHMMSSZ.db, owner-only;
	// `orrery db backup` through a running daemon writes one there too.
	Dir string `yaml:"dir"`
	// Every is how often a copy is taken (0: only when asked, by orrery
	// db backup).
	Every time.Duration `yaml:"every"`
	// Keep is how many copies are kept (default 7); older ones in Dir
	// are deleted after each new one.
	Keep int `yaml:"keep"`
}

// Server is an IMAP or SMTP server and the account on it.
type Server struct {
	Server string `yaml:"server"` // host:port
	// TLS is implicit (IMAPS 993, SMTPS 465), starttls (143, 587) or
	// none, which is only allowed on a loopback address.
	TLS      string `yaml:"tls"`
	Username string `yaml:"username"`
	// Auth is plain, login (SMTP only), xoauth2, oauthbearer or none
	// (SMTP only). Default: plain, or xoauth2 with oauth2.
	Auth         string  `yaml:"auth"`
	PasswordEnv  string  `yaml:"password_env"`  // name of an environment variable holding the password
	PasswordFile string  `yaml:"password_file"` // file holding the password (first line)
	OAuth2       *OAuth2 `yaml:"oauth2"`
	// Idle uses IMAP IDLE where the server has it (default true); with
	// false the mailbox is polled every PollInterval.
	Idle         *bool         `yaml:"idle"`
	PollInterval time.Duration `yaml:"poll_interval"`
	// Connections is how many connections send mail at once (SMTP only;
	// default 1, at most 16): more help over a slow link to a distant
	// provider, within its cap per account; not on loopback.
	Connections int `yaml:"connections"`
	// KeepAlive is how long a connection is kept open after a batch for
	// the next one (SMTP only; default 10s; a negative duration, -1s,
	// closes each after its batch): a new connection costs a
	// greeting, TLS and a login, and providers count them.
	KeepAlive time.Duration `yaml:"keep_alive"`

	tokens *tokenSource
}

// OAuth2 says where a bearer token comes from.
type OAuth2 struct {
	// TokenFile holds the access token; it is read again whenever the
	// token is needed, so an outside refresher may rewrite it.
	TokenFile string `yaml:"token_file"`
	// TokenCommand prints the access token, or JSON with access_token and
	// expires_in; it is run again once the token has expired.
	TokenCommand []string `yaml:"token_command"`
}

// Folders name the IMAP folders.
type Folders struct {
	Inbox     string `yaml:"inbox"`
	Processed string `yaml:"processed"`
	Rejected  string `yaml:"rejected"`
}

// HTTP serves every game as read-only web pages (pbem/web).
type HTTP struct {
	// Listen is the host:port the pages are served on ("" = no pages).
	// Put a reverse proxy with TLS in front: 127.0.0.1:8080 behind
	// nginx or Caddy.
	Listen string `yaml:"listen"`
	// URL is the address players reach the pages at, through the proxy
	// ("https://games.example.org"): links in report mails and the Atom
	// feed use it. Default: http://LISTEN.
	URL string `yaml:"url"`
}

// Games are the games players open by mail (NEW ruleset).
type Games struct {
	// OpenBy is who may: anyone, players (an address that holds or held
	// a seat here; the default) or gm (the GM alone, from the gm address
	// with the GM secret).
	OpenBy string `yaml:"open_by"`
	// MaxOpen is how many games not over one address may have opened at
	// once (default 2).
	MaxOpen int `yaml:"max_open"`
	// NewPerDay is how many games one person may open by mail in any 24
	// hours (default 3); InvitesPerDay how many addresses they may invite
	// (default 20). The GM is not limited.
	NewPerDay     int `yaml:"new_per_day"`
	InvitesPerDay int `yaml:"invites_per_day"`
}

// Bounces say when an address is given up on: after HardLimit hard
// bounces (delivery status notifications that answer our own mail, or a
// mail the server refused for good) within Within, it is mailed no more
// and its seats count as abandoned. Defaults 3 and 336h (14 days).
//
// VERP ("on", the default, or "off") says whether every mail's envelope
// sender names it, VERPLocal+VERPDelimiter+"b-"+token@domain (defaults:
// the From address's local part and domain, and "+"), so that only a DSN
// delivered to such an address counts (pbem/bounce verp.go). Off is for a
// mailbox that cannot receive +addresses: a DSN's quoted Message-ID tells
// the mail then, and the DSN must pass security.sender_auth.
type Bounces struct {
	HardLimit     int           `yaml:"hard_limit"`
	Within        time.Duration `yaml:"within"`
	VERP          string        `yaml:"verp"`
	VERPDelimiter string        `yaml:"verp_delimiter"`
	VERPLocal     string        `yaml:"verp_local"`
}

// NoVERP says bounces.verp is off.
func (b Bounces) NoVERP() bool { return b.VERP == "off" }

// DefaultGCPercent is gc_percent when the config leaves it out (see
// Config.GCPercent).
const DefaultGCPercent = 400

// Limits bound what the daemon reads and sends.
type Limits struct {
	MaxText        int    `yaml:"max_text"`         // bytes of text read from a mail (default 262144)
	RepliesPerHour int    `yaml:"replies_per_hour"` // answers to one address (default 30)
	Strangers      string `yaml:"strangers"`        // daily (one reply a day to unknown senders) or none
	// PingPong: answers to one address on one subject within an hour
	// that changed nothing, before the bot stops answering (default 3).
	PingPong int `yaml:"ping_pong"`
	// StrangerRepliesPerDay caps the replies a day to one address in none
	// of our games (default 5); StrangerRepliesGlobalPerDay those to all
	// of them together (default 500).
	StrangerRepliesPerDay       int `yaml:"stranger_replies_per_day"`
	StrangerRepliesGlobalPerDay int `yaml:"stranger_replies_global_per_day"`
	// StrangerRepliesDomainPerDay caps those to the addresses of one
	// organisational domain (default a tenth of the global budget, at
	// least stranger_replies_per_day); StrangerJoinReserve is the part of
	// the global budget kept for answers to JOIN (default a fifth), of
	// which one domain takes at most the same share.
	StrangerRepliesDomainPerDay int `yaml:"stranger_replies_domain_per_day"`
	StrangerJoinReserve         int `yaml:"stranger_join_reserve"`
	// MaxMail is the largest mail fetched whole (default 20 MiB): a larger
	// one is answered from its header and filed under rejected. BatchBytes
	// bounds the bytes fetched whole at once (default 32 MiB).
	MaxMail    int64 `yaml:"max_mail"`
	BatchBytes int64 `yaml:"batch_bytes"`
	// ReadsPerMail is how many read commands one mail gets answered
	// (default 3); MaxReply the largest answer in bytes (default 262144);
	// MaxObservers the observers one game takes by mail (default 50).
	ReadsPerMail int `yaml:"reads_per_mail"`
	MaxReply     int `yaml:"max_reply"`
	MaxObservers int `yaml:"max_observers"`
	// PressPerDay is how much press one seat may have relayed in any 24
	// hours (default 50).
	PressPerDay int `yaml:"press_per_day"`
	// PreviewsPerStep is how many PREVIEWs one seat gets answered in
	// one step of a game (default 3).
	PreviewsPerStep int `yaml:"previews_per_step"`
}

// Security is sender authentication.
type Security struct {
	// NoSecret accepts orders from a registered address without the
	// player's secret (games among friends).
	NoSecret bool `yaml:"no_secret"`
	// NoSecretGames does the same for the games named only.
	NoSecretGames []string `yaml:"no_secret_games"`
	// SenderAuth is how a sender is authenticated before the secret is
	// looked at: dmarc (the default: the From domain's published DMARC
	// policy applies), strict (every mail must be vouched for by an
	// aligned DKIM signature or SPF pass) or off (the secret alone).
	SenderAuth string `yaml:"sender_auth"`
	// AuthServID is the authserv-id of our receiving server's
	// Authentication-Results header: its SPF result counts towards DMARC
	// alignment when it is the topmost such header.
	AuthServID string `yaml:"auth_serv_id"`
	// DNSGrace is how long DNS may fail for a sender's domain, the mail
	// waiting in the inbox, before the domain counts as having no DMARC
	// record (default 1h).
	DNSGrace time.Duration `yaml:"dns_grace"`
	// PlusDistinctDomains lists the domains where local+tag@ is another
	// person's mailbox; elsewhere an address's +tags are one person for
	// OBSERVE, JOIN and strangers' reply budgets.
	PlusDistinctDomains []string `yaml:"plus_distinct_domains"`

	// Replaced by sender_auth; still read, with a warning.
	RequireDKIM  *bool `yaml:"require_dkim"`
	RequireSPF   *bool `yaml:"require_spf"`
	RequireDMARC *bool `yaml:"require_dmarc"`
	VerifyDKIM   *bool `yaml:"verify_dkim"`
}

// Load reads and checks a config file.
func Load(path string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	c, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("config %s: %w", path, err)
	}
	return c, nil
}

// gameID is what a game id looks like (engine/game's rule).
var gameID = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,31}$`)

var (
	yamlUnknown = regexp.MustCompile(`line (\d+): field (\S+) not found`)
	yamlType    = regexp.MustCompile("line (\\d+): cannot unmarshal !!\\w+ `([^`]*)` into (\\S+)")
)

// keyPath names the key on a line of the document, with its parents
// ("imap.tls"), from the indentation.
func keyPath(data []byte, line int) string {
	lines := strings.Split(string(data), "\n")
	if line < 1 || line > len(lines) {
		return ""
	}
	indent := func(l string) int { return len(l) - len(strings.TrimLeft(l, " ")) }
	key := func(l string) string {
		k, _, _ := strings.Cut(strings.TrimSpace(l), ":")
		return strings.TrimPrefix(k, "- ")
	}
	path := []string{key(lines[line-1])}
	in := indent(lines[line-1])
	for i := line - 2; i >= 0 && in > 0; i-- {
		l := lines[i]
		if strings.TrimSpace(l) == "" || strings.HasPrefix(strings.TrimSpace(l), "#") {
			continue
		}
		if indent(l) < in {
			path = append([]string{key(l)}, path...)
			in = indent(l)
		}
	}
	return strings.Join(path, ".")
}

var typeNames = map[string]string{"time.Duration": "a duration like 30s or 10m", "int": "a whole number", "bool": "true or false", "string": "a string", "[]string": "a list like [cmd, arg]"}

// Parse decodes and checks a config document.
func Parse(data []byte) (*Config, error) {
	c, err := Decode(data)
	if err != nil {
		return nil, err
	}
	if err := c.check(); err != nil {
		return nil, err
	}
	return c, nil
}

// Decode decodes a config document as strictly as Parse (an unknown key or
// a value of the wrong type is an error naming the key) but makes none of
// Parse's checks and fills no defaults. It is for the commands that need a
// few keys (the database, the GM's address, the bounce policy) and run in
// a GM's shell, which need not hold the servers' passwords: a typo in the
// file must still be an error there, not a silent default.
func Decode(data []byte) (*Config, error) {
	var c Config
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&c); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, errors.New("the file is empty")
		}
		msg := err.Error()
		if m := yamlUnknown.FindStringSubmatch(msg); m != nil {
			n, _ := strconv.Atoi(m[1])
			return nil, fmt.Errorf("%s: unknown key (line %s; config.example.yaml shows every key)", keyPath(data, n), m[1])
		}
		if m := yamlType.FindStringSubmatch(msg); m != nil {
			n, _ := strconv.Atoi(m[1])
			want := typeNames[m[3]]
			if want == "" {
				want = m[3]
			}
			return nil, fmt.Errorf("%s: %q is not %s (line %s)", keyPath(data, n), m[2], want, m[1])
		}
		return nil, errors.New(strings.ReplaceAll(strings.TrimPrefix(msg, "yaml: "), "\n", " "))
	}
	return &c, nil
}

// check fills defaults and validates; errors name the key.
func (c *Config) check() error {
	if c.DB == "" {
		c.DB = "orrery.db"
	}
	if err := c.Database.checkDatabase(); err != nil {
		return err
	}
	if c.From == "" {
		return errors.New("from: missing: the bot's address, like \"Orrery <orrery@example.org>\"")
	}
	if !strings.Contains(c.From, "@") {
		return fmt.Errorf("from: %q is not a mail address", c.From)
	}
	switch {
	case c.GMSecretEnv != "" && c.GMSecretFile != "":
		return errors.New("gm_secret_env: give at most one of gm_secret_env and gm_secret_file")
	case (c.GMSecretEnv != "" || c.GMSecretFile != "") && c.GM == "":
		return errors.New("gm_secret_env: a GM secret needs the gm address it is accepted from")
	}
	if c.GMSecretEnv != "" || c.GMSecretFile != "" {
		secret, err := c.GMSecret()
		if err != nil {
			return fmt.Errorf("gm_secret: %w", err)
		}
		if err := checkGMSecretStrength(c.gmSecretKey(), secret); err != nil {
			return err
		}
	}
	if err := c.IMAP.check("imap", false); err != nil {
		return err
	}
	if err := c.checkDKIM(); err != nil {
		return err
	}
	if err := c.SMTP.check("smtp", true); err != nil {
		return err
	}
	if c.Folders.Inbox == "" {
		c.Folders.Inbox = "INBOX"
	}
	if c.Folders.Processed == "" {
		c.Folders.Processed = "Orrery/Processed"
	}
	if c.Folders.Rejected == "" {
		c.Folders.Rejected = "Orrery/Rejected"
	}
	if c.Folders.Processed == c.Folders.Inbox || c.Folders.Rejected == c.Folders.Inbox {
		return errors.New("folders: processed and rejected must differ from inbox, or mail would be read forever")
	}
	if c.Limits.MaxText < 0 {
		return errors.New("limits.max_text: must be a positive number of bytes")
	}
	c.Limits.MaxText = cmp.Or(c.Limits.MaxText, 256<<10)
	if c.Limits.RepliesPerHour < 0 {
		return errors.New("limits.replies_per_hour: must be positive")
	}
	c.Limits.RepliesPerHour = cmp.Or(c.Limits.RepliesPerHour, 30)
	if err := choice("limits.strangers", &c.Limits.Strangers, "daily", "daily", "none"); err != nil {
		return err
	}
	for _, id := range c.Security.NoSecretGames {
		if !gameID.MatchString(id) {
			return fmt.Errorf("security.no_secret_games: %q is not a game id (lowercase letters, digits, dashes)", id)
		}
	}
	if err := c.Security.check(c); err != nil {
		return err
	}
	if c.Limits.PingPong < 0 || c.Limits.StrangerRepliesPerDay < 0 || c.Limits.StrangerRepliesGlobalPerDay < 0 {
		return errors.New("limits.ping_pong: ping_pong and the stranger reply budgets must be positive")
	}
	c.Limits.PingPong = cmp.Or(c.Limits.PingPong, 3)
	c.Limits.StrangerRepliesPerDay = cmp.Or(c.Limits.StrangerRepliesPerDay, 5)
	c.Limits.StrangerRepliesGlobalPerDay = cmp.Or(c.Limits.StrangerRepliesGlobalPerDay, 500)
	if c.Limits.StrangerRepliesDomainPerDay < 0 || c.Limits.StrangerJoinReserve < 0 {
		return errors.New("limits.stranger_replies_domain_per_day, stranger_join_reserve: must be positive")
	}
	if c.Limits.StrangerRepliesDomainPerDay == 0 {
		c.Limits.StrangerRepliesDomainPerDay = max(c.Limits.StrangerRepliesPerDay, c.Limits.StrangerRepliesGlobalPerDay/10)
	}
	if c.Limits.StrangerJoinReserve == 0 {
		c.Limits.StrangerJoinReserve = c.Limits.StrangerRepliesGlobalPerDay / 5
	}
	if c.Limits.StrangerJoinReserve >= c.Limits.StrangerRepliesGlobalPerDay {
		return fmt.Errorf("limits.stranger_join_reserve: %d must be less than stranger_replies_global_per_day (%d), of which it is a part",
			c.Limits.StrangerJoinReserve, c.Limits.StrangerRepliesGlobalPerDay)
	}
	for _, l := range []struct {
		key string
		n   int64
	}{{"max_mail", c.Limits.MaxMail}, {"batch_bytes", c.Limits.BatchBytes}, {"reads_per_mail", int64(c.Limits.ReadsPerMail)},
		{"max_reply", int64(c.Limits.MaxReply)}, {"max_observers", int64(c.Limits.MaxObservers)},
		{"press_per_day", int64(c.Limits.PressPerDay)}, {"previews_per_step", int64(c.Limits.PreviewsPerStep)}} {
		if l.n < 0 {
			return fmt.Errorf("limits.%s: must be positive", l.key)
		}
	}
	c.Limits.MaxMail = cmp.Or(c.Limits.MaxMail, 20<<20)
	c.Limits.BatchBytes = cmp.Or(c.Limits.BatchBytes, 32<<20)
	if c.Limits.MaxMail < int64(c.Limits.MaxText) {
		return fmt.Errorf("limits.max_mail: %d bytes is less than limits.max_text (%d): no mail with that much text could be read", c.Limits.MaxMail, c.Limits.MaxText)
	}
	c.Limits.ReadsPerMail = cmp.Or(c.Limits.ReadsPerMail, 3)
	c.Limits.MaxReply = cmp.Or(c.Limits.MaxReply, 256<<10)
	if c.Limits.MaxReply < 4096 {
		return fmt.Errorf("limits.max_reply: %d bytes cannot hold a report; give at least 4096", c.Limits.MaxReply)
	}
	c.Limits.MaxObservers = cmp.Or(c.Limits.MaxObservers, 50)
	c.Limits.PressPerDay = cmp.Or(c.Limits.PressPerDay, 50)
	c.Limits.PreviewsPerStep = cmp.Or(c.Limits.PreviewsPerStep, 3)
	for _, d := range c.Security.PlusDistinctDomains {
		if !strings.Contains(d, ".") || strings.ContainsAny(d, "@ ") {
			return fmt.Errorf("security.plus_distinct_domains: %q is not a domain", d)
		}
	}
	if c.Templates != "" {
		if st, err := os.Stat(c.Templates); err != nil || !st.IsDir() {
			return fmt.Errorf("templates: %q is not a directory", c.Templates)
		}
	}
	if err := c.HTTP.check(); err != nil {
		return err
	}
	if err := choice("games.open_by", &c.Games.OpenBy, "players", "anyone", "players", "gm"); err != nil {
		return err
	}
	if c.Games.MaxOpen < 0 {
		return errors.New("games.max_open: must be positive")
	}
	c.Games.MaxOpen = cmp.Or(c.Games.MaxOpen, 2)
	if c.Games.NewPerDay < 0 || c.Games.InvitesPerDay < 0 {
		return errors.New("games.new_per_day, invites_per_day: must be positive")
	}
	c.Games.NewPerDay = cmp.Or(c.Games.NewPerDay, 3)
	c.Games.InvitesPerDay = cmp.Or(c.Games.InvitesPerDay, 20)
	if c.Bounces.HardLimit < 0 {
		return errors.New("bounces.hard_limit: must be positive")
	}
	if c.Bounces.Within < 0 {
		return errors.New("bounces.within: must be positive")
	}
	c.Bounces.HardLimit = cmp.Or(c.Bounces.HardLimit, 3)
	c.Bounces.Within = cmp.Or(c.Bounces.Within, 14*24*time.Hour)
	if err := choice("bounces.verp", &c.Bounces.VERP, "on", "on", "off"); err != nil {
		return err
	}
	if c.Bounces.VERPDelimiter == "" {
		c.Bounces.VERPDelimiter = "+"
	}
	if d := c.Bounces.VERPDelimiter; len(d) != 1 || !strings.ContainsAny(d, "+-_=.") {
		return fmt.Errorf("bounces.verp_delimiter: one of + - _ = . (the mail server's recipient_delimiter), not %q", d)
	}
	if l := c.Bounces.VERPLocal; l != "" && (strings.ContainsAny(l, "@<>\" \t,;:()[]\\") || len(l) > 29) {
		return fmt.Errorf("bounces.verp_local: %q is not a local part of at most 29 characters", l)
	}
	if c.Tick < 0 {
		return errors.New("tick: must be positive")
	}
	c.Tick = cmp.Or(c.Tick, 10*time.Second)
	if c.MinNotice < 0 {
		return errors.New("min_notice: must be positive, like 1h")
	}
	c.MinNotice = cmp.Or(c.MinNotice, time.Hour)
	if c.Vacation.AllowanceDays < 0 || c.Vacation.AllowanceDays > 366 {
		return errors.New("vacation.allowance_days: must be 0 (none) to 366 days a year")
	}
	if c.Retention < 0 {
		return errors.New("retention: must be positive, like 2160h (90 days)")
	}
	c.Retention = cmp.Or(c.Retention, 90*24*time.Hour)
	if err := c.checkBackup(); err != nil {
		return err
	}
	if c.GCPercent < 0 {
		return errors.New("gc_percent: must be positive, like 400 (leave it out for the default)")
	}
	c.GCPercent = cmp.Or(c.GCPercent, DefaultGCPercent)
	return c.checkOps()
}

// choice checks a key that takes one of a few words: empty, it takes def;
// another word is refused with the words it may be, in the order given,
// so that every such key reads and is reported the same way.
func choice(key string, v *string, def string, words ...string) error {
	if *v == "" {
		*v = def
		return nil
	}
	if slices.Contains(words, *v) {
		return nil
	}
	list := words[len(words)-1]
	if len(words) > 1 {
		list = strings.Join(words[:len(words)-1], ", ") + " or " + list
	}
	return fmt.Errorf("%s: must be %s, not %q", key, list, *v)
}

// Check validates the http section and fills in URL's default, for the
// commands that read a config without checking all of it.
func (h *HTTP) Check() error { return h.check() }

func (h *HTTP) check() error {
	if h.Listen == "" {
		if h.URL != "" {
			return errors.New("http.url: needs http.listen, the address the pages are served on")
		}
		return nil
	}
	host, port, err := net.SplitHostPort(h.Listen)
	if err != nil {
		return fmt.Errorf("http.listen: %q must be host:port, like 127.0.0.1:8080", h.Listen)
	}
	if n, err := strconv.Atoi(port); err != nil || n <= 0 || n > 65535 {
		return fmt.Errorf("http.listen: port %q is not a port number", port)
	}
	if h.URL == "" {
		if host == "" || host == "0.0.0.0" || host == "::" {
			host = "localhost"
		}
		h.URL = "http://" + net.JoinHostPort(host, port)
	}
	u, err := url.Parse(h.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return fmt.Errorf("http.url: %q must be an http or https address like https://games.example.org", h.URL)
	}
	h.URL = strings.TrimRight(h.URL, "/")
	return nil
}

// check fills the security defaults, and reads the keys sender_auth
// replaced: any of require_dkim, require_spf, require_dmarc and verify_dkim
// set to true asked for every mail to be vouched for, which is
// sender_auth: strict now.
func (s *Security) check(c *Config) error {
	strict := false
	for _, old := range []struct {
		key string
		v   *bool
	}{{"require_dkim", s.RequireDKIM}, {"require_spf", s.RequireSPF}, {"require_dmarc", s.RequireDMARC}, {"verify_dkim", s.VerifyDKIM}} {
		if old.v == nil {
			continue
		}
		strict = strict || *old.v
		c.Warnings = append(c.Warnings, fmt.Sprintf("security.%s is replaced by security.sender_auth "+
			"(dmarc, strict or off; see config.example.yaml): remove it", old.key))
	}
	switch s.SenderAuth {
	case "":
		s.SenderAuth = "dmarc"
		if strict {
			s.SenderAuth = "strict"
			c.Warnings = append(c.Warnings, "security.sender_auth: read as strict, as the old keys asked for")
		}
	case "dmarc", "strict", "off":
	default:
		return fmt.Errorf("security.sender_auth: must be dmarc, strict or off, not %q", s.SenderAuth)
	}
	if s.DNSGrace < 0 {
		return errors.New("security.dns_grace: must be positive")
	}
	s.DNSGrace = cmp.Or(s.DNSGrace, time.Hour)
	return nil
}

func (s *Server) check(key string, smtp bool) error {
	if s.Server == "" {
		return fmt.Errorf("%s.server: missing: host:port of the %s server", key, strings.ToUpper(key))
	}
	host, port, err := net.SplitHostPort(s.Server)
	if err != nil {
		return fmt.Errorf("%s.server: %q must be host:port", key, s.Server)
	}
	if n, err := strconv.Atoi(port); err != nil || n <= 0 || n > 65535 {
		return fmt.Errorf("%s.server: port %q is not a port number", key, port)
	}
	if host == "" {
		return fmt.Errorf("%s.server: %q names no host", key, s.Server)
	}
	switch s.TLS {
	case "implicit", "starttls":
	case "none":
		if !loopback(host) {
			return fmt.Errorf("%s.tls: none sends the password in clear text, so it is only allowed on a loopback address, not %q; use implicit or starttls", key, host)
		}
	case "":
		return fmt.Errorf("%s.tls: missing: implicit, starttls, or none (loopback only)", key)
	default:
		return fmt.Errorf("%s.tls: must be implicit, starttls or none, not %q", key, s.TLS)
	}
	if s.Auth == "" {
		s.Auth = "plain"
		if s.OAuth2 != nil {
			s.Auth = "xoauth2"
		}
	}
	allowed := map[string]bool{"plain": true, "xoauth2": true, "oauthbearer": true}
	if smtp {
		allowed["login"], allowed["none"] = true, true
	}
	if !allowed[s.Auth] {
		var names []string
		for _, n := range []string{"plain", "login", "xoauth2", "oauthbearer", "none"} {
			if allowed[n] {
				names = append(names, n)
			}
		}
		return fmt.Errorf("%s.auth: must be one of %s, not %q", key, strings.Join(names, ", "), s.Auth)
	}
	oauth := s.Auth == "xoauth2" || s.Auth == "oauthbearer"
	if s.Auth != "none" && s.Username == "" {
		return fmt.Errorf("%s.username: missing", key)
	}
	switch {
	case oauth && s.OAuth2 == nil:
		return fmt.Errorf("%s.oauth2: missing: %s needs token_file or token_command", key, s.Auth)
	case oauth && (s.OAuth2.TokenFile == "") == (len(s.OAuth2.TokenCommand) == 0):
		return fmt.Errorf("%s.oauth2: give exactly one of token_file and token_command", key)
	case oauth && (s.PasswordEnv != "" || s.PasswordFile != ""):
		return fmt.Errorf("%s.password_env: not used with %s; remove it", key, s.Auth)
	case !oauth && s.OAuth2 != nil:
		return fmt.Errorf("%s.oauth2: set, but %s.auth is %s; set auth: xoauth2 or remove oauth2", key, key, s.Auth)
	case !oauth && s.Auth != "none" && (s.PasswordEnv == "") == (s.PasswordFile == ""):
		return fmt.Errorf("%s.password_env: give exactly one of password_env and password_file (passwords never go in the config file)", key)
	case s.PasswordEnv != "" && os.Getenv(s.PasswordEnv) == "":
		return fmt.Errorf("%s.password_env: the environment variable %s is empty or not set", key, s.PasswordEnv)
	case s.PasswordFile != "":
		if _, err := os.Stat(s.PasswordFile); err != nil {
			return fmt.Errorf("%s.password_file: %w", key, err)
		}
	case oauth && s.OAuth2.TokenFile != "":
		// Checked now, as password_file is: a missing file would
		// otherwise make the daemon retry its login for ever.
		if _, err := os.Stat(s.OAuth2.TokenFile); err != nil {
			return fmt.Errorf("%s.oauth2.token_file: %w", key, err)
		}
	case oauth:
		if _, err := exec.LookPath(s.OAuth2.TokenCommand[0]); err != nil {
			return fmt.Errorf("%s.oauth2.token_command: %w", key, err)
		}
	}
	if s.PollInterval < 0 {
		return fmt.Errorf("%s.poll_interval: must be positive", key)
	}
	if smtp && (s.Idle != nil || s.PollInterval != 0) {
		return fmt.Errorf("%s.idle: IDLE and polling are IMAP settings; move them to imap", key)
	}
	if !smtp && s.Connections != 0 {
		return fmt.Errorf("%s.connections: the daemon reads with one IMAP connection; connections is an smtp setting", key)
	}
	if !smtp && s.KeepAlive != 0 {
		return fmt.Errorf("%s.keep_alive: the IMAP connection stays open anyway; keep_alive is an smtp setting", key)
	}
	if smtp && s.KeepAlive == 0 {
		s.KeepAlive = 10 * time.Second
	}
	if s.KeepAlive > 5*time.Minute {
		return fmt.Errorf("%s.keep_alive: at most 5m (servers close idle connections sooner), not %v", key, s.KeepAlive)
	}
	if s.Connections < 0 || s.Connections > 16 {
		return fmt.Errorf("%s.connections: must be from 1 to 16, not %d", key, s.Connections)
	}
	if smtp && s.Connections == 0 {
		s.Connections = 1
	}
	s.PollInterval = cmp.Or(s.PollInterval, 30*time.Second)
	if oauth {
		s.tokens = &tokenSource{cfg: *s.OAuth2}
	}
	return nil
}

func loopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// GMSecret returns the GM secret ("" when none is configured: GM commands
// by mail are then refused), for daemon.Config.GMSecret.
func (c *Config) GMSecret() (string, error) {
	switch {
	case c.GMSecretEnv != "":
		return fromEnv(c.GMSecretEnv, "gm_secret_env")
	case c.GMSecretFile != "":
		return firstLine(c.GMSecretFile, "gm_secret_file")
	}
	return "", nil
}

// fromEnv is the value of the environment variable name, trimmed, for the
// setting key, which names it; an empty one is an error, as a secret or a
// DSN that is "" is a mistake, never a choice.
func fromEnv(name, key string) (string, error) {
	v := strings.TrimSpace(os.Getenv(name))
	if v == "" {
		return "", fmt.Errorf("%s: the environment variable %s is empty or not set", key, name)
	}
	return v, nil
}

// firstLine is the first line of file, trimmed, for the setting key,
// which names it (a secret kept in a file, as systemd's credentials and
// Docker's secrets write them, ends with a newline or not).
func firstLine(file, key string) (string, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return "", fmt.Errorf("%s: %w", key, err)
	}
	line, _, _ := strings.Cut(string(data), "\n")
	if line = strings.TrimSpace(line); line == "" {
		return "", fmt.Errorf("%s: %s is empty", key, file)
	}
	return line, nil
}

// UseIdle reports whether IMAP IDLE is wanted.
func (s *Server) UseIdle() bool { return s.Idle == nil || *s.Idle }

// Credentials returns the login and the password or bearer token. It is
// called for every connection, so a rotated password file or an expired
// token is picked up without a restart.
func (s *Server) Credentials(ctx context.Context) (user, secret string, err error) {
	switch {
	case s.Auth == "none":
		return "", "", nil
	case s.tokens != nil:
		tok, err := s.tokens.token(ctx)
		return s.Username, tok, err
	case s.PasswordEnv != "":
		v := os.Getenv(s.PasswordEnv)
		if v == "" {
			return "", "", fmt.Errorf("the environment variable %s is empty", s.PasswordEnv)
		}
		return s.Username, v, nil
	default:
		data, err := os.ReadFile(s.PasswordFile)
		if err != nil {
			return "", "", err
		}
		line, _, _ := strings.Cut(string(data), "\n")
		line = strings.TrimRight(line, "\r")
		if line == "" {
			return "", "", fmt.Errorf("password file %s is empty", s.PasswordFile)
		}
		return s.Username, line, nil
	}
}

// Refused tells the server's token source that the server refused the
// token it gave: a cached token from token_command is dropped, so the next
// login runs the command again instead of repeating a token the provider
// revoked or let expire before its stated lifetime. (A token_file is read
// at every login anyway.) imapin and outbox call it on a refused login.
func (s *Server) Refused() {
	if s.tokens != nil {
		s.tokens.invalidate()
	}
}

// tokenSource caches a bearer token until it expires.
type tokenSource struct {
	cfg     OAuth2
	mu      sync.Mutex
	tok     string
	expires time.Time
	now     func() time.Time
}

func (t *tokenSource) clock() time.Time {
	if t.now != nil {
		return t.now()
	}
	return time.Now()
}

func (t *tokenSource) token(ctx context.Context) (string, error) {
	if t.cfg.TokenFile != "" {
		data, err := os.ReadFile(t.cfg.TokenFile)
		if err != nil {
			return "", fmt.Errorf("oauth2 token file: %w", err)
		}
		tok, _, err := parseToken(data)
		return tok, err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.tok != "" && t.clock().Before(t.expires) {
		return t.tok, nil
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, t.cfg.TokenCommand[0], t.cfg.TokenCommand[1:]...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("oauth2 token command %s: %w: %s", t.cfg.TokenCommand[0], err, strings.TrimSpace(stderr.String()))
	}
	tok, life, err := parseToken(out)
	if err != nil {
		return "", fmt.Errorf("oauth2 token command %s: %w", t.cfg.TokenCommand[0], err)
	}
	if life <= 0 {
		life = 5 * time.Minute // unknown lifetime: ask again soon
	}
	// Refresh a minute early, so a token never expires mid-session.
	t.tok, t.expires = tok, t.clock().Add(max(life-time.Minute, 0))
	return tok, nil
}

func (t *tokenSource) invalidate() {
	t.mu.Lock()
	t.tok, t.expires = "", time.Time{}
	t.mu.Unlock()
}

// parseToken reads a bare token, or JSON {"access_token", "expires_in"}.
func parseToken(data []byte) (string, time.Duration, error) {
	s := strings.TrimSpace(string(data))
	if strings.HasPrefix(s, "{") {
		var j struct {
			AccessToken string  `json:"access_token"`
			ExpiresIn   float64 `json:"expires_in"`
		}
		if err := json.Unmarshal([]byte(s), &j); err != nil {
			return "", 0, fmt.Errorf("token JSON: %w", err)
		}
		if j.AccessToken == "" {
			return "", 0, errors.New("token JSON has no access_token")
		}
		return j.AccessToken, time.Duration(j.ExpiresIn * float64(time.Second)), nil
	}
	if s == "" {
		return "", 0, errors.New("the token is empty")
	}
	return s, 0, nil
}

func (c *Config) checkBackup() error {
	b := &c.Backup
	if b.Every < 0 {
		return errors.New("backup.every: must be positive, like 24h (leave it out to back up only when asked)")
	}
	if b.Keep < 0 {
		return errors.New("backup.keep: must be positive, like 7")
	}
	b.Keep = cmp.Or(b.Keep, 7)
	if b.Dir == "" {
		if b.Every > 0 {
			return errors.New("backup.every needs backup.dir: the directory the copies go to")
		}
		return nil
	}
	if c.Store == "postgres" {
		return errors.New("backup: orrery copies a bbolt file; back up PostgreSQL with its own tools (pg_dump, or pg_basebackup and a replica), and leave backup out")
	}
	if b.Every > 0 && b.Every < time.Minute {
		return errors.New("backup.every: at least 1m: each copy is the whole database")
	}
	return nil
}
