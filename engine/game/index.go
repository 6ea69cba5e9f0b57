package game

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sync/atomic"
	"time"

	"orrery/engine/store"
)

// This file keeps the indexes derived from the games (engine/store's
// schema.go names them): seats (address → games), held and observing
// (seats.go), game-tags (what game list filters on), wake (when Tick must
// look at a game) and each game's log-by-step. writeGame and appendLog keep them in step inside the
// transaction of every change; a database whose indexes were built by
// another version (meta/indexes) has them rebuilt once, on first use.

// indexState remembers that a service found the indexes current, so that
// it checks once per process, not once per call.
type indexState struct{ ok atomic.Bool }

// indexVersion names the layout of the derived indexes. Change it when
// what they hold changes: every database then rebuilds them once.
const indexVersion = "3"

// Tags of the game-tags index (besides "ruleset=<name>" and
// "awaits=<address>").
const (
	tagOpen     = "open"     // seats free for JOIN (Game.OpenToJoin)
	tagAwaiting = "awaiting" // started, not over, someone's blocking orders missing
)

func tagRuleset(name string) string { return "ruleset=" + name }
func tagAwaits(addr string) string  { return "awaits=" + normAddr(addr) }

// normAddr is the form of an address in the indexes: game.CanonAddress,
// so that every comparison of addresses agrees with SameAddress.
func normAddr(a string) string { return CanonAddress(a) }

// idKey is "<prefix>\x00<game id>", the key of seats and game-tags: the
// games under one prefix sort by id, so a page resumes with a Seek.
func idKey(prefix, id string) []byte {
	k := make([]byte, 0, len(prefix)+1+len(id))
	k = append(k, prefix...)
	k = append(k, 0)
	return append(k, id...)
}

// wakeKey orders the wake index by time, then game id.
func wakeKey(t time.Time, id string) []byte {
	return append(store.Key(uint64(t.UnixNano())), id...)
}

// addresses lists the seats' addresses, as CanonAddress has them.
func addresses(g *Game) []string {
	var out []string
	for _, p := range g.Players {
		if p.Email != "" {
			out = append(out, normAddr(p.Email))
		}
	}
	return out
}

// gameTags lists the game-tags entries of g.
func gameTags(g *Game) []string {
	tags := []string{tagRuleset(g.Ruleset)}
	if g.OpenToJoin() {
		tags = append(tags, tagOpen)
	}
	switch {
	case g.Signup:
	case !g.Over():
		waiting := g.Waiting()
		if len(waiting) > 0 {
			tags = append(tags, tagAwaiting)
		}
		for _, name := range waiting {
			if p, ok := g.PlayerByName(name); ok && p.Email != "" {
				tags = append(tags, tagAwaits(p.Email))
			}
		}
	}
	return tags
}

// indexFacts is what the seats and game-tags indexes hold of one game
// record (its wake entry follows the ticks bucket: putTicks).
type indexFacts struct {
	seats, tags []string
}

// factsOf reads g's index entries off its record (nil: a new game, none).
func factsOf(g *Game) indexFacts {
	if g == nil {
		return indexFacts{}
	}
	return indexFacts{seats: addresses(g), tags: gameTags(g)}
}

// updateIndexes moves g's seats and game-tags entries from those of the
// record before the change (was; zero for a new game) to what g has.
func updateIndexes(tx store.Tx, was indexFacts, g *Game) error {
	if err := moveKeys(tx.Bucket(store.BucketSeats), g.ID, was.seats, addresses(g)); err != nil {
		return err
	}
	return moveKeys(tx.Bucket(store.BucketTags), g.ID, was.tags, gameTags(g))
}

// moveKeys deletes the keys of id under the prefixes in old but not in now,
// and puts those in now but not in old. A nil bucket (a read-only store
// opened before the index existed) is left alone.
func moveKeys(b store.Bucket, id string, old, now []string) error {
	if b == nil {
		return nil
	}
	for _, p := range old {
		if !contains(now, p) {
			if err := b.Delete(idKey(p, id)); err != nil {
				return err
			}
		}
	}
	for _, p := range now {
		if !contains(old, p) {
			if err := b.Put(idKey(p, id), nil); err != nil {
				return err
			}
		}
	}
	return nil
}

// removeIndexes deletes every index entry of g, and its tick times (its
// bucket is going away).
func removeIndexes(tx store.Tx, g *Game) error {
	old := storedTicks(tx, g)
	if wb := tx.Bucket(store.BucketWake); wb != nil && !old.wake.IsZero() {
		if err := wb.Delete(wakeKey(old.wake, g.ID)); err != nil {
			return err
		}
	}
	if tb := tx.Bucket(store.BucketTicks); tb != nil {
		if err := tb.Delete([]byte(g.ID)); err != nil {
			return err
		}
	}
	if err := moveKeys(tx.Bucket(store.BucketSeats), g.ID, addresses(g), nil); err != nil {
		return err
	}
	return moveKeys(tx.Bucket(store.BucketTags), g.ID, gameTags(g), nil)
}

// logStepKey is the key of a log entry in log-by-step: its step, then its
// sequence number. The value is the entry's kind, so a reader that wants
// one kind (press) decodes only those entries.
func logStepKey(step, seq uint64) []byte {
	return append(store.Key(step), store.Key(seq)...)
}

// indexLogEntry records e in b's log-by-step (made if missing).
func indexLogEntry(b store.Bucket, e *Entry) error {
	ib, err := b.CreateBucketIfNotExists(store.BucketLogStep)
	if err != nil {
		return fmt.Errorf("log index: %w", err)
	}
	return ib.Put(logStepKey(e.Step, e.Seq), []byte(e.Kind))
}

// entriesOfStep calls fn with each log entry of step whose kind is kind
// ("" any), in log order, reading only those entries.
func entriesOfStep(b store.Bucket, step uint64, kind string, fn func(*Entry) error) error {
	ib, lb := b.Bucket(store.BucketLogStep), b.Bucket(store.BucketLog)
	if ib == nil {
		return fmt.Errorf("the log of this game has no index by step (rebuild the indexes)")
	}
	prefix := store.Key(step)
	c := ib.Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		if kind != "" && string(v) != kind {
			continue
		}
		raw := lb.Get(k[8:])
		if raw == nil {
			return fmt.Errorf("log entry %d is indexed but missing", store.KeyN(k[8:]))
		}
		e, err := decodeEntry(raw)
		if err != nil {
			return err
		}
		if err := fn(e); err != nil {
			return err
		}
	}
	return nil
}

// GamesOfAhead tells the store that GamesOf will be asked of each of
// addrs in tx (the daemon's batch, which asks it of every mail): on
// PostgreSQL their pages of the seats index are then read in one round
// trip, not one a mail (store.SeekAhead). It changes no answer.
func GamesOfAhead(tx store.Tx, addrs []string) {
	b := tx.Bucket(store.BucketSeats)
	if b == nil || len(addrs) == 0 {
		return
	}
	keys := make([][]byte, len(addrs))
	for i, a := range addrs {
		keys[i] = idKey(normAddr(a), "")
	}
	store.SeekAhead(b, keys)
}

// GamesOf lists the ids of the games in which addr holds a seat, in id
// order: one index read (the daemon asks it of every mail).
func (s *Service) GamesOf(ctx context.Context, addr string) ([]string, error) {
	if err := s.indexed(ctx); err != nil {
		return nil, err
	}
	var ids []string
	err := s.st.View(ctx, func(tx store.Tx) error {
		return eachID(tx.Bucket(store.BucketSeats), normAddr(addr), "", func(id string) (bool, error) {
			ids = append(ids, id)
			return true, nil
		})
	})
	return ids, err
}

// eachID calls fn with the game ids under prefix in b (seats or
// game-tags), in id order, starting after the id after, until fn says stop.
func eachID(b store.Bucket, prefix, after string, fn func(id string) (bool, error)) error {
	if b == nil {
		return nil
	}
	p := idKey(prefix, "")
	c := b.Cursor()
	k, _ := c.Seek(idKey(prefix, after))
	if after != "" && k != nil && string(k[len(p):]) == after {
		k, _ = c.Next()
	}
	for ; k != nil && bytes.HasPrefix(k, p); k, _ = c.Next() {
		more, err := fn(string(k[len(p):]))
		if err != nil || !more {
			return err
		}
	}
	return nil
}

// indexed makes sure the derived indexes are those this version builds,
// rebuilding them once if not (a database from before they existed, or
// upgraded by store.Open). Every reader of an index calls it first.
func (s *Service) indexed(ctx context.Context) error {
	if s.index.ok.Load() {
		return nil
	}
	current := false
	grouped := s.st.InGroup(ctx)
	err := s.st.View(ctx, func(tx store.Tx) error {
		current = string(tx.Bucket(store.BucketMeta).Get(store.KeyIndexes)) == indexVersion
		if current && grouped {
			// Inside a group, the marker may be this group's own,
			// uncommitted: remember it once the group commits. The
			// daemon handles every mail in a group, so that, not
			// remembering it at all, read it again for every mail
			// (on PostgreSQL a round trip each).
			tx.OnCommit(func() { s.index.ok.Store(true) })
		}
		return nil
	})
	if err != nil {
		return err
	}
	if current {
		if !grouped {
			s.index.ok.Store(true)
		}
		return nil
	}
	t0 := time.Now()
	n := 0
	err = s.st.Update(ctx, func(tx store.Tx) error {
		if string(tx.Bucket(store.BucketMeta).Get(store.KeyIndexes)) == indexVersion {
			return nil
		}
		var err error
		if n, err = rebuildIndexes(tx); err != nil {
			return fmt.Errorf("rebuild the game indexes: %w", err)
		}
		tx.OnCommit(func() { s.index.ok.Store(true) })
		return nil
	})
	if err == nil {
		s.log.Info("game indexes rebuilt", "games", n, "took", time.Since(t0).Round(time.Millisecond))
	}
	return err
}

// rebuildIndexes builds seats, game-tags, wake and every game's
// log-by-step from the games themselves (and ticks, which it keeps, or
// the tick times of records older than it), and drops version 1's
// players bucket. It returns the number of games.
func rebuildIndexes(tx store.Tx) (int, error) {
	for _, name := range [][]byte{store.BucketSeats, store.BucketTags, store.BucketWake, store.BucketHeld, store.BucketObserving, store.BucketPlayers} {
		if tx.Bucket(name) != nil {
			if err := tx.DeleteBucket(name); err != nil {
				return 0, err
			}
		}
	}
	for _, name := range [][]byte{store.BucketSeats, store.BucketTags, store.BucketWake, store.BucketHeld, store.BucketObserving} {
		if _, err := tx.CreateBucket(name); err != nil {
			return 0, err
		}
	}
	games := tx.Bucket(store.BucketGames)
	n := 0
	err := games.ForEachBucket(func(k []byte) error {
		b := games.Bucket(k)
		g, err := readGame(b)
		if err != nil {
			return fmt.Errorf("game %s: %w", k, err)
		}
		// The tick times stay (from the record, before version 3);
		// the wake entry is made anew, the wake index being empty.
		withTicks(tx, g)
		g.Wake = nextWake(g)
		if err := putTicks(tx, g, time.Time{}); err != nil {
			return fmt.Errorf("game %s: %w", k, err)
		}
		if err := updateIndexes(tx, indexFacts{}, g); err != nil {
			return fmt.Errorf("game %s: %w", k, err)
		}
		if err := indexHolders(tx, g); err != nil {
			return fmt.Errorf("game %s: %w", k, err)
		}
		if err := reindexLog(b); err != nil {
			return fmt.Errorf("game %s: %w", k, err)
		}
		n++
		return nil
	})
	if err != nil {
		return 0, err
	}
	return n, tx.Bucket(store.BucketMeta).Put(store.KeyIndexes, []byte(indexVersion))
}

// reindexLog rebuilds b's log-by-step from its log.
func reindexLog(b store.Bucket) error {
	if b.Bucket(store.BucketLogStep) != nil {
		if err := b.DeleteBucket(store.BucketLogStep); err != nil {
			return err
		}
	}
	ib, err := b.CreateBucket(store.BucketLogStep)
	if err != nil {
		return err
	}
	lb := b.Bucket(store.BucketLog)
	if lb == nil {
		return nil
	}
	return lb.ForEach(func(k, v []byte) error {
		var e struct {
			Step uint64 `json:"step"`
			Kind string `json:"kind"`
		}
		if err := json.Unmarshal(v, &e); err != nil {
			return fmt.Errorf("log entry %d: %w", store.KeyN(k), err)
		}
		return ib.Put(logStepKey(e.Step, store.KeyN(k)), []byte(e.Kind))
	})
}
