package burning

import (
	"slices"
	"strings"
	"testing"

	"orrery/engine"
	"orrery/engine/enginetest"
)

// TestEventsSayWhomTheyConcern (issue 44, your news first): in a game on
// messages an event is about the seats it names, so each reader's report
// opens with their own ships' and planets' news; an event that names no
// seat is no one's news.
func TestEventsSayWhomTheyConcern(t *testing.T) {
	players := []string{"ann", "bob", "cyd"}
	about, events := 0, 0
	enginetest.Walk(t, Ruleset(), enginetest.Options{Players: players, Seed: 5, MaxSteps: 40}, func(step int, st engine.State) {
		for _, e := range st.(*State).events {
			events++
			for _, p := range e.About {
				if !slices.Contains(players, p) || !strings.Contains(e.Text, p) {
					t.Errorf("step %d: %q is said to concern %s", step, e.Text, p)
				}
			}
			for _, p := range players {
				if strings.Contains(e.Text, p+" ") && !slices.Contains(e.About, p) && !e.Concerns(p) {
					t.Errorf("step %d: %q names %s but is not their news", step, e.Text, p)
				}
			}
			if len(e.About) > 0 {
				about++
			}
		}
	})
	if events == 0 || about == 0 {
		t.Fatalf("%d events, %d of them anyone's news: the test saw nothing", events, about)
	}
}
