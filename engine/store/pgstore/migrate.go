package pgstore

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// The SQL schema comes in numbered migration files (NNNN_what.sql), each
// applied once, in order, in a transaction of its own, and recorded in
// orrery_schema. This is the SQL layout's version; the key-value space
// inside it has its own (store.SchemaVersion, in the meta bucket), checked
// the same way on both stores.
//
//go:embed migrations/*.sql
var migrationFiles embed.FS

type migration struct {
	version int
	name    string
	sql     string
}

// migrations lists the embedded files in version order.
func migrations() ([]migration, error) {
	ents, err := fs.ReadDir(migrationFiles, "migrations")
	if err != nil {
		return nil, err
	}
	var ms []migration
	for _, e := range ents {
		num, _, ok := strings.Cut(e.Name(), "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil {
			return nil, fmt.Errorf("migration file %s is not named NNNN_what.sql", e.Name())
		}
		b, err := migrationFiles.ReadFile("migrations/" + e.Name())
		if err != nil {
			return nil, err
		}
		ms = append(ms, migration{version: v, name: e.Name(), sql: string(b)})
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].version < ms[j].version })
	for i, m := range ms {
		if m.version != i+1 {
			return nil, fmt.Errorf("migration %s: versions must run 1, 2, 3… without gaps", m.name)
		}
	}
	return ms, nil
}

// SchemaVersion is the SQL schema version this build writes: its last
// migration.
func SchemaVersion() int {
	ms, _ := migrations()
	return len(ms)
}

// migrateLock is the advisory lock key under which migrations run, so
// that two processes starting together do not both apply one.
const migrateLock = 0x6f72726572790001 // "orrery" 1

const createSchemaTable = `CREATE TABLE IF NOT EXISTS orrery_schema (
	version int PRIMARY KEY,
	name    text NOT NULL,
	applied timestamptz NOT NULL DEFAULT now())`

// version reads the database's schema version: 0 when it has none.
func version(ctx context.Context, q interface {
	QueryRow(context.Context, string, ...any) pgx.Row
}) (int, error) {
	var v int
	err := q.QueryRow(ctx, `SELECT coalesce(max(version), 0) FROM orrery_schema`).Scan(&v)
	var pe *pgconn.PgError
	if errors.As(err, &pe) && pe.Code == "42P01" { // undefined_table
		return 0, nil
	}
	return v, err
}

// checkVersion refuses a database whose schema is not this build's.
func checkVersion(ctx context.Context, pool *pgxpool.Pool, name string) error {
	v, err := version(ctx, pool)
	if err != nil {
		return fmt.Errorf("read the schema version of %s: %w", name, err)
	}
	return versionError(v, name)
}

func versionError(v int, name string) error {
	switch want := SchemaVersion(); {
	case v > want:
		return fmt.Errorf("database %s has SQL schema version %d; this orrery knows up to %d (use a matching release)", name, v, want)
	case v < want:
		return fmt.Errorf("database %s has SQL schema version %d; this orrery needs %d (run orrery db migrate)", name, v, want)
	}
	return nil
}

// Migrate applies to the database at dsn the migrations it lacks, and
// returns the versions it applied.
func Migrate(ctx context.Context, dsn string) ([]int, error) {
	pool, err := pgxpool.New(ctx, dsn)
	if err != nil {
		return nil, fmt.Errorf("connect to %s: %s", Redact(dsn), redactErr(err, dsn))
	}
	defer pool.Close()
	return migrate(ctx, pool)
}

func migrate(ctx context.Context, pool *pgxpool.Pool) ([]int, error) {
	ms, err := migrations()
	if err != nil {
		return nil, err
	}
	var done []int
	for {
		applied, more, err := migrateOne(ctx, pool, ms)
		if err != nil {
			return done, err
		}
		if applied > 0 {
			done = append(done, applied)
		}
		if !more {
			return done, nil
		}
	}
}

// migrateOne applies the next migration the database lacks, if any, and
// says whether there may be more.
func migrateOne(ctx context.Context, pool *pgxpool.Pool, ms []migration) (int, bool, error) {
	tx, err := pool.Begin(ctx)
	if err != nil {
		return 0, false, fmt.Errorf("postgres: begin a migration: %w", err)
	}
	defer tx.Rollback(context.WithoutCancel(ctx))
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, int64(migrateLock)); err != nil {
		return 0, false, fmt.Errorf("postgres: wait for the migration lock: %w", err)
	}
	if _, err := tx.Exec(ctx, createSchemaTable); err != nil {
		return 0, false, fmt.Errorf("postgres: create orrery_schema: %w", err)
	}
	v, err := version(ctx, tx)
	if err != nil {
		return 0, false, fmt.Errorf("postgres: read the schema version: %w", err)
	}
	if v > len(ms) {
		return 0, false, versionError(v, "")
	}
	if v == len(ms) {
		return 0, false, tx.Commit(ctx)
	}
	m := ms[v]
	if _, err := tx.Exec(ctx, m.sql); err != nil {
		return 0, false, fmt.Errorf("postgres: migration %s: %w", m.name, err)
	}
	if _, err := tx.Exec(ctx, `INSERT INTO orrery_schema (version, name) VALUES ($1, $2)`, m.version, m.name); err != nil {
		return 0, false, fmt.Errorf("postgres: record migration %s: %w", m.name, err)
	}
	if err := tx.Commit(ctx); err != nil {
		return 0, false, fmt.Errorf("postgres: commit migration %s: %w", m.name, err)
	}
	return m.version, true, nil
}
