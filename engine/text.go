package engine

import (
	"strings"
	"unicode"

	"golang.org/x/text/width"
)

// Width is the number of columns s takes in a monospaced mail reader or
// terminal: two for an East Asian wide or fullwidth character (漢, Ａ),
// none for a combining mark or a zero-width joiner, one for every other.
// The 78-column rule of plain-text mail counts columns, not runes.
func Width(s string) int {
	n := 0
	for _, r := range s {
		n += RuneWidth(r)
	}
	return n
}

// RuneWidth is the columns one rune takes (see Width).
func RuneWidth(r rune) int {
	if r >= 0 && r < 0x300 {
		// Latin and its supplements, before the first combining mark
		// (U+0300) and far below the first wide rune (U+1100): the
		// lookups of runeWidth all give 1 here (a test checks), and
		// nearly every rune of a report is one of these.
		return 1
	}
	return runeWidth(r)
}

// runeWidth is RuneWidth by the Unicode tables.
func runeWidth(r rune) int {
	switch {
	case r == 0x200B || r == 0x200C || r == 0x200D || r == 0xFEFF:
		return 0
	case unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Me, r):
		return 0
	}
	switch width.LookupRune(r).Kind() {
	case width.EastAsianWide, width.EastAsianFullwidth:
		return 2
	}
	return 1
}

// Wrap fills text into lines of at most width columns (see Width) for a plain-text mail
// (78 columns is what every mail reader shows unwrapped). The first line
// starts with first and the others with rest, so an event or a die that
// runs long hangs under its own bullet instead of being broken by the
// reader's window at a random column. Line breaks already in text are
// kept; a word longer than a line stands alone on its line, unbroken, so
// a seed or a cell name can still be copied whole.
func Wrap(text string, cols int, first, rest string) string {
	var b strings.Builder
	b.Grow(len(first) + len(text) + len(text)/max(cols, 1)*(len(rest)+1))
	prefix := first
	for i, para := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		if i > 0 {
			b.WriteByte('\n')
		}
		// The words go straight into b; a line's prefix is written with
		// its first word, so that a line with none ends trimmed.
		start, n, empty := prefix, Width(prefix), true
		for w := range strings.FieldsSeq(para) {
			wn := Width(w)
			if !empty && n+1+wn > cols {
				b.WriteByte('\n')
				start, n, empty = rest, Width(rest), true
			}
			if empty {
				b.WriteString(start)
			} else {
				b.WriteByte(' ')
				n++
			}
			b.WriteString(w)
			n += wn
			empty = false
		}
		if empty {
			b.WriteString(strings.TrimRight(start, " "))
		}
		prefix = rest
	}
	return b.String()
}
