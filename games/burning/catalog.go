package burning

import (
	_ "embed"

	"orrery/engine"
	"orrery/engine/lang"
)

// Burning Planets writes its events, prompts and order errors in each
// player's in-game language when a step is resolved (tr, text.go). What
// it records in English whatever the reader's language — the phase, the
// purpose of each die, the end of the game — is made as messages
// (lang.M) and written for the reader by the mail side from this catalog
// (engine.Cataloger): ru.po. TestEveryMessageHasRussian (games) finds
// every id of the package's code and fails on one without its Russian.
// What stays English-only (an attack's and a defence's die, whose
// purposes name ships and defences in the game's own terms; every text
// of a game recorded before messages) is translated by Translate.

//go:embed ru.po
var ruPO string

var catalog = lang.MustPO("games/burning", lang.Russian, ruPO)

// Catalog is the translations of the game's messages (engine.Cataloger).
func (ruleset) Catalog() *lang.Catalog { return catalog }

// Catalog lets a view word its game's messages in a mail about several
// games (the digest).
func (view) Catalog() *lang.Catalog { return catalog }

var (
	_ engine.Cataloger = ruleset{}
	_ engine.Cataloger = view{}
)

// tileMsg is a resource tile's kind as a message, for a die's purpose.
func tileMsg(kind string) lang.Msg {
	if kind == Mountain {
		return lang.M("mountain")
	}
	return lang.M("forest")
}
