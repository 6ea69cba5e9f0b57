package burning

import (
	_ "embed"

	"orrery/engine"
	"orrery/engine/lang"
)

// Every sentence of Burning Planets is a message (lang.M): its events,
// prompts, order errors, the phase, the purpose of each die and the end
// of the game are written for the reader by the mail side from this
// catalog (engine.Cataloger): ru.po; the board and status by the view in
// its language (render, text.go; Localize for a reader with no seat).
// TestEveryMessageHasRussian (games) finds every id of the package's code
// and fails on one without its Russian. A game recorded before messages
// has its events as they were written then, in each player's language
// (State.Msgs), and its English-only texts (dice purposes, the end) are
// translated by Translate.

//go:embed ru.po
var ruPO string

var catalog = lang.MustPO("games/burning", lang.Russian, ruPO)

// Catalog is the translations of the game's messages (engine.Cataloger).
func (ruleset) Catalog() *lang.Catalog { return catalog }

// Catalog lets a view word its game's messages in a mail about several
// games (the digest).
func (view) Catalog() *lang.Catalog { return catalog }

// Localize gives v drawn in l (engine.ViewLocalizer): its board, status
// and picture in the reader's language, for a reader with no seat (an
// observer, the public page) as for a player. Cells, names and order
// words are the same in every language.
func (ruleset) Localize(v engine.View, l string) engine.View {
	bv, ok := v.(view)
	if !ok {
		return v
	}
	bv.tag = l
	return bv
}

// Localize is the ruleset's Localize, for a mail about several games.
func (v view) Localize(w engine.View, l string) engine.View { return ruleset{}.Localize(w, l) }

var (
	_ engine.Cataloger     = ruleset{}
	_ engine.Cataloger     = view{}
	_ engine.ViewLocalizer = ruleset{}
	_ engine.ViewLocalizer = view{}
)

// tileMsg is a resource tile's kind as a message, for a die's purpose.
func tileMsg(kind string) lang.Msg {
	if kind == Mountain {
		return lang.M("mountain")
	}
	return lang.M("forest")
}
