// Package orbital is the untitled orbital-mechanics game of Stations,
// Satellites, Boosters and Warheads (seeds/orbital.md, analysis "Game 002"):
// two players plot a turn at once; the server flies eight impulses under
// real (hex) gravity, fires lasers and warheads by standing orders, then
// collects, repairs and builds. README.md says which proposal every gap uses.
package orbital

import (
	"strings"

	"orrery/engine"
	"orrery/engine/dice"
)

// Ruleset returns the orbital game.
func Ruleset() engine.Ruleset { return ruleset{} }

type ruleset struct{}

var options = []engine.Option{
	{Name: "scenario", Default: "slow", Choices: []string{"slow", "fast", "refinery"},
		Help: "8.1 slow (both Stations orbit the same way), 8.2 fast (opposite ways), 8.3 refinery (opposite; first to refine the goal wins)"},
	{Name: "moons", Default: "fixed", Choices: []string{"fixed", "random", "agreed", "none"},
		Help: "moon placement: fixed (rings 3, 6, 2 at set corners), random (2d6 each: ring, sextant), agreed (moon-spots) or none"},
	{Name: "moon-spots", Default: "", Help: "with moons=agreed: the players' moons as ring and sextant, e.g. \"3B 6E\" (one moon a ring, up to 4)"},
	{Name: "moon-sense", Default: "ccw", Choices: []string{"ccw", "cw"}, Help: "the one direction all moons orbit in"},
	{Name: "moon-count", Default: "2", Choices: []string{"0", "1", "2", "3", "4"},
		Help: "how many fixed or random moons: the scenarios say up to 3, the general setup up to 4; 4 is the GM's choice"},
	{Name: "station-ring", Default: "4", Choices: []string{"1", "2", "3", "4", "5", "6", "7", "8", "9", "10"},
		Help: "the ring both starting Stations orbit in, on opposite corners (4 is a debris ring, so they can collect from turn 1)"},
	{Name: "station-spots", Default: "", Help: "the two starting Stations' hexes, first player first, e.g. \"4A0 4D2\" (overrides station-ring; the sense comes from the scenario)"},
	{Name: "opening", Default: "on", Choices: []string{"on", "off"}, Help: "a purchase-only turn 0 to spend the starting 8 RU before anything moves"},
	{Name: "placement", Default: "sequential", Choices: []string{"sequential", "simultaneous"},
		Help: "where the Stations start, before the opening: sequential = one player after the other in seat order, each seeing the earlier placements; simultaneous = PLACE orders in the opening turn, sealed"},
	{Name: "min-distance", Default: "2", Choices: []string{"0", "1", "2", "3", "4", "5", "6"},
		Help: "the fewest hexes between a placed Station and an enemy Station (2: out of laser range, which reaches the same or the next hex)"},
	{Name: "turn-limit", Default: "40", Help: "end after this many turns; the greater value (bank plus units) wins; 0 = none"},
	{Name: "ecm", Default: "1", Choices: []string{"0", "1", "2"}, Help: "hit range lost to a target within 1 hex of its side's ECMSat (our design)"},
	{Name: "comsat", Default: "1", Choices: []string{"0", "1", "2"}, Help: "hit range gained when the attacker's ComSat sees the target (our design)"},
	{Name: "armor", Default: "2", Choices: []string{"0", "1", "2", "3"}, Help: "damage Active Armor stops on every hit on its Station (our design)"},
	{Name: "hit-location", Default: "even", Choices: []string{"even", "sheet"},
		Help: "which module a hit on a Station lands on (our design): even = any module alike; sheet = a d8 on the data sheet's order, 1 Core … 7 Collector, 8 Core, a missing module's face hitting the Core"},
	{Name: "refinery", Default: "2d6", Choices: []string{"1d6", "2d6", "3d6"}, Help: "RU a refinery makes of one scoopship load (our design)"},
	{Name: "refinery-goal", Default: "40", Help: "refinery scenario: refined RU that win"},
	{Name: "hidden-cargo", Default: "off", Choices: []string{"off", "on"}, Help: "hide enemy bay contents and payloads until launched or dropped; Booster payloads are always hidden"},
	{Name: "sat-weight", Default: "2", Choices: []string{"2", "3"}, Help: "satellite weight: 2 by the data sheet, 3 by the Bus example"},
}

func (ruleset) Info() engine.Info {
	return engine.Info{
		Version: 2, // see engine.Info.Version: raise it with a rule change
		Name:    "orbital", Title: "Orbital: Stations, Satellites, Boosters and Warheads",
		MinPlayers: 2, MaxPlayers: 2, Options: options,
		Summary: "Two players fly Stations, Buses, Gunships, Scoopships, satellites, Boosters and Warheads " +
			"around one planet on a hex map of orbital rings with real gravity. Both plot each turn at once; " +
			"the server flies eight impulses, fires lasers and warheads by your standing orders, then you " +
			"collect resources, repair and build. You lose when you have no Station left.",
		OrderHelp: strings.Join(grammar, "\n") + "\n" +
			"Units are named by ID (S1, B7, R12). Hexes: ring, sextant A-F, offset\n" +
			"(5A0, 4C2, P = planet). Targets: enemy IDs or types (station bus gunship\n" +
			"scoopship booster warhead pulse satellite any).",
	}
}

func (ruleset) NewState(s engine.Setup, d *dice.Dice) (engine.State, error) { return newState(s, d) }

func (ruleset) LoadState(data []byte) (engine.State, error) { return loadState(data) }
