package prosper

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"orrery/engine"
	"orrery/engine/lang"
)

// alt is one alternative of a SETTLE line.
type alt struct {
	name   string
	planet int // index, or -1 when parsed without a board
	ships  int
}

// order is one parsed line.
type order struct {
	kind     string // settle, clear (PLAN NONE), move, done
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
	case "clear":
		return "PLAN NONE"
	}
	return "DONE"
}

// lineError builds a LineError for order o: why it is refused and how to
// fix it (the zero Msg for no fix).
func lineError(o order, why, fix lang.Msg) engine.LineError {
	return engine.LineErr(o.line, o.raw, why, fix)
}

// errOf is the LineError of order o refused by err (a ruleError).
func errOf(o order, err error) engine.LineError { return lineError(o, whyOf(err), fixOf(err)) }

// whyOf is why err refuses, as a message.
func whyOf(err error) lang.Msg {
	var re *ruleError
	if errors.As(err, &re) {
		return re.why
	}
	return lang.M("%s", err.Error()) // not reached: every refusal is a ruleError
}

// reasons joins the reasons alternatives are refused: "a; b".
func reasons(why []lang.Msg) lang.Msg {
	if len(why) == 1 {
		return why[0]
	}
	return lang.M("%s; %s", why[0], reasons(why[1:]))
}

var noFix lang.Msg

// parseLine reads one line. With a board, planet names are resolved.
func parseLine(line string, s *State) (order, []engine.LineError) {
	o := order{raw: strings.TrimSpace(line), from: -1, to: -1}
	f := strings.Fields(strings.ReplaceAll(o.raw, ",", " "))
	bad := func(msg, fix lang.Msg) (order, []engine.LineError) {
		return o, []engine.LineError{lineError(o, msg, fix)}
	}
	if len(f) == 0 {
		return bad(lang.M("empty order"), noFix)
	}
	switch strings.ToUpper(f[0]) {
	case "DONE", "PASS", "END":
		if len(f) > 1 {
			return bad(lang.M("%s takes nothing after it", strings.ToUpper(f[0])), lang.M("write DONE alone on its line"))
		}
		o.kind = "done"
		return o, nil
	case "PLAN":
		// A plan is written as SETTLE lines; PLAN only clears it, so a
		// plan can be taken back as plainly as it was made.
		if len(f) != 2 || !strings.EqualFold(f[1], "NONE") {
			return bad(lang.M("PLAN takes only NONE: PLAN NONE clears your settling plan"), lang.M("write PLAN NONE alone, or SETTLE lines for a new plan"))
		}
		o.kind = "clear"
		return o, nil
	case "SETTLE", "COLONISE", "COLONIZE":
		o.kind = "settle"
		words := f[1:]
		// Unknown planets are all reported, so one reply fixes the line.
		var unknown []engine.LineError
		for len(words) > 0 {
			if len(words) < 2 {
				return bad(lang.M("SETTLE needs a planet and a number of ships"), lang.M("write e.g. SETTLE Vega 3"))
			}
			n, err := strconv.Atoi(words[1])
			if err != nil {
				return bad(lang.M("%q is not a number of ships", words[1]), lang.M("write e.g. SETTLE Vega 3"))
			}
			a := alt{name: words[0], planet: -1, ships: n}
			if s != nil {
				if i, err := s.findPlanet(words[0]); err != nil {
					unknown = append(unknown, errOf(o, err))
				} else {
					a.name, a.planet = s.Planets[i].Name, i
				}
			}
			if n < 1 {
				return bad(lang.M("settle at least 1 ship"), noFix)
			}
			o.alts = append(o.alts, a)
			words = words[2:]
			if len(words) > 0 {
				if !strings.EqualFold(words[0], "ELSE") || len(words) == 1 {
					return bad(lang.M("unexpected %q after %s %d", words[0], a.name, n), lang.M("separate alternatives with ELSE: SETTLE Vega 3 ELSE Sol 7"))
				}
				words = words[1:]
			}
		}
		if len(o.alts) == 0 {
			return bad(lang.M("SETTLE needs a planet and a number of ships"), lang.M("write e.g. SETTLE Vega 3"))
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
			return bad(lang.M("MOVE needs a number of ships and two planets"), lang.M("write e.g. MOVE 5 FROM Sol TO Vega"))
		}
		n, err := strconv.Atoi(kept[0])
		if err != nil {
			return bad(lang.M("%q is not a number of ships", kept[0]), lang.M("write e.g. MOVE 5 FROM Sol TO Vega"))
		}
		o.ships, o.names = n, [2]string{kept[1], kept[2]}
		if n < 1 {
			return bad(lang.M("a movement moves at least one ship"), noFix)
		}
		if s != nil {
			var errs []engine.LineError
			for k := 0; k < 2; k++ {
				i, err := s.findPlanet(kept[1+k])
				if err != nil {
					errs = append(errs, errOf(o, err))
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
	return bad(lang.M("%q is not an order", f[0]), suggestVerb(f[0]))
}

func suggestVerb(w string) lang.Msg {
	best, d := "", 3
	for _, v := range []string{"SETTLE", "MOVE", "DONE", "PLAN"} {
		if k := engine.EditDistance(strings.ToUpper(w), v); k < d {
			best, d = v, k
		}
	}
	if best != "" {
		return lang.M("did you mean %s?", best)
	}
	return lang.M("orders are SETTLE, PLAN NONE, MOVE and DONE (see HELP)")
}

// fixOf is how to fix what err refuses, as a message (zero for none).
func fixOf(err error) lang.Msg {
	var re *ruleError
	if errors.As(err, &re) {
		return re.fix
	}
	return noFix
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
		return -1, refuse(lang.M("write more of the name"), lang.M("%q could be %s", name, orList(names)))
	}
	var near []string
	for _, p := range s.Planets {
		if engine.EditDistance(strings.ToLower(p.Name), strings.ToLower(name)) <= 2 {
			near = append(near, "'"+p.Name+"'")
		}
	}
	fix := lang.M("the planets are listed in your report")
	if len(near) > 0 {
		fix = lang.M("did you mean %s?", orList(near))
	}
	return -1, refuse(fix, lang.M("no planet named '%s'", name))
}

// orList is names joined by "or" in the reader's language: "a, b or c".
func orList(names []string) lang.Arg {
	items := make([]any, len(names))
	for i, n := range names {
		items[i] = n
	}
	return lang.Or(items...)
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

// modePlan is the parse mode of the anytime plan prompt: a new settling
// plan sent between one's picks.
const modePlan = "plan"

// parseAll parses and checks a whole submission of player p for the mode
// (the phase, or modePlan), on a scratch copy of the board, each order on
// the board the earlier ones leave. It returns every error at once.
func parseAll(text string, s *State, p, mode string) ([]order, []engine.LineError) {
	orders, errs := parseLines(text, s)
	if mode == modePlan && s.Phase_ != phaseSettle {
		mode = "" // the default case: nothing is taken
	}
	var ok []order
	switch mode {
	case modePlan:
		// Every line is a plan line: checked as the later lines of a
		// pick are, against the board as it stands; played, or dropped
		// as impossible, when the player's picks come up.
		ok, errs = checkPlan(orders, errs)
	case phaseSettle:
		for k, o := range orders {
			if k > 0 {
				break // the plan lines, below
			}
			if o.kind == "clear" {
				errs = append(errs, lineError(o, lang.M("your first line is this pick: it must be a SETTLE order"), lang.M("write the pick first, e.g. SETTLE Vega 3; a pick sent alone clears your plan")))
				continue
			}
			if o.kind != "settle" {
				errs = append(errs, lineError(o, lang.M("while settling, only SETTLE orders are taken"), lang.M("movement starts after colonisation")))
				continue
			}
			if len(errs) == 0 {
				var why []lang.Msg
				possible := false
				for _, a := range o.alts {
					if err := s.checkSettle(p, a.planet, a.ships); err != nil {
						why = append(why, lang.M("%s %d: %s", a.name, a.ships, whyOf(err)))
					} else {
						possible = true
						break
					}
				}
				if !possible {
					errs = append(errs, lineError(o, lang.M("this pick is not possible now: %s", reasons(why)), lang.M("your first SETTLE line is this pick; settle a free planet or one of yours")))
					continue
				}
			}
			ok = append(ok, o)
		}
		if len(orders) > 1 {
			var plan []order
			plan, errs = checkPlan(orders[1:], errs)
			ok = append(ok, plan...)
		}
		if len(orders) == 0 && len(errs) == 0 {
			errs = append(errs, engine.LineErr(0, "", lang.M("it is your pick and no SETTLE order came"), lang.M("write e.g. SETTLE Vega 3")))
		}
	case phaseMove:
		scratch := s.clone()
		moves, done := 0, false
		for _, o := range orders {
			switch {
			case done:
				errs = append(errs, lineError(o, lang.M("an order after DONE"), lang.M("put DONE last, or leave it out")))
				continue
			case o.kind == "done":
				done = true
				continue
			case o.kind != "move":
				errs = append(errs, lineError(o, lang.M("colonisation is over: only MOVE and DONE are taken now"), lang.M("write e.g. MOVE 5 FROM Sol TO Vega")))
				continue
			}
			moves++
			if moves > 3 {
				errs = append(errs, lineError(o, lang.M("a player makes at most 3 movements a round"), lang.M("drop a MOVE, or combine two from the same planet to the same planet")))
				continue
			}
			if _, err := scratch.move(p, o.ships, o.from, o.to); err != nil {
				errs = append(errs, errOf(o, err))
				continue
			}
			ok = append(ok, o)
		}
	default:
		errs = append(errs, engine.LineErr(0, "", lang.M("the game is over: no orders are taken"), noFix))
	}
	return ok, errs
}

// checkPlan checks the lines of a settling plan: SETTLE lines, or PLAN
// NONE alone, which clears the plan. It returns the lines that pass and
// errs with the others' errors added, in line order.
func checkPlan(orders []order, errs []engine.LineError) ([]order, []engine.LineError) {
	var ok []order
	settles := 0
	for _, o := range orders {
		if o.kind == "settle" {
			settles++
		}
	}
	for _, o := range orders {
		switch {
		case o.kind == "clear" && (settles > 0 || len(orders) > 1):
			errs = append(errs, lineError(o, lang.M("PLAN NONE clears the plan, so it cannot stand with other plan lines"), lang.M("send PLAN NONE alone, or only the SETTLE lines of the new plan")))
		case o.kind == "clear" || o.kind == "settle":
			ok = append(ok, o)
		default:
			errs = append(errs, lineError(o, lang.M("while settling, only SETTLE orders are taken (and PLAN NONE)"), lang.M("movement starts after colonisation")))
		}
	}
	sort.SliceStable(errs, func(i, j int) bool { return errs[i].Line < errs[j].Line })
	return ok, errs
}
