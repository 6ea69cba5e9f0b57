package game

import "strings"

// What Redact leaves out, as named in Export.Redacted.
const (
	RedactedDiceSecret    = "dice_secret"
	RedactedPlayerSecrets = "player_secrets"
)

// Redact removes the game's secrets from x: the dice secret (from which
// every future roll can be computed) and every player's secret (which lets
// its holder play that seat). An export mailed to the GM, or written
// without --with-secrets, is read by more eyes than the server's database;
// what it left out is listed in x.Redacted, so that Import can say why it
// cannot take it. x.Game is copied, not changed in place.
func (x *Export) Redact() {
	if x.Game == nil {
		return
	}
	g := *x.Game
	g.Players = append([]Player(nil), g.Players...)
	var out []string
	if g.DiceSecret != "" {
		g.DiceSecret = ""
		out = append(out, RedactedDiceSecret)
	}
	removed := false
	for i := range g.Players {
		if g.Players[i].Secret != "" {
			g.Players[i].Secret = ""
			removed = true
		}
	}
	if removed {
		out = append(out, RedactedPlayerSecrets)
	}
	x.Game = &g
	x.Redacted = append(x.Redacted, out...)
}

// checkNotRedacted refuses an export made without its secrets, naming what
// it lacks and how to make one that can be imported.
func (x *Export) checkNotRedacted() error {
	if len(x.Redacted) == 0 {
		return nil
	}
	var lacks []string
	for _, r := range x.Redacted {
		switch r {
		case RedactedDiceSecret:
			lacks = append(lacks, "the dice secret (without it no roll of the game can be checked or made)")
		case RedactedPlayerSecrets:
			lacks = append(lacks, "the players' secrets (without them no player could send orders)")
		default:
			lacks = append(lacks, r)
		}
	}
	id := "ID"
	if x.Game != nil && x.Game.ID != "" {
		id = x.Game.ID
	}
	return userErrorf("this export was made without its secrets, so it cannot be imported: it lacks %s; make a full one on the server with orrery game export %s --with-secrets --out FILE",
		strings.Join(lacks, ", and "), id)
}
