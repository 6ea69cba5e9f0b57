package engine

import (
	"strings"
	"unicode/utf8"
)

// Wrap fills text into lines of at most width runes for a plain-text mail
// (78 columns is what every mail reader shows unwrapped). The first line
// starts with first and the others with rest, so an event or a die that
// runs long hangs under its own bullet instead of being broken by the
// reader's window at a random column. Line breaks already in text are
// kept; a word longer than a line stands alone on its line, unbroken, so
// a seed or a cell name can still be copied whole.
func Wrap(text string, width int, first, rest string) string {
	var b strings.Builder
	prefix := first
	for i, para := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		if i > 0 {
			b.WriteByte('\n')
		}
		line := prefix
		n := utf8.RuneCountInString(line)
		empty := true
		for _, w := range strings.Fields(para) {
			wn := utf8.RuneCountInString(w)
			if !empty && n+1+wn > width {
				b.WriteString(line)
				b.WriteByte('\n')
				line, n, empty = rest, utf8.RuneCountInString(rest), true
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
