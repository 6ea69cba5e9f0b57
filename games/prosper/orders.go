package prosper

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"orrery/engine"
)

// alt is one alternative of a SETTLE line.
type alt struct {
	name   string
	planet int // index, or -1 when parsed without a board
	ships  int
}

// order is one parsed line.
type order struct {
	kind     string // settle, move, done
	alts     []alt
	ships    int
	from, to int
	names    [2]string
	line     int
	raw      string
}

// text is the canonical form of an order.
func (o order) text() string {
	switch o.kind {
	case "settle":
		var parts []string
		for _, a := range o.alts {
			parts = append(parts, fmt.Sprintf("%s %d", a.name, a.ships))
		}
		return "SETTLE " + strings.Join(parts, " ELSE ")
	case "move":
		return fmt.Sprintf("MOVE %d FROM %s TO %s", o.ships, o.names[0], o.names[1])
	}
	return "DONE"
}

// lineError builds a LineError for order o.
func lineError(o order, msg, fix string) engine.LineError {
	return engine.LineError{Line: o.line, Text: o.raw, Msg: msg, Fix: fix}
}

// parseLine reads one line. With a board, planet names are resolved.
func parseLine(line string, s *State) (order, []engine.LineError) {
	o := order{raw: strings.TrimSpace(line), from: -1, to: -1}
	f := strings.Fields(strings.ReplaceAll(o.raw, ",", " "))
	bad := func(msg, fix string) (order, []engine.LineError) {
		return o, []engine.LineError{lineError(o, msg, fix)}
	}
	if len(f) == 0 {
		return bad("empty order", "")
	}
	switch strings.ToUpper(f[0]) {
	case "DONE", "PASS", "END":
		if len(f) > 1 {
			return bad(fmt.Sprintf("%s takes nothing after it", strings.ToUpper(f[0])), "write DONE alone on its line")
		}
		o.kind = "done"
		return o, nil
	case "SETTLE", "COLONISE", "COLONIZE":
		o.kind = "settle"
		words := f[1:]
		// Unknown planets are all reported, so one reply fixes the line.
		var unknown []engine.LineError
		for len(words) > 0 {
			if len(words) < 2 {
				return bad("SETTLE needs a planet and a number of ships", "write e.g. SETTLE Vega 3")
			}
			n, err := strconv.Atoi(words[1])
			if err != nil {
				return bad(fmt.Sprintf("%q is not a number of ships", words[1]), "write e.g. SETTLE Vega 3")
			}
			a := alt{name: words[0], planet: -1, ships: n}
			if s != nil {
				if i, err := s.findPlanet(words[0]); err != nil {
					unknown = append(unknown, lineError(o, err.Error(), fixOf(err)))
				} else {
					a.name, a.planet = s.Planets[i].Name, i
				}
			}
			if n < 1 {
				return bad("settle at least 1 ship", "")
			}
			o.alts = append(o.alts, a)
			words = words[2:]
			if len(words) > 0 {
				if !strings.EqualFold(words[0], "ELSE") || len(words) == 1 {
					return bad(fmt.Sprintf("unexpected %q after %s %d", words[0], a.name, n), "separate alternatives with ELSE: SETTLE Vega 3 ELSE Sol 7")
				}
				words = words[1:]
			}
		}
		if len(o.alts) == 0 {
			return bad("SETTLE needs a planet and a number of ships", "write e.g. SETTLE Vega 3")
		}
		if len(unknown) > 0 {
			return o, unknown
		}
		return o, nil
	case "MOVE", "ATTACK", "SEND":
		o.kind = "move"
		words := f[1:]
		var kept []string
		for _, w := range words {
			switch strings.ToUpper(w) {
			case "FROM", "TO", "->", "SHIPS", "SHIP":
				continue
			}
			kept = append(kept, w)
		}
		if len(kept) != 3 {
			return bad("MOVE needs a number of ships and two planets", "write e.g. MOVE 5 FROM Sol TO Vega")
		}
		n, err := strconv.Atoi(kept[0])
		if err != nil {
			return bad(fmt.Sprintf("%q is not a number of ships", kept[0]), "write e.g. MOVE 5 FROM Sol TO Vega")
		}
		o.ships, o.names = n, [2]string{kept[1], kept[2]}
		if n < 1 {
			return bad("a movement moves at least one ship", "")
		}
		if s != nil {
			var errs []engine.LineError
			for k := 0; k < 2; k++ {
				i, err := s.findPlanet(kept[1+k])
				if err != nil {
					errs = append(errs, lineError(o, err.Error(), fixOf(err)))
					continue
				}
				o.names[k] = s.Planets[i].Name
				if k == 0 {
					o.from = i
				} else {
					o.to = i
				}
			}
			if len(errs) > 0 {
				return o, errs // both names, if both are wrong
			}
		}
		return o, nil
	}
	return bad(fmt.Sprintf("%q is not an order", f[0]), suggestVerb(f[0]))
}

func suggestVerb(w string) string {
	best, d := "", 3
	for _, v := range []string{"SETTLE", "MOVE", "DONE"} {
		if k := engine.EditDistance(strings.ToUpper(w), v); k < d {
			best, d = v, k
		}
	}
	if best != "" {
		return "did you mean " + best + "?"
	}
	return "orders are SETTLE, MOVE and DONE (see HELP)"
}

func fixOf(err error) string {
	var re *ruleError
	if errors.As(err, &re) {
		return re.fix
	}
	return ""
}

// findPlanet resolves a planet name: exact, or a unique beginning of one,
// ignoring case; otherwise the error suggests the nearest names.
func (s *State) findPlanet(name string) (int, error) {
	var prefix []int
	for i, p := range s.Planets {
		if strings.EqualFold(p.Name, name) {
			return i, nil
		}
		if len(name) >= 2 && strings.HasPrefix(strings.ToLower(p.Name), strings.ToLower(name)) {
			prefix = append(prefix, i)
		}
	}
	if len(prefix) == 1 {
		return prefix[0], nil
	}
	if len(prefix) > 1 {
		var names []string
		for _, i := range prefix {
			names = append(names, s.Planets[i].Name)
		}
		return -1, refuse("write more of the name", "%q could be %s", name, orList(names))
	}
	var near []string
	for _, p := range s.Planets {
		if engine.EditDistance(strings.ToLower(p.Name), strings.ToLower(name)) <= 2 {
			near = append(near, "'"+p.Name+"'")
		}
	}
	fix := "the planets are listed in your report"
	if len(near) > 0 {
		fix = "did you mean " + orList(near) + "?"
	}
	return -1, refuse(fix, "no planet named '%s'", name)
}

func orList(names []string) string {
	switch len(names) {
	case 1:
		return names[0]
	case 2:
		return names[0] + " or " + names[1]
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// parseLines reads every line; blank lines and # comments are skipped but
// counted, so errors name the line as the player numbered it.
func parseLines(text string, s *State) ([]order, []engine.LineError) {
	var orders []order
	var errs []engine.LineError
	for i, line := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		o, e := parseLine(line, s)
		o.line = i + 1
		for k := range e {
			e[k].Line = i + 1
		}
		if len(e) > 0 {
			errs = append(errs, e...)
			continue
		}
		orders = append(orders, o)
	}
	return orders, errs
}

// parseAll parses and checks a whole submission of player p for the phase,
// on a scratch copy of the board, each order on the board the earlier ones
// leave. It returns every error at once.
func parseAll(text string, s *State, p, phase string) ([]order, []engine.LineError) {
	orders, errs := parseLines(text, s)
	var ok []order
	switch phase {
	case phaseSettle:
		for k, o := range orders {
			if o.kind != "settle" {
				errs = append(errs, lineError(o, "while settling, only SETTLE orders are taken", "movement starts after colonisation"))
				continue
			}
			if k == 0 && len(errs) == 0 {
				var why []string
				possible := false
				for _, a := range o.alts {
					if err := s.checkSettle(p, a.planet, a.ships); err != nil {
						why = append(why, fmt.Sprintf("%s %d: %v", a.name, a.ships, err))
					} else {
						possible = true
						break
					}
				}
				if !possible {
					errs = append(errs, lineError(o, "this pick is not possible now: "+strings.Join(why, "; "), "your first SETTLE line is this pick; settle a free planet or one of yours"))
					continue
				}
			}
			ok = append(ok, o)
		}
		if len(orders) == 0 && len(errs) == 0 {
			errs = append(errs, engine.LineError{Msg: "it is your pick and no SETTLE order came", Fix: "write e.g. SETTLE Vega 3"})
		}
	case phaseMove:
		scratch := s.clone()
		moves, done := 0, false
		for _, o := range orders {
			switch {
			case done:
				errs = append(errs, lineError(o, "an order after DONE", "put DONE last, or leave it out"))
				continue
			case o.kind == "done":
				done = true
				continue
			case o.kind != "move":
				errs = append(errs, lineError(o, "colonisation is over: only MOVE and DONE are taken now", "write e.g. MOVE 5 FROM Sol TO Vega"))
				continue
			}
			moves++
			if moves > 3 {
				errs = append(errs, lineError(o, "a player makes at most 3 movements a round", "drop a MOVE, or combine two from the same planet to the same planet"))
				continue
			}
			if _, err := scratch.move(p, o.ships, o.from, o.to); err != nil {
				errs = append(errs, lineError(o, err.Error(), fixOf(err)))
				continue
			}
			ok = append(ok, o)
		}
	default:
		errs = append(errs, engine.LineError{Msg: "the game is over: no orders are taken"})
	}
	return ok, errs
}
