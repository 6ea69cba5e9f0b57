// Package storeopen opens a store of either kind from one name, as the
// CLI and the config give it: a bbolt file, or a PostgreSQL database.
package storeopen

import (
	"context"
	"fmt"
	"strings"
	"time"

	"orrery/engine/store"
	"orrery/engine/store/pgstore"
)

// Spec names a store.
type Spec struct {
	Kind string // "bbolt" or "postgres"
	Path string // bbolt's file
	DSN  string // PostgreSQL's connection string; never printed whole
}

// Parse reads "bbolt:FILE", "postgres:DSN", a postgres:// or postgresql://
// URL, or a plain FILE (bbolt).
func Parse(s string) (Spec, error) {
	switch {
	case s == "":
		return Spec{}, fmt.Errorf("no store named: give bbolt:FILE or postgres:DSN")
	case strings.HasPrefix(s, "postgres://"), strings.HasPrefix(s, "postgresql://"):
		return Spec{Kind: "postgres", DSN: s}, nil
	case strings.HasPrefix(s, "postgres:"):
		dsn := strings.TrimPrefix(s, "postgres:")
		if dsn == "" {
			return Spec{}, fmt.Errorf("postgres: with no DSN after it (postgres:postgres://user@host/db)")
		}
		return Spec{Kind: "postgres", DSN: dsn}, nil
	case strings.HasPrefix(s, "bbolt:"):
		p := strings.TrimPrefix(s, "bbolt:")
		if p == "" {
			return Spec{}, fmt.Errorf("bbolt: with no file after it (bbolt:orrery.db)")
		}
		return Spec{Kind: "bbolt", Path: p}, nil
	}
	return Spec{Kind: "bbolt", Path: s}, nil
}

// String names the store for messages, without a password.
func (s Spec) String() string {
	if s.Kind == "postgres" {
		if strings.HasPrefix(s.DSN, "postgres://") || strings.HasPrefix(s.DSN, "postgresql://") {
			return pgstore.Redact(s.DSN)
		}
		return "postgres:" + pgstore.Redact(s.DSN)
	}
	return s.Path
}

// Options tunes Open.
type Options struct {
	// Timeout bounds the wait for bbolt's file lock (default one second).
	Timeout time.Duration
	// NoMigrate makes Open of a PostgreSQL database check its schema
	// version instead of applying the migrations it lacks.
	NoMigrate bool
}

// Open opens the store s names.
func Open(ctx context.Context, s Spec, opt Options) (*store.Store, error) {
	switch s.Kind {
	case "bbolt":
		return store.Open(s.Path, store.Options{Timeout: opt.Timeout})
	case "postgres":
		return pgstore.Open(ctx, s.DSN, pgstore.Options{NoMigrate: opt.NoMigrate})
	}
	return nil, fmt.Errorf("store %q: unknown kind (bbolt or postgres)", s.Kind)
}
