package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"orrery/engine/enginetest/toy"
	"orrery/games"
)

// orders check reads a file's ORDERS … TURN n / NEXT and PREVIEW lines as
// the daemon reads a mail's: it says which turn the orders are for, or
// that a PREVIEW would be answered, and checks the orders below, instead
// of taking the line for a bad order.
func TestOrdersCheckTurnAndPreview(t *testing.T) {
	db := filepath.Join(t.TempDir(), "c.db")
	run1 := func(stdin string, args ...string) (string, error) {
		var out bytes.Buffer
		e := &env{stdin: strings.NewReader(stdin), stdout: &out, stderr: &out, rulesets: append(games.All(), toy.Ruleset())}
		err := run(context.Background(), e, append(args, "--db", db))
		return out.String(), err
	}
	if out, err := run1("", "game", "new", "prosper", "--id", "g1", "--player", "ann=ann@example.org", "--player", "bob=bob@example.org"); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if out, err := run1("", "game", "new", "toy", "--id", "t", "--player", "ann=ann@example.org"); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	toyGame := []string{"orders", "check", "--game", "t", "--as", "ann", "-f", "-"}
	offline := []string{"orders", "check", "prosper", "-f", "-"}
	inGame := []string{"orders", "check", "--game", "g1", "--as", "ann", "-f", "-"}
	cases := []struct {
		name, stdin string
		args        []string
		errs        string   // "" for none, else the error ("1 error")
		want        []string // in the output
	}{
		{"turn offline", "ORDERS g1 TURN 3\nSETTLE Rigel 10\n", offline, "",
			[]string{"for turn 3 (ORDERS TURN 3)", "orders OK (syntax only"}},
		{"next offline, a bad order", "orders next\nSETLE Rigel 10\n", offline, "1 error",
			[]string{"for the next turn", "line 2: SETLE Rigel 10", "did you mean SETTLE?"}},
		{"preview offline", "# try\nPREVIEW\nSETTLE Rigel 10\n", offline, "",
			[]string{"A PREVIEW: the server would not take these orders", "orders OK"}},
		{"preview alone", "PREVIEW g1\n", offline, "",
			[]string{"A PREVIEW with no orders below it"}},
		{"orders alone", "ORDERS g1\n", inGame, "",
			[]string{"the orders you hold for later turns"}},
		{"malformed ORDERS", "ORDERS g1 now\nSETTLE Rigel 10\n", offline, "1 error",
			[]string{"line 1: ORDERS g1 now", "ORDERS takes one game id", "fix: write ORDERS"}},
		{"turn in game", "ORDERS TURN 4\nSETTLE Rigel 10\n", inGame, "",
			[]string{"for turn 4 of game g1, which is at turn 0 now", "asks ann for orders", "orders OK"}},
		{"next in game", "ORDERS NEXT\nSETTLE Rigel 10\n", inGame, "",
			[]string{"for turn 1 of game g1"}},
		{"turn 0", "ORDERS g1 TURN 0\nSETTLE Rigel 10\n", inGame, "1 error",
			[]string{"line 1: ORDERS g1 TURN 0", "TURN needs a turn number"}},
		{"the turn now", "ORDERS TURN 1\nPUSH 1\n", toyGame, "1 error",
			[]string{"line 1: ORDERS TURN 1", "game t is at turn 1: orders for turn 1 are sent without TURN"}},
		{"no offline check", "ORDERS TURN 2\nPUSH 1\n", toyGame, "",
			[]string{"for turn 2 of game t", "toy has no offline check: the orders are checked when that turn asks for them"}},
		{"another game", "ORDERS g2 TURN 3\nSETTLE Rigel 10\n", inGame, "1 error",
			[]string{"about game g2, but the orders are checked against game g1"}},
		{"preview in game", "PREVIEW g1\nSETTLE Rigle 10\n", inGame, "1 error",
			[]string{"A PREVIEW", "line 2: SETTLE Rigle 10", "no planet named 'Rigle'"}},
		{"plain orders in game", "SETTLE Rigel 10\n", inGame, "",
			[]string{"orders OK for ann", "  SETTLE Rigel 10"}},
		{"Russian", "ORDERS g1 TURN 3\nSETLE Rigel 10\n", append(offline, "--lang", "ru"), "1 error",
			[]string{"Эти приказы — на ход 3 (ORDERS TURN 3)", "строка 2: SETLE Rigel 10", "исправление:"}},
	}
	if _, err := run1("ORDERS TURN 2\nPUSH 1\n", "orders", "check", "--game", "t", "--as", "zed", "-f", "-"); err == nil || !strings.Contains(err.Error(), `no player "zed"`) {
		t.Errorf("orders for a later turn of no player: %v", err)
	}
	for _, c := range cases {
		out, err := run1(c.stdin, c.args...)
		switch {
		case c.errs == "" && err != nil:
			t.Errorf("%s: %v\n%s", c.name, err, out)
		case c.errs != "" && (err == nil || err.Error() != c.errs):
			t.Errorf("%s: got %v, want %q\n%s", c.name, err, c.errs, out)
		}
		for _, w := range c.want {
			if !strings.Contains(out, w) {
				t.Errorf("%s: the answer lacks %q:\n%s", c.name, w, out)
			}
		}
		if strings.Contains(out, "is not an order") && !strings.Contains(c.stdin, "SETLE") {
			t.Errorf("%s: the ORDERS or PREVIEW line was taken for an order:\n%s", c.name, out)
		}
	}
}
