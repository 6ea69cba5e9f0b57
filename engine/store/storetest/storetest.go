// Package storetest gives tests a table of stores, bbolt always and
// PostgreSQL when ORRERY_TEST_PG names a server, each test with a database
// of its own; and one conformance suite (Run) that every backend passes.
package storetest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"orrery/engine/store"
	"orrery/engine/store/pgstore"
)

// EnvPG names the environment variable holding the DSN of a PostgreSQL
// server the tests may use (scripts/pgstack.sh env sets it). Each test
// gets a schema of its own in it, dropped when the test ends.
const EnvPG = "ORRERY_TEST_PG"

// SkipPG is the message of a PostgreSQL test skipped for want of a server.
const SkipPG = "no PostgreSQL server: ORRERY_TEST_PG is not set; to run this test: " +
	`scripts/pgstack.sh install && scripts/pgstack.sh start && eval "$(scripts/pgstack.sh env)"`

// Kind is one backend as tests make it.
type Kind struct {
	Name string // "bbolt" or "postgres"
	// New makes an empty database for t (removed when t ends) and
	// returns a function that opens it, as often as a test likes.
	New func(t testing.TB) func() (*store.Store, error)
}

// Bolt is the bbolt backend, a file in t.TempDir().
var Bolt = Kind{Name: "bbolt", New: func(t testing.TB) func() (*store.Store, error) {
	path := filepath.Join(t.TempDir(), "orrery.db")
	return func() (*store.Store, error) { return store.Open(path, store.Options{NoSync: true}) }
}}

// Postgres is the PostgreSQL backend: a new schema in the server
// ORRERY_TEST_PG names; the test skips when it is not set.
var Postgres = Kind{Name: "postgres", New: func(t testing.TB) func() (*store.Store, error) {
	dsn := NewSchema(t)
	return func() (*store.Store, error) { return pgstore.Open(context.Background(), dsn, pgstore.Options{}) }
}}

// Kinds is every backend a test should run on: bbolt, and PostgreSQL when
// ORRERY_TEST_PG is set.
func Kinds() []Kind {
	if os.Getenv(EnvPG) == "" {
		return []Kind{Bolt}
	}
	return []Kind{Bolt, Postgres}
}

// BoltOnlyWhenShort skips t under -short unless k is bbolt: for a suite
// of many transactions, which take PostgreSQL seconds where bbolt takes
// milliseconds, so that the fast loop stays fast with ORRERY_TEST_PG set.
// The full run plays it on every kind.
func BoltOnlyWhenShort(t testing.TB, k Kind) {
	t.Helper()
	if testing.Short() && k.Name != Bolt.Name {
		t.Skipf("-short: on %s this suite takes seconds; it runs there without -short, and on bbolt here", k.Name)
	}
}

// Open makes a new, empty store of kind k for t, closed when t ends.
func Open(t testing.TB, k Kind) *store.Store {
	t.Helper()
	s, err := k.New(t)()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// Each runs fn as a subtest for every kind of Kinds.
func Each(t *testing.T, fn func(t *testing.T, k Kind)) {
	for _, k := range Kinds() {
		t.Run(k.Name, func(t *testing.T) { fn(t, k) })
	}
}

// NewSchema makes a schema of its own for t in the server ORRERY_TEST_PG
// names (skipping t when it is not set), drops it when t ends, and
// returns a DSN whose connections use it.
func NewSchema(t testing.TB) string {
	t.Helper()
	base := os.Getenv(EnvPG)
	if base == "" {
		t.Skip(SkipPG)
	}
	var b [6]byte
	rand.Read(b[:])
	schema := "t_" + hex.EncodeToString(b[:])
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, base)
	if err != nil {
		t.Fatalf("connect to %s: %v", pgstore.Redact(base), err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "CREATE SCHEMA "+schema); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		conn, err := pgx.Connect(ctx, base)
		if err != nil {
			t.Errorf("drop schema %s: %v", schema, err)
			return
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, "DROP SCHEMA "+schema+" CASCADE"); err != nil {
			t.Errorf("drop schema %s: %v", schema, err)
		}
	})
	return WithSchema(base, schema)
}

// WithSchema returns dsn with search_path set to schema, and commits that
// do not wait for the disk (synchronous_commit=off: a test's database is
// thrown away, and a crash of the server loses at most the last commits,
// never consistency).
func WithSchema(dsn, schema string) string {
	if u, err := url.Parse(dsn); err == nil && strings.HasPrefix(u.Scheme, "postgres") {
		q := u.Query()
		q.Set("search_path", schema)
		q.Set("synchronous_commit", "off")
		u.RawQuery = q.Encode()
		return u.String()
	}
	return dsn + " search_path=" + schema + " synchronous_commit=off"
}

// EnvStore names the environment variable that chooses the backend of the
// suites whose helpers call Default (engine/game, pbem/daemon): "bbolt",
// the default, or "postgres". scripts/test runs those suites once more
// with ORRERY_TEST_STORE=postgres when ORRERY_TEST_PG is set.
const EnvStore = "ORRERY_TEST_STORE"

// Default is the backend EnvStore names.
func Default() Kind {
	if os.Getenv(EnvStore) == "postgres" {
		return Postgres
	}
	return Bolt
}

// Dump lists everything s holds, one line a key, nested buckets by path,
// with every bucket's sequence: two stores with the same dump hold the
// same data.
func Dump(t testing.TB, s *store.Store) string {
	t.Helper()
	var out strings.Builder
	var walk func(path string, b store.Bucket)
	walk = func(path string, b store.Bucket) {
		fmt.Fprintf(&out, "%s seq=%d\n", path, b.Sequence())
		c := b.Cursor()
		for k, v := c.First(); k != nil; k, v = c.Next() {
			if v == nil {
				walk(fmt.Sprintf("%s/%q", path, k), b.Bucket(k))
				continue
			}
			fmt.Fprintf(&out, "%s/%q = %q\n", path, k, v)
		}
	}
	err := s.View(context.Background(), func(tx store.Tx) error {
		return tx.ForEach(func(name []byte, b store.Bucket) error {
			walk(fmt.Sprintf("%q", name), b)
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	return out.String()
}
