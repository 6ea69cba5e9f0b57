package route

import (
	"orrery/pbem/inmail"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

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

// Classifier tells orders from chatter for one order language.
type Classifier struct {
	verbs    map[string]bool // order verbs and command words, folded
	keywords map[string]bool // other fixed words of 3 letters or more, folded
	close    []string        // verbs and command words for typo matching
}

// NewClassifier makes a classifier for an order language: verbs start
// orders, keywords are its other fixed words. The command words are
// always added.
func NewClassifier(verbs, keywords []string) *Classifier {
	c := &Classifier{verbs: map[string]bool{}, keywords: map[string]bool{}}
	for _, w := range verbs {
		if w = fold(w); w != "" && !c.verbs[w] {
			c.verbs[w] = true
			c.close = append(c.close, w)
		}
	}
	for _, w := range commandWords {
		if w := fold(string(w)); !c.verbs[w] {
			c.verbs[w] = true
			c.close = append(c.close, w)
		}
	}
	for _, w := range keywords {
		if w = fold(w); utf8.RuneCountInString(w) >= 3 && !c.verbs[w] {
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
	first := fold(trimWord(toks[0]))
	switch {
	case c.verbs[first]:
		return true
	case boardLine(toks):
		return false
	case chatterWords[strings.ToLower(trimWord(toks[0]))]:
		return false
	case c.nearVerb(first):
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
		w := fold(trimWord(t))
		if (c.verbs[w] || c.keywords[w]) && !seen[w] {
			seen[w] = true
			n++
		}
	}
	return n >= 2 && !prose
}

// nearVerb reports whether w is one or two typos away from an order or
// command word (see the rules above).
func (c *Classifier) nearVerb(w string) bool {
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
		w := strings.ToLower(trimWord(tok))
		if proseWords[w] && !c.verbs[fold(w)] && !c.keywords[fold(w)] {
			return true
		}
	}
	return strings.ContainsAny(t, `"`) || strings.Contains(t, "'s ") || strings.Contains(t, "n't")
}

const bullets = "-*•·>–—+"

// trimWord takes punctuation off a word's ends: "Hello," → "Hello".
func trimWord(s string) string {
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

// fold is how words are compared: upper case, Cyrillic letters that look
// like Latin ones read as Latin (Burning Planets accepts "СТРОИТЬ" typed
// with a Latin C), Ё as Е.
func fold(s string) string { return lookalike.Replace(strings.ToUpper(strings.TrimSpace(s))) }

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
		if len(f) == 0 || c.verbs[fold(trimWord(f[0]))] || !namesWord(t, r.Game) {
			continue
		}
		boards := 0
		for j := i + 1; j < len(lines) && j <= i+12; j++ {
			if boardLine(strings.Fields(lines[j].Text)) {
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
		if skip[i] || !c.startsWithVerb(texts[i]) {
			continue
		}
		last := utf8.RuneCountInString(strings.TrimRight(texts[i], " "))
		j := i + 1
		for ; j < len(texts) && !skip[j] && last >= 60; j++ {
			next := strings.TrimSpace(texts[j])
			f := strings.Fields(next)
			if len(f) == 0 || c.startsWithVerb(next) || c.nearVerb(fold(trimWord(f[0]))) ||
				chatterWords[strings.ToLower(trimWord(f[0]))] || last+1+utf8.RuneCountInString(f[0]) <= 72 {
				break
			}
			texts[i] = strings.TrimRight(texts[i], " ") + " " + next
			texts[j] = ""
			last = utf8.RuneCountInString(next)
		}
		i = j - 1
	}
}

func (c *Classifier) startsWithVerb(line string) bool {
	f := strings.Fields(line)
	return len(f) > 0 && c.verbs[fold(trimWord(f[0]))]
}
