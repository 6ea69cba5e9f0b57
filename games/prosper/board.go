package prosper

import (
	"bufio"
	"embed"
	"fmt"
	"strconv"
	"strings"

	"orrery/engine/dice"
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

// generateMap makes a random map for the player count from the default map
// of that size: the same mix of sizes shuffled over the cells (the centre
// stays large), then about one outer cell in six removed where the rest
// stays connected. Every choice is a recorded roll, so players can check it.
func generateMap(players int, d *dice.Dice) ([]Site, error) {
	base, err := loadMap(defaultMapFor(players))
	if err != nil {
		return nil, err
	}
	sizes := make([]Size, 0, len(base)-1)
	for _, s := range base[1:] {
		sizes = append(sizes, s.Size)
	}
	d.Shuffle(len(sizes), "map: sizes of the planets", func(i, j int) { sizes[i], sizes[j] = sizes[j], sizes[i] })
	sites := []Site{base[0]}
	for i, s := range base[1:] {
		sites = append(sites, Site{Name: s.Name, Hex: s.Hex, Size: sizes[i]})
	}
	holes := (len(sites) - 1) / 6
	for i := 0; i < holes; i++ {
		outer := []int{}
		ring := sites[len(sites)-1].Hex.Ring()
		for j, s := range sites {
			if s.Hex.Ring() == ring {
				outer = append(outer, j)
			}
		}
		if len(outer) == 0 {
			break
		}
		k := outer[d.Pick(len(outer), fmt.Sprintf("map: hole %d of %d among the %d outer planets", i+1, holes, len(outer)))]
		trial := append(append([]Site(nil), sites[:k]...), sites[k+1:]...)
		if connected(trial) {
			sites = trial
		}
	}
	return sites, nil
}
