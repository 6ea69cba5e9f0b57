package enginetest

import (
	"regexp"
	"strings"
	"testing"

	"orrery/engine"
	"orrery/engine/orderline"
)

// wordCheck reads a ruleset's own order lines as the mail side reads a
// player's mail (engine/orderline with the words of engine.OrderWords): a
// line its parser accepts that the mail side would take for chatter never
// reaches the parser, and the player's orders are listed as "Not read as
// orders" with nothing failing. Each missing word is reported once, naming
// the word to add.
type wordCheck struct {
	name     string
	c        *orderline.Classifier
	reported map[string]bool
}

func newWordCheck(rs engine.Ruleset) *wordCheck {
	verbs, keywords := engine.OrderWords(rs)
	return &wordCheck{name: rs.Info().Name, c: orderline.New(verbs, keywords), reported: map[string]bool{}}
}

// lines checks every order line of text (blank lines and # comments are
// not orders, and the mail side needs none of them).
func (w *wordCheck) lines(t testing.TB, what, text string) {
	t.Helper()
	for _, l := range strings.Split(text, "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "#") || w.c.Order(l) {
			continue
		}
		first := orderline.Fold(orderline.TrimWord(strings.Fields(l)[0]))
		if w.reported[first] {
			continue
		}
		w.reported[first] = true
		t.Errorf("%s: the mail side would read line %q of %s as chatter, not as orders, and never parse it: "+
			"add %q to the verbs OrderWords returns (engine.OrderWorder)", w.name, l, what, first)
	}
}

// help checks the examples of the order help: every part of a line (parts
// are split by two spaces or more, as columns are) that starts with an
// upper-case word of two letters or more, as "MOVE <ships> FROM <planet>"
// or "BUILD CANNON AT K6" do.
func (w *wordCheck) help(t testing.TB, orderHelp string) {
	t.Helper()
	for _, l := range strings.Split(orderHelp, "\n") {
		for _, part := range columns.Split(strings.TrimSpace(l), -1) {
			f := strings.Fields(part)
			if len(f) == 0 || !example(f[0]) {
				continue
			}
			w.lines(t, "the order help", part)
		}
	}
}

var columns = regexp.MustCompile(`\s{2,}`)

// example reports whether word starts an order example: two letters or
// more, all upper-case, and not a placeholder or a list ("<n>", "FLEET|DEV").
func example(word string) bool {
	if len([]rune(word)) < 2 || strings.ToUpper(word) != word || strings.ContainsAny(word, "<>()[]:,.0123456789|") {
		return false
	}
	return strings.ToLower(word) != word
}
