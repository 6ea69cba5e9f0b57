package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode"
)

// The docs are tested as the code is: every shell block marked runnable
// (a fence opened with "```sh runnable") is run against a freshly built
// orrery, and every relative link resolves. A command that stops working,
// or a doc moved without its links, fails here rather than in a
// newcomer's terminal.

// repoRoot is where README.md and docs/ are, seen from this package.
const repoRoot = "../.."

// docFiles returns README.md and every Markdown file under docs/.
func docFiles(t *testing.T) []string {
	t.Helper()
	files := []string{filepath.Join(repoRoot, "README.md")}
	err := filepath.WalkDir(filepath.Join(repoRoot, "docs"), func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(path, ".md") {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("listing docs: %v", err)
	}
	return files
}

// docBlock is one runnable shell block: its file, the line its fence
// opens on, and its lines.
type docBlock struct {
	file  string
	line  int
	lines []string
}

// runnableBlocks reads the fenced blocks of path whose info string is
// "sh" (or "bash") with the word "runnable".
func runnableBlocks(t *testing.T, path string) []docBlock {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var blocks []docBlock
	var cur *docBlock
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		l := sc.Text()
		trim := strings.TrimSpace(l)
		if cur != nil {
			if strings.HasPrefix(trim, "```") {
				blocks = append(blocks, *cur)
				cur = nil
				continue
			}
			cur.lines = append(cur.lines, l)
			continue
		}
		if info, ok := strings.CutPrefix(trim, "```"); ok {
			words := strings.Fields(info)
			if len(words) >= 2 && (words[0] == "sh" || words[0] == "bash") && words[1] == "runnable" {
				cur = &docBlock{file: path, line: n}
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if cur != nil {
		t.Fatalf("%s:%d: runnable block never closed", path, cur.line)
	}
	return blocks
}

// exitsRe finds a line that is expected to fail, by its comment:
// "CMD   # exits 1, ...".
var exitsRe = regexp.MustCompile(`^(.*?)\s+# exits (\d+)\b`)

// script makes the block a part of a bash script that stops at the first
// command that fails (pipelines included), except that a line whose
// comment says "# exits N" must exit with N.
func (b docBlock) script() string {
	var s strings.Builder
	fmt.Fprintf(&s, "echo '== %s:%d' >&2\n", filepath.Base(b.file), b.line)
	for i, l := range b.lines {
		m := exitsRe.FindStringSubmatch(l)
		if m == nil {
			s.WriteString(l + "\n")
			continue
		}
		fmt.Fprintf(&s, "set +e\n%s\nrc=$?\nset -e\nif [ \"$rc\" -ne %s ]; then echo \"%s:%d: exit $rc, the doc says %s\" >&2; exit 1; fi\n",
			m[1], m[2], filepath.Base(b.file), b.line+1+i, m[2])
	}
	return s.String()
}

// fileScript is a file's runnable blocks in order, as a reader types them
// one after another: a later block may use what an earlier one defined.
func fileScript(blocks []docBlock) string {
	s := "set -e -o pipefail\n"
	for _, b := range blocks {
		s += b.script()
	}
	return s
}

// TestDocsCommandsRun runs the runnable blocks of README.md and of each
// Markdown file under docs/, a file's blocks in order in one shell and a
// directory of their own, with a freshly built orrery first on PATH and no
// ORRERY_ variable of the caller's environment.
func TestDocsCommandsRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds orrery and runs the docs' commands; without -short")
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	files := docFiles(t)
	blocks := map[string][]docBlock{}
	for _, f := range files {
		blocks[f] = runnableBlocks(t, f)
	}
	// The test must not pass by finding nothing.
	for _, f := range []string{"README.md", "docs/gm.md", "docs/dice.md", "docs/web.md"} {
		if len(blocks[filepath.Join(repoRoot, f)]) == 0 {
			t.Fatalf("no runnable block in %s: the fence is \"```sh runnable\"", f)
		}
	}

	bin := t.TempDir()
	build := exec.Command("go", "build", "-o", filepath.Join(bin, "orrery"), ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "ORRERY_") || strings.HasPrefix(kv, "PATH=") || strings.HasPrefix(kv, "HOME=") {
			continue
		}
		env = append(env, kv)
	}
	env = append(env, "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))

	for _, f := range files {
		if len(blocks[f]) == 0 {
			continue
		}
		rel, _ := filepath.Rel(repoRoot, f)
		t.Run(rel, func(t *testing.T) {
			dir := t.TempDir()
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, bash, "-c", fileScript(blocks[f]))
			cmd.Dir = dir
			cmd.Env = append(env, "HOME="+dir)
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Errorf("%s: a runnable block failed (%v); the last '== FILE:LINE' below names it\n%s", rel, err, out)
			}
		})
	}
}

// TestDocsScriptExpectsExits checks the "# exits N" rule: a line that
// exits otherwise than its comment says fails the block, as a line
// without the comment fails it by exiting non-zero.
func TestDocsScriptExpectsExits(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	for _, c := range []struct {
		lines []string
		ok    bool
	}{
		{[]string{"true", "x=1", `[ "$x" = 1 ]`}, true},
		{[]string{"false", "true"}, false},
		{[]string{"false | true"}, false},
		{[]string{"(exit 1)   # exits 1, as the doc says", "true"}, true},
		{[]string{"true   # exits 1, but it does not"}, false},
		{[]string{"(exit 2)   # exits 1"}, false},
	} {
		b := docBlock{file: "x.md", line: 1, lines: c.lines}
		err := exec.Command(bash, "-c", fileScript([]docBlock{b})).Run()
		if (err == nil) != c.ok {
			t.Errorf("%q: ran with %v, want ok=%v", c.lines, err, c.ok)
		}
	}
}

var (
	fenceRe  = regexp.MustCompile("(?ms)^\\s*```.*?^\\s*```[^\\n]*$")
	inlineRe = regexp.MustCompile("`[^`\\n]*`")
	linkRe   = regexp.MustCompile(`\]\(([^)\s]+)\)`)
)

// anchors returns the anchors GitHub makes of a Markdown file's headings:
// lower case, spaces as hyphens, punctuation other than - and _ dropped,
// a repeated heading numbered -1, -2, ….
func anchors(doc string) map[string]bool {
	out := map[string]bool{}
	doc = fenceRe.ReplaceAllString(doc, "")
	for _, l := range strings.Split(doc, "\n") {
		if !strings.HasPrefix(l, "#") {
			continue
		}
		h := strings.TrimSpace(strings.TrimLeft(l, "#"))
		var b strings.Builder
		for _, r := range strings.ToLower(h) {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				b.WriteRune(r)
			}
		}
		a := b.String()
		for i, base := 1, a; out[a]; i++ {
			a = base + "-" + strconv.Itoa(i)
		}
		out[a] = true
	}
	return out
}

// TestDocsLinksResolve follows every relative link of README.md and the
// Markdown files under docs/ to a file that exists and, for a link into a
// Markdown file with #anchor, to one of its headings.
func TestDocsLinksResolve(t *testing.T) {
	checked := 0
	for _, f := range docFiles(t) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		text := inlineRe.ReplaceAllString(fenceRe.ReplaceAllString(string(b), ""), "")
		rel, _ := filepath.Rel(repoRoot, f)
		for _, m := range linkRe.FindAllStringSubmatch(text, -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			checked++
			path, anchor, _ := strings.Cut(target, "#")
			file := f
			if path != "" {
				file = filepath.Join(filepath.Dir(f), filepath.FromSlash(path))
				if _, err := os.Stat(file); err != nil {
					t.Errorf("%s: link %q: no such file %s", rel, target, file)
					continue
				}
			}
			if anchor == "" || !strings.HasSuffix(file, ".md") {
				continue
			}
			doc, err := os.ReadFile(file)
			if err != nil {
				t.Errorf("%s: link %q: %v", rel, target, err)
				continue
			}
			if !anchors(string(doc))[anchor] {
				t.Errorf("%s: link %q: %s has no heading with the anchor #%s", rel, target, filepath.Base(file), anchor)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no relative link found: the test reads nothing")
	}
}
