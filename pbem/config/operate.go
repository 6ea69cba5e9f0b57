package config

import (
	"crypto/rand"
	"errors"
	"fmt"
	"net"
	"os"
	"strconv"
)

// Log is how the daemon logs, to standard error.
type Log struct {
	// Level is debug, info (default), warn or error. No level writes a
	// secret: subjects are logged with the secret of their tag replaced.
	Level string `yaml:"level"`
	// Format is text (default, slog's key=value lines) or json (one JSON
	// object a line, for a log collector).
	Format string `yaml:"format"`
}

// Metrics is the operator's HTTP listener: Prometheus metrics on /metrics,
// /healthz and /readyz for a supervisor or a load balancer.
type Metrics struct {
	// Listen is host:port ("" = off, the default). Keep it on loopback
	// or a private network: /metrics names games and counts players'
	// mail, and is not meant for a public proxy.
	Listen string `yaml:"listen"`
}

// MinGMSecret is the shortest GM secret accepted. A GM secret guards every
// game on the server, and a mail from a forged gm address may carry a
// guess: sixteen random characters are beyond guessing by mail.
const MinGMSecret = 16

// NewSecret returns a fresh GM secret of 26 lowercase letters and digits
// (128 bits from crypto/rand), as `orrery secret new` prints.
func NewSecret() string {
	const alphabet = "abcdefghijklmnopqrstuvwxyz234567" // base32, lowercase: easy to type
	var b [26]byte
	rand.Read(b[:])
	for i := range b {
		b[i] = alphabet[b[i]&31]
	}
	return string(b[:])
}

func checkGMSecretStrength(key, secret string) error {
	if n := len([]rune(secret)); n < MinGMSecret {
		return fmt.Errorf("%s: the GM secret has %d characters; it must have at least %d, since anyone can send a guess from a forged gm address: make one with orrery secret new", key, n, MinGMSecret)
	}
	return nil
}

func (c *Config) gmSecretKey() string {
	if c.GMSecretFile != "" {
		return "gm_secret_file"
	}
	return "gm_secret_env"
}

// checkOps checks log and metrics, and fills their defaults.
func (c *Config) checkOps() error {
	switch {
	case c.LogLevel != "" && c.Log.Level != "":
		return errors.New("log_level: give log.level only (log_level is its older spelling)")
	case c.LogLevel != "":
		c.Log.Level, c.LogLevel = c.LogLevel, ""
		c.Warnings = append(c.Warnings, "log_level is replaced by log.level (and log.format); it is read as log.level")
	}
	if err := choice("log.level", &c.Log.Level, "info", "debug", "info", "warn", "error"); err != nil {
		return err
	}
	if err := choice("log.format", &c.Log.Format, "text", "text", "json"); err != nil {
		return err
	}
	if a := c.Metrics.Listen; a != "" {
		host, port, err := net.SplitHostPort(a)
		if err != nil {
			return fmt.Errorf("metrics.listen: %q must be host:port, like 127.0.0.1:9464", a)
		}
		if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
			return fmt.Errorf("metrics.listen: port %q is not a port number", port)
		}
		// An empty host (every address) is allowed; Warnings says so.
		_ = host
	}
	return nil
}

// SecurityWarnings lists what is allowed but unwise: a file of secrets that other
// users can read, a metrics listener open to other machines. `orrery serve`
// logs each at start.
func (c *Config) SecurityWarnings() []string {
	var out []string
	files := []struct{ key, path string }{
		{"gm_secret_file", c.GMSecretFile},
		{"imap.password_file", c.IMAP.PasswordFile},
		{"smtp.password_file", c.SMTP.PasswordFile},
	}
	for _, s := range []struct {
		key string
		srv *Server
	}{{"imap", &c.IMAP}, {"smtp", &c.SMTP}} {
		if s.srv.OAuth2 != nil && s.srv.OAuth2.TokenFile != "" {
			files = append(files, struct{ key, path string }{s.key + ".oauth2.token_file", s.srv.OAuth2.TokenFile})
		}
	}
	for _, f := range files {
		if f.path == "" {
			continue
		}
		st, err := os.Stat(f.path)
		if err != nil {
			continue // Parse has said so already, or it comes later
		}
		if perm := st.Mode().Perm(); perm&0o077 != 0 {
			out = append(out, fmt.Sprintf("%s: %s can be read by other users (mode %04o); run chmod 600 %s", f.key, f.path, perm, f.path))
		}
	}
	if a := c.Metrics.Listen; a != "" {
		if host, _, err := net.SplitHostPort(a); err == nil && !loopback(host) {
			out = append(out, fmt.Sprintf("metrics.listen: %s is reachable from other machines; keep /metrics off public proxies", a))
		}
	}
	return out
}
