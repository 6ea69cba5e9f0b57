package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"orrery/engine/game"
	"orrery/engine/store"
	"orrery/games"
)

// TestKeptSeatByCLI: game players shows a seat whose mail bounces as
// unreachable and kept for its holder, with how much of the window it has
// played by defaults (issue 39), not as open to JOIN.
func TestKeptSeatByCLI(t *testing.T) {
	db := filepath.Join(t.TempDir(), "cli.db")
	must(t, db, "", "game", "new", "toy", "--id", "k1", "--player", "ann=ann@example.org", "--player", "bob=bob@example.org",
		"--abandoned", "open", "--early")
	st, err := store.Open(db, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := game.New(st, games.All()).MarkUnreachable(context.Background(), "k1", "bob@example.org", "3 hard bounces"); err != nil {
		t.Fatal(err)
	}
	st.Close()
	out := must(t, db, "", "game", "players", "k1")
	if !strings.Contains(out, "unreachable, kept for its holder: 0 of 3 steps by defaults") || strings.Contains(out, "open to JOIN") {
		t.Errorf("game players:\n%s", out)
	}
}
