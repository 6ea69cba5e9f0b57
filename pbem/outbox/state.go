package outbox

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"strings"
	"sync"
	"time"

	"orrery/engine/store"
)

// A queued mail is kept in two records under the same key. Its body (the
// Item as it was queued: the mail, its text, HTML and report.json, some
// 33 kB) is in BucketQueue and never changes while it waits; its delivery
// state (attempts, next attempt, owner, last error: a hundred bytes) is in
// BucketState. Every claim and every failed attempt changes the state
// only. When the two were one record, each claim decoded and wrote back
// the whole mail: on bbolt a backlog drain wrote about 210 kB to disk per
// mail sent, and on PostgreSQL a claim read pages of megabytes to find the
// due mails. Now a claim scans the small records and reads the bodies of
// the mails it takes, and nothing else (BenchmarkClaimSettle).
//
// Both records are written, moved and deleted in one transaction, so a
// crash at any instant leaves a mail whole, queued or settled.
//
// A body without a state record was queued by an older Orrery, which kept
// the state inside the item: its own fields are its state. A claim gives
// such a mail a state record before it scans (adopt), so it is sent like
// any other. A state record without a body is left of a mail an older
// Orrery sent (it knew nothing of the state): claim drops it.

// BucketState holds the delivery state of each queued mail, keyed as its
// body in BucketQueue (mail/outbox-state).
var BucketState = store.BucketMailOutboxState

// state is a queued mail's delivery state.
type state struct {
	Attempts    int       `json:"attempts,omitempty"`
	NextAttempt time.Time `json:"next_attempt"`
	Owner       string    `json:"owner,omitempty"`
	LastError   string    `json:"last_error,omitempty"`
	// To hashes the mail's first recipient (toHash): a claim picks its
	// connection's mails (shardOf) without reading their bodies.
	To uint32 `json:"to"`
}

func stateOf(it *Item) state {
	return state{Attempts: it.Attempts, NextAttempt: it.NextAttempt, Owner: it.Owner, LastError: it.LastError, To: toHash(&it.Mail)}
}

// apply sets it's delivery state to s.
func (s *state) apply(it *Item) {
	it.Attempts, it.NextAttempt, it.Owner, it.LastError = s.Attempts, s.NextAttempt, s.Owner, s.LastError
}

// toHash hashes the address of m's first recipient (0 for none).
func toHash(m *Mail) uint32 {
	if len(m.To) == 0 {
		return 0
	}
	a := strings.ToLower(strings.TrimSpace(m.To[0]))
	if i := strings.LastIndexByte(a, '<'); i >= 0 {
		a = strings.TrimSuffix(a[i+1:], ">")
	}
	h := fnv.New32a()
	h.Write([]byte(a))
	return h.Sum32()
}

// putState writes the delivery state of the mail under k.
func putState(states store.Bucket, k []byte, s state) error {
	data, err := json.Marshal(s)
	if err != nil {
		return err
	}
	return states.Put(k, data)
}

// decodeItem reads a queued mail: its body v, with its state record sv
// laid over it when there is one (nil: the body's own state).
func decodeItem(k, v, sv []byte) (Item, error) {
	var it Item
	if err := decodeBody(v, &it); err != nil {
		return it, fmt.Errorf("outbox item %d: %w", store.KeyN(k), err)
	}
	if sv != nil {
		var s state
		if err := json.Unmarshal(sv, &s); err != nil {
			return it, fmt.Errorf("outbox item %d: state: %w", store.KeyN(k), err)
		}
		s.apply(&it)
	}
	return it, nil
}

// forEachItem calls fn for every queued mail in key order, with its state,
// walking the bodies and the state records side by side (one read each,
// not a lookup per mail).
func forEachItem(mail store.Bucket, fn func(k []byte, it Item) error) error {
	bodies := mail.Bucket(BucketQueue)
	if bodies == nil {
		return nil
	}
	var sc store.Cursor
	var sk, sv []byte
	if states := mail.Bucket(BucketState); states != nil {
		sc = states.Cursor()
		sk, sv = sc.First()
	}
	c := bodies.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		for sk != nil && string(sk) < string(k) {
			sk, sv = sc.Next()
		}
		var own []byte
		if sk != nil && string(sk) == string(k) {
			own = sv
		}
		it, err := decodeItem(k, v, own)
		if err != nil {
			return err
		}
		if err := fn(k, it); err != nil {
			return err
		}
	}
	return nil
}

// adopted is how far a Queue has made sure that every body has a state
// record: up to the queue's sequence number seq, once done is set.
type adopted struct {
	mu   sync.Mutex
	done bool
	seq  uint64
}

// tailLookups bounds the bodies adopt looks up one by one; past it, it
// reads the tail of the queue instead.
const tailLookups = 64

// adopt gives a state record to every body that has none (queued by an
// older Orrery), inside a claim's transaction, and returns the queue's
// sequence number up to which that is done, for q.adopted once the
// transaction commits. The first claim of a Queue compares the counts of
// bodies and state records, and reads the whole queue only when they
// differ; later claims look only at the mails queued since, by their
// keys (a mail's key is its sequence number), so the cost is a few reads
// of small records per claim.
func (q *Queue) adopt(bodies, states store.Bucket) (uint64, error) {
	seq := bodies.Sequence()
	q.adopted.mu.Lock()
	done, from := q.adopted.done, q.adopted.seq
	q.adopted.mu.Unlock()
	if done && seq <= from {
		return from, nil
	}
	if !done {
		if bodies.KeyN() == states.KeyN() {
			return seq, nil
		}
		return seq, q.adoptRange(bodies, states, nil, seq)
	}
	// The mails queued since the last look: which have state records?
	have := map[uint64]bool{}
	c := states.Cursor()
	for k, _ := c.Seek(store.Key(from + 1)); k != nil && store.KeyN(k) <= seq; k, _ = c.Next() {
		have[store.KeyN(k)] = true
	}
	var missing []uint64
	for n := from + 1; n <= seq && len(missing) <= tailLookups; n++ {
		if !have[n] {
			missing = append(missing, n)
		}
	}
	if len(missing) > tailLookups {
		return seq, q.adoptRange(bodies, states, store.Key(from+1), seq)
	}
	for _, n := range missing {
		k := store.Key(n)
		if v := bodies.Get(k); v != nil {
			if err := adoptOne(states, k, v); err != nil {
				return 0, err
			}
		}
	}
	return seq, nil
}

// adoptRange adopts the bodies from key from (nil: the first) to the
// sequence number last that have no state record.
func (q *Queue) adoptRange(bodies, states store.Bucket, from []byte, last uint64) error {
	have := map[string]bool{}
	c := states.Cursor()
	k, _ := c.First()
	if from != nil {
		k, _ = c.Seek(from)
	}
	for ; k != nil; k, _ = c.Next() {
		have[string(k)] = true
	}
	type body struct{ k, v []byte }
	var orphans []body
	bc := bodies.Cursor()
	k, v := bc.First()
	if from != nil {
		k, v = bc.Seek(from)
	}
	for ; k != nil && store.KeyN(k) <= last; k, v = bc.Next() {
		if !have[string(k)] {
			orphans = append(orphans, body{store.Copy(k), store.Copy(v)})
		}
	}
	for _, b := range orphans {
		if err := adoptOne(states, b.k, b.v); err != nil {
			return err
		}
	}
	if len(orphans) > 0 {
		q.opt.Logger.Info("outbox: gave state records to mails an older Orrery queued", "mails", len(orphans))
	}
	return nil
}

// adoptOne writes the state record of the body v under k, the state the
// body holds. A body that cannot be read gets a state due at once, so
// that the claim that takes it names it in its error, as it did when
// the body was the whole record.
func adoptOne(states store.Bucket, k, v []byte) error {
	var it Item
	s := state{}
	if decodeBody(v, &it) == nil {
		s = stateOf(&it)
	}
	return putState(states, k, s)
}

// doneAdopting records that every body up to the queue's sequence number
// seq has a state record.
func (q *Queue) doneAdopting(seq uint64) {
	q.adopted.mu.Lock()
	defer q.adopted.mu.Unlock()
	if !q.adopted.done || seq > q.adopted.seq {
		q.adopted.done, q.adopted.seq = true, seq
	}
}

// adoptAgain makes the next claim compare the counts of bodies and state
// records again: it dropped a state record left without its body, so
// equal counts said nothing until now.
func (q *Queue) adoptAgain() {
	q.adopted.mu.Lock()
	defer q.adopted.mu.Unlock()
	q.adopted.done = false
}

// withState returns the queued body v under k with its state record laid
// over it, as JSON of the Item; v itself when it has none or either cannot
// be read (the caller's decoding then says so).
func withState(mail store.Bucket, k, v []byte) []byte {
	states := mail.Bucket(BucketState)
	if states == nil {
		return v
	}
	sv := states.Get(k)
	if sv == nil {
		return v
	}
	it, err := decodeItem(k, v, sv)
	if err != nil {
		return v
	}
	data, err := json.Marshal(it)
	if err != nil {
		return v
	}
	return data
}
