package earthman

import (
	"fmt"
	"sort"

	"orrery/engine/lang"
)

// Window is a turn paused before an attack (000-C1's optional live
// interrupt window, game option interrupts=on): the defender is asked, by
// a choice prompt with the game's deadline, whether to take extraordinary
// actions before the dice. Everything the rest of the turn needs is kept
// here, so the turn goes on in a later resolution exactly as it would
// have in one.
type Window struct {
	Target      string         `json:"target"`
	Orders      []string       `json:"orders"` // the active player's turn, canonical
	Next        int            `json:"next"`   // index of the attack that waits
	A           int            `json:"a"`
	D           int            `json:"d"`
	Phase       int            `json:"phase"`
	UsedFleets  map[string]int `json:"used_fleets,omitempty"`
	UsedDevs    map[string]int `json:"used_devs,omitempty"`
	EarthCombat bool           `json:"earth_combat,omitempty"`
	UNReroll    bool           `json:"un_reroll,omitempty"`
}

// ask is the question of the window, for the defender.
func (w *Window) ask(active string) lang.Msg {
	return lang.M("%s's next order is %s: a group of %d against your %s there (A=%d, D=%d).",
		active, w.Orders[w.Next], w.A, lang.MN("%d unit", "%d units", w.D), w.A, w.D)
}

// openWindow pauses the turn before orders[i], an attack, when the option
// is on, the target is a player with units there to attack, and none of
// their standing orders answers this attack. It reports whether it did.
func (r *run) openWindow(p string, orders []order, i int) bool {
	s := r.s
	o := orders[i]
	t, w, coup := o.Target, o.World, o.Verb == vCoup
	if !s.Interrupts || t == un || t == p || s.units(t, w) == 0 || coup && s.devs(t, w) == 0 {
		return false
	}
	have := s.fleets(p, w) - r.usedFleets[w]
	if coup {
		have = s.devs(p, w) - r.usedDevs[w]
	}
	a := min(o.N, max(have, 0))
	if a == 0 || r.standingAnswers(t, p, o, a) {
		return false
	}
	lines := make([]string, len(orders))
	for k, x := range orders {
		lines[k] = x.String()
	}
	s.Window = &Window{Target: t, Orders: lines, Next: i, A: a, D: s.units(t, w), Phase: r.phase,
		UsedFleets: nonEmpty(r.usedFleets), UsedDevs: nonEmpty(r.usedDevs), EarthCombat: r.earthCombat, UNReroll: r.unReroll}
	r.say(lang.M("The turn waits for %s: an interrupt window before %s's %s (A=%d, D=%d). If nothing comes by the deadline, the attack goes ahead.",
		t, p, o.String(), a, s.units(t, w)))
	return true
}

// standingAnswers says whether t's standing orders already decide how t
// meets this attack (ON COUP for an overthrow, or an ON ATTACKED trigger
// that matches now): then no window is needed.
func (r *run) standingAnswers(t, p string, o order, a int) bool {
	s := r.s
	w := o.World
	if o.Verb == vCoup {
		act := s.OnCoup[t][w]
		if act == "" {
			act = s.OnCoup[t]["ANY"]
		}
		if act != "" && act != "NONE" {
			return true
		}
	}
	for _, x := range s.Triggers[t] {
		if x.Event == evAttacked && (x.World == w || x.World == "ANY") && (x.By == "" || x.By == p) &&
			(x.Kind == "" || x.Kind == o.Verb) && holds(x.If, a, s.units(t, w)) {
			return true
		}
	}
	return false
}

// answerWindow applies the defender's answer to the window and goes on
// with the paused turn, starting with the attack that waited.
func (r *run) answerWindow(p string, answer []order, defaulted bool) error {
	s := r.s
	w := s.Window
	if w == nil || w.Target != p || s.Stage != stageTurns {
		return nil
	}
	active := s.Players[s.Active]
	switch {
	case defaulted:
		r.say(lang.M("No answer came from %s in the interrupt window: %s's attack goes ahead.", p, active))
	case len(answer) == 0:
		r.say(lang.M("%s lets %s's attack go ahead.", p, active))
	default:
		r.say(lang.M("%s acts in the interrupt window before %s's attack.", p, active))
	}
	for _, o := range answer {
		r.anytime(p, o)
	}
	s.Window = nil
	n := namer{players: s.Players}
	var orders []order
	for _, line := range w.Orders {
		o, e := n.parseLine(line)
		if e != nil {
			return fmt.Errorf("the paused turn's order %q does not parse: %w", line, e)
		}
		orders = append(orders, o)
	}
	r.phase, r.earthCombat, r.unReroll = w.Phase, w.EarthCombat, w.UNReroll
	r.usedFleets, r.usedDevs = orZero(w.UsedFleets), orZero(w.UsedDevs)
	r.play(active, orders, w.Next, w.Next)
	return nil
}

func nonEmpty(m map[string]int) map[string]int {
	out := map[string]int{}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if m[k] != 0 {
			out[k] = m[k]
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

func orZero(m map[string]int) map[string]int {
	if m == nil {
		return map[string]int{}
	}
	return m
}
