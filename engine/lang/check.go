package lang

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"
)

// Check finds the count and article slips of English text that Count and A
// exist to prevent: "1 rolls", "1 dice", "fleet(s)", "a engine", "an
// unit". It is a lint for tests that scan what players read (goldens,
// reports, mails), and reports each slip with a little of its context. It
// knows English only: Russian forms need the noun's three forms, which
// only the writer has.
func Check(text string) []string {
	var out []string
	note := func(loc []int, why string) {
		from, to := max(loc[0]-20, 0), min(loc[1]+20, len(text))
		ctx := strings.Join(strings.Fields(text[from:to]), " ")
		out = append(out, fmt.Sprintf("%s: %q", why, ctx))
	}
	for _, loc := range either.FindAllStringIndex(text, -1) {
		note(loc, "a count written as either form")
	}
	for _, m := range one.FindAllStringSubmatchIndex(text, -1) {
		if plural(text[m[2]:m[3]]) && !labelled(text[:m[0]+1]) {
			note(m[:2], "1 with a plural noun")
		}
	}
	for _, m := range article.FindAllStringSubmatchIndex(text, -1) {
		art, word := text[m[2]:m[3]], text[m[4]:m[5]]
		if art[0] == 'A' && (!unicode.IsLower(rune(word[0])) || symbolVerbs[word]) {
			continue // a row of letters on a board, a heading, or "A is" (a symbol)
		}
		art = strings.ToLower(art)
		if an := anSound(word); an != (art == "an") {
			note(m[:2], "the article does not fit the sound of "+fmt.Sprintf("%q", word))
		}
	}
	return out
}

var (
	// either is "fleet(s)", "pass(es)", "victory(ies)".
	either = regexp.MustCompile(`\p{L}\((s|es|ies)\)`)
	// one is a 1 standing alone before a word: not "1.5", "-1", "11",
	// "1st" or "1 of 5".
	one = regexp.MustCompile(`(?:^|[^\p{L}\p{N}.\-+/:])1 ([a-z]+)\b`)
	// article is "a" or "an" as a word before a word of two letters or
	// more, or a number; "A" and "An" only before a lowercase word, so
	// that a board's row of letters ("A A B") is not prose. Not after a
	// dash or apostrophe ("Mars-a", "d'a").
	article = regexp.MustCompile(`(?:^|[\s(“"'])(a|an|A|An) (\p{N}[\p{N}-]*|\p{Ll}[\p{L}\p{N}-]+|\p{Lu}[\p{L}\p{N}-]+)`)
)

// symbolVerbs follow a capital A that is a symbol, not an article: "A is
// the group's size".
var symbolVerbs = map[string]bool{"is": true, "was": true, "and": true, "or": true, "to": true, "of": true, "in": true, "means": true}

// verbs are the third-person verbs the games write after a 1 ("group 1
// adds", "1 remains"), which end in s but are not plural nouns.
var verbs = func() map[string]bool {
	m := map[string]bool{}
	// Only words that are not also plural nouns: "fires", "moves" and
	// "rolls" stay slips after a 1.
	for _, v := range strings.Fields(`acts adds begins finds loads carries clears delivers fails gets goes has holds keeps lands
		lapses leaves loses makes remains stays succeeds takes`) {
		m[v] = true
	}
	return m
}()

// labelled reports whether the 1 after before is a label's number ("ship
// 1", "impulse 1 moves: ...") or a number named as a thing, after an
// article ("a 1 ends your turn": a die face), so the word after it is not
// counted by it.
func labelled(before string) bool {
	f := strings.Fields(before)
	if len(f) == 0 {
		return false
	}
	w := strings.ToLower(strings.TrimLeft(f[len(f)-1], "(\"'"))
	switch w {
	case "a", "the", "each", "every", "no", "any":
		return true
	case "ship", "impulse", "group", "round", "turn", "region", "step", "die", "pass", "line", "seat", "phase", "contract", "player", "moon", "attempt", "victory":
		return true
	}
	return false
}

// plural guesses whether an English noun is plural: ends in s (not ss,
// us, is) or is an irregular plural the games use. It errs towards
// silence: a word it does not know is taken as singular.
func plural(w string) bool {
	if verbs[w] {
		return false
	}
	switch w {
	case "dice", "people", "men", "children":
		return true
	case "of", "in", "is", "was", "has", "as", "this", "its", "plus", "bus", "gas", "yes", "less", "class", "status", "versus", "series", "news", "lens", "always", "towards", "afterwards":
		return false
	}
	if !strings.HasSuffix(w, "s") || len(w) < 3 {
		return false
	}
	for _, end := range []string{"ss", "us", "is", "ous"} {
		if strings.HasSuffix(w, end) {
			return false
		}
	}
	return true
}
