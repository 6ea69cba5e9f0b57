package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// rows returns the game ids of a game list's output, and its "more" hint.
func rows(out string) (ids []string, more string) {
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		switch f := strings.Fields(l); {
		case strings.HasPrefix(l, "(more: "):
			more = strings.TrimSuffix(strings.TrimPrefix(l, "(more: "), ")")
		case len(f) > 0 && f[0] != "GAME":
			ids = append(ids, f[0])
		}
	}
	return ids, more
}

// game list shows a page at a time, says how to see the next one, and
// filters by ruleset, player, awaited orders and open seats.
func TestGameListPagesAndFilters(t *testing.T) {
	db := filepath.Join(t.TempDir(), "list.db")
	for i := range 5 {
		must(t, db, "", "game", "new", "toy", "--id", fmt.Sprintf("g%d", i), "--player", fmt.Sprintf("ann=ann%d@example.org", i%2), "--player", "bob=bob@example.org")
	}
	must(t, db, "", "game", "new", "toy", "--id", "open1", "--player", "ann=ann0@example.org", "--seats", "3")
	must(t, db, "push 2\n", "orders", "g1", "--as", "bob", "-f", "-")

	ids, more := rows(must(t, db, "", "game", "list", "--limit", "2"))
	if strings.Join(ids, " ") != "g0 g1" || more != "orrery game list --limit 2 --after g1" {
		t.Fatalf("first page: %v, more %q", ids, more)
	}
	ids, more = rows(must(t, db, "", "game", "list", "--limit", "2", "--after", "g1"))
	if strings.Join(ids, " ") != "g2 g3" || more != "orrery game list --limit 2 --after g3" {
		t.Fatalf("second page: %v, more %q", ids, more)
	}
	cases := []struct {
		args []string
		want string
	}{
		{nil, "g0 g1 g2 g3 g4 open1"},
		{[]string{"--limit", "0"}, "g0 g1 g2 g3 g4 open1"},
		{[]string{"--player", "ANN0@example.org"}, "g0 g2 g4 open1"},
		{[]string{"--player", "bob@example.org", "--awaiting"}, "g0 g2 g3 g4"},
		{[]string{"--awaiting"}, "g0 g1 g2 g3 g4"},
		{[]string{"--open"}, "open1"},
		{[]string{"--ruleset", "toy", "--after", "g3"}, "g4 open1"},
	}
	for _, c := range cases {
		out := must(t, db, "", append([]string{"game", "list"}, c.args...)...)
		if ids, more := rows(out); strings.Join(ids, " ") != c.want || more != "" {
			t.Errorf("game list %s:\n%s", strings.Join(c.args, " "), out)
		}
	}
	if out := must(t, db, "", "game", "list", "--ruleset", "chess"); !strings.Contains(out, "no games match") {
		t.Errorf("an empty filter said:\n%s", out)
	}
	if out, err := cli(t, db, "", "game", "list", "--limit", "-1"); err == nil {
		t.Errorf("--limit -1 was taken:\n%s", out)
	}
}
