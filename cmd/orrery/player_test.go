package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"orrery/engine"
	"orrery/games"
	"orrery/games/burning"
)

// TestPlayerSettingsByCLI: the GM sets an address's language and zone;
// a Burning game made afterwards starts that player in it.
func TestPlayerSettingsByCLI(t *testing.T) {
	db := filepath.Join(t.TempDir(), "cli.db")
	out := must(t, db, "", "player", "set", "Ann <ANN@example.org>", "lang", "Russian")
	if !strings.Contains(out, "ann@example.org: LANG = ru") || !strings.Contains(out, "TZ        UTC (not set: the default)") {
		t.Errorf("player set printed:\n%s", out)
	}
	must(t, db, "", "player", "set", "ann@example.org", "TZ", "Europe/Moscow")
	out = must(t, db, "", "player", "show", "ann@example.org")
	if !strings.Contains(out, "LANG      ru") || !strings.Contains(out, "TZ        Europe/Moscow") || !strings.Contains(out, "mail: ok") ||
		!strings.Contains(out, "record: 0 games") {
		t.Errorf("player show printed:\n%s", out)
	}
	if out, err := cli(t, db, "", "player", "set", "ann@example.org", "TZ", "Mars/Olympus"); err == nil || !strings.Contains(err.Error(), "Europe/Moscow") {
		t.Errorf("a bad zone: %v\n%s", err, out)
	}
	if _, err := cli(t, db, "", "player", "show", "nobody"); err == nil {
		t.Error("show of a non-address should fail")
	}
	var buf bytes.Buffer
	e := &env{stdin: strings.NewReader(""), stdout: &buf, stderr: &buf, rulesets: games.All()}
	err := run(context.Background(), e, []string{"game", "new", "burning", "--id", "b1", "--db", db,
		"--player", "ann=ann@example.org", "--player", "bob=bob@example.org"})
	if err != nil {
		t.Fatalf("game new: %v\n%s", err, buf.String())
	}
	svc, done, err := (&dbFlags{db: db}).open(e)
	if err != nil {
		t.Fatal(err)
	}
	defer done()
	for p, want := range map[string]string{"ann": "ru", "bob": "en"} {
		v, err := svc.View(context.Background(), "b1", p)
		if err != nil {
			t.Fatal(err)
		}
		if got := burning.Ruleset().(engine.Languages).ViewLanguage(v); got != want {
			t.Errorf("%s plays in %s, want %s", p, got, want)
		}
	}
}
