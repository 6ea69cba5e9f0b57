package templates

import (
	"context"
	"html"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"orrery/engine"
	"orrery/engine/game"
	"orrery/engine/store"
	"orrery/games/prosper"
)

// TestProsperGame renders every report of a real Prosper game played by
// bots to its end (capped at a few rounds), for every player: the board must
// arrive intact in the text and in the HTML <pre>, with each die the player
// may see, the seed and commitments, and the final mail must say who won
// and reveal the dice secret. It checks content rather than a golden file,
// so that Prosper may reword its board without breaking this package.
func TestProsperGame(t *testing.T) {
	st, err := store.Open(filepath.Join(t.TempDir(), "g.db"), store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	now := time.Date(2026, 11, 22, 20, 0, 0, 0, time.UTC)
	rs := prosper.Ruleset()
	svc := game.New(st, []engine.Ruleset{rs}, game.WithClock(func() time.Time { return now }))
	var steps []game.Step
	hook := func(tx store.Tx, c *game.Change) error {
		steps = append(steps, c.Steps...)
		return nil
	}
	g, err := svc.Create(context.Background(), game.CreateRequest{ID: "p1", Ruleset: "prosper", DiceSecret: "fixed",
		Options: map[string]string{"turn-limit": "3"},
		Players: []game.PlayerSpec{{Name: "ann", Bot: true}, {Name: "bob", Bot: true}}}, hook)
	if err != nil {
		t.Fatal(err)
	}
	if len(steps) < 3 {
		t.Fatalf("only %d steps played", len(steps))
	}
	set, err := New("")
	if err != nil {
		t.Fatal(err)
	}
	rolls := 0
	for i, step := range steps {
		for _, p := range g.Players {
			rep, err := step.Report(p.Name)
			if err != nil {
				t.Fatal(err)
			}
			m, err := set.Render(Report, &Data{Game: g.ID, Title: rep.Title, Player: p.Name, Secret: p.Secret, Report: rep})
			if err != nil {
				t.Fatal(err)
			}
			board := strings.TrimRight(rep.Board, "\n")
			if !strings.Contains(m.Text, board) {
				t.Fatalf("step %d, %s: board not intact in text:\n%s", i, p.Name, m.Text)
			}
			if !strings.Contains(m.HTML, html.EscapeString(board)) {
				t.Fatalf("step %d, %s: board not intact in HTML", i, p.Name)
			}
			for _, r := range rep.Rolls {
				rolls++
				if !strings.Contains(m.Text, r.String()) {
					t.Errorf("step %d, %s: roll %q missing", i, p.Name, r.String())
				}
			}
			want := []string{rep.RevealedSeed}
			if len(rep.Rolls) > 0 {
				// A step without dice shows its seed only: the
				// commitment to it came in the report before.
				want = append(want, rep.RevealedCommitment)
			}
			if !rep.Outcome.Over {
				want = append(want, rep.NextCommitment) // no next step after the end
			}
			for _, s := range want {
				if !strings.Contains(m.Text, s) {
					t.Errorf("step %d, %s: %q missing", i, p.Name, s)
				}
			}
			if i == len(steps)-1 && g.Over() {
				if !strings.Contains(m.Subject, "Game over") || !strings.Contains(m.Text, "GAME OVER") ||
					(rep.DiceSecret != "" && !strings.Contains(m.Text, rep.DiceSecret)) {
					t.Errorf("final report for %s:\n%s\n%s", p.Name, m.Subject, m.Text)
				}
			}
		}
	}
	t.Logf("%d steps, %d rolls rendered, game over: %v", len(steps), rolls, g.Over())
	if testing.Verbose() {
		rep, _ := steps[len(steps)-1].Report("ann")
		m, _ := set.Render(Report, &Data{Game: g.ID, Title: rep.Title, Player: "ann", Secret: "s", Report: rep})
		t.Logf("last report for ann:\n%s\n%s", m.Subject, m.Text)
	}
}
