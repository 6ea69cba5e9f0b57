package burning

import (
	"orrery/engine/draw"
)

// The story of a step (issue 44): the last turn's moves, attacks and
// fire, what they destroyed, what was built or deployed and the planets
// conquered, drawn over the galaxy. Everything here is told to every
// player (the board hides nothing; only the banks may be hidden, and
// what a cargo ship carries, neither of which the story names), so every
// entry is public.

// storySince is the rules version whose games keep their story; games set
// up before replay to the states they recorded.
const storySince = 3

// told records one thing of the step's story, in a game that keeps one.
// from is nil for a mark.
func (s *State) told(k draw.Kind, from *Cell, at Cell, owner string) {
	if !s.Tells {
		return
	}
	t := draw.Told{Kind: k, At: at.String(), Owner: owner}
	if from != nil {
		t.From = from.String()
	}
	s.Story = append(s.Story, t)
}

// target is the cell an ATTACK or FIRE order aims at: its ship's, or its
// cell.
func (t *turn) target(o *order) Cell {
	if o.TShip > 0 {
		if sh := t.s.ship(o.TShip); sh != nil {
			return sh.Cell
		}
	}
	return o.TCell
}

// storyWords are the legend's words, English and Russian, as picWords.
var storyWords = map[draw.Kind][2]string{
	draw.Move:      {"ship moved", "перелёт корабля"},
	draw.Attack:    {"attack or fire", "атака или огонь"},
	draw.Battle:    {"fight", "бой"},
	draw.Destroyed: {"destroyed", "уничтожено"},
	draw.Built:     {"built or deployed", "построено или развёрнуто"},
	draw.Captured:  {"conquered", "завоёвана"},
}

// story is the step's story as the view's reader may see it, each cell
// placed by at, things of radius r; a planet's centre (where it is
// conquered) stands for the whole planet, a cell w wide for each ring.
func (v view) story(at func(Cell) draw.Point, r, w float64) draw.Story {
	place := func(name string) (draw.Point, float64, bool) {
		c, ok := parseCell(name)
		if !ok || !v.s.Grid.in(c) {
			return draw.Point{}, 0, false
		}
		for _, pl := range v.s.Planets {
			if pl.Centre == c {
				return at(c), (float64(pl.radius()) + 0.85) * w, true
			}
		}
		return at(c), r, true
	}
	colour := func(owner string) draw.Color {
		for i, q := range v.s.Seats {
			if q == owner {
				return draw.OwnerStyle(i).Fill
			}
		}
		return draw.None
	}
	return draw.Tale(draw.SeenBy(v.s.Story, v.Player()), place, colour)
}

// storyLabel words kind k of the legend in the view's language.
func (v view) storyLabel(k draw.Kind) string {
	if v.lang() == langRU {
		return storyWords[k][1]
	}
	return storyWords[k][0]
}
