package earthman

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"orrery/engine"
)

// Offline checks (engine.SyntaxChecker, for `orrery orders check earthman
// -f FILE` and earthman-classic): every line through the game's own line
// parser, against the standard board (which is every game's: its places,
// trajectories and technologies), and the order of the turn's sections.
// Without a game the seats are unknown, so any name where a faction goes is
// taken for one (a player's name is checked when the orders are sent); so
// are the counts against the position, what is yours, and the prompt.
// A line the game accepts is never refused here
// (TestCheckSyntaxAcceptsBotOrders).

// CheckSyntax checks the first edition's orders.
func (classic) CheckSyntax(text string) []engine.LineError {
	return checkOffline(text, func(n namer, line string) (string, *syntaxError) {
		o, e := n.parseLine(line)
		return o.Verb, e
	}, func(verb string) (int, string) {
		ph := phaseOf(verb)
		if ph == phaseNone {
			return -1, ""
		}
		return ph, phaseNames[ph]
	}, "the phases are taken in strict order", "move this line up, before the %s orders")
}

// CheckSyntax checks the full rules' orders.
func (full) CheckSyntax(text string) []engine.LineError {
	return checkOffline(text, func(n namer, line string) (string, *syntaxError) {
		o, e := n.parseFull(line)
		return o.Verb, e
	}, func(verb string) (int, string) {
		ph := fPhase(verb)
		if ph == fpNone {
			return -1, ""
		}
		return ph, fpNames[ph]
	}, "sections are taken in order", "move this line up")
}

// noFaction is the parser's message for an unknown faction name.
var noFaction = regexp.MustCompile(`^no faction named "(.*)"$`)

// checkOffline runs parse on every line with a namer that learns, as it
// goes, every name written where a faction goes, and checks that the
// sections come in order (phase gives a verb's section, -1 for none).
func checkOffline(text string, parse func(namer, string) (string, *syntaxError), phase func(string) (int, string), rule, fix string) []engine.LineError {
	var errs []engine.LineError
	n := namer{}
	last, lastName := -1, ""
	for i, raw := range strings.Split(text, "\n") {
		line := strings.TrimSpace(raw)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		verb, e := parse(n, line)
		for tries := 0; e != nil && tries < 8; tries++ {
			m := noFaction.FindStringSubmatch(e.msg)
			if m == nil {
				break
			}
			name, err := strconv.Unquote(`"` + m[1] + `"`)
			if err != nil || name == "" || strings.ContainsAny(name, " ,") {
				break
			}
			n.players = append(n.players, name)
			verb, e = parse(n, line)
		}
		if e != nil {
			errs = append(errs, e.lineErr(i+1, line))
			continue
		}
		ph, name := phase(verb)
		if ph < 0 {
			continue
		}
		if ph < last {
			f := fix
			if strings.Contains(f, "%s") {
				f = fmt.Sprintf(f, lastName)
			}
			errs = append(errs, engine.LineError{Line: i + 1, Text: line,
				Msg: fmt.Sprintf("%s is a %s order, but it comes after %s orders: %s", verb, name, lastName, rule), Fix: f})
			continue
		}
		last, lastName = ph, name
	}
	return errs
}
