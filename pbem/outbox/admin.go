package outbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"orrery/engine/store"
)

// This file is what the GM's `orrery mail queue`, `mail retry` and `mail
// drop` do: see the mail waiting to go out and the mail given up on, send
// a mail again now (after the provider's outage was mended, say), and
// drop one that should not go (a body that cannot be read, a report to an
// address that turned out wrong). A queue an operator cannot look into is
// one he cannot run: before these, a damaged body was seen only in the
// log, and `game log` stopped at it.

// Entry is one queued mail or dead letter as the GM sees it.
type Entry struct {
	Seq  uint64
	Dead bool // given up on (BucketDead), not waiting in the queue
	// Item is the mail with its delivery state; zero when Unreadable.
	Item Item
	// Unreadable says why the stored body could not be read ("" when it
	// could): the entry can still be dropped.
	Unreadable string
}

// ErrNoMail is returned for a seq that names no queued mail and no dead
// letter.
var ErrNoMail = errors.New("no such mail in the queue or among the mail given up on")

// List returns up to limit mails queued (or, with dead, given up on) after
// seq after, in the order they were queued; limit 0 lists them all. A body
// that cannot be read is listed as such, not an error: it is what the GM
// is looking for.
func List(ctx context.Context, db *store.Store, dead bool, after uint64, limit int) ([]Entry, error) {
	var out []Entry
	err := db.View(ctx, func(tx store.Tx) error {
		out = out[:0]
		mail := tx.Bucket(store.BucketMail)
		if mail == nil {
			return nil
		}
		name := BucketQueue
		if dead {
			name = BucketDead
		}
		b := mail.Bucket(name)
		if b == nil {
			return nil
		}
		c := b.Cursor()
		for k, v := c.Seek(store.Key(after + 1)); k != nil; k, v = c.Next() {
			if limit > 0 && len(out) == limit {
				break
			}
			out = append(out, entryOf(mail, k, v, dead))
		}
		return nil
	})
	return out, err
}

// entryOf reads the body v stored under k (with its state record, for a
// queued mail).
func entryOf(mail store.Bucket, k, v []byte, dead bool) Entry {
	e := Entry{Seq: store.KeyN(k), Dead: dead}
	var sv []byte
	if !dead {
		if states := mail.Bucket(BucketState); states != nil {
			sv = states.Get(k)
		}
	}
	it, err := decodeItem(k, v, sv)
	if err != nil {
		e.Unreadable = err.Error()
		return e
	}
	e.Item = it
	return e
}

// find returns the entry under seq, queued or dead.
func find(tx store.Tx, seq uint64) (Entry, error) {
	mail := tx.Bucket(store.BucketMail)
	if mail == nil {
		return Entry{}, ErrNoMail
	}
	k := store.Key(seq)
	for _, dead := range []bool{false, true} {
		name := BucketQueue
		if dead {
			name = BucketDead
		}
		if b := mail.Bucket(name); b != nil {
			if v := b.Get(k); v != nil {
				return entryOf(mail, k, v, dead), nil
			}
		}
	}
	return Entry{}, ErrNoMail
}

// Retry sends mail seq again as soon as an outbox runs: a queued mail
// becomes due now (its attempts kept); a mail given up on goes back into
// the queue, due now, and gets the whole GiveUpAfter again from now. It
// returns the entry as it was. A mail being sent at this moment (a
// worker holds it) is left alone, and one whose body cannot be read is
// refused: sending it again would fail again; drop it.
func Retry(ctx context.Context, db *store.Store, seq uint64, now time.Time) (Entry, error) {
	return change(ctx, db, seq, func(tx store.Tx, e Entry) error {
		if e.Unreadable != "" {
			return fmt.Errorf("mail %d cannot be read (%s): sending it again would fail again; drop it (orrery mail drop %d)", seq, e.Unreadable, seq)
		}
		q, err := buckets(tx)
		if err != nil {
			return err
		}
		mail := tx.Bucket(store.BucketMail)
		k := store.Key(seq)
		it := e.Item
		if !e.Dead {
			if it.Owner != "" {
				return fmt.Errorf("mail %d is being sent at this moment (by worker %s): see orrery mail queue again in a minute", seq, it.Owner)
			}
			it.NextAttempt = now
			return putState(mail.Bucket(BucketState), k, stateOf(&it))
		}
		it.Queued, it.NextAttempt, it.Owner = now, now, ""
		data, err := encodeBody(it)
		if err != nil {
			return err
		}
		if err := q.Put(k, data); err != nil {
			return err
		}
		if err := putState(mail.Bucket(BucketState), k, stateOf(&it)); err != nil {
			return err
		}
		return mail.Bucket(BucketDead).Delete(k)
	})
}

// change runs fn on mail seq, queued or dead, in one transaction, and
// returns the entry as it was before.
func change(ctx context.Context, db *store.Store, seq uint64, fn func(tx store.Tx, e Entry) error) (Entry, error) {
	var was Entry
	err := db.Update(ctx, func(tx store.Tx) error {
		e, err := find(tx, seq)
		if err != nil {
			return err
		}
		was = e
		return fn(tx, e)
	})
	return was, err
}

// Drop deletes mail seq, queued or given up on, unsent. Its game's mail
// (game log) keeps a line for it: dropped, when, and reason. A queued
// mail a worker is sending at this moment may still arrive; the worker
// records it as sent if it does.
func Drop(ctx context.Context, db *store.Store, seq uint64, reason string, now time.Time) (Entry, error) {
	return change(ctx, db, seq, func(tx store.Tx, e Entry) error {
		mail := tx.Bucket(store.BucketMail)
		k := store.Key(seq)
		if e.Dead {
			if err := mail.Bucket(BucketDead).Delete(k); err != nil {
				return err
			}
		} else {
			if err := mail.Bucket(BucketQueue).Delete(k); err != nil {
				return err
			}
			if states := mail.Bucket(BucketState); states != nil {
				if err := states.Delete(k); err != nil {
					return err
				}
			}
		}
		if e.Unreadable != "" || e.Item.Mail.Game == "" {
			// A body that cannot be read names no game: its line in the
			// game index, if any, finds no mail and shows nothing.
			return nil
		}
		idx := mail.Bucket(BucketGames)
		if idx == nil {
			return nil
		}
		why := "dropped by the GM"
		if reason != "" {
			why += ": " + reason
		}
		m := e.Item.Mail
		ev, err := json.Marshal(Event{Time: now, State: "dropped", Kind: m.Kind, To: m.To, Subject: m.Subject, Attempts: e.Item.Attempts, Error: why})
		if err != nil {
			return err
		}
		return idx.Put(gameKey(m.Game, seq), ev)
	})
}
