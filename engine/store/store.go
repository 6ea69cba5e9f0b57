// Package store holds every game and the mail side's records in one
// key-value space of nested buckets (Tx, Bucket, Cursor), checks its schema
// version and gives the turn life cycle and the mail side one place to run
// transactions, so that a state change and the mails it causes commit
// together or not at all. The space is kept by a Backend: a bbolt file
// (Open, the embedded default) or PostgreSQL (engine/store/pgstore).
package store

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// Store is an open database.
type Store struct {
	be   Backend
	kind string
	path string // the file, for bbolt; "" otherwise
	name string // what messages call it (a DSN without its password)

	commits    atomic.Int64
	commitTime atomic.Int64
	retries    atomic.Int64

	// life counts the transactions and groups under way, so that Close
	// waits for them and refuses new ones (see Close).
	life struct {
		sync.Mutex
		busy   int
		closed bool
		idle   sync.Cond // signalled when busy falls to 0
	}
}

// ErrClosed is what Update, View and Group return once Close has begun:
// the store no longer takes work (the daemon is stopping).
var ErrClosed = errors.New("the store is closed")

// New wraps an open backend: kind names it ("bbolt", "postgres"), path is
// its file when it has one, name is how messages refer to it (never with a
// password). New checks the schema version of the key-value space, and
// (unless readOnly) creates the top-level buckets and upgrades an older
// version in place.
func New(be Backend, kind, path, name string, readOnly bool) (*Store, error) {
	s := &Store{be: be, kind: kind, path: path, name: name}
	s.life.idle.L = &s.life.Mutex
	if err := s.init(readOnly); err != nil {
		return nil, err
	}
	return s, nil
}

func (s *Store) init(readOnly bool) error {
	// check returns the space's version: SchemaVersion for a new one, or
	// an older one that New upgrades in place.
	check := func(tx Tx) (int, error) {
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
			return 0, fmt.Errorf("database %s has an unreadable schema version %q", s.name, v)
		}
		if n != SchemaVersion && !(upgradable[n] && !readOnly) {
			return 0, fmt.Errorf("database %s has schema version %d; this orrery reads version %d (use a matching release, or migrate)", s.name, n, SchemaVersion)
		}
		return n, nil
	}
	ctx := context.Background()
	if readOnly {
		return s.View(ctx, func(tx Tx) error { _, err := check(tx); return err })
	}
	return s.Update(ctx, func(tx Tx) error {
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
			// An upgraded space's derived indexes are rebuilt by their
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

// Close closes the database. It first refuses new work (Update, View and
// Group then return ErrClosed), then waits for the transactions and groups
// under way to commit or roll back, so a batch is never cut off half
// done by its store closing under it: a daemon stopping, or a test's
// clean-up while a tick is still committing. Close it once the code that
// uses it has stopped (Daemon.Run has returned); a second Close does
// nothing.
func (s *Store) Close() error {
	s.life.Lock()
	if s.life.closed {
		s.life.Unlock()
		return nil
	}
	s.life.closed = true
	for s.life.busy > 0 {
		s.life.idle.Wait()
	}
	s.life.Unlock()
	return s.be.Close()
}

// enter counts one more transaction or group under way, or refuses it
// once Close has begun. A transaction opened inside another (a View with
// a context of no group, inside a group) is refused too rather than
// waited for: the outer one would otherwise wait on Close, and Close on it.
func (s *Store) enter() error {
	s.life.Lock()
	defer s.life.Unlock()
	if s.life.closed {
		return fmt.Errorf("%w: %s", ErrClosed, s.name)
	}
	s.life.busy++
	return nil
}

// leave ends what enter counted, waking a Close that waits for it.
func (s *Store) leave() {
	s.life.Lock()
	s.life.busy--
	if s.life.busy == 0 {
		s.life.idle.Broadcast()
	}
	s.life.Unlock()
}

// Path is the file the store was opened from; "" for a store that is no
// file (PostgreSQL).
func (s *Store) Path() string { return s.path }

// Name is how messages name the store: its file, or its DSN without the
// password.
func (s *Store) Name() string { return s.name }

// Kind is the backend: "bbolt" or "postgres".
func (s *Store) Kind() string { return s.kind }

// Locks reports whether the store is held by one process (a bbolt file):
// other processes then reach it through that process's control socket.
func (s *Store) Locks() bool { return s.be.Locks() }

// Backend returns the backend the store wraps, for code under
// engine/store (db copy, the conformance tests).
func (s *Store) Backend() Backend { return s.be }

// Stats counts the commits made through the store since it was opened.
func (s *Store) Stats() Stats {
	st := Stats{Commits: s.commits.Load(), CommitTime: time.Duration(s.commitTime.Load()), Retries: s.retries.Load()}
	if b, ok := s.be.(*boltBackend); ok {
		st.PageWrites = b.pageWrites()
	}
	if b, ok := s.be.(interface{ RoundTrips() int64 }); ok {
		st.RoundTrips = b.RoundTrips()
	}
	return st
}

// Retryable reports whether err, returned by Update or View (wrapped or
// not), is the backend refusing to serialise the transaction with
// concurrent ones after every try (PostgreSQL's 40001 and 40P01): the
// same work may well succeed a little later. A caller that must not let
// later work overtake this one (a player's later mail) waits and tries
// again instead of giving up.
func (s *Store) Retryable(err error) bool { return err != nil && s.be.Retryable(err) }

// maxTries bounds how often Update runs fn when the backend keeps failing
// to serialise it with concurrent transactions (PostgreSQL's 40001 and
// 40P01); each try waits a little longer, with jitter.
const maxTries = 12

// Update runs fn in a read-write transaction, unless ctx is already done;
// inside a Group, in the group's transaction.
//
// On a backend that can fail to serialise concurrent transactions
// (PostgreSQL at SERIALIZABLE), fn may run more than once: a try that
// failed so is rolled back, its OnCommit callbacks dropped, and fn run
// again in a new transaction. So fn must depend only on what it reads in
// tx and on its arguments, and set (not accumulate into) what it hands
// out: `x = v`, `s = s[:0]` before appending, never a counter it only
// increments.
func (s *Store) Update(ctx context.Context, fn func(tx Tx) error) error {
	if g := s.groupOf(ctx); g != nil {
		return g.update(ctx, fn)
	}
	if err := s.enter(); err != nil {
		return err
	}
	defer s.leave()
	return s.retry(ctx, func() error { return s.run(ctx, true, fn) })
}

// View runs fn in a read-only transaction, unless ctx is already done;
// inside a Group, in the group's transaction (seeing its changes so far).
// The transaction sees one snapshot of the store. Like Update's, fn may
// run again.
func (s *Store) View(ctx context.Context, fn func(tx Tx) error) error {
	if g := s.groupOf(ctx); g != nil {
		return g.view(ctx, fn)
	}
	if err := s.enter(); err != nil {
		return err
	}
	defer s.leave()
	return s.retry(ctx, func() error { return s.run(ctx, false, fn) })
}

// retry runs try until it succeeds, fails for good, or maxTries.
func (s *Store) retry(ctx context.Context, try func() error) error {
	wait := time.Millisecond
	for n := 1; ; n++ {
		err := try()
		if err == nil || n >= maxTries || !s.be.Retryable(err) || ctx.Err() != nil {
			return err
		}
		s.retries.Add(1)
		d := wait/2 + rand.N(wait)
		select {
		case <-ctx.Done():
			return err
		case <-time.After(d):
		}
		wait = min(2*wait, 500*time.Millisecond)
	}
}

// run runs fn in one transaction.
func (s *Store) run(ctx context.Context, writable bool, fn func(tx Tx) error) (err error) {
	if err := ctx.Err(); err != nil {
		return err
	}
	tx, err := s.be.Begin(ctx, writable)
	if err != nil {
		return err
	}
	done := false
	defer func() {
		if !done {
			tx.Rollback() // fn panicked
		}
	}()
	err = fn(tx)
	done = true
	if e := tx.Err(); e != nil {
		err = e // a failed read: whatever fn decided on it must not commit
	}
	if err != nil || !writable {
		tx.Rollback()
		return err
	}
	return s.commit(tx)
}

func (s *Store) commit(tx BackendTx) error {
	t0 := time.Now()
	err := tx.Commit()
	s.commits.Add(1)
	s.commitTime.Add(int64(time.Since(t0)))
	return err
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
