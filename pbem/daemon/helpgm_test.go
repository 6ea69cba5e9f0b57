package daemon_test

import (
	"strings"
	"testing"

	"orrery/engine/game"
)

// TestHelpListsGMCommandsToTheGMOnly: a player's HELP lists what a player
// may send; the GM's commands go to the GM alone, who is known as for a
// GM command (the GM address with the GM secret).
func TestHelpListsGMCommandsToTheGMOnly(t *testing.T) {
	h, _ := clocked(t, game.Settings{Early: true})
	const gmLine = "GM PAUSE <game> [reason]"
	for _, c := range []struct {
		from, body, addr string
		gm               bool
	}{
		{"ann@example.org", "HELP", "ann@example.org", false},
		{"ann@example.org", "SECRET gm-secret\nHELP", "ann@example.org", false},
		{"stranger@example.org", "HELP toy", "stranger@example.org", false},
		{"Game Master <" + gmAddr + ">", "HELP", gmAddr, false},
		{"Game Master <" + gmAddr + ">", "SECRET wrong\nHELP", gmAddr, false},
		{"Game Master <" + gmAddr + ">", "SECRET gm-secret\nHELP", gmAddr, true},
		{"Game Master <" + gmAddr + ">", "SECRET gm-secret\nHELP toy", gmAddr, true},
	} {
		h.handle(h.mail(c.from, "help", c.body))
		m := one(t, to(h.flush(), c.addr), c.addr, "HELP [ruleset]")
		if got := strings.Contains(m, gmLine); got != c.gm {
			t.Errorf("%s writing %q: GM's commands listed %v, want %v:\n%s", c.from, c.body, got, c.gm, m)
		}
	}
}
