package orbital

import (
	_ "embed"

	"orrery/engine/draw"
	"orrery/engine/lang"
)

// The story of a step (issue 44): the turn's moves (from where each unit in
// space stood when the turn began to where it stands now; the velocity
// arrow goes on from there), launches, laser fire and warhead strikes,
// losses and purchases, drawn over the map. Only what both players see is
// told: a unit is drawn only once it is free in space (what rides in a
// bay or on a booster moves with its carrier, unseen), a loss at the hex
// of the unit everyone saw, a purchase at the buying Station's hex (the
// event "builds something" is public; what was bought is not drawn).

//go:embed ru-story.po
var ruStoryPO string

// storySince is the rules version whose games keep their story; games set
// up before replay to the states they recorded.
const storySince = 3

// told records one thing of the step's story, in a game that keeps one;
// from is nil for a mark.
func (t *turn) told(k draw.Kind, from *Hex, at Hex, owner string) {
	s := t.s
	if !s.Tells {
		return
	}
	e := draw.Told{Kind: k, At: at.Name(), Owner: owner}
	if from != nil {
		e.From = from.Name()
	}
	s.Story = append(s.Story, e)
}

// spot is where a unit stood when the turn began, and whether it was
// free in space there.
type spot struct {
	hex  Hex
	free bool
}

// spots are where every unit stands now.
func (t *turn) spots() map[string]spot {
	out := map[string]spot{}
	for _, u := range t.s.Units {
		out[u.ID] = spot{hex: u.Hex, free: u.In == "" && !u.Atmo}
	}
	return out
}

// toldMoves records the moves of the turn's Phase 1: every unit free in
// space now that stood elsewhere when it began (start) moved, or was
// launched if it was aboard then.
func (t *turn) toldMoves(start map[string]spot) {
	for _, u := range t.s.Units {
		was, ok := start[u.ID]
		if !ok || u.In != "" || u.Atmo || was.hex == u.Hex || was.hex.ring() == 0 {
			continue
		}
		k := draw.Move
		if !was.free {
			k = draw.Launch
		}
		t.told(k, &was.hex, u.Hex, u.Owner)
	}
}

// storyWords are the legend's words for what the story draws.
var storyWords = map[draw.Kind]lang.Msg{
	draw.Move:      lang.M("moved this turn"),
	draw.Launch:    lang.M("launched this turn"),
	draw.Attack:    lang.M("laser fire or strike"),
	draw.Battle:    lang.M("fired at"),
	draw.Destroyed: lang.M("lost"),
	draw.Built:     lang.M("bought or placed"),
}

// story is the step's story as the view's reader may see it, each hex
// placed by at, units of radius r.
func (v *view) story(at func(Hex) draw.Point, r float64) draw.Story {
	place := func(name string) (draw.Point, float64, bool) {
		h, err := parseHex(name)
		if err != nil || h.ring() == 0 {
			return draw.Point{}, 0, false
		}
		return at(h), r, true
	}
	colour := func(owner string) draw.Color {
		for i, p := range v.s.Players {
			if p.Name == owner {
				return draw.OwnerStyle(i).Fill
			}
		}
		return draw.None
	}
	return draw.Tale(draw.SeenBy(v.s.Story, v.Player()), place, colour)
}

// storyLabel words kind k of the legend in the view's language.
func (v *view) storyLabel(k draw.Kind) string { return v.render(storyWords[k]) }
