package main

import (
	"archive/zip"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"orrery/engine"
	"orrery/pbem/config"
)

// parseLength reads a length of time as people write it: a Go duration
// (72h, 90m, 1h30m) or whole days (3d, and 2d12h). The error says how to
// write one.
func parseLength(s string) (time.Duration, error) {
	t := strings.TrimSpace(s)
	var total time.Duration
	if i := strings.IndexByte(t, 'd'); i > 0 {
		days, err := strconv.Atoi(t[:i])
		if err != nil || days < 0 {
			return 0, fmt.Errorf("%q is not a length of time: write days as 3d, or hours as 72h", s)
		}
		total = time.Duration(days) * 24 * time.Hour
		t = t[i+1:]
		if t == "" {
			return total, nil
		}
	}
	d, err := time.ParseDuration(t)
	if err != nil {
		return 0, fmt.Errorf("%q is not a length of time: write 72h, 3d, 90m or 1h30m", s)
	}
	return total + d, nil
}

// lengthValue is a flag.Value for parseLength.
type lengthValue struct{ d *time.Duration }

func (v lengthValue) String() string {
	if v.d == nil || *v.d == 0 {
		return "0"
	}
	if *v.d%(24*time.Hour) == 0 {
		return fmt.Sprintf("%dd", *v.d/(24*time.Hour))
	}
	return v.d.String()
}

func (v lengthValue) Set(s string) error {
	d, err := parseLength(s)
	if err != nil {
		return err
	}
	*v.d = d
	return nil
}

// lengthFlag is fs.Duration that also takes days (3d).
func lengthFlag(fs *flag.FlagSet, name string, def time.Duration, usage string) *time.Duration {
	d := def
	fs.Var(lengthValue{&d}, name, usage)
	return &d
}

// checkTimeZone loads an IANA time zone name; for a name it does not know
// it suggests the zones whose city or name matches ("Berlin" gives
// Europe/Berlin).
func checkTimeZone(name string) error {
	if _, err := time.LoadLocation(name); err == nil {
		return nil
	}
	msg := fmt.Sprintf("--tz %q is not a time zone name", name)
	if s := suggestZones(name); len(s) > 0 {
		return fmt.Errorf("%s: did you mean %s?", msg, strings.Join(s, " or "))
	}
	return fmt.Errorf("%s: write an IANA name like Europe/Berlin, America/New_York or UTC", msg)
}

// suggestZones returns up to three known zones whose last part (the city)
// or whole name matches name, ignoring case, spaces and underscores.
func suggestZones(name string) []string {
	norm := func(s string) string {
		return strings.ToLower(strings.NewReplacer(" ", "", "_", "", "-", "").Replace(s))
	}
	want := norm(name)
	var exact, partial []string
	for _, z := range zoneNames() {
		city := z[strings.LastIndexByte(z, '/')+1:]
		switch {
		case norm(city) == want || norm(z) == want:
			exact = append(exact, z)
		case len(want) >= 4 && strings.Contains(norm(z), want):
			partial = append(partial, z)
		}
	}
	out := append(exact, partial...)
	return out[:min(3, len(out))]
}

// zoneNames lists the zones of the system's zoneinfo, or of the zip that
// $ZONEINFO names when the system has none (the file the time package
// itself reads then; runtime.GOROOT is deprecated and names the build
// machine's tree, not this one's).
func zoneNames() []string {
	var out []string
	root := "/usr/share/zoneinfo"
	filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		if first := rel[0]; first < 'A' || first > 'Z' || strings.HasPrefix(rel, "posix/") || strings.HasPrefix(rel, "right/") || strings.Contains(rel, ".") {
			return nil
		}
		out = append(out, filepath.ToSlash(rel))
		return nil
	})
	if len(out) == 0 {
		if zr, err := zip.OpenReader(os.Getenv("ZONEINFO")); err == nil {
			for _, f := range zr.File {
				out = append(out, f.Name)
			}
			zr.Close()
		}
	}
	sort.Strings(out)
	return out
}

// isTerminal reports whether r is a terminal (through the recorder that
// runOrForward puts around standard input).
func isTerminal(r io.Reader) bool {
	if rec, ok := r.(*recorder); ok {
		r = rec.r
	}
	f, ok := r.(*os.File)
	return ok && terminal(f)
}

// table writes aligned columns (text/tabwriter): a long game id or phase
// widens its column instead of breaking the line.
func table(w io.Writer) *tabwriter.Writer { return tabwriter.NewWriter(w, 0, 0, 2, ' ', 0) }

// noCommand is the error for an unknown command or subcommand: it names
// the nearest known one when got looks like a typo of it (engine.Closest:
// `game shwo` suggests `game show`), and where the list is. group is ""
// for a top-level command, else its group ("game").
func noCommand(group, got string, names []string, help string) error {
	join := func(name string) string { return strings.TrimSpace(group + " " + name) }
	if near := engine.Closest(got, names); near != "" {
		return fmt.Errorf("no command `%s`: did you mean `%s`? (%s)", join(got), join(near), help)
	}
	return fmt.Errorf("no command `%s` (%s)", join(got), help)
}

// configPath is the config file a command reads: path (--config), else
// ORRERY_CONFIG; "" for none.
func configPath(path string) string {
	if path == "" {
		path = os.Getenv("ORRERY_CONFIG")
	}
	return path
}

// readConfig is the one reader of the config file for the commands that
// need a few of its keys (the database, the GM's address, the bounce
// policy, the backups, what mail check reads). The file is decoded as
// strictly as orrery serve decodes it, so a misspelt key or a value of the
// wrong type is an error naming the key rather than a silent default; but
// none of serve's checks are made and no defaults are filled, since a GM's
// shell need not hold the servers' passwords. path "" reads nothing and
// gives nil.
func readConfig(path string) (*config.Config, error) {
	if path == "" {
		return nil, nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read config: %w", err)
	}
	c, err := config.Decode(data)
	if err != nil {
		return nil, fmt.Errorf("config %s: %w", path, err)
	}
	return c, nil
}
