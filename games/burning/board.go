package burning

import (
	"strconv"
	"strings"
)

// The board is never described by the rules (N21). We adopt 003-F1/F2 with
// smaller sections: a hex grid in "odd-r" offset layout (odd rows sit half a
// cell to the right) made of square sections of secSize × secSize cells,
// numbered row by row from 1. Eleven is the least size that holds a large
// planet (radius 4) with its six bombardment vertices (radius 5) inside its
// own section, so the board stays small enough to mail.
const secSize = 11

// Cell is one hex of the board: column X and row Y, both from 0. Players
// name it like a spreadsheet cell: column letters then row number from 1
// ("A1", "K6", "AB12").
type Cell struct {
	X int `json:"x"`
	Y int `json:"y"`
}

// String gives the player's name of c.
func (c Cell) String() string { return colName(c.X) + strconv.Itoa(c.Y+1) }

func colName(x int) string {
	if x < 26 {
		return string(rune('A' + x))
	}
	return string(rune('A'+x/26-1)) + string(rune('A'+x%26))
}

// parseCell reads a folded cell name; ok is false if s is not shaped like one.
func parseCell(s string) (Cell, bool) {
	i := 0
	for i < len(s) && s[i] >= 'A' && s[i] <= 'Z' {
		i++
	}
	if i == 0 || i > 2 || i == len(s) {
		return Cell{}, false
	}
	n, err := strconv.Atoi(s[i:])
	if err != nil || n < 1 || strings.HasPrefix(s[i:], "0") {
		return Cell{}, false
	}
	x := int(s[0] - 'A')
	if i == 2 {
		x = (x+1)*26 + int(s[1]-'A')
	}
	return Cell{X: x, Y: n - 1}, true
}

// cube coordinates make distance and directions simple on a hex grid.
func (c Cell) cube() (q, r int) { return c.X - (c.Y-(c.Y&1))/2, c.Y }

func fromCube(q, r int) Cell { return Cell{X: q + (r-(r&1))/2, Y: r} }

// dist is the number of steps between two cells.
func dist(a, b Cell) int {
	aq, ar := a.cube()
	bq, br := b.cube()
	dq, dr := aq-bq, ar-br
	return (abs(dq) + abs(dr) + abs(dq+dr)) / 2
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// directions in axial (q, r), clockwise from east: E, SE, SW, W, NW, NE.
var directions = [6][2]int{{1, 0}, {0, 1}, {-1, 1}, {-1, 0}, {0, -1}, {1, -1}}

// Grid is the board's shape: sections across and down.
type Grid struct {
	SecW int `json:"sec_w"`
	SecH int `json:"sec_h"`
}

func (g Grid) W() int        { return g.SecW * secSize }
func (g Grid) H() int        { return g.SecH * secSize }
func (g Grid) Sections() int { return g.SecW * g.SecH }

func (g Grid) in(c Cell) bool { return c.X >= 0 && c.Y >= 0 && c.X < g.W() && c.Y < g.H() }

// neighbours lists the cells next to c that are on the board, clockwise
// from east, so every search over them is deterministic.
func (g Grid) neighbours(c Cell) []Cell {
	q, r := c.cube()
	out := make([]Cell, 0, 6)
	for _, d := range directions {
		n := fromCube(q+d[0], r+d[1])
		if g.in(n) {
			out = append(out, n)
		}
	}
	return out
}

// centre is the centre cell of section s (from 1).
func (g Grid) centre(s int) Cell {
	sx, sy := (s-1)%g.SecW, (s-1)/g.SecW
	return Cell{X: sx*secSize + secSize/2, Y: sy*secSize + secSize/2}
}

// section is the number (from 1) of the section holding c.
func (g Grid) section(c Cell) int { return (c.Y/secSize)*g.SecW + c.X/secSize + 1 }

// sectionCells lists the cells of section s row by row.
func (g Grid) sectionCells(s int) []Cell {
	sx, sy := (s-1)%g.SecW, (s-1)/g.SecW
	var out []Cell
	for y := sy * secSize; y < (sy+1)*secSize; y++ {
		for x := sx * secSize; x < (sx+1)*secSize; x++ {
			out = append(out, Cell{x, y})
		}
	}
	return out
}

// gridFor is PROPOSAL 003-F1's table of sections by player count.
func gridFor(players int) Grid {
	switch {
	case players <= 2:
		return Grid{3, 2}
	case players == 3:
		return Grid{4, 2}
	case players == 4:
		return Grid{4, 3}
	default:
		return Grid{5, 4}
	}
}

// radius of a planet by size (003-F2): small 2, medium 3, large 4.
func radius(size int) int { return size + 1 }

// hexCells lists the cells within distance r of c, row by row.
func hexCells(c Cell, r int) []Cell {
	out := make([]Cell, 0, 3*r*(r+1)+1) // a hexagon of radius r
	for y := c.Y - r; y <= c.Y+r; y++ {
		for x := c.X - r - 1; x <= c.X+r+1; x++ {
			if n := (Cell{x, y}); dist(c, n) <= r {
				out = append(out, n)
			}
		}
	}
	return out
}

// vertices are the six cells straight out from a planet's corners, one step
// beyond its border: where a bombarding formation stands (003-F2).
func vertices(c Cell, r int) []Cell {
	q, rr := c.cube()
	out := make([]Cell, 6)
	for i, d := range directions {
		out[i] = fromCube(q+d[0]*(r+1), rr+d[1]*(r+1))
	}
	return out
}

func cellList(cs []Cell) string {
	names := make([]string, len(cs))
	for i, c := range cs {
		names[i] = c.String()
	}
	return strings.Join(names, " ")
}
