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
// games' backlog, say) does not erase the figures of another run. Rows
// are matched by their key (rowKey: written in the table as a comment,
// or found from the label of a table written before keys were), so a
// reworded label keeps its earlier cells under the new wording instead
// of leaving them in a row of their own and blanks in the new one. Where
// two earlier rows have one key, the cells of the one labelled as this
// run labels it come first. It returns the earlier run's date line when
// it kept anything, "" otherwise.
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
	type earlierRow struct {
		key, label string
		cells      map[int]string
	}
	var (
		sizes   []int
		when    string
		kept    bool
		order   []string // the earlier table's rows (keys)
		earlier []earlierRow
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
			label, key := splitRowKey(cells[0])
			r := earlierRow{key: key, label: label, cells: map[int]string{}}
			for i, n := range sizes {
				if v := cells[i+1]; v != "" && v != "-" && v != "not taken" {
					r.cells[n] = v
				}
			}
			if !slices.Contains(order, key) {
				order = append(order, key)
			}
			earlier = append(earlier, r)
		}
	}
	// The rows labelled as this run labels them first.
	slices.SortStableFunc(earlier, func(x, y earlierRow) int {
		return boolRank(st.label[x.key] == x.label) - boolRank(st.label[y.key] == y.label)
	})
	for _, r := range earlier {
		for n, v := range r.cells {
			if st.cells[r.key][n] != "" {
				continue
			}
			st.put(r.key, r.label, n, v)
			if !slices.Contains(st.sizes, n) {
				st.sizes = append(st.sizes, n)
			}
			kept = true
		}
	}
	slices.Sort(st.sizes)
	st.rows = mergeOrder(order, st.rows)
	if !kept {
		return "", nil
	}
	return when, nil
}

func boolRank(b bool) int {
	if b {
		return 0
	}
	return 1
}

// pgKeySuffix ends the key of a row taken on PostgreSQL.
const pgKeySuffix = "/pg"

// scaleRowKeys name the rows of the scale table: a label whose start is
// prefix (after "backlog: " or "backlog, two daemons: ", which are part of
// the key) and that holds every word of also has the key. The prefixes are
// the words that have not changed as the labels were reworded; a new row
// that matches none is keyed by its whole label.
var scaleRowKeys = []struct{ key, prefix, also string }{
	{"created", "games created", ""},
	{"dbsize", "DB size", ""},
	{"dbcopy", "`db copy`", ""},
	{"list-page", "`game list` (the first page", ""},
	{"list-every", "`game list` (every game)", ""},
	{"list-all", "`game list --limit 0`", ""},
	{"list-filtered", "`game list --awaiting", ""},
	{"tick", "catch-up `game tick`", ""},
	{"tick-next", "the next `game tick`", ""},
	{"mail-ack", "one order mail's own time", "acknowledged"},
	{"mail-turn", "one order mail's own time", "completing a turn"},
	{"rss", "daemon RSS after answering", ""},
	{"drain", "drain of", ""},
	{"sent", "mails the daemon sent during the drain", ""},
	{"share", "mails each", ""},
	{"ratio-a", "ours as a ratio of raw limit A", ""},
	{"ratio-b", "ours as a ratio of raw limit B", ""},
	{"paced-b", "raw limit B at the drain's pace:", ""},
	{"delivered", "to the last mail delivered", ""},
	{"failover", "failover:", ""},
	{"scaleout-one", "scale-out: drain of", "one daemon"},
	{"scaleout-two", "scale-out: drain of", "two daemons"},
	{"scaleout-ratio", "scale-out: two daemons' pace", ""},
}

// rowKey is the key of the row labelled label (scaleRowKeys).
func rowKey(label string) string {
	suffix := ""
	if strings.Contains(label, "— PostgreSQL") {
		suffix = pgKeySuffix
	}
	rest, prefix := label, ""
	for _, p := range []string{"backlog, two daemons: ", "backlog: "} {
		if r, ok := strings.CutPrefix(label, p); ok {
			rest, prefix = r, strings.TrimSuffix(strings.TrimSuffix(p, " "), ":")+"/"
			prefix = strings.NewReplacer(", two daemons", "2", " ", "-").Replace(prefix)
			break
		}
	}
	for _, k := range scaleRowKeys {
		if strings.HasPrefix(rest, k.prefix) && strings.Contains(rest, k.also) {
			return prefix + k.key + suffix
		}
	}
	return label
}

// splitRowKey takes the key comment off a label cell as markdown writes
// it; a cell without one (a table written before keys), or whose key is a
// whole label (a row no rule of scaleRowKeys named when it was written),
// is keyed by rowKey: the rules may have learnt its label since.
func splitRowKey(cell string) (label, key string) {
	label = cell
	if i := strings.LastIndex(cell, "<!-- row:"); i >= 0 && strings.HasSuffix(cell, "-->") {
		key = strings.TrimSpace(strings.TrimSuffix(cell[i+len("<!-- row:"):], "-->"))
		label = strings.TrimSpace(cell[:i])
	}
	if key == "" || strings.Contains(key, " ") {
		key = rowKey(label)
	}
	return label, key
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
	old := &scaleTable{sizes: []int{10, 1000}}
	old.set("DB size", 10, "1 MB")
	old.set("DB size", 1000, "30 MB")
	old.set("backlog", 1000, "0.9×")
	if err := os.WriteFile(path, []byte("# B\n\n"+old.markdown(time.Date(2026, 1, 2, 3, 4, 0, 0, time.UTC))+"\n## Next\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	st := &scaleTable{sizes: []int{10}}
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
		if got := st.cell(c.row, c.n); got != c.want {
			t.Errorf("%s at %d: %q, want %q", c.row, c.n, got, c.want)
		}
	}
	if !slices.Equal(st.rows, []string{rowKey("DB size"), rowKey("backlog")}) {
		t.Errorf("rows %q", st.rows)
	}
	if got := mergeOrder([]string{"a", "c"}, []string{"a", "b", "c", "d"}); !slices.Equal(got, []string{"a", "b", "c", "d"}) {
		t.Errorf("mergeOrder: %q", got)
	}
	if got := mergeOrder([]string{"b", "c"}, []string{"a", "c"}); !slices.Equal(got, []string{"a", "b", "c"}) {
		t.Errorf("mergeOrder: %q", got)
	}
	fresh := &scaleTable{sizes: []int{10}}
	fresh.set("DB size", 10, "1 MB")
	if when, _ := fresh.keepEarlier(t.TempDir() + "/none.md"); when != "" || len(fresh.rows) != 1 {
		t.Errorf("no report: kept %q, rows %v", when, fresh.rows)
	}
}

// A reworded row keeps its earlier cells under the new wording: in a table
// written before rows had keys (as docs/benchmarks/history.md was, where rewording
// left the 10-game RSS cell and ratio cells blank in rows of their own),
// and in one written with keys, whose label changes again.
func TestScaleMergeKeepsRewordedRows(t *testing.T) {
	const (
		rssOld   = "daemon RSS after answering 20 order mails by SMTP: peak (VmHWM), of which heap (RssAnon) and the DB's mapped pages (RssFile); time a mail, SMTP to answer"
		rssNow   = "daemon RSS after answering 20 order mails by SMTP: peak (VmHWM), of which heap (RssAnon) and mapped files (RssFile: the program, and bbolt's DB); time a mail, SMTP to answer"
		ratioOld = "backlog: ours as a ratio of raw limit B (the same mail traffic; target ≥ 0.8×)"
		ratioNow = "backlog: ours as a ratio of raw limit B (the same mail traffic)"
		ackRow   = "one order mail's own time, raw mail to reply committed (in process, fsync), acknowledged: p50 / p99 (CPU a mail; mails)"
		turnRow  = "one order mail's own time, raw mail to reply committed (in process, fsync), completing a turn (every player's report mailed): p50 / p99 (CPU a mail; mails)"
	)
	// Before keys: the labels alone, the reworded ratio row twice.
	legacy := "## Scale: one machine, bbolt, 10 to 100,000 games (issue 22)\n\n" +
		"2026-11-25 00:59 UTC; AMD EPYC, 2 cores shared with other work (load average at the end: 1 2 3); Go go1.26.8.\n\n" +
		"| Figure | 10 games | 10,000 games | 100,000 games |\n|---|---|---|---|\n" +
		"| " + rssOld + " | 50.0 MB | 113.2 MB | 502.6 MB |\n" +
		"| " + ackRow + " | 1 ms |  | - |\n" +
		"| " + turnRow + " | 6 ms | 6 ms | 5 ms |\n" +
		"| " + ratioNow + " | 0.87× |  | 0.61× |\n" +
		"| " + ratioOld + " | 0.80× | 0.66× (**missed**) | 0.70× (**missed**) |\n" +
		"| " + ratioNow + " — PostgreSQL |  |  | 0.48× |\n" +
		"<!-- /scale -->\n"
	path := t.TempDir() + "/b.md"
	if err := os.WriteFile(path, []byte("# B\n\n"+legacy), 0o644); err != nil {
		t.Fatal(err)
	}
	st := &scaleTable{sizes: []int{10000}}
	st.set(rssNow, 10000, "120.0 MB")
	if _, err := st.keepEarlier(path); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		row  string
		n    int
		want string
	}{
		{rssNow, 10, "50.0 MB"}, {rssNow, 10000, "120.0 MB"}, {rssNow, 100000, "502.6 MB"},
		{ackRow, 10, "1 ms"}, {turnRow, 10, "6 ms"}, {turnRow, 100000, "5 ms"},
		// The row labelled as now first; the other fills its gaps.
		{ratioNow, 10, "0.87×"}, {ratioNow, 10000, "0.66× (**missed**)"}, {ratioNow, 100000, "0.61×"},
		{ratioNow + " — PostgreSQL", 100000, "0.48×"}, {ratioNow + " — PostgreSQL", 10, ""},
	} {
		if got := st.cell(c.row, c.n); got != c.want {
			t.Errorf("%.40s… at %d: %q, want %q", c.row, c.n, got, c.want)
		}
	}
	if a, b := rowKey("backlog, two daemons: mails each daemon's outbox sent (the first one reads the mailbox) — PostgreSQL"),
		rowKey("backlog, two daemons: mails each of the 2 daemons' outboxes sent during the drain (one of them reads the mailbox) — PostgreSQL"); a != b {
		t.Errorf("the two wordings of the outboxes' shares have the keys %q and %q", a, b)
	}
	for label, want := range map[string]string{
		"scale-out: drain of 2000 order mails, each daemon a process held to 0.2 of a core (cgroup), as if on a machine of its own, one daemon: time, pace (its CPU) — PostgreSQL":                     "scaleout-one/pg",
		"scale-out: drain of 400 order mails, each daemon a process held to 0.25 of a core (cgroup), as if on a machine of its own, two daemons: time, pace (their CPU; mails each sent) — PostgreSQL": "scaleout-two/pg",
		"scale-out: two daemons' pace as a multiple of one's (adding a daemon adds throughput) — PostgreSQL":                                                                                           "scaleout-ratio/pg",
	} {
		if got := rowKey(label); got != want {
			t.Errorf("rowKey(%.50q…) = %q, want %q", label, got, want)
		}
	}
	if len(st.rows) != 5 {
		t.Errorf("rows %q, want one each for RSS, the two mails, the ratio and the ratio on PostgreSQL", st.rows)
	}
	md := st.markdown(time.Date(2026, 11, 25, 6, 0, 0, 0, time.UTC))
	if strings.Contains(md, rssOld) || strings.Contains(md, ratioOld) || !strings.Contains(md, rssNow) {
		t.Errorf("the labels shown are not this run's:\n%s", md)
	}
	// With keys written: a label reworded once more keeps every cell.
	if err := os.WriteFile(path, []byte("# B\n\n"+md), 0o644); err != nil {
		t.Fatal(err)
	}
	again := &scaleTable{sizes: []int{10}}
	again.put(rowKey(rssNow), "daemon memory after 20 mails", 10, "49.0 MB")
	if _, err := again.keepEarlier(path); err != nil {
		t.Fatal(err)
	}
	if got := again.cells[rowKey(rssNow)]; got[10] != "49.0 MB" || got[10000] != "120.0 MB" || got[100000] != "502.6 MB" {
		t.Errorf("reworded again: %v", got)
	}
	if got := again.label[rowKey(rssNow)]; got != "daemon memory after 20 mails" {
		t.Errorf("label %q", got)
	}
	// A row written keyed by its whole label (no rule knew it then) is
	// keyed by the rules when they have learnt it.
	if label, key := splitRowKey("backlog, two daemons: mails each daemon's outbox sent — PostgreSQL <!-- row:backlog, two daemons: mails each daemon's outbox sent — PostgreSQL -->"); key != "backlog2/share/pg" || strings.Contains(label, "<!--") {
		t.Errorf("a whole-label key: %q, %q", label, key)
	}
	// Distinct figures keep distinct keys.
	keys := map[string]string{}
	for _, l := range []string{rssNow, ackRow, turnRow, ratioNow, ratioNow + " — PostgreSQL", "backlog: drain of 5000 order mails",
		"backlog, two daemons: drain of 5000 order mails — PostgreSQL", "backlog, two daemons: ours as a ratio of raw limit B — PostgreSQL",
		"backlog, two daemons: mails each daemon's outbox sent (the first one reads the mailbox) — PostgreSQL", "backlog: mails the daemon sent during the drain",
		"DB size (games at their start)", "DB size (games at their start) — PostgreSQL (tables and indexes)",
		"backlog: to the last mail delivered into the players' mailboxes: the drain / raw limit B (the mean of its two runs); their ratio",
		"backlog: raw limit B at the drain's pace: the same mails, sent no faster than the drain sent them"} {
		if other, ok := keys[rowKey(l)]; ok {
			t.Errorf("%q and %q share the key %q", l, other, rowKey(l))
		}
		keys[rowKey(l)] = l
	}
}
