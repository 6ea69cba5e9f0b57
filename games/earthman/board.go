package earthman

import (
	"sort"
	"strings"

	"orrery/engine/lang"
)

// Kind tells a world from the three rings of trajectories. The names are the
// full rules' (001-F2): the first edition only says "trajectory".
type Kind int

const (
	// World is a world's locale (its orbit, in the full rules) and regions.
	World Kind = iota
	// Approach trajectories lead straight to worlds.
	Approach
	// Interplanetary trajectories lead to Approach trajectories.
	Interplanetary
	// SolarSystem is the single trajectory at the centre of the disc.
	SolarSystem
)

func (k Kind) String() string {
	return [...]string{"world", "Approach", "Interplanetary", "Solar System"}[k]
}

// msg is the kind's name as a message, for a board drawn in another
// language.
func (k Kind) msg() lang.Msg {
	switch k {
	case Approach:
		return lang.M("Approach")
	case Interplanetary:
		return lang.M("Interplanetary")
	case SolarSystem:
		return lang.M("Solar System")
	}
	return lang.M("world")
}

// Place is one node of the board: a world or a trajectory.
type Place struct {
	Name    string
	Tag     string // two-letter tag used in the disc drawing
	Kind    Kind
	Regions int    // worlds only: 2–7
	Hostile bool   // Venus and Io (1.3 of the full rules)
	Parent  string // one move skyward; "" for the centre
}

// Board is the shared map of both editions, as data (000-F1, 000-F2): ten
// worlds around the rim and ten trajectories arranged as a tree whose root
// is the centre. Moving away from the root is worldward; towards it skyward.
// Skyward from a world is therefore unique, and worldward moves branch.
type Board struct {
	Places []Place // board order: the centre first, worlds last
	index  map[string]int
}

// StandardBoard returns the board of 000-F1/000-F2. Board order (the order
// of Places) is also the order in which default routes pick a branch.
func StandardBoard() *Board {
	b := &Board{Places: []Place{
		{Name: "Solar", Kind: SolarSystem},
		{Name: "Inner", Kind: Interplanetary, Parent: "Solar"},
		{Name: "Middle", Kind: Interplanetary, Parent: "Solar"},
		{Name: "Outer", Kind: Interplanetary, Parent: "Solar"},
		{Name: "Hermean", Kind: Approach, Parent: "Inner"},
		{Name: "Cislunar", Kind: Approach, Parent: "Inner"},
		{Name: "Martian", Kind: Approach, Parent: "Middle"},
		{Name: "Belt", Kind: Approach, Parent: "Middle"},
		{Name: "Jovian", Kind: Approach, Parent: "Outer"},
		{Name: "Kronian", Kind: Approach, Parent: "Outer"},
		{Name: "Mercury", Kind: World, Regions: 2, Parent: "Hermean"},
		{Name: "Venus", Kind: World, Regions: 4, Hostile: true, Parent: "Hermean"},
		{Name: "Earth", Kind: World, Regions: 7, Parent: "Cislunar"},
		{Name: "Luna", Kind: World, Regions: 3, Parent: "Cislunar"},
		{Name: "Mars", Kind: World, Regions: 5, Parent: "Martian"},
		{Name: "Ceres", Kind: World, Regions: 2, Parent: "Belt"},
		{Name: "Io", Kind: World, Regions: 3, Hostile: true, Parent: "Jovian"},
		{Name: "Europa", Kind: World, Regions: 3, Parent: "Jovian"},
		{Name: "Ganymede", Kind: World, Regions: 4, Parent: "Jovian"},
		{Name: "Titan", Kind: World, Regions: 5, Parent: "Kronian"},
	}}
	b.index = map[string]int{}
	for i, p := range b.Places {
		b.index[strings.ToLower(p.Name)] = i
	}
	return b
}

// board is the one board both editions play on. It is never modified.
var board = StandardBoard()

// Get returns the place called name (any case).
func (b *Board) Get(name string) (Place, bool) {
	i, ok := b.index[strings.ToLower(name)]
	if !ok {
		return Place{}, false
	}
	return b.Places[i], true
}

// Worlds lists the worlds in board order.
func (b *Board) Worlds() []Place { return b.filter(func(p Place) bool { return p.Kind == World }) }

// Trajectories lists the trajectories in board order, centre first.
func (b *Board) Trajectories() []Place {
	return b.filter(func(p Place) bool { return p.Kind != World })
}

func (b *Board) filter(keep func(Place) bool) []Place {
	var out []Place
	for _, p := range b.Places {
		if keep(p) {
			out = append(out, p)
		}
	}
	return out
}

// Children lists the places one move worldward of name, in board order.
func (b *Board) Children(name string) []string {
	var out []string
	for _, p := range b.Places {
		if strings.EqualFold(p.Parent, name) && p.Parent != "" {
			out = append(out, p.Name)
		}
	}
	return out
}

// Skyward lists the trajectories reachable from name by moving skyward, the
// nearest first.
func (b *Board) Skyward(name string) []string {
	var out []string
	p, ok := b.Get(name)
	for ok && p.Parent != "" {
		out = append(out, p.Parent)
		p, ok = b.Get(p.Parent)
	}
	return out
}

// Names returns every place name, sorted, for suggestions.
func (b *Board) Names(keep func(Place) bool) []string {
	var out []string
	for _, p := range b.Places {
		if keep == nil || keep(p) {
			out = append(out, p.Name)
		}
	}
	sort.Strings(out)
	return out
}

// StepToward returns the place one move worldward of from on the way to
// to, which must lie worldward of from ("" if it does not).
func (b *Board) StepToward(from, to string) string {
	p, ok := b.Get(to)
	for ok && p.Parent != "" {
		if strings.EqualFold(p.Parent, from) {
			return p.Name
		}
		p, ok = b.Get(p.Parent)
	}
	return ""
}
