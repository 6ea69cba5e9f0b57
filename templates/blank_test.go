package templates

import (
	"math/rand/v2"
	"regexp"
	"testing"
)

// oneBlankLine and noBlankLines do what these expressions did, which they
// replaced for speed.
func TestBlankLinesAsTheExpressionsDid(t *testing.T) {
	manyBlank := regexp.MustCompile(`\n{3,}`)
	blankLines := regexp.MustCompile(`\n[ \t]*\n(?:[ \t]*\n)*`)
	cases := []string{"", "\n", "\n\n", "\n\n\n", "a\n\n\n\nb", "\n \n\t\n x\n", "a\n  ", "a\n \n", " \n\n", "<p>\n\n\n<pre>\n\n</pre>\n"}
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		b := make([]byte, r.IntN(24))
		for i := range b {
			b[i] = "\n\n \tab"[r.IntN(6)]
		}
		cases = append(cases, string(b))
	}
	for _, s := range cases {
		if got, want := oneBlankLine(s), manyBlank.ReplaceAllString(s, "\n\n"); got != want {
			t.Fatalf("oneBlankLine(%q) = %q, the expression gave %q", s, got, want)
		}
		if got, want := noBlankLines(s), blankLines.ReplaceAllString(s, "\n"); got != want {
			t.Fatalf("noBlankLines(%q) = %q, the expression gave %q", s, got, want)
		}
	}
}
