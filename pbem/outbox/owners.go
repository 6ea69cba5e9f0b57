package outbox

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"time"

	"orrery/engine/store"
)

// Claims and their owners. A worker that claims mails to send marks each
// with its own id (Item.Owner) in the claim's transaction, and clears the
// mark when it settles them. A mark left behind is a mail in flight when its
// worker died: a kill -9 between the SMTP server's acceptance and the
// settling commit, or before the send. Such a mail must go at once after a
// restart, not wait for the backoff the claim set (22–37 s by default).
//
// Which marks are left behind depends on who else may be running:
//
//   - a bbolt database is open read-write in one process only (its file
//     lock), so every mark that is not this worker's was left by a process
//     that is gone: it is released when the worker starts (the default);
//   - with a database several daemons share (Options.Shared, for the store
//     the hosting work plans), each worker holds a lease in the owners
//     bucket and renews it while it runs; only the marks of an owner whose
//     lease has lapsed are released, never a live daemon's work.
//
// A released mail is due at once. It may have been accepted by the SMTP
// server just before the crash: it is then sent again with the same
// Message-ID (at least once, as MTAs do); pbem/soak counts such duplicates.

// BucketOwners holds the leases of running workers (mail/outbox-owners).
var BucketOwners = store.BucketMailOwners

// Lease is one worker's registration.
type Lease struct {
	ID      string    `json:"id"`
	PID     int       `json:"pid"`
	Host    string    `json:"host,omitempty"`
	Started time.Time `json:"started"`
	Until   time.Time `json:"until"` // renewed every Options.Lease/3 while it runs
}

func newOwnerID() string {
	var b [8]byte
	rand.Read(b[:])
	return fmt.Sprintf("%d-%s", os.Getpid(), hex.EncodeToString(b[:]))
}

// ID is the worker's owner id, the mark on the mails it has claimed.
func (q *Queue) ID() string { return q.id }

func ownersBucket(tx store.Tx) (store.Bucket, error) {
	mail, err := tx.CreateBucketIfNotExists(store.BucketMail)
	if err != nil {
		return nil, err
	}
	return mail.CreateBucketIfNotExists(BucketOwners)
}

// renewLease writes (or rewrites) this worker's lease, and drops leases
// that lapsed long ago, whose marks are released by now.
func (q *Queue) renewLease(tx store.Tx) error {
	b, err := ownersBucket(tx)
	if err != nil {
		return err
	}
	now := q.opt.Now()
	if q.lease.ID == "" {
		host, _ := os.Hostname()
		q.lease = Lease{ID: q.id, PID: os.Getpid(), Host: host, Started: now}
	}
	q.lease.Until = now.Add(q.opt.Lease)
	data, err := json.Marshal(q.lease)
	if err != nil {
		return err
	}
	if err := b.Put([]byte(q.id), data); err != nil {
		return err
	}
	var stale [][]byte
	err = b.ForEach(func(k, v []byte) error {
		var l Lease
		if json.Unmarshal(v, &l) == nil && now.Sub(l.Until) > 24*time.Hour {
			stale = append(stale, append([]byte(nil), k...))
		}
		return nil
	})
	for _, k := range stale {
		if err := b.Delete(k); err != nil {
			return err
		}
	}
	return err
}

// dropLease removes this worker's lease at a clean exit.
func (q *Queue) dropLease() error {
	return q.db.Update(context.Background(), func(tx store.Tx) error {
		b, err := ownersBucket(tx)
		if err != nil {
			return err
		}
		return b.Delete([]byte(q.id))
	})
}

// liveOwners returns the test of whether an owner is alive, as of now, for
// the claims read in tx.
func (q *Queue) liveOwners(tx store.Tx, now time.Time) func(owner string) bool {
	if !q.opt.Shared {
		// The database is ours alone: any other owner is gone.
		return func(owner string) bool { return owner == q.id }
	}
	live := liveLeases(tx, now)
	live[q.id] = true
	return func(owner string) bool { return live[owner] }
}

// liveLeases returns the ids of the workers whose leases in tx run past
// now.
func liveLeases(tx store.Tx, now time.Time) map[string]bool {
	live := map[string]bool{}
	if mail := tx.Bucket(store.BucketMail); mail != nil {
		if b := mail.Bucket(BucketOwners); b != nil {
			b.ForEach(func(k, v []byte) error {
				var l Lease
				if json.Unmarshal(v, &l) == nil && l.Until.After(now) {
					live[string(k)] = true
				}
				return nil
			})
		}
	}
	return live
}

// OthersLive reports whether, as tx sees the database, a worker other
// than this one holds a live lease: another daemon runs on it, or one
// died less than a lease ago. The daemon's leader asks it of each
// fetched batch (daemon.Enqueue): with no one else there to share the
// work, it handles the batch itself instead of queueing it. A worker
// whose Run has not yet written its first lease is not seen: it gets its
// share from the next batch on.
func (q *Queue) OthersLive(tx store.Tx) bool {
	live := liveLeases(tx, q.opt.Now())
	delete(live, q.id)
	return len(live) > 0
}

// InFlight counts the queued mails claimed and not yet settled: after a
// crash, the mails a restart releases (and may send a second time).
func InFlight(db *store.Store) (int, error) {
	items, err := Pending(db)
	n := 0
	for _, it := range items {
		if it.Owner != "" {
			n++
		}
	}
	return n, err
}
