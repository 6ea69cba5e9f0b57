package lang

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Msg is a sentence not yet written: a message id and its arguments,
// rendered in the reader's language only when a mail or a page is
// written (Render). The engine, the rulesets and the mail side make
// Msgs where they used to format English: an event stored in a game's
// log keeps its Msg, so an old game's history is written in the
// language of whoever reads it now, and nothing ever has to guess which
// English sentence a formatted text came from.
//
// The id is the message's English fmt format, as gettext's msgid and
// golang.org/x/text/message's key are: the code reads as English, and
// English needs no catalog. Rewording it makes a new id, which has no
// translation until its catalog entry follows; the catalog tests of
// each package (Uses, Missing) find every id of the code and fail on
// one without a translation, so a reworded sentence cannot go out in
// English to a Russian reader unnoticed.
//
// Other is the English plural form of a message chosen by a count (the
// first integer argument, or Count when set): "%d ship" / "%d ships".
// Arguments are typed (see Arg): a nested Msg is rendered in the same
// language, a count chooses plural forms, a time is written in the
// reader's zone, a length of time in words.
type Msg struct {
	ID    string `json:"id"`
	Other string `json:"other,omitempty"`
	Args  []Arg  `json:"args,omitempty"`
	// Count is the 1-based index of the argument that chooses the
	// plural form; 0 means the first integer argument.
	Count int `json:"count,omitempty"`
}

// Arg is one argument of a Msg: exactly one of its fields is set. Its
// JSON is compact and keeps the type: a string, a number, an object
// {"m":…} (a nested message), {"t":…} (a time, RFC 3339), {"d":…} (a
// length of time in seconds) or {"l":[…],"j":"and"} (a list).
type Arg struct {
	Str  string
	Num  int
	Msg  *Msg
	Time time.Time
	Dur  time.Duration
	List []Arg
	Join string // for a List: "and", "or" or "," (rendered in the reader's language)
	kind byte   // 's', 'n', 'm', 't', 'd', 'l'
}

// M makes a message from its English format and its arguments: a string
// (a name, an order: written as is), an int (a count), a Msg or *Msg (a
// phrase of its own, translated), a time.Time, a time.Duration, an Arg,
// or a []Arg (a list, see And and Or). Anything else is written with %v
// now, in English: pass a Msg instead where the reader's language matters.
func M(id string, args ...any) Msg {
	m := Msg{ID: id}
	for _, a := range args {
		m.Args = append(m.Args, ArgOf(a))
	}
	return m
}

// MN makes a message chosen by a count: one and other are its English
// forms ("%d ship", "%d ships"); the first int argument is the count.
func MN(one, other string, args ...any) Msg {
	m := M(one, args...)
	m.Other = other
	return m
}

// ArgOf makes an Arg of a value as M does.
func ArgOf(a any) Arg {
	switch v := a.(type) {
	case Arg:
		return v
	case string:
		return Arg{Str: v, kind: 's'}
	case int:
		return Arg{Num: v, kind: 'n'}
	case int64:
		return Arg{Num: int(v), kind: 'n'}
	case Msg:
		return Arg{Msg: &v, kind: 'm'}
	case *Msg:
		if v == nil {
			return Arg{kind: 's'}
		}
		return Arg{Msg: v, kind: 'm'}
	case time.Time:
		return Arg{Time: v.UTC(), kind: 't'}
	case time.Duration:
		return Arg{Dur: v, kind: 'd'}
	case []Arg:
		return Arg{List: v, Join: ",", kind: 'l'}
	case []Msg:
		l := make([]Arg, len(v))
		for i := range v {
			l[i] = ArgOf(v[i])
		}
		return Arg{List: l, Join: ",", kind: 'l'}
	case fmt.Stringer:
		return Arg{Str: v.String(), kind: 's'}
	default:
		return Arg{Str: fmt.Sprint(v), kind: 's'}
	}
}

// And is a list of items joined in the reader's language: "ann, bob and
// cyd", «ann, bob и cyd». Items are what M takes.
func And(items ...any) Arg { return list("and", items) }

// Or is a list joined with "or".
func Or(items ...any) Arg { return list("or", items) }

// Strings is a list of strings joined with "and".
func Strings(items []string) Arg {
	l := make([]any, len(items))
	for i, s := range items {
		l[i] = s
	}
	return list("and", l)
}

func list(join string, items []any) Arg {
	a := Arg{Join: join, kind: 'l', List: []Arg{}}
	for _, it := range items {
		a.List = append(a.List, ArgOf(it))
	}
	return a
}

// Kind is the argument's type letter: s (string), n (number), m
// (message), t (time), d (duration), l (list).
func (a Arg) Kind() byte {
	if a.kind == 0 {
		return 's'
	}
	return a.kind
}

// MarshalJSON writes the compact form described on Arg.
func (a Arg) MarshalJSON() ([]byte, error) {
	switch a.Kind() {
	case 'n':
		return []byte(strconv.Itoa(a.Num)), nil
	case 'm':
		return json.Marshal(struct {
			M *Msg `json:"m"`
		}{a.Msg})
	case 't':
		return json.Marshal(struct {
			T string `json:"t"`
		}{a.Time.UTC().Format(time.RFC3339)})
	case 'd':
		return json.Marshal(struct {
			D int64 `json:"d"`
		}{int64(a.Dur / time.Second)})
	case 'l':
		return json.Marshal(struct {
			L []Arg  `json:"l"`
			J string `json:"j,omitempty"`
		}{a.List, a.Join})
	}
	return json.Marshal(a.Str)
}

// UnmarshalJSON reads what MarshalJSON writes.
func (a *Arg) UnmarshalJSON(b []byte) error {
	s := strings.TrimSpace(string(b))
	switch {
	case strings.HasPrefix(s, `"`):
		*a = Arg{kind: 's'}
		return json.Unmarshal(b, &a.Str)
	case strings.HasPrefix(s, "{"):
		var v struct {
			M *Msg    `json:"m"`
			T *string `json:"t"`
			D *int64  `json:"d"`
			L []Arg   `json:"l"`
			J string  `json:"j"`
		}
		if err := json.Unmarshal(b, &v); err != nil {
			return err
		}
		switch {
		case v.M != nil:
			*a = Arg{Msg: v.M, kind: 'm'}
		case v.T != nil:
			t, err := time.Parse(time.RFC3339, *v.T)
			if err != nil {
				return fmt.Errorf("a message's time argument: %w", err)
			}
			*a = Arg{Time: t.UTC(), kind: 't'}
		case v.D != nil:
			*a = Arg{Dur: time.Duration(*v.D) * time.Second, kind: 'd'}
		default:
			*a = Arg{List: v.L, Join: v.J, kind: 'l'}
			if a.List == nil {
				a.List = []Arg{}
			}
		}
		return nil
	default:
		n, err := strconv.Atoi(s)
		if err != nil {
			return fmt.Errorf("a message argument is neither a string, a number nor an object: %s", s)
		}
		*a = Arg{Num: n, kind: 'n'}
		return nil
	}
}

// IsZero reports whether m is no message at all.
func (m Msg) IsZero() bool { return m.ID == "" }

// English is m written in English, with times in UTC: what the engine
// records beside a message for the GM's command line, logs and games
// read by an older build.
func (m Msg) English() string { return Render(Env{Tag: English}, m) }

// String is English.
func (m Msg) String() string { return m.English() }

// Env is what rendering needs of the reader: the language, the time zone
// and how dates are written there, and the catalogs to look messages up
// in, most specific first (a ruleset's own before the templates').
type Env struct {
	Tag  Tag
	Zone *time.Location
	// Date writes a time for the reader; nil writes
	// "Mon 2006-01-02 15:04 UTC" in the zone (English weekdays).
	Date     func(time.Time) string
	Catalogs []*Catalog
}

// Render writes m for the reader of env.
func Render(env Env, m Msg) string {
	if m.ID == "" {
		return ""
	}
	format, other := m.ID, m.Other
	forms := []string{format}
	if other != "" {
		forms = []string{format, other}
	}
	if env.Tag != English && env.Tag != "" {
		for _, c := range env.Catalogs {
			if c == nil {
				continue
			}
			if f, ok := c.msgs[env.Tag][m.ID]; ok && len(f) > 0 && f[0] != "" {
				forms = f
				break
			}
		}
	}
	tag := env.Tag
	if tag == "" {
		tag = English
	}
	if len(forms) > 1 {
		n, ok := m.count()
		if ok {
			i := FormIndex(tag, n)
			if len(forms) == 2 && tag != English && forms[1] == other {
				i = FormIndex(English, n) // an English fallback
			}
			format = forms[min(i, len(forms)-1)]
		} else {
			format = forms[0]
		}
	} else {
		format = forms[0]
	}
	if len(m.Args) == 0 {
		if !verb.MatchString(format) || !strings.Contains(format, "%") {
			return format
		}
		if strings.Count(format, "%") == 2*strings.Count(format, "%%") {
			return strings.ReplaceAll(format, "%%", "%")
		}
	}
	args := make([]any, len(m.Args))
	for i, a := range m.Args {
		args[i] = env.arg(a)
	}
	if len(args) == 0 {
		if n, ok := m.count(); ok {
			args = []any{n}
		}
	}
	return fmt.Sprintf(format, args...)
}

func (m Msg) count() (int, bool) {
	if m.Count > 0 && m.Count <= len(m.Args) {
		return m.Args[m.Count-1].Num, true
	}
	for _, a := range m.Args {
		if a.Kind() == 'n' {
			return a.Num, true
		}
	}
	return 0, false
}

// arg is a's value for fmt: an int stays an int (for %d), everything
// else becomes the string the reader reads.
func (env Env) arg(a Arg) any {
	switch a.Kind() {
	case 'n':
		return a.Num
	case 'm':
		return Render(env, *a.Msg)
	case 't':
		if env.Date != nil {
			return env.Date(a.Time)
		}
		z := env.Zone
		if z == nil {
			z = time.UTC
		}
		return a.Time.In(z).Format("Mon 2006-01-02 15:04 MST")
	case 'd':
		return Duration(env.tag(), a.Dur)
	case 'l':
		items := make([]string, len(a.List))
		for i, it := range a.List {
			items[i] = fmt.Sprint(env.arg(it))
		}
		return Join(env.tag(), a.Join, items)
	}
	return a.Str
}

func (env Env) tag() Tag {
	if env.Tag == "" {
		return English
	}
	return env.Tag
}

// Join writes items as a list in t: "a, b and c" / «a, b и c»; join is
// "and", "or" or "," (a plain comma list).
func Join(t Tag, join string, items []string) string {
	word := map[Tag]map[string]string{
		English: {"and": " and ", "or": " or "},
		Russian: {"and": " и ", "or": " или "},
	}[t][join]
	if word == "" || len(items) < 2 {
		return strings.Join(items, ", ")
	}
	return strings.Join(items[:len(items)-1], ", ") + word + items[len(items)-1]
}
