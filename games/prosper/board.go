package prosper

import (
	"bufio"
	"embed"
	"fmt"
	"strconv"
	"strings"

	"orrery/engine/dice"
	"orrery/engine/lang"
)

//go:embed maps/*.txt
var mapFiles embed.FS

// Size is a planet's size: it fixes production, natives and ship limit.
type Size string

// The three sizes of the rules.
const (
	Small  Size = "S"
	Medium Size = "M"
	Large  Size = "L"
)

// Production is the ships a colonised planet adds each production phase.
func (s Size) Production() int { return map[Size]int{Small: 2, Medium: 5, Large: 8}[s] }

// Natives is the strength of the natives who hold an unoccupied planet.
func (s Size) Natives() int { return map[Size]int{Small: 0, Medium: 4, Large: 12}[s] }

// Limit is the most ships a planet can hold.
func (s Size) Limit() int { return map[Size]int{Small: 15, Medium: 30, Large: 60}[s] }

// Word is the size spelled out.
func (s Size) Word() string {
	return map[Size]string{Small: "small", Medium: "medium", Large: "large"}[s]
}

// Msg is the size spelled out, as a message: "small".
func (s Size) Msg() lang.Msg {
	switch s {
	case Small:
		return lang.M("small")
	case Medium:
		return lang.M("medium")
	}
	return lang.M("large")
}

// MsgA is the size with its article, as a message: "a small".
func (s Size) MsgA() lang.Msg {
	switch s {
	case Small:
		return lang.M("a small")
	case Medium:
		return lang.M("a medium")
	}
	return lang.M("a large")
}

// Hex is an axial hex coordinate.
type Hex struct{ Q, R int }

var directions = []Hex{{1, 0}, {1, -1}, {0, -1}, {-1, 0}, {-1, 1}, {0, 1}}

// Neighbours are the six cells around h.
func (h Hex) Neighbours() []Hex {
	out := make([]Hex, 6)
	for i, d := range directions {
		out[i] = Hex{h.Q + d.Q, h.R + d.R}
	}
	return out
}

// Ring is the distance of h from the centre.
func (h Hex) Ring() int {
	s := -h.Q - h.R
	return max(abs(h.Q), abs(h.R), abs(s))
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// Site is a planet's place and size on the map: the board as data.
type Site struct {
	Name string `json:"name"`
	Hex  Hex    `json:"hex"`
	Size Size   `json:"size"`
}

// loadMap reads a map file: one planet a line, "name q r size".
func loadMap(name string) ([]Site, error) {
	data, err := mapFiles.ReadFile("maps/" + name + ".txt")
	if err != nil {
		return nil, fmt.Errorf("no map named %q", name)
	}
	return parseMap(string(data))
}

func parseMap(text string) ([]Site, error) {
	var sites []Site
	seen := map[string]bool{}
	at := map[Hex]bool{}
	sc := bufio.NewScanner(strings.NewReader(text))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		if len(f) != 4 {
			return nil, fmt.Errorf("map line %d: want name q r size, got %q", n, line)
		}
		q, err1 := strconv.Atoi(f[1])
		r, err2 := strconv.Atoi(f[2])
		size := Size(strings.ToUpper(f[3]))
		if err1 != nil || err2 != nil || (size != Small && size != Medium && size != Large) {
			return nil, fmt.Errorf("map line %d: %q", n, line)
		}
		key := strings.ToLower(f[0])
		h := Hex{q, r}
		if seen[key] || at[h] {
			return nil, fmt.Errorf("map line %d: %s or its cell appears twice", n, f[0])
		}
		seen[key], at[h] = true, true
		sites = append(sites, Site{Name: f[0], Hex: h, Size: size})
	}
	if len(sites) == 0 {
		return nil, fmt.Errorf("the map has no planets")
	}
	if !connected(sites) {
		return nil, fmt.Errorf("the map is not connected")
	}
	return sites, nil
}

func connected(sites []Site) bool {
	at := map[Hex]bool{}
	for _, s := range sites {
		at[s.Hex] = true
	}
	seen := map[Hex]bool{sites[0].Hex: true}
	queue := []Hex{sites[0].Hex}
	for len(queue) > 0 {
		h := queue[0]
		queue = queue[1:]
		for _, n := range h.Neighbours() {
			if at[n] && !seen[n] {
				seen[n] = true
				queue = append(queue, n)
			}
		}
	}
	return len(seen) == len(sites)
}

// defaultMapFor picks the default map for a number of players (004-F1).
func defaultMapFor(players int) string {
	if players <= 3 {
		return "hex19"
	}
	return "hex37"
}

// generatedPlanets is the size of a generated map for a number of players:
// five planets a player and seven more, from 17 for two players to 37 (the
// whole radius-3 hexagon, as wide as a board can be drawn) for six.
func generatedPlanets(players int) int { return min(5*players+7, 37) }

// generateMap makes a random map for the player count: a connected cluster
// of cells grown from the centre one neighbour at a time inside the
// radius-3 hexagon, so positions and links differ from game to game, with
// the sizes of Hex-37 in proportion (the centre is always large) shuffled
// over the cells. Each cell keeps its name from hex37, so planet names are
// the same on every map. Every choice is a recorded roll of step 0, so
// players can check the map was not chosen.
func generateMap(players int, d *dice.Dice) ([]Site, error) {
	cells, err := loadMap("hex37")
	if err != nil {
		return nil, err
	}
	want := generatedPlanets(players)
	in := make([]bool, len(cells))
	at := map[Hex]int{}
	for i, c := range cells {
		at[c.Hex] = i
	}
	in[0] = true // the centre
	for n := 1; n < want; n++ {
		// The frontier in map order, so the same rolls give the same map.
		var frontier []int
		for i, c := range cells {
			if in[i] {
				continue
			}
			for _, h := range c.Hex.Neighbours() {
				if j, ok := at[h]; ok && in[j] {
					frontier = append(frontier, i)
					break
				}
			}
		}
		k := frontier[d.RollMsg(len(frontier), lang.M("map: planet %d of %d, among %s next to the map", n+1, want, lang.MN("%d cell", "%d cells", len(frontier))))-1]
		in[k] = true
	}
	// Sizes in Hex-37's proportions: 7 large and 15 medium of 37.
	large, medium := (want*7+18)/37, (want*15+18)/37
	sizes := make([]Size, 0, want-1)
	for i := 1; i < want; i++ {
		switch {
		case i < large:
			sizes = append(sizes, Large) // the centre is the first large
		case i < large+medium:
			sizes = append(sizes, Medium)
		default:
			sizes = append(sizes, Small)
		}
	}
	d.ShuffleMsg(len(sizes), lang.M("map: sizes of the planets"), func(i, j int) { sizes[i], sizes[j] = sizes[j], sizes[i] })
	sites := []Site{{Name: cells[0].Name, Hex: cells[0].Hex, Size: Large}}
	for i, c := range cells[1:] {
		if in[i+1] {
			sites = append(sites, Site{Name: c.Name, Hex: c.Hex, Size: sizes[len(sites)-1]})
		}
	}
	if !connected(sites) {
		return nil, fmt.Errorf("the generated map is not connected (a bug)")
	}
	return sites, nil
}
