package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// The GM sets quiet hours and weekends off, declares a vacation for all
// of a player's games from the shell, and sees them in game show --gm.
func TestTimeRulesByCLI(t *testing.T) {
	db := filepath.Join(t.TempDir(), "cli.db")
	must(t, db, "", "player", "set", "bob@example.org", "TZ", "Asia/Tokyo")
	must(t, db, "", "game", "new", "toy", "--id", "g1", "--player", "ann=ann@example.org", "--player", "bob=bob@example.org",
		"--turn-length", "72h", "--quiet-hours", "23:00-07:00", "--weekends", "off")
	out := must(t, db, "", "player", "vacation", "ann@example.org", "2099-12-20", "2099-12-31")
	if !strings.Contains(out, "declared in g1") {
		t.Errorf("player vacation printed:\n%s", out)
	}
	if out := must(t, db, "", "player", "show", "ann@example.org"); !strings.Contains(out, "vacation for every game: 2099-12-20 to 2099-12-31") {
		t.Errorf("player show printed:\n%s", out)
	}
	out = must(t, db, "", "game", "show", "g1", "--gm")
	for _, want := range []string{"quiet hours: 23:00-07:00", "weekends: off", "bob: zone Asia/Tokyo", "ann: zone UTC (the game's), away 2099-12-20 until 2100-01-01"} {
		if !strings.Contains(out, want) {
			t.Errorf("game show --gm lacks %q:\n%s", want, out)
		}
	}
	if out := must(t, db, "", "game", "show", "g1", "--as", "Bob@example.org"); !strings.Contains(out, "bob") {
		t.Errorf("game show --as an address printed:\n%s", out)
	}
	if _, err := cli(t, db, "", "game", "show", "g1", "--as", "zed@example.org"); err == nil {
		t.Error("game show --as an address with no seat worked")
	}
	if _, err := cli(t, db, "", "game", "new", "toy", "--id", "g2", "--player", "ann=ann@example.org", "--player", "cy=cy@example.org",
		"--quiet-hours", "night"); err == nil || !strings.Contains(err.Error(), "quiet hours") {
		t.Errorf("quiet hours \"night\": %v", err)
	}
	if _, err := cli(t, db, "", "player", "vacation", "ann@example.org", "2099-12-31", "2099-12-20"); err == nil {
		t.Error("a vacation ending before it starts was taken")
	}
}
