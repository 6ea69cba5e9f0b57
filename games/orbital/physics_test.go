package orbital

import (
	"fmt"
	"testing"

	"orrery/engine/dice"
)

// flight is a board with one Bus and nothing else, for the movement rules.
func flight(ring, sextant, offset int, ccw bool, v int) (*State, *Unit) {
	s := &State{Opts: map[string]string{}, TurnN: 1, rings: standardRings,
		Players: []Player{{Name: "ann"}, {Name: "bob"}}}
	for _, o := range options {
		s.Opts[o.Name] = o.Default
	}
	at := hexAt(ring, sextant, offset)
	u := s.add("ann", Bus, nil, at, v, tangent(at, ccw))
	return s, u
}

// fly runs Phase 1 of one turn with an optional thrust; no die may roll.
func fly(t *testing.T, s *State, u *Unit, dv int) {
	t.Helper()
	d := dice.FromSource(dice.Scripted{})
	tr := &turn{s: s, d: d, orders: map[string][]order{}, parked: map[string]bool{}}
	if dv != 0 {
		tr.orders["ann"] = []order{{Verb: "THRUST", Unit: u.ID, N: dv}}
	}
	tr.thrusts()
	for imp := 1; imp <= 7; imp++ {
		tr.impulse(imp)
	}
	tr.gravity()
	s.TurnN++
	if d.Err() != nil || len(d.Rolls()) > 0 {
		t.Fatalf("movement rolled dice: %v %v", d.Err(), d.Rolls())
	}
}

func alive(s *State, u *Unit) bool { return s.unit(u.ID) != nil }

// A craft at its ring's green speed on a tangential vector stays on the ring
// for good, from every hex of every ring, both ways round (002-F1).
func TestStableOrbits(t *testing.T) {
	for ring := 1; ring <= Radius; ring++ {
		for _, ccw := range []bool{true, false} {
			for k := 0; k < 6*ring; k++ {
				g := standardRings.Green[ring]
				s, u := flight(ring, k/ring, k%ring, ccw, g)
				for turn := 0; turn < 20; turn++ {
					fly(t, s, u, 0)
					if u.Hex.ring() != ring || u.V != g || u.F != tangent(u.Hex, ccw) {
						t.Fatalf("ring %d ccw=%v offset %d: turn %d at %s (ring %d) v%d %s", ring, ccw, k, turn+1,
							u.Hex.Name(), u.Hex.ring(), u.V, dirNames[u.F])
					}
				}
			}
		}
	}
}

// A +1 burn raises the orbit exactly one ring, where the craft settles at
// the new ring's speed (the capture rule of 002-F1).
func TestBurnRaisesOneRing(t *testing.T) {
	for ring := 1; ring < Radius; ring++ {
		for _, ccw := range []bool{true, false} {
			for k := 0; k < 6*ring; k++ {
				s, u := flight(ring, k/ring, k%ring, ccw, standardRings.Green[ring])
				fly(t, s, u, +1)
				for turn := 0; turn < 12; turn++ {
					fly(t, s, u, 0)
				}
				want := standardRings.Green[ring+1]
				if u.Hex.ring() != ring+1 || u.V != want || u.F != tangent(u.Hex, ccw) {
					t.Errorf("ring %d ccw=%v offset %d: after the burn at %s (ring %d) v%d %s, want ring %d v%d tangential",
						ring, ccw, k, u.Hex.Name(), u.Hex.ring(), u.V, dirNames[u.F], ring+1, want)
				}
			}
		}
	}
}

// A −1 burn, then next turn +(g(r−1) − g(r) + 1), lowers the orbit one ring
// (the gravity-blue rule of 002-F1).
func TestBurnLowersOneRing(t *testing.T) {
	for ring := 2; ring <= Radius; ring++ {
		for _, ccw := range []bool{true, false} {
			for k := 0; k < 6*ring; k++ {
				g := standardRings.Green
				s, u := flight(ring, k/ring, k%ring, ccw, g[ring])
				fly(t, s, u, -1)
				if u.Hex.ring() != ring-1 {
					t.Fatalf("ring %d ccw=%v offset %d: after −1 at ring %d", ring, ccw, k, u.Hex.ring())
				}
				fly(t, s, u, g[ring-1]-g[ring]+1)
				for turn := 0; turn < 12; turn++ {
					fly(t, s, u, 0)
				}
				if u.Hex.ring() != ring-1 || u.V != g[ring-1] || u.F != tangent(u.Hex, ccw) {
					t.Errorf("ring %d ccw=%v offset %d: at %s (ring %d) v%d %s, want ring %d v%d tangential",
						ring, ccw, k, u.Hex.Name(), u.Hex.ring(), u.V, dirNames[u.F], ring-1, g[ring-1])
				}
			}
		}
	}
}

// Below orbital speed a craft decays a ring a turn into the planet.
func TestDecay(t *testing.T) {
	s, u := flight(5, 0, 2, true, 2)
	var rings []int
	for turn := 0; turn < 6 && alive(s, u); turn++ {
		fly(t, s, u, 0)
		if alive(s, u) {
			rings = append(rings, u.Hex.ring())
		}
	}
	if fmt.Sprint(rings) != "[4 3 2 1]" || alive(s, u) {
		t.Errorf("decay went through rings %v, alive %v; want [4 3 2 1] then the planet", rings, alive(s, u))
	}
}
