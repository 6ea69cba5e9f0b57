// Package lang is the one place where counts and articles are written, for
// every ruleset and every mail template alike, so that "1 victory", "2
// victories", "5 лесов" and "an engine module" come from the same rules in
// every language a player may choose.
//
// Plural categories follow CLDR (https://cldr.unicode.org, "Language Plural
// Rules") for whole numbers: English has one and other; Russian has one, few
// and many. Adding a language is adding its Tag, its rule in Plural and the
// number of forms its nouns take in Forms.
package lang

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Tag names a language by its ISO 639-1 code.
type Tag string

const (
	English Tag = "en"
	Russian Tag = "ru"
)

// Default is the language of a player who has chosen none.
const Default = English

// Supported lists every language the server can write, default first.
var Supported = []Tag{English, Russian}

// Parse reads a language as a player writes it ("ru", "RU", "ru-RU",
// "russian", "русский"); ok is false for a language the server cannot write.
func Parse(s string) (Tag, bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	if i := strings.IndexAny(s, "-_"); i > 0 {
		s = s[:i]
	}
	switch s {
	case "en", "eng", "english", "английский":
		return English, true
	case "ru", "rus", "russian", "русский", "ру", "рус":
		return Russian, true
	}
	return "", false
}

// Category is a CLDR plural category.
type Category int

const (
	One Category = iota
	Few
	Many
	Other
)

// Plural returns the category of the whole number n in language t. An
// unknown language counts as English.
func Plural(t Tag, n int) Category {
	if n < 0 {
		n = -n
	}
	switch t {
	case Russian:
		switch m10, m100 := n%10, n%100; {
		case m10 == 1 && m100 != 11:
			return One
		case m10 >= 2 && m10 <= 4 && (m100 < 12 || m100 > 14):
			return Few
		default:
			return Many
		}
	default:
		if n == 1 {
			return One
		}
		return Other
	}
}

// Forms is how many forms a noun takes in language t: English "planet,
// planets"; Russian "планета, планеты, планет" (one, few, many).
func Forms(t Tag) int {
	if t == Russian {
		return 3
	}
	return 2
}

// Noun picks the form of a noun for n items. forms are given in the order
// Forms describes; given fewer, the last one stands for the missing ones, so
// an invariable noun needs one form. With no form at all it returns "".
func Noun(t Tag, n int, forms ...string) string {
	if len(forms) == 0 {
		return ""
	}
	i := FormIndex(t, n)
	if i >= len(forms) {
		i = len(forms) - 1
	}
	return forms[i]
}

// Count writes n and its noun: Count(English, 1, "roll", "rolls") is "1
// roll"; Count(Russian, 5, "лес", "леса", "лесов") is "5 лесов".
func Count(t Tag, n int, forms ...string) string {
	return fmt.Sprintf("%d %s", n, Noun(t, n, forms...))
}

// N is Count in English, the language of every ruleset's own text.
func N(n int, singular, plural string) string { return Count(English, n, singular, plural) }

// A puts the English indefinite article before phrase, by its first word's
// sound: "a victory", "an engine module", "an hour", "a unit", "a one-way
// link", "an X-ray", "an 8".
func A(phrase string) string {
	if anSound(phrase) {
		return "an " + phrase
	}
	return "a " + phrase
}

// anSound reports whether phrase starts with a vowel sound.
func anSound(phrase string) bool {
	word := strings.TrimLeft(phrase, " \"'(‘“")
	if word == "" {
		return false
	}
	if end := strings.IndexFunc(word, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}); end > 0 {
		word = word[:end]
	}
	// A short all-capitals word is said letter by letter: "a UN fleet",
	// "an HQ", "a GM", "an AI".
	acronym := utf8.RuneCountInString(word) <= 3 && strings.ToUpper(word) == word && strings.ToLower(word) != word
	word = strings.ToLower(word)
	r, _ := utf8.DecodeRuneInString(word)
	if acronym {
		return strings.ContainsRune("aefhilmnorsx", r)
	}
	if unicode.IsDigit(r) {
		// Numbers said with a vowel sound: 8, 11, 18, 80-89, 800...
		return r == '8' || word == "11" || word == "18" || strings.HasPrefix(word, "11") && len(word)%3 == 2 || strings.HasPrefix(word, "18") && len(word)%3 == 2
	}
	for _, p := range []string{"hour", "honest", "honour", "honor", "heir"} {
		if strings.HasPrefix(word, p) {
			return true
		}
	}
	for _, p := range []string{"unin", "unim", "unid"} { // "an uninhabited planet": un-, not uni-
		if strings.HasPrefix(word, p) {
			return true
		}
	}
	for _, p := range []string{"uni", "use", "usu", "ure", "uti", "eu", "ewe", "one", "once", "ubiq", "uran", "uto"} {
		if strings.HasPrefix(word, p) {
			return false
		}
	}
	return strings.ContainsRune("aeiou", r)
}
