package earthman

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"orrery/engine"
	"orrery/engine/dice"
	"orrery/engine/lang"
)

// un is the non-player faction's name in orders, events and state.
const un = "UN"

// Units counts one place's pieces by faction. Zero counts are deleted so
// that equal positions marshal to equal bytes.
type Units struct {
	Fleets map[string]int `json:"fleets,omitempty"`
	Devs   map[string]int `json:"devs,omitempty"` // worlds only: claimed regions
}

// Tasked counts the units a player put in attacking groups during their
// most recent combat phase: they may not be gifted (000-G14).
type Tasked struct {
	Fleets int `json:"fleets,omitempty"`
	Devs   int `json:"devs,omitempty"`
}

// Support is a standing order to give units to a faction when it is
// attacked at a world, before the attacking group rolls (000-C1 iii). It
// fires once and is then used up.
type Support struct {
	Target string `json:"target"`
	World  string `json:"world"` // or ANY
	N      int    `json:"n"`
	Dev    bool   `json:"dev,omitempty"`
}

// Course is a destination stored with fleets in space (000-B5): N of a
// player's fleets at At are bound for To, worldward of At. Each movement
// phase carries them one move on, until they arrive or a ROUTE from At
// replaces the course.
type Course struct {
	At string `json:"at"`
	To string `json:"to"`
	N  int    `json:"n"`
}

// State is a classic game. Units are counted, not listed: in the first
// edition pieces at a place differ only by faction, and by the gift flag
// kept in Tasked.
type State struct {
	Players   []string                     `json:"players"` // seats, clockwise
	Places    map[string]*Units            `json:"places"`
	Stage     string                       `json:"stage"` // setup, turns, over
	Placers   []int                        `json:"placers,omitempty"`
	Placed    int                          `json:"placed,omitempty"`
	Active    int                          `json:"active"` // seat to play
	StartSeat int                          `json:"start_seat"`
	TurnN     int                          `json:"turn"`
	Round     int                          `json:"round"`
	TurnLimit int                          `json:"turn_limit,omitempty"`
	Agree     map[string]string            `json:"agree,omitempty"`
	OnCoup    map[string]map[string]string `json:"on_coup,omitempty"`  // player → world|ANY → action
	Tasked    map[string]map[string]Tasked `json:"tasked,omitempty"`   // player → world
	Support   map[string][]Support         `json:"support,omitempty"`  // player → one-shot gift triggers
	Courses   map[string][]Course          `json:"courses,omitempty"`  // player → stored destinations, in board order
	Triggers  map[string][]Trigger         `json:"triggers,omitempty"` // player → ON ATTACKED/LOSS orders, in the order set
	// Interrupts is the option of live interrupt windows (000-C1); Window
	// is the turn paused at one, waiting for the defender.
	Interrupts bool           `json:"interrupts,omitempty"`
	Window     *Window        `json:"window,omitempty"`
	Result     engine.Outcome `json:"outcome"`
	tale
}

const (
	stageSetup = "setup"
	stageTurns = "turns"
	stageOver  = "over"
)

func newState(s engine.Setup, d *dice.Dice) (*State, error) {
	n := len(s.Players)
	if n < 2 || n > 6 {
		return nil, fmt.Errorf("the Earthman's Burden needs 2 to 6 players (Earth has 7 regions), not %d", n)
	}
	seen := map[string]bool{}
	for _, p := range s.Players {
		l := strings.ToLower(p)
		if l == "un" || l == "none" || l == "any" || strings.ContainsAny(p, " \t,") {
			return nil, fmt.Errorf("%q cannot be a player's name here: it is a word of the order language", p)
		}
		if seen[l] {
			return nil, fmt.Errorf("two players are called %q", p)
		}
		seen[l] = true
	}
	limit, err := strconv.Atoi(s.Options["turn-limit"])
	if err != nil || limit < 0 {
		return nil, fmt.Errorf("option turn-limit must be 0 (off) or a number of rounds, not %q", s.Options["turn-limit"])
	}
	switch s.Options["interrupts"] {
	case "", "off":
	case "on":
	default:
		return nil, fmt.Errorf("option interrupts must be on or off, not %q", s.Options["interrupts"])
	}
	st := &State{Players: append([]string(nil), s.Players...), Places: map[string]*Units{}, Stage: stageSetup, TurnLimit: limit,
		Interrupts: s.Options["interrupts"] == "on", tale: tale{Tells: s.RulesVersion >= storySince}}
	for _, p := range board.Places {
		st.Places[p.Name] = &Units{}
	}
	// 000-B2: each player claims one Earth region; the UN claims the rest.
	for _, p := range st.Players {
		st.addDev(p, "Earth", 1)
	}
	st.addDev(un, "Earth", st.unclaimed("Earth"))
	// 000-B1: a random first placer, then anticlockwise (descending seats).
	first := d.RollMsg(n, lang.M("first player to place a fleet")) - 1
	for round := 0; round < 5; round++ {
		for k := 0; k < n; k++ {
			st.Placers = append(st.Placers, ((first-k)%n+n)%n)
		}
	}
	return st, nil
}

// fleets, devs and the adders keep zero counts out of the maps.
func (s *State) fleets(f, at string) int { return s.Places[at].Fleets[f] }
func (s *State) devs(f, at string) int   { return s.Places[at].Devs[f] }
func (s *State) units(f, at string) int  { return s.fleets(f, at) + s.devs(f, at) }

// coursesAt returns the destinations stored with f's fleets at a place.
func (s *State) coursesAt(f, at string) []Course {
	var out []Course
	for _, c := range s.Courses[f] {
		if c.At == at {
			out = append(out, c)
		}
	}
	return out
}

// addFleet adds n fleets of f at a place (n < 0 removes them). Removed
// fleets are those barred from gifts first (see untask); gifts move
// units with give instead.
func (s *State) addFleet(f, at string, n int) {
	if n < 0 {
		s.untask(f, at, -n, false)
	}
	u := s.Places[at]
	if u.Fleets == nil {
		u.Fleets = map[string]int{}
	}
	u.Fleets[f] += n
	if u.Fleets[f] <= 0 {
		delete(u.Fleets, f)
	}
	if len(u.Fleets) == 0 {
		u.Fleets = nil
	}
}

// addDev adds n developments of f on a world (n < 0 removes them, barred
// ones first, like addFleet).
func (s *State) addDev(f, at string, n int) {
	if n < 0 {
		s.untask(f, at, -n, true)
	}
	u := s.Places[at]
	if u.Devs == nil {
		u.Devs = map[string]int{}
	}
	u.Devs[f] += n
	if u.Devs[f] <= 0 {
		delete(u.Devs, f)
	}
	if len(u.Devs) == 0 {
		u.Devs = nil
	}
}

func (s *State) unclaimed(world string) int {
	p, _ := board.Get(world)
	n := p.Regions
	for _, k := range s.Places[world].Devs {
		n -= k
	}
	return n
}

// total counts all of a faction's units on the board.
func (s *State) total(f string) (fleets, devs int) {
	for _, p := range board.Places {
		fleets += s.fleets(f, p.Name)
		devs += s.devs(f, p.Name)
	}
	return fleets, devs
}

func (s *State) alive(p string) bool {
	f, d := s.total(p)
	return f+d > 0
}

// factions lists the players then the UN: the order of every listing.
func (s *State) factions() []string { return append(append([]string(nil), s.Players...), un) }

// unOnEarth says whether any UN unit is on Earth (000-G8).
func (s *State) unOnEarth() bool { return s.units(un, "Earth") > 0 }

// untask lifts the gift bar (000-G14) from n of f's fleets (or
// developments) at a place because n of them leave it: lost, exchanged,
// decommissioned, evacuated or launched. Units are interchangeable but
// for the bar, and the owner's best choice is always to part with barred
// units first, so the bar never falls on a unit that did not attack, such
// as a fleet built after the attackers were lost.
func (s *State) untask(f, at string, n int, devs bool) {
	t, ok := s.Tasked[f][at]
	if !ok {
		return
	}
	if devs {
		t.Devs = max(t.Devs-n, 0)
	} else {
		t.Fleets = max(t.Fleets-n, 0)
	}
	if t == (Tasked{}) {
		delete(s.Tasked[f], at)
		if len(s.Tasked[f]) == 0 {
			delete(s.Tasked, f)
		}
		return
	}
	s.Tasked[f][at] = t
}

// give moves n of from's fleets (or developments) at a place to another
// faction, as a gift: the giver gives units that are not barred, so the
// bar stays on the ones it keeps.
func (s *State) give(from, to, at string, n int, devs bool) {
	m := func(k map[string]int) map[string]int {
		if k == nil {
			k = map[string]int{}
		}
		k[from] -= n
		k[to] += n
		if k[from] <= 0 {
			delete(k, from)
		}
		return k
	}
	u := s.Places[at]
	if devs {
		u.Devs = m(u.Devs)
	} else {
		u.Fleets = m(u.Fleets)
	}
}

// tasked returns how many of a player's units at world are barred from
// gifts, never more than the player still has there.
func (s *State) tasked(p, world string) Tasked {
	t := s.Tasked[p][world]
	t.Fleets = min(t.Fleets, s.fleets(p, world))
	t.Devs = min(t.Devs, s.devs(p, world))
	return t
}

func (s *State) task(p, world string, fleets, devs int) {
	if s.Tasked == nil {
		s.Tasked = map[string]map[string]Tasked{}
	}
	if s.Tasked[p] == nil {
		s.Tasked[p] = map[string]Tasked{}
	}
	t := s.Tasked[p][world]
	t.Fleets += fleets
	t.Devs += devs
	s.Tasked[p][world] = t
}

// Turn counts player turns from 1; 0 during setup.
func (s *State) Turn() int { return s.TurnN }

// Phase names the stage for people.
func (s *State) Phase() string { return s.PhaseMsg().English() }

// PhaseMsg is Phase as a message (engine.PhaseMessager).
func (s *State) PhaseMsg() lang.Msg {
	switch s.Stage {
	case stageSetup:
		return lang.M("fleet placement")
	case stageOver:
		return lang.M("game over")
	}
	return lang.M("turn of %s", s.Players[s.Active])
}

// Prompts: the placer or the active player must act; everybody may send
// extraordinary actions and standing orders at any time.
func (s *State) Prompts() []engine.Prompt {
	if s.Stage == stageOver {
		return nil
	}
	var out []engine.Prompt
	switch s.Stage {
	case stageSetup:
		p := s.Players[s.Placers[s.Placed]]
		k := s.Placed/len(s.Players) + 1
		pr := engine.Prompt{ID: "place:" + p, Player: p, Kind: engine.KindStep, Default: "PLACE Earth"}
		pr.SetAsk(lang.M("Place your fleet %d of 5 on Earth or skyward of it (Cislunar, Inner, Solar).", k))
		out = append(out, pr)
	case stageTurns:
		p := s.Players[s.Active]
		if w := s.Window; w != nil {
			pr := engine.Prompt{ID: "window:" + w.Target, Player: w.Target, Kind: engine.KindChoice}
			pr.SetAsk(lang.M("%s Send EVACUATE, GIFT or DECOMMISSION orders (or standing orders) to act before the dice; "+
				"an empty answer, or none by the deadline, lets the attack go ahead (your standing orders still apply).", w.ask(p)))
			out = append(out, pr)
			break
		}
		pr := engine.Prompt{ID: "turn:" + p, Player: p, Kind: engine.KindTurn}
		pr.SetAsk(lang.M("Your turn: movement, combat, construction and development orders, in that order: LAUNCH <n> FROM <world> TO <trajectory>, FIRE <world> <n> AT <faction>, BUILD <world> <size>, DEVELOP <world> <attempts>."))
		out = append(out, pr)
	}
	for _, p := range s.Players {
		pr := engine.Prompt{ID: "any:" + p, Player: p, Kind: engine.KindAnytime}
		pr.SetAsk(lang.M("Extraordinary actions and standing orders, at any time."))
		out = append(out, pr)
	}
	return out
}

// View: the first edition hides nothing, so every view shows the whole board.
func (s *State) View(player string) engine.View { return &view{s: s, player: player} }

// Outcome says whether the game is over.
func (s *State) Outcome() engine.Outcome { return s.Result }

// Marshal encodes the state; maps are encoded with sorted keys.
func (s *State) Marshal() ([]byte, error) { return json.Marshal(s) }

func loadState(data []byte) (*State, error) {
	var s State
	if err := engine.DecodeJSON(data, &s); err != nil {
		return nil, fmt.Errorf("reading an Earthman's Burden state: %w", err)
	}
	for _, p := range board.Places {
		if s.Places[p.Name] == nil {
			return nil, fmt.Errorf("reading an Earthman's Burden state: %s is missing", p.Name)
		}
	}
	return &s, nil
}

// checkEnd ends the game by agreement (000-E, 000-G17) or turn limit (000-F7).
func (s *State) checkEnd() []engine.Event {
	if s.Stage == stageOver {
		return nil
	}
	var alive []string
	for _, p := range s.Players {
		if s.alive(p) {
			alive = append(alive, p)
		}
	}
	over := func(o engine.Outcome) []engine.Event {
		s.Stage, s.Result = stageOver, o
		return []engine.Event{engine.Tell(lang.M("The game is over: %s.", *o.Msg))}
	}
	switch {
	case len(alive) == 0:
		return over(engine.Ended(lang.M("no player has a unit left on the board")))
	case len(alive) == 1:
		return over(engine.Ended(lang.M("%s is the only player left on the board", alive[0]), alive...))
	}
	w := s.Agree[alive[0]]
	for _, p := range alive {
		if s.Agree[p] == "" || s.Agree[p] != w {
			w = ""
		}
	}
	if w == "DRAW" {
		return over(engine.Ended(lang.M("every player still on the board (%s) agrees to a draw", commaList(alive))))
	}
	if w != "" {
		return over(engine.Ended(lang.M("every player still on the board (%s) agrees that %s has won", commaList(alive), w), w))
	}
	if s.TurnLimit > 0 && s.Round > s.TurnLimit {
		best := append([]string(nil), alive...)
		score := func(p string) (int, int) { f, d := s.total(p); return d, f }
		sort.SliceStable(best, func(i, j int) bool {
			di, fi := score(best[i])
			dj, fj := score(best[j])
			return di > dj || di == dj && fi > fj
		})
		d0, f0 := score(best[0])
		winners := []string{best[0]}
		for _, p := range best[1:] {
			if d, f := score(p); d == d0 && f == f0 {
				winners = append(winners, p)
			}
		}
		return over(engine.Ended(lang.M("the turn limit of %s is reached; most developments (then fleets): %s",
			lang.MN("%d round", "%d rounds", s.TurnLimit), commaList(winners)), winners...))
	}
	return nil
}
