// Command testsum reads `go test -json` on standard input and prints what
// plain `go test` prints (a line per package, and the output of every
// failed test), then every skipped test grouped by its reason, and a last
// line "N passed, N failed, N skipped". scripts/test pipes its runs through
// it, so that tests which skip for want of a mail server, root or a
// browser are named, with how to run them, instead of hiding behind "ok".
//
// With -short (for a `go test -short` run, as scripts/test's race pass),
// a test whose reason says it runs without -short is counted apart, as
// "left to the full run", not listed among the skips: it was not missed,
// the full run before it played it.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"orrery/engine/lang"
)

type event struct {
	Action     string
	Package    string
	ImportPath string
	Test       string
	Output     string
}

type skip struct{ pkg, test, reason string }

// summary is what was read so far.
type summary struct {
	out                  io.Writer
	passed, failed, skip int
	short                bool                // a -short run: skips "without -short" are expected
	leftToFull           int                 // those skips, in a -short run
	buffered             map[string][]string // package + test → its output
	skipped              []skip
}

func main() {
	short := flag.Bool("short", false, "the run is go test -short: count tests that run without -short apart")
	flag.Parse()
	s := &summary{out: os.Stdout, short: *short, buffered: map[string][]string{}}
	if err := s.read(os.Stdin); err != nil {
		fmt.Fprintln(os.Stderr, "testsum:", err)
		os.Exit(2)
	}
	s.report()
	if s.failed > 0 {
		os.Exit(1)
	}
}

func (s *summary) read(r io.Reader) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		line := sc.Bytes()
		var e event
		if len(line) == 0 || line[0] != '{' || json.Unmarshal(line, &e) != nil {
			fmt.Fprintln(s.out, string(line)) // not an event: pass it on
			continue
		}
		s.event(e)
	}
	return sc.Err()
}

func (s *summary) event(e event) {
	key := e.Package + " " + e.Test
	switch {
	case e.Action == "build-output":
		fmt.Fprint(s.out, e.Output)
	case e.Test == "" && e.Action == "output":
		if strings.HasPrefix(e.Output, "FAIL\t") {
			s.unfinished(e.Package)
		}
		if e.Output != "PASS\n" { // plain go test shows it only with -v
			fmt.Fprint(s.out, e.Output)
		}
	case e.Test == "" && e.Action == "fail":
		s.unfinished(e.Package)
	case e.Test == "":
	case e.Action == "output":
		s.buffered[key] = append(s.buffered[key], e.Output)
	case e.Action == "pass":
		s.passed++
		delete(s.buffered, key)
	case e.Action == "fail":
		s.failed++
		for _, l := range s.buffered[key] {
			if t := strings.TrimSpace(l); strings.HasPrefix(t, "=== RUN") || strings.HasPrefix(t, "=== PAUSE") || strings.HasPrefix(t, "=== CONT") {
				continue
			}
			fmt.Fprint(s.out, l)
		}
		delete(s.buffered, key)
	case e.Action == "skip":
		why := reason(s.buffered[key])
		if s.short && strings.Contains(why, "without -short") {
			s.leftToFull++
			delete(s.buffered, key)
			break
		}
		s.skip++
		s.skipped = append(s.skipped, skip{e.Package, e.Test, why})
		delete(s.buffered, key)
	}
}

// unfinishedLines is how much of an unfinished test's output is shown: its
// own log lines and the panic come first, then goroutine dumps that can run
// to thousands of lines.
const unfinishedLines = 60

// unfinished shows the tests of pkg that started and never ended: the
// package failed under them (a timeout, a panic in another goroutine, an
// os.Exit). go test -json gives them no "fail" event, so without this a
// timed-out run would show only "FAIL pkg 900s" and not which test hung.
func (s *summary) unfinished(pkg string) {
	var keys []string
	for k := range s.buffered {
		if strings.HasPrefix(k, pkg+" ") {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		s.failed++
		lines := s.buffered[k]
		delete(s.buffered, k)
		fmt.Fprintf(s.out, "--- UNFINISHED: %s (the package failed while it ran)\n", strings.TrimPrefix(k, pkg+" "))
		shown := 0
		for i, l := range lines {
			if t := strings.TrimSpace(l); strings.HasPrefix(t, "=== ") {
				continue
			}
			if shown == unfinishedLines {
				fmt.Fprintf(s.out, "    ... %d more lines (run the test alone with go test -run to see them)\n", len(lines)-i)
				break
			}
			fmt.Fprint(s.out, l)
			shown++
		}
	}
}

// reason is what a skipped test said: its lines other than the test
// runner's own (=== RUN, --- SKIP), which come before or after them.
func reason(lines []string) string {
	var out []string
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "=== ") || strings.HasPrefix(t, "--- ") {
			continue
		}
		// "file_test.go:12: the message"
		if i := strings.Index(t, ": "); i > 0 && strings.Contains(t[:i], ".go:") {
			t = t[i+2:]
		}
		out = append(out, t)
	}
	if len(out) == 0 {
		return "(no reason given)"
	}
	return strings.Join(out, "\n      ")
}

func (s *summary) report() {
	if len(s.skipped) > 0 {
		// Group by package and reason: a reason shared by many subtests
		// (every case of a table against the real servers) is one entry.
		type group struct {
			pkg, reason string
			tests       []string
		}
		var groups []*group
		index := map[string]*group{}
		for _, k := range s.skipped {
			g := index[k.pkg+"\x00"+k.reason]
			if g == nil {
				g = &group{pkg: k.pkg, reason: k.reason}
				index[k.pkg+"\x00"+k.reason] = g
				groups = append(groups, g)
			}
			g.tests = append(g.tests, k.test)
		}
		sort.SliceStable(groups, func(i, j int) bool { return groups[i].pkg < groups[j].pkg })
		fmt.Fprintf(s.out, "\nSKIPPED: %s did not run here:\n", lang.N(len(s.skipped), "test", "tests"))
		for _, g := range groups {
			names := g.tests
			more := ""
			if len(names) > 3 {
				names, more = names[:3], fmt.Sprintf(" and %d more", len(g.tests)-3)
			}
			fmt.Fprintf(s.out, "  %s: %s%s\n      %s\n", g.pkg, strings.Join(names, ", "), more, g.reason)
		}
	}
	if s.leftToFull > 0 {
		fmt.Fprintf(s.out, "%s left to the full run (they run without -short)\n", lang.N(s.leftToFull, "test", "tests"))
	}
	fmt.Fprintf(s.out, "%d passed, %d failed, %d skipped\n", s.passed, s.failed, s.skip)
}
