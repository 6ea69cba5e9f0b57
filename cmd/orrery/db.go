package main

import (
	"flag"
	"fmt"
	"os"

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
	path, err := d.path()
	if err != nil {
		return nil, nil, err
	}
	st, err := store.Open(path, store.Options{})
	if err != nil {
		return nil, nil, err
	}
	return game.New(st, e.rulesets), func() { st.Close() }, nil
}
