package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"orrery/engine/lang"
	"orrery/pbem/web"
)

// archiveCommand is `orrery game archive`, listed with the game commands.
func archiveCommand() subcommand {
	return subcommand{"archive", "game archive ID --out DIR [--export-running] [--lang ru]",
		"Writes the game's public web pages as static files into DIR: index.html (the\n" +
			"game's page), a page, JSON report and picture per step, the dice page with\n" +
			"its in-browser check, the Atom feed, and game.json, the game's export without\n" +
			"any player's secret or address (the dice secret only once the game is over).\n" +
			"Put DIR on any static host. While the game runs, game.json is left out (its\n" +
			"orders may hold what the rules keep hidden) unless --export-running. The\n" +
			"pages are in the language of --lang, else the game's players' own, else English.", gameArchive}
}

// filesMarker starts the answer of a forwarded `game archive`: the daemon
// writes no files for a command it was sent (its files are not the
// sender's), so it sends them back and the sender's own process writes them.
const filesMarker = "orrery-files/1\n"

// archiveReply is what a daemon sends back after filesMarker.
type archiveReply struct {
	Dir   string     `json:"dir,omitempty"` // the sender's --out
	Files []web.File `json:"files"`
	Notes []string   `json:"notes,omitempty"`
}

func gameArchive(ctx context.Context, e *env, args []string) error {
	c, fs, db := gameFlags(e, "archive")
	out := fs.String("out", "", "folder to write the pages into (created if needed)")
	running := fs.Bool("export-running", false, "add game.json for a game still running (without its dice secret)")
	language := fs.String("lang", "", "the pages' language (en, ru); default: the game's players' own, else English")
	id, err := parseOneID(fs, args, c.usage)
	if err != nil {
		return err
	}
	var tag lang.Tag
	if *language != "" {
		t, ok := lang.Parse(*language)
		if !ok {
			return fmt.Errorf("game archive --lang %q: the pages are written in en or ru", *language)
		}
		tag = t
	}
	// Run by the daemon for a forwarded command, it sends the files back
	// and the sender writes them where its --out says.
	forwarded := e.shared != nil
	if *out == "" && !forwarded {
		return errors.New("game archive needs --out DIR, the folder to write the pages into")
	}
	svc, done, err := db.open(e)
	if err != nil {
		return err
	}
	defer done()
	site, err := newSite(svc, "", "", nil)
	if err != nil {
		return err
	}
	files, notes, err := site.Archive(ctx, id, web.ArchiveOptions{ExportRunning: *running, Lang: tag})
	if err != nil {
		return err
	}
	rep := archiveReply{Dir: *out, Files: files, Notes: notes}
	if forwarded {
		io.WriteString(e.stdout, filesMarker)
		return json.NewEncoder(e.stdout).Encode(rep)
	}
	return writeArchive(e, rep)
}

// writeArchive writes an archive's files under rep.Dir and says what it did.
func writeArchive(e *env, rep archiveReply) error {
	if err := os.MkdirAll(rep.Dir, 0o755); err != nil {
		return fmt.Errorf("create %s: %w", rep.Dir, err)
	}
	var size int
	for _, f := range rep.Files {
		name := filepath.FromSlash(f.Name)
		if !filepath.IsLocal(name) {
			return fmt.Errorf("the archive names a file outside its folder: %q", f.Name)
		}
		path := filepath.Join(rep.Dir, name)
		if err := mkdirsNoLinks(rep.Dir, filepath.Dir(name)); err != nil {
			return err
		}
		if err := writeOut(path, f.Data, 0o644, replaceFile); err != nil {
			return fmt.Errorf("write %s: %w", path, err)
		}
		size += len(f.Data)
	}
	fmt.Fprintf(e.stdout, "wrote %d files (%d KB) to %s; open %s\n", len(rep.Files), (size+1023)/1024, rep.Dir, filepath.Join(rep.Dir, "index.html"))
	for _, n := range rep.Notes {
		fmt.Fprintf(e.stdout, "note: %s\n", n)
	}
	return nil
}

// mkdirsNoLinks makes the folders of rel under root, refusing a symbolic
// link among them: a link an archive's folder held (say assets -> /etc)
// would have the pages written wherever it points. root itself is the
// user's --out, and may be a link.
func mkdirsNoLinks(root, rel string) error {
	dir := root
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		if part == "." || part == "" {
			continue
		}
		dir = filepath.Join(dir, part)
		fi, err := os.Lstat(dir)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			if err := os.Mkdir(dir, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
				return fmt.Errorf("create %s: %w", dir, err)
			}
			continue
		case err != nil:
			return err
		case fi.Mode()&fs.ModeSymlink != 0:
			return fmt.Errorf("%s is a symbolic link: the archive is not written through it; remove it or name another folder", dir)
		case !fi.IsDir():
			return fmt.Errorf("%s is not a folder", dir)
		}
	}
	return nil
}

// receiveFiles writes what a daemon sent back for a forwarded command
// into dir, the sender's --out, if it sent files; it reports false when
// out is ordinary output.
func receiveFiles(e *env, out, dir string) (bool, error) {
	payload, ok := strings.CutPrefix(out, filesMarker)
	if !ok {
		return false, nil
	}
	var rep archiveReply
	if err := json.Unmarshal([]byte(payload), &rep); err != nil {
		return true, fmt.Errorf("read the files the daemon sent: %w", err)
	}
	if dir == "" {
		return true, errors.New("the daemon sent files, and no --out says where to write them")
	}
	rep.Dir = dir
	return true, writeArchive(e, rep)
}

// flagValue is the value of --name (or -name, =VALUE or a separate one)
// in args, "" when absent.
func flagValue(args []string, name string) string {
	for i, a := range args {
		n, v, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || n != name {
			continue
		}
		if !hasValue && i+1 < len(args) {
			v = args[i+1]
		}
		return v
	}
	return ""
}
