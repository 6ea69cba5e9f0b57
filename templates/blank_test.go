package templates

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// oneBlankLine and noBlankLines do what these expressions did, which they
// replaced for speed.
func TestBlankLinesAsTheExpressionsDid(t *testing.T) {
	manyBlank := regexp.MustCompile(`\n{3,}`)
	blankLines := regexp.MustCompile(`\n[ \t]*\n(?:[ \t]*\n)*`)
	cases := []string{"", "\n", "\n\n", "\n\n\n", "a\n\n\n\nb", "\n \n\t\n x\n",
		"a\n  ", "a\n \n", " \n\n", "<p>\n\n\n<pre>\n\n</pre>\n"}
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
		var b strings.Builder
		noBlankLines(&b, []byte(s))
		if got, want := b.String(), blankLines.ReplaceAllString(s, "\n"); got != want {
			t.Fatalf("noBlankLines(%q) = %q, the expression gave %q", s, got, want)
		}
	}
}

// tidyHTML trims the whitespace at both ends before it drops blank lines;
// trimming after, as it did, gives the same.
func TestTidyHTML(t *testing.T) {
	blankLines := regexp.MustCompile(`\n[ \t]*\n(?:[ \t]*\n)*`)
	before := func(s string) string { // tidyHTML as it was
		var out strings.Builder
		for {
			i := strings.Index(s, "<pre")
			if i < 0 {
				out.WriteString(blankLines.ReplaceAllString(s, "\n"))
				break
			}
			j := strings.Index(s[i:], "</pre>")
			if j < 0 {
				out.WriteString(s)
				break
			}
			out.WriteString(blankLines.ReplaceAllString(s[:i], "\n"))
			out.WriteString(s[i : i+j+len("</pre>")])
			s = s[i+j+len("</pre>"):]
		}
		return strings.TrimSpace(out.String()) + "\n"
	}
	cases := []string{"", " \n ", "<p>a</p>\n\n \n<p>b</p>\n",
		"\n\n<pre>\n\n x \n\n</pre>\n\n<p>\n\n</p>\t\n", "<pre>\n\nno end"}
	r := rand.New(rand.NewPCG(3, 4))
	parts := []string{"\n", "\n", " ", "\t", "<pre>", "</pre>", "<p>", "x", "\u00a0"}
	for range 20000 {
		var b strings.Builder
		for range r.IntN(16) {
			b.WriteString(parts[r.IntN(len(parts))])
		}
		cases = append(cases, b.String())
	}
	for _, s := range cases {
		if got, want := tidyHTML([]byte(s)), before(s); got != want {
			t.Fatalf("tidyHTML(%q) = %q, before %q", s, got, want)
		}
	}
}
