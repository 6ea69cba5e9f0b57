package main

// earthmanNames are the Latin words a Russian mail of The Earthman's
// Burden (both editions) may hold: the proper names its Russian keeps,
// as the glossary of games/earthman/README.md lists them.
var earthmanNames = map[string]bool{}
