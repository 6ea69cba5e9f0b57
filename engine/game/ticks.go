package game

import (
	"encoding/binary"
	"time"

	"orrery/engine/store"
)

// This file keeps each game's tick times in the ticks bucket (store
// schema version 3): when Tick last looked at the game (Game.Ticked) and
// when it must look next (Game.Wake, the game's key in the wake index).
// They used to live in the game's record, so a tick that only looked at a
// game rewrote the whole record (two page writes a game on bbolt, the
// record's JSON encoded again): in a bucket of their own, a catch-up tick
// of 100,000 games writes 16 bytes a game, next to one another.
//
// A record written before version 3 still holds the two times; until the
// index rebuild that the upgrade asks for has copied them into ticks, they
// are read from there (storedTicks).

// tickTimes is what the ticks bucket holds of one game.
type tickTimes struct {
	ticked, wake time.Time
}

// encode is the bucket's value: both times as big-endian unix
// nanoseconds, 0 for none.
func (t tickTimes) encode() []byte {
	v := make([]byte, 16)
	binary.BigEndian.PutUint64(v, unixNano(t.ticked))
	binary.BigEndian.PutUint64(v[8:], unixNano(t.wake))
	return v
}

func decodeTicks(v []byte) (tickTimes, bool) {
	if len(v) != 16 {
		return tickTimes{}, false
	}
	return tickTimes{fromUnixNano(binary.BigEndian.Uint64(v)), fromUnixNano(binary.BigEndian.Uint64(v[8:]))}, true
}

func unixNano(t time.Time) uint64 {
	if t.IsZero() {
		return 0
	}
	return uint64(t.UnixNano())
}

func fromUnixNano(n uint64) time.Time {
	if n == 0 {
		return time.Time{}
	}
	return time.Unix(0, int64(n)).UTC()
}

// storedTicks is what the store holds of g's tick times: its entry in
// ticks, or for a game whose record predates that bucket, the times its
// record carried (read into g by readGame; zero for a new game).
func storedTicks(tx store.Tx, g *Game) tickTimes {
	t, _ := storedTicksEntry(tx, g)
	return t
}

// storedTicksEntry is storedTicks, and whether the ticks bucket holds
// them (false: they came from the record, or there are none yet).
func storedTicksEntry(tx store.Tx, g *Game) (tickTimes, bool) {
	if tb := tx.Bucket(store.BucketTicks); tb != nil {
		if t, ok := decodeTicks(tb.Get([]byte(g.ID))); ok {
			return t, true
		}
	}
	return tickTimes{g.Ticked, g.Wake}, false
}

// same reports whether t and u hold the same times.
func (t tickTimes) same(u tickTimes) bool {
	return t.ticked.Equal(u.ticked) && t.wake.Equal(u.wake)
}

// putTicks records g's tick times and moves its wake index entry from
// old (the stored wake) to g.Wake.
func putTicks(tx store.Tx, g *Game, old time.Time) error {
	tb, err := tx.CreateBucketIfNotExists(store.BucketTicks)
	if err != nil {
		return err
	}
	if err := tb.Put([]byte(g.ID), tickTimes{g.Ticked, g.Wake}.encode()); err != nil {
		return err
	}
	w := g.Wake
	g.ticksRead, g.storedWake = true, &w
	wb := tx.Bucket(store.BucketWake)
	if wb == nil || old.Equal(g.Wake) {
		return nil
	}
	if !old.IsZero() {
		if err := wb.Delete(wakeKey(old, g.ID)); err != nil {
			return err
		}
	}
	if !g.Wake.IsZero() {
		return wb.Put(wakeKey(g.Wake, g.ID), nil)
	}
	return nil
}

// withTicks fills g's Ticked and Wake from the store: readGame leaves
// them as the record had them (not at all, since version 3), as only
// writes need them; Get and Export show them.
func withTicks(tx store.Tx, g *Game) *Game {
	t := storedTicks(tx, g)
	g.Ticked, g.Wake, g.ticksRead, g.storedWake = t.ticked, t.wake, true, &t.wake
	return g
}
