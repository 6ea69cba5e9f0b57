package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestSeatsByCLI: game new --abandoned bot, game replace --bot with a
// reason and back to a person, game kick with a reason, game players with
// each seat's state and holders, player show with the record, and verify
// across every change of holder.
func TestSeatsByCLI(t *testing.T) {
	db := filepath.Join(t.TempDir(), "cli.db")
	must(t, db, "", "game", "new", "toy", "--id", "s1", "--player", "ann=ann@example.org", "--player", "bob=bob@example.org",
		"--player", "cyd=cyd@example.org", "--abandoned", "bot", "--abandon-after", "2")
	if out, err := cli(t, db, "", "game", "new", "toy", "--id", "s2", "--player", "ann=ann@example.org", "--abandoned", "robot"); err == nil ||
		!strings.Contains(out+err.Error(), "must be defaults, bot or open") {
		t.Errorf("a bad policy: %v %s", err, out)
	}
	out := must(t, db, "", "game", "replace", "s1", "bob", "--bot", "--reason", "moved away")
	if !strings.Contains(out, "the bot now plays bob, from step 1") || !strings.Contains(out, "seat-lost to bob@example.org: The GM gave your seat bob in s1 to the computer: moved away.") {
		t.Errorf("replace --bot printed:\n%s", out)
	}
	if out, err := cli(t, db, "", "game", "replace", "s1", "bob"); err == nil || !strings.Contains(err.Error(), "one of --email or --bot") {
		t.Errorf("replace with neither: %v %s", err, out)
	}
	must(t, db, "PUSH 2", "orders", "s1", "--as", "ann", "-f", "-")
	must(t, db, "PUSH 1", "orders", "s1", "--as", "cyd", "-f", "-")
	out = must(t, db, "", "game", "replace", "s1", "bob", "--email", "dan@example.org")
	if !strings.Contains(out, "dan@example.org now plays bob; new secret") {
		t.Errorf("replace --email printed:\n%s", out)
	}
	out = must(t, db, "", "game", "kick", "s1", "cyd", "--reason", "cheating")
	if !strings.Contains(out, "The GM removed you from s1: cheating.") {
		t.Errorf("kick printed:\n%s", out)
	}
	out = must(t, db, "", "game", "players", "s1")
	for _, want := range []string{"SEAT", "MAIL", "bob   dan@example.org", "cyd   (nobody)", "kicked", "abandoned seats: bot (after 2 steps in a row without orders)",
		"bob          bob@example.org              no step, replaced: moved away", "bob          the bot                      step 1, replaced",
		"bob          dan@example.org              steps 2-now", "cyd          cyd@example.org              step 1, kicked: cheating"} {
		if !strings.Contains(out, want) {
			t.Errorf("game players lacks %q:\n%s", want, out)
		}
	}
	out = must(t, db, "", "player", "show", "cyd@example.org")
	if !strings.Contains(out, "record: 1 game, 1 step played, 0 missed (no orders), 0 seats abandoned, 0 games won") || !strings.Contains(out, "s1 (toy) seat cyd, step 1, 0 missed, kicked") {
		t.Errorf("player show printed:\n%s", out)
	}
	if out := must(t, db, "", "game", "verify", "s1"); !strings.Contains(out, "s1 verified") {
		t.Errorf("verify printed:\n%s", out)
	}
}

// TestSeatByAddress: where a GM command takes a player (--as, game
// replace), the address that holds the seat now names it as well as the
// seat's name, a seat that passed to another player included; the old
// holder's address is refused with the seat and step it held until.
// game replace --name gives the new player their own name, which the
// others' reports show; a name that is another seat's is refused.
func TestSeatByAddress(t *testing.T) {
	db := filepath.Join(t.TempDir(), "cli.db")
	must(t, db, "", "game", "new", "toy", "--id", "s1", "--player", "ann=ann@example.org", "--player", "bob=bob@example.org")
	if out, err := cli(t, db, "", "game", "replace", "s1", "bob@example.org", "--email", "eve@example.org", "--name", "ann"); err == nil ||
		!strings.Contains(err.Error(), "ann is the name of another seat of s1") {
		t.Errorf("a new player named as another seat: %v %s", err, out)
	}
	if out, err := cli(t, db, "", "game", "replace", "s1", "bob@example.org", "--bot", "--name", "Robo"); err == nil ||
		!strings.Contains(err.Error(), "the computer takes no name") {
		t.Errorf("the bot given a name: %v %s", err, out)
	}
	out := must(t, db, "", "game", "replace", "s1", "bob@example.org", "--email", "eve@example.org", "--name", "Eve")
	if !strings.Contains(out, "eve@example.org (Eve) now plays bob; new secret") {
		t.Errorf("replace by address printed:\n%s", out)
	}
	if out := must(t, db, "", "game", "players", "s1"); !strings.Contains(out, "bob          eve@example.org (Eve)") {
		t.Errorf("game players does not show the new player's name:\n%s", out)
	}
	must(t, db, "PUSH 2", "orders", "s1", "--as", "ann@example.org", "-f", "-")
	out = must(t, db, "PUSH 1", "game", "orders", "s1", "--as", "EVE@example.org", "-f", "-")
	if !strings.Contains(out, "Orders for bob accepted") || !strings.Contains(out, "step 1 resolved") {
		t.Errorf("orders --as eve's address printed:\n%s", out)
	}
	if out := must(t, db, "PUSH 1", "orders", "check", "--game", "s1", "--as", "eve@example.org", "-f", "-"); !strings.Contains(out, "orders OK for bob") {
		t.Errorf("orders check --as eve's address printed:\n%s", out)
	}
	if out := must(t, db, "", "game", "show", "s1", "--as", "ann@example.org"); !strings.Contains(out, "Seat bob, played by Eve.") {
		t.Errorf("ann's report does not say who plays bob:\n%s", out)
	}
	for _, args := range [][]string{
		{"orders", "s1", "--as", "bob@example.org", "-f", "-"},
		{"game", "replace", "s1", "bob@example.org", "--bot"},
	} {
		if out, err := cli(t, db, "PUSH 1", args...); err == nil || !strings.Contains(err.Error(), "bob@example.org holds no seat in s1 now: it held bob until step 0 (replaced)") {
			t.Errorf("%v by the old holder's address: %v %s", args, err, out)
		}
	}
	if out, err := cli(t, db, "", "game", "show", "s1", "--as", "nobody@example.org"); err == nil || !strings.Contains(err.Error(), "nobody@example.org holds no seat in s1") {
		t.Errorf("show --as an unknown address: %v %s", err, out)
	}
}
