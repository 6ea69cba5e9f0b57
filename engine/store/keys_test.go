package store_test

import (
	"testing"
	"time"

	"orrery/engine/store"
)

// A KeyClock's numbers grow strictly within one clock, whatever the time
// does (the same millisecond, more than the counter holds, the clock set
// back), sort after any bucket sequence number, and by time between two
// clocks.
func TestKeyClock(t *testing.T) {
	at := time.Date(2026, 11, 25, 7, 0, 0, 0, time.UTC)
	cases := []struct {
		name  string
		times []time.Time
	}{
		{"each a millisecond later", []time.Time{at, at.Add(time.Millisecond), at.Add(2 * time.Millisecond)}},
		{"the same millisecond", []time.Time{at, at, at, at.Add(time.Microsecond)}},
		{"the clock set back", []time.Time{at, at.Add(-time.Hour), at.Add(-time.Second)}},
		{"more than the counter holds", func() []time.Time {
			ts := make([]time.Time, 3000)
			for i := range ts {
				ts[i] = at
			}
			return append(ts, at.Add(time.Millisecond))
		}()},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			k := store.NewKeyClock(5)
			var last uint64
			for i, now := range c.times {
				n := k.Next(now)
				if n <= last {
					t.Fatalf("number %d is %#x, not above the one before (%#x)", i, n, last)
				}
				if n < 1<<63 {
					t.Fatalf("number %d is %#x: it would sort among bucket sequence numbers", i, n)
				}
				got, ok := store.KeyTime(n)
				if !ok || got.Before(at.Add(-time.Hour)) || got.After(at.Add(time.Second)) {
					t.Fatalf("number %d tells the time %v (%v), want about %v", i, got, ok, at)
				}
				last = n
			}
		})
	}
	a, b := store.NewKeyClock(1), store.NewKeyClock(2)
	if x, y := b.Next(at), a.Next(at.Add(time.Millisecond)); x >= y {
		t.Errorf("a number taken a millisecond later by another clock (%#x) sorts before (%#x)", y, x)
	}
	if x, y := a.Next(at.Add(time.Hour)), b.Next(at.Add(time.Hour)); x == y {
		t.Errorf("two clocks of different nodes gave the same number %#x", x)
	}
	if _, ok := store.KeyTime(12345); ok {
		t.Error("KeyTime took a sequence number for a clock's")
	}
}
