package outbox

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"time"

	"orrery/engine/store"
)

// This file keeps what the outbox remembers of old mail bounded. The mails
// of each game are indexed by game (mail/outbox-games), so `game log` reads
// one game's mails, not every record ever kept; and a record older than the
// retention is compacted: a game's mail shrinks to the Event that game log
// prints, kept in the index itself, and a mail about no game (help to a
// stranger, a LIST) is forgotten.

// BucketGames indexes the mails of each game: "<game id>\x00<seq>" → empty
// while the mail is in BucketQueue, BucketSent or BucketDead, or the JSON
// Event left of it once compacted.
var BucketGames = store.BucketMailOutboxGame

// DefaultRetention is how long records of sent and given-up mail are kept
// whole: long enough to answer "did my report of three turns ago go out?".
const DefaultRetention = 90 * 24 * time.Hour

// gamesIndexVersion is the layout of BucketGames (meta/outbox-index).
const gamesIndexVersion = "1"

// compactChunk bounds the records one transaction of Compact moves, so
// that a first run over years of mail never holds the writer for long.
const compactChunk = 2000

func gameKey(game string, seq uint64) []byte {
	k := make([]byte, 0, len(game)+9)
	k = append(append(k, game...), 0)
	return append(k, store.Key(seq)...)
}

// indexGameMail records that mail seq is about game.
func indexGameMail(tx store.Tx, game string, seq uint64) error {
	if game == "" {
		return nil
	}
	mail := tx.Bucket(store.BucketMail)
	b, err := mail.CreateBucketIfNotExists(BucketGames)
	if err != nil {
		return err
	}
	return b.Put(gameKey(game, seq), nil)
}

// gamesIndexed reports whether BucketGames is complete (built by Compact,
// or kept since the database was made).
func gamesIndexed(tx store.Tx) bool {
	meta := tx.Bucket(store.BucketMeta)
	return meta != nil && string(meta.Get(store.KeyOutboxIndex)) == gamesIndexVersion
}

// CompactStats says what Compact did.
type CompactStats struct {
	Indexed   int // mails entered in the game index (first run on an older database)
	Compacted int // records of a game's mail shrunk to what game log shows
	Forgotten int // records of mail about no game deleted
}

// Compact builds the game index if the database has none yet, then
// compacts the records of mail sent or given up on more than retention
// ago (0: DefaultRetention). The daemon runs it when it starts and every
// hour; it takes a few transactions of at most compactChunk records each.
func Compact(db *store.Store, now time.Time, retention time.Duration) (CompactStats, error) {
	var st CompactStats
	if retention <= 0 {
		retention = DefaultRetention
	}
	if err := db.Update(context.Background(), func(tx store.Tx) error {
		if _, err := buckets(tx); err != nil {
			return err
		}
		if gamesIndexed(tx) {
			return nil
		}
		n, err := buildGamesIndex(tx)
		st.Indexed = n
		return err
	}); err != nil {
		return st, fmt.Errorf("outbox: index the mails by game: %w", err)
	}
	cutoff := now.Add(-retention)
	for _, name := range [][]byte{BucketSent, BucketDead} {
		for {
			done := false
			err := db.Update(context.Background(), func(tx store.Tx) error {
				var err error
				done, err = compactChunkOf(tx, name, cutoff, &st)
				return err
			})
			if err != nil {
				return st, fmt.Errorf("outbox: compact %s: %w", name, err)
			}
			if done {
				break
			}
		}
	}
	return st, nil
}

// buildGamesIndex enters every mail of the queue, sent and dead buckets
// that is about a game, and marks the index complete.
func buildGamesIndex(tx store.Tx) (int, error) {
	n := 0
	mail := tx.Bucket(store.BucketMail)
	for _, name := range [][]byte{BucketQueue, BucketSent, BucketDead} {
		err := mail.Bucket(name).ForEach(func(k, v []byte) error {
			var x struct {
				Game string `json:"game"`
				Mail struct {
					Game string `json:"game"`
				} `json:"mail"`
			}
			if err := decodeBody(v, &x); err != nil {
				return fmt.Errorf("%s %d: %w", name, store.KeyN(k), err)
			}
			g := x.Game
			if g == "" {
				g = x.Mail.Game
			}
			if g == "" {
				return nil
			}
			n++
			return indexGameMail(tx, g, store.KeyN(k))
		})
		if err != nil {
			return 0, err
		}
	}
	return n, tx.Bucket(store.BucketMeta).Put(store.KeyOutboxIndex, []byte(gamesIndexVersion))
}

// compactChunkOf compacts up to compactChunk records of name (BucketSent
// or BucketDead) older than cutoff, oldest first. Records are in queue
// order, which is nearly time order: it stops at the first one young
// enough to keep, and a straggler behind it waits for a later run. It
// reports whether it is done.
func compactChunkOf(tx store.Tx, name []byte, cutoff time.Time, st *CompactStats) (bool, error) {
	mail := tx.Bucket(store.BucketMail)
	b := mail.Bucket(name)
	idx, err := mail.CreateBucketIfNotExists(BucketGames)
	if err != nil {
		return false, err
	}
	c := b.Cursor()
	n := 0
	for k, v := c.First(); k != nil; k, v = c.First() {
		if n == compactChunk {
			return false, nil
		}
		ev, game, err := eventOf(name, v)
		if err != nil {
			return false, fmt.Errorf("%s %d: %w", name, store.KeyN(k), err)
		}
		if !ev.Time.Before(cutoff) {
			return true, nil
		}
		if game == "" {
			st.Forgotten++
		} else {
			data, err := json.Marshal(ev)
			if err != nil {
				return false, err
			}
			if err := idx.Put(gameKey(game, store.KeyN(k)), data); err != nil {
				return false, err
			}
			st.Compacted++
		}
		if err := c.Delete(); err != nil {
			return false, err
		}
		n++
	}
	return true, nil
}

// eventOf reads a record of BucketSent or an item of BucketDead as the
// Event game log shows, with the game it is about.
func eventOf(bucket, v []byte) (Event, string, error) {
	if bytes.Equal(bucket, BucketSent) {
		var r Record
		if err := json.Unmarshal(v, &r); err != nil {
			return Event{}, "", err
		}
		return Event{Time: r.Sent, State: "sent", Kind: r.Kind, To: r.To, Subject: r.Subject, Attempts: r.Attempts}, r.Game, nil
	}
	var it Item
	if err := decodeBody(v, &it); err != nil {
		return Event{}, "", err
	}
	state := "gave up"
	if bytes.Equal(bucket, BucketQueue) {
		state = "queued"
	}
	return Event{Time: it.Queued, State: state, Kind: it.Mail.Kind, To: it.Mail.To, Subject: it.Mail.Subject,
		Attempts: it.Attempts, Error: it.LastError}, it.Mail.Game, nil
}

// OfGame lists the mails of game id in seq order (the order they were
// queued): those sent, those still queued, and those given up on, the old
// ones as compacted. Mails about no game (help to strangers) are not
// listed. It reads the game's entries of the game index, not every record
// of the outbox; on a database whose index Compact has not built yet, it
// reads them all.
func OfGame(tx store.Tx, id string) ([]Event, error) {
	mail := tx.Bucket(store.BucketMail)
	if mail == nil {
		return nil, nil
	}
	if !gamesIndexed(tx) || mail.Bucket(BucketGames) == nil {
		return ofGameScan(tx, id)
	}
	var out []Event
	prefix := append([]byte(id), 0)
	c := mail.Bucket(BucketGames).Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		if len(v) > 0 {
			var ev Event
			if err := json.Unmarshal(v, &ev); err != nil {
				return nil, fmt.Errorf("outbox: compacted mail %d of %s: %w", store.KeyN(k[len(prefix):]), id, err)
			}
			out = append(out, ev)
			continue
		}
		seq := k[len(prefix):]
		for _, name := range [][]byte{BucketQueue, BucketSent, BucketDead} {
			b := mail.Bucket(name)
			if b == nil {
				continue
			}
			if v := b.Get(seq); v != nil {
				if bytes.Equal(name, BucketQueue) {
					v = withState(mail, seq, v)
				}
				ev, _, err := eventOf(name, v)
				if err != nil {
					// A damaged body holds up no game's log: it is shown,
					// with what to do about it (admin.go).
					ev = Event{State: "unreadable", Error: fmt.Sprintf("mail %d cannot be read (%v): orrery mail queue shows it, orrery mail drop %d drops it", store.KeyN(seq), err, store.KeyN(seq))}
				}
				out = append(out, ev)
				break
			}
		}
	}
	return out, nil
}

// ofGameScan is OfGame without the index: it reads every record.
func ofGameScan(tx store.Tx, id string) ([]Event, error) {
	mail := tx.Bucket(store.BucketMail)
	type seqEvent struct {
		seq uint64
		ev  Event
	}
	var all []seqEvent
	for _, name := range [][]byte{BucketQueue, BucketDead, BucketSent} {
		b := mail.Bucket(name)
		if b == nil {
			continue
		}
		each := b.ForEach
		if bytes.Equal(name, BucketQueue) {
			each = func(fn func(k, v []byte) error) error {
				return forEachItem(mail, func(k []byte, it Item) error {
					v, err := json.Marshal(it)
					if err != nil {
						return err
					}
					return fn(k, v)
				})
			}
		}
		err := each(func(k, v []byte) error {
			ev, game, err := eventOf(name, v)
			if err != nil {
				return err
			}
			if game == id {
				all = append(all, seqEvent{store.KeyN(k), ev})
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	sort.Slice(all, func(i, j int) bool { return all[i].seq < all[j].seq })
	out := make([]Event, len(all))
	for i, s := range all {
		out[i] = s.ev
	}
	return out, nil
}
