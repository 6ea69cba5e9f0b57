package game

import (
	"context"
	"fmt"
	"testing"
	"time"

	"orrery/engine"
	"orrery/engine/enginetest/toy"
	"orrery/engine/store/storetest"
)

// toldMail is a mail a player got that tells a deadline.
type toldMail struct {
	at, due time.Time
	kind    string
	step    uint64
}

// staleScript plays one game with a 48-hour turn and reminders 24 hours
// and 1 hour before, ticking every five minutes, while the GM moves the
// deadline back and forth around the reminder times; bob never sends
// orders. It returns every way in which a mail a player received was
// contradicted by what followed.
func staleScript(t *testing.T, k storetest.Kind, minNotice time.Duration) []string {
	t0 := utc(2026, 5, 4, 9, 0)
	now := t0
	svc := New(storetest.Open(t, k), []engine.Ruleset{toy.Ruleset()}, WithClock(func() time.Time { return now }), WithMinNotice(minNotice))
	ctx := context.Background()
	if _, err := svc.Create(ctx, CreateRequest{ID: "g", Ruleset: "toy", DiceSecret: "stale",
		Players:  []PlayerSpec{{Name: "ann", Email: "ann@example.org"}, {Name: "bob", Email: "bob@example.org"}},
		Settings: &Settings{Early: true, TurnLength: 48 * time.Hour, Reminders: []time.Duration{24 * time.Hour, time.Hour}}}); err != nil {
		t.Fatal(err)
	}
	h := func(d float64) time.Time { return t0.Add(time.Duration(d * float64(time.Hour))) }
	type action struct {
		at time.Time
		do func() ([]Notice, error)
	}
	set := func(at time.Time, why string) func() ([]Notice, error) {
		return func() ([]Notice, error) { _, ns, err := svc.SetDeadline(ctx, "g", at, why); return ns, err }
	}
	extend := func(d time.Duration, why string) func() ([]Notice, error) {
		return func() ([]Notice, error) { _, ns, err := svc.ExtendDeadline(ctx, "g", d, why); return ns, err }
	}
	script := []action{
		// Step 1 (deadline +48h; reminders at +24h and +47h).
		{h(20), extend(12*time.Hour, "a holiday")},            // +60h: its reminders move to +36h and +59h
		{h(35.9), set(h(36.2), "back to the old pace")},       // around the first reminder, just after the extension's
		{h(36), extend(time.Hour, "ann asked")},               // and later again
		{h(36.5), set(h(36.6), "ten minutes, then")},          // earlier, within the hour of the last
		{h(40), extend(24*time.Hour, "a second holiday")},     // step 1 is over by then: step 2's deadline moves
		{h(40 + 1.0/3), set(h(40.5), "no holiday after all")}, // ten minutes later, back
		{h(87.5), set(h(87.6), "hurry")},                      // half an hour after step 3's last reminder
	}
	var mails []toldMail
	var steps []time.Time // when each step resolved
	told := func(ns []Notice, step uint64) {
		for _, n := range ns {
			players := false
			for _, to := range n.To {
				players = players || to != GM
			}
			if players && !n.Due.IsZero() {
				mails = append(mails, toldMail{now, n.Due, n.Kind, step})
			}
		}
	}
	stepOf := func() uint64 {
		g, err := svc.Get(ctx, "g")
		if err != nil {
			t.Fatal(err)
		}
		return g.Step
	}
	report := func() {
		// A step's report tells the next deadline.
		g, _ := svc.Get(ctx, "g")
		if !g.Deadline.IsZero() {
			mails = append(mails, toldMail{now, g.Deadline, "report", g.Step})
		}
	}
	report()
	if _, err := svc.Submit(ctx, Input{Game: "g", Player: "ann", Text: "PUSH 1", Source: "test"}); err != nil {
		t.Fatal(err)
	}
	for now = t0; now.Before(h(120)); now = now.Add(5 * time.Minute) {
		for len(script) > 0 && !script[0].at.After(now) {
			ns, err := script[0].do()
			if err != nil && !IsUserError(err) {
				t.Fatal(err)
			}
			told(ns, stepOf())
			script = script[1:]
		}
		before := stepOf()
		res, err := svc.Tick(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range res {
			told(r.Notices, before)
			for range r.Steps {
				steps = append(steps, now)
			}
		}
		if stepOf() != before {
			report()
		}
	}
	if len(steps) < 3 {
		t.Fatalf("%d steps resolved, want at least 3", len(steps))
	}
	var bad []string
	for i, r := range steps {
		step := uint64(i)
		var last *toldMail
		for j := range mails {
			m := &mails[j]
			if m.step != step || m.at.After(r) {
				continue
			}
			if m.due.After(r) && r.Before(m.at.Add(DefaultMinNotice)) {
				bad = append(bad, fmt.Sprintf("step %d resolved at %v, %v after a %s that said %v", step+1, r, r.Sub(m.at), m.kind, m.due))
			}
			last = m
		}
		if last == nil || r.Before(last.due) || !r.Before(last.due.Add(5*time.Minute)) {
			bad = append(bad, fmt.Sprintf("step %d resolved at %v; the last mail before it said %+v", step+1, r, last))
		}
	}
	return bad
}

// No mail a player gets is contradicted by what follows: a step resolves
// at the deadline the last mail told, and never within min_notice of a
// mail that told a later one; without min_notice the same script does
// contradict its mails.
func TestNoticesDoNotGoStale(t *testing.T) {
	for _, k := range storetest.Kinds() {
		t.Run(k.Name, func(t *testing.T) {
			storetest.BoltOnlyWhenShort(t, k)
			if bad := staleScript(t, k, DefaultMinNotice); len(bad) > 0 {
				t.Errorf("mails contradicted by what followed:\n%v", bad)
			}
			if bad := staleScript(t, k, 0); len(bad) == 0 {
				t.Error("without min_notice the script contradicts no mail: it tests nothing")
			}
		})
	}
}
