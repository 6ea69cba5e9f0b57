package burning

import (
	"fmt"
	"strings"
)

// Res is an amount of the four resources: Biomass, Cement, Food, Metal.
type Res struct {
	B int `json:"b"`
	C int `json:"c"`
	F int `json:"f"`
	M int `json:"m"`
}

func (r Res) add(o Res) Res   { return Res{r.B + o.B, r.C + o.C, r.F + o.F, r.M + o.M} }
func (r Res) sub(o Res) Res   { return Res{r.B - o.B, r.C - o.C, r.F - o.F, r.M - o.M} }
func (r Res) times(n int) Res { return Res{r.B * n, r.C * n, r.F * n, r.M * n} }
func (r Res) covers(o Res) bool {
	return r.B >= o.B && r.C >= o.C && r.F >= o.F && r.M >= o.M
}
func (r Res) zero() bool { return r == Res{} }

// String writes r as orders and reports do: "10B 5C", "0" when empty.
func (r Res) String() string {
	var parts []string
	for _, p := range []struct {
		n int
		l string
	}{{r.B, "B"}, {r.C, "C"}, {r.F, "F"}, {r.M, "M"}} {
		if p.n != 0 {
			parts = append(parts, fmt.Sprintf("%d%s", p.n, p.l))
		}
	}
	if len(parts) == 0 {
		return "0"
	}
	return strings.Join(parts, " ")
}

// Ship classes. Cargo ships never attack (they defend with a d6).
const (
	Small  = "small"
	Medium = "medium"
	Large  = "large"
	Huge   = "huge"
	Cargo  = "cargo"
)

var classes = []string{Small, Medium, Large, Huge, Cargo}

// Structures on planets (ordinary and defensive), tiles, and space structures.
const (
	Forest     = "forest"
	Mountain   = "mountain"
	Furnace    = "furnace"
	Greenhouse = "greenhouse"
	Spaceport  = "spaceport"
	CannonS    = "cannon"
	Tower      = "tower"
	Rig        = "rig"
	Habitat    = "habitat"
	Station    = "station"
)

// Unit is one printed row: attack (or defence) die, shield, speed, price.
type Unit struct {
	Name   string `json:"name"`
	Die    int    `json:"die"`
	Shield int    `json:"shield"`
	Speed  int    `json:"speed"`
	Price  Res    `json:"price"`
}

// Faction is one of the three price tables, exactly as printed (003-G25,
// N7: odd prices such as the Xenos' 10 M drilling rig are kept).
type Faction struct {
	Name   string
	Home   string // home biome
	Ships  map[string]Unit
	Builds map[string]Unit // planet structures and space structures
}

var factionNames = []string{"humans", "digitals", "xenos"}

func shipsOf(names [5]string, prices [5]Res) map[string]Unit {
	dice := [5]int{4, 6, 8, 20, 6}
	shields := [5]int{0, 1, 3, 6, 2}
	speeds := [5]int{4, 3, 2, 1, 3}
	out := map[string]Unit{}
	for i, c := range classes {
		out[c] = Unit{Name: names[i], Die: dice[i], Shield: shields[i], Speed: speeds[i], Price: prices[i]}
	}
	return out
}

func buildsOf(spaceport, cannon, tower, station Res) map[string]Unit {
	return map[string]Unit{
		Furnace:    {Name: "Blast furnace", Price: Res{C: 10}},
		Greenhouse: {Name: "Greenhouse", Price: Res{B: 10}},
		Spaceport:  {Name: "Spaceport", Price: spaceport},
		CannonS:    {Name: "Cannon", Die: 8, Shield: 4, Price: cannon},
		Tower:      {Name: "Tower", Die: 12, Shield: 6, Price: tower},
		Rig:        {Name: "Drilling rig", Die: 4, Shield: 2, Price: Res{M: 10}},
		Habitat:    {Name: "Habitat", Die: 4, Shield: 2, Price: Res{F: 10}},
		Station:    {Name: "Orbital station", Die: 8, Shield: 4, Price: station},
	}
}

var factions = map[string]Faction{
	"humans": {Name: "Humans", Home: Fair,
		Ships: shipsOf([5]string{"Spear", "Hammer", "Eagle", "Obliterator", "Cargo ship"},
			[5]Res{{M: 5, F: 5}, {M: 10, F: 10}, {M: 20, F: 20}, {M: 100, F: 100}, {M: 15, F: 15}}),
		Builds: buildsOf(Res{C: 5, M: 5}, Res{M: 10, C: 10}, Res{M: 50, C: 50}, Res{M: 10, F: 10})},
	"digitals": {Name: "Digitals", Home: Harsh,
		Ships: shipsOf([5]string{"Byte", "Kilo", "Mega", "Tera", "Cargo ship"},
			[5]Res{{M: 10}, {M: 20}, {M: 40}, {M: 200}, {M: 30}}),
		Builds: buildsOf(Res{C: 5, M: 5}, Res{M: 10, C: 10}, Res{M: 50, C: 50}, Res{M: 20})},
	"xenos": {Name: "Xenos", Home: Water,
		Ships: shipsOf([5]string{"Scout", "Hunter", "Butcher", "Devourer", "Cargo ship"},
			[5]Res{{F: 10}, {F: 20}, {F: 40}, {F: 200}, {F: 30}}),
		Builds: buildsOf(Res{B: 5, F: 5}, Res{F: 10, B: 10}, Res{F: 50, B: 50}, Res{F: 20})},
}

// Biomes (d6: 1–2 Fair, 3–4 Harsh, 5–6 Water).
const (
	Fair  = "fair"
	Harsh = "harsh"
	Water = "water"
)

// allowed reports whether kind may be built on a planet of biome
// (003-G1/G2: Harsh has no greenhouses, Water no blast furnaces).
func allowed(biome, kind string) bool {
	switch {
	case biome == Harsh && kind == Greenhouse:
		return false
	case biome == Water && kind == Furnace:
		return false
	}
	return true
}

func isDefence(kind string) bool { return kind == CannonS || kind == Tower }
func isTile(kind string) bool    { return kind == Forest || kind == Mountain }
func isPlanetBuild(kind string) bool {
	switch kind {
	case Furnace, Greenhouse, Spaceport, CannonS, Tower:
		return true
	}
	return false
}
func isSpaceStruct(kind string) bool { return kind == Rig || kind == Habitat || kind == Station }

// shots is how often a structure may fire in its owner's turn: defences
// twice (RULE), rigs and habitats once (RULE), stations twice (003-G9).
func shots(kind string) int {
	switch kind {
	case CannonS, Tower, Station:
		return 2
	case Rig, Habitat:
		return 1
	}
	return 0
}

// product is what one tile or structure yields per turn.
func product(kind string) Res {
	switch kind {
	case Forest:
		return Res{B: 1}
	case Mountain:
		return Res{C: 1}
	case Furnace:
		return Res{M: 1}
	case Greenhouse:
		return Res{F: 1}
	case Rig:
		return Res{C: 1, M: 1}
	case Habitat:
		return Res{B: 1, F: 1}
	}
	return Res{}
}
