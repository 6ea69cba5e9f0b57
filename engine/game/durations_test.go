package game_test

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"orrery/engine/game"
)

// goDuration is a length of time as Go prints it ("2h0m0s"), which no
// player should read.
var goDuration = regexp.MustCompile(`\b\d+h\d+m|\b\d+m\d+s\b`)

// TestNoticesSayDurationsAsPeopleDo: the reminder, the resume and a capped
// vacation name their lengths of time in words.
func TestNoticesSayDurationsAsPeopleDo(t *testing.T) {
	ctx := context.Background()
	svc, clk := newService(t)
	createWith(t, svc, game.Settings{Early: true, TurnLength: 72 * time.Hour, Reminders: []time.Duration{27 * time.Hour},
		MaxVacation: 36 * time.Hour}, "ann", "bob")
	clk.t = clk.t.Add(45 * time.Hour)
	_, ns := tick(t, svc)
	_, ns2, err := svc.Pause(ctx, "g", "a server move")
	if err != nil {
		t.Fatal(err)
	}
	ns = append(ns, ns2...)
	clk.t = clk.t.Add(50*time.Hour + 10*time.Minute)
	if _, ns2, err = svc.Resume(ctx, "g"); err != nil {
		t.Fatal(err)
	}
	ns = append(ns, ns2...)
	if _, ns2, err = svc.DeclareVacation(ctx, "g", "bob", clk.t, clk.t.Add(5*24*time.Hour)); err != nil {
		t.Fatal(err)
	}
	ns = append(ns, ns2...)
	want := map[string]string{
		"reminder": "(1 day 3 hours from now)",
		"resumed":  "moves by the 2 days 2 hours the game was paused",
		"vacation": "(capped at 1 day 12 hours by the game's policy)",
	}
	for _, n := range ns {
		if goDuration.MatchString(n.Text) {
			t.Errorf("%s notice says a duration as Go prints it: %q", n.Kind, n.Text)
		}
		if w, ok := want[n.Kind]; ok {
			if !strings.Contains(n.Text, w) {
				t.Errorf("%s notice: %q, want it to say %q", n.Kind, n.Text, w)
			}
			delete(want, n.Kind)
		}
	}
	for k := range want {
		t.Errorf("no %s notice among %s", k, kinds(ns))
	}
}
