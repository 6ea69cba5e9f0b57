package engine

import (
	"fmt"
	"strings"
)

// LoadJSON decodes a state that encoding/json wrote (json.Marshal in
// State.Marshal) into a new S, with DecodeJSON: a ruleset whose state is
// a struct of exported fields needs no LoadState of its own but
//
//	func (ruleset) LoadState(b []byte) (engine.State, error) { return engine.LoadJSON[state](b) }
func LoadJSON[S any, P interface {
	*S
	State
}](data []byte) (State, error) {
	s := P(new(S))
	if err := DecodeJSON(data, s); err != nil {
		return nil, fmt.Errorf("decode the state: %w", err)
	}
	return s, nil
}

// OrderLines are the lines of an order text that carry orders, as
// ParseLines reads them: trimmed, without blank lines and # comments.
func OrderLines(text string) []string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	return out
}

// ParseLines is the loop of a View.Parse for an order language of one
// order a line: it skips blank lines and # comments, cuts each line into
// its verb (upper-case) and arguments, and hands them to line, which gives
// the order's canonical form or an error. ParseLines numbers the error and
// quotes the line, so line fills in Msg and Fix only. The public view
// (player Observer) is refused every order. Orders are nil when any line
// is wrong: a submission is taken whole or not at all.
func ParseLines(player, text string, line func(verb string, args []string) (string, *LineError)) (TextOrders, []LineError) {
	if player == Observer {
		return nil, []LineError{{Msg: "an observer sends no orders", Fix: "ask the GM for a seat"}}
	}
	var out TextOrders
	var errs []LineError
	for i, raw := range strings.Split(text, "\n") {
		l := strings.TrimSpace(raw)
		f := strings.Fields(l)
		if len(f) == 0 || strings.HasPrefix(l, "#") {
			continue
		}
		canon, err := line(strings.ToUpper(f[0]), f[1:])
		if err != nil {
			e := *err
			e.Line, e.Text = i+1, l
			errs = append(errs, e)
			continue
		}
		out = append(out, canon)
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return out, nil
}
