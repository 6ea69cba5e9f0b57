package game

import (
	"time"

	"orrery/engine/lang"
	"orrery/engine/store"
)

// This file spends the yearly allowance of vacation days
// (vacation.allowance_days, WithAllowance): when a deadline passes
// without the orders of a player who has days left this year (and has not
// said SET AUTOVACATION off), the step waits for them, a day at a time and
// up to the game's max_vacation a step, instead of playing their defaults;
// everyone is told each time. The time is charged by the hour when the
// wait ends (the step resolves: their orders came, or the wait ran out),
// in the step's transaction, so a restart neither charges twice nor
// forgets.

// allowanceChunk is how much longer the step waits each time.
const allowanceChunk = 24 * time.Hour

// allowanceLeft is what addr has left of the allowance in now's year.
func (s *Service) allowanceLeft(a Absence, now time.Time) time.Duration {
	total := time.Duration(s.time.allowanceDays) * 24 * time.Hour
	return max(total-a.Spent[now.UTC().Year()], 0)
}

// AllowanceLeft is what addr has left this year of the yearly
// allowance, and the allowance (0, 0 when the server gives none); off
// says the address opted out (SET AUTOVACATION off).
func (s *Service) AllowanceLeft(a Absence) (left time.Duration, days int, off bool) {
	if s.time.allowanceDays == 0 {
		return 0, 0, a.NoAuto
	}
	return s.allowanceLeft(a, s.now()), s.time.allowanceDays, a.NoAuto
}

// autoVacation moves the deadline of g, which passed at now, later for
// the awaited players who may spend allowance, and returns the notices
// that tell everyone; none when nobody may (the step resolves).
func (s *Service) autoVacation(tx store.Tx, g *Game, now time.Time, awaited []string) ([]Notice, error) {
	if s.time.allowanceDays == 0 || g.Deadline.IsZero() {
		return nil, nil
	}
	var notices []Notice
	until := g.Deadline
	var who []string
	for _, name := range awaited {
		p, ok := g.PlayerByName(name)
		if !ok || p.Bot || p.Email == "" || isBot(g, name) {
			continue
		}
		a, err := readAbsence(tx, p.Email)
		if err != nil {
			return nil, err
		}
		if a.NoAuto {
			continue
		}
		w, waiting := g.AutoWait[name]
		start := g.Deadline
		if waiting {
			start = w.From
		}
		// What this wait will cost, on top of what is spent already.
		pending := g.Deadline.Sub(start)
		step := min(allowanceChunk, s.allowanceLeft(a, now)-pending)
		if m := g.Settings.MaxVacation; m > 0 {
			step = min(step, m-pending)
		}
		if step < time.Hour {
			continue
		}
		if g.AutoWait == nil {
			g.AutoWait = map[string]Span{}
		}
		to := g.Deadline.Add(step)
		g.AutoWait[name] = Span{From: start, To: to}
		until = later(until, to)
		who = append(who, name)
	}
	if len(who) == 0 {
		return nil, nil
	}
	at, _ := g.settle(until)
	old := g.Deadline
	g.Deadline = at
	g.Reminded, g.LateNotice = nil, false
	for _, name := range who {
		p, _ := g.PlayerByName(name)
		a, err := readAbsence(tx, p.Email)
		if err != nil {
			return nil, err
		}
		left := s.allowanceLeft(a, now) - g.AutoWait[name].To.Sub(g.AutoWait[name].From)
		n := tell("deadline", append(everyone(g), GM),
			lang.M("%s is using vacation days: the deadline of %s moves from %s to %s to wait for their orders (%s left of their %d days this year).",
				name, g.ID, old, at, max(left, 0).Round(time.Hour), s.time.allowanceDays))
		n.Due = at
		notices = append(notices, n)
	}
	return notices, nil
}

// chargeAllowance charges, by the hour, the time each player's wait of
// this step lasted (till now, at most to the deadline it reached) to
// their allowance, and ends the waits.
func (s *Service) chargeAllowance(tx store.Tx, g *Game, now time.Time) error {
	for name, w := range g.AutoWait {
		p, ok := g.PlayerByName(name)
		if !ok || p.Email == "" {
			continue
		}
		end := now
		if w.To.Before(end) {
			end = w.To
		}
		used := end.Sub(w.From)
		if used <= 0 {
			continue
		}
		hours := (used + time.Hour - 1) / time.Hour * time.Hour
		a, err := readAbsence(tx, p.Email)
		if err != nil {
			return err
		}
		if a.Spent == nil {
			a.Spent = map[int]time.Duration{}
		}
		a.Spent[w.From.UTC().Year()] += hours
		if err := writeAbsence(tx, p.Email, a); err != nil {
			return err
		}
	}
	g.AutoWait = nil
	return nil
}
