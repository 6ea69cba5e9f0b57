//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOutRefusesSymlink: no --out writer follows a symbolic link to
// overwrite the file it points to (issue 39): game export (here and
// through a running daemon), secret new, and the files of game archive.
// The link stays a link, its target keeps its bytes, and the error says
// why.
func TestOutRefusesSymlink(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "x.db")
	must(t, db, "", "game", "new", "toy", "--id", "g", "--player", "ann=ann@example.org")
	victim := filepath.Join(dir, "victim")
	const precious = "precious\n"
	link := func(name string) string {
		t.Helper()
		if err := os.WriteFile(victim, []byte(precious), 0o644); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, name)
		os.Remove(p)
		if err := os.Symlink(victim, p); err != nil {
			t.Fatal(err)
		}
		return p
	}
	intact := func(what, p string) {
		t.Helper()
		if b, _ := os.ReadFile(victim); string(b) != precious {
			t.Errorf("%s: the link's target was overwritten: %.40q…", what, b)
		}
		if fi, err := os.Lstat(p); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Errorf("%s: %s is no longer the link (%v)", what, p, err)
		}
	}
	for _, c := range []struct {
		name string
		args func(p string) []string
		db   string
	}{
		{"game export", func(p string) []string { return []string{"game", "export", "g", "--with-secrets", "--out", p} }, db},
		{"secret new", func(p string) []string { return []string{"secret", "new", "--out", p} }, ""},
	} {
		p := link(strings.ReplaceAll(c.name, " ", "-"))
		out, err := cli(t, c.db, "", c.args(p)...)
		if err == nil || !strings.Contains(err.Error(), "symbolic link") {
			t.Errorf("%s --out LINK: %v\n%s", c.name, err, out)
		}
		intact(c.name, p)
	}
	// A dangling link: what it names must not be created either.
	dangling := filepath.Join(dir, "dangling")
	if err := os.Symlink(filepath.Join(dir, "made-through-the-link"), dangling); err != nil {
		t.Fatal(err)
	}
	if _, err := cli(t, db, "", "game", "export", "g", "--out", dangling); err == nil {
		t.Error("game export --out wrote through a dangling link")
	}
	if _, err := os.Lstat(filepath.Join(dir, "made-through-the-link")); err == nil {
		t.Error("game export --out created the file a dangling link names")
	}

	// game archive: a link in the folder, as a page or as a sub-folder.
	pages := filepath.Join(dir, "pages")
	must(t, db, "", "game", "archive", "g", "--out", pages)
	index := filepath.Join(pages, "index.html")
	os.Remove(index)
	if err := os.WriteFile(victim, []byte(precious), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, index); err != nil {
		t.Fatal(err)
	}
	if out, err := cli(t, db, "", "game", "archive", "g", "--out", pages); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("game archive over a linked page: %v\n%s", err, out)
	}
	intact("game archive", index)
	os.Remove(index)
	elsewhere := filepath.Join(dir, "elsewhere")
	if err := os.Mkdir(elsewhere, 0o755); err != nil {
		t.Fatal(err)
	}
	os.RemoveAll(filepath.Join(pages, "assets"))
	if err := os.Symlink(elsewhere, filepath.Join(pages, "assets")); err != nil {
		t.Fatal(err)
	}
	if out, err := cli(t, db, "", "game", "archive", "g", "--out", pages); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("game archive through a linked folder: %v\n%s", err, out)
	}
	if files, _ := os.ReadDir(elsewhere); len(files) != 0 {
		t.Errorf("game archive wrote %d files through a linked folder", len(files))
	}

	// game export --out through a running daemon: written here, the same way.
	forward := holdDB(t, db, nil)
	p := link("forwarded")
	if out, err := forward("", "game", "export", "g", "--out", p); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("game export --out LINK through the daemon: %v\n%s", err, out)
	}
	intact("game export through the daemon", p)
}

// TestOutWritesANewFile: game export --out replaces a file by a new one
// renamed into place, never rewriting the old one where it is: a second
// name of the old file (a hard link) keeps the old bytes, and no
// temporary file is left beside it.
func TestOutWritesANewFile(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "x.db")
	must(t, db, "", "game", "new", "toy", "--id", "g", "--player", "ann=ann@example.org")
	file, other := filepath.Join(dir, "g.json"), filepath.Join(dir, "other-name")
	if err := os.WriteFile(file, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(file, other); err != nil {
		t.Fatal(err)
	}
	must(t, db, "", "game", "export", "g", "--out", file)
	if b, _ := os.ReadFile(other); string(b) != "old" {
		t.Errorf("the old file was rewritten in place: %.40q…", b)
	}
	if b, _ := os.ReadFile(file); !strings.Contains(string(b), `"id": "g"`) {
		t.Errorf("the export: %q", b)
	}
	assertOwnerOnly(t, file)
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp-") {
			t.Errorf("a temporary file was left: %s", e.Name())
		}
	}
	// A folder at the path is refused, not replaced.
	if _, err := cli(t, db, "", "game", "export", "g", "--out", dir); err == nil {
		t.Error("game export --out DIR wrote something")
	}
}
