package earthman

import (
	_ "embed"

	"orrery/engine"
	"orrery/engine/lang"
)

// Both editions word their texts as messages (lang.Msg): events, prompts,
// order errors and fixes, phases, dice purposes and the end are made with
// lang.M from their English format, kept so in the log, and written in
// the reader's language by the mail side from this catalog
// (engine.Cataloger). ru.po holds the Russian of the first edition and of
// what both share (board, picture, status); ru-full.po that of the full
// rules. TestEveryMessageHasRussian finds every id of the package's code
// and fails on one without its Russian.

//go:embed ru.po
var ruPO string

//go:embed ru-full.po
var ruFullPO string

var catalog = lang.MustPO("games/earthman", lang.Russian, ruPO, ruFullPO, ruStoryPO)

// Catalog is the translations of the game's messages (engine.Cataloger).
func (classic) Catalog() *lang.Catalog { return catalog }

// Catalog is the translations of the game's messages (engine.Cataloger).
func (full) Catalog() *lang.Catalog { return catalog }

// Catalog lets a view word its game's messages in a mail about several
// games (the digest).
func (*view) Catalog() *lang.Catalog { return catalog }

// Catalog lets a view word its game's messages in a mail about several
// games (the digest).
func (*fullView) Catalog() *lang.Catalog { return catalog }

var (
	_ engine.Cataloger = classic{}
	_ engine.Cataloger = full{}
)
