// Package orbital is the untitled orbital-mechanics game of Stations,
// Satellites, Boosters and Warheads (seeds/orbital.md, analysis "Game 002"):
// two players plot a turn at once; the server flies eight impulses under
// real (hex) gravity, fires lasers and warheads by standing orders, then
// collects, repairs and builds. README.md says which proposal every gap uses.
package orbital

import (
	"orrery/engine"
	"orrery/engine/dice"
	"orrery/engine/lang"
)

// Ruleset returns the orbital game.
func Ruleset() engine.Ruleset { return ruleset{} }

type ruleset struct{}

var options = []engine.Option{
	{Name: "scenario", Default: "slow", Choices: []string{"slow", "fast", "refinery"},
		Help: lang.M("8.1 slow (both Stations orbit the same way), 8.2 fast (opposite ways), 8.3 refinery (opposite; first to refine the goal wins)").English()},
	{Name: "moons", Default: "fixed", Choices: []string{"fixed", "random", "agreed", "none"},
		Help: lang.M("moon placement: fixed (rings 3, 6, 2 at set corners), random (2d6 each: ring, sextant), agreed (moon-spots) or none").English()},
	{Name: "moon-spots", Default: "", Help: lang.M("with moons=agreed: the players' moons as ring and sextant, e.g. \"3B 6E\" (one moon a ring, up to 4)").English()},
	{Name: "moon-sense", Default: "ccw", Choices: []string{"ccw", "cw"}, Help: lang.M("the one direction all moons orbit in").English()},
	{Name: "moon-count", Default: "2", Choices: []string{"0", "1", "2", "3", "4"},
		Help: lang.M("how many fixed or random moons: the scenarios say up to 3, the general setup up to 4; 4 is the GM's choice").English()},
	{Name: "station-ring", Default: "4", Choices: []string{"1", "2", "3", "4", "5", "6", "7", "8", "9", "10"},
		Help: lang.M("the ring both starting Stations orbit in, on opposite corners (4 is a debris ring, so they can collect from turn 1)").English()},
	{Name: "station-spots", Default: "", Help: lang.M("the two starting Stations' hexes, first player first, e.g. \"4A0 4D2\" (overrides station-ring; the sense comes from the scenario)").English()},
	{Name: "opening", Default: "on", Choices: []string{"on", "off"}, Help: lang.M("a purchase-only turn 0 to spend the starting 8 RU before anything moves").English()},
	{Name: "placement", Default: "sequential", Choices: []string{"sequential", "simultaneous"},
		Help: lang.M("where the Stations start, before the opening: sequential = one player after the other in seat order, each seeing the earlier placements; simultaneous = PLACE orders in the opening turn, sealed").English()},
	{Name: "min-distance", Default: "2", Choices: []string{"0", "1", "2", "3", "4", "5", "6"},
		Help: lang.M("the fewest hexes between a placed Station and an enemy Station (2: out of laser range, which reaches the same or the next hex)").English()},
	{Name: "turn-limit", Default: "40", Help: lang.M("end after this many turns; the greater value (bank plus units) wins; 0 = none").English()},
	{Name: "ecm", Default: "1", Choices: []string{"0", "1", "2"}, Help: lang.M("hit range lost to a target within 1 hex of its side's ECMSat (our design)").English()},
	{Name: "comsat", Default: "1", Choices: []string{"0", "1", "2"}, Help: lang.M("hit range gained when the attacker's ComSat sees the target (our design)").English()},
	{Name: "armor", Default: "2", Choices: []string{"0", "1", "2", "3"}, Help: lang.M("damage Active Armor stops on every hit on its Station (our design)").English()},
	{Name: "hit-location", Default: "even", Choices: []string{"even", "sheet"},
		Help: lang.M("which module a hit on a Station lands on (our design): even = any module alike; sheet = a d8 on the data sheet's order, 1 Core … 7 Collector, 8 Core, a missing module's face hitting the Core").English()},
	{Name: "refinery", Default: "2d6", Choices: []string{"1d6", "2d6", "3d6"}, Help: lang.M("RU a refinery makes of one scoopship load (our design)").English()},
	{Name: "refinery-goal", Default: "40", Help: lang.M("refinery scenario: refined RU that win").English()},
	{Name: "hidden-cargo", Default: "off", Choices: []string{"off", "on"}, Help: lang.M("hide enemy bay contents and payloads until launched or dropped; Booster payloads are always hidden").English()},
	{Name: "sat-weight", Default: "2", Choices: []string{"2", "3"}, Help: lang.M("satellite weight: 2 by the data sheet, 3 by the Bus example").English()},
}

// summary is the game in a paragraph, for HELP and RULES (Info.Summary).
const summary = "Two players fly Stations, Buses, Gunships, Scoopships, satellites, Boosters and Warheads " +
	"around one planet on a hex map of orbital rings with real gravity. Both plot each turn at once; " +
	"the server flies eight impulses, fires lasers and warheads by your standing orders, then you " +
	"collect resources, repair and build. You lose when you have no Station left."

func (ruleset) Info() engine.Info {
	return engine.Info{
		Version: 3, // see engine.Info.Version: raise it with a rule change
		Name:    "orbital", Title: "Orbital: Stations, Satellites, Boosters and Warheads",
		MinPlayers: 2, MaxPlayers: 2, Options: options,
		Summary:   lang.M(summary).English(),
		OrderHelp: lang.M(orderHelp).English(),
	}
}

func (ruleset) NewState(s engine.Setup, d *dice.Dice) (engine.State, error) { return newState(s, d) }

func (ruleset) LoadState(data []byte) (engine.State, error) { return loadState(data) }
