package config

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// Database says which store holds the games: a bbolt file (store: bbolt,
// the default, with db: FILE) or a PostgreSQL database (store: postgres,
// with its connection string in dsn, or better in the environment
// variable dsn_env names or the file dsn_file names, since a DSN may hold
// a password). Its keys sit at the top level of the config file.
type Database struct {
	Store   string `yaml:"store"`    // bbolt (default) | postgres
	DSN     string `yaml:"dsn"`      // postgres://user@host:5432/orrery (no password here)
	DSNEnv  string `yaml:"dsn_env"`  // environment variable holding the DSN
	DSNFile string `yaml:"dsn_file"` // file holding the DSN (first line)
}

// checkDatabase validates the store keys; errors name the key and never
// show a DSN's password.
func (d *Database) checkDatabase() error {
	switch d.Store {
	case "", "bbolt":
		if d.DSN != "" || d.DSNEnv != "" || d.DSNFile != "" {
			return errors.New("dsn: only with store: postgres (bbolt keeps the games in the db file)")
		}
		return nil
	case "postgres":
	default:
		return fmt.Errorf("store: %q is not a store; use bbolt or postgres", d.Store)
	}
	n := 0
	for _, v := range []string{d.DSN, d.DSNEnv, d.DSNFile} {
		if v != "" {
			n++
		}
	}
	if n != 1 {
		return errors.New("dsn: store: postgres needs exactly one of dsn, dsn_env and dsn_file")
	}
	if d.DSN != "" && hasPassword(d.DSN) {
		return errors.New("dsn: holds a password; passwords never go in the config file: use dsn_env or dsn_file (or ~/.pgpass)")
	}
	_, err := d.PostgresDSN()
	return err
}

// hasPassword reports whether a DSN spells out a password.
func hasPassword(dsn string) bool {
	if u, err := url.Parse(dsn); err == nil && strings.HasPrefix(u.Scheme, "postgres") {
		_, ok := u.User.Password()
		return ok || u.Query().Has("password")
	}
	return strings.Contains(strings.ToLower(dsn), "password=")
}

// PostgresDSN returns the DSN of store: postgres, from dsn, dsn_env or
// dsn_file; "" for bbolt.
func (d *Database) PostgresDSN() (string, error) {
	if d.Store != "postgres" {
		return "", nil
	}
	switch {
	case d.DSN != "":
		return d.DSN, nil
	case d.DSNEnv != "":
		return fromEnv(d.DSNEnv, "dsn_env")
	case d.DSNFile != "":
		return firstLine(d.DSNFile, "dsn_file")
	}
	return "", errors.New("dsn: store: postgres needs one of dsn, dsn_env and dsn_file")
}

// StoreName is the store as orrery's --db flag and `db copy` write it:
// the db file for bbolt, "postgres:DSN" for PostgreSQL.
func (c *Config) StoreName() (string, error) {
	if c.Database.Store != "postgres" {
		return c.DB, nil
	}
	dsn, err := c.PostgresDSN()
	if err != nil {
		return "", err
	}
	return "postgres:" + dsn, nil
}
