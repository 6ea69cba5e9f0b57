package daemon_test

import (
	"testing"
	"time"

	"orrery/engine/game"
	"orrery/engine/store"
	"orrery/pbem/daemon"
)

// TestReminderSaysWhatAndWhere (issue 44): a reminder mail says what is
// still expected of its reader and links to their private page.
func TestReminderSaysWhatAndWhere(t *testing.T) {
	h, now := clocked(t, game.Settings{Early: true, TurnLength: 48 * time.Hour, Reminders: []time.Duration{24 * time.Hour}},
		func(c *daemon.Config) {
			c.WebLink = func(tx store.Tx, g *game.Game, p game.Player) (string, error) {
				return "https://orrery.example.org/p/" + g.ID + "/" + p.Name, nil
			}
		})
	var ask string
	for _, p := range h.g.PromptsFor("bob") {
		if p.Kind.Blocks() {
			ask = p.Ask
		}
	}
	h.handle(h.mail("ann@example.org", "[g2 "+h.secret("ann")+"]", "push 1"))
	h.flush()
	*now = now.Add(25 * time.Hour)
	h.tick()
	one(t, to(h.flush(), "bob@example.org"), "bob", "Reminder: your orders are due", "Still expected of you: "+ask,
		"https://orrery.example.org/p/g2/bob")
}
