package orbital

import (
	"fmt"
	"strconv"
	"strings"
)

// Hex is an axial coordinate (q, r); the planet is (0, 0). Rows (r) grow
// downward on the printed board, so direction 0 is east and the directions
// turn counter-clockwise as the index grows (002-F1: cube/axial coordinates).
type Hex struct {
	Q int `json:"q"`
	R int `json:"r"`
}

// dirs are the six facings: E, NE, NW, W, SW, SE. Index +1 turns a vector
// one facing counter-clockwise.
var dirs = [6]Hex{{1, 0}, {1, -1}, {0, -1}, {-1, 0}, {-1, 1}, {0, 1}}

var dirNames = [6]string{"E", "NE", "NW", "W", "SW", "SE"}

func (h Hex) add(o Hex) Hex      { return Hex{h.Q + o.Q, h.R + o.R} }
func (h Hex) scale(k int) Hex    { return Hex{h.Q * k, h.R * k} }
func (h Hex) step(f int) Hex     { return h.add(dirs[mod6(f)]) }
func mod6(f int) int             { return ((f % 6) + 6) % 6 }
func abs(x int) int              { return max(x, -x) }
func (h Hex) ring() int          { return max(abs(h.Q), abs(h.R), abs(h.Q+h.R)) }
func dist(a, b Hex) int          { return Hex{a.Q - b.Q, a.R - b.R}.ring() }
func (h Hex) planar() (x, y int) { return 2*h.Q + h.R, h.R } // x in half hexes; y in rows (×√3 in length)

// Radius is the outermost ring of the map (002-F1: radius 10, 331 hexes).
const Radius = 10

// Rings holds the printed numbers of each ring as data, so that a designer
// can swap the tables (002-F1). Index 0 is the planet.
type Rings struct {
	Green  [Radius + 1]int  // orbital speed
	White  [Radius + 1]int  // velocity lost when climbing out of the ring
	Blue   [Radius + 1]int  // on the six corner hexes; side hexes have none
	Debris [Radius + 1]bool // shaded debris rings (002-F3)
}

// standardRings are the worked numbers of 002-F1, checked by simulation.
var standardRings = func() Rings {
	var r Rings
	green := []int{0, 5, 4, 3, 3, 3, 2, 2, 2, 2, 2}
	for i := 1; i <= Radius; i++ {
		r.Green[i] = green[i]
		next := 2 // beyond the map the ring speed stays 2
		if i < Radius {
			next = green[i+1]
		}
		r.White[i] = green[i] - next + 1
		r.Blue[i] = green[i] + 1
	}
	r.Debris[4], r.Debris[7] = true, true
	return r
}()

// corner reports whether h is one of the six corner hexes of its ring, and
// which sextant it heads.
func corner(h Hex) (int, bool) {
	n := h.ring()
	if n == 0 {
		return 0, false
	}
	for s := 0; s < 6; s++ {
		if dirs[s].scale(n) == h {
			return s, true
		}
	}
	return 0, false
}

// sextantOf returns (sextant, offset) of h in its ring: h = n·dir[s] +
// k·dir[s+2], 0 ≤ k < n (002-F5; offset 0 is the corner).
func sextantOf(h Hex) (int, int) {
	n := h.ring()
	for s := 0; s < 6; s++ {
		c := dirs[s].scale(n)
		for k := 0; k < n; k++ {
			if c.add(dirs[(s+2)%6].scale(k)) == h {
				return s, k
			}
		}
	}
	return 0, 0
}

// hexAt is the inverse of sextantOf.
func hexAt(ring, s, k int) Hex { return dirs[s].scale(ring).add(dirs[(s+2)%6].scale(k)) }

// Name is how orders and reports write a hex: ring, sextant letter A–F and
// offset from the sextant's corner: "5A0" is the east corner of ring 5,
// "5A3" three hexes on counter-clockwise. The planet is "P".
func (h Hex) Name() string {
	n := h.ring()
	if n == 0 {
		return "P"
	}
	s, k := sextantOf(h)
	return fmt.Sprintf("%d%c%d", n, 'A'+s, k)
}

// parseHex reads a hex name written by Name.
func parseHex(s string) (Hex, error) {
	s = strings.ToUpper(strings.TrimSpace(s))
	if s == "P" {
		return Hex{}, nil
	}
	i := strings.IndexAny(s, "ABCDEF")
	if i <= 0 || i == len(s)-1 {
		return Hex{}, fmt.Errorf("%q is not a hex name", s)
	}
	n, err1 := strconv.Atoi(s[:i])
	k, err2 := strconv.Atoi(s[i+1:])
	if err1 != nil || err2 != nil || n < 1 || n > Radius || k < 0 || k >= n {
		return Hex{}, fmt.Errorf("%q is not a hex name", s)
	}
	return hexAt(n, int(s[i]-'A'), k), nil
}

// green, white and blue give the numbers printed on hex h. Blue is 0 on side
// hexes (002-F1).
func (m Rings) green(h Hex) int {
	if n := h.ring(); n <= Radius {
		return m.Green[n]
	}
	return 2
}

func (m Rings) white(h Hex) int {
	if n := h.ring(); n <= Radius {
		return m.White[n]
	}
	return 1
}

func (m Rings) blue(h Hex) int {
	if _, ok := corner(h); ok && h.ring() <= Radius {
		return m.Blue[h.ring()]
	}
	return 0
}

// towardPlanet says how vector f relates to the pull of gravity at h:
// +1 or −1 is the one-facing turn that brings it nearer the planet, 0 means
// it points straight at the planet (no turn) and up=true means it flies up
// the well (002-G6: the facing strictly closest to radially outward; on a
// tie neither counts, or a climb onto a mid-side hex could never be
// captured).
// Everything is integer arithmetic on (2q+r, r√3), so no float can differ
// between machines.
func towardPlanet(h Hex, f int) (turn int, up bool) {
	px, py := h.planar()
	px, py = -px, -py // toward the planet
	vx, vy := dirs[mod6(f)].planar()
	dot := vx*px + 3*vy*py
	// y grows downward on the board, so the screen cross product flips sign.
	cross := -(vx*py - vy*px)
	norm := px*px + 3*py*py
	if dot < 0 && dot*dot > 3*norm {
		return 0, true
	}
	switch {
	case cross > 0:
		return 1, false
	case cross < 0:
		return -1, false
	}
	return 0, false
}

// inward returns the neighbour of h one ring nearer the planet that lies
// closest to vector f; on a tie the clockwise one (002-G7).
func inward(h Hex, f int) Hex {
	n := h.ring()
	best, bestD := Hex{}, 99
	for _, off := range []int{0, -1, 1, -2, 2, 3} { // clockwise first on ties
		g := mod6(f + off)
		nb := h.step(g)
		if nb.ring() == n-1 && abs(off) < bestD {
			best, bestD = nb, abs(off)
		}
	}
	return best
}

// tangent is the facing that keeps a craft on its ring at h: counter-
// clockwise (ccw) or clockwise.
func tangent(h Hex, ccw bool) int {
	s, k := sextantOf(h)
	if ccw {
		return (s + 2) % 6
	}
	if k == 0 {
		return (s + 4) % 6
	}
	return (s + 5) % 6
}

// blocked reports whether the planet hides b from a (002-F21): the straight
// line between hex centres crosses the planet hex. The line is walked twice,
// nudged to either side, so a line along a hex edge counts as clear unless
// both sides are the planet. Integer arithmetic throughout.
func blocked(a, b Hex) bool {
	n := dist(a, b)
	if n <= 1 || a == (Hex{}) || b == (Hex{}) {
		return false
	}
	hit := func(nudge int) bool {
		const k = 1000000
		d := n * k
		ax, ay, az := a.Q, a.R, -a.Q-a.R
		bx, by, bz := b.Q, b.R, -b.Q-b.R
		for i := 1; i < n; i++ {
			x := (ax*(n-i)+bx*i)*k + nudge
			y := (ay*(n-i)+by*i)*k + 2*nudge
			z := (az*(n-i)+bz*i)*k - 3*nudge
			if cubeRound(x, y, z, d) == (Hex{}) {
				return true
			}
		}
		return false
	}
	return hit(1) && hit(-1)
}

// cubeRound rounds the cube point (x, y, z)/d to a hex.
func cubeRound(x, y, z, d int) Hex {
	rx, ry, rz := roundDiv(x, d), roundDiv(y, d), roundDiv(z, d)
	dx, dy, dz := abs(rx*d-x), abs(ry*d-y), abs(rz*d-z)
	switch {
	case dx > dy && dx > dz:
		rx = -ry - rz
	case dy > dz:
		ry = -rx - rz
	}
	return Hex{rx, ry}
}

func roundDiv(x, d int) int {
	if x >= 0 {
		return (2*x + d) / (2 * d)
	}
	return -((-2*x + d) / (2 * d))
}

// allHexes lists the map in ring order, for stable iteration.
func allHexes() []Hex {
	out := []Hex{{}}
	for n := 1; n <= Radius; n++ {
		for s := 0; s < 6; s++ {
			for k := 0; k < n; k++ {
				out = append(out, hexAt(n, s, k))
			}
		}
	}
	return out
}

func parseDir(s string) (int, bool) {
	for i, n := range dirNames {
		if strings.EqualFold(n, s) {
			return i, true
		}
	}
	return 0, false
}
