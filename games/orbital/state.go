package orbital

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"orrery/engine"
	"orrery/engine/dice"
	"orrery/engine/draw"
	"orrery/engine/lang"
)

// Module is one module of a Station.
type Module struct {
	Kind   Kind `json:"kind"`
	Damage int  `json:"damage,omitempty"`
}

func (m Module) disabled() bool { return m.Damage > 2 }

// FireOrder is a standing targeting order for a laser (002-C1): targets in
// priority order (unit IDs or types; empty = any enemy), the most shots to
// take in one impulse (0 = no limit) and the smallest hit range worth a shot.
type FireOrder struct {
	Targets    []string `json:"targets,omitempty"`
	PerImpulse int      `json:"per_impulse,omitempty"`
	Min        int      `json:"min,omitempty"`
	From       int      `json:"from,omitempty"` // no fire before this impulse of a turn (002-B6)
}

// Unit is anything that is not a moon: a Station (with Modules), a
// spacecraft, a satellite, a warhead, a booster or a Core Module carried as
// cargo. A carried unit has In set and shares its carrier's position.
type Unit struct {
	ID       string     `json:"id"`
	Owner    string     `json:"owner"`
	Kind     Kind       `json:"kind"`
	Hex      Hex        `json:"hex"`
	V        int        `json:"v"`
	F        int        `json:"f"`
	In       string     `json:"in,omitempty"`
	Damage   int        `json:"damage,omitempty"`
	Modules  []Module   `json:"modules,omitempty"`
	Deployed bool       `json:"deployed,omitempty"`
	Disabled int        `json:"disabled,omitempty"` // disabled by a pulse through this turn's Phase 1
	Shots    int        `json:"shots,omitempty"`    // laser shots fired this turn
	Gas      int        `json:"gas,omitempty"`
	Atmo     bool       `json:"atmo,omitempty"`
	AtmoFrom Hex        `json:"atmo_from,omitempty"`
	Moon     string     `json:"moon,omitempty"`
	Fire     *FireOrder `json:"fire,omitempty"`
	Strike   []string   `json:"strike,omitempty"` // warhead standing order: target priority
	Armed    bool       `json:"armed,omitempty"`  // warhead has a STRIKE order
	Trigger  *Trigger   `json:"trigger,omitempty"`
}

// Trigger is a standing reactive order (002-C3): DROP or DEPLOY the unit in
// the first impulse in which an enemy of the type When (or ANY) is free in
// its hex. It stands from turn to turn, like FIRE and STRIKE, because a
// player writing by mail expects "drop the warhead when a Gunship comes"
// to hold until it happens; it ends when it fires, when the unit is dropped
// or deployed otherwise, or by CANCEL or a new DROP/DEPLOY order.
type Trigger struct {
	Verb string `json:"verb"`
	When string `json:"when"`
}

func (u *Unit) spec() Spec { return specs[u.Kind] }

func (u *Unit) module(k Kind) *Module {
	for i := range u.Modules {
		if u.Modules[i].Kind == k {
			return &u.Modules[i]
		}
	}
	return nil
}

// operational reports whether the Station's module k works: present, not
// disabled, and (except a Factory) the Core not disabled (section 1 text).
// A pulse's disabling (u.Disabled) is checked apart, in Phase 1 only.
func (u *Unit) operational(k Kind) bool {
	m := u.module(k)
	if m == nil || m.disabled() {
		return false
	}
	if k != Factory {
		c := u.module(Core)
		if c == nil || c.disabled() {
			return false
		}
	}
	return true
}

// Moon orbits at its ring's speed in the common sense; it is never displaced.
type Moon struct {
	ID  string `json:"id"`
	Hex Hex    `json:"hex"`
	V   int    `json:"v"`
	F   int    `json:"f"`
	X   int    `json:"x"`
}

// Player is a seat: its bank of RU (002-G21: one bank per player).
type Player struct {
	Name    string `json:"name"`
	RU      int    `json:"ru"`
	Refined int    `json:"refined,omitempty"` // RU from refinery deliveries (8.3)
	Out     bool   `json:"out,omitempty"`
}

// State is a whole game position.
type State struct {
	Opts    map[string]string `json:"opts"`
	TurnN   int               `json:"turn"`
	Players []Player          `json:"players"`
	Units   []*Unit           `json:"units"`
	Moons   []Moon            `json:"moons,omitempty"`
	NextID  int               `json:"next_id"`
	// Placing lists the seats still to place their Station, in seat order
	// (option placement=sequential): one at a time, each seeing the
	// placements before theirs, before the opening turn.
	Placing []string       `json:"placing,omitempty"`
	Result  engine.Outcome `json:"result"`
	// Tells is set in games set up under rules version 3 or later, which
	// keep the Story of their last step for its picture (story.go).
	Tells bool        `json:"tells,omitempty"`
	Story []draw.Told `json:"story,omitempty"`
	rings Rings
}

func (s *State) Turn() int     { return s.TurnN }
func (s *State) Phase() string { return s.PhaseMsg().English() }

// PhaseMsg is the phase as a message (engine.PhaseMessager).
func (s *State) PhaseMsg() lang.Msg {
	if len(s.Placing) > 0 {
		return lang.M("placement")
	}
	return lang.M("orders")
}
func (s *State) Outcome() engine.Outcome { return s.Result }

func (s *State) Marshal() ([]byte, error) { return json.Marshal(s) }

func loadState(data []byte) (*State, error) {
	s := &State{}
	if err := engine.DecodeJSON(data, s); err != nil {
		return nil, fmt.Errorf("orbital state: %w", err)
	}
	s.rings = standardRings
	return s, nil
}

func (s *State) Prompts() []engine.Prompt {
	if s.Result.Over {
		return nil
	}
	if len(s.Placing) > 0 {
		p := s.Placing[0]
		pr := engine.Prompt{ID: "place:" + p, Player: p, Kind: engine.KindStep}
		pr.SetAsk(s.placeAsk(p))
		return []engine.Prompt{pr}
	}
	var out []engine.Prompt
	for _, p := range s.Players {
		if p.Out {
			continue
		}
		ask := lang.M("orders for turn %d, one a line: LAUNCH <unit>, THRUST <unit> <+n|-n>, DROP <unit> AT <impulse>, FIRE <laser> AT <target>, STRIKE <warhead> AT <target>, then REPAIR and BUY <type> AT <station> (e.g. THRUST B7 +2)", s.TurnN)
		if s.TurnN == 0 {
			ask = lang.M("opening: spend your starting RU with BUY <type> AT <station>, give FIRE <laser> AT <target> or STRIKE orders (e.g. BUY booster AT S1); nothing moves yet")
			if !s.sequential() {
				ask = lang.M("opening: PLACE <station> <hex> on its ring if you like, spend your starting RU with BUY <type> AT <station>, give FIRE <laser> AT <target> or STRIKE orders (e.g. BUY booster AT S1); nothing moves yet")
			}
		}
		pr := engine.Prompt{ID: "turn:" + p.Name, Player: p.Name, Kind: engine.KindTurn}
		pr.SetAsk(ask)
		out = append(out, pr)
	}
	return out
}

func (s *State) unit(id string) *Unit {
	for _, u := range s.Units {
		if u.ID == id {
			return u
		}
	}
	return nil
}

func (s *State) player(name string) *Player {
	for i := range s.Players {
		if s.Players[i].Name == name {
			return &s.Players[i]
		}
	}
	return nil
}

// cargo lists the units carried directly by carrier id, in ID order.
func (s *State) cargo(id string) []*Unit {
	var out []*Unit
	for _, u := range s.Units {
		if u.In == id {
			out = append(out, u)
		}
	}
	return out
}

// load is the payload weight carried by id (002-G16: the data sheet governs).
func (s *State) load(id string) int {
	w := 0
	for _, c := range s.cargo(id) {
		w += s.weight(c)
	}
	return w
}

func (s *State) weight(u *Unit) int {
	w := u.spec().Weight
	if u.Kind.satellite() {
		w, _ = strconv.Atoi(s.Opts["sat-weight"])
	}
	for _, c := range s.cargo(u.ID) {
		w += s.weight(c)
	}
	return w
}

func (s *State) newID(k Kind) string {
	s.NextID++
	return fmt.Sprintf("%c%d", specs[k].Letter, s.NextID)
}

// add creates a unit; carried units take their carrier's motion.
func (s *State) add(owner string, k Kind, in *Unit, at Hex, v, f int) *Unit {
	u := &Unit{ID: s.newID(k), Owner: owner, Kind: k, Hex: at, V: v, F: f}
	if in != nil {
		u.In, u.Hex, u.V, u.F = in.ID, in.Hex, in.V, in.F
	}
	if k == Station {
		u.Modules = []Module{{Kind: Core}}
	}
	s.Units = append(s.Units, u)
	return u
}

// remove deletes a unit and everything it carries, returning their IDs.
func (s *State) remove(id string) []string {
	gone := map[string]bool{id: true}
	for changed := true; changed; {
		changed = false
		for _, u := range s.Units {
			if !gone[u.ID] && gone[u.In] {
				gone[u.ID], changed = true, true
			}
		}
	}
	var ids []string
	kept := s.Units[:0]
	for _, u := range s.Units {
		if gone[u.ID] {
			ids = append(ids, u.ID)
		} else {
			kept = append(kept, u)
		}
	}
	s.Units = kept
	return ids
}

// syncCargo puts every carried unit where its carrier is.
func (s *State) syncCargo() {
	for range 3 { // bays hold Buses that hold Boosters that hold a payload
		for _, u := range s.Units {
			if u.In != "" {
				if c := s.unit(u.In); c != nil {
					u.Hex, u.V, u.F = c.Hex, c.V, c.F
				}
			}
		}
	}
}

func (s *State) stations(owner string) []*Unit {
	var out []*Unit
	for _, u := range s.Units {
		if u.Kind == Station && u.Owner == owner {
			out = append(out, u)
		}
	}
	return out
}

func (s *State) optInt(name string) int {
	n, _ := strconv.Atoi(s.Opts[name])
	return n
}

// newState sets a scenario up (section 3; 002-F4, 002-F6).
func newState(set engine.Setup, d *dice.Dice) (*State, error) {
	if len(set.Players) != 2 {
		return nil, fmt.Errorf("orbital is for two players, not %d", len(set.Players))
	}
	s := &State{Opts: map[string]string{}, TurnN: 1, rings: standardRings, Tells: set.RulesVersion >= storySince}
	if set.Options["opening"] != "off" {
		s.TurnN = 0
	}
	for k, v := range set.Options {
		s.Opts[k] = v
	}
	_, since2 := set.Options["placement"]
	for _, o := range options {
		if _, ok := s.Opts[o.Name]; !ok {
			if !since2 && (o.Name == "placement" || o.Name == "min-distance") {
				// A game set up before these options (rules version 1)
				// keeps what it was set up with: sealed placement in the
				// opening, no minimum distance. So it replays as played.
				continue
			}
			s.Opts[o.Name] = o.Default
		}
	}
	for _, name := range []string{"turn-limit", "refinery-goal"} {
		if n, err := strconv.Atoi(s.Opts[name]); err != nil || n < 0 {
			return nil, fmt.Errorf("option %s must be a whole number of 0 or more, not %q", name, s.Opts[name])
		}
	}
	ring := s.optInt("station-ring")
	if ring < 1 || ring > Radius {
		return nil, fmt.Errorf("station-ring must be 1 to %d, not %q", Radius, s.Opts["station-ring"])
	}
	if err := s.placeMoons(d); err != nil {
		return nil, err
	}
	spots := []Hex{hexAt(ring, 0, 0), hexAt(ring, 3, 0)}
	if w := strings.Fields(s.Opts["station-spots"]); len(w) > 0 {
		if len(w) != 2 {
			return nil, fmt.Errorf("station-spots needs two hexes, one a player, not %q", s.Opts["station-spots"])
		}
		for i := range w {
			h, err := parseHex(w[i])
			if err != nil || h.ring() == 0 {
				return nil, fmt.Errorf("station-spots: %q is not a hex like 4A0", w[i])
			}
			spots[i] = h
		}
	}
	for i, name := range set.Players {
		s.Players = append(s.Players, Player{Name: name, RU: 8})
		ccw := i == 0 || s.Opts["scenario"] == "slow" // 8.1 same sense; 8.2, 8.3 opposite
		at := spots[i]
		s.add(name, Station, nil, at, s.rings.Green[at.ring()], tangent(at, ccw))
	}
	// Setup 2: Stations are placed "in a sequence agreed on by all
	// players": seat order, each seeing the placements before.
	if s.TurnN == 0 && s.sequential() {
		s.Placing = append([]string(nil), set.Players...)
	}
	return s, nil
}

// placeMoons puts up to four moons on the board (Setup 1; the scenarios
// 8.1–8.3 say three, and the option's default stays within that): fixed
// positions, or two dice each — ring, then sextant — re-rolling a ring that
// already has a moon (002-F4, 002-R1).
func (s *State) placeMoons(d *dice.Dice) error {
	n := s.optInt("moon-count")
	taken := map[int]bool{}
	fixed := [][2]int{{3, 1}, {6, 4}, {2, 5}, {5, 2}}
	switch s.Opts["moons"] {
	case "none":
		n = 0
	case "agreed":
		fixed = nil
		for _, w := range strings.Fields(s.Opts["moon-spots"]) {
			h, err := parseHex(w + "0")
			if err != nil {
				return fmt.Errorf("moon-spots: %q is not a ring and sextant like 3B", w)
			}
			sx, _ := sextantOf(h)
			fixed = append(fixed, [2]int{h.ring(), sx})
		}
		if len(fixed) > 4 {
			return fmt.Errorf("moon-spots: the rules allow up to 4 moons (the scenarios say 3), not %d", len(fixed))
		}
		n = len(fixed)
	}
	ccw := s.Opts["moon-sense"] != "cw"
	for i := 0; i < n; i++ {
		var ring, sext int
		switch s.Opts["moons"] {
		case "random":
			for try := 0; ; try++ {
				ring = d.RollMsg(6, lang.M("moon %d ring", i+1))
				if !taken[ring] || try > 50 {
					break
				}
			}
			sext = d.RollMsg(6, lang.M("moon %d sextant", i+1)) - 1
		default:
			ring, sext = fixed[i][0], fixed[i][1]
		}
		if taken[ring] {
			if s.Opts["moons"] == "agreed" {
				return fmt.Errorf("moon-spots: two moons on ring %d would collide", ring)
			}
			continue
		}
		taken[ring] = true
		x := (ring + 1) / 2 // 1 on rings 1–2, 2 on 3–4, 3 on 5–6 (002-F4); agreed moons further out: 4 on 7–8, 5 on 9–10 (ours)
		at := hexAt(ring, sext, 0)
		s.Moons = append(s.Moons, Moon{ID: fmt.Sprintf("M%d", len(s.Moons)+1), Hex: at,
			V: s.rings.Green[ring], F: tangent(at, ccw), X: x})
	}
	sort.Slice(s.Moons, func(i, j int) bool { return s.Moons[i].ID < s.Moons[j].ID })
	return nil
}

// pulsed reports whether a pulse warhead's disabling still holds in turn n.
func (u *Unit) pulsed(n int) bool { return u.Disabled > 0 && u.Disabled >= n }

// hiddenCargo is the option of 002-E: bay contents and payloads are hidden
// from the opponent until launched or dropped, as Booster payloads always are.
func (s *State) hiddenCargo() bool { return s.Opts["hidden-cargo"] == "on" }

// placeAsk is the question of a placement step: where p's Station is, the
// hexes it may take, and where the Stations placed before are.
func (s *State) placeAsk(p string) lang.Msg {
	st := s.stations(p)
	if len(st) == 0 {
		return lang.M("place your Station")
	}
	u := st[0]
	r := u.Hex.ring()
	ask := lang.M("place your Station: PLACE %s <hex> on ring %d (%dA0 to %dF%d), or send nothing to keep it at %s", u.ID, r, r, r, r-1, u.Hex.Name())
	if d := s.optInt("min-distance"); d > 0 {
		ask = lang.M("%s; at least %s from an enemy Station", ask, lang.MN("%d hex", "%d hexes", d))
	}
	var others []lang.Msg
	for _, o := range s.Units {
		if o.Kind == Station && o.Owner != p {
			if !contains(s.Placing, o.Owner) {
				others = append(others, lang.M("%s's %s is at %s (placed)", o.Owner, o.ID, o.Hex.Name()))
			} else {
				others = append(others, lang.M("%s's %s is at %s (not yet placed)", o.Owner, o.ID, o.Hex.Name()))
			}
		}
	}
	if len(others) > 0 {
		ask = lang.M("%s; %s", ask, lang.ArgOf(others))
	}
	return lang.M("%s.", ask)
}

// tooClose says why a Station of p at h would start too near an enemy
// Station (option min-distance), or "".
func (s *State) tooClose(p string, h Hex) lang.Msg {
	min := s.optInt("min-distance")
	for _, o := range s.Units {
		if o.Kind == Station && o.Owner != p && o.In == "" {
			if d := dist(h, o.Hex); d < min {
				return lang.M("%s is %s from %s's %s at %s; Stations start at least %d apart (option min-distance)",
					h.Name(), lang.MN("%d hex", "%d hexes", d), o.Owner, o.ID, o.Hex.Name(), min)
			}
		}
	}
	return lang.Msg{}
}

// sequential reports whether the Stations are placed one after the other
// (option placement; a game set up before the option has none, and placed
// them at once).
func (s *State) sequential() bool { return s.Opts["placement"] == "sequential" }
