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
// policy and cap and tells its players. It is one transaction, record
// and games alike (hooks run in it for each game changed), so a mail
// retried after a crash declares it everywhere or nowhere; declaring the
// same span again changes nothing.
func (s *Service) VacationAll(ctx context.Context, addr string, from, to time.Time, source string, hooks ...Hook) (*VacationAllResult, error) {
	from, to = from.UTC(), to.UTC()
	if !to.After(from) {
		return nil, userErr(lang.M("a vacation must end after it starts"))
	}
	now := s.now().UTC()
	if !to.After(now) {
		return nil, userErr(lang.M("that vacation is over already"))
	}
	if err := s.indexed(ctx); err != nil {
		return nil, err
	}
	span := Span{from, to}
	res := &VacationAllResult{}
	err := s.st.Update(ctx, func(tx store.Tx) error {
		*res = VacationAllResult{}
		a, err := readAbsence(tx, addr)
		if err != nil {
			return err
		}
		if !slices.Contains(a.Vacations, span) {
			a.Vacations = append(a.Vacations, span)
			if err := writeAbsence(tx, addr, a); err != nil {
				return err
			}
		}
		ids, err := heldGames(tx, addr)
		if err != nil {
			return err
		}
		for _, id := range ids {
			b, err := gameBucket(tx, id)
			if err != nil {
				return err
			}
			g, err := readGame(b)
			if err != nil {
				return err
			}
			p, ok := g.PlayerByEmail(addr)
			if !ok || g.Over() {
				continue
			}
			was := factsOf(g)
			ns, err := s.vacationIn(g, p.Name, span, now)
			if err != nil || len(ns) == 0 {
				return err
			}
			g.Updated = now
			if err := appendLog(b, &Entry{Time: now, Kind: "gm", Step: g.Step, Player: p.Name, Source: source,
				Text: fmt.Sprintf("vacation for every game %s %s–%s", p.Name, fmtTime(from), fmtTime(to))}); err != nil {
				return err
			}
			if err := writeGameFrom(b, g, was); err != nil {
				return err
			}
			res.Games = append(res.Games, id)
			res.Notices = append(res.Notices, ns...)
			if err := runHooks(tx, &Change{Game: g, Notices: ns, Service: s}, hooks); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
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

// vacationIn applies an address's vacation for every game to player's
// seat of g, under the game's cap and policy, and returns the notices
// that tell every player and the GM (none when g has it already): the
// vacation, and under "extend" the deadline it moves, named with the
// one it replaces.
func (s *Service) vacationIn(g *Game, player string, span Span, now time.Time) ([]Notice, error) {
	if !span.To.After(now) || hasVacation(g, player, span, g.Settings.MaxVacation) {
		return nil, nil
	}
	to := span.To
	if m := g.Settings.MaxVacation; m > 0 && to.Sub(span.From) > m {
		to = span.From.Add(m)
	}
	g.Vacations = append(g.Vacations, Vacation{Player: player, From: span.From, To: to})
	policy := lang.M("their defaults apply while they are away")
	if g.Settings.Vacation == "extend" {
		policy = lang.M("deadlines wait for them")
	}
	out := []Notice{tell("vacation", append(everyone(g), GM),
		lang.M("%s is on vacation in %s from %s to %s (a vacation for every game they play): %s.", player, g.ID, span.From, to, policy))}
	old := g.Deadline
	s.extendForVacations(g, now)
	if at := g.Deadline; !at.Equal(old) {
		g.Deadline = old
		if n, ok := s.moveDeadline(g, at, lang.M("%s is on vacation", player), now); ok {
			out = append(out, n)
		}
	}
	return out, nil
}

// standingVacations applies, to each seat a person holds in g (only:
// that seat alone), the vacations for every game of its address that
// have not ended (vacationIn): a game joined after a VACATION ALL keeps
// it too. Called in the transaction that seats them (start, takeSeat).
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
			ns, err := s.vacationIn(g, p.Name, v, now)
			if err != nil {
				return nil, err
			}
			out = append(out, ns...)
		}
	}
	return out, nil
}
