package draw

import (
	"bytes"
	"os"
	"slices"
	"testing"
)

// TestSeenBy: a reader gets the public entries and those told to them; the
// GM all; an observer (no seat) the public ones only.
func TestSeenBy(t *testing.T) {
	told := []Told{
		{Kind: Move, From: "a", At: "b", Owner: "ann"},
		{Kind: Move, From: "c", At: "d", Owner: "bob", Seen: []string{"bob"}},
		{Kind: Battle, At: "d", Seen: []string{"bob", "cy"}},
	}
	for _, c := range []struct {
		reader string
		want   int
	}{{"", 3}, {"ann", 1}, {"bob", 3}, {"cy", 2}, {"(observer)", 1}} {
		if got := SeenBy(told, c.reader); len(got) != c.want {
			t.Errorf("%q sees %d entries (%v), want %d", c.reader, len(got), got, c.want)
		}
	}
}

// TestTale: entries at places the view does not draw are left out, the
// same arrow twice is drawn once, and an owner's colour is used.
func TestTale(t *testing.T) {
	places := map[string]Point{"a": {100, 100}, "b": {300, 100}, "c": {200, 300}}
	place := func(n string) (Point, float64, bool) { p, ok := places[n]; return p, 20, ok }
	blue := OwnerStyle(0).Fill
	colour := func(o string) Color {
		if o == "ann" {
			return blue
		}
		return None
	}
	s := Tale([]Told{
		{Kind: Move, From: "a", At: "b", Owner: "ann"},
		{Kind: Move, From: "a", At: "b", Owner: "ann"},
		{Kind: Attack, From: "b", At: "hidden", Owner: "ann"},
		{Kind: Battle, At: "c"},
		{Kind: Destroyed, At: "nowhere"},
	}, place, colour)
	if len(s.Arrows) != 1 || s.Arrows[0].Color != blue || len(s.Marks) != 1 || s.Marks[0].Kind != Battle {
		t.Fatalf("story %+v", s)
	}
}

// TestStoryDrawn: the story's shapes are drawn over the board, grouped in
// the SVG, counted by StoryShapes, legend entries only for kinds drawn;
// a picture without a story has none of it.
func TestStoryDrawn(t *testing.T) {
	board := func() *Picture {
		p := New(800, 520, Paper)
		for i, c := range []Point{{150, 150}, {450, 150}, {300, 380}, {650, 380}} {
			o := OwnerStyle(i)
			p.Circle(c, 30, Style{Fill: o.Fill, Stroke: Ink, Width: 1.5})
			p.Text(c, "A12", Font{Size: 15, Bold: true, Anchor: Middle, Color: o.Ink})
		}
		return p
	}
	plain := board()
	if plain.StoryShapes() != 0 {
		t.Fatal("a picture with no story counts story shapes")
	}
	svg, _ := plain.SVG()
	if bytes.Contains(svg, []byte(`class="story"`)) {
		t.Fatal("a picture with no story has a story group")
	}

	p := board()
	s := Story{
		Arrows: []Arrow{
			{From: Pt(150, 150), To: Pt(450, 150), Kind: Move, Color: OwnerStyle(0).Fill, Gap: 30},
			{From: Pt(450, 150), To: Pt(150, 150), Kind: Move, Color: OwnerStyle(1).Fill, Gap: 30},
			{From: Pt(450, 150), To: Pt(300, 380), Kind: Attack, Color: OwnerStyle(1).Fill, Gap: 30},
			{From: Pt(300, 380), To: Pt(650, 380), Kind: Launch, Color: OwnerStyle(2).Fill, Gap: 30},
		},
		Marks: []Mark{{At: Pt(300, 380), R: 30, Kind: Battle}, {At: Pt(650, 380), R: 30, Kind: Destroyed},
			{At: Pt(150, 150), R: 30, Kind: Built}, {At: Pt(450, 150), R: 30, Kind: Captured, Color: OwnerStyle(1).Fill}},
	}
	p.Story(s)
	if p.StoryShapes() == 0 {
		t.Fatal("Story drew nothing")
	}
	var labels []string
	y := p.StoryLegend(20, 460, 780, 13, s, func(k Kind) string { labels = append(labels, string(k)); return string(k) })
	if !slices.Equal(labels, []string{"move", "attack", "launch", "battle", "destroyed", "built", "captured"}) {
		t.Errorf("legend entries %v", labels)
	}
	if y <= 460 || y > 520 {
		t.Errorf("the legend ends at %g", y)
	}
	if got := p.StoryLegend(20, y, 780, 13, Story{}, func(Kind) string { return "x" }); got != y {
		t.Errorf("an empty story's legend took room: %g to %g", y, got)
	}
	svg, err := p.SVG()
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Count(svg, []byte(`<g class="story">`)) != 1 || bytes.Count(svg, []byte("</g>")) != 1 {
		t.Errorf("the SVG has no single story group:\n%s", svg)
	}
	png, err := p.PNG()
	if err != nil {
		t.Fatal(err)
	}
	if dir := os.Getenv("ORRERY_STORY_OUT"); dir != "" {
		os.WriteFile(dir+"/story.png", png, 0o644)
		os.WriteFile(dir+"/story.svg", svg, 0o644)
	}
}
