package game

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"orrery/engine/lang"
	"orrery/engine/store"
)

// This file keeps what an address says of its time across games: one
// vacation for every game it plays (VACATION ALL, `orrery player
// vacation`), whether the yearly allowance of vacation days may be spent
// for it (SET AUTOVACATION), and how much of the allowance it spent
// (allowance.go). They live in the absences bucket, one JSON record per
// address (CanonAddress), written in the transactions that use them.

// bucketAbsences holds the address records (a top-level bucket, made on
// the first write; not derived: an index rebuild keeps it).
var bucketAbsences = []byte("absences")

// Span is a stretch of time: From inclusive, To exclusive.
type Span struct {
	From time.Time `json:"from"`
	To   time.Time `json:"to"`
}

// Absence is what the server keeps of one address's time.
type Absence struct {
	// Vacations are the address's VACATION ALL: each applies to every
	// game it plays, now and later, under each game's policy and cap.
	Vacations []Span `json:"vacations,omitempty"`
	// NoAuto is SET AUTOVACATION off: the allowance is not spent for it.
	NoAuto bool `json:"no_auto,omitempty"`
	// Spent is the allowance used, by calendar year (UTC).
	Spent map[int]time.Duration `json:"spent,omitempty"`
}

func readAbsence(tx store.Tx, addr string) (Absence, error) {
	var a Absence
	b := tx.Bucket(bucketAbsences)
	if b == nil || addr == "" {
		return a, nil
	}
	v := b.Get([]byte(CanonAddress(addr)))
	if v == nil {
		return a, nil
	}
	if err := json.Unmarshal(v, &a); err != nil {
		return a, fmt.Errorf("the time record of %s: %w", addr, err)
	}
	return a, nil
}

func writeAbsence(tx store.Tx, addr string, a Absence) error {
	b, err := tx.CreateBucketIfNotExists(bucketAbsences)
	if err != nil {
		return err
	}
	v, err := json.Marshal(a)
	if err != nil {
		return err
	}
	return b.Put([]byte(CanonAddress(addr)), v)
}

// AbsenceOf is addr's record (Service side, for MY GAMES and the CLI).
func (s *Service) AbsenceOf(ctx context.Context, addr string) (Absence, error) {
	var a Absence
	err := s.st.View(ctx, func(tx store.Tx) error {
		var err error
		a, err = readAbsence(tx, addr)
		return err
	})
	return a, err
}

// SetAutoVacation is SET AUTOVACATION: whether the allowance may be
// spent for addr (on, the default) or not.
func (s *Service) SetAutoVacation(ctx context.Context, addr string, on bool) error {
	return s.st.Update(ctx, func(tx store.Tx) error {
		a, err := readAbsence(tx, addr)
		if err != nil {
			return err
		}
		if a.NoAuto == !on {
			return nil
		}
		a.NoAuto = !on
		return writeAbsence(tx, addr, a)
	})
}

// VacationAllResult is what VacationAll did in each game.
type VacationAllResult struct {
	Games   []string // the games the vacation was declared in
	Notices []Notice
}

// VacationAll declares one absence of addr, from from to to, for every
// game it holds a seat in that is not over, and keeps it for the games
// it joins later (standingVacations): each game applies it under its own
// policy and cap (DeclareVacation) and tells its players. Declaring the
// same span again changes nothing. hooks run in each game's change, so
// the mail side mails each game's players.
func (s *Service) VacationAll(ctx context.Context, addr string, from, to time.Time, hooks ...Hook) (*VacationAllResult, error) {
	from, to = from.UTC(), to.UTC()
	if !to.After(from) {
		return nil, userErrorf("a vacation must end after it starts")
	}
	if !to.After(s.now()) {
		return nil, userErrorf("that vacation is over already")
	}
	span := Span{from, to}
	if err := s.st.Update(ctx, func(tx store.Tx) error {
		a, err := readAbsence(tx, addr)
		if err != nil {
			return err
		}
		if slices.Contains(a.Vacations, span) {
			return nil
		}
		a.Vacations = append(a.Vacations, span)
		return writeAbsence(tx, addr, a)
	}); err != nil {
		return nil, err
	}
	ids, err := s.HeldGames(ctx, addr)
	if err != nil {
		return nil, err
	}
	res := &VacationAllResult{}
	for _, id := range ids {
		g, err := s.Get(ctx, id)
		if err != nil {
			return res, err
		}
		p, ok := g.PlayerByEmail(addr)
		if !ok || g.Over() || hasVacation(g, p.Name, span, g.Settings.MaxVacation) {
			continue
		}
		_, ns, err := s.DeclareVacation(ctx, id, p.Name, from, to, hooks...)
		if IsUserError(err) {
			continue
		}
		if err != nil {
			return res, fmt.Errorf("game %s: %w", id, err)
		}
		res.Games = append(res.Games, id)
		res.Notices = append(res.Notices, ns...)
	}
	return res, nil
}

// hasVacation reports whether g has player's vacation span already (as
// declared, or capped by the game's max).
func hasVacation(g *Game, player string, span Span, maxVac time.Duration) bool {
	capped := span
	if maxVac > 0 && capped.To.Sub(capped.From) > maxVac {
		capped.To = capped.From.Add(maxVac)
	}
	for _, v := range g.Vacations {
		if v.Player == player && v.From.Equal(span.From) && (v.To.Equal(span.To) || v.To.Equal(capped.To)) {
			return true
		}
	}
	return false
}

// standingVacations adds to g, for each seat a person holds, the
// VACATION ALL of its address that has not ended, under the game's cap,
// and returns the notices that tell each of them: a game joined after a
// VACATION ALL keeps it too. Called in the transaction that seats them
// (start, takeSeat).
func (s *Service) standingVacations(tx store.Tx, g *Game, now time.Time, only string) ([]Notice, error) {
	var out []Notice
	for _, p := range g.Players {
		if p.Bot || p.Email == "" || (only != "" && p.Name != only) {
			continue
		}
		a, err := readAbsence(tx, p.Email)
		if err != nil {
			return nil, err
		}
		for _, v := range a.Vacations {
			if !v.To.After(now) || hasVacation(g, p.Name, v, g.Settings.MaxVacation) {
				continue
			}
			to := v.To
			if m := g.Settings.MaxVacation; m > 0 && to.Sub(v.From) > m {
				to = v.From.Add(m)
			}
			g.Vacations = append(g.Vacations, Vacation{Player: p.Name, From: v.From, To: to})
			out = append(out, tell("vacation", []string{p.Name, GM},
				lang.M("Your vacation for every game, from %s to %s, holds in %s too.", v.From, to, g.ID)))
		}
	}
	if len(out) > 0 {
		s.extendForVacations(g, now)
	}
	return out, nil
}
