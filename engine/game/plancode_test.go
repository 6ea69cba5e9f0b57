package game

import (
	"bytes"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"hash/crc32"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

var updatePlanCode = flag.Bool("update", false, "TestPlanCode: write the digest of the plan's code into tickplan.go")

// planRoots are the functions whose code decides what a tick plan says:
// the one that makes it and the one that reads it. Everything of this
// package they use, directly or not, is in the digest.
var planRoots = []string{"planOf", "lookOnly"}

// planCodeOf computes planCode from the package's source in dir: the
// declarations (functions, methods, constants, variables; not types)
// reached from planRoots by the names they use, printed without their
// comments, in name order, through CRC-32C. A method is reached by its
// name, whatever its receiver, so the digest takes in more than it needs
// rather than less; a change to more code than shapes a plan only makes
// the plans of the build before it unused. It returns the names digested.
func planCodeOf(t *testing.T, dir string) (uint32, []string) {
	t.Helper()
	fset := token.NewFileSet()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	decls := map[string][]ast.Node{} // by name: several methods may share one
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				d.Doc = nil
				decls[d.Name.Name] = append(decls[d.Name.Name], d)
			case *ast.GenDecl:
				if d.Tok != token.CONST && d.Tok != token.VAR {
					continue
				}
				for _, s := range d.Specs {
					vs := s.(*ast.ValueSpec)
					vs.Doc, vs.Comment = nil, nil
					for _, n := range vs.Names {
						decls[n.Name] = append(decls[n.Name], vs)
					}
				}
			}
		}
	}
	seen := map[string]bool{}
	var walk func(name string)
	walk = func(name string) {
		if seen[name] || decls[name] == nil {
			return
		}
		seen[name] = true
		for _, d := range decls[name] {
			ast.Inspect(d, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok {
					walk(id.Name)
				}
				return true
			})
		}
	}
	for _, r := range planRoots {
		if decls[r] == nil {
			t.Fatalf("no function %s in %s: planRoots names the code that makes and reads plans", r, dir)
		}
		walk(r)
	}
	var names []string
	for n := range seen {
		names = append(names, n)
	}
	slices.Sort(names)
	var buf bytes.Buffer
	done := map[ast.Node]bool{} // a spec of several names is printed once
	for _, n := range names {
		for _, d := range decls[n] {
			if done[d] {
				continue
			}
			done[d] = true
			if vs, ok := d.(*ast.ValueSpec); ok && vs.Names[0].Name == "planCode" {
				continue // the digest itself
			}
			if err := printer.Fprint(&buf, token.NewFileSet(), d); err != nil {
				t.Fatal(err)
			}
			buf.WriteByte('\n')
		}
	}
	return crc32.Checksum(buf.Bytes(), crcTable), names
}

var planCodeLine = regexp.MustCompile(`(?m)^const planCode uint32 = 0x[0-9a-f]{8}$`)

// TestPlanCode: planCode is the digest of the code that makes and reads
// tick plans, so a plan made by one build is never used by a build whose
// rules for plans differ (a game is then decoded until its record is next
// written). A change to that code without -update fails here.
func TestPlanCode(t *testing.T) {
	got, names := planCodeOf(t, ".")
	if got == planCode {
		return
	}
	if *updatePlanCode {
		src, err := os.ReadFile("tickplan.go")
		if err != nil {
			t.Fatal(err)
		}
		if !planCodeLine.Match(src) {
			t.Fatal("tickplan.go has no line `const planCode uint32 = 0x........` to update")
		}
		src = planCodeLine.ReplaceAll(src, fmt.Appendf(nil, "const planCode uint32 = 0x%08x", got))
		if err := os.WriteFile("tickplan.go", src, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("planCode updated to 0x%08x", got)
		return
	}
	t.Errorf("the code that makes and reads tick plans changed (%s): planCode is 0x%08x, the code's digest 0x%08x.\n"+
		"Plans that the old code made must not be used: run go test ./engine/game/ -run TestPlanCode -update",
		strings.Join(names, ", "), planCode, got)
}

// TestPlanCodeFollowsTheCode: a change to what a function that shapes a
// plan does, however deep, changes the digest; a change to its comment or
// layout does not, and neither does one to code the plan does not use.
func TestPlanCodeFollowsTheCode(t *testing.T) {
	src := map[string][]byte{}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if !strings.HasSuffix(f, "_test.go") {
			if src[f], err = os.ReadFile(f); err != nil {
				t.Fatal(err)
			}
		}
	}
	digest := func(file, old, new string) uint32 {
		t.Helper()
		dir := t.TempDir()
		for f, b := range src {
			if f == file {
				if !bytes.Contains(b, []byte(old)) {
					t.Fatalf("%s has no %q", f, old)
				}
				b = bytes.Replace(b, []byte(old), []byte(new), 1)
			}
			if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		d, _ := planCodeOf(t, dir)
		return d
	}
	base := digest("", "", "")
	for _, c := range []struct {
		what, file, old, new string
		changes              bool
	}{
		{"a rule of tickAction", "tickplan.go", "return tickRemind", "return tickLook", true},
		{"a rule two calls deep (awaitedAt)", "schedule.go", "func awaitedAt(g *Game, now time.Time) []string {", "func awaitedAt(g *Game, now time.Time) []string {\n\tnow = now.Add(1)", true},
		{"a comment", "tickplan.go", "// tickAction decides", "// tickAction, which decides,", false},
		{"code the plan does not use", "submit.go", "func (s *Service) Advance(", "func (s *Service) Advance(\n", false},
	} {
		if got := digest(c.file, c.old, c.new); (got != base) != c.changes {
			t.Errorf("%s: the digest changed %v, want %v", c.what, got != base, c.changes)
		}
	}
}
