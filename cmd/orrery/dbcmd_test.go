package main

import (
	"path/filepath"
	"strings"
	"testing"

	"orrery/engine/store/storetest"
)

// TestDBCopyBothWays plays a game on bbolt, copies it to PostgreSQL, plays
// on there with the same commands (--db postgres:DSN reaches the database
// directly), and copies it back: each copy is verified by replay, the
// games read the same, and a copy into a store that holds data is refused.
func TestDBCopyBothWays(t *testing.T) {
	dsn := storetest.NewSchema(t)
	pg := "postgres:" + dsn
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.db"), filepath.Join(dir, "b.db")
	must(t, a, "", "game", "new", "toy", "--id", "g1", "--player", "ann=ann@example.org", "--player", "bob=bob@example.org")
	must(t, a, "push 2\n", "orders", "g1", "--as", "ann", "-f", "-")

	out, err := cli(t, "", "", "game", "list", "--db", pg)
	if err == nil || !strings.Contains(out+err.Error(), "orrery db migrate") {
		t.Errorf("a command on a database with no schema gave %v\n%s", err, out)
	}
	want := must(t, a, "", "game", "show", "g1", "--gm")
	out = must(t, "", "", "db", "copy", "--from", "bbolt:"+a, "--to", pg)
	if !strings.Contains(out, "copied 1 games") || !strings.Contains(out, "verified 1 games") || !strings.Contains(out, "clean") {
		t.Fatalf("db copy to postgres printed:\n%s", out)
	}
	if _, err := cli(t, a, "", "game", "list"); err == nil || !strings.Contains(err.Error(), "were copied to postgres:") {
		t.Errorf("a command on the copied file: %v", err)
	}
	if got := must(t, pg, "", "game", "show", "g1", "--gm"); got != want {
		t.Errorf("the game reads differently on postgres:\n%s\nwant\n%s", got, want)
	}
	out = must(t, pg, "push 1\n", "orders", "g1", "--as", "bob", "-f", "-")
	if !strings.Contains(out, "resolved") {
		t.Errorf("orders on postgres printed:\n%s", out)
	}
	out = must(t, "", "", "db", "copy", "--from", pg, "--to", "bbolt:"+b, "--keep-source")
	if !strings.Contains(out, "verified 1 games") {
		t.Fatalf("db copy to bbolt printed:\n%s", out)
	}
	if want, got := must(t, pg, "", "game", "log", "g1"), must(t, b, "", "game", "log", "g1"); got != want {
		t.Errorf("the log reads differently after the copy back:\n%s\nwant\n%s", got, want)
	}
	if _, err := cli(t, "", "", "db", "copy", "--from", "bbolt:"+a, "--to", pg); err == nil || !strings.Contains(err.Error(), "not empty") {
		t.Errorf("a copy into a database that holds games gave %v", err)
	}
	if _, err := cli(t, "", "", "db", "copy", "--from", "bbolt:"+a, "--to", "bbolt:"+b); err == nil || !strings.Contains(err.Error(), "exists") {
		t.Errorf("a copy over an existing file gave %v", err)
	}
}

// The DSN's password never shows, whatever fails (no server is needed:
// nothing listens on port 1).
func TestDSNPasswordNeverShown(t *testing.T) {
	bad := "postgres://orrery:hunter2secret@127.0.0.1:1/none?sslmode=disable&connect_timeout=2"
	for _, args := range [][]string{
		{"game", "list", "--db", "postgres:" + bad},
		{"game", "show", "nope", "--gm", "--db", bad},
		{"db", "migrate", "--db", "postgres:" + bad},
		{"db", "copy", "--from", "postgres:" + bad, "--to", "bbolt:" + filepath.Join(t.TempDir(), "x.db")},
	} {
		out, err := cli(t, "", "", args...)
		if err == nil {
			t.Errorf("%v did not fail", args)
			continue
		}
		if strings.Contains(out+err.Error(), "hunter2secret") {
			t.Errorf("%v showed the password: %v\n%s", args, err, out)
		}
	}
}

// TestDBCopyMarksItsSourceMoved: after db copy the old file says where the
// games went, to every command given it (and to serve), instead of
// answering from games nobody plays any more; --keep-source leaves it in
// use, db unmove takes the mark off, and a copy of a marked store is not
// marked itself.
func TestDBCopyMarksItsSourceMoved(t *testing.T) {
	dir := t.TempDir()
	a, b, c, k := filepath.Join(dir, "a.db"), filepath.Join(dir, "b.db"), filepath.Join(dir, "c.db"), filepath.Join(dir, "k.db")
	must(t, a, "", "game", "new", "toy", "--id", "g1", "--player", "ann=ann@example.org", "--player", "bob=bob@example.org")
	out := must(t, "", "", "db", "copy", "--from", "bbolt:"+a, "--to", "bbolt:"+k, "--keep-source")
	if strings.Contains(out, "marked") {
		t.Errorf("db copy --keep-source marked its source:\n%s", out)
	}
	must(t, a, "", "game", "show", "g1", "--gm")
	out = must(t, "", "", "db", "copy", "--from", "bbolt:"+a, "--to", "bbolt:"+b)
	if !strings.Contains(out, "marked "+a+" as moved to "+b) {
		t.Errorf("db copy printed:\n%s", out)
	}
	for _, args := range [][]string{{"game", "show", "g1", "--gm"}, {"game", "list"}, {"orders", "g1", "--as", "ann", "-f", "-"}} {
		_, err := cli(t, a, "push 1\n", args...)
		if err == nil || !strings.Contains(err.Error(), "were copied to "+b) || !strings.Contains(err.Error(), "orrery db unmove --db "+a) {
			t.Errorf("%v on the moved file: %v", args, err)
		}
	}
	must(t, b, "", "game", "show", "g1", "--gm") // the copy is in use
	out = must(t, "", "", "db", "copy", "--from", "bbolt:"+a, "--to", "bbolt:"+c, "--keep-source")
	if !strings.Contains(out, "note: "+a+" was marked as moved to "+b) {
		t.Errorf("a copy of a moved store printed:\n%s", out)
	}
	must(t, c, "", "game", "show", "g1", "--gm") // a copy of a marked store is not marked
	out = must(t, a, "", "db", "unmove")
	if !strings.Contains(out, "is in use again") {
		t.Errorf("db unmove printed:\n%s", out)
	}
	must(t, a, "", "game", "show", "g1", "--gm")
	if out := must(t, a, "", "db", "unmove"); !strings.Contains(out, "not marked") {
		t.Errorf("db unmove twice printed:\n%s", out)
	}
}
