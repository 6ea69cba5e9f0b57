package route

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"orrery/engine/orderline"
	"orrery/pbem/inmail"
)

// Which lines of a mail about a game are read as orders, and which are
// chatter listed under "Not read as orders", is engine/orderline's rule
// (its comment lists it), shared with the conformance suite so that a
// ruleset whose own orders the rule would not read fails a test. The order
// words come from the ruleset (engine.OrderWords); a mail that names no
// game is read with the words of every ruleset.

// Classifier tells orders from chatter for one order language and the
// mail commands.
type Classifier = orderline.Classifier

// NewClassifier makes a classifier for an order language: verbs start
// orders, keywords are its other fixed words. The command words are
// always added to the verbs.
func NewClassifier(verbs, keywords []string) *Classifier {
	all := append([]string(nil), verbs...)
	for _, w := range commandWords {
		all = append(all, string(w))
	}
	return orderline.New(all, keywords)
}

// namesWord reports whether t holds word as a word of its own: not next to
// a letter, a digit or a hyphen, in any case (Unicode simple folding, as
// regexp's (?i) does). It does what a regexp built from word would, without
// compiling one for every mail: that compile was half the time of parsing
// a short mail.
func namesWord(t, word string) bool {
	if word == "" {
		return false
	}
	joins := func(r rune) bool { return unicode.IsLetter(r) || unicode.IsNumber(r) || r == '-' }
	for i := 0; i < len(t); {
		if n, ok := foldPrefix(t[i:], word); ok {
			before, _ := utf8.DecodeLastRuneInString(t[:i])
			after, _ := utf8.DecodeRuneInString(t[i+n:])
			if (i == 0 || !joins(before)) && (i+n == len(t) || !joins(after)) {
				return true
			}
		}
		_, size := utf8.DecodeRuneInString(t[i:])
		i += size
	}
	return false
}

// foldPrefix reports whether s starts with word under simple case
// folding, and how many bytes of s that prefix takes.
func foldPrefix(s, word string) (int, bool) {
	n := 0
	for _, w := range word {
		if n >= len(s) {
			return 0, false
		}
		r, size := utf8.DecodeRuneInString(s[n:])
		if r != w && !sameFold(r, w) {
			return 0, false
		}
		n += size
	}
	return n, true
}

// sameFold reports whether a and b are in one simple case-folding orbit.
func sameFold(a, b rune) bool {
	for f := unicode.SimpleFold(a); f != a; f = unicode.SimpleFold(f) {
		if f == b {
			return true
		}
	}
	return false
}

// pasted marks, in skip, a report of ours that the player pasted back
// without quote marks (a whole report under the orders): from a line that
// names the game and is followed by a board (two board lines within the
// next twelve), to the line that repeats the game's subject tag in the
// report's closing hint and the rest of that paragraph, or to the end.
// Its lines are only listed as not read, however much they look like
// orders: a report holds its own examples of orders.
func (r *Result) pasted(lines []inmail.Line, c *Classifier, skip []bool) {
	for i := 0; i < len(lines); i++ {
		t := lines[i].Text
		f := strings.Fields(t)
		if len(f) == 0 || c.StartsWithVerb(t) || !namesWord(t, r.Game) {
			continue
		}
		boards := 0
		for j := i + 1; j < len(lines) && j <= i+12; j++ {
			if orderline.BoardLine(lines[j].Text) {
				boards++
			}
		}
		if boards < 2 {
			continue
		}
		end := len(lines) - 1
		for j := i + 1; j < len(lines); j++ {
			if strings.Contains(strings.ToLower(lines[j].Text), "["+r.Game) {
				end = j
				for end+1 < len(lines) && strings.TrimSpace(lines[end+1].Text) != "" {
					end++
				}
				break
			}
		}
		for j := i; j <= end; j++ {
			skip[j] = true
		}
		if r.PastedFrom == 0 {
			r.PastedFrom = lines[i].N
		}
		r.PastedTo = lines[end].N
		i = end
	}
}

// rejoin mends order lines that a mail client broke in two (Gmail's
// text/plain wraps at 76 columns; others at 72) when no unbroken copy of
// the mail came with it: a long line that starts with an order word,
// followed by a line that starts with no order or command word and whose
// first word would not have fitted on the line before, is one line. The
// joined text takes the first line's place and the second is blanked, so
// line numbers still count the lines as sent.
func rejoin(texts []string, c *Classifier, skip []bool) {
	for i := 0; i+1 < len(texts); i++ {
		if skip[i] || !c.StartsWithVerb(texts[i]) {
			continue
		}
		last := utf8.RuneCountInString(strings.TrimRight(texts[i], " "))
		j := i + 1
		for ; j < len(texts) && !skip[j] && last >= 60; j++ {
			next := strings.TrimSpace(texts[j])
			f := strings.Fields(next)
			if len(f) == 0 || c.StartsWithVerb(next) || c.NearVerb(orderline.Fold(orderline.TrimWord(f[0]))) ||
				orderline.Chatter(f[0]) || last+1+utf8.RuneCountInString(f[0]) <= 72 {
				break
			}
			texts[i] = strings.TrimRight(texts[i], " ") + " " + next
			texts[j] = ""
			last = utf8.RuneCountInString(next)
		}
		i = j - 1
	}
}
