// Package orderline tells the lines of a mail that are orders from the
// lines that are chatter, for one order language. It lives in the engine,
// not the mail side, so that the conformance suite (engine/enginetest) reads
// a ruleset's bot orders and order help with the very rule the mail side
// reads players' mail with: an order word a ruleset's parser accepts but its
// OrderWords do not list fails a test instead of turning players' orders
// into "Not read as orders".
//
// # Which lines are read as orders
//
// People write mail, not order files: "Hi!", "Here are my orders for this
// turn:", a sign-off, a name, the report pasted back. Such lines are not
// orders, and refusing a whole mail for them loses the orders in it; yet a
// mistyped order ("SETLE Vega 3") must never be dropped in silence. So in
// a mail about a game, every line that is not a command is first
// classified (Classifier.Order):
//
//  1. A line whose first word is one of the ruleset's order words or a
//     command word (HELP, JOIN…), ignoring case, is an order.
//  2. A board or table line (mostly one-character cells: ". * .",
//     "1 A zed 0 0 0 30", "/ \ /") is not.
//  3. A line that opens with a greeting or a word of prose ("Hi", "Hello",
//     "Thanks", "Here", "Please", "Привет", "Вот"…) is not.
//  4. A line whose first word is close to an order or command word (one
//     typo in a word of 4 to 7 letters, two in a longer one; two letters
//     swapped count as one) is an order: "SETLE", "MOEV", "BILD".
//  5. A line that starts with another fixed word of the order language
//     (ELSE, FROM…; 3 letters or more) is an order: the second half of a
//     broken line.
//  6. A line that starts with a number or a short code (5, K6, 10B) and
//     has no word of prose is an order: "5 FROM Sol TO Vega".
//  7. A line with two or more order words and no sign of prose (sentence
//     punctuation at its end, a word like "my", "you", "will", "the")
//     is an order: "Going to attack Vega from Sol".
//  8. Anything else is not.
//
// An order goes to the ruleset, which accepts it or answers with the line
// and a fix. A line that is not an order is listed in the acknowledgement
// under "Not read as orders", so the player sees that nothing was lost.
//
// The order words come from the ruleset (engine.OrderWords); a mail that
// names no game is read with the words of every ruleset. Words are compared
// with Cyrillic letters that look like Latin ones folded to Latin, as
// Burning Planets reads them.
package orderline

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Classifier tells orders from chatter for one order language.
type Classifier struct {
	verbs    map[string]bool // order verbs (and the mail side's command words), folded
	keywords map[string]bool // other fixed words of 3 letters or more, folded
	close    []string        // verbs and command words for typo matching
}

// New makes a classifier for an order language: verbs start orders
// (the mail side adds its command words to them), keywords are its other
// fixed words.
func New(verbs, keywords []string) *Classifier {
	c := &Classifier{verbs: map[string]bool{}, keywords: map[string]bool{}}
	for _, w := range verbs {
		if w = Fold(w); w != "" && !c.verbs[w] {
			c.verbs[w] = true
			c.close = append(c.close, w)
		}
	}
	for _, w := range keywords {
		if w = Fold(w); utf8.RuneCountInString(w) >= 3 && !c.verbs[w] {
			c.keywords[w] = true
		}
	}
	return c
}

// Order reports whether line is to be read as an order (or a command
// with its arguments wrong), by the rules above.
func (c *Classifier) Order(line string) bool {
	toks := strings.Fields(line)
	// A bullet or a quote mark before the first word does not hide it.
	for len(toks) > 0 && strings.Trim(toks[0], bullets) == "" {
		toks = toks[1:]
	}
	if len(toks) == 0 {
		return false
	}
	first := Fold(TrimWord(toks[0]))
	switch {
	case c.verbs[first]:
		return true
	case boardLine(toks):
		return false
	case chatterWords[strings.ToLower(TrimWord(toks[0]))]:
		return false
	case c.NearVerb(first):
		return true
	case c.keywords[first]:
		return true
	}
	prose := c.prose(line, toks)
	if (isNumber(first) || isCode(first)) && !prose {
		return true
	}
	n := 0
	seen := map[string]bool{}
	for _, t := range toks {
		w := Fold(TrimWord(t))
		if (c.verbs[w] || c.keywords[w]) && !seen[w] {
			seen[w] = true
			n++
		}
	}
	return n >= 2 && !prose
}

// NearVerb reports whether the word w is one or two typos away from an order or
// command word (see the rules above).
func (c *Classifier) NearVerb(w string) bool {
	n := utf8.RuneCountInString(w)
	if n < 4 || !isWord(w) {
		return false
	}
	limit := 1
	if n >= 8 {
		limit = 2
	}
	for _, v := range c.close {
		if d := osa(w, v); d <= limit && utf8.RuneCountInString(v) >= 4 {
			return true
		}
	}
	return false
}

// prose reports signs of a sentence: punctuation at the end, or a word
// that sentences have and orders never do.
func (c *Classifier) prose(line string, toks []string) bool {
	t := strings.TrimSpace(line)
	if r, _ := utf8.DecodeLastRuneInString(t); strings.ContainsRune(".!?:,;)…", r) {
		return true
	}
	for _, tok := range toks {
		w := strings.ToLower(TrimWord(tok))
		if proseWords[w] && !c.verbs[Fold(w)] && !c.keywords[Fold(w)] {
			return true
		}
	}
	return strings.ContainsAny(t, `"`) || strings.Contains(t, "'s ") || strings.Contains(t, "n't")
}

const bullets = "-*•·>–—+"

// TrimWord takes punctuation off a word's ends: "Hello," → "Hello".
func TrimWord(s string) string {
	return strings.TrimFunc(s, func(r rune) bool { return unicode.IsPunct(r) || unicode.IsSymbol(r) })
}

// boardLine recognises a line of a board or a table, mostly cells of one
// character ("M n4 - S -", "1 A zed 0 0 0 30", "/ \ /"), as reports have
// and orders do not.
func boardLine(toks []string) bool {
	if len(toks) < 3 {
		return false
	}
	small := 0
	for _, t := range toks {
		if utf8.RuneCountInString(t) == 1 || strings.TrimFunc(t, func(r rune) bool { return unicode.IsPunct(r) || unicode.IsSymbol(r) }) == "" {
			small++
		}
	}
	return small*2 > len(toks)
}

func isWord(s string) bool {
	for _, r := range s {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	return s != ""
}

// isCode is a short token of letters and digits with at least one digit
// and one letter: a cell (K6), an amount (10B), a unit (F2).
var codePattern = regexp.MustCompile(`^(\pL{1,3}\d{1,3}|\d{1,4}\pL{1,2})$`)

func isCode(s string) bool { return codePattern.MatchString(s) }

// Fold is how words are compared: upper case, Cyrillic letters that look
// like Latin ones read as Latin (Burning Planets accepts "СТРОИТЬ" typed
// with a Latin C), Ё as Е.
func Fold(s string) string { return lookalike.Replace(strings.ToUpper(strings.TrimSpace(s))) }

var lookalike = strings.NewReplacer(
	"А", "A", "В", "B", "Е", "E", "Ё", "E", "К", "K", "М", "M", "Н", "H",
	"О", "O", "Р", "P", "С", "C", "Т", "T", "Х", "X", "У", "Y",
)

// osa is the optimal string alignment distance: Levenshtein with a swap of
// two neighbouring letters counting as one edit ("MOEV" is one from "MOVE").
func osa(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}

func setOf(words ...string) map[string]bool {
	m := map[string]bool{}
	for _, w := range words {
		m[w] = true
	}
	return m
}

// chatterWords open a line of greeting or prose, in the languages our
// players write (lower case, punctuation trimmed). A ruleset's own order
// word is still an order (rule 1 comes first).
var chatterWords = setOf(
	"hi", "hello", "hey", "hiya", "howdy", "dear", "greetings", "thanks", "thank", "thx", "ty", "cheers",
	"regards", "best", "ok", "okay", "sorry", "please", "pls", "good", "here", "here's", "heres", "this",
	"these", "that", "my", "i", "i'm", "im", "i'll", "i've", "we", "see", "looking", "hope", "enjoy", "bye",
	"yo", "well", "so", "and", "but", "also", "sure", "great", "nice", "lol", "haha", "gl", "hf", "gg",
	"as", "sent", "kind", "many", "love", "yours", "sincerely", "have", "let", "let's", "lets", "just",
	"salut", "bonjour", "bonsoir", "merci", "voici", "hallo", "moin", "servus", "danke", "hier", "hola", "gracias",
	"привет", "приветствую", "здравствуйте", "здравствуй", "добрый", "доброе", "доброй", "спасибо", "пока",
	"вот", "всем", "удачи", "хорошего", "с", "мои", "мой", "я", "это", "ну", "итак", "ок",
)

// proseWords are words that sentences have and orders never do.
var proseWords = setOf(
	"you", "your", "my", "me", "we", "our", "us", "the", "is", "are", "am", "was", "were", "will", "would",
	"this", "that", "these", "those", "it", "its", "it's", "i'm", "i'll", "i've", "here", "there", "hope",
	"please", "thanks", "thank", "hello", "hi", "hey", "luck", "sorry", "just", "but", "have", "has", "had",
	"been", "not", "what", "why", "how", "who", "everyone", "everybody", "guys", "folks", "turn's", "let's",
	"я", "мы", "вы", "ты", "мой", "мои", "моя", "наш", "ваш", "это", "этот", "эти", "вот", "как", "что",
	"привет", "спасибо", "пожалуйста", "удачи", "всем", "всех",
	"je", "tu", "nous", "vous", "mon", "ma", "mes", "est", "sont", "ich", "du", "wir", "ihr", "mein",
	"meine", "ist", "sind", "bitte", "danke",
)

// StartsWithVerb reports whether line's first word is one of the verbs.
func (c *Classifier) StartsWithVerb(line string) bool {
	f := strings.Fields(line)
	return len(f) > 0 && c.verbs[Fold(TrimWord(f[0]))]
}

// BoardLine reports whether line is a line of a board or a table (see
// rule 2).
func BoardLine(line string) bool { return boardLine(strings.Fields(line)) }

// Chatter reports whether word opens a line of greeting or prose (rule 3).
func Chatter(word string) bool { return chatterWords[strings.ToLower(TrimWord(word))] }

func isNumber(s string) bool {
	_, err := strconv.Atoi(s)
	return err == nil
}
