package prosper

import (
	_ "embed"
	"strings"

	"orrery/engine"
	"orrery/engine/lang"
)

// Prosper words its texts as messages (lang.Msg): events, prompts, order
// errors and fixes, the phase, dice purposes and the end are made with
// lang.M from their English format, kept so in the log, and written in
// the reader's language by the mail side from this catalog
// (engine.Cataloger); the board, the status and the picture are drawn
// in the reader's language by Localize (engine.ViewLocalizer), from the
// same catalog. The state, the log and a replay are the same in every
// language, and no order changes a language. Order words stay English:
// the orders a player types are the same in both languages, and the
// Russian help says so. TestEveryMessageHasRussian (games) finds every
// id of the package's code and fails on one without its Russian, or on
// a Russian entry the code no longer makes.

//go:embed ru.po
var ruPO string

// langRU is the Russian of the view's lang.
const langRU = "ru"

var catalog = lang.MustPO("games/prosper", lang.Russian, ruPO, ruStoryPO)

// Catalog is the translations of the game's messages (engine.Cataloger).
func (ruleset) Catalog() *lang.Catalog { return catalog }

// Catalog lets a view word its game's messages in a mail about several
// games (the digest).
func (*view) Catalog() *lang.Catalog { return catalog }

var (
	_ engine.Cataloger = ruleset{}
	_ engine.Cataloger = (*view)(nil)
)

// say is m written in the language l ("ru", or English for anything
// else), for the board, the status and the picture.
func say(l string, m lang.Msg) string {
	tag, ok := lang.Parse(l)
	if !ok {
		tag = lang.English
	}
	return lang.Render(lang.Env{Tag: tag, Catalogs: []*lang.Catalog{catalog}}, m)
}

// Localize gives v drawn in l: its board's legend, its status and its
// picture in the reader's language (engine.ViewLocalizer). The board
// itself (names, sizes, letters, ships) is the same in every language.
func (ruleset) Localize(v engine.View, l string) engine.View {
	pv, ok := v.(*view)
	if !ok {
		return v
	}
	c := *pv
	c.lang = l
	return &c
}

// Localize is the ruleset's Localize: a view words itself too, for a
// mail about several games at once (the digest), where only each game's
// report is at hand.
func (v *view) Localize(w engine.View, l string) engine.View { return ruleset{}.Localize(w, l) }

var _ engine.ViewLocalizer = ruleset{}

// glue reports whether a PO entry is a message that only joins others
// ("%s %s": two sentences of one event): such an id matches any text,
// so the legacy matching of recorded English leaves it out.
func glue(entry string) bool { return strings.Contains(entry, "#, glue") }
