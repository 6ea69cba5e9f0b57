package daemon_test

import (
	"context"
	"fmt"
	"hash/fnv"
	"maps"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"orrery/engine"
	"orrery/engine/enginetest/toy"
	"orrery/engine/game"
	"orrery/engine/store"
	"orrery/engine/store/storetest"
	"orrery/pbem/daemon"
	"orrery/pbem/imapin"
	"orrery/pbem/pbemtest"
)

// seasonTold is a mail to players that told a deadline: when it went,
// the deadline it told, its kind, and the game's step then.
type seasonTold struct {
	game    string
	at, due time.Time
	kind    string
	step    uint64
}

// seasonRecord is what the daemon's hook saw, across its restarts.
type seasonRecord struct {
	mu      sync.Mutex
	steps   map[string][]uint64
	resolve map[string]map[uint64]seasonAt
	told    []seasonTold
	starts  []seasonOpen
	woken   map[string][]string
	moved   int
}

type seasonAt struct {
	at     time.Time
	reason string
}

type seasonOpen struct {
	g        game.Game
	deadline time.Time
}

// TestSeasonAcrossDaemonRestarts is the simulated season of engine/game's
// TestSimulatedSeason played through the real daemon: three games with
// players in Europe/Berlin, America/Los_Angeles and Asia/Tokyo for twelve
// weeks from 2 March 2026 (both spring DST changes), orders, VACATION ALL
// and a returning player's orders by mail, deadlines ticked by Run's own
// loop with the fake clock, and Run stopped and a new daemon (a new
// outbox too) started over the same store twice. The loop waits in
// Config.Ticked between rounds while the test moves the clock: a round
// sees one time, as a real tick does. No computed deadline falls in
// anyone's quiet hours (unless the notice says whom no choice but to
// wake) nor on a weekend, no mail is contradicted by what followed, no
// step resolves twice or is missed, and every replay verifies. On
// PostgreSQL with ORRERY_TEST_STORE=postgres.
func TestSeasonAcrossDaemonRestarts(t *testing.T) {
	ctx := context.Background()
	st := storetest.Open(t, storetest.Default())
	srv := pbemtest.StartT(t, pbemtest.Options{Users: map[string]string{botAddr: "pw"}})
	t0 := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC) // a Monday; the US changes on Mar 8, Europe on Mar 29
	var clock atomic.Int64
	clock.Store(t0.UnixNano())
	now := func() time.Time { return time.Unix(0, clock.Load()).UTC() }
	rec := &seasonRecord{steps: map[string][]uint64{}, resolve: map[string]map[uint64]seasonAt{}, woken: map[string][]string{}}
	// The hook records what a change did once its transaction commits:
	// on PostgreSQL a transaction refused for a conflict runs again, and
	// its first run must not count.
	hook := func(tx store.Tx, c *game.Change) error {
		var steps []uint64
		resolved := map[uint64]seasonAt{}
		woken := map[string][]string{}
		moved := 0
		var told []seasonTold
		var starts []seasonOpen
		g, at := c.Game, now()
		for _, s := range c.Steps {
			if s.N == 0 {
				continue
			}
			steps = append(steps, s.N)
			resolved[s.N] = seasonAt{at, s.Reason}
		}
		for _, n := range c.Notices {
			if strings.Contains(n.Text, "falls in the fewest") {
				var names []string
				for _, a := range n.Msg.Args[3].List {
					names = append(names, a.Str)
				}
				woken[g.ID+g.Deadline.String()] = names
			}
			if n.Kind == "deadline" && strings.Contains(n.Text, "of club moves from") {
				moved++
			}
			if slices.ContainsFunc(n.To, func(to string) bool { return to != game.GM }) && !n.Due.IsZero() {
				told = append(told, seasonTold{g.ID, at, n.Due, n.Kind, g.Step})
			}
		}
		if (len(c.Steps) > 0 || c.Created) && !g.Deadline.IsZero() {
			told = append(told, seasonTold{g.ID, at, g.Deadline, "report", g.Step})
			cp := *g
			cp.Players = slices.Clone(g.Players)
			starts = append(starts, seasonOpen{cp, g.Deadline})
		}
		id := g.ID
		tx.OnCommit(func() {
			rec.mu.Lock()
			defer rec.mu.Unlock()
			rec.steps[id] = append(rec.steps[id], steps...)
			if rec.resolve[id] == nil {
				rec.resolve[id] = map[uint64]seasonAt{}
			}
			maps.Copy(rec.resolve[id], resolved)
			maps.Copy(rec.woken, woken)
			rec.moved += moved
			rec.told = append(rec.told, told...)
			rec.starts = append(rec.starts, starts...)
		})
		return nil
	}

	// One daemon at a time (with an outbox of its own, over the same
	// store and mail server), its Run loop paused in Ticked after each
	// round until the test lets the next one go.
	var d *daemon.Daemon
	roundDone, proceed := make(chan struct{}), make(chan struct{})
	var stopRun func()
	start := func() {
		halt := make(chan struct{})
		d = rig{store: st, server: srv, noGame: true, opts: []game.Option{game.WithAllowance(10), game.WithHooks(hook)},
			config: daemon.Config{GM: "Game Master <" + gmAddr + ">", GMSecret: "gm-secret", RepliesPerHour: 100000, Now: now,
				TickEvery: time.Millisecond, Ticked: func() {
					select {
					case roundDone <- struct{}{}:
					case <-halt:
						return
					}
					select {
					case <-proceed:
					case <-halt:
					}
				}},
		}.start(t).d
		r := imapin.New(imapin.Config{Addr: srv.IMAPAddr, TLS: "none", IdleRestart: 500 * time.Millisecond,
			Credentials: func(context.Context) (string, string, error) { return botAddr, "pw", nil }})
		rctx, cancel := context.WithCancel(ctx)
		done := make(chan error, 1)
		go func() { done <- d.Run(rctx, r) }()
		var once sync.Once
		stopRun = func() {
			once.Do(func() {
				close(halt)
				cancel()
				if err := <-done; err != nil {
					t.Errorf("Run: %v", err)
				}
			})
		}
		t.Cleanup(stopRun)
	}
	round := func() {
		t.Helper()
		select {
		case <-roundDone:
		case <-time.After(30 * time.Second):
			t.Fatalf("no tick round at %v", now())
		}
	}
	start()
	round() // the first round; the loop waits now

	zones := map[string]string{"ann": "Europe/Berlin", "bob": "America/Los_Angeles", "cho": "Asia/Tokyo"}
	mk := func(id string, s game.Settings) {
		req := game.CreateRequest{ID: id, Ruleset: "toy", DiceSecret: id, Options: map[string]string{"finish": "100000"}, Settings: &s}
		for _, p := range []string{"ann", "bob", "cho"} {
			req.Players = append(req.Players, game.PlayerSpec{Name: p, Email: p + "@example.org", Zone: zones[p]})
		}
		if _, err := d.Service().Create(ctx, req); err != nil {
			t.Fatal(err)
		}
	}
	mk("club", game.Settings{Early: true, TurnLength: 72 * time.Hour, QuietHours: "23:00-07:00", Vacation: "extend", MaxVacation: 14 * 24 * time.Hour,
		Reminders: []time.Duration{24 * time.Hour, 2 * time.Hour}})
	mk("weekly", game.Settings{Early: true, TurnLength: 48 * time.Hour, WeekendsOff: true, TimeZone: "Europe/Berlin", QuietHours: "23-07",
		Vacation: "defaults", MaxVacation: 7 * 24 * time.Hour, Reminders: []time.Duration{12 * time.Hour}})
	mk("bots", game.Settings{Early: true, TurnLength: 48 * time.Hour, AbandonAfter: 2, Abandoned: "bot", ReturnWindow: 2, Vacation: "defaults"})

	n := 0
	send := func(from, subject, body string) {
		t.Helper()
		n++
		raw := fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: %s\r\nMessage-ID: <season%d@example.org>\r\nDate: %s\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n%s\r\n",
			from, botAddr, subject, n, now().Format(time.RFC1123Z), body)
		if _, err := d.Handle(ctx, imapin.Message{Mailbox: "INBOX", UIDValidity: 7, UID: uint32(n), Raw: []byte(raw)}); err != nil {
			t.Fatal(err)
		}
	}
	secret := func(id, name string) string {
		g, err := d.Service().Get(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		p, _ := g.PlayerByName(name)
		return p.Secret
	}
	must := func(err error) {
		t.Helper()
		if err != nil && !game.IsUserError(err) {
			t.Fatal(err)
		}
	}

	week := func(w float64) time.Time { return t0.Add(time.Duration(w * 7 * 24 * float64(time.Hour))) }
	vacFrom, vacTo := time.Date(2026, 3, 23, 0, 0, 0, 0, time.UTC), time.Date(2026, 4, 4, 0, 0, 0, 0, time.UTC)
	restarts := 0
	events := []struct {
		at   time.Time
		name string
		do   func()
	}{
		{week(1.5), "club: extend", func() { _, _, err := d.Service().ExtendDeadline(ctx, "club", 24*time.Hour, "a holiday"); must(err) }},
		{week(1.5).Add(2 * time.Hour), "club: set earlier", func() {
			_, _, err := d.Service().SetDeadline(ctx, "club", now().Add(30*time.Minute), "the holiday was a mistake")
			must(err)
		}},
		{week(1.5).Add(3 * time.Hour), "club: extend again", func() {
			_, _, err := d.Service().ExtendDeadline(ctx, "club", 12*time.Hour, "ann asked")
			must(err)
		}},
		{week(2.5), "ann: VACATION ALL by mail", func() {
			send("ann@example.org", "[club "+secret("club", "ann")+"] away", "VACATION ALL FROM 2026-03-23 TO 2026-04-03")
		}},
		{week(3), "restart", func() { stopRun(); restarts++; start(); round() }},
		{week(8), "restart", func() { stopRun(); restarts++; start(); round() }},
	}
	silent := func(id, p string, returned bool) bool {
		at := now()
		switch {
		case p == "ann" && !at.Before(vacFrom) && at.Before(vacTo):
			return true
		case id == "weekly" && p == "bob" && !at.Before(week(6)) && at.Before(week(6).Add(100*time.Hour)):
			return true
		case id == "bots" && p == "cho" && !at.Before(week(7)) && !returned:
			return true
		}
		return false
	}
	delay := func(id, p string, step uint64) time.Duration {
		h := fnv.New32a()
		fmt.Fprintf(h, "%s/%s/%d", id, p, step)
		return time.Duration(2+h.Sum32()%40) * time.Hour
	}
	opened := map[string]time.Time{"club": t0, "weekly": t0, "bots": t0}
	lastStep := map[string]uint64{}
	answered := map[string]bool{}
	choSecret, returned := "", false
	const every = time.Hour
	for end := week(12); now().Before(end); {
		clock.Add(int64(every))
		for len(events) > 0 && !events[0].at.After(now()) {
			events[0].do()
			events = events[1:]
		}
		proceed <- struct{}{}
		round()
		for _, id := range []string{"club", "weekly", "bots"} {
			g, err := d.Service().Get(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if g.Step != lastStep[id] {
				lastStep[id], opened[id] = g.Step, now()
			}
			cho, _ := g.PlayerByName("cho")
			if id == "bots" && choSecret == "" {
				choSecret = cho.Secret
			}
			if id == "bots" && !returned && cho.Bot && now().After(week(7).Add(5*24*time.Hour)) {
				// cho writes again with his old secret: the seat is his
				// from the next step, and these orders count.
				send("cho@example.org", "[bots "+choSecret+"] back", "PUSH 1")
				if g, _ := d.Service().Get(ctx, "bots"); !slices.ContainsFunc(g.Players, func(p game.Player) bool { return p.Name == "cho" && !p.Bot }) {
					t.Fatalf("cho's mail did not give him his seat back: %+v", g.Players)
				}
				returned = true
				continue
			}
			for _, p := range g.Waiting() {
				key := fmt.Sprintf("%s/%d/%s", id, g.Step, p)
				pl, _ := g.PlayerByName(p)
				if pl.Bot || answered[key] || silent(id, p, returned) || now().Before(opened[id].Add(delay(id, p, g.Step))) {
					continue
				}
				answered[key] = true
				send(p+"@example.org", "["+id+" "+pl.Secret+"] orders", "PUSH 1")
			}
		}
	}
	stopRun()
	if len(events) > 0 || !returned || restarts != 2 {
		t.Fatalf("the season ended before its events: %d left, cho returned %v, %d restarts", len(events), returned, restarts)
	}

	rec.mu.Lock()
	defer rec.mu.Unlock()
	// Every computed deadline keeps out of nights and weekends.
	for _, s := range rec.starts {
		asleep, weekend := s.g.Asleep(s.deadline)
		for _, name := range asleep {
			if !slices.Contains(rec.woken[s.g.ID+s.deadline.String()], name) {
				t.Errorf("%s step %d: deadline %v is in %s's quiet hours, and nobody was told", s.g.ID, s.g.Step+1, s.deadline, name)
			}
		}
		if weekend {
			t.Errorf("%s step %d: deadline %v on a weekend", s.g.ID, s.g.Step+1, s.deadline)
		}
	}
	// No mail contradicted what followed: a step resolved by its
	// deadline no sooner than min_notice after a mail that told a later
	// one, and within a round of the deadline the last mail told.
	for id, rs := range rec.resolve {
		for n, r := range rs {
			var last *seasonTold
			for i := range rec.told {
				m := &rec.told[i]
				if m.game != id || m.step != n-1 || m.at.After(r.at) {
					continue
				}
				if r.reason == "deadline" && m.due.After(r.at) && r.at.Before(m.at.Add(game.DefaultMinNotice)) {
					t.Errorf("%s step %d resolved (%s) at %v, %v after a %s that said %v", id, n, r.reason, r.at, r.at.Sub(m.at), m.kind, m.due)
				}
				last = m
			}
			if r.reason == "deadline" && (last == nil || r.at.Before(last.due) || !r.at.Before(last.due.Add(every))) {
				t.Errorf("%s step %d resolved by its deadline at %v; the last mail before said %+v", id, n, r.at, last)
			}
		}
	}
	// No step resolved twice or missed, across the restarts; every
	// replay verifies.
	svc := game.New(st, []engine.Ruleset{toy.Ruleset()})
	for _, id := range []string{"club", "weekly", "bots"} {
		g, err := svc.Get(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		steps := rec.steps[id]
		for i, n := range steps {
			if n != uint64(i+1) {
				t.Fatalf("%s: steps resolved %v: not each once, in order", id, steps)
			}
		}
		if uint64(len(steps)) != g.Step || g.Step < 20 {
			t.Errorf("%s: %d steps seen, the game is at step %d", id, len(steps), g.Step)
		}
		if v, err := svc.Verify(ctx, id); err != nil || !v.OK() {
			t.Errorf("%s: verify %v %+v", id, err, v)
		}
		if !slices.ContainsFunc(g.Vacations, func(v game.Vacation) bool { return v.Player == "ann" }) {
			t.Errorf("%s: ann's VACATION ALL is not there", id)
		}
	}
	if a, err := svc.AbsenceOf(ctx, "bob@example.org"); err != nil || a.Spent[2026] < time.Hour {
		t.Errorf("bob's allowance was not spent: %+v %v", a, err)
	}
	if rec.moved < 3 {
		t.Errorf("club's deadline moved %d times, want 3 at least", rec.moved)
	}
	t.Logf("steps: club %d, weekly %d, bots %d; %d mails sent", len(rec.steps["club"]), len(rec.steps["weekly"]), len(rec.steps["bots"]), len(srv.Sent()))
}
