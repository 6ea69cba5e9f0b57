package main

// orbitalNames are the Latin words a Russian mail of Orbital may hold:
// the proper names its Russian keeps, as the glossary of
// games/orbital/README.md lists them.
var orbitalNames = map[string]bool{}
