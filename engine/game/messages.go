package game

import (
	"strings"
	"time"

	"orrery/engine/lang"
)

// reasonOr is a reason given by a person (the GM's own words, kept as
// they wrote them) or, when they gave none, dflt: a message, so that "no
// reason given" is in the reader's language.
func reasonOr(reason string, dflt lang.Msg) lang.Arg {
	if strings.TrimSpace(reason) == "" {
		return lang.ArgOf(dflt)
	}
	return lang.ArgOf(reason)
}

// userErr is a refusal worded as a message (see UserError.Why).
func userErr(m lang.Msg) error { return &UserError{Msg: m.English(), Why: &m} }

// outcomeArg is how g's game ended, as a message where it has one.
func outcomeArg(g *Game) lang.Arg {
	if g.Outcome.Msg != nil {
		return lang.ArgOf(*g.Outcome.Msg)
	}
	return lang.ArgOf(g.Outcome.Text)
}

// vacationNoted tells a player their vacation is noted; capped is the
// game's longest vacation when it shortened this one.
func vacationNoted(from, to time.Time, capped time.Duration, policy lang.Msg) lang.Msg {
	if capped > 0 {
		return lang.M("Vacation noted from %s to %s (capped at %s by the game's policy): %s.", from, to, capped, policy)
	}
	return lang.M("Vacation noted from %s to %s: %s.", from, to, policy)
}

// vacationOfNoted tells the player and the GM that player's vacation is
// noted.
func vacationOfNoted(player string, from, to time.Time, capped time.Duration, policy lang.Msg) lang.Msg {
	if capped > 0 {
		return lang.M("Vacation of %s noted from %s to %s (capped at %s by the game's policy): %s.", player, from, to, capped, policy)
	}
	return lang.M("Vacation of %s noted from %s to %s: %s.", player, from, to, policy)
}

// seatNotice is a notice of kind about seat to the players to.
func seatNotice(kind string, to []string, seat string, m lang.Msg) Notice {
	n := tell(kind, to, m)
	n.Seat = seat
	return n
}
