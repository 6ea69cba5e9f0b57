package burning

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"orrery/engine"
)

// Bot plays a simple greedy game: it builds a spaceport, then furnaces,
// greenhouses and cannons; it builds warships and sends them to the nearest
// planet that is not its own, attacking what stands next to them and
// conquering what it touches. Every candidate line is checked by the same
// dry run Parse uses, so the text always parses. It reads only its view.
func (ruleset) Bot(ev engine.View, p engine.Prompt, r *rand.Rand) string {
	v, ok := ev.(view)
	if !ok || p.Kind != engine.KindStep {
		return ""
	}
	s, me := v.s, p.Player
	t := newTurn(s, me, nil)
	var out []string
	try := func(line string) bool {
		o, pr := parseLine(line)
		if pr != nil {
			return false
		}
		if t.do(&o, len(out)+1) != nil {
			return false
		}
		out = append(out, o.String())
		return true
	}
	for _, c := range s.Contracts {
		if c.To == me && !c.Accepted && r.IntN(2) == 0 {
			try(fmt.Sprintf("ACCEPT %d", c.ID))
		}
	}
	if r.IntN(30) == 0 && len(s.Seats) > 2 {
		try(fmt.Sprintf("ALLY %s", s.Seats[r.IntN(len(s.Seats))]))
	}
	// Building: one structure per own planet.
	for _, pl := range s.Planets {
		if pl.Owner != me {
			continue
		}
		want := []string{Spaceport, Furnace, Greenhouse, CannonS}
		r.Shuffle(len(want), func(i, j int) { want[i], want[j] = want[j], want[i] })
		if pl.count(Spaceport) == 0 {
			want = append([]string{Spaceport}, want...)
		}
		cells := hexCells(pl.Centre, pl.radius())
	kinds:
		for _, kind := range want {
			for k := 0; k < 8; k++ {
				c := cells[r.IntN(len(cells))]
				if try(fmt.Sprintf("BUILD %s AT %s", kind, c)) {
					break kinds
				}
			}
		}
	}
	// Space structures for cargo ships at home (bought before ships are
	// built, as Parse orders the lines).
	for _, sh := range s.Ships {
		for _, pl := range s.Planets {
			if sh.Owner == me && sh.Class == Cargo && pl.Owner == me && pl.touches(sh.Cell) && r.IntN(2) == 0 {
				try(fmt.Sprintf("BUY %s AT %s FOR %d", []string{Rig, Habitat, Station}[r.IntN(3)], pl.Name, sh.ID))
			}
		}
	}
	// Ship building.
	for _, pl := range s.Planets {
		if pl.Owner == me && pl.count(Spaceport) > 0 {
			cls := []string{Small, Small, Medium, Large, Cargo}[r.IntN(5)]
			try(fmt.Sprintf("MAKE %d %s AT %s", 1+r.IntN(2), cls, pl.Name))
		}
	}
	// Structures fire at whatever enemy ship is next to them.
	for _, pl := range s.Planets {
		if pl.Owner != me {
			continue
		}
		for _, st := range pl.Sites {
			if isDefence(st.Kind) {
				for _, n := range s.Grid.neighbours(st.Cell) {
					if sh := s.shipAt(n); sh != nil && sh.Owner != me {
						try(fmt.Sprintf("FIRE %s AT %d", st.Cell, sh.ID))
					}
				}
			}
		}
	}
	// Ships.
	for _, sh := range s.Ships {
		if sh.Owner != me {
			continue
		}
		pos := sh.Cell
		for a := 0; a < 2; a++ {
			if !v.botAction(t, sh, pos, r, try, &pos) {
				break
			}
		}
	}
	return strings.Join(out, "\n")
}

// botAction tries one action for sh standing at pos; a move updates pos.
func (v view) botAction(t *turn, sh *Ship, pos Cell, r *rand.Rand, try func(string) bool, newPos *Cell) bool {
	s := v.s
	if pos == sh.Cell {
		for _, n := range s.Grid.neighbours(pos) {
			if o := s.shipAt(n); o != nil && o.Owner != sh.Owner && sh.Class != Cargo {
				return try(fmt.Sprintf("SHIP %d ATTACK %d", sh.ID, o.ID))
			}
		}
		for _, pl := range s.Planets {
			if pl.Owner != sh.Owner && pl.touches(pos) {
				if try(fmt.Sprintf("SHIP %d CONQUER %s", sh.ID, pl.Name)) {
					return true
				}
				for _, st := range pl.Sites {
					if isDefence(st.Kind) && dist(st.Cell, pos) == 1 && try(fmt.Sprintf("SHIP %d ATTACK %s", sh.ID, st.Cell)) {
						return true
					}
					if !isTile(st.Kind) && !isDefence(st.Kind) && try(fmt.Sprintf("SHIP %d RAZE %s", sh.ID, st.Cell)) {
						return true
					}
				}
			}
		}
	}
	if sh.Class == Cargo && pos == sh.Cell {
		if v.cargoAction(t, sh, r, try) {
			return true
		}
	}
	// Move towards the nearest planet not ours.
	var goal *Planet
	for _, pl := range s.Planets {
		if pl.Owner != sh.Owner && (goal == nil || dist(pl.Centre, pos) < dist(goal.Centre, pos)) {
			goal = pl
		}
	}
	if goal == nil {
		return false
	}
	speed := s.unit(sh).Speed
	best, bd := pos, dist(pos, goal.Centre)
	for _, c := range hexCells(pos, speed) {
		if c != pos && s.Grid.in(c) && s.free(c) && dist(c, goal.Centre) < bd && s.reachableFrom(pos, c, speed, sh.Cell) {
			best, bd = c, dist(c, goal.Centre)
		}
	}
	if best == pos || r.IntN(10) == 0 {
		return false
	}
	if try(fmt.Sprintf("SHIP %d MOVE %s", sh.ID, best)) {
		*newPos = best
		return true
	}
	return false
}

// reachableFrom is reachable for a ship that has already left cell
// vacated earlier in the same orders.
func (s *State) reachableFrom(from, to Cell, steps int, vacated Cell) bool {
	return s.path(from, to, steps, func(c Cell) bool { return c == vacated && c != from })
}

// cargoAction loads, delivers, buys or deploys when the cargo ship can.
func (v view) cargoAction(t *turn, sh *Ship, r *rand.Rand, try func(string) bool) bool {
	s := v.s
	for _, n := range s.Grid.neighbours(sh.Cell) {
		if try(fmt.Sprintf("SHIP %d DEPLOY %s", sh.ID, n)) {
			return true
		}
	}
	for _, pl := range s.Planets {
		if !pl.touches(sh.Cell) {
			continue
		}
		if pl.Owner != "" && pl.Owner != sh.Owner && try(fmt.Sprintf("SHIP %d UNLOAD %s %s", sh.ID, pl.Name, sh.Cargo)) {
			return true
		}
		if pl.Owner != "" && pl.Owner != sh.Owner && r.IntN(4) == 0 {
			try(fmt.Sprintf("OFFER %s SHIP %d GIVE 1B GET 1C", pl.Owner, sh.ID))
		}
		if pl.Owner != "" && pl.Owner != sh.Owner && try(fmt.Sprintf("SHIP %d LOAD %s 1C", sh.ID, pl.Name)) {
			return true
		}
		if pl.Owner == sh.Owner {
			bank := t.avail()
			amt := Res{B: bank.B / 4, C: bank.C / 4, F: bank.F / 4, M: bank.M / 4}
			if !amt.zero() && r.IntN(2) == 0 && try(fmt.Sprintf("SHIP %d LOAD %s %s", sh.ID, pl.Name, amt)) {
				return true
			}
		}
	}
	return false
}
