package earthman

import (
	"strconv"
	"strings"

	"orrery/engine/draw"
	"orrery/engine/lang"
)

// pool is the units of one player at one world still free for actions
// this turn, healthy and At Risk.
type pool struct{ ok, risk int }

// take hands out up to n units for an action, healthy ones first (the
// acting player's best choice), and says how many of each it gave.
func (pl *pool) take(n int) (int, int) {
	a := min(n, pl.ok)
	b := min(n-a, pl.risk)
	pl.ok -= a
	pl.risk -= b
	return a, b
}

// --- 2.4 Fleet Actions ------------------------------------------------------

// fleetActions resolves each world in the order first named, and within a
// world Open Fire, Expansion, Overthrow and Pacification in that order.
func (r *frun) fleetActions(p string, orders []fOrder) {
	s := r.s
	var worlds []string
	for _, o := range orders {
		if !contains(worlds, o.World) {
			worlds = append(worlds, o.World)
		}
	}
	for _, w := range worlds {
		f := s.fleetsAt(p, w)
		free := &pool{f.Ok, f.Risk}
		for _, verb := range []string{"FIRE", "EXPAND", "COUP", "PACIFY"} {
			for _, o := range orders {
				if o.World != w || o.Verb != verb {
					continue
				}
				switch verb {
				case "FIRE":
					r.openFire(p, o, free)
				case "EXPAND":
					r.expand(p, o, free)
				case "COUP":
					r.overthrow(p, o, free)
				case "PACIFY":
					r.pacify(p, o, free)
				}
			}
		}
	}
}

func (r *frun) noFleets(p string, o fOrder) {
	r.say(lang.M("%s has no fleets left in orbit of %s for %s.", p, o.World, o))
}

// openFire is 2.4.1.
func (r *frun) openFire(p string, o fOrder, free *pool) {
	s := r.s
	w, t := o.World, o.Target
	tf := s.Fleets[w][t]
	if s.devsOn(t, w) == 0 && (tf == nil || tf.Ok+tf.Risk == 0) {
		r.say(lang.M("%s has nothing on or in orbit of %s for %s to fire at.", t, w, p))
		return
	}
	ok, risk := free.take(o.N)
	if ok+risk == 0 {
		r.noFleets(p, o)
		return
	}
	if s.unDevsOn(w) {
		pl := s.P[p]
		if !pl.Sanctions {
			pl.Sanctions = true
			r.say(lang.M("%s opens fire where the UN has developments: UN Sanctions.", p))
		} else if pl.SanctionRs > 0 {
			pl.Economy += pl.SanctionRs
			r.say(lang.M("%s opens fire again under UN Sanctions: the %s on the token return.", p, lang.MN("%d resource", "%d resources", pl.SanctionRs)))
			pl.SanctionRs = 0
		}
	}
	base := 5 - s.level(p, "Attack") + s.level(t, "Durability")
	regionBase := base
	if w == "Earth" && s.unDevsOn("Earth") {
		regionBase++
	}
	dice := make([]rdie, ok+risk)
	for i := range dice {
		pen := 0
		if i >= ok {
			pen = 1
		}
		dice[i].Needs = []int{base + pen, regionBase + pen}
	}
	// tally splits the hits as 001-G15 assigns them: dice that cannot
	// count against regions kill fleets first, then region dice do.
	tally := func(b *batch) (fleets, regionDice int) {
		fleetOnly, both := 0, 0
		for _, x := range b.Dice {
			switch {
			case x.met(x.Needs[1]):
				both++
			case x.met(x.Needs[0]):
				fleetOnly++
			}
		}
		inOrbit := 0
		if f := s.Fleets[w][t]; f != nil {
			inOrbit = f.Ok + f.Risk
		}
		fleets = min(inOrbit, fleetOnly+both)
		return fleets, both - max(fleets-fleetOnly, 0)
	}
	harm := func(b *batch) (int, int) {
		fleets, rd := tally(b)
		held := 0
		for _, reg := range s.Regions[w] {
			if reg.Owner == t && reg.Devs > 0 {
				held++
			}
		}
		return min(rd/2, held), fleets
	}
	b := r.roll(&batch{Kind: "FIRE", Roller: p, Target: t, What: lang.M("%s's Open Fire at %s on %s", p, t, w), Dice: dice,
		Harm: harm, Gain: func(b *batch) int { reg, f := harm(b); return reg*1000 + f }})
	fleets, both := tally(b)
	lost := 0
	for k := 0; k < fleets && s.removeFleet(t, w, false); k++ {
		lost++
	}
	regions := 0
	for k := 0; k < both/2; k++ {
		i, why := s.regionToLose(t, w)
		if i < 0 {
			break
		}
		r.say(lang.M("%s loses the developments of region %d of %s (%s).", t, i+1, w, why))
		r.sayAll(s.removeRegion(r.d, w, i))
		regions++
	}
	s.tell(draw.Battle, "", w, "")
	if lost+regions > 0 {
		s.tell(draw.Destroyed, "", w, "")
	}
	r.say(lang.M("%s opens fire at %s on %s with %s, %s: %s loses %s and %s.",
		p, t, w, lang.MN("%d fleet", "%d fleets", ok+risk), needText(ok, risk, base, regionBase), t,
		lang.MN("%d fleet", "%d fleets", lost), lang.MN("%d region", "%d regions", regions)))
	if t == un {
		r.unDefence(p, w)
	}
}

// regionToLose is the region t gives up to Open Fire on w (001-C3) by
// t's standing order LOSE: FEWEST (default) the one with fewest
// developments; ATRISK an At Risk one first (then the fewest). It says
// which order decided.
func (s *fullState) regionToLose(t, w string) (int, lang.Msg) {
	if t == un {
		return s.weakestRegion(t, w, false), lang.M("the UN's fewest developments")
	}
	if s.P[t].LoseAtRisk {
		if i := s.weakestRegion(t, w, true); i >= 0 {
			return i, lang.M("standing order LOSE ATRISK")
		}
		return s.weakestRegion(t, w, false), lang.M("standing order LOSE ATRISK, but none is At Risk: the fewest developments")
	}
	return s.weakestRegion(t, w, false), lang.M("standing order LOSE FEWEST")
}

// weakestRegion picks the target's region to lose: fewest developments,
// then lowest number (the 001-C3 default). onlyRisk limits it to At Risk
// regions. It returns -1 if there is none.
func (s *fullState) weakestRegion(t, w string, onlyRisk bool) int {
	best := -1
	for i, reg := range s.Regions[w] {
		if reg.Owner != t || reg.Devs == 0 || onlyRisk && !reg.AtRisk {
			continue
		}
		if best < 0 || reg.Devs < s.Regions[w][best].Devs {
			best = i
		}
	}
	return best
}

// unDefence is the UN's answer to being targeted (2.4.1 → 2.5.3): each UN
// region on the world rolls three times at p's fleets in orbit, with 2.5.3's
// penalty of -1 for a region that is At Risk (an Overthrow can set a UN
// region At Risk).
func (r *frun) unDefence(p, w string) {
	s := r.s
	base := 5 + s.level(p, "Durability")
	var dice []rdie
	for _, reg := range s.Regions[w] {
		if reg.Owner == un && reg.Devs > 0 {
			need := base
			if reg.AtRisk {
				need++
			}
			dice = append(dice, rdie{Needs: []int{need}}, rdie{Needs: []int{need}}, rdie{Needs: []int{need}})
		}
	}
	harm := s.fleetHarm(p, w)
	b := r.roll(&batch{Kind: "DEFEND", Roller: un, Target: p, What: lang.M("UN Defence on %s at %s (3 dice a UN region)", w, p),
		Dice: dice, Harm: harm, Gain: fleetGain(harm)})
	hits := b.successes()
	lost := 0
	for k := 0; k < hits && s.removeFleet(p, w, false); k++ {
		lost++
	}
	needs := lang.M("needing %d+", base)
	switch n := len(dice) - 3*(s.healthyRegions(un, w)); {
	case n == len(dice):
		needs = lang.M("needing %d+ (all from At Risk regions)", base+1)
	case n > 0:
		needs = lang.M("needing %d+, %d+ for the %d from At Risk regions", base, base+1, n)
	}
	r.say(lang.M("The UN answers with Defence on %s: %s %s, %s; %s loses %s.", w, lang.MN("%d die", "%d dice", len(dice)), needs,
		lang.MN("%d hit", "%d hits", hits), p, lang.MN("%d fleet", "%d fleets", lost)))
}

// expand is 2.4.2.
func (r *frun) expand(p string, o fOrder, free *pool) {
	s := r.s
	w := o.World
	for gi, size := range o.Sizes {
		n, _ := strconv.Atoi(size)
		ok, risk := free.take(n)
		if ok+risk == 0 {
			r.noFleets(p, o)
			return
		}
		eff := ok + risk + s.level(p, "Colonisation")
		need := map[int]int{1: 4, 2: 3}[eff]
		if eff >= 3 {
			need = 1
		}
		success := r.ownRoll(p, "EXPAND", need, lang.M("%s's Expansion on %s (group %d of %s)", p, w, gi+1, lang.MN("%d fleet", "%d fleets", ok+risk)))
		if !success {
			r.say(lang.M("%s's expansion group %d on %s fails (needed %d+).", p, gi+1, w, need))
			continue
		}
		dev := s.expansionRegion(p, w, o.New)
		clear := s.devastatedRegion(w)
		switch {
		case dev >= 0 && !(o.Clear && clear >= 0):
			s.addDev(p, w, dev, false)
			s.tell(draw.Built, "", w, p)
			r.say(lang.M("%s's expansion group %d adds a development to region %d of %s.", p, gi+1, dev+1, w))
		case clear >= 0:
			s.Regions[w][clear].Devastation--
			r.say(lang.M("%s's expansion group %d clears a Devastation counter from region %d of %s.", p, gi+1, clear+1, w))
		default:
			r.say(lang.M("%s's expansion group %d succeeds but %s has no region to develop or clear.", p, gi+1, w))
		}
	}
}

// expansionRegion is a region p may develop by Expansion: one with no
// counters at all, or p's own with room (one extra on Earth, one a level of
// Nanotechnology). p's own regions come first, or empty ones first when
// the order says NEW (more regions to answer an Overthrow with, 2.4.3).
func (s *fullState) expansionRegion(p, w string, preferNew bool) int {
	room := s.level(p, "Nanotechnology")
	if w == "Earth" {
		room++
	}
	own, empty := -1, -1
	for i, reg := range s.Regions[w] {
		switch {
		case own < 0 && reg.Owner == p && reg.Devastation == 0 && reg.Devs < 1+room:
			own = i
		case empty < 0 && reg.Devs == 0 && reg.Devastation == 0:
			empty = i
		}
	}
	if preferNew && empty >= 0 || own < 0 {
		return empty
	}
	return own
}

func (s *fullState) devastatedRegion(w string) int {
	for i, reg := range s.Regions[w] {
		if reg.Devastation > 0 && reg.Devs == 0 {
			return i
		}
	}
	return -1
}

// overthrow is 2.4.3. The target answers each pair by its standing order
// OVERTHROWN: RISK (default, 001-C4) sets a healthy region At Risk while it
// has one, then yields; YIELD gives up an At Risk region first.
func (r *frun) overthrow(p string, o fOrder, free *pool) {
	s := r.s
	w, t := o.World, o.Target
	if s.devsOn(t, w) == 0 {
		r.say(lang.M("%s has no developments on %s to overthrow.", t, w))
		return
	}
	ok, risk := free.take(o.N)
	if ok+risk == 0 {
		r.noFleets(p, o)
		return
	}
	base := 5
	if w == "Earth" && s.unDevsOn("Earth") {
		base = 6
	}
	need := base - s.level(p, "Influence") + s.level(t, "Unity")
	yield, order := false, ""
	if t != un {
		yield, order = s.P[t].overthrown(w)
	}
	dice := penalised(ok, risk, need)
	pairs := func(b *batch) int { return b.successes() / 2 }
	// harm plays the target's answers to the pairs (below) on counts.
	harm := func(b *batch) (int, int) {
		healthy, atRisk, taken := 0, 0, 0
		for _, reg := range s.Regions[w] {
			if reg.Owner == t && reg.Devs > 0 {
				if reg.AtRisk {
					atRisk++
				} else {
					healthy++
				}
			}
		}
		for k := 0; k < pairs(b); k++ {
			switch {
			case healthy > 0 && (!yield || atRisk == 0):
				healthy--
				atRisk++
			case atRisk > 0:
				atRisk--
				taken++
			}
		}
		return taken, 0
	}
	b := r.roll(&batch{Kind: "COUP", Roller: p, Target: t, What: lang.M("%s's Overthrow of %s on %s", p, t, w), Dice: dice,
		Harm: harm, Gain: pairs})
	n := pairs(b)
	s.tell(draw.Battle, "", w, "")
	r.say(lang.M("%s attempts overthrow of %s on %s with %s, %s: %s.", p, t, w, lang.MN("%d fleet", "%d fleets", ok+risk),
		needText(ok, risk, need), lang.MN("%d pair", "%d pairs", n)))
	policy := lang.M("the UN's")
	if t != un {
		policy = lang.M("standing order %s", order)
	}
	for k := 0; k < n; k++ {
		healthy := -1
		for i, reg := range s.Regions[w] {
			if reg.Owner == t && !reg.AtRisk && reg.Devs > 0 {
				healthy = i
				break
			}
		}
		atRisk := s.weakestRegion(t, w, true)
		if healthy >= 0 && (!yield || atRisk < 0) {
			s.Regions[w][healthy].AtRisk = true
			r.say(lang.M("%s sets region %d of %s At Risk (%s).", t, healthy+1, w, policy))
			continue
		}
		if atRisk < 0 {
			break
		}
		// 001-G20: no Devastation when a region changes hands.
		for s.Regions[w][atRisk].Devs > 0 {
			r.sayAll(s.removeDev(r.d, w, atRisk, false))
		}
		s.addDev(p, w, atRisk, true)
		s.tell(draw.Captured, "", w, p)
		r.say(lang.M("%s gives up region %d of %s: %s takes it with one development, At Risk (%s).", t, atRisk+1, w, p, policy))
	}
}

// pacify is 2.4.4, each pair spent on the first result that applies, in
// the order's priorities, then the default: un-risk a fleet here (FLEET),
// un-risk a region here (REGION), pay off discontent (DISCONTENT), pay the
// Sanctions token (SANCTIONS).
func (r *frun) pacify(p string, o fOrder, free *pool) {
	s := r.s
	w := o.World
	ok, risk := free.take(o.N)
	if ok+risk == 0 {
		r.noFleets(p, o)
		return
	}
	// 2.4.4, unlike 2.4.1 and 2.4.3, gives At Risk fleets no penalty
	// (nor does 001-R10): every die needs the same.
	need := 5 - s.level(p, "Stability")
	n := r.pairs(p, "PACIFY", lang.M("%s's Pacification of %s", p, w), ok+risk, 0, need)
	r.say(lang.M("%s pacifies %s with %s, %s: %s.", p, w, lang.MN("%d fleet", "%d fleets", ok+risk), needText(ok+risk, 0, need),
		lang.MN("%d pair", "%d pairs", n)))
	pl := s.P[p]
	order := append([]string(nil), o.List...)
	for _, x := range pacifyResults {
		if !contains(order, x) {
			order = append(order, x)
		}
	}
	// try applies one result if it can, and says whether it did.
	try := func(result string) bool {
		switch result {
		case "FLEET":
			if f := s.fleetsAt(p, w); f.Risk > 0 {
				f.Risk--
				f.Ok++
				r.say(lang.M("A fleet of %s at %s is no longer At Risk.", p, w))
				return true
			}
		case "REGION":
			for i := range s.Regions[w] {
				if reg := &s.Regions[w][i]; reg.Owner == p && reg.AtRisk {
					reg.AtRisk = false
					r.say(lang.M("Region %d of %s is no longer At Risk.", i+1, w))
					return true
				}
			}
		case "DISCONTENT":
			if s.devsOn(p, w) > 0 && pl.Discontent > 0 && pl.Economy > 0 {
				pl.Discontent--
				pl.Economy--
				r.say(lang.M("%s pays a resource to remove a Devastation marker from the Discontent Pool.", p))
				return true
			}
		case "SANCTIONS":
			if pl.Sanctions && (s.devsOn(p, w) > 0 || s.unDevsOn(w)) && pl.Economy > 0 {
				pl.Economy--
				pl.SanctionRs++
				r.say(lang.M("%s puts a resource on the UN Sanctions token (%d of 5).", p, pl.SanctionRs))
				if pl.SanctionRs >= 5 {
					pl.Sanctions = false
					pl.Economy += pl.SanctionRs
					pl.SanctionRs = 0
					r.say(lang.M("%s is free of UN Sanctions.", p))
				}
				return true
			}
		}
		return false
	}
	for k := 0; k < n; k++ {
		done := false
		for _, x := range order {
			if done = try(x); done {
				break
			}
		}
		if !done {
			r.say(lang.M("A pair of %s's Pacification successes on %s has nothing left to do.", p, w))
		}
	}
}

// --- 2.5 Development Actions ------------------------------------------------

func (r *frun) devActions(p string, orders []fOrder) {
	s := r.s
	var worlds []string
	for _, o := range orders {
		if !contains(worlds, o.World) {
			worlds = append(worlds, o.World)
		}
	}
	for _, w := range worlds {
		var dp pool
		for _, reg := range s.Regions[w] {
			if reg.Owner != p {
				continue
			}
			if reg.AtRisk {
				dp.risk += reg.Devs
			} else {
				dp.ok += reg.Devs
			}
		}
		total := dp.ok + dp.risk
		usedRegions := map[int]bool{}
		vn := s.level(p, "VonNeumann")
		for _, verb := range []string{"INFLUENCE", "DEFEND", "BUILD", "RESEARCH"} {
			for _, o := range orders {
				if o.World != w || o.Verb != verb {
					continue
				}
				switch verb {
				case "INFLUENCE":
					if dp.ok+dp.risk != total || total == 0 {
						r.say(lang.M("Political Influence on %s needs all of %s's developments there, unused.", w, p))
						continue
					}
					dp = pool{}
					r.influence(p, o)
				case "DEFEND":
					r.defend(p, o, &dp, usedRegions)
				case "BUILD":
					r.construct(p, o, &dp, &vn)
				case "RESEARCH":
					ok, risk := dp.take(o.N)
					if ok+risk == 0 {
						r.say(lang.M("%s has no developments left on %s for %s.", p, w, o))
						continue
					}
					r.research(p, w, ok, risk)
				}
			}
		}
	}
}

// construct is 2.5.1; vn counts the Von Neumann constructions left on this
// world (house rule, 001-F5).
func (r *frun) construct(p string, o fOrder, dp *pool, vn *int) {
	s := r.s
	w := o.World
	for gi, g := range o.Sizes {
		n := buildCount(g)
		ok, risk := dp.take(n)
		if ok+risk < n {
			dp.ok += ok
			dp.risk += risk
			r.say(lang.M("%s has too few developments left on %s for construction group %s.", p, w, g))
			continue
		}
		builds, need := 1, 0
		switch g {
		case "1":
			need = 4
			if *vn > 0 {
				*vn--
				need = 0
				r.say(lang.M("Von Neumann Engines: %s's single-development construction on %s needs no Risk roll.", p, w))
			}
		case "3x2":
			builds, need = 2, 3
		}
		for k := 0; k < builds; k++ {
			msg, okb := s.addFleet(p, w, false)
			if okb {
				s.tell(draw.Built, "", w, p)
				r.say(lang.M("%s (construction group %d).", msg, gi+1))
			}
		}
		if need > 0 {
			if !r.ownRoll(p, "BUILD", need, lang.M("%s's construction Risk roll on %s (group %d)", p, w, gi+1)) {
				r.riskRegion(p, w)
			}
		}
	}
}

// riskRegion is a failed Risk roll: a healthy region of p's on w becomes
// At Risk, else p loses all developments in the weakest region.
func (r *frun) riskRegion(p, w string) {
	s := r.s
	for i := range s.Regions[w] {
		if reg := &s.Regions[w][i]; reg.Owner == p && !reg.AtRisk {
			reg.AtRisk = true
			r.say(lang.M("The Risk roll fails: region %d of %s is At Risk.", i+1, w))
			return
		}
	}
	if i := s.weakestRegion(p, w, false); i >= 0 {
		r.say(lang.M("The Risk roll fails and every region of %s's on %s is At Risk: region %d is lost.", p, w, i+1))
		r.sayAll(s.removeRegion(r.d, w, i))
	}
}

// research is 2.5.2: each development rolls; each 5+ is a research step.
func (r *frun) research(p, w string, ok, risk int) {
	s := r.s
	need := 5 - s.level(p, "Research")
	b := r.roll(&batch{Kind: "RESEARCH", Roller: p, What: lang.M("%s's Research on %s", p, w), Dice: penalised(ok, risk, need),
		Gain: (*batch).successes})
	for k := b.successes(); k > 0; k-- {
		r.researchStep(p, "", "", false)
	}
}

// needText states the target numbers an action's dice used, per group:
// ok healthy units rolling against needs (Open Fire has two: against
// fleets, then against regions), and risk At Risk ones rolling one more.
// "needing 5+", "all At Risk, needing 6+", "needing 5+ (6+ against
// regions), 6+ (7+ against regions) for the 2 At Risk fleets".
func needText(ok, risk int, needs ...int) lang.Msg {
	group := func(add int) lang.Msg {
		if len(needs) > 1 && needs[1] != needs[0] {
			return lang.M("%d+ (%d+ against regions)", needs[0]+add, needs[1]+add)
		}
		return lang.M("%d+", needs[0]+add)
	}
	switch {
	case risk == 0:
		return lang.M("needing %s", group(0))
	case ok == 0 && risk == 1:
		return lang.M("At Risk, needing %s", group(1))
	case ok == 0:
		return lang.M("all At Risk, needing %s", group(1))
	case risk == 1:
		return lang.M("needing %s, %s for the At Risk fleet", group(0), group(1))
	}
	return lang.MN("needing %s, %s for the %d At Risk fleet", "needing %s, %s for the %d At Risk fleets", group(0), group(1), risk)
}

// penalised is ok+risk dice needing need, At Risk units' one more.
func penalised(ok, risk, need int) []rdie {
	dice := make([]rdie, ok+risk)
	for i := range dice {
		dice[i].Needs = []int{need}
		if i >= ok {
			dice[i].Needs[0]++
		}
	}
	return dice
}

// pairs rolls a pair-scoring action (Pacification) and counts its pairs.
func (r *frun) pairs(p, kind string, what lang.Msg, ok, risk, need int) int {
	b := r.roll(&batch{Kind: kind, Roller: p, What: what, Dice: penalised(ok, risk, need),
		Gain: func(b *batch) int { return b.successes() / 2 }})
	return b.successes() / 2
}

// researchStep is one research success (001-F4) of p, which p may take
// or decline (2.5.2 says "you may"). first is a technology an order of
// this turn names (a prelude's, a sharer's; "" none), by who named it,
// own whether p did. A success goes to first, else to the first
// technology of p's standing order TECH that may be researched, else to
// the first in the rules' order; never to a technology refused by TECH
// NEVER (unless p's own order names it), and never at all under TECH
// NONE (unless p's own order names one). S steps make a level. The
// report says which technology and why, or why the success was declined.
//
// by is a player's name or an order (a Msg): who named first.
func (r *frun) researchStep(p, first string, by any, own bool) {
	s := r.s
	pl := s.P[p]
	if first != "" && !own && (pl.NoResearch || contains(pl.TechNever, first)) {
		r.say(lang.M("%s declines %s's shared %s research (%s).", p, by, first, pl.techOrder()))
		return
	}
	var order []string
	if first != "" {
		order = append(order, first)
	}
	if !pl.NoResearch {
		order = append(append(order, pl.TechPlan...), techNames()...)
	}
	for _, name := range order {
		t, _ := techByName(name)
		if !canResearch(t, pl.Tech) || name != first && contains(pl.TechNever, name) {
			continue
		}
		var why lang.Msg
		switch {
		case name == first:
			why = lang.M("%s", by)
			if !own {
				why = lang.M("%s's choice", by)
			}
		case contains(pl.TechPlan, name):
			why = lang.M("standing order TECH %s", strings.Join(pl.TechPlan, ","))
		default:
			why = lang.M("no TECH order")
			if len(pl.TechPlan) > 0 {
				why = lang.M("standing order TECH %s names none %s may research now", strings.Join(pl.TechPlan, ","), p)
			}
			if first != "" {
				why = lang.M("%s names what %s may not research now", by, p)
			}
			if len(pl.TechNever) > 0 {
				why = lang.M("%s: the first technology %s may research and does not refuse (TECH NEVER %s)", why, p, strings.Join(pl.TechNever, ","))
			} else {
				why = lang.M("%s: the first technology %s may research", why, p)
			}
		}
		if pl.Progress == nil {
			pl.Progress = map[string]int{}
		}
		pl.Progress[t.Name]++
		if pl.Progress[t.Name] >= t.Steps {
			delete(pl.Progress, t.Name)
			if pl.Tech == nil {
				pl.Tech = map[string]int{}
			}
			pl.Tech[t.Name]++
			r.say(lang.M("%s gains %s level %d (%s).", p, t.Name, pl.Tech[t.Name], why))
		} else {
			r.say(lang.M("%s's research advances %s (%d of %d; %s).", p, t.Name, pl.Progress[t.Name], t.Steps, why))
		}
		return
	}
	switch {
	case pl.NoResearch:
		r.say(lang.M("%s declines a research success (standing order TECH NONE).", p))
	case len(pl.TechNever) > 0:
		r.say(lang.M("%s declines a research success: every technology %s may research now is refused (standing order TECH NEVER %s).",
			p, p, strings.Join(pl.TechNever, ",")))
	default:
		r.say(lang.M("%s has no technology left to research: the success is lost.", p))
	}
}

// techOrder is p's standing research order as the report names it.
func (pl *fullPlayer) techOrder() lang.Msg {
	switch {
	case pl.NoResearch:
		return lang.M("standing order TECH NONE")
	case len(pl.TechNever) > 0:
		return lang.M("standing order TECH NEVER %s", strings.Join(pl.TechNever, ","))
	}
	return lang.M("standing order TECH")
}

// defend is 2.5.3: each region rolls three times (plus Active Defences).
func (r *frun) defend(p string, o fOrder, dp *pool, used map[int]bool) {
	s := r.s
	w, t := o.World, o.Target
	if t == un {
		r.say(lang.M("The UN has no fleets for %s's Defence to target.", p))
		return
	}
	for k := 0; k < o.N; k++ {
		// Healthy regions first; a region's developments all take part.
		pick := -1
		for _, wantRisk := range []bool{false, true} {
			for i, reg := range s.Regions[w] {
				if pick < 0 && reg.Owner == p && reg.Devs > 0 && !used[i] && reg.AtRisk == wantRisk {
					pick = i
				}
			}
		}
		if pick < 0 {
			r.say(lang.M("%s has no region left on %s for Defence.", p, w))
			return
		}
		reg := s.Regions[w][pick]
		if reg.AtRisk {
			if dp.risk < reg.Devs {
				r.say(lang.M("%s's developments on %s are already in use.", p, w))
				return
			}
			dp.risk -= reg.Devs
		} else {
			if dp.ok < reg.Devs {
				r.say(lang.M("%s's developments on %s are already in use.", p, w))
				return
			}
			dp.ok -= reg.Devs
		}
		used[pick] = true
		need := 5 - s.level(p, "Attack") + s.level(t, "Durability")
		if reg.AtRisk {
			need++
		}
		dice := make([]rdie, 3+s.level(p, "ActiveDefences"))
		for i := range dice {
			dice[i].Needs = []int{need}
		}
		harm := s.fleetHarm(t, w)
		b := r.roll(&batch{Kind: "DEFEND", Roller: p, Target: t, What: lang.M("%s's Defence from region %d of %s at %s", p, pick+1, w, t),
			Dice: dice, Harm: harm, Gain: fleetGain(harm)})
		hits := b.successes()
		lost := 0
		for h := 0; h < hits && s.removeFleet(t, w, false); h++ {
			lost++
		}
		r.say(lang.M("%s's region %d of %s fires in Defence at %s, needing %d+: %s, %s lost.", p, pick+1, w, t, need, lang.MN("%d hit", "%d hits", hits), lang.MN("%d fleet", "%d fleets", lost)))
	}
}

// influence is 2.5.4.
func (r *frun) influence(p string, o fOrder) {
	s := r.s
	w := o.World
	f := s.fleetsAt(p, w)
	switch {
	case s.hasPI(p, w):
		r.say(lang.M("%s already has a Political Influence counter on %s.", p, w))
		return
	case f.Ok+f.Risk < 3:
		r.say(lang.M("Political Influence on %s needs at least three of %s's fleets in orbit.", w, p))
		return
	}
	n := min(o.N, f.Ok+f.Risk)
	for k := 0; k < n; k++ {
		s.removeFleet(p, w, true)
	}
	r.aside += n
	need := 1
	switch {
	case n <= 4:
		need = 5
	case n <= 6:
		need = 4
	case n <= 9:
		need = 3
	case n <= 12:
		need = 2
	}
	ok := r.ownRoll(p, "INFLUENCE", need, lang.M("%s's Political Influence on %s with %d fleets", p, w, n))
	if !ok {
		r.say(lang.M("%s sets aside %d fleets for Political Influence on %s, needing %d+, and fails.", p, n, w, need))
		return
	}
	if s.PI == nil {
		s.PI = map[string][]string{} // absent after a round trip when empty
	}
	s.PI[w] = append(s.PI[w], p)
	gain := s.devsOn(p, w)
	s.P[p].Power += gain
	r.say(lang.M("%s sets aside %d fleets and wins Political Influence on %s: +%d Power.", p, n, w, gain))
}

// unAssist is 2.6.
func (r *frun) unAssist(p string, o fOrder) {
	s := r.s
	if s.P[p].Sanctions || !s.unDevsOn("Earth") {
		r.say(lang.M("The UN does not assist %s (Sanctions, or no UN development on Earth).", p))
		return
	}
	if o.Word == "FLEET" {
		msg, ok := s.addFleet(p, "Earth", true)
		if ok {
			msg = lang.M("%s with UN assistance", msg)
		}
		r.say(lang.M("%s.", msg))
		return
	}
	r.say(lang.M("The UN assists %s's research.", p))
	r.research(p, "Earth", 2, 0)
}

// healthyRegions counts t's regions on w that are not At Risk.
func (s *fullState) healthyRegions(t, w string) int {
	n := 0
	for _, reg := range s.Regions[w] {
		if reg.Owner == t && reg.Devs > 0 && !reg.AtRisk {
			n++
		}
	}
	return n
}

// share is 6.2: the recipient acts as if it had just succeeded in a
// research roll in the technology, where the sharer has more levels. The
// rules say it "may": the recipient's standing order ACCEPT SHARES can
// decline it (001-C9), e.g. an AI level pushed on them in a Skynet game.
func (r *frun) share(p string, o fOrder) {
	s := r.s
	t, q := o.From, o.Target
	if s.level(p, t) <= s.level(q, t) {
		r.say(lang.M("%s cannot share %s with %s: %s has no more levels in it.", p, t, q, p))
		return
	}
	if acc := s.P[q].Shares; acc != nil && !contains(acc, t) {
		r.say(lang.M("%s declines %s's shared %s research (standing order ACCEPT SHARES %s).", q, p, t, s.P[q].acceptShares()))
		return
	}
	tt, _ := techByName(t)
	if !canResearch(tt, s.P[q].Tech) {
		r.say(lang.M("%s cannot yet research %s: the shared research is lost.", q, t))
		return
	}
	r.say(lang.M("%s shares %s research with %s.", p, t, q))
	r.researchStep(q, t, p, false)
}

// transfer is 6.3: units change hands as losses and gains under section
// 3 (no Devastation), then each rolls: on 4+ it becomes At Risk, or spreads
// risk if it already was. A recipient whose standing order is ACCEPT
// TRANSFERS NONE refuses: fleets are destroyed, developments go to the UN.
func (r *frun) transfer(p string, o fOrder) {
	s := r.s
	q := o.Target
	refused := q != un && s.P[q].RefuseAll
	if o.Word != "REGION" {
		f := s.fleetsAt(p, o.World)
		n := min(o.N, f.Ok+f.Risk)
		if n == 0 {
			r.say(lang.M("%s has no fleets at %s to transfer.", p, o.World))
			return
		}
		for k := 0; k < n; k++ {
			wasRisk := f.Risk > 0 // At Risk fleets are transferred first
			s.removeFleet(p, o.World, false)
			if refused {
				r.say(lang.M("%s refuses a fleet from %s at %s (standing order ACCEPT TRANSFERS NONE): it is destroyed.", q, p, o.World))
				continue
			}
			msg, _ := s.addFleet(q, o.World, false)
			r.say(lang.M("%s: a fleet transferred from %s.", msg, p))
			g := s.fleetsAt(q, o.World)
			if wasRisk {
				g.Ok--
				g.Risk++
			}
			if r.d.RollMsg(6, lang.M("risk of a fleet transferred from %s to %s at %s (4+)", p, q, o.World)) < 4 {
				continue
			}
			switch {
			case !wasRisk:
				g.Ok--
				g.Risk++
				r.say(lang.M("The transferred fleet becomes At Risk."))
			case g.Ok > 0:
				g.Ok--
				g.Risk++
				r.say(lang.M("Risk spreads to another of %s's fleets at %s.", q, o.World))
			default:
				s.removeFleet(q, o.World, false)
				r.say(lang.M("Risk spreads and %s loses a fleet at %s.", q, o.World))
			}
		}
		return
	}
	i := o.N - 1
	reg := s.Regions[o.World][i]
	if reg.Owner != p || reg.Devs == 0 {
		r.say(lang.M("%s holds no developments in region %d of %s to transfer.", p, o.N, o.World))
		return
	}
	to := q
	if refused {
		to = un
		r.say(lang.M("%s refuses region %d of %s from %s (standing order ACCEPT TRANSFERS NONE): it goes to the UN.", q, o.N, o.World, p))
	}
	n, risk := reg.Devs, reg.AtRisk
	for s.Regions[o.World][i].Devs > 0 {
		r.sayAll(s.removeDev(r.d, o.World, i, false))
	}
	for k := 0; k < n; k++ {
		s.addDev(to, o.World, i, risk)
	}
	r.say(lang.M("%s transfers region %d of %s (%s) to %s.", p, o.N, o.World, lang.MN("%d development", "%d developments", n), to))
	for k := 0; k < n; k++ {
		if r.d.RollMsg(6, lang.M("risk of a development transferred to %s in region %d of %s (4+)", to, o.N, o.World)) < 4 {
			continue
		}
		if !s.Regions[o.World][i].AtRisk {
			s.Regions[o.World][i].AtRisk = true
			r.say(lang.M("Region %d of %s becomes At Risk.", o.N, o.World))
			continue
		}
		spread := false
		for j := range s.Regions[o.World] {
			if rg := &s.Regions[o.World][j]; j != i && rg.Owner == to && rg.Devs > 0 && !rg.AtRisk {
				rg.AtRisk, spread = true, true
				r.say(lang.M("Risk spreads to region %d of %s.", j+1, o.World))
				break
			}
		}
		if !spread {
			r.say(lang.M("Risk spreads and %s loses region %d of %s.", to, o.N, o.World))
			r.sayAll(s.removeRegion(r.d, o.World, i))
			return
		}
	}
}
