package main

// earthmanNames are the Latin words a Russian mail of The Earthman's
// Burden (both editions) may hold: the proper names its Russian keeps,
// as the glossary of games/earthman/README.md lists them.
var earthmanNames = map[string]bool{
	// First edition and the board both editions share: the places keep
	// the names the orders use (LAUNCH 2 FROM Earth TO Inner).
	"Mercury": true, "Venus": true, "Earth": true, "Luna": true, "Mars": true, "Ceres": true,
	"Io": true, "Europa": true, "Ganymede": true, "Titan": true,
	"Solar": true, "Inner": true, "Middle": true, "Outer": true,
	"Hermean": true, "Cislunar": true, "Martian": true, "Belt": true, "Jovian": true, "Kronian": true,
	// End of the first edition's names.
	// The full rules: the technologies keep the names the orders use
	// (TECH Colonisation, PRELUDE RESEARCH Attack), in events and status.
	"Attack": true, "Durability": true, "ActiveDefences": true, "Influence": true, "Unity": true,
	"Stability": true, "Spaceflight": true, "Launch": true, "Research": true, "Colonisation": true,
	"Nanotechnology": true, "VonNeumann": true,
	// End of the full rules' names.
}
