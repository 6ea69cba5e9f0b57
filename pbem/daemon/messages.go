package daemon

import (
	"errors"
	"sort"
	"strings"

	"orrery/engine"
	"orrery/engine/game"
	"orrery/engine/lang"
)

// userLineErr is the line error that refuses line n (text as sent) for
// err, a refusal of the game service: worded as its message where it has
// one (game.UserError.Why), so that the mail says it in the reader's
// language; its English otherwise.
func userLineErr(n int, text string, err error) engine.LineError {
	e := engine.LineError{Line: n, Text: text, Msg: err.Error()}
	var ue *game.UserError
	if errors.As(err, &ue) && ue.Why != nil {
		e.Why = ue.Why
	}
	return e
}

// noRuleset refuses line n (text as sent) for naming name, a ruleset
// this server does not have, naming those it has (engine.Find's error,
// as a message).
func (d *Daemon) noRuleset(n int, text, name string) engine.LineError {
	var names []string
	for _, rs := range d.svc.Rulesets() {
		names = append(names, rs.Info().Name)
	}
	sort.Strings(names)
	return engine.LineErr(n, text, lang.M("no ruleset named %q (known: %s)", name, strings.Join(names, ", ")),
		lang.M("send LIST for the rulesets"))
}
