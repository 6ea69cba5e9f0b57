package game

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"orrery/engine/lang"
	"orrery/engine/store"
)

// This file keeps computed deadlines out of people's nights and weekends.
//
// Quiet hours (Settings.QuietHours, "23:00-07:00") are kept in each
// seated player's own zone (Player.Zone, the address's TZ setting; the
// game's zone for a player who chose none): a computed deadline that falls
// inside anyone's quiet hours moves to the earliest time outside
// everyone's. Where the zones leave no common window (quiet hours of
// twelve hours across Berlin, Los Angeles and Tokyo leave none), it moves
// to the earliest time that wakes the fewest, and the players are told.
//
// Weekends off (Settings.WeekendsOff) stop the deadline clock from
// Saturday 00:00 to Monday 00:00 in the game's zone: a 72-hour turn sent
// on Friday noon is due on Wednesday noon, and no computed deadline falls
// on a Saturday or a Sunday.
//
// Only computed deadlines move (after a step, at the start, a vacation's
// extension); a deadline the GM sets is the GM's. An early resolution
// (every order in) is never held by either rule: they move the deadline
// only.

// quietSpan is a daily span of local clock time, in minutes after
// midnight: from inclusive, to exclusive; from > to wraps past midnight.
type quietSpan struct{ from, to int }

// parseQuiet reads quiet hours as "23:00-07:00" or "23-07" ("" none).
func parseQuiet(s string) (quietSpan, bool, error) {
	s = strings.TrimSpace(s)
	if s == "" || strings.EqualFold(s, "off") {
		return quietSpan{}, false, nil
	}
	a, b, ok := strings.Cut(s, "-")
	if !ok {
		return quietSpan{}, false, fmt.Errorf("quiet hours %q: write them from-to, like 23:00-07:00 or 23-07", s)
	}
	from, err1 := parseClock(a)
	to, err2 := parseClock(b)
	if err1 != nil || err2 != nil {
		return quietSpan{}, false, fmt.Errorf("quiet hours %q: each end is a time of day, HH or HH:MM, 00:00 to 23:59", s)
	}
	if from == to {
		return quietSpan{}, false, fmt.Errorf("quiet hours %q: they start and end at the same time", s)
	}
	return quietSpan{from, to}, true, nil
}

func parseClock(s string) (int, error) {
	s = strings.TrimSpace(s)
	h, m := 0, 0
	var err error
	if strings.Contains(s, ":") {
		_, err = fmt.Sscanf(s, "%d:%d", &h, &m)
	} else {
		_, err = fmt.Sscanf(s, "%d", &h)
	}
	if err != nil || h < 0 || h > 23 || m < 0 || m > 59 || len(s) > 5 {
		return 0, fmt.Errorf("%q is not a time of day", s)
	}
	return h*60 + m, nil
}

// holds reports whether t falls in the span, read on a clock in loc.
func (q quietSpan) holds(t time.Time, loc *time.Location) bool {
	l := t.In(loc)
	m := l.Hour()*60 + l.Minute()
	if q.from < q.to {
		return q.from <= m && m < q.to
	}
	return m >= q.from || m < q.to
}

// ends calls fn with each moment in (after, before) at which the span
// ends on a clock in loc.
func (q quietSpan) ends(after, before time.Time, loc *time.Location, fn func(time.Time)) {
	l := after.In(loc)
	for i := -1; ; i++ {
		c := time.Date(l.Year(), l.Month(), l.Day()+i, q.to/60, q.to%60, 0, 0, loc)
		if !c.Before(before) {
			return
		}
		if c.After(after) {
			fn(c)
		}
	}
}

// weekend reports whether t is a Saturday or a Sunday in loc.
func weekend(t time.Time, loc *time.Location) bool {
	wd := t.In(loc).Weekday()
	return wd == time.Saturday || wd == time.Sunday
}

// mondayAfter is the Monday 00:00 in loc that ends the weekend t is in,
// or the next one.
func mondayAfter(t time.Time, loc *time.Location) time.Time {
	l := t.In(loc)
	days := (int(time.Monday) - int(l.Weekday()) + 7) % 7
	if days == 0 {
		days = 7
	}
	return time.Date(l.Year(), l.Month(), l.Day()+days, 0, 0, 0, 0, loc)
}

// saturdayAfter is the next Saturday 00:00 in loc after t.
func saturdayAfter(t time.Time, loc *time.Location) time.Time {
	l := t.In(loc)
	days := (int(time.Saturday) - int(l.Weekday()) + 7) % 7
	if days == 0 {
		days = 7
	}
	return time.Date(l.Year(), l.Month(), l.Day()+days, 0, 0, 0, 0, loc)
}

// addWeekdays is from plus d of clock time that is not on a weekend in
// loc: the clock stops from Saturday 00:00 to Monday 00:00.
func addWeekdays(from time.Time, d time.Duration, loc *time.Location) time.Time {
	t := from
	for {
		if weekend(t, loc) {
			t = mondayAfter(t, loc)
		}
		sat := saturdayAfter(t, loc)
		if left := sat.Sub(t); d < left {
			return t.Add(d)
		} else {
			d -= left
			t = sat
		}
	}
}

// quietSeat is a seated player whose nights count, in their zone.
type quietSeat struct {
	name string
	loc  *time.Location
}

// quietSeats lists the seats whose quiet hours count: every seat a
// person holds (not a bot's, a kicked or an abandoned one).
func (g *Game) quietSeats() []quietSeat {
	def, err := g.Settings.location()
	if err != nil {
		def = time.UTC
	}
	var out []quietSeat
	for _, p := range g.Players {
		if p.Bot || contains(g.Kicked, p.Name) || contains(g.Abandoned, p.Name) {
			continue
		}
		loc := def
		if p.Zone != "" {
			if l, err := time.LoadLocation(p.Zone); err == nil {
				loc = l
			}
		}
		out = append(out, quietSeat{p.Name, loc})
	}
	return out
}

// settle moves a computed deadline t out of weekends (WeekendsOff) and
// out of every seated player's quiet hours: to the earliest moment not
// before t that is on no weekend and in nobody's quiet hours, or, when
// the zones leave no such moment within the next nine days, to the
// earliest that is in the quiet hours of the fewest players, who are
// then listed in woken. The quiet players at a time change only where
// someone's quiet hours end (or a weekend does), so those moments and t
// itself are the only candidates.
func (g *Game) settle(t time.Time) (at time.Time, woken []string) {
	if t.IsZero() {
		return t, nil
	}
	q, quiet, err := parseQuiet(g.Settings.QuietHours)
	if err != nil {
		quiet = false
	}
	if !quiet && !g.Settings.WeekendsOff {
		return t, nil
	}
	loc, err := g.Settings.location()
	if err != nil {
		loc = time.UTC
	}
	var seats []quietSeat
	if quiet {
		seats = g.quietSeats()
	}
	horizon := t.Add(9 * 24 * time.Hour)
	cands := []time.Time{t}
	for _, s := range seats {
		q.ends(t, horizon, s.loc, func(c time.Time) { cands = append(cands, c) })
	}
	if g.Settings.WeekendsOff {
		for m := mondayAfter(t, loc); m.Before(horizon); m = mondayAfter(m, loc) {
			cands = append(cands, m)
		}
	}
	slices.SortFunc(cands, time.Time.Compare)
	best, bestN := time.Time{}, -1
	for _, c := range cands {
		if g.Settings.WeekendsOff && weekend(c, loc) {
			continue
		}
		n := 0
		for _, s := range seats {
			if q.holds(c, s.loc) {
				n++
			}
		}
		if bestN < 0 || n < bestN {
			best, bestN = c, n
		}
		if n == 0 {
			break
		}
	}
	if bestN < 0 {
		return t, nil
	}
	for _, s := range seats {
		if q.holds(best, s.loc) {
			woken = append(woken, s.name)
		}
	}
	return best.UTC(), woken
}

// nextDeadline is the computed deadline of a step of g that starts at
// now after a resolution at last: the settings' (turn length or weekly
// schedule, MinGap, the weekend clock), then settled out of weekends and
// quiet hours. woken lists the players whose quiet hours it still falls
// in, when the zones leave no common window.
func (g *Game) nextDeadline(now, last time.Time) (at time.Time, woken []string, err error) {
	at, err = g.Settings.nextDeadline(now, last)
	if err != nil || at.IsZero() {
		return at, nil, err
	}
	at, woken = g.settle(at)
	return at, woken, nil
}

// SetZone records addr's time zone (an IANA name, "" for none) in every
// game it holds a seat in that is not over: the mail side calls it when
// the address chooses a zone (SET TZ), so that quiet hours are kept in
// it from the next computed deadline on. It returns the games changed.
func (s *Service) SetZone(ctx context.Context, addr, zone string) ([]string, error) {
	if zone != "" {
		if _, err := time.LoadLocation(zone); err != nil {
			return nil, userErr(lang.M("no time zone is named %q", zone))
		}
	}
	ids, err := s.HeldGames(ctx, addr)
	if err != nil {
		return nil, err
	}
	var changed []string
	for _, id := range ids {
		done := false
		err := s.st.Update(ctx, func(tx store.Tx) error {
			done = false
			b, err := gameBucket(tx, id)
			if err != nil {
				return err
			}
			g, err := readGame(b)
			if err != nil {
				return err
			}
			if g.Over() {
				return nil
			}
			was := factsOf(g)
			for i, p := range g.Players {
				if p.Email != "" && SameAddress(p.Email, addr) && p.Zone != zone {
					g.Players[i].Zone, done = zone, true
				}
			}
			if !done {
				return nil
			}
			return writeGameFrom(b, g, was)
		})
		if err != nil {
			return changed, fmt.Errorf("game %s: %w", id, err)
		}
		if done {
			changed = append(changed, id)
		}
	}
	return changed, nil
}

// Asleep lists the seats of g whose quiet hours hold at t, each in its
// holder's zone, and says whether t falls on a weekend the game keeps off
// (WeekendsOff, in the game's zone): what a deadline at t would break.
// `game show` and the mail side's tests read a deadline with it.
func (g *Game) Asleep(t time.Time) (names []string, onWeekend bool) {
	if q, ok, _ := parseQuiet(g.Settings.QuietHours); ok {
		for _, qs := range g.quietSeats() {
			if q.holds(t, qs.loc) {
				names = append(names, qs.name)
			}
		}
	}
	if g.Settings.WeekendsOff {
		loc, err := g.Settings.location()
		if err != nil {
			loc = time.UTC
		}
		onWeekend = weekend(t, loc)
	}
	return names, onWeekend
}
