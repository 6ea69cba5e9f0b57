package draw

import (
	"math"
	"slices"
)

// The story of a step: what just happened, drawn over the position so that
// a reader sees the moves, attacks and losses of the step at a glance
// instead of rebuilding them from the list of events (issue 44). A ruleset
// records at resolve what happened as Told entries in its own place names
// (kept in its state, so that every reader's view of the step can draw
// them), each with the seats that may see it; its view keeps those its
// reader may see (SeenBy), places them on its board (Tale) and draws them
// over the board (Picture.Story) with their legend (Picture.StoryLegend).

// Kind is what a Told entry is: an arrow (move, attack, launch) or a mark
// at one place (battle, destroyed, built, captured). The names are what
// a state stores.
type Kind string

// The kinds of the story.
const (
	Move      Kind = "move"      // a unit or fleet went from one place to another
	Attack    Kind = "attack"    // an attack or shot from one place on another
	Launch    Kind = "launch"    // something launched, dropped or sent off
	Battle    Kind = "battle"    // a fight took place here
	Destroyed Kind = "destroyed" // something was lost here
	Built     Kind = "built"     // something was built or placed here
	Captured  Kind = "captured"  // the place changed hands
)

// Kinds lists the kinds in the order their legend entries are drawn.
var Kinds = []Kind{Move, Attack, Launch, Battle, Destroyed, Built, Captured}

// arrow reports whether k is drawn as an arrow (from From to At).
func (k Kind) arrow() bool { return k == Move || k == Attack || k == Launch }

// Told is one thing that happened in a step, as a ruleset records it for
// the story. Places are the ruleset's own names (a planet, a hex, a
// region), which only its view can place on the board.
type Told struct {
	Kind  Kind   `json:"kind"`
	From  string `json:"from,omitempty"` // where an arrow starts
	At    string `json:"at"`             // where an arrow ends, or the mark's place
	Owner string `json:"owner,omitempty"`
	// Seen are the seats that may see this (those its event was told
	// to); empty: everyone, observers too. Whatever a reader was not
	// told must not be drawn for them.
	Seen []string `json:"seen,omitempty"`
}

// SeenBy keeps the entries reader may see: all for the GM (""), and for
// anyone else the public ones and those told to them. An observer is no
// seat, so they get the public ones.
func SeenBy(told []Told, reader string) []Told {
	var out []Told
	for _, t := range told {
		if reader == "" || len(t.Seen) == 0 || slices.Contains(t.Seen, reader) {
			out = append(out, t)
		}
	}
	return out
}

// Arrow is a story's arrow in pixels: from From to To, in the owner's
// colour, its ends kept Gap pixels off the centres so that it leaves the
// things there readable.
type Arrow struct {
	From, To Point
	Kind     Kind
	Color    Color
	Gap      float64
}

// Mark is a story's mark in pixels: a battle's burst, a loss's cross, a
// build's plus or a capture's ring around a thing of radius R at At.
type Mark struct {
	At    Point
	R     float64
	Kind  Kind
	Color Color // the capture's new owner; the others have their own colours
}

// Story is what a picture draws of its step.
type Story struct {
	Arrows []Arrow
	Marks  []Mark
}

// Empty reports whether the story draws nothing.
func (s Story) Empty() bool { return len(s.Arrows) == 0 && len(s.Marks) == 0 }

// Place is where a ruleset's view puts one of its places on its picture:
// the centre and the radius of what stands there; ok false for a place it
// does not draw (off its board, or not shown to its reader).
type Place func(name string) (at Point, r float64, ok bool)

// Tale places told on the picture: each arrow and mark at the places
// place gives, in colour(owner) (None for none: drawn in Ink). Entries
// whose places are not drawn are left out; the same arrow or mark twice
// is drawn once.
func Tale(told []Told, place Place, colour func(owner string) Color) Story {
	var s Story
	for _, t := range told {
		at, r, ok := place(t.At)
		if !ok {
			continue
		}
		c := Ink
		if colour != nil {
			if oc := colour(t.Owner); oc.visible() {
				c = oc
			}
		}
		if t.Kind.arrow() {
			from, fr, ok := place(t.From)
			if !ok || from == at {
				continue
			}
			a := Arrow{From: from, To: at, Kind: t.Kind, Color: c, Gap: math.Max(fr, r)}
			if !slices.Contains(s.Arrows, a) {
				s.Arrows = append(s.Arrows, a)
			}
			continue
		}
		m := Mark{At: at, R: r, Kind: t.Kind}
		if t.Kind == Captured {
			m.Color = c
		}
		if !slices.Contains(s.Marks, m) {
			s.Marks = append(s.Marks, m)
		}
	}
	return s
}

// The story's own colours: a red for fights and losses, a green for what
// was built, neither among the owners' (Okabe and Ito's vermillion is an
// owner's; this red is darker).
var (
	Fight = RGB(0xB2182B)
	Grown = RGB(0x1B7837)
	halo  = RGB(0xFFFFFF)
)

// storyWidth is the stroke of a story's arrows and marks: thick enough to
// read when the picture is shown a phone's 360 px wide (about 2.5 px
// there at 800).
func (p *Picture) storyWidth() float64 { return math.Max(4, float64(p.W)/160) }

// Story draws s over what the picture holds so far: the marks, then the
// arrows over them, each with a light halo so it reads over any board.
// Draw it after the board, before the legend (and StoryLegend under it).
func (p *Picture) Story(s Story) {
	if s.Empty() {
		return
	}
	start := len(p.Shapes)
	w := p.storyWidth()
	for _, m := range s.Marks {
		p.mark(m, w)
	}
	for _, a := range s.Arrows {
		p.arrow(a, w)
	}
	p.story = [2]int{start, len(p.Shapes)}
	p.told = s
}

// arrow draws a: shifted a little to its right, so that two arrows
// between the same places in opposite directions both show, and kept off
// both ends.
func (p *Picture) arrow(a Arrow, w float64) {
	dx, dy := a.To.X-a.From.X, a.To.Y-a.From.Y
	l := math.Hypot(dx, dy)
	if l == 0 {
		return
	}
	// Between neighbours (less room than two gaps and a head) the arrow
	// reaches into both things a little rather than shrinking to a stub.
	gap := math.Min(a.Gap+w, l*0.3)
	ux, uy := dx/l, dy/l
	side := Point{-uy * w * 1.1, ux * w * 1.1}
	from := Point{a.From.X + ux*gap + side.X, a.From.Y + uy*gap + side.Y}
	to := Point{a.To.X - ux*gap + side.X, a.To.Y - uy*gap + side.Y}
	head := 3.2 * w
	st := Style{Stroke: a.Color, Width: w}
	switch a.Kind {
	case Launch:
		st.Dash = []float64{2.2 * w, 1.4 * w}
	case Attack:
		st.Width = w * 1.3
		head = 3.6 * w
	}
	head = math.Min(head, (l-2*gap)*0.7)
	under := Style{Stroke: halo, Width: st.Width + w}
	if a.Kind == Attack {
		under.Stroke = Fight
	}
	p.Add(&Line{Points: []Point{from, to}, Style: under, Arrow: head + w})
	if a.Kind == Launch {
		// A dashed line has gaps; its halo is solid, and its colour is
		// drawn on a solid ink line a little thinner so that the dashes
		// read as one track.
		p.Add(&Line{Points: []Point{from, to}, Style: Style{Stroke: Ink, Width: st.Width * 0.5}})
	}
	p.Add(&Line{Points: []Point{from, to}, Style: st, Arrow: head})
}

// mark draws m around (or, for a loss, across) its place.
func (p *Picture) mark(m Mark, w float64) {
	r := math.Max(m.R, 3*w)
	switch m.Kind {
	case Battle:
		// No halo here: a ring's halo would wipe out the name under
		// the thing.
		p.Polygon(burst(m.At, r+0.6*w, r+2.2*w, 8), Style{Stroke: Fight, Width: 0.8 * w})
	case Destroyed:
		d := r * 0.75
		for _, pts := range [][]Point{{{m.At.X - d, m.At.Y - d}, {m.At.X + d, m.At.Y + d}}, {{m.At.X - d, m.At.Y + d}, {m.At.X + d, m.At.Y - d}}} {
			p.Line(Style{Stroke: halo, Width: 1.8 * w}, pts...)
		}
		for _, pts := range [][]Point{{{m.At.X - d, m.At.Y - d}, {m.At.X + d, m.At.Y + d}}, {{m.At.X - d, m.At.Y + d}, {m.At.X + d, m.At.Y - d}}} {
			p.Line(Style{Stroke: Fight, Width: w}, pts...)
		}
	case Built:
		// A green badge with a white plus at the thing's upper left,
		// clear of a name beside or under it.
		c := Point{m.At.X - r*0.75, m.At.Y - r*0.75}
		br := 2.4 * w
		p.Circle(c, br, Style{Fill: Grown, Stroke: halo, Width: w * 0.6})
		h := br * 0.6
		p.Line(Style{Stroke: halo, Width: w * 0.7}, Point{c.X - h, c.Y}, Point{c.X + h, c.Y})
		p.Line(Style{Stroke: halo, Width: w * 0.7}, Point{c.X, c.Y - h}, Point{c.X, c.Y + h})
	case Captured:
		c := m.Color
		if !c.visible() {
			c = Ink
		}
		p.Circle(m.At, r+0.9*w, Style{Stroke: c, Width: w, Dash: []float64{2 * w, 1.2 * w}})
	}
}

// burst is an n-pointed star around c, its points at radius out and its
// notches at in, a point straight up.
func burst(c Point, in, out float64, n int) []Point {
	pts := make([]Point, 0, 2*n)
	for i := range 2 * n {
		r := out
		if i%2 == 1 {
			r = in
		}
		a := -math.Pi/2 + math.Pi*float64(i)/float64(n)
		pts = append(pts, Point{c.X + r*math.Cos(a), c.Y + r*math.Sin(a)})
	}
	return pts
}

// StoryLegend lays out the legend entries of the kinds s draws, in Kinds
// order, as Legend does (from (x, y) to maxX, wrapping, labels in font
// size size), each labelled label(kind) in the reader's language and shown
// as the story draws it. It returns the y below the last row (y itself when
// s draws nothing).
func (p *Picture) StoryLegend(x, y, maxX, size float64, s Story, label func(Kind) string) float64 {
	have := map[Kind]bool{}
	for _, a := range s.Arrows {
		have[a.Kind] = true
	}
	for _, m := range s.Marks {
		have[m.Kind] = true
	}
	const gap = 14
	sw := size * 1.25
	row := size * 2.1
	f := Font{Size: size, Color: Ink}
	cx := x
	y += row / 2
	var m Meter
	drawn := false
	for _, k := range Kinds {
		if !have[k] {
			continue
		}
		drawn = true
		swW := sw * 1.4
		if k.arrow() {
			swW = sw * 2.6
		}
		text := label(k)
		w := swW + 6 + m.Width(text, f)
		if cx > x && cx+w > maxX {
			cx, y = x, y+row
		}
		p.storySwatch(k, Point{cx + swW/2, y}, swW, sw)
		p.Text(Point{cx + swW + 6, y}, text, f)
		cx += w + gap
	}
	if !drawn {
		return y - row/2
	}
	return y + row/2
}

// storySwatch draws the legend's sample of kind k, wide pixels across and
// about high pixels high around c: an arrow across it, or the mark around
// a small disc.
func (p *Picture) storySwatch(k Kind, c Point, wide, high float64) {
	w := math.Max(2.5, high/6)
	if k.arrow() {
		p.arrow(Arrow{From: Point{c.X - wide/2, c.Y}, To: Point{c.X + wide/2, c.Y}, Kind: k, Color: Ink}, w)
		return
	}
	r := high * 0.28
	p.Circle(c, r, Style{Fill: Faint, Stroke: Muted, Width: 1})
	p.mark(Mark{At: c, R: r, Kind: k, Color: Ink}, w*0.75)
}

// Told is the story the picture draws (Story): what the picture model
// shows of its step, mail and web alike.
func (p *Picture) Told() Story { return p.told }

// StoryShapes is how many shapes of the picture are its story's (drawn by
// Story): none for a picture of a position only. Tests use it to check that a
// step's picture tells what happened.
func (p *Picture) StoryShapes() int { return p.story[1] - p.story[0] }
