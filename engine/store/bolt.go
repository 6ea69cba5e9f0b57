package store

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// This file is the bbolt backend: one file, one writer at a time (bbolt's
// own lock), held by one process (the file lock). It is the embedded
// default; Tx, Bucket and Cursor are thin wrappers over bbolt's own.

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

// Open opens (creating if needed) the bbolt database at path and checks
// that its schema version is the one this build knows.
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
		if errors.Is(err, berrors.ErrTimeout) {
			return nil, fmt.Errorf("open %s: %w (is `orrery serve` running? stop it or use its control socket)", path, ErrLocked)
		}
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	db.NoSync = opt.NoSync
	s, err := New(&boltBackend{db: db}, "bbolt", path, path, opt.ReadOnly)
	if err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

type boltBackend struct{ db *bolt.DB }

func (b *boltBackend) Begin(_ context.Context, writable bool) (BackendTx, error) {
	tx, err := b.db.Begin(writable)
	if err != nil {
		return nil, boltErr(err)
	}
	return &boltTx{tx: tx}, nil
}

func (b *boltBackend) Retryable(error) bool { return false }
func (b *boltBackend) Locks() bool          { return true }
func (b *boltBackend) Close() error         { return b.db.Close() }

func (b *boltBackend) pageWrites() int64 {
	st := b.db.Stats()
	return st.TxStats.GetWrite()
}

// boltErr maps bbolt's errors to the store's, keeping the text.
func boltErr(err error) error {
	var to error
	switch {
	case err == nil:
		return nil
	case errors.Is(err, berrors.ErrBucketNotFound):
		to = ErrBucketNotFound
	case errors.Is(err, berrors.ErrBucketExists):
		to = ErrBucketExists
	case errors.Is(err, berrors.ErrIncompatibleValue):
		to = ErrIncompatibleValue
	case errors.Is(err, berrors.ErrTxNotWritable):
		to = ErrTxNotWritable
	case errors.Is(err, berrors.ErrKeyRequired), errors.Is(err, berrors.ErrBucketNameRequired):
		to = ErrKeyRequired
	case errors.Is(err, berrors.ErrValueTooLarge), errors.Is(err, berrors.ErrKeyTooLarge):
		to = ErrValueTooLarge
	default:
		return err
	}
	return fmt.Errorf("%w (%v)", to, err)
}

type boltTx struct{ tx *bolt.Tx }

func (t *boltTx) wrap(b *bolt.Bucket) Bucket {
	if b == nil {
		return nil // a nil interface, not a typed nil
	}
	return &boltBucket{b: b, tx: t}
}

func (t *boltTx) Bucket(name []byte) Bucket { return t.wrap(t.tx.Bucket(name)) }
func (t *boltTx) CreateBucket(name []byte) (Bucket, error) {
	b, err := t.tx.CreateBucket(name)
	return t.wrap(b), boltErr(err)
}
func (t *boltTx) CreateBucketIfNotExists(name []byte) (Bucket, error) {
	b, err := t.tx.CreateBucketIfNotExists(name)
	return t.wrap(b), boltErr(err)
}
func (t *boltTx) DeleteBucket(name []byte) error { return boltErr(t.tx.DeleteBucket(name)) }
func (t *boltTx) ForEach(fn func(name []byte, b Bucket) error) error {
	return t.tx.ForEach(func(name []byte, b *bolt.Bucket) error { return fn(name, t.wrap(b)) })
}
func (t *boltTx) OnCommit(fn func()) { t.tx.OnCommit(fn) }
func (t *boltTx) Writable() bool     { return t.tx.Writable() }
func (t *boltTx) Err() error         { return nil }
func (t *boltTx) Commit() error      { return t.tx.Commit() }
func (t *boltTx) Rollback() error    { return t.tx.Rollback() }

type boltBucket struct {
	b  *bolt.Bucket
	tx *boltTx
}

func (b *boltBucket) Get(key []byte) []byte       { return b.b.Get(key) }
func (b *boltBucket) Put(key, value []byte) error { return boltErr(b.b.Put(key, value)) }
func (b *boltBucket) Delete(key []byte) error     { return boltErr(b.b.Delete(key)) }
func (b *boltBucket) Bucket(name []byte) Bucket   { return b.tx.wrap(b.b.Bucket(name)) }
func (b *boltBucket) CreateBucket(name []byte) (Bucket, error) {
	n, err := b.b.CreateBucket(name)
	return b.tx.wrap(n), boltErr(err)
}
func (b *boltBucket) CreateBucketIfNotExists(name []byte) (Bucket, error) {
	n, err := b.b.CreateBucketIfNotExists(name)
	return b.tx.wrap(n), boltErr(err)
}
func (b *boltBucket) DeleteBucket(name []byte) error           { return boltErr(b.b.DeleteBucket(name)) }
func (b *boltBucket) ForEach(fn func(k, v []byte) error) error { return b.b.ForEach(fn) }
func (b *boltBucket) ForEachBucket(fn func(k []byte) error) error {
	return b.b.ForEachBucket(fn)
}
func (b *boltBucket) Cursor() Cursor { return &boltCursor{c: b.b.Cursor(), b: b} }
func (b *boltBucket) NextSequence() (uint64, error) {
	n, err := b.b.NextSequence()
	return n, boltErr(err)
}
func (b *boltBucket) Sequence() uint64           { return b.b.Sequence() }
func (b *boltBucket) SetSequence(v uint64) error { return boltErr(b.b.SetSequence(v)) }
func (b *boltBucket) KeyN() int {
	n := 0
	c := b.b.Cursor()
	for k, _ := c.First(); k != nil; k, _ = c.Next() {
		n++
	}
	return n
}

// Claim gives the first n nested buckets: a bbolt file has one writer at
// a time, so no other transaction holds any.
func (b *boltBucket) Claim(n int) ([][]byte, error) {
	if !b.b.Writable() {
		return nil, ErrTxNotWritable
	}
	var names [][]byte
	if n <= 0 {
		return nil, nil
	}
	c := b.b.Cursor()
	for k, v := c.First(); k != nil && len(names) < n; k, v = c.Next() {
		if v == nil {
			names = append(names, Copy(k))
		}
	}
	return names, nil
}

// ClaimNamed gives those of names that are nested buckets, in name
// order: no other transaction holds any (see Claim).
func (b *boltBucket) ClaimNamed(names [][]byte) ([][]byte, error) {
	if !b.b.Writable() {
		return nil, ErrTxNotWritable
	}
	var out [][]byte
	for _, n := range names {
		if len(n) > 0 && b.b.Bucket(n) != nil {
			out = append(out, Copy(n))
		}
	}
	slices.SortFunc(out, bytes.Compare)
	return slices.CompactFunc(out, bytes.Equal), nil
}

func (b *boltBucket) Tx() Tx         { return b.tx }
func (b *boltBucket) Writable() bool { return b.b.Writable() }

type boltCursor struct {
	c *bolt.Cursor
	b *boltBucket
}

func (c *boltCursor) First() ([]byte, []byte)        { return c.c.First() }
func (c *boltCursor) Last() ([]byte, []byte)         { return c.c.Last() }
func (c *boltCursor) Next() ([]byte, []byte)         { return c.c.Next() }
func (c *boltCursor) Prev() ([]byte, []byte)         { return c.c.Prev() }
func (c *boltCursor) Seek(k []byte) ([]byte, []byte) { return c.c.Seek(k) }
func (c *boltCursor) Delete() error                  { return boltErr(c.c.Delete()) }
func (c *boltCursor) Bucket() Bucket                 { return c.b }
