package game

import (
	"encoding/binary"
	"hash/crc32"
	"math"
	"slices"
	"time"

	"orrery/engine/store"
)

// This file keeps, beside each game's record, its tick plan: what Tick
// needs to decide that a tick has nothing to do for the game but look at
// it, and when it must look next, so that a tick that only looks does
// not decode the record. Decoding a record was about 22 µs of the 31.5
// a game of a catch-up tick on bbolt (docs/benchmarks.md, "The catch-up
// tick, per game").
//
// The plan cannot decide otherwise than the record:
//
//   - it is computed from the record by the code Tick decides with
//     (tickAction, wakeTimes), and written by putInfo, the one function
//     that writes a game's record, in the same transaction;
//   - it names the record it was computed from by the record's CRC-32C
//     and length: a tick uses it only for the record it was made from,
//     so a record written without it (by a build older than the plan,
//     a file from before it, an edit) is decoded, as before;
//   - it says only "nothing to do before Q": a game whose bots owe
//     orders, or that is over, paused or in signup, has no Q and is
//     decoded; so is any game at or after its Q.
//
// Older files need no upgrade: a game without a plan is decoded, and
// gets one the next time its record is written.
//
// planCode names the code that makes and reads plans: a digest of the
// source of planOf and lookOnly and of every function, method, constant
// and variable of this package they use, directly or not (tickAction,
// decisionTimes, wakeTimes, awaitedAt, ...; comments and layout aside).
// A plan is used only by a build of the same code, so a change to the
// rules that shape plans needs no hand-kept version: TestPlanCode
// computes the digest from the source and fails, naming the value to put
// here, when it is not this one (go test ./engine/game/ -run TestPlanCode
// -update writes it). A plan made by other code is not used, and the game
// is decoded, as a game without a plan is.
const planCode uint32 = 0xe37aef8d

// The plan's layout: planCode, the record's CRC-32C and length, Q, then
// the wake times (planOf).
const (
	planAtCRC  = 4
	planAtLen  = 8
	planAtQ    = 12
	planHeader = 20
)

// keyTickPlan is the plan's key in the game's bucket, named to sort
// right after store.KeyInfo ("info" < "info-tick-plan" < "log"): on
// bbolt it then shares the record's leaf page even in a game whose big
// state splits the bucket's keys over two pages, so a tick that only
// looks touches the pages it touched before. PostgreSQL's ClaimNamed
// reads it with the game, without a round trip of its own.
var keyTickPlan = []byte("info-tick-plan")

// crcTable is CRC-32C's (hardware-assisted on amd64 and arm64: a
// record of a few kB costs well under a microsecond).
var crcTable = crc32.MakeTable(crc32.Castagnoli)

// tickStep is what Tick does to a game at a given moment.
type tickStep int

const (
	tickLook       tickStep = iota // nothing but note that it looked
	tickIdle                       // over, paused or in signup: not even that
	tickResolve                    // resolve the step: every order is in
	tickStartDelay                 // start the early delay: nobody is left to wait for
	tickDeadline                   // resolve the step: the deadline (and its grace) passed
	tickLate                       // tell the late players the deadline passed
	tickRemind                     // remind the players whose orders are missing
)

// tickAction decides what Tick does to g at now, from the record alone.
// Every moment it compares now with is in decisionTimes: between two of
// them its answer does not change.
func tickAction(g *Game, now time.Time) tickStep {
	if g.Over() || g.Paused || g.Signup {
		return tickIdle
	}
	awaited := awaitedAt(g, now)
	early := g.ResolveAt.IsZero() && mayResolveEarlyAt(g, now)
	switch {
	case len(awaited) == 0 && !g.ResolveAt.IsZero() && !now.Before(g.ResolveAt) && len(g.Waits) == 0:
		return tickResolve
	case early && g.Settings.EarlyDelay == 0:
		return tickResolve
	case early:
		return tickStartDelay
	case !g.Deadline.IsZero() && !now.Before(g.Deadline.Add(g.Settings.Grace)):
		return tickDeadline
	case !g.Deadline.IsZero() && !now.Before(g.Deadline) && len(awaited) > 0 && !g.LateNotice:
		return tickLate
	case !g.Deadline.IsZero() && len(awaited) > 0:
		for _, off := range g.Settings.Reminders {
			if !now.Before(g.Deadline.Add(-off)) && !contains(g.Reminded, off.String()) {
				return tickRemind
			}
		}
	}
	return tickLook
}

// decisionTimes lists, sorted and without zero times, every moment
// tickAction (with awaitedAt, onVacation, mayResolveEarlyAt) compares
// now with, always as "now is before t" or its negation: tickAction's
// answer is the same for every now in [t_i, t_i+1), and before the
// first.
func decisionTimes(g *Game) []time.Time {
	var out []time.Time
	add := func(t time.Time) {
		if !t.IsZero() {
			out = append(out, t)
		}
	}
	add(g.ResolveAt)
	add(g.gapEnds())
	if !g.Deadline.IsZero() {
		add(g.Deadline)
		add(g.Deadline.Add(g.Settings.Grace))
		for _, off := range g.Settings.Reminders {
			add(g.Deadline.Add(-off))
		}
	}
	for _, v := range g.Vacations {
		add(v.From)
		add(v.To)
	}
	slices.SortFunc(out, time.Time.Compare)
	return slices.CompactFunc(out, time.Time.Equal)
}

// quietForever is a plan's Q for a game that has nothing to do at any
// time until its record changes.
const quietForever = math.MaxUint64

// unseenBit marks a wake time that counts only while it is after the
// tick's time (wakeTimes); the other 63 bits are unix nanoseconds.
const unseenBit = 1 << 63

// planOf is the plan of g, whose stored record is info:
//
//	planCode 4, CRC-32C of info 4, len(info) 4, Q 8,
//	then each wake time 8 (unix ns, unseenBit set for unseen)
//
// all big-endian. Q is the unix nanosecond before which Tick has
// nothing to do for g but look (tickAction is tickLook for every now
// before it; quietForever: at no time); 0 when the plan decides
// nothing and the record must be read (so for a game whose bots owe
// orders: Tick plays them).
func planOf(g *Game, info []byte) []byte {
	v := make([]byte, planHeader, planHeader+8*(4+len(g.Settings.Reminders)+2*len(g.Vacations)))
	binary.BigEndian.PutUint32(v, planCode)
	binary.BigEndian.PutUint32(v[planAtCRC:], crc32.Checksum(info, crcTable))
	binary.BigEndian.PutUint32(v[planAtLen:], uint32(len(info)))
	q := quietUntil(g)
	ok := q != 0
	wakeTimes(g, func(t time.Time, unseen bool) {
		if t.IsZero() || !ok {
			return
		}
		n, fits := planNano(t)
		if !fits {
			ok = false
			return
		}
		if unseen {
			n |= unseenBit
		}
		v = binary.BigEndian.AppendUint64(v, n)
	})
	if !ok {
		return v[:planHeader] // Q 0
	}
	binary.BigEndian.PutUint64(v[planAtQ:], q)
	return v
}

// quietUntil is planOf's Q (0: none).
func quietUntil(g *Game) uint64 {
	if g.Over() || g.Paused || g.Signup || botsToPlay(g) {
		return 0
	}
	ts := decisionTimes(g)
	first := time.Unix(0, 0)
	if len(ts) > 0 {
		first = ts[0].Add(-time.Nanosecond)
	}
	if tickAction(g, first) != tickLook {
		return 0
	}
	for _, t := range ts {
		if tickAction(g, t) != tickLook {
			n, fits := planNano(t)
			if !fits {
				return 0
			}
			return n
		}
	}
	return quietForever
}

// planNano is t in unix nanoseconds, if it is after 1970 and fits in 63
// bits (before the year 2262).
func planNano(t time.Time) (uint64, bool) {
	if t.Year() < 1970 || t.Year() > 2261 || t.UnixNano() <= 0 {
		return 0, false
	}
	return uint64(t.UnixNano()), true
}

// lookOnly reports whether a tick at now has nothing to do for the game
// of bucket b but look at it, from its plan, and if so when it must look
// next (nextWake of the record, with Ticked now). ok is false when the
// plan does not say so (none, made by other code, made from another
// record, a Q not after now): the record must then be read.
func lookOnly(b store.Bucket, now time.Time) (wake time.Time, ok bool) {
	p := b.Get(keyTickPlan)
	if len(p) < planHeader || (len(p)-planHeader)%8 != 0 || binary.BigEndian.Uint32(p) != planCode {
		return time.Time{}, false
	}
	at, fits := planNano(now)
	if q := binary.BigEndian.Uint64(p[planAtQ:]); !fits || q == 0 || at >= q {
		return time.Time{}, false
	}
	info := b.Get(store.KeyInfo)
	if binary.BigEndian.Uint32(p[planAtLen:]) != uint32(len(info)) || binary.BigEndian.Uint32(p[planAtCRC:]) != crc32.Checksum(info, crcTable) {
		return time.Time{}, false
	}
	var best uint64
	for i := planHeader; i < len(p); i += 8 {
		n := binary.BigEndian.Uint64(p[i:])
		t := n &^ unseenBit
		if n&unseenBit != 0 && t <= at {
			continue
		}
		if best == 0 || t < best {
			best = t
		}
	}
	return fromUnixNano(best), true
}
