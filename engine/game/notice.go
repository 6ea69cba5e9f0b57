package game

import (
	"time"

	"orrery/engine/lang"
)

// This file keeps the mails that tell a deadline from going stale.
//
// Every deadline a notice tells is absolute (a time.Time argument: the
// mail side writes it in the reader's zone with UTC beside it), and the
// notice says which deadline it is (Notice.Due). A notice of a moved
// deadline names the deadline it replaces and why (moveDeadline).
// Reminders are worded from the deadline as it stands when they go out
// (tickGame), and the offsets a move already passed count as sent: the
// notice of the move told the deadline, and a reminder right after it
// would say nothing new.
//
// A deadline moved earlier than the one the players were told is held
// at least min_notice (DefaultMinNotice, the server's min_notice key)
// after the notice that tells them, and never later than the deadline
// it replaces: no step is resolved by its deadline within min_notice of
// a mail that told its players a later deadline. The hold is the
// deadline itself, in the record, so a restart keeps it.

// DefaultMinNotice is min_notice when the server's config says nothing.
const DefaultMinNotice = time.Hour

// timeRules are a server's time settings (WithMinNotice, WithAllowance).
type timeRules struct {
	minNotice time.Duration
	// allowanceDays is the yearly allowance of vacation days of every
	// player (0: none; allowance.go).
	allowanceDays int
}

// WithMinNotice sets min_notice: how long at least a deadline moved
// earlier stays after the notice that tells it (0: no hold).
func WithMinNotice(d time.Duration) Option {
	return func(s *Service) { s.time.minNotice = max(d, 0) }
}

// noticeFloor is at, held at least minNotice after now when it moves the
// deadline of g earlier (and never past the deadline it replaces).
func (s *Service) noticeFloor(g *Game, at, now time.Time) (time.Time, bool) {
	if s.time.minNotice <= 0 || g.Deadline.IsZero() || !at.Before(g.Deadline) {
		return at, false
	}
	floor := now.Add(s.time.minNotice)
	if floor.After(g.Deadline) {
		floor = g.Deadline
	}
	if at.Before(floor) {
		return floor, true
	}
	return at, false
}

// moveDeadline moves the deadline of g to at, at now, for why (a Msg,
// or the GM's own words as a string), and returns the notice that tells
// every player and the GM: it names the deadline it replaces. A move
// earlier is held by noticeFloor, and the notice says so. ok is false
// when the deadline does not change (no notice then).
func (s *Service) moveDeadline(g *Game, at time.Time, why any, now time.Time) (n Notice, ok bool) {
	at, held := s.noticeFloor(g, at.UTC(), now)
	old := g.Deadline
	if at.Equal(old) {
		return Notice{}, false
	}
	g.Deadline = at
	if g.Paused {
		g.PausedAt = now
	}
	// Reminders and the late notice are for the new deadline; the
	// offsets it has passed already are told by this notice.
	g.Reminded, g.LateNotice = nil, false
	for _, off := range g.Settings.Reminders {
		if !now.Before(at.Add(-off)) {
			g.Reminded = append(g.Reminded, off.String())
		}
	}
	to := append(everyone(g), GM)
	switch {
	case old.IsZero():
		n = tell("deadline", to, lang.M("The deadline of %s is now %s (it had none): %s.", g.ID, at, why))
	case held:
		n = tell("deadline", to, lang.M("The deadline of %s moves from %s to %s: %s. It comes no sooner, so that everyone has %s of notice.", g.ID, old, at, why, s.time.minNotice))
	default:
		n = tell("deadline", to, lang.M("The deadline of %s moves from %s to %s: %s.", g.ID, old, at, why))
	}
	n.Due = at
	return n, true
}

// WithAllowance gives every player days a year of vacation, spent by the
// hour when a deadline passes without their orders (allowance.go; 0:
// none).
func WithAllowance(days int) Option {
	return func(s *Service) { s.time.allowanceDays = max(days, 0) }
}
