//go:build soak

package soak

import (
	"flag"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

var flagScaleFresh = flag.Bool("scale.fresh", false, "scale: write only this run's figures; without it, cells of the report's table that this run did not measure (other -scale.parts or -scale.games) are kept")

// keepEarlier fills the cells st lacks from the scale table already in the
// Markdown file at path, so that a run of some parts or sizes (the 100,000
// games' backlog, say) does not erase the figures of another run. It
// returns the earlier run's date line when it kept anything, "" otherwise.
func (st *scaleTable) keepEarlier(path string) (string, error) {
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	doc := string(data)
	a := strings.Index(doc, "\n## Scale: one machine")
	if a < 0 {
		return "", nil
	}
	section := doc[a+1:]
	if b := strings.Index(section, "<!-- /scale -->"); b >= 0 {
		section = section[:b]
	}
	var (
		sizes []int
		when  string
		kept  bool
		order []string // the earlier table's rows
	)
	for _, line := range strings.Split(section, "\n") {
		if strings.Contains(line, "cores shared with other work") && when == "" {
			when = strings.TrimSpace(line)
		}
		cells := tableCells(line)
		switch {
		case len(cells) == 0 || strings.HasPrefix(cells[0], "---"):
		case cells[0] == "Figure":
			sizes = sizes[:0]
			for _, c := range cells[1:] {
				n, err := strconv.Atoi(strings.ReplaceAll(strings.TrimSuffix(c, " games"), ",", ""))
				if err != nil {
					sizes = nil
					break
				}
				sizes = append(sizes, n)
			}
		case len(sizes) > 0 && len(cells) == len(sizes)+1:
			order = append(order, cells[0])
			for i, n := range sizes {
				v := cells[i+1]
				if v == "" || v == "-" || v == "not taken" || st.cells[cells[0]][n] != "" {
					continue
				}
				st.set(cells[0], n, v)
				if !slices.Contains(st.sizes, n) {
					st.sizes = append(st.sizes, n)
				}
				kept = true
			}
		}
	}
	slices.Sort(st.sizes)
	st.rows = mergeOrder(order, st.rows)
	if !kept {
		return "", nil
	}
	return when, nil
}

// mergeOrder is the rows of earlier in their order, with those only in
// now each placed after the row now has before it: a figure keeps its
// place in the table from run to run.
func mergeOrder(earlier, now []string) []string {
	out := slices.Clone(earlier)
	for i, r := range now {
		if slices.Contains(out, r) {
			continue
		}
		at := len(out)
		if i > 0 {
			if j := slices.Index(out, now[i-1]); j >= 0 {
				at = j + 1
			}
		} else {
			at = 0
		}
		out = slices.Insert(out, at, r)
	}
	return out
}

// tableCells splits a Markdown table row into its trimmed cells; nil for
// any other line.
func tableCells(line string) []string {
	line = strings.TrimSpace(line)
	if !strings.HasPrefix(line, "|") || !strings.HasSuffix(line, "|") || len(line) < 2 {
		return nil
	}
	var out []string
	for _, c := range strings.Split(line[1:len(line)-1], "|") {
		out = append(out, strings.TrimSpace(c))
	}
	return out
}

// A run of some parts keeps the other parts' cells, and sizes it did not
// take; its own cells win.
func TestScaleKeepsEarlierCells(t *testing.T) {
	path := t.TempDir() + "/b.md"
	old := &scaleTable{sizes: []int{10, 1000}, cells: map[string]map[int]string{}}
	old.set("DB size", 10, "1 MB")
	old.set("DB size", 1000, "30 MB")
	old.set("backlog", 1000, "0.9×")
	if err := os.WriteFile(path, []byte("# B\n\n"+old.markdown(time.Date(2026, 1, 2, 3, 4, 0, 0, time.UTC))+"\n## Next\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	st := &scaleTable{sizes: []int{10}, cells: map[string]map[int]string{}}
	st.set("DB size", 10, "2 MB")
	when, err := st.keepEarlier(path)
	if err != nil {
		t.Fatal(err)
	}
	if when == "" || !strings.Contains(when, "2026-01-02") {
		t.Errorf("the earlier run's date line: %q", when)
	}
	if !slices.Equal(st.sizes, []int{10, 1000}) {
		t.Errorf("sizes %v", st.sizes)
	}
	for _, c := range []struct {
		row  string
		n    int
		want string
	}{{"DB size", 10, "2 MB"}, {"DB size", 1000, "30 MB"}, {"backlog", 1000, "0.9×"}, {"backlog", 10, ""}} {
		if got := st.cells[c.row][c.n]; got != c.want {
			t.Errorf("%s at %d: %q, want %q", c.row, c.n, got, c.want)
		}
	}
	if !slices.Equal(st.rows, []string{"DB size", "backlog"}) {
		t.Errorf("rows %q", st.rows)
	}
	if got := mergeOrder([]string{"a", "c"}, []string{"a", "b", "c", "d"}); !slices.Equal(got, []string{"a", "b", "c", "d"}) {
		t.Errorf("mergeOrder: %q", got)
	}
	if got := mergeOrder([]string{"b", "c"}, []string{"a", "c"}); !slices.Equal(got, []string{"a", "b", "c"}) {
		t.Errorf("mergeOrder: %q", got)
	}
	fresh := &scaleTable{sizes: []int{10}, cells: map[string]map[int]string{}}
	fresh.set("DB size", 10, "1 MB")
	if when, _ := fresh.keepEarlier(t.TempDir() + "/none.md"); when != "" || len(fresh.rows) != 1 {
		t.Errorf("no report: kept %q, rows %v", when, fresh.rows)
	}
}
