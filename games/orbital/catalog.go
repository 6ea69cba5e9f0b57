package orbital

import (
	_ "embed"

	"orrery/engine"
	"orrery/engine/lang"
)

// Orbital words its texts as messages (lang.Msg): events, prompts, order
// errors and fixes, phases, dice purposes and the end are made with
// lang.M from their English format, kept so in the log, and written in
// the reader's language by the mail side from this catalog
// (engine.Cataloger). TestEveryMessageHasRussian finds every id of the
// package's code and fails on one without its Russian.

//go:embed ru.po
var ruPO string

var catalog = lang.MustPO("games/orbital", lang.Russian, ruPO, ruStoryPO)

// Catalog is the translations of the game's messages (engine.Cataloger).
func (ruleset) Catalog() *lang.Catalog { return catalog }

// Catalog lets a view word its game's messages in a mail about several
// games (the digest).
func (*view) Catalog() *lang.Catalog { return catalog }

var _ engine.Cataloger = ruleset{}
