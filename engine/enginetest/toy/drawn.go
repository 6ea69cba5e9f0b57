package toy

import (
	"orrery/engine"
	"orrery/engine/dice"
	"orrery/engine/draw"
)

// Drawn is the toy race whose views draw their board (engine.Drawer), as
// every real ruleset's do: for tests of what the mail side adds to a
// picture.
func Drawn() engine.Ruleset { return drawnRace{ruleset{}} }

type drawnRace struct{ engine.Ruleset }

type drawnState struct{ engine.State }

type drawnView struct{ engine.View }

func (r drawnRace) NewState(s engine.Setup, d *dice.Dice) (engine.State, error) {
	st, err := r.Ruleset.NewState(s, d)
	return drawnState{st}, err
}

func (r drawnRace) LoadState(data []byte) (engine.State, error) {
	st, err := r.Ruleset.LoadState(data)
	return drawnState{st}, err
}

func (s drawnState) View(player string) engine.View { return drawnView{s.State.View(player)} }

func (v drawnView) Picture() *draw.Picture { return draw.Board(v.Board(), "the race") }
