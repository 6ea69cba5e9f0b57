package daemon_test

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"orrery/engine"
	"orrery/engine/game"
	"orrery/engine/store"
	"orrery/games/burning"
	"orrery/pbem/daemon"
	"orrery/pbem/outbox"
	"orrery/pbem/reportjson"
	"orrery/templates"
)

// BenchmarkBurningReport builds one player's report mail of a 6-player
// Burning Planets game some turns in, as the mailer and the sender do:
// the report from the step's state, the templates (text and HTML), the
// report.json, the board picture as PNG, and the MIME message. The issue
// asks for under 20 ms.
func BenchmarkBurningReport(b *testing.B) {
	st, err := store.Open(filepath.Join(b.TempDir(), "g.db"), store.Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	now := time.Date(2026, 11, 22, 20, 0, 0, 0, time.UTC)
	svc := game.New(st, []engine.Ruleset{burning.Ruleset()}, game.WithClock(func() time.Time { return now }))
	var steps []game.Step
	hook := func(tx store.Tx, c *game.Change) error { steps = append(steps, c.Steps...); return nil }
	var specs []game.PlayerSpec
	for i := 0; i < 6; i++ {
		specs = append(specs, game.PlayerSpec{Name: fmt.Sprintf("p%d", i+1), Bot: true})
	}
	if _, err := svc.Create(context.Background(), game.CreateRequest{ID: "b6", Ruleset: "burning", DiceSecret: "bench",
		Players: specs, Options: map[string]string{"turns": "5"}}, hook); err != nil {
		b.Fatal(err)
	}
	step := steps[len(steps)*2/3]
	set, err := templates.New("")
	if err != nil {
		b.Fatal(err)
	}
	pics := daemon.ViewPictures{}
	for _, picture := range []bool{true, false} {
		b.Run(fmt.Sprintf("picture=%v", picture), func(b *testing.B) {
			var size int
			cpu0 := cpuTime()
			for b.Loop() {
				rep, err := step.Report("p1")
				if err != nil {
					b.Fatal(err)
				}
				d := &templates.Data{Game: "b6", Title: rep.Title, Player: "p1", Secret: "s", Report: rep}
				d.Translator, _ = burning.Ruleset().(engine.Translator)
				var png []byte
				m := outbox.Mail{MessageID: "x@y", From: "bot@example.org", To: []string{"p1@example.org"}, Date: now}
				if picture {
					alt, w, _ := pics.Describe(rep.View)
					d.Picture = &templates.Picture{CID: "board@y", Alt: alt, Width: w}
					m.Picture = &outbox.Picture{ContentID: "board@y", Name: "board.png"}
					if png, err = pics.PNG(rep.View); err != nil {
						b.Fatal(err)
					}
				}
				c, err := set.Render(templates.Report, d)
				if err != nil {
					b.Fatal(err)
				}
				js, err := reportjson.Marshal(rep)
				if err != nil {
					b.Fatal(err)
				}
				m.Subject, m.Text, m.HTML = c.Subject, c.Text, c.HTML
				m.Files = []outbox.File{{Name: "report.json", ContentType: "application/json", Data: js}}
				msg, err := outbox.ComposeWith(m, png)
				if err != nil {
					b.Fatal(err)
				}
				var buf bytes.Buffer
				if _, err := msg.WriteTo(&buf); err != nil {
					b.Fatal(err)
				}
				size = buf.Len()
			}
			// CPU time beside wall time: the machine is shared, and wall
			// time swings with the others' load.
			b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/1000/float64(b.N), "cpu-ms/op")
			b.ReportMetric(float64(size), "mail-bytes")
		})
	}
}

// cpuTime is the process's user and system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
