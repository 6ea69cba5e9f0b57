package earthman

import (
	"orrery/engine"
	"orrery/engine/lang"
)

// The full rules word every sentence as a message (lang.Msg, see
// catalog.go): events, prompts, order errors and fixes, phases, dice and
// the end are recorded with their message and written in the reader's
// language by the mail side from ru-full.po. The board, the status and
// the picture are drawn by the view itself, in the language Localize
// gives it (fullView.lang), through the same catalog; order words,
// technology names (they are words of TECH and RESEARCH) and place names
// stay as the order language writes them.

// fullTr writes m in t (English when t is empty), from the game's
// catalog.
func fullTr(t lang.Tag, m lang.Msg) string {
	return lang.Render(lang.Env{Tag: t, Catalogs: []*lang.Catalog{catalog}}, m)
}

// fullAsk is p asking m (engine.Prompt.SetAsk).
func fullAsk(p engine.Prompt, m lang.Msg) engine.Prompt {
	p.SetAsk(m)
	return p
}

// andAll joins names with "and" as the full rules' English always did
// ("ann and bob and cyd"), each "and" in the reader's language.
func andAll(names []string) lang.Arg {
	if len(names) == 0 {
		return lang.ArgOf("")
	}
	a := lang.ArgOf(names[0])
	for _, n := range names[1:] {
		a = lang.ArgOf(lang.M("%s and %s", a, n))
	}
	return a
}

// Counts of the full rules' things, as messages: "3 fleets", «3 флота».
func nFleets(n int) lang.Msg { return lang.MN("%d fleet", "%d fleets", n) }

// tag is the view's language as a lang.Tag.
func (v *fullView) tag() lang.Tag {
	if t, ok := lang.Parse(v.lang); ok {
		return t
	}
	return lang.English
}

// t writes m in the view's language.
func (v *fullView) t(m lang.Msg) string { return fullTr(v.tag(), m) }

// Localize gives v drawn in l: its board, status and picture in the
// reader's language (engine.ViewLocalizer).
func (full) Localize(v engine.View, l string) engine.View {
	fv, ok := v.(*fullView)
	if !ok {
		return v
	}
	c := *fv
	c.lang = l
	return &c
}

// Localize is the ruleset's Localize, for a mail about several games.
func (v *fullView) Localize(w engine.View, l string) engine.View { return full{}.Localize(w, l) }

// Translate puts the rules' summary, order help and options' help
// (Info), which are not messages, into l (engine.Translator); everything else the game
// records is a message already.
func (full) Translate(l, text string) (string, bool) {
	t, ok := lang.Parse(l)
	if !ok || t == lang.English {
		return text, false
	}
	var m lang.Msg
	switch text {
	case fullSummary:
		m = lang.M(fullSummary)
	case fullHelp:
		m = fullHelpMsg()
	case fullOptVictory:
		m = lang.M(fullOptVictory)
	case fullOptSkynet:
		m = lang.M(fullOptSkynet)
	case fullOptCollab:
		m = lang.M(fullOptCollab)
	case fullOptTerritory:
		m = lang.M(fullOptTerritory)
	case fullOptPrelude:
		m = lang.M(fullOptPrelude)
	default:
		return text, false
	}
	if !catalog.Has(t, m.ID) {
		return text, false
	}
	return fullTr(t, m), true
}

// Translate is the ruleset's Translate.
func (v *fullView) Translate(l, text string) (string, bool) { return full{}.Translate(l, text) }

var (
	_ engine.Localizer = full{}
	_ engine.Localizer = (*fullView)(nil)
)

// fullSyntax is a line error of the full rules' parser (parseFullM),
// without its line number yet, worded as messages. One that comes from
// the first edition's helpers (place, count, keyword, faction,
// parseLine in orders.go) keeps theirs in from, whose wording is
// theirs; hint, when set, replaces its fix.
type fullSyntax struct {
	why, hint lang.Msg
	from      *syntaxError
}

// ferr is an error of the full rules' own.
func ferr(why, hint lang.Msg) *fullSyntax { return &fullSyntax{why: why, hint: hint} }

// shared wraps an error of the first edition's helpers (nil stays nil).
func shared(e *syntaxError) *fullSyntax {
	if e == nil {
		return nil
	}
	return &fullSyntax{from: e}
}

// fullWriteAs is the fix "write it as: <verb's shape>".
func fullWriteAs(verb string) lang.Msg { return lang.M("write it as: %s", fullShapeMsg(verb)) }

func (e *fullSyntax) Error() string { return e.syntax().Error() }

// syntax is e as the first edition's type, for checksyntax.go; nil
// stays nil.
func (e *fullSyntax) syntax() *syntaxError {
	switch {
	case e == nil:
		return nil
	case e.from == nil:
		return errm(e.why, e.hint)
	case !e.hint.IsZero():
		x := *e.from
		x.fix, x.hint = e.hint.English(), e.hint
		return &x
	}
	return e.from
}

// lineErr is e as the line error of line n (text as sent).
func (e *fullSyntax) lineErr(n int, text string) engine.LineError {
	if e.from == nil {
		return engine.LineErr(n, text, e.why, e.hint)
	}
	return e.syntax().lineErr(n, text)
}
