package orbital

import (
	"strings"

	"orrery/engine"
	"orrery/engine/lang"
)

// The words of the game that go into its sentences: unit and module
// types, written in the reader's language as messages of their own, so
// that a sentence about a Booster reads «разгонный блок» in Russian and
// "booster" in English, whatever sentence it is in.

// kindMsg is the name of a unit or module type, as the data sheet
// spells it in English (lower case, as the orders take it).
func kindMsg(k Kind) lang.Msg {
	switch k {
	case Station:
		return lang.M("station")
	case Core:
		return lang.M("core")
	case Engine:
		return lang.M("engine")
	case Factory:
		return lang.M("factory")
	case PointDef:
		return lang.M("pd")
	case Refinery:
		return lang.M("refinery")
	case Armor:
		return lang.M("armor")
	case Collector:
		return lang.M("collector")
	case Scoopship:
		return lang.M("scoopship")
	case Bus:
		return lang.M("bus")
	case Gunship:
		return lang.M("gunship")
	case DefSat:
		return lang.M("defsat")
	case ComSat:
		return lang.M("comsat")
	case ECMSat:
		return lang.M("ecmsat")
	case Warhead:
		return lang.M("warhead")
	case Pulse:
		return lang.M("pulse")
	case Booster:
		return lang.M("booster")
	}
	return lang.M("%s", string(k))
}

// aKind is a type with its English article ("an engine", "a bus"); the
// Russian has none.
func aKind(k Kind) lang.Msg {
	if strings.HasPrefix(lang.A(string(k)), "an ") {
		return lang.M("an %s", kindMsg(k))
	}
	return lang.M("a %s", kindMsg(k))
}

// upperKind is a type as an order writes it (BUS, BOOSTER), kept so: it
// is an order word.
func upperKind(k Kind) string { return strings.ToUpper(string(k)) }

// render writes m in the view's language, from the game's catalog.
func (v *view) render(m lang.Msg) string {
	return lang.Render(lang.Env{Tag: v.tag(), Catalogs: []*lang.Catalog{catalog}}, m)
}

func (v *view) tag() lang.Tag {
	if v.lang == "" {
		return lang.English
	}
	return v.lang
}

// Localize gives v drawn in l (engine.ViewLocalizer): its board, legend,
// status and picture in the reader's language. Unit IDs, hex names and
// order lines are the same in every language.
func (ruleset) Localize(v engine.View, l string) engine.View {
	pv, ok := v.(*view)
	if !ok {
		return v
	}
	c := *pv
	c.lang = lang.Tag(l)
	return &c
}

// Localize is the ruleset's Localize, for a mail about several games.
func (v *view) Localize(w engine.View, l string) engine.View { return ruleset{}.Localize(w, l) }

// Translate puts the rules as Info gives them (the summary, the order
// help, each option's help) into l, from the catalog (engine.Translator),
// for HELP, RULES and the welcome. Every other text of the game is a
// message already.
func (ruleset) Translate(l, text string) (string, bool) {
	if lang.Tag(l) == lang.English || text == "" {
		return text, false
	}
	if strings.Contains(text, "%") {
		return text, false
	}
	// The rules' texts are message ids without arguments (Info makes them
	// with lang.M), so the text is its own id.
	out := lang.Render(lang.Env{Tag: lang.Tag(l), Catalogs: []*lang.Catalog{catalog}}, lang.Msg{ID: text})
	return out, out != text
}

// Translate is the ruleset's Translate, for a mail about several games.
func (v *view) Translate(l, text string) (string, bool) { return ruleset{}.Translate(l, text) }

var (
	_ engine.Localizer = ruleset{}
	_ engine.Localizer = (*view)(nil)
)

// semi is a list of phrases joined by "; " in every language (the moves
// of an impulse).
func semi(list []lang.Msg) lang.Msg {
	if len(list) == 0 {
		return lang.Msg{}
	}
	m := lang.M("%s", list[0])
	for _, x := range list[1:] {
		m = lang.M("%s; %s", m, x)
	}
	return m
}

// scenarioMsg is the name of a scenario (option scenario) in a sentence.
func scenarioMsg(name string) lang.Msg {
	switch name {
	case "slow":
		return lang.M("slow")
	case "fast":
		return lang.M("fast")
	case "refinery":
		return lang.M("refinery scenario")
	}
	return lang.M("%s", name)
}
