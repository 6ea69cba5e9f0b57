package earthman

import (
	"slices"

	"orrery/engine"
	"orrery/engine/lang"
)

// The first edition words every sentence as a message (lang.Msg, see
// catalog.go): events, prompts, order errors, phases, dice and the end
// are recorded with their message and written in the reader's language
// by the mail side. The board, the status and the picture are drawn by
// the view itself, in the language Localize gives it, through the same
// catalog (tr); order words and place names stay as the order language
// writes them.

// tr writes m in t (English when t is empty), from the game's catalog.
func tr(t lang.Tag, m lang.Msg) string {
	return lang.Render(lang.Env{Tag: t, Catalogs: []*lang.Catalog{catalog}}, m)
}

// Counts of units, as messages: "3 developments", «3 развития».
func devsM(n int) lang.Msg { return lang.MN("%d development", "%d developments", n) }

func fleetsM(n int) lang.Msg { return lang.MN("%d fleet", "%d fleets", n) }

func unitM(n int, dev bool) lang.Msg {
	if dev {
		return devsM(n)
	}
	return fleetsM(n)
}

// say tells everyone m.
func (r *run) say(m lang.Msg) {
	r.events = append(r.events, engine.Tell(m).Concerning(engine.SeatsNamed(m, seatNamed(r.s.Players))...))
}

// seatNamed says whose a name in an event is: a seat's own (their reports
// open with the events that name them, engine.Event.About).
func seatNamed(seats []string) func(string) string {
	return func(name string) string {
		if slices.Contains(seats, name) {
			return name
		}
		return ""
	}
}

// tag is the view's language as a lang.Tag.
func (v *view) tag() lang.Tag {
	if t, ok := lang.Parse(v.lang); ok {
		return t
	}
	return lang.English
}

// t writes m in the view's language.
func (v *view) t(m lang.Msg) string { return tr(v.tag(), m) }

// Localize gives v drawn in l: its board, status and picture in the
// reader's language (engine.ViewLocalizer).
func (classic) Localize(v engine.View, l string) engine.View {
	pv, ok := v.(*view)
	if !ok {
		return v
	}
	c := *pv
	c.lang = l
	return &c
}

// Localize is the ruleset's Localize, for a mail about several games.
func (v *view) Localize(w engine.View, l string) engine.View { return classic{}.Localize(w, l) }

// Translate puts the rules' summary and order help (Info), which are
// not messages, into l (engine.Translator); everything else the game
// records is a message already.
func (classic) Translate(l, text string) (string, bool) {
	t, ok := lang.Parse(l)
	if !ok || t == lang.English {
		return text, false
	}
	var m lang.Msg
	switch text {
	case classicSummary:
		m = lang.M(classicSummary)
	case orderHelp:
		m = lang.M(orderHelp)
	default:
		return text, false
	}
	if !catalog.Has(t, m.ID) {
		return text, false
	}
	return tr(t, m), true
}

// Translate is the ruleset's Translate.
func (v *view) Translate(l, text string) (string, bool) { return classic{}.Translate(l, text) }

var (
	_ engine.Localizer = classic{}
	_ engine.Localizer = (*view)(nil)
)

// commaList is names joined with commas, as the English always wrote
// them: "ann, bob".
func commaList(names []string) lang.Arg {
	l := make([]lang.Arg, len(names))
	for i, n := range names {
		l[i] = lang.ArgOf(n)
	}
	return lang.ArgOf(l)
}

func movesM(n int) lang.Msg { return lang.MN("%d fleet moves", "%d fleets move", n) }
