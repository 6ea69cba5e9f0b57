package prosper

import (
	"fmt"
	"math"
	"strings"

	"orrery/engine/draw"
	"orrery/engine/lang"
)

// pictureWidth is the width of the board picture (the web's SVG); a mail lays
// it out again for a phone (draw.Picture.Mail).
const pictureWidth = 800

// Picture draws the board as Board does, from the same planets: each planet
// a disc sized by its planet's size, filled with its owner's colour and
// marked with the owner's letter and ships (B25), natives as n12, a small
// planet no one holds as a dashed ring; links as lines between neighbours.
// Prosper hides nothing but settling plans, which the picture never shows.
// Over the board, the last step's story (story.go): moves and attacks as
// arrows in the mover's colour, fights, captures, wiped-out planets and
// settlements as marks, with their legend.
func (v *view) Picture() *draw.Picture {
	s, l := v.s, v.lang
	p := draw.New(pictureWidth, 100, draw.Paper)
	if len(s.Planets) == 0 {
		p.Summary = say(l, lang.M("Prosper or Perish: no map yet."))
		p.Text(draw.Pt(20, 40), say(l, lang.M("No map yet.")), draw.Font{Size: 16, Color: draw.Ink})
		return p
	}
	minR, maxR, minX, maxX := math.MaxInt, math.MinInt, math.MaxInt, math.MinInt
	for _, pl := range s.Planets {
		x := 2*pl.Hex.Q + pl.Hex.R
		minR, maxR = min(minR, pl.Hex.R), max(maxR, pl.Hex.R)
		minX, maxX = min(minX, x), max(maxX, x)
	}
	// Half a cell across (dx) and a row down (dy) make a regular hex grid;
	// the widest map (radius 3, 13 half cells) fills the width.
	const margin = 62
	dx := 55.0
	if span := maxX - minX; span > 0 {
		dx = min(dx, (pictureWidth-2*margin)/float64(span))
	}
	dy := dx * math.Sqrt(3)
	left := (pictureWidth - float64(maxX-minX)*dx) / 2
	top := 52.0
	at := func(h Hex) draw.Point {
		return draw.Pt(left+float64(2*h.Q+h.R-minX)*dx, top+44+float64(h.R-minR)*dy)
	}

	p.Text(draw.Pt(20, 24), v.pictureTitle(), draw.Font{Size: 17, Bold: true, Color: draw.Ink})

	// Links first, under the planets; each pair once (east, south-west,
	// south-east), as Board draws - / \.
	link := draw.Style{Stroke: draw.Faint, Width: 4}
	index := map[Hex]int{}
	for i, pl := range s.Planets {
		index[pl.Hex] = i
	}
	for _, pl := range s.Planets {
		for _, d := range []Hex{{1, 0}, {-1, 1}, {0, 1}} {
			if _, ok := index[Hex{pl.Hex.Q + d.Q, pl.Hex.R + d.R}]; ok {
				p.Line(link, at(pl.Hex), at(Hex{pl.Hex.Q + d.Q, pl.Hex.R + d.R}))
			}
		}
	}
	scale := dx / 55
	radius := map[Size]float64{Small: 20 * scale, Medium: 27 * scale, Large: 34 * scale}
	natives := draw.RGB(0xE8E2D0)
	for i, pl := range s.Planets {
		c := at(pl.Hex)
		r := radius[pl.Size]
		label, ink := v.cellInfo(i), draw.Ink
		label = strings.TrimSpace(strings.TrimPrefix(label, string(pl.Size)))
		st := draw.Style{Fill: natives, Stroke: draw.Muted, Width: 1.5}
		switch {
		case pl.Owner != "":
			o := draw.OwnerStyle(v.seat(pl.Owner))
			st = draw.Style{Fill: o.Fill, Stroke: draw.Ink, Width: 1.5}
			if pl.Owner == v.player {
				st.Width = 3.5
			}
			ink = o.Ink
		case pl.Size.Natives() == 0:
			st = draw.Style{Fill: draw.Paper, Stroke: draw.Muted, Width: 1.5, Dash: []float64{4, 3}}
			label = ""
		}
		p.Circle(c, r, st)
		if pl.Owner == v.player && v.player != "" {
			p.Focus.Include(r+24, c)
		}
		if label != "" {
			p.Text(c, label, draw.Font{Size: math.Round(15 * math.Min(1, scale+0.1)), Bold: true, Anchor: draw.Middle, Color: ink})
		}
		p.Text(draw.Pt(c.X, c.Y+r+10*scale+2), pl.Name+" "+string(pl.Size), draw.Font{Size: 13, Anchor: draw.Middle, Color: draw.Ink, Halo: draw.Paper})
	}
	y := top + 44 + float64(maxR-minR)*dy + radius[Large] + 30
	story := v.story(at, func(pl Planet) float64 { return radius[pl.Size] })
	p.Story(story)
	p.Board = draw.Rect{Min: draw.Pt(0, top), Max: draw.Pt(pictureWidth, y-8)}

	// The legend: owners by colour and letter, then what a disc says.
	var keys []draw.Key
	for i, seat := range s.Seats {
		o := draw.OwnerStyle(i)
		label := seat
		if seat == v.player {
			label += " " + say(l, lang.M("(you)"))
		}
		if s.out(seat) {
			label += " " + say(l, lang.M("(out)"))
		}
		keys = append(keys, draw.Key{Swatch: draw.SwatchDisc, Style: draw.Style{Fill: o.Fill, Stroke: draw.Ink, Width: 1},
			Mark: s.letter(seat), MarkColor: o.Ink, Label: label})
	}
	y = p.Legend(20, y, pictureWidth-20, 14, keys)
	y = p.Legend(20, y, pictureWidth-20, 13, []draw.Key{
		{Swatch: draw.SwatchDisc, Style: draw.Style{Fill: natives, Stroke: draw.Muted, Width: 1}, Label: say(l, lang.M("n4, n12: natives"))},
		{Swatch: draw.SwatchDisc, Style: draw.Style{Fill: draw.Paper, Stroke: draw.Muted, Width: 1, Dash: []float64{3, 2}}, Label: say(l, lang.M("small, no one's"))},
		{Swatch: draw.SwatchNone, Label: say(l, lang.M("B25: B's 25 ships.  S M L: size (production 2 5 8, limit 15 30 60)."))},
	})
	y = p.StoryLegend(20, y, pictureWidth-20, 13, story, v.storyLabel)
	if v.player != "" {
		y = p.Legend(20, y, pictureWidth-20, 13, []draw.Key{{Swatch: draw.SwatchDisc, Style: draw.Style{Stroke: draw.Ink, Width: 3}, Label: say(l, lang.M("a thick ring: your planets"))}})
	}
	p.H = int(math.Ceil(y + 8))
	p.Summary = v.pictureSummary()
	return p
}

// seat is the index of seat name p (for its colour), -1 for none.
func (v *view) seat(p string) int {
	for i, x := range v.s.Seats {
		if x == p {
			return i
		}
	}
	return -1
}

// pictureTitle says where the game stands, as the status's first line does.
func (v *view) pictureTitle() string {
	s, l := v.s, v.lang
	switch s.Phase_ {
	case phaseSettle:
		return say(l, lang.M("Prosper or Perish · colonisation, pick %d: %s", s.Picks+1, s.picker()))
	case phaseMove:
		return say(l, lang.M("Prosper or Perish · round %d: %s to move", s.Round, s.mover()))
	}
	return say(l, lang.M("Prosper or Perish · game over"))
}

// pictureSummary is the picture's text alternative: the map's size and
// who holds how many planets, all of which every player sees.
func (v *view) pictureSummary() string {
	s := v.s
	var held []string
	for _, seat := range s.Seats {
		n := len(s.owned(seat, false))
		held = append(held, fmt.Sprintf("%s %d", seat, n))
	}
	return say(v.lang, lang.M("%s. Map of %d planets; planets held: %s.", v.pictureTitle(), len(s.Planets), strings.Join(held, ", ")))
}
