package templates

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"orrery/engine"
	"orrery/engine/enginetest/toy"
	"orrery/engine/game"
	"orrery/engine/store"
)

// TestRealGame renders the mails of a real game played through engine/game
// (the toy race, so that this package's tests do not move with a real
// ruleset's wording): the welcome, the ack and each player's report must
// carry what the engine reported, for each player.
func TestRealGame(t *testing.T) {
	st, err := store.Open(filepath.Join(t.TempDir(), "g.db"), store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	now := time.Date(2026, 11, 22, 20, 0, 0, 0, time.UTC)
	rs := toy.Ruleset()
	svc := game.New(st, []engine.Ruleset{rs}, game.WithClock(func() time.Time { return now }))
	ctx := context.Background()
	g, err := svc.Create(ctx, game.CreateRequest{ID: "race1", Ruleset: "toy", DiceSecret: "fixed",
		Players: []game.PlayerSpec{{Name: "ann", Email: "ann@example.org"}, {Name: "bob", Email: "bob@example.org"}}})
	if err != nil {
		t.Fatal(err)
	}
	set, err := New("")
	if err != nil {
		t.Fatal(err)
	}
	info := rs.Info()
	for _, p := range g.Players {
		rep, err := svc.Report(ctx, g.ID, p.Name)
		if err != nil {
			t.Fatal(err)
		}
		m, err := set.Render(Welcome, &Data{Game: g.ID, Title: info.Title, Player: p.Name, Secret: p.Secret,
			Info: &info, Players: g.Players, Report: rep})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(m.Subject, "[race1 "+p.Secret+"]") || !strings.Contains(m.Text, "SECRET "+p.Secret) ||
			!strings.Contains(m.Text, "PUSH <1-3>") || !strings.Contains(m.Text, "How far do you push?") {
			t.Errorf("welcome for %s:\n%s\n%s", p.Name, m.Subject, m.Text)
		}
	}
	res, err := svc.Submit(ctx, game.Input{Game: g.ID, Player: "ann", Text: "push 2", Source: "mail"})
	if err != nil || !res.Accepted {
		t.Fatalf("submit: %v %+v", err, res)
	}
	m, err := set.Render(Ack, &Data{Game: g.ID, Player: "ann", Orders: res.Orders, Prompt: res.Prompt,
		Waiting: res.Game.Waiting(), Deadline: res.Game.Deadline})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(m.Text, "  PUSH 2\n") || !strings.Contains(m.Text, "Still to send: bob") {
		t.Errorf("ack:\n%s", m.Text)
	}
	res, err = svc.Submit(ctx, game.Input{Game: g.ID, Player: "bob", Text: "PUSH 3", Source: "mail"})
	if err != nil || !res.Accepted || len(res.Steps) != 1 {
		t.Fatalf("submit: %v %+v", err, res)
	}
	step := res.Steps[0]
	for _, p := range g.Players {
		rep, err := step.Report(p.Name)
		if err != nil {
			t.Fatal(err)
		}
		m, err := set.Render(Report, &Data{Game: g.ID, Player: p.Name, Secret: p.Secret, Report: rep})
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Rolls) != 2 || rep.RevealedSeed == "" {
			t.Fatalf("engine report lacks rolls or seed: %+v", rep)
		}
		for _, want := range []string{rep.Rolls[0].String(), rep.Rolls[1].String(), rep.RevealedSeed,
			rep.RevealedCommitment, rep.NextCommitment, strings.TrimRight(rep.Board, "\n"), "How far do you push?"} {
			if !strings.Contains(m.Text, want) {
				t.Errorf("%s's report lacks %q:\n%s", p.Name, want, m.Text)
			}
		}
		if !strings.Contains(m.HTML, "<pre style=") {
			t.Errorf("%s's report has no <pre> board", p.Name)
		}
	}
}
