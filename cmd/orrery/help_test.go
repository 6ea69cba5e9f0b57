package main

import (
	"errors"
	"flag"
	"strings"
	"testing"
)

// TestEveryIssueCommandHasHelp: each command a new user meets first has a
// --help that names its own usage and the --db flag, and describes what
// that command does (orders check once showed the text of sending orders).
func TestEveryIssueCommandHasHelp(t *testing.T) {
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"game", "new"}, []string{"Usage: orrery game new", "-db"}},
		{[]string{"game", "show"}, []string{"Usage: orrery game show", "-db"}},
		{[]string{"game", "advance"}, []string{"Usage: orrery game advance", "-db"}},
		{[]string{"game", "verify"}, []string{"Usage: orrery game verify", "-db"}},
		{[]string{"orders"}, []string{"Usage: orrery orders ID", "Sends orders", "-db"}},
		{[]string{"orders", "check"}, []string{"Usage: orrery orders check", "without sending", "-db"}},
		{[]string{"rulesets"}, []string{"Usage: orrery rulesets"}},
		{[]string{"mail", "check"}, []string{"Usage: orrery mail check", "No database is needed", "-db", "-json"}},
		{[]string{"db", "backup"}, []string{"Usage: orrery db backup", "-out", "-db", "pg_dump"}},
		{[]string{"mail", "queue"}, []string{"Usage: orrery mail queue", "given up on", "-db", "-dead", "-after"}},
		{[]string{"mail", "retry"}, []string{"Usage: orrery mail retry", "-all-dead", "-db"}},
		{[]string{"mail", "drop"}, []string{"Usage: orrery mail drop", "-reason", "-db"}},
	} {
		name := strings.Join(c.args, " ")
		out, err := cli(t, "", "", append(c.args, "--help")...)
		// main turns flag.ErrHelp into exit status 0.
		if err != nil && !errors.Is(err, flag.ErrHelp) {
			t.Errorf("%s --help: %v", name, err)
		}
		for _, w := range c.want {
			if !strings.Contains(out, w) {
				t.Errorf("%s --help lacks %q:\n%s", name, w, out)
			}
		}
		if name == "orders check" && strings.Contains(out, "Sends orders") {
			t.Errorf("orders check --help describes sending orders:\n%s", out)
		}
	}
}
