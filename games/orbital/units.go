package orbital

import "strings"

// Kind is a unit or module type of the data sheet (section 9).
type Kind string

const (
	Station   Kind = "station" // a hull of modules; not bought, founded from a Core
	Core      Kind = "core"
	Engine    Kind = "engine"
	Factory   Kind = "factory"
	PointDef  Kind = "pd"
	Refinery  Kind = "refinery"
	Armor     Kind = "armor"
	Collector Kind = "collector"
	Scoopship Kind = "scoopship"
	Bus       Kind = "bus"
	Gunship   Kind = "gunship"
	DefSat    Kind = "defsat"
	ComSat    Kind = "comsat"
	ECMSat    Kind = "ecmsat"
	Warhead   Kind = "warhead"
	Pulse     Kind = "pulse"
	Booster   Kind = "booster"
)

// Spec is one line of the data sheet. Values the sheet lacks are the
// analysis's proposals, named in the comment of each.
type Spec struct {
	Kind    Kind
	Cost    int  // RU
	Quota   int  // production per turn it adds to its Station (Core, Factory)
	HP      int  // hit points; damage > 2 disables a module, = HP destroys it
	Weight  int  // payload weight when carried
	Payload int  // capacity; -1 is a Station's unlimited bay
	Thrust  int  // thrust points per turn
	Shots   int  // laser shots per turn (002-G8)
	Letter  byte // ID prefix
	Module  bool
}

var specs = map[Kind]Spec{
	Station:   {Kind: Station, Payload: -1, Letter: 'S'},
	Core:      {Kind: Core, Cost: 14, Quota: 10, HP: 4, Weight: 6, Letter: 'Y', Module: true},
	Engine:    {Kind: Engine, Cost: 4, HP: 4, Weight: 6, Module: true},
	Factory:   {Kind: Factory, Cost: 8, Quota: 20, HP: 4, Weight: 6, Module: true}, // HP 002-F18
	PointDef:  {Kind: PointDef, Cost: 6, HP: 4, Weight: 6, Shots: 3, Module: true},
	Refinery:  {Kind: Refinery, Cost: 8, HP: 8, Weight: 6, Module: true},
	Armor:     {Kind: Armor, Cost: 3, HP: 4, Weight: 6, Module: true}, // HP 002-F9
	Collector: {Kind: Collector, Cost: 6, HP: 6, Weight: 6, Module: true},
	Scoopship: {Kind: Scoopship, Cost: 6, HP: 1, Weight: 4, Thrust: 2, Letter: 'K'},
	Bus:       {Kind: Bus, Cost: 4, HP: 1, Weight: 4, Payload: 6, Thrust: 2, Letter: 'B'},
	Gunship:   {Kind: Gunship, Cost: 10, HP: 4, Weight: 6, Payload: 6, Thrust: 2, Shots: 2, Letter: 'G'}, // weight 002-F18
	DefSat:    {Kind: DefSat, Cost: 3, HP: 1, Weight: 2, Shots: 1, Letter: 'D'},
	ComSat:    {Kind: ComSat, Cost: 2, HP: 1, Weight: 2, Letter: 'C'},
	ECMSat:    {Kind: ECMSat, Cost: 3, HP: 1, Weight: 2, Letter: 'E'},
	Warhead:   {Kind: Warhead, Cost: 1, HP: 1, Weight: 1, Letter: 'W'},
	Pulse:     {Kind: Pulse, Cost: 4, HP: 1, Weight: 1, Letter: 'P'},
	Booster:   {Kind: Booster, Cost: 1, HP: 1, Weight: 1, Payload: 1, Thrust: 3, Letter: 'R'}, // 002-F16
}

// moduleOrder is the installation order used by the hit-location roll
// (002-F8) when modules are listed for a new Station.
var moduleOrder = []Kind{Core, Engine, Factory, PointDef, Refinery, Armor, Collector}

func (k Kind) satellite() bool { return k == DefSat || k == ComSat || k == ECMSat }
func (k Kind) warhead() bool   { return k == Warhead || k == Pulse }

// craft is a unit that moves under its own thrust (when it has any).
func (k Kind) spacecraft() bool {
	return k == Scoopship || k == Bus || k == Gunship || k == Booster || k == Station
}

// parseKind reads a unit or module type, with a few common spellings.
func parseKind(s string) (Kind, bool) {
	s = strings.ToLower(s)
	aliases := map[string]Kind{"pointdefense": PointDef, "point-defense": PointDef, "pointdefence": PointDef,
		"activearmor": Armor, "active-armor": Armor, "armour": Armor, "scoop": Scoopship, "basic": Warhead,
		"resourcecollector": Collector, "hydrogenrefinery": Refinery}
	if k, ok := aliases[s]; ok {
		return k, true
	}
	if _, ok := specs[Kind(s)]; ok && s != string(Station) {
		return Kind(s), true
	}
	return "", false
}

// kindNames lists what BUY accepts, for error messages.
var buyable = []string{"core", "engine", "factory", "pd", "refinery", "armor", "collector", "scoopship", "bus",
	"gunship", "defsat", "comsat", "ecmsat", "warhead", "pulse", "booster"}
