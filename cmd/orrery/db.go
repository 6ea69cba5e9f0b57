package main

import (
	"flag"
	"fmt"
	"os"
	"time"

	"gopkg.in/yaml.v3"

	"orrery/engine/game"
	"orrery/engine/store"
)

// dbFlags adds --db and --config to a command.
type dbFlags struct {
	db, config string
}

func addDBFlags(fs *flag.FlagSet) *dbFlags {
	d := &dbFlags{}
	fs.StringVar(&d.db, "db", "", "database file (default: db in the config file, else orrery.db)")
	fs.StringVar(&d.config, "config", "", "config file (default: ORRERY_CONFIG, else none)")
	return d
}

// path resolves the database file: --db, then the config's db key, then
// orrery.db in the working directory.
func (d *dbFlags) path() (string, error) {
	if d.db != "" {
		return d.db, nil
	}
	cfg := d.config
	if cfg == "" {
		cfg = os.Getenv("ORRERY_CONFIG")
	}
	if cfg != "" {
		data, err := os.ReadFile(cfg)
		if err != nil {
			return "", fmt.Errorf("read config: %w", err)
		}
		var c struct {
			DB string `yaml:"db"`
		}
		if err := yaml.Unmarshal(data, &c); err != nil {
			return "", fmt.Errorf("config %s: %w", cfg, err)
		}
		if c.DB != "" {
			return c.DB, nil
		}
	}
	return "orrery.db", nil
}

// open opens the store and a game service over every ruleset.
func (d *dbFlags) open(e *env) (*game.Service, func(), error) {
	if e.shared != nil {
		return game.New(e.shared, e.rulesets, e.options...), func() {}, nil
	}
	path, err := d.path()
	if err != nil {
		return nil, nil, err
	}
	opt := store.Options{}
	if _, err := os.Stat(ControlPath(path)); err == nil {
		// A daemon seems to run: do not wait the full second for
		// the lock before forwarding the command to it.
		opt.Timeout = 100 * time.Millisecond
	}
	// With a config that names the bot's address, changes made here queue
	// their mails in the database's outbox (welcome mails, notices), and
	// the daemon sends them when it next runs.
	mail, err := mailOptions(e, d.config)
	if err != nil {
		return nil, nil, err
	}
	st, err := store.Open(path, opt)
	if err != nil {
		return nil, nil, &lockedError{db: path, err: err}
	}
	return game.New(st, e.rulesets, append(append([]game.Option(nil), e.options...), mail...)...), func() { st.Close() }, nil
}

// lockedError carries the database path to runOrForward, which sends the
// command to the daemon that holds the database.
type lockedError struct {
	db  string
	err error
}

func (l *lockedError) Error() string { return l.err.Error() }
func (l *lockedError) Unwrap() error { return l.err }
