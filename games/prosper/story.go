package prosper

import (
	_ "embed"

	"orrery/engine/draw"
	"orrery/engine/lang"
)

// The story of a step (issue 44): what the last step did, drawn over the
// picture. Prosper's moves, attacks and settlements are all public (only
// the plans are hidden, and a plan shows only once played, as a
// settlement everyone sees), so every entry is seen by everyone. A step
// starts a new story; a plan's answer (an Anytime step that moves nothing)
// leaves the story of the last move as it was.

//go:embed ru-story.po
var ruStoryPO string

// storySince is the rules version whose games keep their story.
const storySince = 3

// tell records one thing of the step's story.
func (s *State) tell(k draw.Kind, from, at int, owner string) {
	if !s.Tells {
		return
	}
	t := draw.Told{Kind: k, At: s.Planets[at].Name, Owner: owner}
	if from >= 0 {
		t.From = s.Planets[from].Name
	}
	s.Story = append(s.Story, t)
}

// storyWords are the legend's words for what the story draws.
var storyWords = map[draw.Kind]lang.Msg{
	draw.Move:      lang.M("ships moved"),
	draw.Attack:    lang.M("attack"),
	draw.Battle:    lang.M("fight"),
	draw.Destroyed: lang.M("all ships lost"),
	draw.Built:     lang.M("settled, ships added"),
	draw.Captured:  lang.M("taken"),
}

// story is the step's story as the view's reader may see it, placed by
// at (a planet's centre) and radius.
func (v *view) story(at func(Hex) draw.Point, radius func(Planet) float64) draw.Story {
	byName := map[string]Planet{}
	for _, pl := range v.s.Planets {
		byName[pl.Name] = pl
	}
	place := func(name string) (draw.Point, float64, bool) {
		pl, ok := byName[name]
		if !ok {
			return draw.Point{}, 0, false
		}
		return at(pl.Hex), radius(pl), true
	}
	colour := func(owner string) draw.Color {
		if i := v.seat(owner); i >= 0 {
			return draw.OwnerStyle(i).Fill
		}
		return draw.None
	}
	return draw.Tale(draw.SeenBy(v.s.Story, v.Player()), place, colour)
}

// storyLabel words kind k of the legend in the view's language.
func (v *view) storyLabel(k draw.Kind) string { return say(v.lang, storyWords[k]) }
