package daemon

import (
	"errors"

	"orrery/engine"
	"orrery/engine/game"
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
