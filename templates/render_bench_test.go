package templates

import (
	"testing"

	"orrery/engine"
	"orrery/games/burning"
	"orrery/games/prosper"
)

// BenchmarkRenderReport renders one player's report mail (subject, text
// and HTML) of a Burning Planets and a Prosper game eight steps in, as
// the mailer does for every report it sends: in a backlog drain rendering
// was a fifth of the daemon's CPU.
func BenchmarkRenderReport(b *testing.B) {
	for _, rs := range []engine.Ruleset{burning.Ruleset(), prosper.Ruleset()} {
		b.Run(rs.Info().Name, func(b *testing.B) {
			rep, _ := botReport(b, rs, 8)
			set, err := New("")
			if err != nil {
				b.Fatal(err)
			}
			d := &Data{Game: "g", Title: rep.Title, Player: rep.Player, Secret: "s", Report: rep,
				Picture: &Picture{CID: "board@x", Alt: "the board", Width: 860}}
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

// BenchmarkNew is what a daemon's start spends on its templates: the
// embedded set, parsed once a process and shared ("embedded"), and a set
// with an override directory, parsed at every New ("override": every kind
// in every language, as every New did before the embedded set was shared).
func BenchmarkNew(b *testing.B) {
	b.Run("embedded", func(b *testing.B) {
		for b.Loop() {
			if _, err := New(""); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("override", func(b *testing.B) {
		dir := b.TempDir()
		for b.Loop() {
			if _, err := New(dir); err != nil {
				b.Fatal(err)
			}
		}
	})
}
