package earthman

// AI Thoughts (5.1, 001-B25, 001-C7). A thought forces a re-roll of any
// die, in anyone's turn but Score, the spender's choice which. By mail
// nobody can be asked after every die, so each batch of dice (one action's
// roll, one Defence, one Defensive Fire) opens a re-roll window that the
// players' standing AI orders answer:
//
//	(a) after the batch is rolled, the window asks the active player first,
//	    then the others clockwise;
//	(b) each player's standing orders decide: AI OWN (which of your own
//	    rolls you re-roll when a re-roll can improve the result), AI DEFEND
//	    (when you re-roll dice against you), AI SHIELD (players whose
//	    attackers' dice you re-roll as if they were against you), AI KEEP
//	    (thoughts held back);
//	(c) after any re-roll the window opens again from the active player,
//	    until nobody spends;
//	(d) a die that needs 7+ or 8+ is two stages: a thought re-rolls the
//	    stage that serves the spender: the second stage of one's own failed
//	    die whose first stage was a 6, otherwise the first stage (a
//	    re-rolled first stage of 6 keeps the second stage already rolled).
//
// Every re-roll is a recorded die with its purpose, and every spending is
// reported with the standing order that decided it.

import (
	"fmt"
	"strings"

	"orrery/engine/lang"
)

// aiKinds are the kinds of roll a player may re-roll with AI OWN, named
// like the orders that make them (DEFENSIVE is Defensive Fire; RISK the
// rolls of 2.2 and the 3.4 discontent roll, see riskRoll).
var aiKinds = []string{"FIRE", "EXPAND", "COUP", "PACIFY", "BUILD", "RESEARCH", "DEFEND", "INFLUENCE", "DEFENSIVE", "RISK"}

// aiOwnDefault is AI OWN ON: the single rolls that decide a whole action.
var aiOwnDefault = []string{"EXPAND", "BUILD", "INFLUENCE"}

// rdie is one die of a batch. Needs are what it must reach, one per use (an
// Open Fire die has a fleet and a region need); First and Second are its
// faces, 0 when not rolled (001-G1: needs of 1 or less succeed unrolled,
// 9 or more are not rolled).
type rdie struct {
	Needs  []int
	First  int
	Second int
}

func (x rdie) bounds() (lo, hi int) {
	lo, hi = 99, 0
	for _, n := range x.Needs {
		lo, hi = min(lo, n), max(hi, n)
	}
	return
}

func (x rdie) twoStage() bool {
	for _, n := range x.Needs {
		if n == 7 || n == 8 {
			return true
		}
	}
	return false
}

// rollable says whether the die is rolled at all.
func (x rdie) rollable() bool {
	lo, hi := x.bounds()
	return lo < 9 && hi > 1
}

// met says whether the die reaches need n (the 1.1 rule for 7+ and 8+).
func (x rdie) met(n int) bool {
	switch {
	case n <= 1:
		return true
	case n <= 6:
		return x.First >= n
	case n == 7:
		return x.First == 6 && x.Second >= 4
	case n == 8:
		return x.First == 6 && x.Second == 6
	}
	return false
}

// hits counts the needs the die meets.
func (x rdie) hits() int {
	c := 0
	for _, n := range x.Needs {
		if x.met(n) {
			c++
		}
	}
	return c
}

// best is the die as if it had rolled a 6 then a 6: every need up to 8 met.
func (x rdie) best() rdie { x.First, x.Second = 6, 6; return x }

func (x rdie) faces() lang.Msg {
	if x.First == 6 && x.Second > 0 && x.twoStage() {
		return lang.M("6 then %d", x.Second)
	}
	return lang.M("%d", x.First)
}

// batch is one set of dice rolled together, which a re-roll window follows.
type batch struct {
	Kind   string   // an aiKinds name
	Roller string   // whose dice they are (the UN's too)
	Target string   // whose units the successes harm; "" for none
	What   lang.Msg // for people: "ann's overthrow of bob on Mars"
	Dice   []rdie
	// Gain is the roller's result, higher is better for the roller.
	Gain func(b *batch) int
	// Harm is what the dice would do to Target now.
	Harm func(b *batch) (regions, fleets int)
}

// successes counts the dice that meet their first need.
func (b *batch) successes() int {
	c := 0
	for _, x := range b.Dice {
		if x.met(x.Needs[0]) {
			c++
		}
	}
	return c
}

func (b *batch) purpose(i int) lang.Msg {
	if len(b.Dice) == 1 {
		return b.What
	}
	return lang.M("%s (die %d of %d)", b.What, i+1, len(b.Dice))
}

func needsText(x rdie) lang.Msg {
	var s []string
	for _, n := range x.Needs {
		s = append(s, fmt.Sprintf("%d+", n))
	}
	return lang.M("needs %s", strings.Join(s, ", "))
}

// rollFirst rolls die i's first stage and, on a 6 where 7+ or 8+ is
// needed, its second stage unless one is already rolled.
func (r *frun) rollFirst(b *batch, i int, purpose lang.Msg) {
	x := &b.Dice[i]
	x.First = r.d.RollMsg(6, lang.M("%s (%s)", purpose, needsText(*x)))
	if x.First == 6 && x.twoStage() && x.Second == 0 {
		x.Second = r.d.RollMsg(6, lang.M("%s (a 6: re-roll for 7+/8+)", purpose))
	}
}

// roll rolls the batch and opens its re-roll window.
func (r *frun) roll(b *batch) *batch {
	for i := range b.Dice {
		if b.Dice[i].rollable() {
			r.rollFirst(b, i, b.purpose(i))
		}
	}
	r.window(b)
	return b
}

// window is 001-C7 (a)–(c): the active player first, then clockwise; each
// re-roll opens the window again, until nobody spends.
func (r *frun) window(b *batch) {
	s := r.s
	n := len(s.Players)
	for {
		spent := false
		for k := 0; k < n && !spent; k++ {
			q := s.Players[(s.Active+k)%n]
			i, more, why := r.aiWants(q, b)
			if i < 0 {
				continue
			}
			spent = true
			pl := s.P[q]
			pl.AI--
			x := &b.Dice[i]
			old := x.faces()
			purpose := lang.M("%s's AI thought: re-roll of %s", q, b.purpose(i))
			if more && x.First == 6 && x.twoStage() && x.hits() < len(x.Needs) {
				// (d): only the second stage failed.
				x.Second = r.d.RollMsg(6, lang.M("%s (the second stage, for 7+/8+)", purpose))
			} else {
				r.rollFirst(b, i, purpose)
			}
			r.say(lang.M("%s spends an AI thought (standing order %s; %d left): re-roll of die %d of %s, %s → %s: %s.",
				q, why, pl.AI, i+1, b.What, old, x.faces(), dieResult(*x)))
		}
		if !spent {
			return
		}
	}
}

func dieResult(x rdie) lang.Msg {
	switch h := x.hits(); {
	case h == 0:
		return lang.M("a failure")
	case h == len(x.Needs):
		return lang.M("a success")
	default:
		return lang.M("a hit on fleets only")
	}
}

// aiWants says whether q's standing AI orders spend a thought on batch b
// now: which die (or -1), whether q wants more successes, and the order.
func (r *frun) aiWants(q string, b *batch) (int, bool, string) {
	s := r.s
	pl := s.P[q]
	if pl == nil || pl.AI <= pl.AIKeep {
		return -1, false, ""
	}
	if q == b.Roller && contains(pl.aiOwn(), b.Kind) {
		now := b.Gain(b)
		for i, x := range b.Dice {
			if !x.rollable() || x.hits() == len(x.Needs) {
				continue
			}
			b.Dice[i] = x.best()
			better := b.Gain(b) > now
			b.Dice[i] = x
			if better {
				return i, true, pl.aiOwnOrder()
			}
		}
		return -1, false, ""
	}
	if b.Target == "" || q == b.Roller || pl.AIDefendOff || q != b.Target && !contains(pl.AIShield, b.Target) {
		return -1, false, ""
	}
	regions, fleets := b.Harm(b)
	var want bool
	switch pl.AIDefend {
	case "LAST":
		want = regions > 0 && regions >= s.regionsHeld(b.Target)
	case "ALL":
		want = regions > 0 || fleets > 0
	case "MIN":
		want = (regions > 0 || fleets > 0) && b.scoring() >= pl.AIDefendMin
	default:
		want = regions > 0
	}
	if !want {
		return -1, false, ""
	}
	best, bi := 0, -1
	for i, x := range b.Dice {
		if h := x.hits(); x.rollable() && h > best {
			best, bi = h, i
		}
	}
	why := "AI DEFEND " + pl.aiDefendWord()
	if q != b.Target {
		why = "AI SHIELD " + strings.Join(pl.AIShield, ",") + " with " + why
	}
	return bi, false, why
}

// aiDefendWord is q's AI DEFEND order after "AI DEFEND ".
func (pl *fullPlayer) aiDefendWord() string {
	switch {
	case pl.AIDefendOff:
		return "OFF"
	case pl.AIDefend == "":
		return "ON"
	case pl.AIDefend == "MIN":
		return fmt.Sprintf("MIN %d", pl.AIDefendMin)
	}
	return pl.AIDefend
}

// scoring counts the dice of b that meet at least one of their needs:
// the successes AI DEFEND MIN k compares with k (a die that counts
// against both fleets and regions is one success).
func (b *batch) scoring() int {
	n := 0
	for _, x := range b.Dice {
		if x.hits() > 0 {
			n++
		}
	}
	return n
}

// aiOwn is the kinds of q's own rolls that AI OWN re-rolls.
func (pl *fullPlayer) aiOwn() []string {
	switch {
	case pl.AIOwnOff:
		return nil
	case pl.AIOwn == nil:
		return aiOwnDefault
	}
	return pl.AIOwn
}

func (pl *fullPlayer) aiOwnOrder() string {
	switch {
	case pl.AIOwnOff:
		return "AI OWN OFF"
	case pl.AIOwn == nil:
		return "AI OWN ON"
	case len(pl.AIOwn) == len(aiKinds):
		return "AI OWN ALL"
	}
	return "AI OWN " + strings.Join(pl.AIOwn, ",")
}

// regionsHeld counts t's regions on the whole board.
func (s *fullState) regionsHeld(t string) int {
	n := 0
	for _, w := range board.Worlds() {
		for _, reg := range s.Regions[w.Name] {
			if reg.Owner == t && reg.Devs > 0 {
				n++
			}
		}
	}
	return n
}

// ownRoll is one roll of p's own that decides an action (Expansion, a
// construction Risk roll, Political Influence), with its re-roll window.
func (r *frun) ownRoll(p, kind string, need int, what lang.Msg) bool {
	b := r.roll(&batch{Kind: kind, Roller: p, What: what, Dice: []rdie{{Needs: []int{need}}},
		Gain: (*batch).successes})
	return b.Dice[0].met(need)
}

// fleetHarm is the Harm of dice that each remove one of t's fleets at w.
func (s *fullState) fleetHarm(t, w string) func(b *batch) (int, int) {
	return func(b *batch) (int, int) {
		f := s.Fleets[w][t]
		if f == nil {
			return 0, 0
		}
		return 0, min(b.successes(), f.Ok+f.Risk)
	}
}

// fleetGain is the roller's Gain for the same dice.
func fleetGain(harm func(b *batch) (int, int)) func(b *batch) int {
	return func(b *batch) int {
		_, f := harm(b)
		return f
	}
}
