package lang

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Catalog holds the translations of one body of text (the mail templates,
// a ruleset's phrases). As in gettext, a message is keyed by its English
// form, a fmt format ("Hello %s,"): English needs no catalog, the code and
// the templates read as English, and a language missing a message falls
// back to English rather than to a key.
//
// A catalog can also translate a sentence that was formatted in English
// elsewhere (an engine notice, an error of the mail reader): Translate
// matches it against the English formats it knows and formats the
// translation with the same arguments. That keeps the code that words
// those sentences free of any language, at the price that a reworded
// English sentence is left untranslated until its catalog entry follows.
//
// A Catalog is filled once (Add, AddPO) and then only read; reading is
// safe from several goroutines.
type Catalog struct {
	msgs map[Tag]map[string][]string // msgid → forms: one, or one per plural form
	// plurals maps a msgid to its English plural (msgid_plural).
	plurals map[string]string
	flags   map[string][]string // msgid → PO flags ("#, matched")
	pats    []*pattern          // for Translate, most specific first
	sorted  bool
}

// NewCatalog returns an empty catalog.
func NewCatalog() *Catalog {
	return &Catalog{msgs: map[Tag]map[string][]string{}, plurals: map[string]string{}, flags: map[string][]string{}}
}

// Add records the translation of msgid into t: one form, or one form per
// plural form of t (see Forms) for a message chosen by a count.
func (c *Catalog) Add(t Tag, msgid string, forms ...string) {
	if c.msgs[t] == nil {
		c.msgs[t] = map[string][]string{}
	}
	if _, ok := c.msgs[t][msgid]; !ok {
		c.pats = append(c.pats, compile(msgid))
		c.sorted = false
	}
	c.msgs[t][msgid] = forms
}

// Has reports whether msgid has a translation into t.
func (c *Catalog) Has(t Tag, msgid string) bool {
	f, ok := c.msgs[t][msgid]
	return ok && len(f) > 0 && f[0] != ""
}

// IDs lists the msgids translated into t, sorted.
func (c *Catalog) IDs(t Tag) []string {
	var out []string
	for id := range c.msgs[t] {
		out = append(out, id)
	}
	sort.Strings(out)
	return out
}

// Flags returns the PO flags of msgid ("matched", …).
func (c *Catalog) Flags(msgid string) []string { return c.flags[msgid] }

// Languages lists the languages the catalog has messages for, sorted.
func (c *Catalog) Languages() []Tag {
	var out []Tag
	for t := range c.msgs {
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// Sprintf formats the message format in t: its translation if there is
// one, else the English format itself.
func (c *Catalog) Sprintf(t Tag, format string, args ...any) string {
	if c != nil {
		if f, ok := c.msgs[t][format]; ok && len(f) > 0 && f[0] != "" {
			format = f[0]
		}
	}
	if len(args) == 0 {
		return strings.ReplaceAll(format, "%%", "%")
	}
	return fmt.Sprintf(format, args...)
}

// Nprintf formats a message chosen by the count n: one and other are its
// English forms ("%d problem", "%d problems"); a translation supplies one
// form per plural form of t, chosen by t's plural rule. With no args, n is
// the only argument.
func (c *Catalog) Nprintf(t Tag, n int, one, other string, args ...any) string {
	form := func(f string) string {
		if len(args) == 0 && !verb.MatchString(f) {
			return strings.ReplaceAll(f, "%%", "%") // "correct them": no count shown
		}
		if len(args) == 0 {
			return fmt.Sprintf(f, n)
		}
		return fmt.Sprintf(f, args...)
	}
	if c != nil {
		if f, ok := c.msgs[t][one]; ok && len(f) > 0 && f[0] != "" {
			i := FormIndex(t, n)
			if i >= len(f) {
				i = len(f) - 1
			}
			return form(f[i])
		}
	}
	if FormIndex(English, n) == 0 {
		return form(one)
	}
	return form(other)
}

// FormIndex is the index of the form of a noun or message for n items in
// language t, in the order Forms describes.
func FormIndex(t Tag, n int) int {
	switch c := Plural(t, n); {
	case t == Russian && c == Few:
		return 1
	case t == Russian && c == Many:
		return 2
	case c != One:
		return 1
	}
	return 0
}

// Translate translates a sentence already formatted in English: it finds
// the English format that produced it and formats that format's
// translation with the same arguments. ok is false (and s is returned
// as is) when no format matches or the match has no translation into t.
func (c *Catalog) Translate(t Tag, s string) (string, bool) {
	return c.TranslateArgs(t, s, nil)
}

// TranslateArgs is Translate with each %s or %v argument passed through
// arg first, for arguments that are themselves phrases to translate ("a
// cannon (bob) at K6" inside "%s attacks %s").
func (c *Catalog) TranslateArgs(t Tag, s string, arg func(string) string) (string, bool) {
	if c == nil || t == English || s == "" || len(c.msgs[t]) == 0 {
		return s, false
	}
	if f, ok := c.msgs[t][s]; ok && len(f) > 0 && f[0] != "" && !strings.Contains(s, "%") {
		return f[0], true
	}
	c.sort()
	for _, p := range c.pats {
		if !strings.HasPrefix(s, p.prefix) {
			continue
		}
		m := p.re.FindStringSubmatch(s)
		if m == nil {
			continue
		}
		f, ok := c.msgs[t][p.msgid]
		if !ok || len(f) == 0 || f[0] == "" {
			continue
		}
		args := make([]any, len(p.verbs))
		n := -1
		for i, v := range p.verbs {
			args[i] = m[i+1]
			switch v {
			case 'd':
				if x, err := strconv.Atoi(m[i+1]); err == nil {
					args[i] = x
					if n < 0 {
						n = x
					}
				}
			case 'q':
				if x, err := strconv.Unquote(m[i+1]); err == nil {
					args[i] = x
				}
			default:
				if arg != nil {
					args[i] = arg(m[i+1])
				}
			}
		}
		form := f[0]
		if len(f) > 1 && n >= 0 {
			form = f[min(FormIndex(t, n), len(f)-1)]
		}
		return fmt.Sprintf(form, args...), true
	}
	return s, false
}

// pattern is an English format compiled for Translate.
type pattern struct {
	msgid  string
	prefix string // the literal text before the first verb
	re     *regexp.Regexp
	verbs  []byte // the verb of each argument: s, d, q, v
	lits   int    // literal length: longer is more specific
}

var verb = regexp.MustCompile(`%(?:\[\d+\])?[-+# 0]*\d*(?:\.\d+)?[sdqvx%]`)

func compile(msgid string) *pattern {
	p := &pattern{msgid: msgid}
	var re strings.Builder
	re.WriteString(`^`)
	last := 0
	first := true
	for _, loc := range verb.FindAllStringIndex(msgid, -1) {
		lit := msgid[last:loc[0]]
		if first {
			p.prefix = lit
		}
		re.WriteString(regexp.QuoteMeta(lit))
		p.lits += len(lit)
		v := msgid[loc[1]-1]
		switch v {
		case '%':
			re.WriteString(`%`)
			p.lits++
			last = loc[1]
			continue
		case 'd':
			re.WriteString(`(-?\d+)`)
		case 'q':
			re.WriteString(`("(?:[^"\\]|\\.)*")`)
		default:
			re.WriteString(`(.+?)`)
		}
		first = false
		p.verbs = append(p.verbs, v)
		last = loc[1]
	}
	if first {
		p.prefix = strings.ReplaceAll(msgid, "%%", "%")
	}
	re.WriteString(regexp.QuoteMeta(msgid[last:]))
	p.lits += len(msgid) - last
	re.WriteString(`$`)
	p.re = regexp.MustCompile(re.String())
	return p
}

func (c *Catalog) sort() {
	if c.sorted {
		return
	}
	// Written once, before any reader: see the type's comment.
	sort.SliceStable(c.pats, func(i, j int) bool { return c.pats[i].lits > c.pats[j].lits })
	c.sorted = true
}

// Freeze prepares the catalog for reading from several goroutines; call it
// once after the last Add.
func (c *Catalog) Freeze() { c.sort() }

// AddPO reads messages in the gettext PO format into t: msgid, msgstr,
// msgid_plural with msgstr[0], msgstr[1]… (one per plural form of t, in the
// order Forms gives), strings continued on following lines, and flags
// ("#, matched"). Other comments are ignored; an entry with an empty
// msgstr is left out, so that English stands in for it.
func (c *Catalog) AddPO(t Tag, src string) error {
	type entry struct {
		id, plural string
		forms      []string
		flags      []string
		line       int
	}
	var (
		cur    *entry
		target *string
		flags  []string
	)
	flush := func() error {
		if cur == nil {
			return nil
		}
		if cur.id != "" {
			if cur.plural != "" {
				if _, seen := c.plurals[cur.id]; !seen {
					// The English plural is matched too: "5 problems".
					p := compile(cur.plural)
					p.msgid = cur.id
					c.pats = append(c.pats, p)
				}
				c.plurals[cur.id] = cur.plural
			}
			if len(cur.flags) > 0 {
				c.flags[cur.id] = cur.flags
			}
			if len(cur.forms) > 0 && cur.forms[0] != "" {
				if n := strings.Count(cur.id, "%") - 2*strings.Count(cur.id, "%%"); n != strings.Count(cur.forms[0], "%")-2*strings.Count(cur.forms[0], "%%") && !strings.Contains(cur.forms[0], "%[") {
					return fmt.Errorf("line %d: the translation of %q has %d verbs, not %d", cur.line, cur.id, strings.Count(cur.forms[0], "%"), n)
				}
				c.Add(t, cur.id, cur.forms...)
			}
		}
		cur, target = nil, nil
		return nil
	}
	for i, raw := range strings.Split(src, "\n") {
		n := i + 1
		line := strings.TrimSpace(raw)
		switch {
		case line == "":
			if err := flush(); err != nil {
				return err
			}
			continue
		case strings.HasPrefix(line, "#,"):
			for _, f := range strings.Split(line[2:], ",") {
				if f = strings.TrimSpace(f); f != "" {
					flags = append(flags, f)
				}
			}
			continue
		case strings.HasPrefix(line, "#"):
			continue
		case strings.HasPrefix(line, `"`):
			if target == nil {
				return fmt.Errorf("line %d: a string continues nothing", n)
			}
			s, err := strconv.Unquote(line)
			if err != nil {
				return fmt.Errorf("line %d: %w", n, err)
			}
			*target += s
			continue
		}
		key, val, ok := strings.Cut(line, " ")
		if !ok {
			return fmt.Errorf("line %d: want a keyword and a quoted string", n)
		}
		s, err := strconv.Unquote(strings.TrimSpace(val))
		if err != nil {
			return fmt.Errorf("line %d: %s: %w", n, key, err)
		}
		switch {
		case key == "msgid":
			if err := flush(); err != nil {
				return err
			}
			cur = &entry{id: s, flags: flags, line: n}
			flags = nil
			target = &cur.id
		case key == "msgid_plural" && cur != nil:
			cur.plural = s
			target = &cur.plural
		case key == "msgstr" && cur != nil:
			cur.forms = []string{s}
			target = &cur.forms[0]
		case strings.HasPrefix(key, "msgstr[") && cur != nil:
			k, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(key, "msgstr["), "]"))
			if err != nil || k != len(cur.forms) {
				return fmt.Errorf("line %d: %s out of order", n, key)
			}
			cur.forms = append(cur.forms, s)
			target = &cur.forms[k]
		default:
			return fmt.Errorf("line %d: unexpected %s", n, key)
		}
	}
	return flush()
}

// MustPO is a frozen catalog of the PO sources srcs, all in language t:
// the embedded catalog of a game, read once at start. A source that does
// not parse is a bug of the build, caught by the game's tests, so it
// panics, naming owner ("games/orbital").
func MustPO(owner string, t Tag, srcs ...string) *Catalog {
	c := NewCatalog()
	for _, src := range srcs {
		if err := c.AddPO(t, src); err != nil {
			panic(owner + ": " + err.Error())
		}
	}
	c.Freeze()
	return c
}
