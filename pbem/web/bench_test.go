package web

import (
	"fmt"
	"net/http/httptest"
	"testing"

	"orrery/engine/enginetest"
	"orrery/games/burning"
)

// BenchmarkPages draws each kind of page of a 6-player Burning Planets game
// 60 bot submissions in, without ETag (every request renders).
func BenchmarkPages(b *testing.B) {
	players := []string{"ann", "bob", "cyd", "dee", "eve", "fay"}
	res := enginetest.PlayBots(b, burning.Ruleset(), enginetest.Options{Players: players, Seed: 3, MaxSteps: 60})
	s := newSite(b, Config{Service: res.Service})
	g := res.Game
	tok := tokenOf(b, res.Service, g.ID, "ann")
	for _, p := range []struct{ name, path string }{
		{"index", "/"},
		{"game", "/g/" + g.ID},
		{"step", fmt.Sprintf("/g/%s/step/%d", g.ID, g.Step/2)},
		{"step.json", fmt.Sprintf("/g/%s/step/%d.json", g.ID, g.Step/2)},
		{"dice", "/g/" + g.ID + "/dice"},
		{"feed", "/g/" + g.ID + "/feed.atom"},
		{"private", "/g/" + g.ID + "/p/" + tok},
	} {
		b.Run(p.name, func(b *testing.B) {
			b.ReportAllocs()
			var size int
			for b.Loop() {
				w := httptest.NewRecorder()
				s.ServeHTTP(w, httptest.NewRequest("GET", p.path, nil))
				if w.Code != 200 {
					b.Fatalf("%s: %d", p.path, w.Code)
				}
				size = w.Body.Len()
			}
			b.ReportMetric(float64(size), "bytes/page")
		})
	}
}
