package templates

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"orrery/engine"
	"orrery/engine/game"
	"orrery/engine/store"
	"orrery/games/burning"
	"orrery/games/prosper"
)

// BenchmarkRenderReport renders one player's report mail (subject, text
// and HTML) of a Burning Planets and a Prosper game some turns in, as the
// mailer does for every report it sends: in a backlog drain rendering
// was a fifth of the daemon's CPU.
func BenchmarkRenderReport(b *testing.B) {
	for _, c := range []struct {
		rs   engine.Ruleset
		opts map[string]string
	}{{burning.Ruleset(), map[string]string{"turns": "5"}}, {prosper.Ruleset(), map[string]string{"turn-limit": "5"}}} {
		rs := c.rs
		b.Run(rs.Info().Name, func(b *testing.B) {
			st, err := store.Open(filepath.Join(b.TempDir(), "g.db"), store.Options{NoSync: true})
			if err != nil {
				b.Fatal(err)
			}
			defer st.Close()
			now := time.Date(2026, 11, 22, 20, 0, 0, 0, time.UTC)
			svc := game.New(st, []engine.Ruleset{rs}, game.WithClock(func() time.Time { return now }))
			var steps []game.Step
			hook := func(tx store.Tx, c *game.Change) error { steps = append(steps, c.Steps...); return nil }
			var specs []game.PlayerSpec
			for i := range 5 {
				specs = append(specs, game.PlayerSpec{Name: fmt.Sprintf("p%d", i+1), Bot: true})
			}
			if _, err := svc.Create(context.Background(), game.CreateRequest{ID: "g", Ruleset: rs.Info().Name, DiceSecret: "bench",
				Players: specs, Options: c.opts}, hook); err != nil {
				b.Fatal(err)
			}
			rep, err := steps[len(steps)*2/3].Report("p1")
			if err != nil {
				b.Fatal(err)
			}
			set, err := New("")
			if err != nil {
				b.Fatal(err)
			}
			d := &Data{Game: "g", Title: rep.Title, Player: "p1", Secret: "s", Report: rep, Picture: &Picture{CID: "board@x", Alt: "the board", Width: 860}}
			d.Translator, _ = rs.(engine.Translator)
			var size int
			for b.Loop() {
				m, err := set.Render(Report, d)
				if err != nil {
					b.Fatal(err)
				}
				size = len(m.Subject) + len(m.Text) + len(m.HTML)
			}
			b.ReportMetric(float64(size), "bytes")
		})
	}
}
