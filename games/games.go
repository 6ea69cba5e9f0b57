// Package games lists every ruleset Orrery can host, explicitly and in one
// place (as godip's variants.go does): adding a game is adding a line here.
// What a listed ruleset must have is engine.Ruleset's doc; `go test ./games`
// checks all of it over All, and each failure names what to add.
package games

import (
	"orrery/engine"
	"orrery/games/burning"
	"orrery/games/earthman"
	"orrery/games/orbital"
	"orrery/games/prosper"
)

// All returns every ruleset, in the order `orrery rulesets` lists them.
func All() []engine.Ruleset {
	return []engine.Ruleset{
		prosper.Ruleset(),
		earthman.Classic(),
		earthman.Full(),
		burning.Ruleset(),
		orbital.Ruleset(),
	}
}
