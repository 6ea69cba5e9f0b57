//go:build soak

package soak

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Every Fuzz function of the tree is in fuzzTargets, so the long run of
// issue 20 ("each fuzz target runs at least 10 million executions") cannot
// miss one added later.
func TestFuzzTargetsListed(t *testing.T) {
	listed := map[string]bool{}
	for _, ft := range fuzzTargets {
		listed[ft.Pkg+" "+ft.Name] = true
	}
	fuzzFunc := regexp.MustCompile(`(?m)^func (Fuzz\w+)\(`)
	root := filepath.Join("..", "..")
	found := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		for _, m := range fuzzFunc.FindAllStringSubmatch(string(src), -1) {
			found++
			if key := "orrery/" + filepath.ToSlash(rel) + " " + m[1]; !listed[key] {
				t.Errorf("%s is not in fuzzTargets (pbem/soak/fuzz_test.go)", key)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if found < len(fuzzTargets) {
		t.Errorf("found %d Fuzz functions, fewer than the %d listed: a listed one is gone", found, len(fuzzTargets))
	}
}
