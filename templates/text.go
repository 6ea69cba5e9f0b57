package templates

import (
	"bytes"
	"regexp"
	"strings"
	"unicode/utf8"

	"orrery/engine"
)

// Width is the widest line of a text/plain part, in columns (engine.Width):
// what every mail reader shows without breaking lines at random.
const Width = 78

// Marks a text template leaves for tidy; they never reach a mail.
const (
	verbatimOn  = "\x0e" // from here to verbatimOff lines are kept as written
	verbatimOff = "\x0f"
	hangMark    = "\x11" // at a line's start: wrap it with a hanging indent
)

// verbatim marks s to be left exactly as written: a board, a table, an
// order list, a command's output.
func verbatim(s string) string {
	s = strings.TrimRight(s, "\n")
	if s == "" {
		return ""
	}
	return verbatimOn + s + verbatimOff
}

func unmark(s string) string {
	return strings.NewReplacer(verbatimOn, "", verbatimOff, "", hangMark, "").Replace(s)
}

var (
	// bullet is what a continuation line hangs under: "- ", "* ", "#12 ",
	// "3. ".
	bullet = regexp.MustCompile(`^ *(?:[-*•] |#\d+ |\d+\. )`)
)

// tidy lets templates be written for readability: paragraphs are filled to
// Width columns (a bulleted line hangs under its bullet, a line marked
// with hangMark under two spaces, any other under its own indent),
// verbatim blocks are kept, trailing spaces go, runs of blank lines become
// one, and the text ends with exactly one newline.
func tidy(s string) string {
	var b strings.Builder
	b.Grow(len(s) + len(s)/8) // filled lines gain an indent here and there
	inVerbatim := false
	for l := range strings.SplitSeq(s, "\n") {
		// A verbatim block may start or end inside a line.
		verb := inVerbatim
		// Copying rune by rune also turns invalid UTF-8 into U+FFFD.
		if strings.ContainsAny(l, verbatimOn+verbatimOff) || !utf8.ValidString(l) {
			var kept strings.Builder
			for _, r := range l {
				switch string(r) {
				case verbatimOn:
					inVerbatim, verb = true, true
					continue
				case verbatimOff:
					inVerbatim = false
					continue
				}
				kept.WriteRune(r)
			}
			l = kept.String()
		}
		l = strings.TrimRight(l, " \t")
		if verb || engine.Width(l) <= Width && !strings.HasPrefix(l, hangMark) {
			b.WriteString(strings.TrimPrefix(l, hangMark))
		} else {
			b.WriteString(fill(l))
		}
		b.WriteByte('\n')
	}
	s = strings.Trim(oneBlankLine(b.String()), "\n")
	return s + "\n"
}

// fill wraps one line of prose to Width columns.
func fill(l string) string {
	hang := strings.HasPrefix(l, hangMark)
	l = strings.TrimPrefix(l, hangMark)
	indent := len(l) - len(strings.TrimLeft(l, " "))
	first := l[:indent]
	rest := first
	if m := bullet.FindString(l); m != "" {
		first, rest = m, strings.Repeat(" ", engine.Width(m))
	} else if hang {
		rest = first + "  "
	}
	return engine.Wrap(l[len(first):], Width, first, rest)
}

// wrap fills prose to Width columns, paragraph by paragraph (blank lines
// kept), each paragraph flush left.
func wrap(s string) string {
	var out []string
	for _, para := range strings.Split(strings.TrimRight(s, "\n"), "\n\n") {
		out = append(out, engine.Wrap(strings.Join(strings.Fields(para), " "), Width, "", ""))
	}
	return strings.Join(out, "\n\n")
}

// shell writes a command for a player to paste into a shell, indented by
// indent spaces and broken where a shell still reads one command: between
// words, with a backslash at the end of each broken line, continuation
// lines two spaces deeper. A word never breaks, so a seed stays whole.
func shell(indent int, words ...string) string {
	pad := strings.Repeat(" ", indent)
	var lines []string
	line := pad
	for _, w := range words {
		if line != pad && line != pad+"  " && engine.Width(line)+1+engine.Width(w)+2 > Width {
			lines = append(lines, line+" \\")
			line = pad + "  "
		}
		if line != pad && line != pad+"  " {
			line += " "
		}
		line += w
	}
	lines = append(lines, line)
	return verbatim(strings.Join(lines, "\n"))
}

// oneBlankLine makes every run of blank lines in s one (three newlines
// or more become two). It and noBlankLines are written out rather than
// regular expressions: every mail goes through them, and the expressions
// were a tenth of rendering one.
func oneBlankLine(s string) string {
	if !strings.Contains(s, "\n\n\n") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for {
		i := strings.Index(s, "\n\n\n")
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i+2])
		s = strings.TrimLeft(s[i:], "\n")
	}
}

// noBlankLines writes s to b without its blank lines (empty, or spaces
// and tabs only): a newline followed by such lines is one newline.
func noBlankLines(b *strings.Builder, s []byte) {
	for {
		j := bytes.IndexByte(s, '\n')
		if j < 0 {
			b.Write(s)
			return
		}
		b.Write(s[:j+1])
		s = s[j+1:]
		for {
			k := 0
			for k < len(s) && (s[k] == ' ' || s[k] == '\t') {
				k++
			}
			if k == len(s) || s[k] != '\n' {
				break
			}
			s = s[k+1:]
		}
	}
}

// tidyHTML drops the blank lines that template actions leave between
// elements, except inside <pre>, where every line counts.
func tidyHTML(html []byte) string {
	// Whitespace at either end goes first: the same as trimming it after,
	// as dropping blank lines touches nothing else (TestTidyHTML).
	s := bytes.TrimSpace(html)
	var out strings.Builder
	out.Grow(len(s) + 1)
	for {
		i := bytes.Index(s, []byte("<pre"))
		if i < 0 {
			noBlankLines(&out, s)
			break
		}
		j := bytes.Index(s[i:], []byte("</pre>"))
		if j < 0 {
			out.Write(s)
			break
		}
		noBlankLines(&out, s[:i])
		out.Write(s[i : i+j+len("</pre>")])
		s = s[i+j+len("</pre>"):]
	}
	return out.String() + "\n"
}

// fit keeps a block as written (verbatim) except lines wider than Width,
// which it fills under their own indent and four spaces more: a ruleset's
// order help or status, whose long lines would otherwise be broken by the
// reader's window at a random column.
func fit(s string) string {
	var out []string
	for _, l := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
		if engine.Width(l) <= Width {
			out = append(out, l)
			continue
		}
		ind := len(l) - len(strings.TrimLeft(l, " "))
		rest := strings.Repeat(" ", min(ind+4, Width/2))
		out = append(out, engine.Wrap(l[ind:], Width, l[:ind], rest))
	}
	return verbatim(strings.Join(out, "\n"))
}

// col writes one entry of a two-column list: key at two spaces, text after
// it in a column width wide, continued under that column.
func col(width int, key, text string) string {
	first := "  " + key
	pad := strings.Repeat(" ", 2+width+1)
	if engine.Width(first) >= 2+width+1 {
		return verbatim(first + "\n" + engine.Wrap(text, Width, pad, pad))
	}
	first += strings.Repeat(" ", 2+width+1-engine.Width(first))
	return verbatim(engine.Wrap(text, Width, first, pad))
}

// playerText is a player's words with the characters that could disguise
// them taken out: line breaks of every kind become newlines (a bare CR, a
// form feed or U+2028 start a new line in some clients), and other control
// characters (tidy's own marks among them) and bidirectional overrides
// (which could move a quote mark to the far end of a line) go.
func playerText(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\r' || r == '\v' || r == '\f' || r == 0x85 || r == 0x2028 || r == 0x2029:
			return '\n'
		case r == '\t':
			return ' '
		case r < 0x20 && r != '\n', r == 0x7f, r >= 0x80 && r < 0xa0,
			r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f, r == 0x061c:
			return -1
		}
		return r
	}, s)
}

// quote marks a player's words as theirs in a text part: every line, as a
// mail client shows it, begins with "> ", long ones filled to Width
// columns, so that nothing a player writes (a line like "Press from cyd to
// bob:" or "Game news: the deadline moved") can pass for a line of the
// bot's own. The block is kept as it is (verbatim).
func quote(s string) string {
	var out []string
	for _, l := range strings.Split(strings.Trim(playerText(s), "\n"), "\n") {
		if strings.TrimSpace(l) == "" {
			out = append(out, ">")
			continue
		}
		out = append(out, engine.Wrap(l, Width, "> ", "> "))
	}
	return verbatim(strings.Join(out, "\n"))
}
