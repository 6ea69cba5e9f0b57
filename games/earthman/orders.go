package earthman

import (
	"fmt"
	"strconv"
	"strings"

	"orrery/engine"
	"orrery/engine/lang"
)

// Verbs of the order language. Phase orders belong to one of the four
// phases; the others may be written at any time.
const (
	vPlace   = "PLACE"
	vLaunch  = "LAUNCH"
	vRoute   = "ROUTE"
	vFire    = "FIRE"
	vCoup    = "COUP"
	vBuild   = "BUILD"
	vDevelop = "DEVELOP"
	vEvac    = "EVACUATE"
	vGift    = "GIFT"
	vDecom   = "DECOMMISSION"
	vAgree   = "AGREE"
	vConcede = "CONCEDE"
	vOn      = "ON"
)

// Phases of a turn, in their strict order.
const (
	phaseNone = iota
	phaseMovement
	phaseCombat
	phaseConstruction
	phaseDevelopment
)

var phaseNames = []string{"before movement", "movement", "combat", "construction", "development"}

// phaseMsg is phaseNames[ph] as a message.
func phaseMsg(ph int) lang.Msg {
	switch ph {
	case phaseMovement:
		return lang.M("movement")
	case phaseCombat:
		return lang.M("combat")
	case phaseConstruction:
		return lang.M("construction")
	case phaseDevelopment:
		return lang.M("development")
	}
	return lang.M("before movement")
}

// phaseOf says to which phase a verb belongs (phaseNone: any time).
func phaseOf(verb string) int {
	switch verb {
	case vLaunch, vRoute:
		return phaseMovement
	case vFire, vCoup:
		return phaseCombat
	case vBuild:
		return phaseConstruction
	case vDevelop:
		return phaseDevelopment
	}
	return phaseNone
}

// extraordinary verbs are the three actions a player may take at any time.
func extraordinary(verb string) bool { return verb == vEvac || verb == vGift || verb == vDecom }

// order is one parsed line. Which fields matter depends on Verb.
type order struct {
	Verb   string
	N      int
	From   string  // LAUNCH world, ROUTE trajectory
	To     string  // LAUNCH/ROUTE destination, GIFT recipient
	World  string  // FIRE, COUP, BUILD, DEVELOP, EVACUATE, GIFT, DECOMMISSION, ON, PLACE
	Target string  // FIRE/COUP faction; AGREE player or NONE
	Sizes  []int   // BUILD group sizes
	Until  int     // DEVELOP: stop after this many successes (0: never)
	Dev    bool    // GIFT/DECOMMISSION: a development (else a fleet)
	Action string  // ON: EVACUATE, DECOMMISSION or NONE
	Trig   Trigger // ON ATTACKED, ON LOSS
}

// String is the canonical form of the order; it parses to the same order.
func (o order) String() string {
	switch o.Verb {
	case vPlace:
		return "PLACE " + o.World
	case vLaunch:
		return fmt.Sprintf("LAUNCH %d FROM %s TO %s", o.N, o.From, o.To)
	case vRoute:
		if o.N == 0 {
			return "ROUTE NONE FROM " + o.From
		}
		return fmt.Sprintf("ROUTE %d FROM %s TO %s", o.N, o.From, o.To)
	case vFire, vCoup:
		return fmt.Sprintf("%s %s %d AT %s", o.Verb, o.World, o.N, o.Target)
	case vBuild:
		parts := make([]string, len(o.Sizes))
		for i, n := range o.Sizes {
			parts[i] = strconv.Itoa(n)
		}
		return fmt.Sprintf("BUILD %s %s", o.World, strings.Join(parts, ","))
	case vDevelop:
		if o.Until > 0 {
			return fmt.Sprintf("DEVELOP %s %d UNTIL %d", o.World, o.N, o.Until)
		}
		return fmt.Sprintf("DEVELOP %s %d", o.World, o.N)
	case vEvac:
		return fmt.Sprintf("EVACUATE %s %d", o.World, o.N)
	case vGift:
		return fmt.Sprintf("GIFT %d %s AT %s TO %s", o.N, unitWord(o.Dev), o.World, o.To)
	case vDecom:
		return fmt.Sprintf("DECOMMISSION %d %s AT %s", o.N, unitWord(o.Dev), o.World)
	case vAgree:
		return "AGREE " + o.Target
	case vConcede:
		return "CONCEDE"
	case vOn:
		switch {
		case o.Trig.Event != "":
			return o.Trig.String()
		case o.Target == "":
			return fmt.Sprintf("ON COUP AT %s %s", o.World, o.Action)
		case o.Action == "NONE":
			return fmt.Sprintf("ON ATTACK ON %s AT %s NONE", o.Target, o.World)
		}
		return fmt.Sprintf("ON ATTACK ON %s AT %s GIFT %d %s", o.Target, o.World, o.N, unitWord(o.Dev))
	}
	return o.Verb
}

func unitWord(dev bool) string {
	if dev {
		return "DEV"
	}
	return "FLEET"
}

// syntaxError is a line error without its line number yet: msg and fix
// in English, why and hint the same as messages when it has them (errm).
type syntaxError struct {
	msg, fix  string
	why, hint lang.Msg
}

func (e *syntaxError) Error() string { return e.msg }

// errm is an order error worded as messages.
func errm(why, hint lang.Msg) *syntaxError {
	return &syntaxError{msg: why.English(), fix: hint.English(), why: why, hint: hint}
}

// lineErr is e as the line error of line n.
func (e *syntaxError) lineErr(n int, text string) engine.LineError {
	if e.why.IsZero() {
		return engine.LineError{Line: n, Text: text, Msg: e.msg, Fix: e.fix}
	}
	return engine.LineErr(n, text, e.why, e.hint)
}

// writeAs is the fix "write it as: <shape>".
func writeAs(shape string) lang.Msg { return lang.M("write it as: %s", shapeMsg(shape)) }

// namer resolves faction names; the parser needs the seats of the game.
type namer struct{ players []string }

// faction resolves a faction name: a seat or the UN.
func (n namer) faction(s string) (string, *syntaxError) {
	if strings.EqualFold(s, un) {
		return un, nil
	}
	for _, p := range n.players {
		if strings.EqualFold(p, s) {
			return p, nil
		}
	}
	all := append([]string{un}, n.players...)
	fix := lang.M("factions are %s", commaList(all))
	if c := engine.Closest(s, all); c != "" {
		fix = lang.M("did you mean %q?", c)
	}
	return "", errm(lang.M("no faction named %q", s), fix)
}

// place resolves a place name of the given kinds.
func place(s, what string, keep func(Place) bool) (Place, *syntaxError) {
	p, ok := board.Get(s)
	if ok && keep(p) {
		return p, nil
	}
	names := board.Names(keep)
	fix := lang.M("choose one of %s", commaList(names))
	if c := engine.Closest(s, names); c != "" {
		fix = lang.M("did you mean %q?", c)
	}
	if ok {
		switch what {
		case "world":
			return Place{}, errm(lang.M("%s is not a world", p.Name), fix)
		case "trajectory":
			return Place{}, errm(lang.M("%s is not a trajectory", p.Name), fix)
		}
		return Place{}, errm(lang.M("%s is not a place", p.Name), fix)
	}
	switch what {
	case "world":
		return Place{}, errm(lang.M("no world named %q", s), fix)
	case "trajectory":
		return Place{}, errm(lang.M("no trajectory named %q", s), fix)
	}
	return Place{}, errm(lang.M("no place named %q", s), fix)
}

func isWorld(p Place) bool      { return p.Kind == World }
func isTrajectory(p Place) bool { return p.Kind != World }

func count(s, what string) (int, *syntaxError) {
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > 999 {
		return 0, errm(lang.M("%s must be a positive number, not %q", countWhat(what), s), lang.M("write a whole number from 1 to 999"))
	}
	return n, nil
}

// keyword checks that word w (upper-cased) is want.
func keyword(w, want, example string) *syntaxError {
	if strings.ToUpper(w) != want {
		return errm(lang.M("expected %s here, not %q", want, w), writeAs(example))
	}
	return nil
}

// The shapes of the verbs, for error fixes and the help text: constants,
// so that each is a message of its own (writeAs) whose translation names
// the parts in the reader's language.
const (
	shapePlace   = "PLACE <Earth|Cislunar|Inner|Solar>"
	shapeLaunch  = "LAUNCH <n> FROM <world> TO <trajectory>"
	shapeRoute   = "ROUTE <n> FROM <trajectory> TO <place worldward of it>, or ROUTE NONE FROM <trajectory>"
	shapeFire    = "FIRE <world> <n> AT <faction>"
	shapeCoup    = "COUP <world> <n> AT <faction>"
	shapeBuild   = "BUILD <world> <size>[,<size>...]"
	shapeDevelop = "DEVELOP <world> <attempts> [UNTIL <successes>]"
	shapeEvac    = "EVACUATE <world> [<n>]"
	shapeGift    = "GIFT <n> FLEET|DEV AT <world> TO <faction>"
	shapeDecom   = "DECOMMISSION <n> FLEET|DEV AT <world>"
	shapeAgree   = "AGREE <player>|DRAW|NONE"
	shapeOn      = "ON COUP AT <world>|ANY EVACUATE|DECOMMISSION|NONE, or ON ATTACK ON <faction> AT <world>|ANY GIFT <n> FLEET|DEV (or NONE), or " +
		"ON ATTACKED|LOSS AT <world>|ANY [BY <faction>] [FIRE|COUP] [IF <test on A and D>] " +
		"EVACUATE <n>|ALL, DECOMMISSION <n>|ALL FLEET|DEV, GIFT <n>|ALL FLEET|DEV TO <faction>, or NONE" // ends with triggerShape
)

// grammar lists each verb's shape.
var grammar = map[string]string{
	vPlace:   shapePlace,
	vLaunch:  shapeLaunch,
	vRoute:   shapeRoute,
	vFire:    shapeFire,
	vCoup:    shapeCoup,
	vBuild:   shapeBuild,
	vDevelop: shapeDevelop,
	vEvac:    shapeEvac,
	vGift:    shapeGift,
	vDecom:   shapeDecom,
	vAgree:   shapeAgree,
	vConcede: "CONCEDE",
	vOn:      shapeOn,
}

// shapeMsg is a shape as a message: the first edition's by their
// constants, any other (the full rules') as written.
func shapeMsg(shape string) any {
	switch shape {
	case shapePlace:
		return lang.M(shapePlace)
	case shapeLaunch:
		return lang.M(shapeLaunch)
	case shapeRoute:
		return lang.M(shapeRoute)
	case shapeFire:
		return lang.M(shapeFire)
	case shapeCoup:
		return lang.M(shapeCoup)
	case shapeBuild:
		return lang.M(shapeBuild)
	case shapeDevelop:
		return lang.M(shapeDevelop)
	case shapeEvac:
		return lang.M(shapeEvac)
	case shapeGift:
		return lang.M(shapeGift)
	case shapeDecom:
		return lang.M(shapeDecom)
	case shapeAgree:
		return lang.M(shapeAgree)
	case shapeOn:
		return lang.M(shapeOn)
	case triggerShape:
		return lang.M(triggerShape)
	}
	return shape
}

var verbs = []string{vPlace, vLaunch, vRoute, vFire, vCoup, vBuild, vDevelop, vEvac, vGift, vDecom, vAgree, vConcede, vOn}

// parseLine parses one line for syntax and names only: counts against the
// board position are checked by the view.
func (n namer) parseLine(line string) (order, *syntaxError) {
	f := strings.Fields(line)
	verb := strings.ToUpper(f[0])
	shape, ok := grammar[verb]
	if !ok {
		fix := lang.M("orders start with one of %s", commaList(verbs))
		if c := engine.Closest(verb, verbs); c != "" {
			fix = lang.M("did you mean %s?", c)
		}
		return order{}, errm(lang.M("%q is not an order", f[0]), fix)
	}
	o := order{Verb: verb}
	bad := func() (order, *syntaxError) {
		return order{}, errm(lang.M("%s order is malformed", verb), writeAs(shape))
	}
	var e *syntaxError
	switch verb {
	case vPlace:
		if len(f) != 2 {
			return bad()
		}
		p, e := place(f[1], "place", func(p Place) bool { return p.Name == "Earth" || contains(board.Skyward("Earth"), p.Name) })
		if e != nil {
			return order{}, e
		}
		o.World = p.Name
	case vRoute, vLaunch:
		if verb == vRoute && len(f) == 4 && strings.EqualFold(f[1], "NONE") {
			// ROUTE NONE FROM t forgets the destinations stored at t.
			if e = keyword(f[2], "FROM", shape); e != nil {
				return order{}, e
			}
			from, e := place(f[3], "trajectory", isTrajectory)
			if e != nil {
				return order{}, e
			}
			o.From = from.Name
			break
		}
		if len(f) != 6 {
			return bad()
		}
		if o.N, e = count(f[1], "the number of fleets"); e != nil {
			return order{}, e
		}
		if e = keyword(f[2], "FROM", shape); e != nil {
			return order{}, e
		}
		if e = keyword(f[4], "TO", shape); e != nil {
			return order{}, e
		}
		var from, to Place
		if verb == vLaunch {
			if from, e = place(f[3], "world", isWorld); e != nil {
				return order{}, e
			}
			if to, e = place(f[5], "trajectory", isTrajectory); e != nil {
				return order{}, e
			}
			if !contains(board.Skyward(from.Name), to.Name) {
				return order{}, errm(lang.M("%s is not skyward of %s", to.Name, from.Name),
					lang.M("skyward of %s lie %s", from.Name, commaList(board.Skyward(from.Name))))
			}
		} else {
			if from, e = place(f[3], "trajectory", isTrajectory); e != nil {
				return order{}, e
			}
			if to, e = place(f[5], "place", func(Place) bool { return true }); e != nil {
				return order{}, e
			}
			if board.StepToward(from.Name, to.Name) == "" {
				return order{}, errm(lang.M("%s is not worldward of %s", to.Name, from.Name),
					lang.M("worldward of %s lie %s and the places beyond them", from.Name, commaList(board.Children(from.Name))))
			}
		}
		o.From, o.To = from.Name, to.Name
	case vFire, vCoup:
		if len(f) != 5 {
			return bad()
		}
		w, e := place(f[1], "world", isWorld)
		if e != nil {
			return order{}, e
		}
		o.World = w.Name
		if o.N, e = count(f[2], "the group size"); e != nil {
			return order{}, e
		}
		if e = keyword(f[3], "AT", shape); e != nil {
			return order{}, e
		}
		if o.Target, e = n.faction(f[4]); e != nil {
			return order{}, e
		}
	case vBuild:
		if len(f) < 3 {
			return bad()
		}
		w, e := place(f[1], "world", isWorld)
		if e != nil {
			return order{}, e
		}
		o.World = w.Name
		for _, s := range strings.Split(strings.Join(f[2:], ""), ",") {
			k, e := count(s, "a group size")
			if e != nil {
				return order{}, e
			}
			o.Sizes = append(o.Sizes, k)
		}
	case vDevelop:
		if len(f) != 3 && len(f) != 5 {
			return bad()
		}
		w, e := place(f[1], "world", isWorld)
		if e != nil {
			return order{}, e
		}
		o.World = w.Name
		if o.N, e = count(f[2], "the number of attempts"); e != nil {
			return order{}, e
		}
		if len(f) == 5 {
			if e = keyword(f[3], "UNTIL", shape); e != nil {
				return order{}, e
			}
			if o.Until, e = count(f[4], "the number of successes"); e != nil {
				return order{}, e
			}
		}
	case vEvac:
		if len(f) != 2 && len(f) != 3 {
			return bad()
		}
		w, e := place(f[1], "world", isWorld)
		if e != nil {
			return order{}, e
		}
		o.World, o.N = w.Name, 1
		if len(f) == 3 {
			if o.N, e = count(f[2], "the number of developments"); e != nil {
				return order{}, e
			}
		}
	case vGift, vDecom:
		want := 5
		if verb == vGift {
			want = 7
		}
		if len(f) != want {
			return bad()
		}
		if o.N, e = count(f[1], "the number of units"); e != nil {
			return order{}, e
		}
		switch strings.ToUpper(f[2]) {
		case "FLEET", "FLEETS":
		case "DEV", "DEVS", "DEVELOPMENT", "DEVELOPMENTS":
			o.Dev = true
		default:
			return order{}, errm(lang.M("%q is not a kind of unit", f[2]), lang.M("write FLEET or DEV"))
		}
		if e = keyword(f[3], "AT", shape); e != nil {
			return order{}, e
		}
		w, e := place(f[4], "world", isWorld)
		if e != nil {
			return order{}, e
		}
		o.World = w.Name
		if verb == vGift {
			if e = keyword(f[5], "TO", shape); e != nil {
				return order{}, e
			}
			if o.To, e = n.faction(f[6]); e != nil {
				return order{}, e
			}
		}
	case vAgree:
		if len(f) != 2 {
			return bad()
		}
		if strings.EqualFold(f[1], "NONE") || strings.EqualFold(f[1], "DRAW") {
			o.Target = strings.ToUpper(f[1])
			break
		}
		t, e := n.faction(f[1])
		if e != nil {
			return order{}, e
		}
		if t == un {
			return order{}, errm(lang.M("the UN cannot win"), lang.M("name a player, or NONE"))
		}
		o.Target = t
	case vConcede:
		if len(f) != 1 {
			return bad()
		}
	case vOn:
		if len(f) >= 2 && (strings.EqualFold(f[1], evAttacked) || strings.EqualFold(f[1], evLoss)) {
			if o.Trig, e = n.parseTrigger(f); e != nil {
				return order{}, e
			}
			break
		}
		if len(f) >= 2 && strings.EqualFold(f[1], "ATTACK") {
			// ON ATTACK ON <faction> AT <world|ANY> GIFT <n> FLEET|DEV | NONE
			if len(f) != 7 && len(f) != 9 {
				return bad()
			}
			if e = keyword(f[2], "ON", shape); e != nil {
				return order{}, e
			}
			if o.Target, e = n.faction(f[3]); e != nil {
				return order{}, e
			}
			if e = keyword(f[4], "AT", shape); e != nil {
				return order{}, e
			}
			if o.World, e = worldOrAny(f[5]); e != nil {
				return order{}, e
			}
			if len(f) == 7 {
				if e = keyword(f[6], "NONE", shape); e != nil {
					return order{}, e
				}
				o.Action = "NONE"
				break
			}
			if e = keyword(f[6], "GIFT", shape); e != nil {
				return order{}, e
			}
			if o.N, e = count(f[7], "the number of units"); e != nil {
				return order{}, e
			}
			if o.Dev, e = unitKind(f[8]); e != nil {
				return order{}, e
			}
			o.Action = vGift
			break
		}
		if len(f) != 5 {
			return bad()
		}
		if e = keyword(f[1], "COUP", shape); e != nil {
			return order{}, e
		}
		if e = keyword(f[2], "AT", shape); e != nil {
			return order{}, e
		}
		if o.World, e = worldOrAny(f[3]); e != nil {
			return order{}, e
		}
		a := strings.ToUpper(f[4])
		if a != vEvac && a != vDecom && a != "NONE" {
			return order{}, errm(lang.M("%q is not a standing reaction", f[4]), lang.M("write EVACUATE, DECOMMISSION or NONE"))
		}
		o.Action = a
	}
	return o, nil
}

// without returns list less the items of drop, in order; nil when empty.
func without(list, drop []string) []string {
	var out []string
	for _, x := range list {
		if !contains(drop, x) {
			out = append(out, x)
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func worldOrAny(s string) (string, *syntaxError) {
	if strings.EqualFold(s, "ANY") {
		return "ANY", nil
	}
	w, e := place(s, "world", isWorld)
	return w.Name, e
}

// countWhat is the count a number stands for, as a message: the names
// count's callers give (both editions').
func countWhat(what string) lang.Msg {
	switch what {
	case "the number of fleets":
		return lang.M("the number of fleets")
	case "the group size":
		return lang.M("the group size")
	case "a group size":
		return lang.M("a group size")
	case "the number of attempts":
		return lang.M("the number of attempts")
	case "the number of successes":
		return lang.M("the number of successes")
	case "the number of developments":
		return lang.M("the number of developments")
	case "the number of units":
		return lang.M("the number of units")
	case "the number of passes":
		return lang.M("the number of passes")
	case "the region number":
		return lang.M("the region number")
	}
	return lang.M("the number")
}
