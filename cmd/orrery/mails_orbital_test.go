package main

// orbitalNames are the Latin words a Russian mail of Orbital may hold:
// the proper names its Russian keeps, as the glossary of
// games/orbital/README.md lists them. They are the words of the game's
// title, "Orbital: Stations, Satellites, Boosters and Warheads", kept as
// its name in every language: englishWords takes the title out of a mail
// only where it stands on one line, and the welcome's sentence wraps it
// ("… Boosters and\nWarheads)"), so its words are listed here as well.
var orbitalNames = map[string]bool{
	"Orbital": true, "Stations": true, "Satellites": true, "Boosters": true, "and": true, "Warheads": true,
}
