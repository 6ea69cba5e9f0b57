package earthman

import (
	_ "embed"

	"orrery/engine/draw"
	"orrery/engine/lang"
)

// The story of a step (issue 44): the moves, launches, fights, losses,
// builds and takeovers of the last step, drawn over the disc. Neither
// edition hides anything on the board (000-H, 001-H) and every event of a
// move or a fight is told to everyone, so every entry is public; what is
// hidden (standing orders, triggers, stored destinations) is never told
// here.

//go:embed ru-story.po
var ruStoryPO string

// storySince is the rules version (of each edition) whose games keep
// their story; games set up before replay to the states they recorded.
const storySince = 3

// tale is the story both editions' states keep: Tells is set at setup in
// games that keep one, Story is the last step's.
type tale struct {
	Tells bool        `json:"tells,omitempty"`
	Story []draw.Told `json:"story,omitempty"`
}

// begin starts the story of a new step.
func (t *tale) begin() { t.Story = nil }

// tell records one thing of the step's story, in a game that keeps one.
func (t *tale) tell(k draw.Kind, from, at, owner string) {
	if t.Tells {
		t.Story = append(t.Story, draw.Told{Kind: k, From: from, At: at, Owner: owner})
	}
}

// storyWords are the legend's words for what the story draws.
var storyWords = map[draw.Kind]lang.Msg{
	draw.Move:      lang.M("fleets moved"),
	draw.Launch:    lang.M("fleets launched"),
	draw.Battle:    lang.M("fire or overthrow"),
	draw.Destroyed: lang.M("units lost"),
	draw.Built:     lang.M("fleet or development added"),
	draw.Captured:  lang.M("developments taken over"),
}

// storyOf places the story told (already kept to what the reader may
// see) on the disc.
func (d disc) storyOf(told []draw.Told, at map[string]draw.Point) draw.Story {
	place := func(name string) (draw.Point, float64, bool) {
		c, ok := at[name]
		pl, _ := board.Get(name)
		r := 7.0
		switch pl.Kind {
		case World:
			r = 13
		case SolarSystem:
			r = 11
		}
		return c, r, ok
	}
	colour := func(owner string) draw.Color {
		switch i := seatOf(d.players, owner); i {
		case unSeat:
			return draw.RGB(0x7A7A7A)
		case noSeat:
			return draw.None
		default:
			return draw.OwnerStyle(i).Fill
		}
	}
	return draw.Tale(told, place, colour)
}

// storyLabel words kind k of the legend in the picture's language.
func (d disc) storyLabel(k draw.Kind) string { return tr(d.tag, storyWords[k]) }
