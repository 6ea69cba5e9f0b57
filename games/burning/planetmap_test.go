package burning

import (
	"fmt"
	"testing"
)

// The board and the picture look planets up in planetMap; it must say what
// planetAt says for every cell of every generated galaxy.
func TestPlanetMapIsPlanetAt(t *testing.T) {
	for seed := 0; seed < 30; seed++ {
		n := 2 + seed%5
		players := []string{"ann", "bob", "cy", "dee", "eve", "fay"}[:n]
		s := newGame(t, players, nil, fmt.Sprint("planetmap-", seed))
		m := s.planetMap()
		g := s.Grid
		planets := 0
		for y := 0; y < g.H(); y++ {
			for x := 0; x < g.W(); x++ {
				c := Cell{x, y}
				if got, want := m[y*g.W()+x], s.planetAt(c); got != want {
					t.Fatalf("seed %d, cell %v: planetMap has %v, planetAt %v", seed, c, got, want)
				}
				if m[y*g.W()+x] != nil {
					planets++
				}
			}
		}
		if planets == 0 {
			t.Fatalf("seed %d: no planet cells at all", seed)
		}
	}
}
