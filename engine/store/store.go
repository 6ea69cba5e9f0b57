// Package store opens the single bbolt file that holds every game, checks its
// schema version and gives the turn life cycle and the mail side one place to
// run transactions, so that a state change and the mails it causes commit
// together or not at all.
package store

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"

	bolt "go.etcd.io/bbolt"
)

// ErrLocked is returned by Open when another process holds the database.
var ErrLocked = errors.New("database is in use by another process")

// Options tunes Open.
type Options struct {
	// Timeout bounds the wait for the file lock. Zero means one second: a
	// second process gets a clear error quickly instead of hanging.
	Timeout  time.Duration
	ReadOnly bool
	// NoSync skips fsync on commit. Only for tests and benchmarks that
	// throw the file away: a crash can then lose committed changes.
	NoSync bool
}

// Store is an open database.
type Store struct {
	db   *bolt.DB
	path string
}

// Open opens (creating if needed) the database at path and checks that its
// schema version is the one this build knows.
func Open(path string, opt Options) (*Store, error) {
	if opt.Timeout <= 0 {
		opt.Timeout = time.Second
	}
	if !opt.ReadOnly {
		if dir := filepath.Dir(path); dir != "" {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return nil, fmt.Errorf("create directory for database %s: %w", path, err)
			}
		}
	}
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: opt.Timeout, ReadOnly: opt.ReadOnly})
	if err != nil {
		if errors.Is(err, bolt.ErrTimeout) {
			return nil, fmt.Errorf("open %s: %w (is `orrery serve` running? stop it or use its control socket)", path, ErrLocked)
		}
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	db.NoSync = opt.NoSync
	s := &Store{db: db, path: path}
	if err := s.init(opt.ReadOnly); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

func (s *Store) init(readOnly bool) error {
	// check returns the file's version: SchemaVersion for a new file, or
	// an older one that Open upgrades in place.
	check := func(tx *bolt.Tx) (int, error) {
		meta := tx.Bucket(BucketMeta)
		if meta == nil {
			return SchemaVersion, nil
		}
		v := meta.Get(KeySchema)
		if v == nil {
			return SchemaVersion, nil
		}
		n, err := strconv.Atoi(string(v))
		if err != nil {
			return 0, fmt.Errorf("database %s has an unreadable schema version %q", s.path, v)
		}
		if n != SchemaVersion && !(upgradable[n] && !readOnly) {
			return 0, fmt.Errorf("database %s has schema version %d; this orrery reads version %d (use a matching release, or migrate)", s.path, n, SchemaVersion)
		}
		return n, nil
	}
	if readOnly {
		return s.db.View(func(tx *bolt.Tx) error { _, err := check(tx); return err })
	}
	return s.db.Update(func(tx *bolt.Tx) error {
		n, err := check(tx)
		if err != nil {
			return err
		}
		for _, name := range TopLevel {
			if _, err := tx.CreateBucketIfNotExists(name); err != nil {
				return fmt.Errorf("create bucket %s: %w", name, err)
			}
		}
		meta := tx.Bucket(BucketMeta)
		if meta.Get(KeySchema) == nil || n != SchemaVersion {
			// An upgraded file's derived indexes are rebuilt by their
			// owners on first use (see schema.go).
			if err := meta.Delete(KeyIndexes); err != nil {
				return err
			}
			if err := meta.Delete(KeyOutboxIndex); err != nil {
				return err
			}
			return meta.Put(KeySchema, []byte(strconv.Itoa(SchemaVersion)))
		}
		return nil
	})
}

// Close closes the database.
func (s *Store) Close() error { return s.db.Close() }

// Path is the file the store was opened from.
func (s *Store) Path() string { return s.path }

// DB gives the mail side direct access for its own buckets.
func (s *Store) DB() *bolt.DB { return s.db }

// Update runs fn in a read-write transaction, unless ctx is already done;
// inside a Group, in the group's transaction.
func (s *Store) Update(ctx context.Context, fn func(tx *bolt.Tx) error) error {
	if g := s.groupOf(ctx); g != nil {
		return g.update(ctx, fn)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return s.db.Update(fn)
}

// View runs fn in a read-only transaction, unless ctx is already done;
// inside a Group, in the group's transaction (seeing its changes so far).
func (s *Store) View(ctx context.Context, fn func(tx *bolt.Tx) error) error {
	if g := s.groupOf(ctx); g != nil {
		return g.view(ctx, fn)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return s.db.View(fn)
}

// Key encodes n big-endian, so keys sort in numeric order.
func Key(n uint64) []byte {
	b := make([]byte, 8)
	binary.BigEndian.PutUint64(b, n)
	return b
}

// KeyN decodes a key made by Key.
func KeyN(b []byte) uint64 {
	if len(b) != 8 {
		return 0
	}
	return binary.BigEndian.Uint64(b)
}

// Copy returns a copy of b: values read in a transaction are valid only
// inside it.
func Copy(b []byte) []byte {
	if b == nil {
		return nil
	}
	return append([]byte(nil), b...)
}
