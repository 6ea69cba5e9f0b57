package orbital

import (
	"strconv"
	"strings"

	"orrery/engine"
	"orrery/engine/lang"
)

// CheckSyntax checks an orders file with no game at hand (engine.
// SyntaxChecker, for `orrery orders check orbital -f FILE`): each line's
// verb, keywords, numbers, unit types, facings and hexes, as the game's own
// parser reads them. What needs the board is left for the real check when
// the orders are sent: whether a unit is yours and what it is (a DEPLOY of a
// non-satellite, a THRUST beyond its engine), the opening turn's limits,
// and one order of a kind per unit. A line the game accepts is never
// refused here (TestCheckSyntaxAcceptsBotOrders).
func (ruleset) CheckSyntax(text string) []engine.LineError {
	var errs []engine.LineError
	for i, raw := range strings.Split(text, "\n") {
		line := strings.TrimSpace(raw)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if err := checkLine(strings.Fields(line)); err != nil {
			le := engine.LineError{Line: i + 1, Text: line, Msg: err.Error()}
			if x, ok := err.(*lineErr); ok {
				le = engine.LineErr(i+1, line, x.why, x.hint)
			}
			errs = append(errs, le)
		}
	}
	return errs
}

// checkLine is view.parseLine without the board: the same words, numbers
// and ranges, in the same order, with the same messages.
func checkLine(w []string) error {
	verb := strings.ToUpper(w[0])
	if !contains(verbs, verb) {
		fix := lang.M("orders start with one of %s", strings.Join(verbs, ", "))
		if c := engine.Closest(verb, verbs); c != "" {
			fix = lang.M("did you mean %s?", c)
		}
		return bad(lang.M("%q is not an order", w[0]), fix)
	}
	if len(w) < 2 {
		return bad(lang.M("%s needs a unit", verb), lang.M("see HELP: %s", grammarFor(verb)))
	}
	if verb == "BUY" {
		return checkBuy(w)
	}
	args := w[2:]
	impulse := func(a []string) error {
		if len(a) != 2 || !strings.EqualFold(a[0], "AT") {
			return bad(lang.M("%s needs AT <impulse>", verb), lang.M("write e.g. %s %s AT 1", verb, strings.ToUpper(w[1])))
		}
		if n, err := strconv.Atoi(a[1]); err != nil || n < 1 || n > 7 {
			return bad(lang.M("impulse %q is not 1 to 7", a[1]), lang.M("steps 3–7 run in impulses 1 to 7"))
		}
		return nil
	}
	switch verb {
	case "LAUNCH":
		for _, a := range args {
			switch strings.ToUpper(a) {
			case "LEFT", "RIGHT", "CONTRA":
			default:
				return bad(lang.M("%q is not LEFT, RIGHT or CONTRA", a), grammarFor(verb))
			}
		}
	case "THRUST":
		if len(args) < 1 {
			return bad(lang.M("THRUST needs a velocity change"), grammarFor(verb))
		}
		if _, err := strconv.Atoi(args[0]); err != nil {
			return bad(lang.M("%q is not a velocity change", args[0]), lang.M("write +1, 0 or -1"))
		}
		for i := 1; i < len(args); i += 2 {
			if i+1 >= len(args) {
				return bad(lang.M("%s needs a value", args[i]), grammarFor(verb))
			}
			switch strings.ToUpper(args[i]) {
			case "TURN":
				if k, err := strconv.Atoi(args[i+1]); err != nil || k < -3 || k > 3 {
					return bad(lang.M("%q is not a turn of -3 to +3 facings", args[i+1]), lang.M("+1 turns counter-clockwise"))
				}
			case "FACE":
				if _, ok := parseDir(args[i+1]); !ok {
					return bad(lang.M("%q is not a facing", args[i+1]), lang.M("use E, NE, NW, W, SW or SE"))
				}
			default:
				return bad(lang.M("%q is not TURN or FACE", args[i]), grammarFor(verb))
			}
		}
	case "DROP", "DEPLOY", "LAND":
		if verb != "LAND" && len(args) == 2 && strings.EqualFold(args[0], "WHEN") {
			if !contains(targetKinds, strings.ToUpper(args[1])) {
				return bad(lang.M("%q is not a unit type", args[1]), lang.M("WHEN takes a type: %s", strings.Join(targetKinds, " ")))
			}
			return nil
		}
		return impulse(args)
	case "PICKUP":
		if len(args) < 1 {
			return bad(lang.M("PICKUP needs the unit to pick up"), grammarFor(verb))
		}
		return impulse(args[1:])
	case "FIRE", "STRIKE":
		i := 0
		if i < len(args) && strings.EqualFold(args[i], "AT") {
			i++
			n := 0
			for ; i < len(args) && !contains([]string{"SHOTS", "MIN", "FROM"}, strings.ToUpper(args[i])); i++ {
				n++ // a type, or a unit ID the game knows
			}
			if n == 0 {
				return bad(lang.M("AT needs targets"), lang.M("name unit IDs or types (station, bus, booster…) or ANY"))
			}
		}
		for ; i < len(args); i += 2 {
			if i+1 >= len(args) || (verb == "STRIKE" && !strings.EqualFold(args[i], "FROM")) {
				return bad(lang.M("%q is not understood here", args[i]), grammarFor(verb))
			}
			n, err := strconv.Atoi(args[i+1])
			switch strings.ToUpper(args[i]) {
			case "FROM":
				if err != nil || n < 1 || n > 7 {
					return bad(lang.M("FROM must be an impulse, 1 to 7"), lang.M("no fire before that impulse of each turn"))
				}
			case "SHOTS":
				if err != nil || n < 1 || n > 3 {
					return bad(lang.M("SHOTS must be 1 to 3"), lang.M("the most shots a laser takes in one impulse"))
				}
			case "MIN":
				if err != nil || n < 1 || n > 6 {
					return bad(lang.M("MIN must be 1 to 6"), lang.M("the least hit range (1–3 before modifiers) worth a shot"))
				}
			default:
				return bad(lang.M("%q is not SHOTS, MIN or FROM", args[i]), grammarFor(verb))
			}
		}
	case "HOLD", "RECYCLE", "CANCEL":
		if len(args) > 0 {
			return bad(lang.M("%s takes only a unit", verb), grammarFor(verb))
		}
	case "PLACE":
		if len(args) != 1 {
			return bad(lang.M("PLACE needs one of your Stations and a hex"), lang.M("write e.g. PLACE S1 6A0"))
		}
		if _, err := parseHex(args[0]); err != nil {
			return bad(lang.M("%q is not a hex", args[0]), lang.M("hexes are written like 6A0: ring, side A to F, step"))
		}
	case "EXIT":
		for _, a := range args {
			if strings.EqualFold(a, "CW") {
				continue
			}
			if h, err := parseHex(a); err != nil || h.ring() != 1 {
				return bad(lang.M("%q is not a ring-1 hex", a), lang.M("ring 1 is 1A0 to 1F0"))
			}
		}
	case "REPAIR":
		if len(args) != 2 {
			return bad(lang.M("REPAIR needs a Station, a module and points"), grammarFor(verb))
		}
		if k, ok := parseKind(args[0]); !ok || !specs[k].Module {
			return bad(lang.M("%q is not a module", args[0]), lang.M("modules: core engine factory pd refinery armor collector"))
		}
		if n, err := strconv.Atoi(args[1]); err != nil || n < 1 || n > 4 {
			return bad(lang.M("%q is not 1 to 4 points", args[1]), lang.M("at most four points per module per turn"))
		}
	}
	return nil
}

// checkBuy is view.parseBuy without the board.
func checkBuy(w []string) error {
	k, ok := parseKind(w[1])
	if !ok {
		fix := lang.M("types: %s", strings.ToUpper(strings.Join(buyable, " ")))
		if c := engine.Closest(strings.ToLower(w[1]), buyable); c != "" {
			fix = lang.M("did you mean %s?", strings.ToUpper(c)) // an order word, as HELP writes it
		}
		return bad(lang.M("%q is not a unit type", w[1]), fix)
	}
	i := 2
	if k == Booster && i < len(w) && !strings.EqualFold(w[i], "AT") {
		if p, ok := parseKind(w[i]); !ok || !(p.satellite() || p.warhead()) {
			return bad(lang.M("a Booster carries a satellite or warhead, not %q", w[i]), lang.M("write e.g. BUY BOOSTER WARHEAD AT S1"))
		}
		i++
	}
	if i+1 >= len(w) || !strings.EqualFold(w[i], "AT") {
		return bad(lang.M("BUY needs AT <station>"), lang.M("write e.g. BUY BUS AT S1"))
	}
	i += 2
	if specs[k].Module && k != Core {
		if i < len(w) {
			return bad(lang.M("a module goes onto its Station"), lang.M("drop the INTO part"))
		}
		return nil
	}
	if i < len(w) {
		if i+2 != len(w) || !strings.EqualFold(w[i], "INTO") {
			return bad(lang.M("%q is not understood", strings.Join(w[i:], " ")), lang.M("end with INTO BAY, INTO SPACE or INTO <carrier>"))
		}
		if p := strings.ToUpper(w[i+1]); p == "SPACE" && k == Core {
			return bad(lang.M("a new Core is founded by dropping it"), lang.M("buy it INTO BAY or onto a Bus"))
		}
	}
	return nil
}
