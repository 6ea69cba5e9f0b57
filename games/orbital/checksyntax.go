package orbital

import (
	"strconv"
	"strings"

	"orrery/engine"
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
				le.Msg, le.Fix = x.msg, x.fix
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
		fix := "orders start with one of " + strings.Join(verbs, ", ")
		if c := engine.Closest(verb, verbs); c != "" {
			fix = "did you mean " + c + "?"
		}
		return bad("%q is not an order", fix, w[0])
	}
	if len(w) < 2 {
		return bad("%s needs a unit", "see HELP: "+grammarFor(verb), verb)
	}
	if verb == "BUY" {
		return checkBuy(w)
	}
	args := w[2:]
	impulse := func(a []string) error {
		if len(a) != 2 || !strings.EqualFold(a[0], "AT") {
			return bad("%s needs AT <impulse>", "write e.g. "+verb+" "+strings.ToUpper(w[1])+" AT 1", verb)
		}
		if n, err := strconv.Atoi(a[1]); err != nil || n < 1 || n > 7 {
			return bad("impulse %q is not 1 to 7", "steps 3–7 run in impulses 1 to 7", a[1])
		}
		return nil
	}
	switch verb {
	case "LAUNCH":
		for _, a := range args {
			switch strings.ToUpper(a) {
			case "LEFT", "RIGHT", "CONTRA":
			default:
				return bad("%q is not LEFT, RIGHT or CONTRA", grammarFor(verb), a)
			}
		}
	case "THRUST":
		if len(args) < 1 {
			return bad("THRUST needs a velocity change", grammarFor(verb))
		}
		if _, err := strconv.Atoi(args[0]); err != nil {
			return bad("%q is not a velocity change", "write +1, 0 or -1", args[0])
		}
		for i := 1; i < len(args); i += 2 {
			if i+1 >= len(args) {
				return bad("%s needs a value", grammarFor(verb), args[i])
			}
			switch strings.ToUpper(args[i]) {
			case "TURN":
				if k, err := strconv.Atoi(args[i+1]); err != nil || k < -3 || k > 3 {
					return bad("%q is not a turn of -3 to +3 facings", "+1 turns counter-clockwise", args[i+1])
				}
			case "FACE":
				if _, ok := parseDir(args[i+1]); !ok {
					return bad("%q is not a facing", "use E, NE, NW, W, SW or SE", args[i+1])
				}
			default:
				return bad("%q is not TURN or FACE", grammarFor(verb), args[i])
			}
		}
	case "DROP", "DEPLOY", "LAND":
		if verb != "LAND" && len(args) == 2 && strings.EqualFold(args[0], "WHEN") {
			if !contains(targetKinds, strings.ToUpper(args[1])) {
				return bad("%q is not a unit type", "WHEN takes a type: "+strings.Join(targetKinds, " "), args[1])
			}
			return nil
		}
		return impulse(args)
	case "PICKUP":
		if len(args) < 1 {
			return bad("PICKUP needs the unit to pick up", grammarFor(verb))
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
				return bad("AT needs targets", "name unit IDs or types (station, bus, booster…) or ANY")
			}
		}
		for ; i < len(args); i += 2 {
			if i+1 >= len(args) || (verb == "STRIKE" && !strings.EqualFold(args[i], "FROM")) {
				return bad("%q is not understood here", grammarFor(verb), args[i])
			}
			n, err := strconv.Atoi(args[i+1])
			switch strings.ToUpper(args[i]) {
			case "FROM":
				if err != nil || n < 1 || n > 7 {
					return bad("FROM must be an impulse, 1 to 7", "no fire before that impulse of each turn")
				}
			case "SHOTS":
				if err != nil || n < 1 || n > 3 {
					return bad("SHOTS must be 1 to 3", "the most shots a laser takes in one impulse")
				}
			case "MIN":
				if err != nil || n < 1 || n > 6 {
					return bad("MIN must be 1 to 6", "the least hit range (1–3 before modifiers) worth a shot")
				}
			default:
				return bad("%q is not SHOTS, MIN or FROM", grammarFor(verb), args[i])
			}
		}
	case "HOLD", "RECYCLE", "CANCEL":
		if len(args) > 0 {
			return bad("%s takes only a unit", grammarFor(verb), verb)
		}
	case "PLACE":
		if len(args) != 1 {
			return bad("PLACE needs one of your Stations and a hex", "write e.g. PLACE S1 6A0")
		}
		if _, err := parseHex(args[0]); err != nil {
			return bad("%q is not a hex", "hexes are written like 6A0: ring, side A to F, step", args[0])
		}
	case "EXIT":
		for _, a := range args {
			if strings.EqualFold(a, "CW") {
				continue
			}
			if h, err := parseHex(a); err != nil || h.ring() != 1 {
				return bad("%q is not a ring-1 hex", "ring 1 is 1A0 to 1F0", a)
			}
		}
	case "REPAIR":
		if len(args) != 2 {
			return bad("REPAIR needs a Station, a module and points", grammarFor(verb))
		}
		if k, ok := parseKind(args[0]); !ok || !specs[k].Module {
			return bad("%q is not a module", "modules: core engine factory pd refinery armor collector", args[0])
		}
		if n, err := strconv.Atoi(args[1]); err != nil || n < 1 || n > 4 {
			return bad("%q is not 1 to 4 points", "at most four points per module per turn", args[1])
		}
	}
	return nil
}

// checkBuy is view.parseBuy without the board.
func checkBuy(w []string) error {
	k, ok := parseKind(w[1])
	if !ok {
		fix := "types: " + strings.Join(buyable, " ")
		if c := engine.Closest(strings.ToLower(w[1]), buyable); c != "" {
			fix = "did you mean " + c + "?"
		}
		return bad("%q is not a unit type", fix, w[1])
	}
	i := 2
	if k == Booster && i < len(w) && !strings.EqualFold(w[i], "AT") {
		if p, ok := parseKind(w[i]); !ok || !(p.satellite() || p.warhead()) {
			return bad("a Booster carries a satellite or warhead, not %q", "write e.g. BUY BOOSTER WARHEAD AT S1", w[i])
		}
		i++
	}
	if i+1 >= len(w) || !strings.EqualFold(w[i], "AT") {
		return bad("BUY needs AT <station>", "write e.g. BUY BUS AT S1")
	}
	i += 2
	if specs[k].Module && k != Core {
		if i < len(w) {
			return bad("a module goes onto its Station", "drop the INTO part")
		}
		return nil
	}
	if i < len(w) {
		if i+2 != len(w) || !strings.EqualFold(w[i], "INTO") {
			return bad("%q is not understood", "end with INTO BAY, INTO SPACE or INTO <carrier>", strings.Join(w[i:], " "))
		}
		if p := strings.ToUpper(w[i+1]); p == "SPACE" && k == Core {
			return bad("a new Core is founded by dropping it", "buy it INTO BAY or onto a Bus")
		}
	}
	return nil
}
