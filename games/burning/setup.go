package burning

import (
	"fmt"
	"sort"
	"strings"

	"orrery/engine"
	"orrery/engine/dice"
	"orrery/engine/lang"
)

// Manual home placement (option home_placement=player; 003-B4, 003-B6).
// The dice still say how many forests and mountains each home planet has;
// each player then places them, and the starting cannon, with one setup
// prompt answered by all at once. What a player does not place (all of it
// when nothing arrives by the deadline: the prompt's default is AUTO) is
// placed by the dice exactly as in the default mode: tiles on interior
// cells while any is free, the cannon on a border cell.

// HomeSetup is what a player still has to place on their home planet.
type HomeSetup struct {
	Planet    string `json:"planet"`
	Forests   int    `json:"forests"`
	Mountains int    `json:"mountains"`
}

const placePrefix = "place:"

func (s *State) placePrompts() []engine.Prompt {
	var out []engine.Prompt
	for _, p := range s.Seats {
		h := s.Placing[p]
		out = append(out, asked(engine.Prompt{ID: placePrefix + p, Player: p, Kind: engine.KindTurn, Default: vAuto},
			lang.M("Place your home planet %s: %s and %s (TILE FOREST AT cell; interior cells while any is free) and your starting cannon (BUILD CANNON AT a border cell). What you leave out, or AUTO, the dice place.",
				h.Planet, forests(h.Forests), mountains(h.Mountains))))
	}
	return out
}

// placement checks (dry) or carries out (live, d != nil) one player's
// setup lines, then lets the dice place the rest when live.
type placement struct {
	s      *State
	p      string
	h      HomeSetup
	pl     *Planet
	sites  []Site
	cannon bool
}

func newPlacement(s *State, p string) *placement {
	h := *s.Placing[p]
	pl := s.planet(h.Planet)
	return &placement{s: s, p: p, h: h, pl: pl, sites: append([]Site(nil), pl.Sites...)}
}

func (pm *placement) taken(c Cell) bool {
	for _, st := range pm.sites {
		if st.Cell == c {
			return true
		}
	}
	return false
}

// interiorFree reports whether an interior cell of the planet is still
// free: tiles go on the border only when none is.
func (pm *placement) interiorFree() bool {
	for _, c := range hexCells(pm.pl.Centre, pm.pl.radius()-1) {
		if c != pm.pl.Centre && !pm.taken(c) {
			return true
		}
	}
	return false
}

func (pm *placement) do(o order) *problem {
	pl := pm.pl
	switch o.Verb {
	case vAuto:
		return nil
	case vTile, vBuild:
		if o.Verb == vBuild && o.Kind != CannonS {
			return prob(lang.M("only your starting cannon is built now: BUILD CANNON AT a border cell"))
		}
		switch {
		case !pl.has(o.Cell):
			return prob(lang.M("%s is not on your home planet %s", o.Cell.String(), pl.Name))
		case o.Cell == pl.Centre:
			return prob(lang.M("the centre cell %s is for the monolith only", o.Cell.String()))
		case pm.taken(o.Cell):
			return prob(lang.M("%s is taken already", o.Cell.String()))
		}
		border := dist(pl.Centre, o.Cell) == pl.radius()
		if o.Verb == vBuild {
			if pm.cannon {
				return prob(lang.M("you have one starting cannon"))
			}
			if !border {
				return prob(lang.M("defences stand only on the outer border of a planet"))
			}
			pm.cannon = true
		} else {
			left := &pm.h.Forests
			if o.Kind == Mountain {
				left = &pm.h.Mountains
			}
			if *left == 0 {
				return prob(lang.M("no %s is left to place on %s", term(o.Kind), pl.Name))
			}
			if border && pm.interiorFree() {
				return prob(lang.M("tiles go on interior cells while any is free (%s is on the border)", o.Cell.String()))
			}
			*left--
		}
		pm.sites = append(pm.sites, Site{Cell: o.Cell, Kind: o.Kind})
		return nil
	}
	return prob(lang.M("now only TILE, BUILD CANNON and AUTO: place your home planet first"))
}

// finish lets the dice place what the player left, and gives the bank its
// ten turns of production (003-G4).
func (pm *placement) finish(d *dice.Dice) {
	pl, s := pm.pl, pm.s
	placed := len(pm.sites) - len(pl.Sites)
	pl.Sites = pm.sites
	auto := placeTiles(d, pl, Forest, pm.h.Forests) + placeTiles(d, pl, Mountain, pm.h.Mountains)
	if !pm.cannon {
		placeCannon(d, pl, pm.p)
		auto++
	}
	s.Bank[pm.p] = homeBank(pl)
	switch {
	case auto == 0:
		s.tell(nil, lang.M("%s places the tiles and the starting cannon of %s.", pm.p, pl.Name))
	case placed == 0:
		s.tell(nil, lang.M("The dice place the tiles and the starting cannon of %s (%s).", pl.Name, pm.p))
	default:
		s.tell(nil, lang.M("%s places %d of the tiles and the cannon of %s; the dice place the other %d.", pm.p, placed, pl.Name, auto))
	}
}

// parsePlacement checks a setup answer against what the player may see.
func (v view) parsePlacement(player, text string) (engine.Orders, []engine.LineError) {
	pm := newPlacement(v.s, player)
	return parseEach(text, func(o *order, _, _ int) *problem { return pm.do(*o) })
}

// resolvePlacement places every home planet (each player's lines, then the
// dice for the rest, in seat order) and opens the first turn.
func (s *State) resolvePlacement(answers []engine.Answer, d *dice.Dice) ([]engine.Event, error) {
	lines := map[string][]string{}
	for _, a := range answers {
		if !strings.HasPrefix(a.Prompt.ID, placePrefix) {
			return nil, fmt.Errorf("%s answered %s while the home planets are being placed", a.Prompt.Player, a.Prompt.ID)
		}
		lines[a.Prompt.Player] = linesOf(a.Orders)
	}
	for _, p := range s.Seats {
		pm := newPlacement(s, p)
		for _, line := range lines[p] {
			o, pr := parseLine(line)
			if pr == nil {
				pr = pm.do(o)
			}
			if pr != nil {
				return nil, fmt.Errorf("stored setup order %q of %s: %s", line, p, pr.why.English())
			}
		}
		pm.finish(d)
	}
	s.Placing = nil
	s.startTurn(d)
	return s.events, nil
}

// botPlacement places a few tiles and sometimes the cannon itself (so bot
// games exercise both ways), the rest left to the dice.
func (v view) botPlacement(player string, pick func(n int) int) string {
	pm := newPlacement(v.s, player)
	var out []string
	cells := hexCells(pm.pl.Centre, pm.pl.radius())
	sort.SliceStable(cells, func(i, j int) bool { return dist(cells[i], pm.pl.Centre) < dist(cells[j], pm.pl.Centre) })
	for _, c := range cells {
		kind := Forest
		if pm.h.Forests == 0 || pick(2) == 0 {
			kind = Mountain
		}
		o := order{Verb: vTile, Kind: kind, Cell: c}
		if pick(3) > 0 && pm.do(o) == nil {
			out = append(out, o.String())
		}
	}
	if pick(2) == 0 {
		for _, c := range cells {
			o := order{Verb: vBuild, Kind: CannonS, Cell: c}
			if pm.do(o) == nil {
				out = append(out, o.String())
				break
			}
		}
	}
	if len(out) == 0 {
		return vAuto
	}
	return strings.Join(out, "\n")
}
