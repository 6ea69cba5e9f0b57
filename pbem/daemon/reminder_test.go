package daemon_test

import (
	"context"
	"testing"
	"time"

	"orrery/engine/game"
	"orrery/engine/store"
	"orrery/pbem/daemon"
)

// TestReminderSaysWhatAndWhere (issue 44): a reminder mail says what is
// still expected of its reader and links to their private page.
func TestReminderSaysWhatAndWhere(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	h := newHarness(t, func(c *daemon.Config) {
		c.Now = func() time.Time { return now }
		c.RepliesPerHour = 1000
		c.WebLink = func(tx store.Tx, g *game.Game, p game.Player) (string, error) {
			return "https://orrery.example.org/p/" + g.ID + "/" + p.Name, nil
		}
	})
	settings := game.Settings{Early: true, TurnLength: 48 * time.Hour, Reminders: []time.Duration{24 * time.Hour}}
	g, err := h.d.Service().Create(context.Background(), game.CreateRequest{ID: "g2", Ruleset: "toy",
		Players:  []game.PlayerSpec{{Name: "ann", Email: "ann@example.org"}, {Name: "bob", Email: "bob@example.org"}},
		Options:  map[string]string{"finish": "30"},
		Settings: &settings})
	if err != nil {
		t.Fatal(err)
	}
	h.g = g
	var ask string
	for _, p := range g.PromptsFor("bob") {
		if p.Kind.Blocks() {
			ask = p.Ask
		}
	}
	h.flush()
	h.handle(h.mail("ann@example.org", "[g2 "+h.secret("ann")+"]", "push 1"))
	h.flush()
	now = now.Add(25 * time.Hour)
	h.tick()
	one(t, to(h.flush(), "bob@example.org"), "bob", "Reminder: your orders are due", "Still expected of you: "+ask,
		"https://orrery.example.org/p/g2/bob")
}
