package engine

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestWrap(t *testing.T) {
	long := strings.Repeat("f", 90)
	cases := []struct {
		name, text  string
		width       int
		first, rest string
		want        string
	}{
		{"fits", "ann attacks Rigel.", 78, "- ", "  ", "- ann attacks Rigel."},
		{"hangs under the bullet", "one two three four five six", 12, "- ", "  ", "- one two\n  three four\n  five six"},
		{"exactly the width stays on one line", "abcd efgh", 11, "- ", "  ", "- abcd efgh"},
		{"one over the width breaks", "abcd efghi", 11, "- ", "  ", "- abcd\n  efghi"},
		{"a word longer than a line stands alone", "seed " + long + " end", 40, "", "  ", "seed\n  " + long + "\n  end"},
		{"line breaks in the text are kept", "first line\nsecond line", 78, "- ", "  ", "- first line\n  second line"},
		{"runes, not bytes", "Кило атакует Грузовик", 14, "", "", "Кило атакует\nГрузовик"},
		{"runs of spaces fold", "a   b", 78, "", "", "a b"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Wrap(c.text, c.width, c.first, c.rest)
			if got != c.want {
				t.Errorf("Wrap(%q, %d) =\n%s\nwant\n%s", c.text, c.width, got, c.want)
			}
			for _, l := range strings.Split(got, "\n") {
				if n := utf8.RuneCountInString(l); n > c.width && !strings.Contains(l, long) {
					t.Errorf("line %q has %d runes, more than %d", l, n, c.width)
				}
			}
		})
	}
}

func TestWidth(t *testing.T) {
	cases := map[string]int{
		"":                 0,
		"ann":              3,
		"Кило":             4,
		"漢字":               4,
		"ＡＢ":               4,
		"e\u0301":          1, // e and a combining acute accent
		"a\u200db":         2,
		"ship 12 → K6":     12,
		"한국어 text":         11,
		"ｶﾀｶﾅ (halfwidth)": 16,
	}
	for s, want := range cases {
		if got := Width(s); got != want {
			t.Errorf("Width(%q) = %d, want %d", s, got, want)
		}
	}
	// By runes "漢字 漢字 漢字" would fit 10; by columns it is 14.
	got := Wrap("漢字 漢字 漢字", 10, "", "")
	if got != "漢字 漢字\n漢字" {
		t.Errorf("Wrap of wide text = %q, want two lines of at most 10 columns", got)
	}
}

// TestRuneWidthShortCut: the runes RuneWidth answers without the Unicode
// tables have the width the tables give.
func TestRuneWidthShortCut(t *testing.T) {
	for r := rune(0); r < 0x300; r++ {
		if got := runeWidth(r); got != 1 {
			t.Errorf("U+%04X: the tables say %d columns, RuneWidth says 1", r, got)
		}
	}
	for _, r := range []rune{0x300, 0x200B, 0x1100, 0x6F22, 0xFF21} {
		if RuneWidth(r) != runeWidth(r) {
			t.Errorf("U+%04X: RuneWidth %d, the tables %d", r, RuneWidth(r), runeWidth(r))
		}
	}
}

// Wrap writes its words straight into its result; it must wrap as the
// line-by-line concatenation it replaced did, prefixes, blank
// paragraphs, wide runes and over-long words included.
func TestWrapAsBefore(t *testing.T) {
	before := func(text string, cols int, first, rest string) string {
		var b strings.Builder
		prefix := first
		for i, para := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
			if i > 0 {
				b.WriteByte('\n')
			}
			line := prefix
			n := Width(line)
			empty := true
			for _, w := range strings.Fields(para) {
				wn := Width(w)
				if !empty && n+1+wn > cols {
					b.WriteString(line)
					b.WriteByte('\n')
					line, n, empty = rest, Width(rest), true
				}
				if !empty {
					line += " "
					n++
				}
				line += w
				n += wn
				empty = false
			}
			b.WriteString(strings.TrimRight(line, " "))
			prefix = rest
		}
		return b.String()
	}
	words := []string{"a", "the", "planet", "Ганимед", "火星", "averyveryverylongwordindeed", " ", "  ", "\n", "\t", "\n\n"}
	r := rand.New(rand.NewPCG(5, 6))
	for range 20000 {
		var b strings.Builder
		for range r.IntN(30) {
			b.WriteString(words[r.IntN(len(words))])
			if r.IntN(2) == 0 {
				b.WriteByte(' ')
			}
		}
		text, cols := b.String(), 4+r.IntN(30)
		first, rest := []string{"", "- ", "  "}[r.IntN(3)], []string{"", "  ", "    "}[r.IntN(3)]
		if got, want := Wrap(text, cols, first, rest), before(text, cols, first, rest); got != want {
			t.Fatalf("Wrap(%q, %d, %q, %q) = %q, before %q", text, cols, first, rest, got, want)
		}
	}
}
