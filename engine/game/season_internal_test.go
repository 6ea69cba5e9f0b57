package game

import (
	"context"
	"fmt"
	"hash/fnv"
	"slices"
	"strings"
	"testing"
	"time"

	"orrery/engine"
	"orrery/engine/enginetest/toy"
	"orrery/engine/store"
	"orrery/engine/store/storetest"
)

// seasonLog is what the season's hooks saw: every step resolved and every
// notice, with the game as the change left it.
type seasonLog struct {
	steps   map[string][]uint64 // by game, in order
	told    []toldMail          // mails to players that tell a deadline, by game
	toldIn  []string            // toldMail's game
	starts  []seasonStart       // each step's computed deadline, as it opened
	resolve map[string]map[uint64]seasonResolve
	woken   map[string][]string // game+deadline → players a woken notice named
	notices []Notice
}

type seasonStart struct {
	game     string
	step     uint64
	deadline time.Time
	players  []Player
	settings Settings
}

type seasonResolve struct {
	at     time.Time
	reason string
}

// TestSimulatedSeason plays three games for twelve weeks of the engine's
// clock (no sleeps), with players in Europe/Berlin, America/Los_Angeles
// and Asia/Tokyo across the spring DST changes of both Europe and
// America: quiet hours, weekends off, one VACATION ALL, the yearly
// allowance spent, a deadline moved three times, a bot taking a seat and
// giving it back, and two restarts (a new service over the same store).
// No computed deadline falls in anyone's quiet hours (unless the notice
// says whom the zones leave no choice but to wake) nor on a weekend, no
// mail is contradicted by what followed, no step resolves twice or is
// missed, and every replay verifies.
func TestSimulatedSeason(t *testing.T) {
	for _, k := range storetest.Kinds() {
		t.Run(k.Name, func(t *testing.T) {
			storetest.BoltOnlyWhenShort(t, k) // 15 s on PostgreSQL
			season(t, storetest.Open(t, k))
		})
	}
}

func season(t *testing.T, st *store.Store) {
	ctx := context.Background()
	t0 := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC) // a Monday; the US changes on Mar 8, Europe on Mar 29
	now := t0
	log := &seasonLog{steps: map[string][]uint64{}, resolve: map[string]map[uint64]seasonResolve{}, woken: map[string][]string{}}
	hook := func(tx store.Tx, c *Change) error {
		g := c.Game
		for _, s := range c.Steps {
			if s.N == 0 {
				continue // the setup
			}
			log.steps[g.ID] = append(log.steps[g.ID], s.N)
			if log.resolve[g.ID] == nil {
				log.resolve[g.ID] = map[uint64]seasonResolve{}
			}
			log.resolve[g.ID][s.N] = seasonResolve{now, s.Reason}
		}
		for _, n := range c.Notices {
			log.notices = append(log.notices, n)
			if strings.Contains(n.Text, "falls in the fewest") {
				var names []string
				for _, a := range n.Msg.Args[3].List {
					names = append(names, a.Str)
				}
				log.woken[g.ID+g.Deadline.String()] = names
			}
			players := false
			for _, to := range n.To {
				players = players || to != GM
			}
			if players && !n.Due.IsZero() {
				log.told = append(log.told, toldMail{now, n.Due, n.Kind, g.Step})
				log.toldIn = append(log.toldIn, g.ID)
			}
		}
		if len(c.Steps) > 0 || c.Created {
			// The report of the step tells its deadline.
			if !g.Deadline.IsZero() {
				log.told = append(log.told, toldMail{now, g.Deadline, "report", g.Step})
				log.toldIn = append(log.toldIn, g.ID)
				log.starts = append(log.starts, seasonStart{g.ID, g.Step, g.Deadline, slices.Clone(g.Players), g.Settings})
			}
		}
		return nil
	}
	opts := []Option{WithClock(func() time.Time { return now }), WithAllowance(10), WithHooks(hook)}
	svc := New(st, []engine.Ruleset{toy.Ruleset()}, opts...)
	zones := map[string]string{"ann": "Europe/Berlin", "bob": "America/Los_Angeles", "cho": "Asia/Tokyo"}
	mk := func(id string, s Settings) {
		req := CreateRequest{ID: id, Ruleset: "toy", DiceSecret: id, Options: map[string]string{"finish": "100000"}, Settings: &s}
		for _, p := range []string{"ann", "bob", "cho"} {
			req.Players = append(req.Players, PlayerSpec{Name: p, Email: p + "@example.org", Zone: zones[p]})
		}
		if _, err := svc.Create(ctx, req); err != nil {
			t.Fatal(err)
		}
	}
	mk("club", Settings{Early: true, TurnLength: 72 * time.Hour, QuietHours: "23:00-07:00", Vacation: "extend", MaxVacation: 14 * 24 * time.Hour,
		Reminders: []time.Duration{24 * time.Hour, 2 * time.Hour}})
	mk("weekly", Settings{Early: true, TurnLength: 48 * time.Hour, WeekendsOff: true, TimeZone: "Europe/Berlin", QuietHours: "23-07",
		Vacation: "defaults", MaxVacation: 7 * 24 * time.Hour, Reminders: []time.Duration{12 * time.Hour}})
	mk("bots", Settings{Early: true, TurnLength: 48 * time.Hour, AbandonAfter: 2, Abandoned: "bot", ReturnWindow: 2, Vacation: "defaults"})

	week := func(n float64) time.Time { return t0.Add(time.Duration(n * 7 * 24 * float64(time.Hour))) }
	vacFrom, vacTo := time.Date(2026, 3, 23, 0, 0, 0, 0, time.UTC), time.Date(2026, 4, 4, 0, 0, 0, 0, time.UTC)
	opened := map[string]time.Time{"club": t0, "weekly": t0, "bots": t0}
	lastStep := map[string]uint64{}
	answered := map[string]bool{} // game/step/player
	var choSecret string
	returned := false
	type event struct {
		at   time.Time
		name string
		do   func()
	}
	must := func(err error) {
		t.Helper()
		if err != nil && !IsUserError(err) {
			t.Fatal(err)
		}
	}
	events := []event{
		{week(1.5), "club: extend", func() { _, _, err := svc.ExtendDeadline(ctx, "club", 24*time.Hour, "a holiday"); must(err) }},
		{week(1.5).Add(2 * time.Hour), "club: set earlier", func() {
			_, _, err := svc.SetDeadline(ctx, "club", now.Add(30*time.Minute), "the holiday was a mistake")
			must(err)
		}},
		{week(1.5).Add(3 * time.Hour), "club: extend again", func() { _, _, err := svc.ExtendDeadline(ctx, "club", 12*time.Hour, "ann asked"); must(err) }},
		{week(2.5), "ann: VACATION ALL", func() { _, err := svc.VacationAll(ctx, "ann@example.org", vacFrom, vacTo, "mail"); must(err) }},
		{week(3), "restart", func() { svc = New(st, []engine.Ruleset{toy.Ruleset()}, opts...) }},
		{week(8), "restart", func() { svc = New(st, []engine.Ruleset{toy.Ruleset()}, opts...) }},
	}
	// Who does not send orders when: ann while away; bob in weekly for a
	// while in week 6 (the allowance waits for him); cho in bots from
	// week 7 until the bot has his seat, and he writes again.
	silent := func(id, p string) bool {
		switch {
		case p == "ann" && !now.Before(vacFrom) && now.Before(vacTo):
			return true
		case id == "weekly" && p == "bob" && !now.Before(week(6)) && now.Before(week(6).Add(100*time.Hour)):
			return true
		case id == "bots" && p == "cho" && !now.Before(week(7)) && !returned:
			return true
		}
		return false
	}
	delay := func(id, p string, step uint64) time.Duration {
		h := fnv.New32a()
		fmt.Fprintf(h, "%s/%s/%d", id, p, step)
		return time.Duration(2+h.Sum32()%40) * time.Hour
	}
	end := week(12)
	for ; now.Before(end); now = now.Add(15 * time.Minute) {
		for len(events) > 0 && !events[0].at.After(now) {
			events[0].do()
			events = events[1:]
		}
		if _, err := svc.Tick(ctx); err != nil {
			t.Fatal(err)
		}
		for _, id := range []string{"club", "weekly", "bots"} {
			g, err := svc.Get(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if g.Step != lastStep[id] {
				lastStep[id], opened[id] = g.Step, now
			}
			if id == "bots" && choSecret == "" {
				p, _ := g.PlayerByName("cho")
				choSecret = p.Secret
			}
			if id == "bots" && !returned && isBot(g, "cho") && now.After(week(7).Add(5*24*time.Hour)) {
				name, _, err := svc.ReturnSeat(ctx, "bots", "cho@example.org", choSecret)
				must(err)
				if name != "cho" {
					t.Fatalf("cho did not get his seat back (step %d, turn %d, holders %+v)", g.Step, g.Turn, g.Players[2].Holders)
				}
				returned = true
				continue
			}
			for _, p := range g.Waiting() {
				key := fmt.Sprintf("%s/%d/%s", id, g.Step, p)
				if isBot(g, p) || answered[key] || silent(id, p) || now.Before(opened[id].Add(delay(id, p, g.Step))) {
					continue
				}
				answered[key] = true
				_, err := svc.Submit(ctx, Input{Game: id, Player: p, Text: "PUSH 1", Source: "mail"})
				must(err)
			}
		}
	}
	if len(events) > 0 || !returned {
		t.Fatalf("the season ended before its events: %d left, cho returned %v", len(events), returned)
	}

	// Every computed deadline keeps out of nights and weekends.
	for _, s := range log.starts {
		g := &Game{Settings: s.settings, Players: s.players}
		if q, ok, _ := parseQuiet(s.settings.QuietHours); ok {
			for _, qs := range g.quietSeats() {
				if q.holds(s.deadline, qs.loc) && !slices.Contains(log.woken[s.game+s.deadline.String()], qs.name) {
					t.Errorf("%s step %d: deadline %v is in %s's quiet hours, and nobody was told", s.game, s.step+1, s.deadline, qs.name)
				}
			}
		}
		loc, _ := s.settings.location()
		if s.settings.WeekendsOff && weekend(s.deadline, loc) {
			t.Errorf("%s step %d: deadline %v on a weekend", s.game, s.step+1, s.deadline)
		}
	}
	// No mail contradicted what followed.
	for id, rs := range log.resolve {
		for n, r := range rs {
			step := n - 1
			var last *toldMail
			for i := range log.told {
				m := &log.told[i]
				if log.toldIn[i] != id || m.step != step || m.at.After(r.at) {
					continue
				}
				// An early resolution (every order in) contradicts no
				// mail: the players did it.
				if r.reason == "deadline" && m.due.After(r.at) && r.at.Before(m.at.Add(DefaultMinNotice)) {
					t.Errorf("%s step %d resolved (%s) at %v, %v after a %s that said %v", id, n, r.reason, r.at, r.at.Sub(m.at), m.kind, m.due)
				}
				last = m
			}
			if r.reason == "deadline" && (last == nil || r.at.Before(last.due) || !r.at.Before(last.due.Add(15*time.Minute))) {
				t.Errorf("%s step %d resolved by its deadline at %v; the last mail before said %+v", id, n, r.at, last)
			}
		}
	}
	// No step resolved twice, none missed; every replay verifies.
	for _, id := range []string{"club", "weekly", "bots"} {
		g, err := svc.Get(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		steps := log.steps[id]
		for i, n := range steps {
			if n != uint64(i+1) {
				t.Fatalf("%s: steps resolved %v: not each once, in order", id, steps)
			}
		}
		if uint64(len(steps)) != g.Step || g.Step < 20 {
			t.Errorf("%s: %d steps seen, the game is at step %d", id, len(steps), g.Step)
		}
		v, err := svc.Verify(ctx, id)
		if err != nil || !v.OK() {
			t.Errorf("%s: verify %v %+v", id, err, v)
		}
		if !slices.ContainsFunc(g.Vacations, func(v Vacation) bool { return v.Player == "ann" }) {
			t.Errorf("%s: ann's VACATION ALL is not there", id)
		}
	}
	// The allowance was spent for bob, and the bot gave cho's seat back.
	a, err := svc.AbsenceOf(ctx, "bob@example.org")
	if err != nil || a.Spent[2026] < time.Hour {
		t.Errorf("bob's allowance: %+v %v", a, err)
	}
	g, _ := svc.Get(ctx, "bots")
	cho, _ := g.PlayerByName("cho")
	if !slices.ContainsFunc(cho.Holders, func(h Holder) bool { return h.Bot && h.Ended == "returned" }) || cho.Bot {
		t.Errorf("cho's holders %+v", cho.Holders)
	}
	moved := 0
	for _, n := range log.notices {
		if n.Kind == "deadline" && strings.Contains(n.Text, "of club moves from") {
			moved++
		}
	}
	if moved < 3 {
		t.Errorf("club's deadline moved %d times, want 3 at least", moved)
	}
	t.Logf("steps: club %d, weekly %d, bots %d; notices %d; bob spent %v", len(log.steps["club"]), len(log.steps["weekly"]), len(log.steps["bots"]), len(log.notices), a.Spent[2026])
}
