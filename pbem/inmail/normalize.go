package inmail

import (
	"strings"
	"unicode"
)

// typography maps what editors and phones put in for the plain characters
// an order is written with: smart quotes, dashes, the many spaces that are
// not a space, and marks that print nothing. A player who types
// "SETTLE Vega 3" on an iPhone or pastes it from a word processor must be
// read exactly as one who typed it in a terminal.
var typography = strings.NewReplacer(
	"\ufeff", "", // byte-order mark (Notepad's orders.txt, pasted text)
	"\u200b", "", "\u200c", "", "\u200d", "", "\u2060", "", "\u00ad", "", // zero-width and soft hyphen
	"\u00a0", " ", "\u202f", " ", "\u2007", " ", "\u2009", " ", "\u200a", " ", "\u2002", " ", "\u2003", " ",
	"\u2004", " ", "\u2005", " ", "\u2006", " ", "\u2008", " ", "\u205f", " ", "\u3000", " ",
	"\u2018", "'", "\u2019", "'", "\u201a", "'", "\u201b", "'", "\u2032", "'",
	"\u201c", `"`, "\u201d", `"`, "\u201e", `"`, "\u201f", `"`, "\u00ab", `"`, "\u00bb", `"`, "\u2033", `"`,
	"\u2010", "-", "\u2011", "-", "\u2012", "-", "\u2013", "-", "\u2014", "-", "\u2015", "-", "\u2212", "-",
	"\u2026", "...",
	"\u2028", "\n", "\u2029", "\n",
)

// Normalize turns typographic characters into the plain ones orders are
// written with (see typography) and drops other invisible format
// characters. It keeps letters of every script: Russian orders stay
// Russian.
func Normalize(s string) string {
	s = typography.Replace(s)
	if strings.IndexFunc(s, invisible) < 0 {
		return s
	}
	return strings.Map(func(r rune) rune {
		if invisible(r) {
			return -1
		}
		return r
	}, s)
}

// invisible reports format characters (Unicode Cf: bidi marks and the
// like) that print nothing and only confuse a parser.
func invisible(r rune) bool { return unicode.Is(unicode.Cf, r) }
