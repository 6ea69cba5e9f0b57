//go:build race

package main

// raceOn says the tests run under the race detector, where a whole game
// by mail costs ten times its time and tests no more than three turns.
const raceOn = true
