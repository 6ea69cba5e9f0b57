package main

// orbitalNames are the Latin words a Russian mail of Orbital may hold:
// the proper names its Russian keeps, as the glossary of
// games/orbital/README.md lists them. The title ("Orbital: Stations,
// Satellites, Boosters and Warheads") is taken out of a mail whole, even
// where a sentence wraps it.
var orbitalNames = map[string]bool{}
