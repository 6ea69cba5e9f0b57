package route

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// namesWord answers as the regexp it replaced would, on hand-picked edges
// (case folds such as the Kelvin sign and the long s, Cyrillic letters,
// hyphens, digits, invalid UTF-8) and on many random strings built from
// the same pieces.
func TestNamesWordIsTheRegexp(t *testing.T) {
	re := func(word string) *regexp.Regexp {
		return regexp.MustCompile(`(?i)(^|[^\pL\pN-])` + regexp.QuoteMeta(word) + `([^\pL\pN-]|$)`)
	}
	cases := []struct {
		t, word string
		want    bool
	}{
		{"Game demo1, turn 3", "demo1", true},
		{"GAME DEMO1", "demo1", true},
		{"demo12", "demo1", false},
		{"xdemo1", "demo1", false},
		{"pre-demo1", "demo1", false},
		{"demo1-b", "demo1", false},
		{"[demo1]", "demo1", true},
		{"ыdemo1", "demo1", false},
		{"demo1ы", "demo1", false},
		{"\u212a7", "k7", true}, // Kelvin sign folds to k
		{"ſtar", "star", true},  // long s folds to s
		{"\xffdemo1\xff", "demo1", true},
		{"", "demo1", false},
		{"demo", "demo1", false},
		{"a demo1", "", false},
	}
	for _, c := range cases {
		if got := namesWord(c.t, c.word); got != c.want {
			t.Errorf("namesWord(%q, %q) = %v, want %v", c.t, c.word, got, c.want)
		}
		if c.word != "" && re(c.word).MatchString(c.t) != c.want {
			t.Errorf("the regexp on (%q, %q) is not %v: the table is wrong", c.t, c.word, c.want)
		}
	}
	pieces := []string{"demo1", "DEMO1", "k7", "\u212a", "s", "ſ", "-", " ", "x", "1", "ы", "[", "]", "\xff", "é", "E\u0301"}
	words := []string{"demo1", "k7", "s", "x-1", "é"}
	rnd := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 20000; i++ {
		var b strings.Builder
		for j := rnd.IntN(6); j >= 0; j-- {
			b.WriteString(pieces[rnd.IntN(len(pieces))])
		}
		w := words[rnd.IntN(len(words))]
		if got, want := namesWord(b.String(), w), re(w).MatchString(b.String()); got != want {
			t.Fatalf("namesWord(%q, %q) = %v, the regexp says %v", b.String(), w, got, want)
		}
	}
}
