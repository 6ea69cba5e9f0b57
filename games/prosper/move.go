package prosper

import (
	"sort"

	"orrery/engine"
	"orrery/engine/draw"
	"orrery/engine/lang"
)

// ruleError is a refusal with a suggested fix, for a LineError: why and
// fix are messages, written in the reader's language by the mail side;
// Error is the English of why.
type ruleError struct{ why, fix lang.Msg }

func (e *ruleError) Error() string { return e.why.English() }

// refuse is a refusal worded as why, with fix (the zero Msg for none).
func refuse(fix, why lang.Msg) error { return &ruleError{why: why, fix: fix} }

// clone copies the board, for checking orders on a scratch copy.
func (s *State) clone() *State {
	c := *s
	c.Planets = append([]Planet(nil), s.Planets...)
	return &c
}

// adjacent reports whether planets i and j are neighbours.
func (s *State) adjacent(i, j int) bool {
	for _, n := range s.neighbours(i) {
		if n == j {
			return true
		}
	}
	return false
}

// neighbours lists the planets next to planet i. The map never changes
// during a game, so the lists are worked out once per loaded state.
func (s *State) neighbours(i int) []int {
	if s.adj == nil {
		at := make(map[Hex]int, len(s.Planets))
		for k, p := range s.Planets {
			at[p.Hex] = k
		}
		s.adj = make([][]int, len(s.Planets))
		for k, p := range s.Planets {
			for _, h := range p.Hex.Neighbours() {
				if j, ok := at[h]; ok {
					s.adj[k] = append(s.adj[k], j)
				}
			}
			sort.Ints(s.adj[k])
		}
	}
	return s.adj[i]
}

// connectedOwn reports whether a chain of p's planets joins i and j
// (004-G9): both ends and every planet between them are p's.
func (s *State) connectedOwn(p string, i, j int) bool {
	comp := s.components(p)
	return comp[i] >= 0 && comp[i] == comp[j]
}

// components numbers the groups of p's planets joined by chains of p's
// planets: comp[i] is planet i's group, or -1 if it is not p's.
func (s *State) components(p string) []int {
	comp := make([]int, len(s.Planets))
	for i := range comp {
		comp[i] = -1
	}
	next := 0
	for i, pl := range s.Planets {
		if pl.Owner != p || comp[i] >= 0 {
			continue
		}
		comp[i] = next
		stack := []int{i}
		for len(stack) > 0 {
			k := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, n := range s.neighbours(k) {
				if comp[n] < 0 && s.Planets[n].Owner == p {
					comp[n] = next
					stack = append(stack, n)
				}
			}
		}
		next++
	}
	return comp
}

// move is one movement of n ships of p from planet from to planet to:
// passive to p's own planet, or an attack on a neighbour. It returns what
// happened, or why it cannot be done; the board is unchanged on error.
func (s *State) move(p string, n, from, to int) ([]engine.Event, error) {
	src, dst := &s.Planets[from], &s.Planets[to]
	switch {
	case src.Owner != p:
		var owner any = lang.M("the natives")
		if src.Owner != "" {
			owner = src.Owner
		}
		return nil, refuse(lang.M("move from one of your own planets"), lang.M("%s is not yours (it is held by %s)", src.Name, owner))
	case from == to:
		return nil, refuse(lang.M("name two different planets"), lang.M("a movement needs a destination other than %s", src.Name))
	case n < 1:
		return nil, refuse(lang.M("move 1 ship or more"), lang.M("a movement moves at least one ship"))
	case n > src.Ships:
		return nil, refuse(lang.M("move at most %d", src.Ships), lang.M("%s has %s at this point of your orders, not %d", src.Name, ships(src.Ships), n))
	}
	if dst.Owner == p {
		if !s.connectedOwn(p, from, to) {
			return nil, refuse(lang.M("attack the planets between first, or move in steps"), lang.M("no chain of your own planets joins %s to %s", src.Name, dst.Name))
		}
		if dst.Ships+n > dst.Size.Limit() {
			return nil, refuse(lang.M("move at most %d", dst.Size.Limit()-dst.Ships), lang.M("%s holds at most %s and has %d", dst.Name, ships(dst.Size.Limit()), dst.Ships))
		}
		s.tell(draw.Move, from, to, p)
		events := []engine.Event{engine.Tell(lang.M("%s moves %s from %s to %s.", p, ships(n), src.Name, dst.Name)).Concerning(p)}
		events = append(events, s.leave(from, n)...)
		dst.Ships += n
		return events, nil
	}
	if !s.adjacent(from, to) {
		return nil, refuse(lang.M("attack from a planet next to it"), lang.M("%s is not next to %s: an attack must go to a neighbouring planet", dst.Name, src.Name))
	}
	events := s.leave(from, n)
	return append(events, s.attack(p, n, from, to)...), nil
}

// leave takes n ships off planet i; a planet left empty goes back to its
// natives (004-G7).
func (s *State) leave(i, n int) []engine.Event {
	pl := &s.Planets[i]
	pl.Ships -= n
	if pl.Ships > 0 {
		return nil
	}
	owner := pl.Owner
	pl.Owner, pl.Ships = "", 0
	return []engine.Event{engine.Tell(lang.M("%s leaves %s empty: its natives take it back.", owner, pl.Name)).Concerning(owner)}
}

// attack resolves n ships of p attacking planet to (004-G5, 004-G6).
func (s *State) attack(p string, n, from, to int) []engine.Event {
	dst := &s.Planets[to]
	src := s.Planets[from].Name
	s.tell(draw.Attack, from, to, p)
	defer func() {
		// What the attack left: a fight at the planet, and who holds it.
		s.tell(draw.Battle, -1, to, "")
		switch dst.Owner {
		case p:
			s.tell(draw.Captured, -1, to, p)
		case "":
			s.tell(draw.Destroyed, -1, to, "")
		}
	}()
	if dst.Owner == "" {
		natives := lang.MN("%d native", "%d natives", dst.Size.Natives())
		if n <= dst.Size.Natives() {
			return []engine.Event{engine.Tell(lang.M("%s attacks %s (%s) from %s with %s: %s and the natives hold.", p, dst.Name, natives, src, ships(n), lang.MN("%d it is lost", "%d all are lost", n))).Concerning(p)}
		}
		dst.Owner = p
		dst.Ships = n - dst.Size.Natives()
		m := lang.M("%s attacks %s (%s) from %s with %s and takes it with %d left.", p, dst.Name, natives, src, ships(n), dst.Ships)
		return []engine.Event{engine.Tell(s.capLimit(to, m)).Concerning(p)}
	}
	def, d := dst.Owner, dst.Ships
	strength := d + 1
	// Each outcome is one message, so that a reader of another language
	// gets it whole; a planet over its limit adds one more sentence.
	args := []any{p, dst.Name, def, ships(d), src, ships(n)}
	switch {
	case n > strength:
		dst.Owner, dst.Ships = p, n-strength
		return []engine.Event{engine.Tell(s.capLimit(to, lang.M("%s attacks %s (%s: %s + 1 defence) from %s with %s and takes it with %d left.", append(args, dst.Ships)...))).Concerning(p, def)}
	case n == strength:
		dst.Owner, dst.Ships = "", 0
		return []engine.Event{engine.Tell(lang.M("%s attacks %s (%s: %s + 1 defence) from %s with %s: both sides are wiped out and the natives regain the planet.", args...)).Concerning(p, def)}
	}
	if s.Rules.Defence == "strict" {
		dst.Ships = d - n
	} else {
		dst.Ships = strength - n
	}
	if dst.Ships <= 0 {
		dst.Owner, dst.Ships = "", 0
		return []engine.Event{engine.Tell(lang.M("%s attacks %s (%s: %s + 1 defence) from %s with %s: the attack fails, no defender is left and the natives regain the planet.", args...)).Concerning(p, def)}
	}
	return []engine.Event{engine.Tell(lang.M("%s attacks %s (%s: %s + 1 defence) from %s with %s: the attack fails and %s keeps %s.", append(args, def, ships(dst.Ships))...)).Concerning(p, def)}
}

// capLimit cuts the ships on planet i to its limit (004-G8): m, the
// event that filled it, with what is lost added.
func (s *State) capLimit(i int, m lang.Msg) lang.Msg {
	pl := &s.Planets[i]
	if lim := pl.Size.Limit(); pl.Ships > lim {
		lost := pl.Ships - lim
		pl.Ships = lim
		return then(m, lang.M("%s holds at most %d: %s.", pl.Name, lim, lang.MN("%d ship is lost", "%d ships are lost", lost)))
	}
	return m
}

// then is two sentences of one event, a space between them.
func then(first, next lang.Msg) lang.Msg { return lang.M("%s %s", first, next) }
