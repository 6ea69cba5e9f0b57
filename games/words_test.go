package games

import (
	"strings"
	"testing"

	"orrery/engine"
)

// TestOrderWordsCoverTheHelp: every ruleset lists its order words
// (engine.OrderWorder), and every upper-case word its OrderHelp starts an
// order line with is among them, so a verb added to the rules is never
// read as chatter by the mail side.
func TestOrderWordsCoverTheHelp(t *testing.T) {
	fold := strings.NewReplacer("А", "A", "В", "B", "Е", "E", "К", "K", "М", "M", "Н", "H",
		"О", "O", "Р", "P", "С", "C", "Т", "T", "Х", "X", "У", "Y")
	for _, rs := range All() {
		name := rs.Info().Name
		if _, ok := rs.(engine.OrderWorder); !ok {
			t.Errorf("%s does not list its order words (engine.OrderWorder)", name)
			continue
		}
		verbs, keywords := engine.OrderWords(rs)
		if len(verbs) == 0 {
			t.Errorf("%s lists no verbs", name)
		}
		known := map[string]bool{}
		for _, w := range append(verbs, keywords...) {
			known[fold.Replace(w)] = true
		}
		for _, l := range strings.Split(rs.Info().OrderHelp, "\n") {
			f := strings.Fields(l)
			if len(f) == 0 || len([]rune(f[0])) < 2 || strings.ToUpper(f[0]) != f[0] || strings.ContainsAny(f[0], "<>()[]:,.0123456789|") {
				continue
			}
			if !known[fold.Replace(f[0])] {
				t.Errorf("%s: the help starts a line with %s, which is not among its order words", name, f[0])
			}
		}
	}
}
