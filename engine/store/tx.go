package store

import (
	"context"
	"errors"
	"time"
)

// Tx, Bucket and Cursor are the store's key-value space as engine/game and
// the mail side see it, whatever holds it (bbolt here, PostgreSQL in
// engine/store/pgstore). They mirror the bbolt methods the code used when
// bbolt was the only store, with bbolt's meaning, so that code written
// against bbolt reads the same:
//
//   - buckets nest, and a bucket's keys and nested buckets share one
//     namespace, ordered by their bytes (bytes.Compare);
//   - a Cursor yields nested buckets too, with a nil value;
//   - Get of a missing key, or of a nested bucket's name, is nil; an empty
//     value is a non-nil empty slice;
//   - a missing bucket is a nil interface (never a typed nil), so
//     `tx.Bucket(name) == nil` works;
//   - values and keys read in a transaction may be valid only inside it:
//     copy them out (Copy); a value given to Put must not change until
//     the transaction ends (both backends keep it until commit);
//   - writes inside a transaction are seen by later reads in it, and all
//     of them commit together or not at all.
//
// A read that fails (PostgreSQL's connection drops) cannot be told from a
// missing key by Get's result; the backend then spoils the transaction,
// every later call in it fails or returns nothing, and Update or View
// returns the error whatever fn returned, so nothing decided on a failed
// read commits. PostgreSQL sends writes later, in batches (pgstore): a
// write the server refuses (a Put over a nested bucket the transaction had
// not seen, a key too long for its index) spoils the transaction so when
// it is sent, at a later call or at commit, rather than in Put's result.
type Tx interface {
	// Bucket returns the top-level bucket name, or nil.
	Bucket(name []byte) Bucket
	CreateBucket(name []byte) (Bucket, error)
	CreateBucketIfNotExists(name []byte) (Bucket, error)
	DeleteBucket(name []byte) error
	// ForEach calls fn for every top-level bucket, in name order.
	ForEach(fn func(name []byte, b Bucket) error) error
	// OnCommit registers fn to run after the transaction commits (never
	// when it rolls back, nor for a try that is retried).
	OnCommit(fn func())
	Writable() bool
}

// Bucket is a named set of keys and nested buckets. See Tx.
type Bucket interface {
	Get(key []byte) []byte
	Put(key, value []byte) error
	Delete(key []byte) error
	Bucket(name []byte) Bucket
	CreateBucket(name []byte) (Bucket, error)
	CreateBucketIfNotExists(name []byte) (Bucket, error)
	DeleteBucket(name []byte) error
	// ForEach calls fn for every key in order; a nested bucket's value is
	// nil. fn must not change the bucket.
	ForEach(fn func(k, v []byte) error) error
	// ForEachBucket calls fn for the name of every nested bucket in order.
	ForEachBucket(fn func(k []byte) error) error
	Cursor() Cursor
	NextSequence() (uint64, error)
	Sequence() uint64
	SetSequence(v uint64) error
	// KeyN counts the bucket's keys and nested buckets (not theirs).
	KeyN() int
	// Claim returns the names of up to n of the bucket's nested buckets
	// that no other open transaction has claimed, and holds them for
	// this one until it commits or rolls back: several processes that
	// share one database take disjoint work from one queue of buckets
	// (PostgreSQL: SELECT … FOR NO KEY UPDATE SKIP LOCKED on their rows;
	// bbolt: the first n, as its one writer at a time makes every claim
	// the only one). A bucket claimed, deleted and committed is gone; a
	// claim rolled back is free again. PostgreSQL gives the oldest
	// buckets first (creation order), bbolt name order; the buckets this
	// transaction claimed already are among those given again, so a
	// caller claims one more with Claim(len(mine)+1). Only in a
	// writable transaction (ErrTxNotWritable).
	Claim(n int) ([][]byte, error)
	// ClaimNamed is Claim for chosen buckets: of names, it returns
	// those that are nested buckets of this bucket and that no other
	// open transaction holds, in name order, and holds them for this
	// one until it commits or rolls back. On PostgreSQL the hold is the
	// row lock a writable transaction takes on a game it opens (FOR
	// UPDATE … SKIP LOCKED), so a game being changed is skipped, not
	// waited for, and a game claimed waits for no one when opened; on
	// bbolt every name that is a nested bucket. Tick claims its batch
	// of due games so, and several processes split the due games. Only
	// in a writable transaction (ErrTxNotWritable).
	ClaimNamed(names [][]byte) ([][]byte, error)
	Tx() Tx
	Writable() bool
}

// Cursor walks a bucket's keys in order. Each method returns the key and
// value it lands on, or nil keys past either end; a nested bucket's value
// is nil. What a cursor sees of changes made through its bucket (other
// than Cursor.Delete) while it walks is undefined, as in bbolt: code here
// deletes with Cursor.Delete, or collects keys first.
type Cursor interface {
	First() (key, value []byte)
	Last() (key, value []byte)
	Next() (key, value []byte)
	Prev() (key, value []byte)
	// Seek moves to the first key at or after seek.
	Seek(seek []byte) (key, value []byte)
	// Delete removes the key the cursor is on (not a nested bucket).
	Delete() error
	Bucket() Bucket
}

// Errors of the key-value space, the same from every backend.
var (
	ErrBucketNotFound    = errors.New("bucket not found")
	ErrBucketExists      = errors.New("bucket already exists")
	ErrIncompatibleValue = errors.New("incompatible value: a bucket where a value is wanted, or the reverse")
	ErrTxNotWritable     = errors.New("transaction not writable")
	ErrKeyRequired       = errors.New("key required")
	ErrValueTooLarge     = errors.New("value too large")
	// ErrLocked is returned by Open when another process holds the
	// database (bbolt's file lock).
	ErrLocked = errors.New("database is in use by another process")
)

// Backend is what a store kind provides; Store wraps one. Backends live
// in this package (bbolt) and under it (engine/store/pgstore).
type Backend interface {
	// Begin starts a transaction. A backend whose transactions can fail
	// to serialise (PostgreSQL) says so with Retryable; Store then runs
	// the work again in a new transaction.
	Begin(ctx context.Context, writable bool) (BackendTx, error)
	// Retryable reports whether err means "run the transaction again".
	Retryable(err error) bool
	// Locks reports whether one process holds the database (bbolt's
	// file lock): the GM's CLI must then go through the daemon's
	// control socket.
	Locks() bool
	Close() error
}

// BackendTx is a transaction a Backend began.
type BackendTx interface {
	Tx
	// Err is the first failure of a call inside the transaction (a read
	// that could not be made), or nil.
	Err() error
	Commit() error
	Rollback() error
}

// Stats counts a store's commits since it was opened, for benchmarks.
type Stats struct {
	Commits    int64
	CommitTime time.Duration // time spent committing (write and fsync)
	// PageWrites is bbolt's count of pages written; 0 on other stores.
	PageWrites int64
	// RoundTrips counts the statements and batches sent to a database
	// server (PostgreSQL: each waits for its answer), begin and commit
	// included; 0 on bbolt.
	RoundTrips int64
	// Retries counts the tries of Update, View and Group that the
	// backend refused as not serialisable with concurrent transactions
	// (PostgreSQL's 40001, 40P01, or a bucket another process made
	// again) and that were run again: what several processes working on
	// one database cost each other. Always 0 on bbolt.
	Retries int64
}

// Sub returns s - o.
func (s Stats) Sub(o Stats) Stats {
	return Stats{Commits: s.Commits - o.Commits, CommitTime: s.CommitTime - o.CommitTime, PageWrites: s.PageWrites - o.PageWrites,
		RoundTrips: s.RoundTrips - o.RoundTrips, Retries: s.Retries - o.Retries}
}
