package orbital

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"orrery/engine"
	"orrery/engine/lang"
)

// order is one parsed line. Fields a verb does not use stay zero.
type order struct {
	Verb    string    `json:"verb"`
	Unit    string    `json:"unit,omitempty"`
	Other   string    `json:"other,omitempty"` // PICKUP: the unit picked up
	Kind    Kind      `json:"kind,omitempty"`  // BUY type; REPAIR module
	Payload Kind      `json:"payload,omitempty"`
	Place   string    `json:"place,omitempty"` // BUY: BAY, SPACE or a carrier ID
	At      int       `json:"at,omitempty"`    // impulse 1–7
	N       int       `json:"n,omitempty"`     // THRUST dv, REPAIR points, LAUNCH offset
	Turn    int       `json:"turn,omitempty"`  // THRUST facings
	Face    int       `json:"face,omitempty"`  // THRUST FACE from v=0: facing+1 (0 = none)
	Contra  bool      `json:"contra,omitempty"`
	Fire    FireOrder `json:"fire,omitempty"`
	Hex     *Hex      `json:"hex,omitempty"`
	CW      bool      `json:"cw,omitempty"`
	When    string    `json:"when,omitempty"` // DROP, DEPLOY: trigger (an enemy type or ANY in the hex)
}

// line is the canonical form of o.
func (o order) line() string {
	at := func() string { return fmt.Sprintf(" AT %d", o.At) }
	switch o.Verb {
	case "LAUNCH":
		s := "LAUNCH " + o.Unit
		if o.N < 0 {
			s += " RIGHT"
		} else if o.N > 0 {
			s += " LEFT"
		}
		if o.Contra {
			s += " CONTRA"
		}
		return s
	case "THRUST":
		s := fmt.Sprintf("THRUST %s %+d", o.Unit, o.N)
		if o.Turn != 0 {
			s += fmt.Sprintf(" TURN %+d", o.Turn)
		}
		if o.Face > 0 {
			s += " FACE " + dirNames[o.Face-1]
		}
		return s
	case "DROP", "DEPLOY", "LAND":
		if o.When != "" {
			return o.Verb + " " + o.Unit + " WHEN " + o.When
		}
		return o.Verb + " " + o.Unit + at()
	case "PICKUP":
		return "PICKUP " + o.Unit + " " + o.Other + at()
	case "FIRE", "STRIKE":
		s := o.Verb + " " + o.Unit
		if len(o.Fire.Targets) > 0 {
			s += " AT " + strings.Join(o.Fire.Targets, " ")
		}
		if o.Fire.PerImpulse > 0 {
			s += fmt.Sprintf(" SHOTS %d", o.Fire.PerImpulse)
		}
		if o.Fire.Min > 1 {
			s += fmt.Sprintf(" MIN %d", o.Fire.Min)
		}
		if o.Fire.From > 1 {
			s += fmt.Sprintf(" FROM %d", o.Fire.From)
		}
		return s
	case "HOLD", "RECYCLE", "CANCEL":
		return o.Verb + " " + o.Unit
	case "PLACE":
		return "PLACE " + o.Unit + " " + o.Hex.Name()
	case "EXIT":
		s := "EXIT " + o.Unit
		if o.Hex != nil {
			s += " " + o.Hex.Name()
		}
		if o.CW {
			s += " CW"
		}
		return s
	case "REPAIR":
		return fmt.Sprintf("REPAIR %s %s %d", o.Unit, strings.ToUpper(string(o.Kind)), o.N)
	case "BUY":
		s := "BUY " + strings.ToUpper(string(o.Kind))
		if o.Payload != "" {
			s += " " + strings.ToUpper(string(o.Payload))
		}
		s += " AT " + o.Unit
		if o.Place != "MODULE" {
			s += " INTO " + o.Place
		}
		return s
	}
	return o.Verb
}

// orderSet is a player's accepted orders.
type orderSet struct{ list []order }

func (o *orderSet) Lines() []string {
	out := make([]string, len(o.list))
	for i, x := range o.list {
		out[i] = x.line()
	}
	return out
}

// orderHelp is the order language, for HELP (Info.OrderHelp).
const orderHelp = "PLACE <station> <hex>                      placement only: where it starts\n" +
	"LAUNCH <unit> [LEFT|RIGHT] [CONTRA]        from a Station's bay (1.1)\n" +
	"THRUST <unit> <+n|-n> [TURN <+k|-k>] [FACE <E|NE|NW|W|SW|SE>]   (1.2)\n" +
	"DROP <unit> AT <impulse>                   out of its carrier (step 3)\n" +
	"DROP <unit> WHEN <type|ANY>                standing: when an enemy of that\n" +
	"                                           type is free in its hex\n" +
	"PICKUP <carrier> <unit> AT <impulse>       (step 3)\n" +
	"LAND <unit> AT <impulse>                   on a moon (step 4)\n" +
	"DEPLOY <satellite> AT <impulse>            (step 5); or WHEN <type|ANY>,\n" +
	"                                           standing\n" +
	"CANCEL <unit>                              end a standing DROP/DEPLOY ...\n" +
	"                                           WHEN trigger\n" +
	"FIRE <laser> [AT <target>...] [SHOTS n] [MIN n] [FROM i]   standing (step 6)\n" +
	"HOLD <laser|warhead>                       cancel a FIRE or STRIKE order\n" +
	"STRIKE <warhead> [AT <target>...] [FROM i]  standing (step 7)\n" +
	"EXIT <scoopship> [<ring-1 hex>] [CW]       leave the atmosphere\n" +
	"RECYCLE <unit>                             from a bay (phase 2)\n" +
	"REPAIR <station> <module> <points>         (phase 2)\n" +
	"BUY <type> [<payload>] AT <station> [INTO BAY|SPACE|<carrier>]  (phase 2;\n" +
	"                                           a carrier takes warheads,\n" +
	"                                           satellites, a Core)\n" +
	"Units are named by ID (S1, B7, R12). Hexes: ring, sextant A-F, offset\n" +
	"(5A0, 4C2, P = planet). Targets: enemy IDs or types (station bus gunship\n" +
	"scoopship booster warhead pulse satellite any)."

var verbs = []string{"PLACE", "LAUNCH", "THRUST", "DROP", "PICKUP", "LAND", "DEPLOY", "CANCEL", "FIRE", "HOLD", "STRIKE",
	"EXIT", "RECYCLE", "REPAIR", "BUY"}

// parse checks text against what v's player can see.
func (v *view) parse(text string) (*orderSet, []engine.LineError) {
	set := &orderSet{}
	var errs []engine.LineError
	seen := map[string]int{}
	for i, raw := range strings.Split(text, "\n") {
		line := strings.TrimSpace(raw)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		o, err := v.parseLine(strings.Fields(line))
		if err == nil {
			key := ""
			switch o.Verb {
			case "PLACE", "LAUNCH", "THRUST", "FIRE", "HOLD", "STRIKE", "EXIT", "RECYCLE":
				key = o.Verb + " " + o.Unit
				if o.Verb == "HOLD" { // HOLD cancels a FIRE or a STRIKE: not with one in the same orders
					key = "FIRE " + o.Unit
					if u := v.s.unit(o.Unit); u != nil && u.Kind.warhead() {
						key = "STRIKE " + o.Unit
					}
				}
			case "DROP", "DEPLOY", "LAND", "CANCEL":
				key = "IMPULSE " + o.Unit
			}
			if key != "" {
				if prev, dup := seen[key]; dup {
					err = bad(lang.M("%s was already given an order of this kind on line %d", o.Unit, prev),
						lang.M("give each unit one such order a turn"))
				} else {
					seen[key] = i + 1
				}
			}
		}
		if err != nil {
			le := engine.LineError{Line: i + 1, Text: line, Msg: err.Error()}
			if x, ok := err.(*lineErr); ok {
				le = engine.LineErr(i+1, line, x.why, x.hint)
			}
			errs = append(errs, le)
			continue
		}
		set.list = append(set.list, o)
	}
	return set, errs
}

// lineErr is why a line is refused and how to fix it (the zero Msg: no
// hint), as messages.
type lineErr struct{ why, hint lang.Msg }

func (e *lineErr) Error() string { return e.why.English() }

func bad(why, hint lang.Msg) error { return &lineErr{why, hint} }

func (v *view) parseLine(w []string) (order, error) {
	verb := strings.ToUpper(w[0])
	o := order{Verb: verb}
	if !contains(verbs, verb) {
		fix := lang.M("orders start with one of %s", strings.Join(verbs, ", "))
		if c := engine.Closest(verb, verbs); c != "" {
			fix = lang.M("did you mean %s?", c)
		}
		return o, bad(lang.M("%q is not an order", w[0]), fix)
	}
	if len(w) < 2 {
		return o, bad(lang.M("%s needs a unit", verb), lang.M("see HELP: %s", grammarFor(verb)))
	}
	sequential := v.s.sequential()
	switch {
	case len(v.s.Placing) > 0 && verb != "PLACE":
		return o, bad(lang.M("%s waits for the opening turn", verb), lang.M("the Stations are being placed: send PLACE <station> <hex>, or nothing to keep yours where it is"))
	case len(v.s.Placing) == 0 && v.s.TurnN == 0 && verb == "PLACE" && sequential:
		return o, bad(lang.M("the Stations are placed already"), lang.M("the opening turn takes only BUY, FIRE, STRIKE and HOLD"))
	case v.s.TurnN == 0 && !contains([]string{"PLACE", "BUY", "FIRE", "STRIKE", "HOLD"}, verb):
		opening := []string{"BUY", "FIRE", "STRIKE", "HOLD"}
		if !sequential {
			opening = append([]string{"PLACE"}, opening...)
		}
		return o, bad(lang.M("%s waits for turn 1", verb), lang.M("the opening turn takes only %s", lang.Strings(opening)))
	}
	if v.s.TurnN != 0 && verb == "PLACE" {
		return o, bad(lang.M("PLACE is for the start of the game, up to the opening turn"), lang.M("Stations move by THRUST once the game runs"))
	}
	if verb == "BUY" {
		return v.parseBuy(w)
	}
	args := w[2:]
	u, err := v.own(w[1], verb)
	if err != nil {
		return o, err
	}
	o.Unit = u.ID
	impulse := func(a []string) (int, error) {
		if len(a) != 2 || !strings.EqualFold(a[0], "AT") {
			return 0, bad(lang.M("%s needs AT <impulse>", verb), lang.M("write e.g. %s %s AT 1", verb, u.ID))
		}
		n, err := strconv.Atoi(a[1])
		if err != nil || n < 1 || n > 7 {
			return 0, bad(lang.M("impulse %q is not 1 to 7", a[1]), lang.M("steps 3–7 run in impulses 1 to 7"))
		}
		return n, nil
	}
	switch verb {
	case "LAUNCH":
		c := v.s.unit(u.In)
		if c == nil || c.Kind != Station {
			return o, bad(lang.M("%s is not in a Station's bay", u.ID), lang.M("only units in a bay can be launched; use DROP for payloads"))
		}
		for _, a := range args {
			switch strings.ToUpper(a) {
			case "LEFT":
				o.N = 1
			case "RIGHT":
				o.N = -1
			case "CONTRA":
				o.Contra = true
			default:
				return o, bad(lang.M("%q is not LEFT, RIGHT or CONTRA", a), grammarFor(verb))
			}
		}
	case "THRUST":
		if len(args) < 1 {
			return o, bad(lang.M("THRUST needs a velocity change"), grammarFor(verb))
		}
		dv, err := strconv.Atoi(args[0])
		if err != nil {
			return o, bad(lang.M("%q is not a velocity change", args[0]), lang.M("write +1, 0 or -1"))
		}
		o.N = dv
		for i := 1; i < len(args); i += 2 {
			if i+1 >= len(args) {
				return o, bad(lang.M("%s needs a value", args[i]), grammarFor(verb))
			}
			switch strings.ToUpper(args[i]) {
			case "TURN":
				k, err := strconv.Atoi(args[i+1])
				if err != nil || k < -3 || k > 3 {
					return o, bad(lang.M("%q is not a turn of -3 to +3 facings", args[i+1]), lang.M("+1 turns counter-clockwise"))
				}
				o.Turn = k
			case "FACE":
				f, ok := parseDir(args[i+1])
				if !ok {
					return o, bad(lang.M("%q is not a facing", args[i+1]), lang.M("use E, NE, NW, W, SW or SE"))
				}
				o.Face = f + 1
			default:
				return o, bad(lang.M("%q is not TURN or FACE", args[i]), grammarFor(verb))
			}
		}
		thrust := v.s.thrust(u)
		if thrust == 0 {
			return o, bad(lang.M("%s has no thrust", u.ID), lang.M("Stations need an operational Engine Module; satellites and warheads have none"))
		}
		cost := abs(o.N) + abs(o.Turn)*u.V
		if u.V+o.N < 0 {
			return o, bad(lang.M("%s is at velocity %d and cannot slow by %d", u.ID, u.V, -o.N), lang.M("velocity never goes below 0"))
		}
		if o.Face > 0 && u.V != 0 {
			return o, bad(lang.M("FACE only chooses a vector from velocity 0"), lang.M("use TURN: it costs facings × velocity"))
		}
		if cost > thrust {
			return o, bad(lang.M("%s needs %d thrust (|%d| + %s × velocity %d) but has %d", u.ID, cost, o.N, lang.MN("%d facing", "%d facings", abs(o.Turn)), u.V, thrust), lang.M("spend at most its thrust"))
		}
	case "DROP", "DEPLOY", "LAND":
		if verb != "LAND" && len(args) == 2 && strings.EqualFold(args[0], "WHEN") {
			k := strings.ToUpper(args[1])
			if !contains(targetKinds, k) {
				return o, bad(lang.M("%q is not a unit type", args[1]), lang.M("WHEN takes a type: %s", strings.Join(targetKinds, " ")))
			}
			o.When = k
		} else {
			n, err := impulse(args)
			if err != nil {
				return o, err
			}
			o.At = n
		}
		if verb == "DROP" && u.In == "" {
			return o, bad(lang.M("%s is not carried", u.ID), lang.M("only payloads and bay contents can be dropped"))
		}
		if verb == "DEPLOY" && !u.Kind.satellite() {
			return o, bad(lang.M("%s is %s, not a satellite", u.ID, aKind(u.Kind)), lang.M("DEPLOY is for DefSats, ComSats and ECMSats"))
		}
		if verb == "DEPLOY" && u.Deployed {
			return o, bad(lang.M("%s is already deployed", u.ID), lang.Msg{})
		}
		if verb == "LAND" && !u.Kind.spacecraft() {
			return o, bad(lang.M("%s cannot land", u.ID), lang.M("only spacecraft land on moons"))
		}
	case "PICKUP":
		if len(args) < 1 {
			return o, bad(lang.M("PICKUP needs the unit to pick up"), grammarFor(verb))
		}
		x, err := v.own(args[0], verb)
		if err != nil {
			return o, err
		}
		o.Other = x.ID
		n, err := impulse(args[1:])
		if err != nil {
			return o, err
		}
		o.At = n
		if cap := u.spec().Payload; cap == 0 || u.Kind == Scoopship {
			return o, bad(lang.M("%s cannot carry units", u.ID), lang.M("Stations, Buses, Gunships and Boosters carry"))
		}
		if u.Kind == Booster && !(x.Kind.satellite() || x.Kind.warhead()) {
			return o, bad(lang.M("a Booster carries one satellite or warhead, not %s", aKind(x.Kind)), lang.Msg{})
		}
	case "FIRE", "STRIKE":
		if verb == "FIRE" && u.spec().Shots == 0 && u.Kind != Station {
			return o, bad(lang.M("%s has no laser", u.ID), lang.M("DefSats, Gunships and Stations with a Point Defense Module fire"))
		}
		if verb == "STRIKE" && !u.Kind.warhead() {
			return o, bad(lang.M("%s is not a warhead", u.ID), lang.M("STRIKE is for basic and pulse warheads"))
		}
		i := 0
		if i < len(args) && strings.EqualFold(args[i], "AT") {
			i++
			for ; i < len(args) && !contains([]string{"SHOTS", "MIN", "FROM"}, strings.ToUpper(args[i])); i++ {
				t, err := v.target(args[i])
				if err != nil {
					return o, err
				}
				o.Fire.Targets = append(o.Fire.Targets, t)
			}
			if len(o.Fire.Targets) == 0 {
				return o, bad(lang.M("AT needs targets"), lang.M("name unit IDs or types (station, bus, booster…) or ANY"))
			}
		}
		for ; i < len(args); i += 2 {
			if i+1 >= len(args) || (verb == "STRIKE" && !strings.EqualFold(args[i], "FROM")) {
				return o, bad(lang.M("%q is not understood here", args[i]), grammarFor(verb))
			}
			n, err := strconv.Atoi(args[i+1])
			switch strings.ToUpper(args[i]) {
			case "FROM":
				if err != nil || n < 1 || n > 7 {
					return o, bad(lang.M("FROM must be an impulse, 1 to 7"), lang.M("no fire before that impulse of each turn"))
				}
				o.Fire.From = n
			case "SHOTS":
				if err != nil || n < 1 || n > 3 {
					return o, bad(lang.M("SHOTS must be 1 to 3"), lang.M("the most shots a laser takes in one impulse"))
				}
				o.Fire.PerImpulse = n
			case "MIN":
				if err != nil || n < 1 || n > 6 {
					return o, bad(lang.M("MIN must be 1 to 6"), lang.M("the least hit range (1–3 before modifiers) worth a shot"))
				}
				o.Fire.Min = n
			default:
				return o, bad(lang.M("%q is not SHOTS, MIN or FROM", args[i]), grammarFor(verb))
			}
		}
	case "HOLD", "RECYCLE", "CANCEL":
		if len(args) > 0 {
			return o, bad(lang.M("%s takes only a unit", verb), grammarFor(verb))
		}
		if verb == "CANCEL" && u.Trigger == nil {
			return o, bad(lang.M("%s has no standing trigger", u.ID), lang.M("DROP <unit> WHEN <type> and DEPLOY <satellite> WHEN <type> set one"))
		}
		if verb == "RECYCLE" {
			if c := v.s.unit(u.In); c == nil || c.Kind != Station {
				return o, bad(lang.M("%s is not in a Station's bay", u.ID), lang.M("only bay contents are recycled"))
			}
		}
	case "PLACE":
		if u.Kind != Station || len(args) != 1 {
			return o, bad(lang.M("PLACE needs one of your Stations and a hex"), lang.M("write e.g. PLACE %s %s", u.ID, u.Hex.Name()))
		}
		h, err := parseHex(args[0])
		if err != nil || h.ring() != u.Hex.ring() {
			return o, bad(lang.M("%q is not a hex of ring %d", args[0], u.Hex.ring()),
				lang.M("the scenario puts both Stations on ring %d; its hexes are %dA0 to %dF%d", u.Hex.ring(), u.Hex.ring(), u.Hex.ring(), u.Hex.ring()-1))
		}
		o.Hex = &h
		// Placed one after the other, a Station may not start within
		// min-distance of an enemy one; placed at once (sealed), the
		// check waits for the resolution.
		if sequential {
			if why := v.s.tooClose(v.player, h); !why.IsZero() {
				return o, bad(why, lang.M("choose a hex further from it"))
			}
		}
	case "EXIT":
		if u.Kind != Scoopship {
			return o, bad(lang.M("%s is not a scoopship", u.ID), lang.Msg{})
		}
		if !u.Atmo {
			return o, bad(lang.M("%s is not in the atmosphere", u.ID), lang.M("EXIT is for the turn after a scoopship dives into the planet"))
		}
		for _, a := range args {
			if strings.EqualFold(a, "CW") {
				o.CW = true
				continue
			}
			h, err := parseHex(a)
			if err != nil || h.ring() != 1 {
				return o, bad(lang.M("%q is not a ring-1 hex", a), lang.M("ring 1 is 1A0 to 1F0"))
			}
			o.Hex = &h
		}
	case "REPAIR":
		if u.Kind != Station || len(args) != 2 {
			return o, bad(lang.M("REPAIR needs a Station, a module and points"), grammarFor(verb))
		}
		k, ok := parseKind(args[0])
		if !ok || !specs[k].Module {
			return o, bad(lang.M("%q is not a module", args[0]), lang.M("modules: core engine factory pd refinery armor collector"))
		}
		if u.module(k) == nil {
			return o, bad(lang.M("%s has no %s module", u.ID, kindMsg(k)), lang.Msg{})
		}
		n, err := strconv.Atoi(args[1])
		if err != nil || n < 1 || n > 4 {
			return o, bad(lang.M("%q is not 1 to 4 points", args[1]), lang.M("at most four points per module per turn"))
		}
		o.Kind, o.N = k, n
	}
	return o, nil
}

// parseBuy reads BUY <type> [<payload>] AT <station> [INTO BAY|SPACE|<carrier>].
func (v *view) parseBuy(w []string) (order, error) {
	o := order{Verb: "BUY", Place: "BAY"}
	k, ok := parseKind(w[1])
	if !ok {
		fix := lang.M("types: %s", strings.ToUpper(strings.Join(buyable, " ")))
		if c := engine.Closest(strings.ToLower(w[1]), buyable); c != "" {
			fix = lang.M("did you mean %s?", strings.ToUpper(c)) // an order word, as HELP writes it
		}
		return o, bad(lang.M("%q is not a unit type", w[1]), fix)
	}
	o.Kind = k
	i := 2
	if k == Booster && i < len(w) && !strings.EqualFold(w[i], "AT") {
		p, ok := parseKind(w[i])
		if !ok || !(p.satellite() || p.warhead()) {
			return o, bad(lang.M("a Booster carries a satellite or warhead, not %q", w[i]), lang.M("write e.g. BUY BOOSTER WARHEAD AT S1"))
		}
		o.Payload = p
		i++
	}
	if i+1 >= len(w) || !strings.EqualFold(w[i], "AT") {
		return o, bad(lang.M("BUY needs AT <station>"), lang.M("write e.g. BUY BUS AT S1"))
	}
	st, err := v.own(w[i+1], "BUY")
	if err != nil {
		return o, err
	}
	if st.Kind != Station {
		return o, bad(lang.M("%s is not a Station", st.ID), lang.M("only Stations build"))
	}
	o.Unit = st.ID
	i += 2
	if specs[k].Module && k != Core {
		o.Place = "MODULE"
		if i < len(w) {
			return o, bad(lang.M("a module goes onto its Station"), lang.M("drop the INTO part"))
		}
		if st.module(k) != nil {
			return o, bad(lang.M("%s already has %s module", st.ID, aKind(k)), lang.M("one module of each type per Station"))
		}
		return o, nil
	}
	if i < len(w) {
		if i+2 != len(w) || !strings.EqualFold(w[i], "INTO") {
			return o, bad(lang.M("%q is not understood", strings.Join(w[i:], " ")), lang.M("end with INTO BAY, INTO SPACE or INTO <carrier>"))
		}
		p := strings.ToUpper(w[i+1])
		switch p {
		case "BAY", "SPACE":
			o.Place = p
		default:
			c, err := v.own(p, "BUY")
			if err != nil {
				return o, err
			}
			if c.spec().Payload <= 0 || c.Kind == Scoopship {
				return o, bad(lang.M("%s carries nothing", c.ID), lang.M("carriers: Bus, Gunship, Booster"))
			}
			if k.spacecraft() {
				return o, bad(lang.M("a new %s cannot be built onto %s", kindMsg(k), c.ID), lang.M("new spacecraft go INTO BAY or INTO SPACE (section 2); only warheads, satellites and a Core are built onto a carrier"))
			}
			o.Place = c.ID
		}
	}
	if k == Core && o.Place == "SPACE" {
		return o, bad(lang.M("a new Core is founded by dropping it"), lang.M("buy it INTO BAY or onto a Bus"))
	}
	return o, nil
}

// grammarFor is the form of verb's order, as the first line of its HELP
// entry gives it, with its placeholders in the reader's language.
func grammarFor(verb string) lang.Msg {
	switch verb {
	case "PLACE":
		return lang.M("PLACE <station> <hex>")
	case "LAUNCH":
		return lang.M("LAUNCH <unit> [LEFT|RIGHT] [CONTRA]")
	case "THRUST":
		return lang.M("THRUST <unit> <+n|-n> [TURN <+k|-k>] [FACE <E|NE|NW|W|SW|SE>]")
	case "DROP":
		return lang.M("DROP <unit> AT <impulse>")
	case "PICKUP":
		return lang.M("PICKUP <carrier> <unit> AT <impulse>")
	case "LAND":
		return lang.M("LAND <unit> AT <impulse>")
	case "DEPLOY":
		return lang.M("DEPLOY <satellite> AT <impulse>")
	case "CANCEL":
		return lang.M("CANCEL <unit>")
	case "FIRE":
		return lang.M("FIRE <laser> [AT <target>...] [SHOTS n] [MIN n] [FROM i]")
	case "HOLD":
		return lang.M("HOLD <laser|warhead>")
	case "STRIKE":
		return lang.M("STRIKE <warhead> [AT <target>...] [FROM i]")
	case "EXIT":
		return lang.M("EXIT <scoopship> [<ring-1 hex>] [CW]")
	case "RECYCLE":
		return lang.M("RECYCLE <unit>")
	case "REPAIR":
		return lang.M("REPAIR <station> <module> <points>")
	case "BUY":
		return lang.M("BUY <type> [<payload>] AT <station> [INTO BAY|SPACE|<carrier>]")
	}
	return lang.Msg{}
}

// own finds one of the player's units by ID.
func (v *view) own(id, verb string) (*Unit, error) {
	id = strings.ToUpper(id)
	var mine []string
	for _, u := range v.s.Units {
		if u.Owner == v.player {
			if u.ID == id {
				return u, nil
			}
			mine = append(mine, u.ID)
		}
	}
	fix := lang.M("your units: %s", strings.Join(mine, " "))
	if c := engine.Closest(id, mine); c != "" {
		fix = lang.M("did you mean %s?", c)
	}
	if u := v.s.unit(id); u != nil {
		return nil, bad(lang.M("%s is not yours", id), lang.M("give orders to your own units"))
	}
	return nil, bad(lang.M("you have no unit %s", id), fix)
}

var targetKinds = []string{"ANY", "STATION", "BUS", "GUNSHIP", "SCOOPSHIP", "BOOSTER", "WARHEAD", "PULSE",
	"DEFSAT", "COMSAT", "ECMSAT", "SATELLITE", "CORE"}

// target reads a fire priority: an enemy unit ID the player can see, or a type.
func (v *view) target(s string) (string, error) {
	s = strings.ToUpper(s)
	if contains(targetKinds, s) {
		return s, nil
	}
	if u := v.s.unit(s); u != nil {
		if u.Owner == v.player {
			return "", bad(lang.M("%s is your own unit", s), lang.M("name enemy units or types"))
		}
		return s, nil
	}
	var cands []string
	for _, u := range v.s.Units {
		if u.Owner != v.player {
			cands = append(cands, u.ID)
		}
	}
	cands = append(cands, targetKinds...)
	sort.Strings(cands)
	fix := lang.M("targets are enemy unit IDs or %s", strings.Join(targetKinds, " "))
	if c := engine.Closest(s, cands); c != "" {
		fix = lang.M("did you mean %s?", c)
	}
	return "", bad(lang.M("no enemy unit or type %q", s), fix)
}

// thrust is what u may spend this turn (002-F7: Stations need an Engine).
func (s *State) thrust(u *Unit) int {
	if u.pulsed(s.TurnN) {
		return 0
	}
	if u.Kind == Station {
		if u.operational(Engine) {
			return 2
		}
		return 0
	}
	return u.spec().Thrust
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
