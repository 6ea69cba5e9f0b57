package earthman

import (
	"fmt"
	"strconv"
	"strings"

	"orrery/engine/lang"
)

// Trigger events (000-C1 iii): ATTACKED is point P1, after an attacking
// group's A and target are fixed and before any die is rolled; LOSS is
// point P2, after the losses of a group are applied.
const (
	evAttacked = "ATTACKED"
	evLoss     = "LOSS"
)

// Trigger is a player's standing reaction to an attack on their units at
// a world (000-C1 iii's proposal). It stays until replaced or cancelled:
// a new trigger with the same event, world, attacker and kind replaces
// it, and the same with NONE cancels it.
type Trigger struct {
	Event  string `json:"event"`          // ATTACKED or LOSS
	World  string `json:"world"`          // or ANY
	By     string `json:"by,omitempty"`   // the attacking faction; empty: any
	Kind   string `json:"kind,omitempty"` // FIRE or COUP; empty: both
	If     string `json:"if,omitempty"`   // a test on A and D, canonical (A>=D)
	Action string `json:"action"`         // EVACUATE, DECOMMISSION, GIFT; NONE in an order
	N      int    `json:"n,omitempty"`    // 0: all there
	Dev    bool   `json:"dev,omitempty"`  // DECOMMISSION/GIFT developments (else fleets)
	To     string `json:"to,omitempty"`   // GIFT recipient
}

// same says whether u replaces t: the same event, place, attacker and kind.
func (t Trigger) same(u Trigger) bool {
	return t.Event == u.Event && t.World == u.World && t.By == u.By && t.Kind == u.Kind
}

// String is the trigger's canonical order line.
func (t Trigger) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "ON %s AT %s", t.Event, t.World)
	if t.By != "" {
		b.WriteString(" BY " + t.By)
	}
	if t.Kind != "" {
		b.WriteString(" " + t.Kind)
	}
	if t.If != "" {
		b.WriteString(" IF " + t.If)
	}
	n := "ALL"
	if t.N > 0 {
		n = strconv.Itoa(t.N)
	}
	switch t.Action {
	case vEvac:
		fmt.Fprintf(&b, " EVACUATE %s", n)
	case vDecom:
		fmt.Fprintf(&b, " DECOMMISSION %s %s", n, unitWord(t.Dev))
	case vGift:
		fmt.Fprintf(&b, " GIFT %s %s TO %s", n, unitWord(t.Dev), t.To)
	default:
		b.WriteString(" NONE")
	}
	return b.String()
}

const triggerShape = "ON ATTACKED|LOSS AT <world>|ANY [BY <faction>] [FIRE|COUP] [IF <test on A and D>] " +
	"EVACUATE <n>|ALL, DECOMMISSION <n>|ALL FLEET|DEV, GIFT <n>|ALL FLEET|DEV TO <faction>, or NONE"

// parseTrigger parses f, the words of an ON ATTACKED or ON LOSS line.
func (n namer) parseTrigger(f []string) (Trigger, *syntaxError) {
	t := Trigger{Event: strings.ToUpper(f[1])}
	bad := func() (Trigger, *syntaxError) {
		return Trigger{}, errm(lang.M("ON %s order is malformed", t.Event), writeAs(triggerShape))
	}
	if len(f) < 5 {
		return bad()
	}
	if e := keyword(f[2], "AT", triggerShape); e != nil {
		return Trigger{}, e
	}
	var e *syntaxError
	if t.World, e = worldOrAny(f[3]); e != nil {
		return Trigger{}, e
	}
	i := 4
	next := func() string {
		if i < len(f) {
			return strings.ToUpper(f[i])
		}
		return ""
	}
	if next() == "BY" {
		if i+1 >= len(f) {
			return bad()
		}
		if t.By, e = n.faction(f[i+1]); e != nil {
			return Trigger{}, e
		}
		i += 2
	}
	if next() == "KIND" {
		i++ // the analysis's spelling: KIND FIRE|COUP
		if w := next(); w != vFire && w != vCoup {
			return Trigger{}, errm(lang.M("%q is not a kind of attack", strings.Join(f[i:min(i+1, len(f))], "")), lang.M("write KIND FIRE or KIND COUP"))
		}
	}
	if w := next(); w == vFire || w == vCoup {
		t.Kind = w
		i++
	}
	if next() == "IF" {
		i++
		var test strings.Builder
		for ; i < len(f) && !isTriggerAction(next()); i++ {
			test.WriteString(f[i])
		}
		if t.If, e = parseTest(test.String()); e != nil {
			return Trigger{}, e
		}
	}
	if next() == "DO" {
		i++
	}
	t.Action = next()
	rest := f[min(i+1, len(f)):]
	switch t.Action {
	case "NONE":
		if len(rest) != 0 {
			return bad()
		}
		return t, nil
	case vEvac:
		if len(rest) > 1 {
			return bad()
		}
		if len(rest) == 1 && !strings.EqualFold(rest[0], "ALL") {
			if t.N, e = count(rest[0], "the number of developments"); e != nil {
				return Trigger{}, e
			}
		}
		return t, nil
	case vDecom, vGift:
		want := 2
		if t.Action == vGift {
			want = 4
		}
		if len(rest) != want {
			return bad()
		}
		if !strings.EqualFold(rest[0], "ALL") {
			if t.N, e = count(rest[0], "the number of units"); e != nil {
				return Trigger{}, e
			}
		}
		if t.Dev, e = unitKind(rest[1]); e != nil {
			return Trigger{}, e
		}
		if t.Action == vGift {
			if e = keyword(rest[2], "TO", triggerShape); e != nil {
				return Trigger{}, e
			}
			if t.To, e = n.faction(rest[3]); e != nil {
				return Trigger{}, e
			}
		}
		return t, nil
	}
	if t.Action == "" {
		return Trigger{}, errm(lang.M("ON %s order has no reaction", t.Event), lang.M("end the line with EVACUATE, DECOMMISSION, GIFT or NONE"))
	}
	return Trigger{}, errm(lang.M("%q is not a standing reaction", f[i]),
		lang.M("write EVACUATE, DECOMMISSION, GIFT or NONE (BY, FIRE|COUP and IF come before it, in that order)"))
}

func isTriggerAction(w string) bool {
	return w == vEvac || w == vDecom || w == vGift || w == "NONE" || w == "DO"
}

// unitKind reads FLEET or DEV (true).
func unitKind(w string) (bool, *syntaxError) {
	switch strings.ToUpper(w) {
	case "FLEET", "FLEETS":
		return false, nil
	case "DEV", "DEVS", "DEVELOPMENT", "DEVELOPMENTS":
		return true, nil
	}
	return false, errm(lang.M("%q is not a kind of unit", w), lang.M("write FLEET or DEV"))
}

// testOps are the comparisons of a trigger test, longest first so that
// >= is not read as >.
var testOps = []string{">=", "<=", "==", "=", ">", "<"}

// parseTest reads a comparison of two terms, each a whole number or a
// multiple of A (the attacking group's size) or D (the defending units
// there), as in A>=D, D<2A or A>=3, and returns it in canonical form.
func parseTest(s string) (string, *syntaxError) {
	s = strings.ToUpper(strings.ReplaceAll(s, "*", ""))
	fix := lang.M("write a comparison of A (the attacking group) and D (your units there), e.g. IF A>=D, IF D<2A or IF A>=3")
	for _, op := range testOps {
		l, r, ok := strings.Cut(s, op)
		if !ok {
			continue
		}
		lt, okl := parseTerm(l)
		rt, okr := parseTerm(r)
		if !okl || !okr {
			break
		}
		if op == "==" {
			op = "="
		}
		return lt + op + rt, nil
	}
	return "", errm(lang.M("%q is not a test on A and D", s), fix)
}

// parseTerm reads 3, A, D, 2A or 2D and returns it in canonical form.
func parseTerm(s string) (string, bool) {
	if s == "" {
		return "", false
	}
	v := ""
	if last := s[len(s)-1]; last == 'A' || last == 'D' {
		v, s = string(last), s[:len(s)-1]
		if s == "" {
			return v, true
		}
	}
	k, err := strconv.Atoi(s)
	if err != nil || k < 0 || k > 999 || v != "" && k == 0 || s[0] == '+' || s[0] == '-' {
		return "", false
	}
	if v != "" && k == 1 {
		return v, true
	}
	return strconv.Itoa(k) + v, true
}

// holds evaluates a canonical test for an attack of a units on d.
func holds(test string, a, d int) bool {
	if test == "" {
		return true
	}
	value := func(term string) int {
		unit := 1
		switch {
		case strings.HasSuffix(term, "A"):
			unit, term = a, strings.TrimSuffix(term, "A")
		case strings.HasSuffix(term, "D"):
			unit, term = d, strings.TrimSuffix(term, "D")
		}
		k := 1
		if term != "" {
			k, _ = strconv.Atoi(term)
		}
		return k * unit
	}
	for _, op := range testOps {
		l, r, ok := strings.Cut(test, op)
		if !ok {
			continue
		}
		x, y := value(l), value(r)
		switch op {
		case ">=":
			return x >= y
		case "<=":
			return x <= y
		case ">":
			return x > y
		case "<":
			return x < y
		}
		return x == y
	}
	return false
}

// setTrigger records p's trigger order: it replaces any trigger with the
// same event, world, attacker and kind; NONE only removes.
func (s *State) setTrigger(p string, t Trigger) {
	var keep []Trigger
	for _, x := range s.Triggers[p] {
		if !x.same(t) {
			keep = append(keep, x)
		}
	}
	if t.Action != "NONE" {
		keep = append(keep, t)
	}
	if s.Triggers == nil {
		s.Triggers = map[string][]Trigger{}
	}
	s.Triggers[p] = keep
	if len(keep) == 0 {
		delete(s.Triggers, p)
	}
	if len(s.Triggers) == 0 {
		s.Triggers = nil
	}
}

// react runs q's triggers for event ev: an attack by a group of a units
// of attacker, of the given kind (FIRE or COUP), on q's units at w. Each
// trigger that matches runs once, in the order the player set them, and
// the report names it. D is q's units there when the trigger is checked,
// so it counts what the triggers before it did.
func (r *run) react(q, ev, attacker, kind, w string, a int) {
	s := r.s
	for _, t := range s.Triggers[q] {
		d := s.units(q, w)
		if t.Event != ev || t.World != w && t.World != "ANY" || t.By != "" && t.By != attacker ||
			t.Kind != "" && t.Kind != kind || !holds(t.If, a, d) {
			continue
		}
		// What the reaction can act on: a trigger with nothing to act on
		// does not fire, and the report says why.
		var have int
		var why lang.Msg
		switch t.Action {
		case vEvac:
			have, why = s.devs(q, w), lang.M("%s has no development on %s to evacuate", q, w)
		case vDecom:
			have, why = s.fleets(q, w), lang.M("%s has no fleet on %s to decommission", q, w)
			if t.Dev {
				have, why = s.devs(q, w), lang.M("%s has no development on %s to decommission", q, w)
			}
		case vGift:
			all, tk := s.fleets(q, w), s.tasked(q, w).Fleets
			have, why = all-tk, lang.M("%s has no fleet on %s to give", q, w)
			if all > 0 {
				why = lang.M("%s's fleets on %s took part in an attack and may not be given before %s's next combat phase", q, w, q)
			}
			if t.Dev {
				all, tk = s.devs(q, w), s.tasked(q, w).Devs
				have, why = all-tk, lang.M("%s has no development on %s to give", q, w)
				if all > 0 {
					why = lang.M("%s's developments on %s took part in an attack and may not be given before %s's next combat phase", q, w, q)
				}
			}
		}
		k := have
		if t.N > 0 {
			k = min(t.N, have)
		}
		if k <= 0 {
			r.say(lang.M("%s's standing order %s does not fire (A=%d, D=%d): %s.", q, t.String(), a, d, why))
			continue
		}
		head := lang.M("%s's standing order %s fires (A=%d, D=%d)", q, t.String(), a, d)
		switch t.Action {
		case vEvac:
			s.addDev(q, w, -k)
			s.addFleet(q, w, k)
			r.say(lang.M("%s: %s on %s become fleets.", head, lang.MN("%d development", "%d developments", k), w))
		case vDecom:
			add := s.addFleet
			if t.Dev {
				add = s.addDev
			}
			add(q, w, -k)
			r.say(lang.M("%s: %s decommissions %s on %s.", head, q, unitM(k, t.Dev), w))
		case vGift:
			s.give(q, t.To, w, k, t.Dev)
			r.say(lang.M("%s: %s gives %s on %s to %s.", head, q, unitM(k, t.Dev), w, t.To))
		}
	}
}
