package earthman

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"orrery/engine"
)

// exercised is a ruleset whose bot is replaced, for property tests that
// want a bot that wanders all over the rules rather than one that plays
// well. Every other method is the ruleset's own.
type exercised struct {
	engine.Ruleset
	bot func(v engine.View, p engine.Prompt, r *rand.Rand) string
}

func (e exercised) Bot(v engine.View, p engine.Prompt, r *rand.Rand) string { return e.bot(v, p, r) }

// classicExerciser plays random legal orders: it places fleets at random,
// routes its fleets in space at random, fires with some of its fleets,
// builds with every development and develops where it can, and sets
// triggers, gifts, evacuations and agreements now and then. It was the
// ruleset's bot before the bot played to win; the property test keeps it
// because it reaches corners of the rules a player aiming to win seldom
// visits (a trigger of every kind, windows answered and let pass).
func classicExerciser(v engine.View, p engine.Prompt, r *rand.Rand) string {
	vw, ok := v.(*view)
	if !ok {
		return ""
	}
	s, me := vw.s, p.Player
	switch p.Kind {
	case engine.KindStep:
		opts := append([]string{"Earth"}, board.Skyward("Earth")...)
		return "PLACE " + opts[r.IntN(len(opts))]
	case engine.KindAnytime:
		return ""
	case engine.KindChoice:
		// An interrupt window: let the attack come, or evacuate or give
		// away a unit first.
		if s.Window == nil || r.IntN(2) == 0 {
			return ""
		}
		o, e := (namer{players: s.Players}).parseLine(s.Window.Orders[s.Window.Next])
		if e != nil {
			return ""
		}
		if s.devs(me, o.World) > 0 && r.IntN(2) == 0 {
			return order{Verb: vEvac, World: o.World, N: 1}.String()
		}
		if s.fleets(me, o.World)-s.tasked(me, o.World).Fleets > 0 {
			return order{Verb: vGift, World: o.World, N: 1, To: un}.String()
		}
		return ""
	}
	var lines []string
	for _, w := range board.Worlds() {
		if s.devs(me, w.Name) > 1 && r.IntN(10) == 0 {
			lines = append(lines, order{Verb: vEvac, World: w.Name, N: 1}.String())
		}
	}
	if r.IntN(10) == 0 {
		ally := s.Players[r.IntN(len(s.Players))]
		if ally != me {
			lines = append(lines, order{Verb: vOn, Target: ally, World: "ANY", N: 1, Action: vGift}.String())
		}
	}
	if r.IntN(10) == 0 {
		acts := []string{vEvac, vDecom, "NONE"}
		lines = append(lines, order{Verb: vOn, World: "ANY", Action: acts[r.IntN(len(acts))]}.String())
	}
	if r.IntN(8) == 0 {
		other := s.Players[r.IntN(len(s.Players))]
		if other == me {
			other = un
		}
		ts := []Trigger{
			{Event: evAttacked, World: "ANY", Kind: vCoup, If: "A>=D", Action: vEvac},
			{Event: evAttacked, World: "Earth", By: un, If: "D<2A", Action: vDecom, N: 1},
			{Event: evLoss, World: "ANY", Action: vGift, Dev: true, To: other},
		}
		for _, t := range s.Triggers[me] {
			ts = append(ts, Trigger{Event: t.Event, World: t.World, By: t.By, Kind: t.Kind, Action: "NONE"})
		}
		lines = append(lines, order{Verb: vOn, Trig: ts[r.IntN(len(ts))]}.String())
	}
	for _, t := range board.Trajectories() {
		n := s.fleets(me, t.Name)
		if n == 0 || r.IntN(3) == 0 {
			continue // the stored destination, or the first branch
		}
		if len(s.coursesAt(me, t.Name)) > 0 && r.IntN(4) == 0 {
			lines = append(lines, order{Verb: vRoute, From: t.Name}.String())
			continue
		}
		var ahead []string
		for _, pl := range board.Places {
			if board.StepToward(t.Name, pl.Name) != "" {
				ahead = append(ahead, pl.Name)
			}
		}
		lines = append(lines, order{Verb: vRoute, N: 1 + r.IntN(n), From: t.Name, To: ahead[r.IntN(len(ahead))]}.String())
	}
	for _, w := range board.Worlds() {
		n := s.fleets(me, w.Name)
		if n > 1 && r.IntN(3) == 0 {
			sky := board.Skyward(w.Name)
			lines = append(lines, order{Verb: vLaunch, N: 1 + r.IntN(n-1), From: w.Name, To: sky[r.IntN(len(sky))]}.String())
		}
	}
	for _, w := range board.Worlds() {
		n := s.fleets(me, w.Name)
		var foes []string
		for _, f := range s.factions() {
			if f != me && s.units(f, w.Name) > 0 && (w.Name != "Earth" || r.IntN(4) == 0) {
				foes = append(foes, f)
			}
		}
		if n > 0 && len(foes) > 0 && r.IntN(2) == 0 {
			lines = append(lines, order{Verb: vFire, World: w.Name, N: 1 + r.IntN(n), Target: foes[r.IntN(len(foes))]}.String())
		}
		dv := s.devs(me, w.Name)
		var hosts []string
		for _, f := range s.factions() {
			if f != me && s.devs(f, w.Name) > 0 {
				hosts = append(hosts, f)
			}
		}
		if dv > 0 && len(hosts) > 0 && r.IntN(4) == 0 {
			lines = append(lines, order{Verb: vCoup, World: w.Name, N: 1 + r.IntN(dv), Target: hosts[r.IntN(len(hosts))]}.String())
		}
	}
	for _, w := range board.Worlds() {
		if dv := s.devs(me, w.Name); dv > 0 {
			var sizes []int
			for dv > 0 {
				k := 1 + r.IntN(dv)
				sizes = append(sizes, k)
				dv -= k
			}
			lines = append(lines, order{Verb: vBuild, World: w.Name, Sizes: sizes}.String())
		}
	}
	for _, w := range board.Worlds() {
		if n := s.fleets(me, w.Name); n > 0 && s.unclaimed(w.Name) > 0 {
			lines = append(lines, order{Verb: vDevelop, World: w.Name, N: 1 + r.IntN(n), Until: 1}.String())
		}
	}
	if r.IntN(3) == 0 {
		// Agree with whoever has the most developments, so that bot
		// games can end by agreement too.
		best, most := "", -1
		for _, f := range s.Players {
			if _, d := s.total(f); d > most && s.alive(f) {
				best, most = f, d
			}
		}
		lines = append(lines, order{Verb: vAgree, Target: best}.String())
	}
	if len(lines) == 0 {
		// Restate a standing order: a mail with no order line at all may
		// not count as an answer on the mail side.
		act := s.OnCoup[me]["ANY"]
		if act == "" {
			act = "NONE"
		}
		return order{Verb: vOn, World: "ANY", Action: act}.String()
	}
	return strings.Join(lines, "\n")
}

// fullExerciser plays random legal orders of the full rules: every
// standing order, every action and the optional rules' orders now and
// then. It was the ruleset's bot before the bot played to win; the
// property test keeps it for the corners of the rules it reaches.
func fullExerciser(v engine.View, p engine.Prompt, r *rand.Rand) string {
	fv, ok := v.(*fullView)
	if !ok {
		return ""
	}
	s, me := fv.s, p.Player
	switch p.Kind {
	case engine.KindStep:
		return []string{"PRELUDE FLEET", "PRELUDE RESEARCH Attack", "PRELUDE LAUNCH FROM Earth TO Inner"}[r.IntN(3)]
	case engine.KindAnytime:
		return ""
	}
	var lines []string
	if r.IntN(5) == 0 {
		lines = append(lines, "TECH "+techs[r.IntN(len(techs))].Name)
	}
	if r.IntN(4) == 0 {
		other := s.Players[(s.Active+1)%len(s.Players)]
		lines = append(lines, []string{"AI OWN ALL", "AI OWN FIRE,COUP,RESEARCH", "AI OWN OFF", "AI DEFEND LAST", "AI DEFEND ALL", "AI DEFEND MIN 2",
			"AI KEEP 1", "AI SHIELD " + other, "EXPOSE Earth,Mars", "LOSE ATRISK", "LOSE FEWEST", "OVERTHROWN YIELD ON Mars"}[r.IntN(12)])
	}
	for _, t := range board.Trajectories() {
		if f := s.Fleets[t.Name][me]; f != nil && f.Ok+f.Risk > 0 {
			ch := board.Children(t.Name)
			lines = append(lines, fOrder{Verb: "ROUTE", N: f.Ok + f.Risk, From: t.Name, To: ch[r.IntN(len(ch))]}.String())
		}
	}
	for _, w := range board.Worlds() {
		f := s.Fleets[w.Name][me]
		if f != nil && f.Ok+f.Risk > 1 && r.IntN(3) == 0 {
			sky := board.Skyward(w.Name)
			lines = append(lines, fOrder{Verb: "LAUNCH", N: 1 + r.IntN(f.Ok+f.Risk-1), From: w.Name, To: sky[r.IntN(len(sky))]}.String())
		}
	}
	for _, w := range board.Worlds() {
		f := s.Fleets[w.Name][me]
		if f == nil || f.Ok+f.Risk == 0 {
			continue
		}
		n := f.Ok + f.Risk
		var foes []string
		for _, q := range append(append([]string(nil), s.Players...), un) {
			if q == me || q == un && r.IntN(10) > 0 {
				continue // attacking the UN brings Sanctions and Defence
			}
			if s.devsOn(q, w.Name) > 0 || q != un && s.Fleets[w.Name][q] != nil && s.Fleets[w.Name][q].Ok+s.Fleets[w.Name][q].Risk > 0 {
				foes = append(foes, q)
			}
		}
		switch k := r.IntN(4); {
		case k == 0 && len(foes) > 0:
			lines = append(lines, fOrder{Verb: "FIRE", World: w.Name, N: 1 + r.IntN(n), Target: foes[r.IntN(len(foes))]}.String())
		case k == 1 && len(foes) > 0:
			lines = append(lines, fOrder{Verb: "COUP", World: w.Name, N: 1 + r.IntN(n), Target: foes[r.IntN(len(foes))]}.String())
		case k == 2:
			o := fOrder{Verb: "PACIFY", World: w.Name, N: n}
			if r.IntN(2) == 0 {
				o.List = []string{pacifyResults[r.IntN(len(pacifyResults))]}
			}
			lines = append(lines, o.String())
		default:
			sizes := []string{}
			for left := n; left > 0 && len(sizes) < 3; {
				g := 1 + r.IntN(min(3, left))
				sizes = append(sizes, fmt.Sprint(g))
				left -= g
			}
			lines = append(lines, fOrder{Verb: "EXPAND", World: w.Name, Sizes: sizes, New: r.IntN(3) == 0}.String())
		}
	}
	for _, w := range board.Worlds() {
		d := s.devsOn(me, w.Name)
		if d == 0 {
			continue
		}
		var foe string
		for _, q := range s.Players {
			if f := s.Fleets[w.Name][q]; q != me && f != nil && f.Ok+f.Risk > 0 {
				foe = q
			}
		}
		mine := 0
		if f := s.Fleets[w.Name][me]; f != nil {
			mine = f.Ok + f.Risk
		}
		switch k := r.IntN(5); {
		case k == 0:
			lines = append(lines, fOrder{Verb: "RESEARCH", World: w.Name, N: d}.String())
		case k == 1 && foe != "":
			lines = append(lines, fOrder{Verb: "DEFEND", World: w.Name, N: 1, Target: foe}.String())
		case k == 2 && mine >= 3 && !s.hasPI(me, w.Name):
			lines = append(lines, fOrder{Verb: "INFLUENCE", World: w.Name, N: 3 + r.IntN(mine-2)}.String())
		default:
			var sizes []string
			for left := d; left > 0; {
				g := []string{"1", "2", "3", "3x2"}[r.IntN(4)]
				if buildCount(g) > left {
					g = "1"
				}
				sizes = append(sizes, g)
				left -= buildCount(g)
			}
			lines = append(lines, fOrder{Verb: "BUILD", World: w.Name, Sizes: sizes}.String())
		}
	}
	if r.IntN(2) == 0 {
		lines = append(lines, []string{"UN FLEET", "UN RESEARCH"}[r.IntN(2)])
	}
	for _, q := range s.Players {
		if q == me {
			continue
		}
		for _, t := range techs {
			if s.Collab && s.level(me, t.Name) > s.level(q, t.Name) {
				lines = append(lines, fmt.Sprintf("SHARE %s WITH %s", t.Name, q))
				break
			}
		}
		if f := s.Fleets["Earth"][me]; s.Territory && f != nil && f.Ok+f.Risk > 0 && r.IntN(5) == 0 {
			lines = append(lines, fmt.Sprintf("TRANSFER 1 FLEET AT Earth TO %s", q))
		}
	}
	if s.Territory && r.IntN(8) == 0 {
		lines = append(lines, "ACCEPT TRANSFERS "+[]string{"ALL", "NONE"}[r.IntN(2)])
	}
	if s.Collab && r.IntN(8) == 0 {
		lines = append(lines, "ACCEPT SHARES "+[]string{"ALL", "NONE", "AI,Attack"}[r.IntN(3)])
	}
	if len(lines) == 0 {
		// Restate a standing order: a mail with no order line at all may
		// not count as an answer on the mail side.
		return "PAY " + map[bool]string{true: "SCRAP", false: "DISCONTENT"}[s.P[me].PayWith == "scrap"]
	}
	return strings.Join(lines, "\n")
}
