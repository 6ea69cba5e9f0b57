package earthman

import (
	"fmt"
	"strconv"
	"strings"

	"orrery/engine"
	"orrery/engine/lang"
)

// The full rules' order language. Phases of a turn, in order.
const (
	fpNone = iota
	fpMove
	fpFleet
	fpDev
	fpUN
	fpEnd
)

// fpNames are the sections' names in English (checksyntax.go); fpMsg
// words them for the reader.
var fpNames = []string{"standing", "movement", "fleet action", "development action", "UN assistance", "end of turn"}

// fpMsg names a section of the turn, as a message.
func fpMsg(ph int) lang.Msg {
	switch ph {
	case fpMove:
		return lang.M("movement")
	case fpFleet:
		return lang.M("fleet action")
	case fpDev:
		return lang.M("development action")
	case fpUN:
		return lang.M("UN assistance")
	case fpEnd:
		return lang.M("end of turn")
	}
	return lang.M("standing")
}

// fOrder is one parsed line of the full rules.
type fOrder struct {
	Verb   string
	N      int
	From   string
	To     string
	World  string
	Target string
	Sizes  []string // EXPAND sizes "1".."3"; BUILD "1", "2", "3" or "3x2"
	Clear  bool     // EXPAND ... CLEAR: clear Devastation before developing
	New    bool     // EXPAND ... NEW: an empty region before one's own
	List   []string // TECH priorities, DEFENSIVE FIRE AT and AI SHIELD players, AI OWN rolls, EXPOSE places, PACIFY results
	Word   string   // a keyword argument: ALL, NONE, SCRAP, RISK, YES, FLEET, ATRISK...; AI's sub-order is in Target
}

var fullGrammar = map[string]string{
	"PASSES":     "PASSES <n>                 (Spaceflight: movement passes this turn)",
	"PRELAUNCH":  "PRELAUNCH <n> FROM <world> TO <trajectory>   (Launch technology)",
	"ROUTE":      "ROUTE <n> FROM <trajectory> TO <place worldward of it>",
	"LAUNCH":     "LAUNCH <n> FROM <world> TO <trajectory>",
	"FIRE":       "FIRE <world> <n> AT <faction>",
	"EXPAND":     "EXPAND <world> <size>[,<size>...] [CLEAR] [NEW]   (sizes 1-3)",
	"COUP":       "COUP <world> <n> AT <faction>",
	"PACIFY":     "PACIFY <world> <n> [<result>[,<result>...]]   (results FLEET, REGION, DISCONTENT, SANCTIONS)",
	"BUILD":      "BUILD <world> <group>[,<group>...]   (groups 1, 2, 3 or 3x2)",
	"RESEARCH":   "RESEARCH <world> <n>",
	"DEFEND":     "DEFEND <world> <regions> AT <faction>",
	"INFLUENCE":  "INFLUENCE <world> <fleets removed, 3 or more>",
	"UN":         "UN FLEET | UN RESEARCH",
	"TECH":       "TECH <technology>[,...]|NONE|ANY or TECH NEVER <technology>[,...]|NONE",
	"DEFENSIVE":  "DEFENSIVE FIRE ALL | NONE | AT <player>[,<player>...]",
	"PAY":        "PAY DISCONTENT | SCRAP",
	"OVERTHROWN": "OVERTHROWN RISK|YIELD [ON <world>] | OVERTHROWN GENERAL ON <world>",
	"CONCEDE":    "CONCEDE TO <player> | CONCEDE NONE",
	"PEACE":      "PEACE YES | NO",
	"AI":         "AI OWN ON|OFF|ALL|<roll>[,<roll>...] | AI DEFEND ON|OFF|LAST|ALL|MIN <k> | AI KEEP <n> | AI SHIELD <player>[,<player>...]|NONE",
	"SHARE":      "SHARE <technology> WITH <player>   (option research-collaborations)",
	"TRANSFER":   "TRANSFER <n> FLEET AT <place> TO <player> | TRANSFER REGION <world> <number> TO <player>",
	"ACCEPT":     "ACCEPT TRANSFERS ALL | NONE | ACCEPT SHARES ALL | NONE | <technology>[,<technology>...]",
	"EXPOSE":     "EXPOSE <place>[,<place>...] | EXPOSE NONE   (where fleets go At Risk, are scrapped or mutiny first)",
	"LOSE":       "LOSE FEWEST | LOSE ATRISK   (which region Open Fire takes)",
	"PRELUDE":    "PRELUDE FLEET | PRELUDE RESEARCH <technology> | PRELUDE LAUNCH FROM <place> TO <trajectory>",
}

// fullShapeMsg is fullGrammar[verb] as a message, for the fix "write it as:
// …" (its placeholders are written in the reader's language; the order
// words stay). TestFullShapesAreTheGrammar keeps the two the same.
func fullShapeMsg(verb string) lang.Msg {
	switch verb {
	case "PASSES":
		return lang.M("PASSES <n>                 (Spaceflight: movement passes this turn)")
	case "PRELAUNCH":
		return lang.M("PRELAUNCH <n> FROM <world> TO <trajectory>   (Launch technology)")
	case "ROUTE":
		return lang.M("ROUTE <n> FROM <trajectory> TO <place worldward of it>")
	case "LAUNCH":
		return lang.M("LAUNCH <n> FROM <world> TO <trajectory>")
	case "FIRE":
		return lang.M("FIRE <world> <n> AT <faction>")
	case "EXPAND":
		return lang.M("EXPAND <world> <size>[,<size>...] [CLEAR] [NEW]   (sizes 1-3)")
	case "COUP":
		return lang.M("COUP <world> <n> AT <faction>")
	case "PACIFY":
		return lang.M("PACIFY <world> <n> [<result>[,<result>...]]   (results FLEET, REGION, DISCONTENT, SANCTIONS)")
	case "BUILD":
		return lang.M("BUILD <world> <group>[,<group>...]   (groups 1, 2, 3 or 3x2)")
	case "RESEARCH":
		return lang.M("RESEARCH <world> <n>")
	case "DEFEND":
		return lang.M("DEFEND <world> <regions> AT <faction>")
	case "INFLUENCE":
		return lang.M("INFLUENCE <world> <fleets removed, 3 or more>")
	case "UN":
		return lang.M("UN FLEET | UN RESEARCH")
	case "TECH":
		return lang.M("TECH <technology>[,...]|NONE|ANY or TECH NEVER <technology>[,...]|NONE")
	case "DEFENSIVE":
		return lang.M("DEFENSIVE FIRE ALL | NONE | AT <player>[,<player>...]")
	case "PAY":
		return lang.M("PAY DISCONTENT | SCRAP")
	case "OVERTHROWN":
		return lang.M("OVERTHROWN RISK|YIELD [ON <world>] | OVERTHROWN GENERAL ON <world>")
	case "CONCEDE":
		return lang.M("CONCEDE TO <player> | CONCEDE NONE")
	case "PEACE":
		return lang.M("PEACE YES | NO")
	case "AI":
		return lang.M("AI OWN ON|OFF|ALL|<roll>[,<roll>...] | AI DEFEND ON|OFF|LAST|ALL|MIN <k> | AI KEEP <n> | AI SHIELD <player>[,<player>...]|NONE")
	case "SHARE":
		return lang.M("SHARE <technology> WITH <player>   (option research-collaborations)")
	case "TRANSFER":
		return lang.M("TRANSFER <n> FLEET AT <place> TO <player> | TRANSFER REGION <world> <number> TO <player>")
	case "ACCEPT":
		return lang.M("ACCEPT TRANSFERS ALL | NONE | ACCEPT SHARES ALL | NONE | <technology>[,<technology>...]")
	case "EXPOSE":
		return lang.M("EXPOSE <place>[,<place>...] | EXPOSE NONE   (where fleets go At Risk, are scrapped or mutiny first)")
	case "LOSE":
		return lang.M("LOSE FEWEST | LOSE ATRISK   (which region Open Fire takes)")
	case "PRELUDE":
		return lang.M("PRELUDE FLEET | PRELUDE RESEARCH <technology> | PRELUDE LAUNCH FROM <place> TO <trajectory>")
	}
	return lang.M("%s", fullGrammar[verb])
}

var fullVerbs = []string{"PASSES", "PRELAUNCH", "ROUTE", "LAUNCH", "FIRE", "EXPAND", "COUP", "PACIFY", "BUILD",
	"RESEARCH", "DEFEND", "INFLUENCE", "UN", "TECH", "DEFENSIVE", "PAY", "OVERTHROWN", "CONCEDE", "PEACE", "AI", "SHARE", "TRANSFER", "ACCEPT", "EXPOSE", "LOSE", "PRELUDE"}

func fPhase(verb string) int {
	switch verb {
	case "PASSES", "PRELAUNCH", "ROUTE", "LAUNCH":
		return fpMove
	case "FIRE", "EXPAND", "COUP", "PACIFY":
		return fpFleet
	case "BUILD", "RESEARCH", "DEFEND", "INFLUENCE":
		return fpDev
	case "UN":
		return fpUN
	case "SHARE", "TRANSFER":
		return fpEnd
	}
	return fpNone
}

// String is the canonical form.
func (o fOrder) String() string {
	switch o.Verb {
	case "PASSES":
		return fmt.Sprintf("PASSES %d", o.N)
	case "PRELAUNCH", "ROUTE", "LAUNCH":
		return fmt.Sprintf("%s %d FROM %s TO %s", o.Verb, o.N, o.From, o.To)
	case "FIRE", "COUP", "DEFEND":
		return fmt.Sprintf("%s %s %d AT %s", o.Verb, o.World, o.N, o.Target)
	case "EXPAND":
		s := fmt.Sprintf("EXPAND %s %s", o.World, strings.Join(o.Sizes, ","))
		if o.Clear {
			s += " CLEAR"
		}
		if o.New {
			s += " NEW"
		}
		return s
	case "BUILD":
		return fmt.Sprintf("BUILD %s %s", o.World, strings.Join(o.Sizes, ","))
	case "PACIFY", "RESEARCH", "INFLUENCE":
		if len(o.List) > 0 {
			return fmt.Sprintf("%s %s %d %s", o.Verb, o.World, o.N, strings.Join(o.List, ","))
		}
		return fmt.Sprintf("%s %s %d", o.Verb, o.World, o.N)
	case "EXPOSE":
		if len(o.List) == 0 {
			return "EXPOSE NONE"
		}
		return "EXPOSE " + strings.Join(o.List, ",")
	case "OVERTHROWN":
		if o.World != "" {
			return "OVERTHROWN " + o.Word + " ON " + o.World
		}
		return o.Verb + " " + o.Word
	case "UN", "PAY", "PEACE", "LOSE":
		return o.Verb + " " + o.Word
	case "AI":
		switch {
		case o.Target == "KEEP":
			return fmt.Sprintf("AI KEEP %d", o.N)
		case o.Word == "MIN":
			return fmt.Sprintf("AI DEFEND MIN %d", o.N)
		case o.Word == "":
			return "AI " + o.Target + " " + strings.Join(o.List, ",")
		}
		return "AI " + o.Target + " " + o.Word
	case "SHARE":
		return fmt.Sprintf("SHARE %s WITH %s", o.From, o.Target)
	case "TRANSFER":
		if o.Word == "REGION" {
			return fmt.Sprintf("TRANSFER REGION %s %d TO %s", o.World, o.N, o.Target)
		}
		return fmt.Sprintf("TRANSFER %d FLEET AT %s TO %s", o.N, o.World, o.Target)
	case "ACCEPT":
		if o.Target == "SHARES" {
			if o.Word == "" {
				return "ACCEPT SHARES " + strings.Join(o.List, ",")
			}
			return "ACCEPT SHARES " + o.Word
		}
		return "ACCEPT TRANSFERS " + o.Word
	case "TECH":
		switch o.Word {
		case "NONE", "ANY":
			return "TECH " + o.Word
		case "NEVER":
			if len(o.List) == 0 {
				return "TECH NEVER NONE"
			}
			return "TECH NEVER " + strings.Join(o.List, ",")
		}
		return "TECH " + strings.Join(o.List, ",")
	case "DEFENSIVE":
		if o.Word == "AT" {
			return "DEFENSIVE FIRE AT " + strings.Join(o.List, ",")
		}
		return "DEFENSIVE FIRE " + o.Word
	case "CONCEDE":
		if o.Word == "NONE" {
			return "CONCEDE NONE"
		}
		return "CONCEDE TO " + o.Target
	case "PRELUDE":
		switch o.Word {
		case "RESEARCH":
			return "PRELUDE RESEARCH " + o.Target
		case "LAUNCH":
			return fmt.Sprintf("PRELUDE LAUNCH FROM %s TO %s", o.From, o.To)
		}
		return "PRELUDE FLEET"
	}
	return o.Verb
}

// oneOf checks a keyword argument.
func oneOf(w string, allowed ...string) (string, *fullSyntax) {
	u := strings.ToUpper(w)
	if contains(allowed, u) {
		return u, nil
	}
	items := make([]any, len(allowed))
	for i, x := range allowed {
		items[i] = x
	}
	return "", ferr(lang.M("%q is not one of %s", w, strings.Join(allowed, ", ")), lang.M("write %s", lang.Or(items...)))
}

func techList(s string) ([]string, *fullSyntax) {
	var out []string
	for _, x := range strings.Split(s, ",") {
		t, ok := techByName(strings.TrimSpace(x))
		if !ok {
			fix := lang.M("technologies are %s", strings.Join(techNames(), ", "))
			if c := engine.Closest(x, techNames()); c != "" {
				fix = lang.M("did you mean %s?", c)
			}
			return nil, ferr(lang.M("no technology named %q", x), fix)
		}
		out = append(out, t.Name)
	}
	return out, nil
}

// parseFull parses one line of the full rules for syntax and names; its
// error is the first edition's type, for checksyntax.go (parseFullM
// keeps the messages).
func (n namer) parseFull(line string) (fOrder, *syntaxError) {
	o, e := n.parseFullM(line)
	return o, e.syntax()
}

// parseFullM parses one line of the full rules for syntax and names.
func (n namer) parseFullM(line string) (fOrder, *fullSyntax) {
	f := strings.Fields(line)
	verb := strings.ToUpper(f[0])
	shape, ok := fullGrammar[verb]
	if !ok {
		fix := lang.M("orders start with one of %s", strings.Join(fullVerbs, ", "))
		if c := engine.Closest(verb, fullVerbs); c != "" {
			fix = lang.M("did you mean %s?", c)
		}
		return fOrder{}, ferr(lang.M("%q is not an order", f[0]), fix)
	}
	o := fOrder{Verb: verb}
	bad := func() (fOrder, *fullSyntax) {
		return fOrder{}, ferr(lang.M("%s order is malformed", verb), fullWriteAs(verb))
	}
	// The first edition's helpers word their own errors (orders.go).
	var e *fullSyntax
	world := func(s string) (string, *fullSyntax) {
		p, e := place(s, "world", isWorld)
		return p.Name, shared(e)
	}
	plc := func(s, what string, keep func(Place) bool) (Place, *fullSyntax) {
		p, e := place(s, what, keep)
		return p, shared(e)
	}
	cnt := func(s, what string) (int, *fullSyntax) {
		k, e := count(s, what)
		return k, shared(e)
	}
	kw := func(w, want string) *fullSyntax {
		e := shared(keyword(w, want, shape))
		if e != nil {
			e.hint = fullWriteAs(verb) // the shape with its words in the reader's language
		}
		return e
	}
	faction := func(s string) (string, *fullSyntax) {
		q, e := n.faction(s)
		return q, shared(e)
	}
	switch verb {
	case "PASSES":
		if len(f) != 2 {
			return bad()
		}
		if o.N, e = cnt(f[1], "the number of passes"); e != nil {
			return fOrder{}, e
		}
	case "PRELAUNCH", "ROUTE", "LAUNCH":
		// The classic parser knows these shapes; PRELAUNCH is a LAUNCH.
		v := verb
		if v == "PRELAUNCH" {
			v = "LAUNCH"
		}
		c, ce := n.parseLine(v + " " + strings.Join(f[1:], " "))
		if ce != nil {
			e := shared(ce)
			if strings.HasPrefix(ce.fix, "write it as: ") {
				e.hint = fullWriteAs(verb) // the full rules' shape, not the classic one
			}
			return fOrder{}, e
		}
		if c.N == 0 {
			// The classic edition's ROUTE NONE: the full rules keep no
			// destination from one turn to the next.
			return fOrder{}, ferr(lang.M("the full rules keep no destination between turns, so there is none to forget"), fullWriteAs(verb))
		}
		o.N, o.From, o.To = c.N, c.From, c.To
	case "FIRE", "COUP", "DEFEND":
		if len(f) != 5 {
			return bad()
		}
		if o.World, e = world(f[1]); e != nil {
			return fOrder{}, e
		}
		if o.N, e = cnt(f[2], "the number"); e != nil {
			return fOrder{}, e
		}
		if e = kw(f[3], "AT"); e != nil {
			return fOrder{}, e
		}
		if o.Target, e = faction(f[4]); e != nil {
			return fOrder{}, e
		}
	case "EXPAND", "BUILD":
		if len(f) < 3 {
			return bad()
		}
		if o.World, e = world(f[1]); e != nil {
			return fOrder{}, e
		}
		rest := f[2:]
		// Trailing words CLEAR and NEW, in either order.
	trailing:
		for verb == "EXPAND" && len(rest) > 1 {
			switch last := strings.ToUpper(rest[len(rest)-1]); {
			case last == "CLEAR" && !o.Clear:
				o.Clear = true
			case last == "NEW" && !o.New:
				o.New = true
			default:
				break trailing
			}
			rest = rest[:len(rest)-1]
		}
		if len(rest) == 0 {
			return bad()
		}
		for _, s := range strings.Split(strings.Join(rest, ""), ",") {
			s = strings.ToLower(s)
			okSize := s == "1" || s == "2" || s == "3" || verb == "BUILD" && s == "3x2"
			if !okSize {
				why := lang.M("%q is not a group (1, 2 or 3)", s)
				if verb == "BUILD" {
					why = lang.M("%q is not a group (1, 2 or 3, or 3x2)", s)
				}
				return fOrder{}, ferr(why, fullWriteAs(verb))
			}
			o.Sizes = append(o.Sizes, s)
		}
	case "PACIFY", "RESEARCH", "INFLUENCE":
		if len(f) != 3 && (verb != "PACIFY" || len(f) < 4) {
			return bad()
		}
		if len(f) > 3 {
			for _, x := range strings.Split(strings.Join(f[3:], ""), ",") {
				k := strings.ToUpper(x)
				if !contains(pacifyResults, k) {
					return fOrder{}, ferr(lang.M("%q is not a result of Pacification", x), lang.M("results are %s", strings.Join(pacifyResults, ", ")))
				}
				if !contains(o.List, k) {
					o.List = append(o.List, k)
				}
			}
		}
		if o.World, e = world(f[1]); e != nil {
			return fOrder{}, e
		}
		if o.N, e = cnt(f[2], "the number"); e != nil {
			return fOrder{}, e
		}
		if verb == "INFLUENCE" && o.N < 3 {
			return fOrder{}, ferr(lang.M("Political Influence removes at least 3 fleets"), lang.M("remove 3 fleets or more"))
		}
	case "UN":
		if len(f) != 2 {
			return bad()
		}
		if o.Word, e = oneOf(f[1], "FLEET", "RESEARCH"); e != nil {
			return fOrder{}, e
		}
	case "TECH":
		// 2.5.2: a player "may" research. TECH NONE (or TECH with no
		// technology, an empty plan) declines every success; TECH NEVER
		// refuses some technologies for good; TECH ANY is the default.
		arg := strings.ToUpper(strings.Join(f[1:], ""))
		switch {
		case arg == "" || arg == "NONE":
			o.Word = "NONE"
		case arg == "ANY":
			o.Word = "ANY"
		case strings.EqualFold(f[1], "NEVER"):
			o.Word = "NEVER"
			rest := strings.Join(f[2:], "")
			if rest == "" {
				return bad()
			}
			if strings.EqualFold(rest, "NONE") {
				break
			}
			if o.List, e = techList(rest); e != nil {
				return fOrder{}, e
			}
		default:
			if o.List, e = techList(strings.Join(f[1:], "")); e != nil {
				return fOrder{}, e
			}
		}
	case "DEFENSIVE":
		if len(f) < 3 {
			return bad()
		}
		if e = kw(f[1], "FIRE"); e != nil {
			return fOrder{}, e
		}
		if o.Word, e = oneOf(f[2], "ALL", "NONE", "AT"); e != nil {
			return fOrder{}, e
		}
		if o.Word == "AT" {
			if len(f) < 4 {
				return bad()
			}
			for _, x := range strings.Split(strings.Join(f[3:], ""), ",") {
				p, e := faction(x)
				if e != nil {
					return fOrder{}, e
				}
				o.List = append(o.List, p)
			}
		} else if len(f) != 3 {
			return bad()
		}
	case "PAY":
		if len(f) != 2 {
			return bad()
		}
		if o.Word, e = oneOf(f[1], "DISCONTENT", "SCRAP"); e != nil {
			return fOrder{}, e
		}
	case "OVERTHROWN":
		if len(f) != 2 && (len(f) != 4 || !strings.EqualFold(f[2], "ON")) {
			return bad()
		}
		if len(f) == 2 {
			if o.Word, e = oneOf(f[1], "RISK", "YIELD"); e != nil {
				return fOrder{}, e
			}
			break
		}
		if o.Word, e = oneOf(f[1], "RISK", "YIELD", "GENERAL"); e != nil {
			return fOrder{}, e
		}
		if o.World, e = world(f[3]); e != nil {
			return fOrder{}, e
		}
	case "SHARE":
		if len(f) != 4 {
			return bad()
		}
		l, e := techList(f[1])
		if e != nil {
			return fOrder{}, e
		}
		o.From = l[0]
		if e = kw(f[2], "WITH"); e != nil {
			return fOrder{}, e
		}
		if o.Target, e = faction(f[3]); e != nil {
			return fOrder{}, e
		}
		if o.Target == un {
			return fOrder{}, ferr(lang.M("the UN does no research"), lang.M("name a player"))
		}
	case "TRANSFER":
		if len(f) == 6 && strings.EqualFold(f[1], "REGION") {
			o.Word = "REGION"
			if o.World, e = world(f[2]); e != nil {
				return fOrder{}, e
			}
			if o.N, e = cnt(f[3], "the region number"); e != nil {
				return fOrder{}, e
			}
			if p, _ := board.Get(o.World); o.N > p.Regions {
				return fOrder{}, ferr(lang.M("%s has no region %d", o.World, o.N), lang.M("%s has regions 1 to %d", o.World, p.Regions))
			}
			if e = kw(f[4], "TO"); e != nil {
				return fOrder{}, e
			}
			if o.Target, e = faction(f[5]); e != nil {
				return fOrder{}, e
			}
			break
		}
		if len(f) != 7 {
			return bad()
		}
		if o.N, e = cnt(f[1], "the number of fleets"); e != nil {
			return fOrder{}, e
		}
		if e = kw(f[2], "FLEET"); e != nil {
			return fOrder{}, e
		}
		if e = kw(f[3], "AT"); e != nil {
			return fOrder{}, e
		}
		pl, e := plc(f[4], "place", func(Place) bool { return true })
		if e != nil {
			return fOrder{}, e
		}
		o.World = pl.Name
		if e = kw(f[5], "TO"); e != nil {
			return fOrder{}, e
		}
		if o.Target, e = faction(f[6]); e != nil {
			return fOrder{}, e
		}
		if o.Target == un {
			return fOrder{}, ferr(lang.M("the UN takes no fleets"), lang.M("name a player"))
		}
	case "ACCEPT":
		if len(f) < 3 {
			return bad()
		}
		if strings.EqualFold(f[1], "SHARES") {
			// 001-C9: the research a collaborator shares (6.2) is taken
			// unless this says otherwise: all, none, or only these.
			o.Target = "SHARES"
			if len(f) == 3 && (strings.EqualFold(f[2], "ALL") || strings.EqualFold(f[2], "NONE")) {
				o.Word = strings.ToUpper(f[2])
				break
			}
			if o.List, e = techList(strings.Join(f[2:], "")); e != nil {
				return fOrder{}, e
			}
			break
		}
		if len(f) != 3 {
			return bad()
		}
		if e = kw(f[1], "TRANSFERS"); e != nil {
			return fOrder{}, e
		}
		if o.Word, e = oneOf(f[2], "ALL", "NONE"); e != nil {
			return fOrder{}, e
		}
	case "EXPOSE":
		if len(f) < 2 {
			return bad()
		}
		arg := strings.Join(f[1:], "")
		if strings.EqualFold(arg, "NONE") {
			break
		}
		for _, x := range strings.Split(arg, ",") {
			pl, e := plc(x, "place", func(Place) bool { return true })
			if e != nil {
				return fOrder{}, e
			}
			if !contains(o.List, pl.Name) {
				o.List = append(o.List, pl.Name)
			}
		}
	case "LOSE":
		if len(f) != 2 {
			return bad()
		}
		if o.Word, e = oneOf(f[1], "FEWEST", "ATRISK"); e != nil {
			return fOrder{}, e
		}
	case "AI":
		if len(f) < 3 {
			return bad()
		}
		if o.Target, e = oneOf(f[1], "OWN", "DEFEND", "KEEP", "SHIELD"); e != nil {
			return fOrder{}, e
		}
		arg := strings.Join(f[2:], "")
		switch o.Target {
		case "OWN":
			if w, e := oneOf(arg, "ON", "OFF", "ALL"); e == nil {
				o.Word = w
				break
			}
			for _, x := range strings.Split(arg, ",") {
				k := strings.ToUpper(x)
				if !contains(aiKinds, k) {
					fix := lang.M("write ON, OFF, ALL or rolls among %s", strings.Join(aiKinds, ", "))
					if c := engine.Closest(k, aiKinds); c != "" {
						fix = lang.M("did you mean %s?", c)
					}
					return fOrder{}, ferr(lang.M("%q is not a kind of roll", x), fix)
				}
				if !contains(o.List, k) {
					o.List = append(o.List, k)
				}
			}
		case "DEFEND":
			if o.Word, e = oneOf(f[2], "ON", "OFF", "LAST", "ALL", "MIN"); e != nil {
				return fOrder{}, e
			}
			if o.Word != "MIN" {
				if len(f) > 3 {
					return bad()
				}
				break
			}
			if len(f) != 4 {
				return fOrder{}, ferr(lang.M("AI DEFEND MIN needs a number of successes"), lang.M("write AI DEFEND MIN 2, say"))
			}
			k, err := strconv.Atoi(f[3])
			if err != nil || k < 1 || k > 99 {
				return fOrder{}, ferr(lang.M("the successes for AI DEFEND MIN must be a number, not %q", f[3]), lang.M("write a whole number from 1 to 99"))
			}
			o.N = k
		case "KEEP":
			k, err := strconv.Atoi(arg)
			if err != nil || k < 0 || k > 999 {
				return fOrder{}, ferr(lang.M("the thoughts to keep must be a number, not %q", arg), lang.M("write a whole number from 0 to 999"))
			}
			o.N = k
		case "SHIELD":
			if strings.EqualFold(arg, "NONE") {
				o.Word = "NONE"
				break
			}
			for _, x := range strings.Split(arg, ",") {
				q, e := faction(x)
				if e != nil {
					return fOrder{}, e
				}
				if !contains(o.List, q) {
					o.List = append(o.List, q)
				}
			}
		}
	case "PEACE":
		if len(f) != 2 {
			return bad()
		}
		if o.Word, e = oneOf(f[1], "YES", "NO"); e != nil {
			return fOrder{}, e
		}
	case "CONCEDE":
		if len(f) == 2 && strings.EqualFold(f[1], "NONE") {
			o.Word = "NONE"
			break
		}
		if len(f) != 3 {
			return bad()
		}
		if e = kw(f[1], "TO"); e != nil {
			return fOrder{}, e
		}
		if o.Target, e = faction(f[2]); e != nil {
			return fOrder{}, e
		}
		if o.Target == un {
			return fOrder{}, ferr(lang.M("the UN cannot win"), lang.M("name a player"))
		}
	case "PRELUDE":
		if len(f) < 2 {
			return bad()
		}
		if o.Word, e = oneOf(f[1], "FLEET", "RESEARCH", "LAUNCH"); e != nil {
			return fOrder{}, e
		}
		switch o.Word {
		case "FLEET":
			if len(f) != 2 {
				return bad()
			}
		case "RESEARCH":
			if len(f) != 3 {
				return bad()
			}
			l, e := techList(f[2])
			if e != nil {
				return fOrder{}, e
			}
			o.Target = l[0]
		case "LAUNCH":
			if len(f) != 6 {
				return bad()
			}
			if e = kw(f[2], "FROM"); e != nil {
				return fOrder{}, e
			}
			if e = kw(f[4], "TO"); e != nil {
				return fOrder{}, e
			}
			from, e := plc(f[3], "place", func(Place) bool { return true })
			if e != nil {
				return fOrder{}, e
			}
			to, e := plc(f[5], "trajectory", isTrajectory)
			if e != nil {
				return fOrder{}, e
			}
			if !contains(board.Skyward(from.Name), to.Name) {
				return fOrder{}, ferr(lang.M("%s is not skyward of %s", to.Name, from.Name), lang.M("skyward of %s lie %s", from.Name, strings.Join(board.Skyward(from.Name), ", ")))
			}
			o.From, o.To = from.Name, to.Name
		}
	}
	return o, nil
}

// pacifyResults are what a pair of Pacification successes may do (2.4.4),
// in the default order.
var pacifyResults = []string{"FLEET", "REGION", "DISCONTENT", "SANCTIONS"}

// buildCount is how many developments a BUILD group uses.
func buildCount(size string) int {
	if size == "3x2" {
		return 3
	}
	n, _ := strconv.Atoi(size)
	return n
}
