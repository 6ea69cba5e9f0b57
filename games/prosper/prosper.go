// Package prosper is "Prosper or Perish": planets of three sizes held by
// natives, 30 ships each to settle them in snake order, then rounds of up to
// three movements per player (passive along one's own planets, or attacks
// on neighbours) followed by production, until one player is left.
//
// Every gap in the rules is filled as games/prosper/README.md says, citing
// the proposals of the rules analysis (004-*); where a GM could want the
// other reading, it is an option.
package prosper

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strconv"

	"orrery/engine"
	"orrery/engine/dice"
	"orrery/engine/lang"
)

// Ruleset returns the Prosper or Perish ruleset.
func Ruleset() engine.Ruleset { return ruleset{} }

type ruleset struct{}

// Options of the game, with their defaults.
const (
	optMap       = "map"
	optMinimum   = "settle-minimum"
	optLosses    = "setup-losses"
	optDefence   = "failed-attack"
	optTurnLimit = "turn-limit"
	optShips     = "ships"
)

func (ruleset) Info() engine.Info {
	return engine.Info{
		Version: 3, // see engine.Info.Version: raise it with a rule change
		Name:    "prosper", Title: "Prosper or Perish", MinPlayers: 2, MaxPlayers: 6,
		Summary: summary,
		Options: []engine.Option{
			{Name: optMap, Default: "default", Choices: []string{"default", "generated", "hex19", "hex37"},
				Help: "default: Hex-19 for 2–3 players, Hex-37 for 4–6; generated: a new map grown from the game's dice, 5 planets a player + 7; or name one"},
			{Name: optMinimum, Default: "half", Choices: []string{"half", "literal"},
				Help: "least ships to settle a planet: natives/2+1, or the literal natives+1"},
			{Name: optLosses, Default: "gone", Choices: []string{"gone", "reserve"},
				Help: "ships lost to natives while settling: gone for good, or a reserve placed when the main phase begins"},
			{Name: optDefence, Default: "absorb", Choices: []string{"absorb", "strict"},
				Help: "a failed attack on a player: the defence point absorbs the first attacker, defender keeps ships+1-attackers; strict: keeps ships-attackers"},
			{Name: optTurnLimit, Default: "0",
				Help: "end after this many rounds (0: play to the end); most planets wins, ties by ships"},
			{Name: optShips, Default: "30", Help: "ships each player settles at the start"},
		},
		OrderHelp: orderHelp,
	}
}

const summary = "Conquer the planets of a star system. Each player settles 30 ships on planets in snake order, " +
	"losing half the natives' strength. Then each round every player in turn makes up to three " +
	"movements (any ships from one planet to another: to your own planets along a chain of your own, " +
	"or an attack on a neighbour you do not own), and every colonised planet produces ships up to its " +
	"limit. Natives fight 1:1; an enemy planet defends with its ships plus one. The last player with " +
	"planets wins."

const orderHelp = `Settling (at the start, one planet per pick, in snake order):
  SETTLE <planet> <ships>            settle a free planet (or add to your own)
  SETTLE <planet> <ships> ELSE <planet> <ships> ...
                                     the first that is still possible
  PLAN NONE                          clear your settling plan
  More SETTLE lines make a plan: each later pick of yours uses the next line
  that is possible, without waiting for another mail.
  While others pick, a mail of SETTLE lines replaces your whole plan (checked
  as the plan lines of a pick are); PLAN NONE clears it, so your next pick
  waits for your mail. Only you see your plan.
  Settling costs half the natives (small 0, medium 2, large 6); you need at
  least one ship left: small 1, medium 3, large 7.

Movement (each round, in turn, up to 3 movements):
  MOVE <ships> FROM <planet> TO <planet>
                                     your own planet: along a chain of your
                                     planets; any other: an attack on a
                                     planet next to the one you leave
  DONE                               end your movement (also: an empty mail)
  Movements run in the order written, each on the board the earlier ones left.

Planets may be named by name or by the first letters of the name.`

// NewState sets a game up: map, seat order, colonisation.
func (ruleset) NewState(s engine.Setup, d *dice.Dice) (engine.State, error) {
	o := s.Options
	limit, err := strconv.Atoi(o[optTurnLimit])
	if err != nil || limit < 0 {
		return nil, fmt.Errorf("option %s must be a whole number of rounds, 0 or more, not %q", optTurnLimit, o[optTurnLimit])
	}
	ships, err := strconv.Atoi(o[optShips])
	if err != nil || ships < 1 || ships > 500 {
		return nil, fmt.Errorf("option %s must be a number of ships from 1 to 500, not %q", optShips, o[optShips])
	}
	st := &State{
		Rules: Rules{Minimum: o[optMinimum], Losses: o[optLosses], Defence: o[optDefence], TurnLimit: limit},
		Seats: append([]string(nil), s.Players...),
		Tells: s.RulesVersion >= storySince,
	}
	// 004-B1: seat order (who is player one) is random.
	d.ShuffleMsg(len(st.Seats), lang.M("seat order"), func(i, j int) { st.Seats[i], st.Seats[j] = st.Seats[j], st.Seats[i] })
	var sites []Site
	switch m := o[optMap]; m {
	case "default":
		st.Map = defaultMapFor(len(s.Players))
		sites, err = loadMap(st.Map)
	case "generated":
		st.Map = "generated"
		sites, err = generateMap(len(s.Players), d)
	default:
		st.Map = m
		sites, err = loadMap(m)
	}
	if err != nil {
		return nil, err
	}
	for _, site := range sites {
		st.Planets = append(st.Planets, Planet{Site: site})
	}
	st.Supply = map[string]int{}
	st.Reserve = map[string]int{}
	st.Plans = map[string][]string{}
	for _, p := range st.Seats {
		st.Supply[p] = ships
	}
	st.Phase_ = phaseSettle
	st.Pick = -1
	st.nextPicker()
	return st, nil
}

func (ruleset) LoadState(data []byte) (engine.State, error) {
	var st State
	if err := engine.DecodeJSON(data, &st); err != nil {
		return nil, fmt.Errorf("read prosper state: %w", err)
	}
	if st.Supply == nil {
		st.Supply = map[string]int{}
	}
	if st.Reserve == nil {
		st.Reserve = map[string]int{}
	}
	if st.Plans == nil {
		st.Plans = map[string][]string{}
	}
	return &st, nil
}

// CheckSyntax checks an orders file with no game at hand: the grammar of
// every line, and every planet name against the maps a game can be played
// on. The maps are data of the ruleset, so a misspelt planet is caught
// before the orders are sent ("no planet named 'Rigle' — did you mean
// 'Rigel'?"); whether the planet is free, yours or next to the other is
// known only in the game.
func (ruleset) CheckSyntax(text string) []engine.LineError {
	orders, errs := parseLines(text, nil)
	boards := offlineBoards()
	for _, o := range orders {
		var names []string
		for _, a := range o.alts {
			names = append(names, a.name)
		}
		if o.kind == "move" {
			names = append(names, o.names[0], o.names[1])
		}
		for _, name := range names {
			if err := knownPlanet(boards, name); err != nil {
				errs = append(errs, errOf(o, err))
			}
		}
	}
	sort.SliceStable(errs, func(i, j int) bool { return errs[i].Line < errs[j].Line })
	return errs
}

// offlineBoards are the built-in maps, smallest first, as empty boards to
// look names up in. A generated map names its planets as hex37 names the
// same cells, so these cover every game.
func offlineBoards() []*State {
	var out []*State
	for _, name := range []string{"hex19", "hex37"} {
		sites, err := loadMap(name)
		if err != nil {
			continue // the embedded maps are tested; cannot happen
		}
		s := &State{Map: name}
		for _, site := range sites {
			s.Planets = append(s.Planets, Planet{Site: site})
		}
		out = append(out, s)
	}
	return out
}

// knownPlanet accepts a name that names a planet (in full, or by a
// beginning that fits one planet) on at least one board; otherwise the
// error of the largest board, which suggests the nearest names.
func knownPlanet(boards []*State, name string) error {
	var last error
	for _, b := range boards {
		_, err := b.findPlanet(name)
		if err == nil {
			return nil
		}
		last = err
	}
	return last
}

func (ruleset) Bot(v engine.View, p engine.Prompt, r *rand.Rand) string {
	return bot(v.(*view), p, r)
}
