package store

import (
	"errors"
	"sync"
	"time"
)

// Unique keys. A queue that several processes append to at once (the
// outbox, on PostgreSQL) cannot number its records from the bucket's
// sequence: every append then writes the bucket's one sequence row, and
// two processes that append in overlapping transactions refuse each
// other (40001), however unrelated the rest of their work. A KeyClock
// numbers them without a shared row: the time, then the process's node,
// then a counter, so that the numbers of one process grow strictly and
// those of several processes sort by the millisecond they were taken in.
//
// Layout of the 64 bits, high to low: 1 (so that every such number sorts
// after every number a bucket's sequence gave: those stay far below
// 2^63), 42 bits of milliseconds since 2024-01-01 UTC (139 years), 11
// bits of node, 10 bits of counter (1,024 a millisecond; more borrow the
// next millisecond). Two processes with the same node may take the same
// number in the same millisecond: the record is therefore written with
// Inserter.Insert where the store has it, which fails the transaction
// (to be run again, with new numbers) rather than overwrite a record.
type KeyClock struct {
	mu   sync.Mutex
	node uint64
	last uint64
}

const (
	keyCounterBits = 10
	keyNodeBits    = 11
	keyTimeShift   = keyCounterBits + keyNodeBits
	keyFlag        = uint64(1) << 63
)

// keyEpoch is the zero of a KeyClock's milliseconds.
var keyEpoch = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

// NewKeyClock returns a clock for node (only its low 11 bits count).
func NewKeyClock(node uint64) *KeyClock {
	return &KeyClock{node: node & (1<<keyNodeBits - 1)}
}

// Next returns a number greater than every number c returned before,
// taken at now.
func (c *KeyClock) Next(now time.Time) uint64 {
	ms := uint64(max(now.Sub(keyEpoch).Milliseconds(), 0))
	c.mu.Lock()
	defer c.mu.Unlock()
	v := keyFlag | ms<<keyTimeShift | c.node<<keyCounterBits
	if v <= c.last {
		// The same millisecond (or the clock went back): count on, or
		// borrow the next millisecond when the counter is full.
		if c.last&(1<<keyCounterBits-1) < 1<<keyCounterBits-1 {
			v = c.last + 1
		} else {
			v = (c.last>>keyTimeShift+1)<<keyTimeShift | c.node<<keyCounterBits
		}
	}
	c.last = v
	return v
}

// KeyTime returns when a KeyClock took n, and false for a number that is
// not a KeyClock's (a bucket sequence's).
func KeyTime(n uint64) (time.Time, bool) {
	if n&keyFlag == 0 {
		return time.Time{}, false
	}
	return keyEpoch.Add(time.Duration(n&^keyFlag>>keyTimeShift) * time.Millisecond), true
}

// UniqueKeyer is a transaction of a store several processes share, which
// numbers appended records with its store's KeyClock (pgstore). A
// transaction without it (bbolt's: one process holds the file) numbers
// them with the bucket's sequence, which costs nothing there.
type UniqueKeyer interface {
	UniqueKey() uint64
}

// Inserter is a bucket that can write a key that must not be there yet:
// Insert fails (on PostgreSQL, when the write reaches the server, failing
// the transaction with an error Retryable accepts) instead of replacing
// another record.
type Inserter interface {
	Insert(key, value []byte) error
}

// ErrKeyExists is Inserter.Insert's refusal of a key that is there.
var ErrKeyExists = errors.New("the key is taken already")
