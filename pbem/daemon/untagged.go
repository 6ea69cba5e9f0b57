package daemon

import (
	"slices"
	"strings"

	"orrery/engine"
	"orrery/engine/lang"
	"orrery/pbem/route"
)

// untagged rewrites the errors of a mail that names no game but whose
// lines refused as unknown commands are orders of a game the sender plays:
// a reply whose Subject lost its [game secret] tag (a client that trims
// it, a new mail typed from scratch). Answered a line at a time, as
// "unknown command SETTLE" with the list of commands, the player learns
// nothing they can act on; one error instead names their games and the
// two lines to add, and where their secret is. Lines no such game reads
// as orders keep their own errors.
func (d *Daemon) untagged(j *job, byID *gameIndex, r *route.Result) {
	if r.Game != "" || len(r.Unknown) == 0 || len(j.mine) == 0 {
		return
	}
	var games []string
	stray := map[int]bool{}
	for _, id := range j.mine {
		g := byID.get(id)
		if g == nil || g.Over() {
			continue
		}
		cls := d.words.forRuleset(g.Ruleset)
		reads := false
		for _, l := range r.Unknown {
			if cls.Order(l.Text) {
				stray[l.N], reads = true, true
			}
		}
		if reads {
			games = append(games, id)
		}
	}
	if len(games) == 0 {
		return
	}
	var errs []engine.LineError
	first := true
	for _, e := range r.Errors {
		if !stray[e.Line] {
			errs = append(errs, e)
			continue
		}
		if !first {
			continue
		}
		first = false
		errs = append(errs, strayError(games, len(stray)))
	}
	r.Errors = errs
}

// strayError is the one error for n order lines in a mail that names none
// of games, the sender's games whose rulesets read them as orders.
func strayError(games []string, n int) engine.LineError {
	msg := lang.M("this line is an order, but this mail names no game: its subject lost the [game secret] tag")
	if n != 1 {
		msg = lang.MN("this %d line is an order, but this mail names no game: its subject lost the [game secret] tag",
			"these %d lines are orders, but this mail names no game: its subject lost the [game secret] tag", n)
	}
	slices.Sort(games)
	if len(games) == 1 {
		return engine.LineErr(0, "", msg, lang.M(
			"add a line GAME %s and a line SECRET your-secret (the secret is in the subject of any mail I sent you about %s), or reply to such a mail", games[0], games[0]))
	}
	return engine.LineErr(0, "", msg, lang.M(
		"you play %s: add a line GAME and the game's name, like GAME %s, and a line SECRET your-secret (the secret is in the subject of any mail I sent you about that game), or reply to such a mail",
		strings.Join(games, ", "), games[0]))
}
