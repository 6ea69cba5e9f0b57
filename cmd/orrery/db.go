package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"time"

	"orrery/engine/game"
	"orrery/engine/store"
	"orrery/engine/store/storeopen"
)

// dbFlags adds --db and --config to a command.
type dbFlags struct {
	db, config string
	// create lets open make a new database (game new, game import); every
	// other command wants one that exists.
	create bool
}

func addDBFlags(fs *flag.FlagSet) *dbFlags {
	d := &dbFlags{}
	fs.StringVar(&d.db, "db", "", "database file, or postgres:DSN (default: the config file's store, else orrery.db)")
	fs.StringVar(&d.config, "config", "", "config file (default: ORRERY_CONFIG, else none)")
	return d
}

// path resolves the database file: --db, then the config's db key, then
// orrery.db in the working directory.
func (d *dbFlags) path() (string, error) {
	p, _, err := d.resolve()
	return p, err
}

// resolve is path, and says where the name came from, for messages.
func (d *dbFlags) resolve() (path, from string, err error) {
	if d.db != "" {
		return d.db, "--db", nil
	}
	cfg, cfgFrom := d.config, "--config"
	if cfg == "" {
		cfg, cfgFrom = os.Getenv("ORRERY_CONFIG"), "ORRERY_CONFIG"
	}
	if cfg != "" {
		c, err := readConfig(cfg)
		if err != nil {
			return "", "", err
		}
		if c.Store == "postgres" {
			dsn, err := c.PostgresDSN()
			if err != nil {
				return "", "", fmt.Errorf("config %s: %w", cfg, err)
			}
			return "postgres:" + dsn, fmt.Sprintf("the store of %s (%s)", cfg, cfgFrom), nil
		}
		if c.DB != "" {
			return c.DB, fmt.Sprintf("the db key of %s (%s)", cfg, cfgFrom), nil
		}
		return "orrery.db", fmt.Sprintf("the default: %s (%s) has no db key", cfg, cfgFrom), nil
	}
	return "orrery.db", "the default: no --db, no --config, ORRERY_CONFIG not set", nil
}

// noDatabase says which file a command looked for and how to name another,
// instead of creating an empty database and answering "no games".
func noDatabase(path, from string) error {
	return fmt.Errorf("no database at %s (%s)\nname yours with --db FILE, --config FILE (its db key) or ORRERY_CONFIG=FILE, or create a game with orrery game new", path, from)
}

// open opens the store and a game service over every ruleset.
func (d *dbFlags) open(e *env) (*game.Service, func(), error) {
	if e.shared != nil {
		return game.New(e.shared, e.rulesets, e.options...), func() {}, nil
	}
	path, from, err := d.resolve()
	if err != nil {
		return nil, nil, err
	}
	spec, err := storeopen.Parse(path)
	if err != nil {
		return nil, nil, err
	}
	if spec.Kind == "postgres" {
		// PostgreSQL is shared by every process: the command opens
		// it itself, daemon or not. Only game new and game import
		// set up a database that has no schema yet.
		mail, err := mailOptions(e, d.config)
		if err != nil {
			return nil, nil, err
		}
		st, err := storeopen.Open(context.Background(), spec, storeopen.Options{NoMigrate: !d.create})
		if err != nil {
			return nil, nil, err
		}
		if err := refuseMoved(st, spec); err != nil {
			st.Close()
			return nil, nil, err
		}
		return game.New(st, e.rulesets, append(append([]game.Option(nil), e.options...), mail...)...), func() { st.Close() }, nil
	}
	path = spec.Path
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) && !d.create {
		return nil, nil, noDatabase(path, from)
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
	if err := refuseMoved(st, spec); err != nil {
		st.Close()
		return nil, nil, err
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

// dbOfArgs names the database a command line works on, for messages: the
// daemon's when the command came over the control socket.
func dbOfArgs(e *env, args []string) string {
	if e.shared != nil {
		return e.shared.Path()
	}
	_, db := takeFlag(args, "db")
	_, cfg := takeFlag(args, "config")
	p, err := (&dbFlags{db: db, config: cfg}).path()
	if err != nil {
		return ""
	}
	if spec, err := storeopen.Parse(p); err == nil {
		return spec.String() // never a DSN's password
	}
	return p
}

// refuseMoved is the answer for a store whose games orrery db copy moved
// elsewhere: a command on it would change games nobody plays any more, so
// it says where they went instead.
func refuseMoved(st *store.Store, spec storeopen.Spec) error {
	mv, moved, err := store.MovedTo(context.Background(), st)
	if err != nil || !moved {
		return err
	}
	return fmt.Errorf("the games of %s were copied to %s on %s (orrery db copy), and live there now: name that store (--db, or the config's db or store keys)\nto use this one again anyway: orrery db unmove --db %s",
		st.Name(), mv.To, mv.At.Format("2006-01-02 15:04 MST"), dbArg(spec))
}
