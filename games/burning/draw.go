package burning

import (
	"fmt"
	"math"
	"strings"

	"orrery/engine/draw"
	"orrery/engine/lang"
)

const pictureWidth = 800

// picWord is one of the few words the picture writes that no report
// text has, in the language l; every other word comes from the same
// messages as Board's (word, render).
func picWord(l, w string) string {
	var m lang.Msg
	switch w {
	case "space":
		m = lang.M("space")
	case "planet":
		m = lang.M("planet cell")
	case "monolith":
		m = lang.M("monolith (owner's planet)")
	case "free":
		m = lang.M("uninhabited planet")
	case "you":
		m = lang.M("you")
	case "ships":
		m = lang.M("ships")
	case "digit":
		m = lang.M("the digit on a thing is its owner's seat; the ring round a planet is its owner's colour")
	case "structures":
		m = lang.M("structures")
	default:
		return w
	}
	return render(l, m)
}

// biomeFill is the colour of a planet's cells by biome.
var biomeFill = map[string]draw.Color{Fair: draw.RGB(0xCFE3B4), Harsh: draw.RGB(0xE6D3AE), Water: draw.RGB(0xB9D5EC)}

// Picture draws the galaxy as Board does, cell by cell from the same
// planets, sites, ships, structures and asteroids, in the reader's language:
// every cell a hexagon (odd rows half a cell to the right), planets in their
// biome's colour ringed in their owner's, each site, ship and structure
// with Board's letter and its owner's seat number. Like Board it shows a
// ship's class and owner only: what a cargo ship carries, and a structure
// aboard it, are never drawn. Over the galaxy, the last turn's story
// (story.go): ship moves, attacks and fire as arrows in the owner's colour,
// fights, what was destroyed, built or deployed and conquests as marks.
func (v view) Picture() *draw.Picture {
	s := v.s
	g := s.Grid
	l := v.lang()
	p := draw.New(pictureWidth, 100, draw.Paper)

	var title string
	switch {
	case s.Done:
		title = render(l, lang.M("The game is over: %s", s.endText(l)))
	case s.AstPick != nil:
		title = render(l, lang.M("Setup: %s chooses the cell of asteroid %d.", s.AstPick.Chooser, s.AstPick.N))
	case s.Placing != nil:
		title = render(l, lang.M("Setup: every player places the tiles and the starting cannon of their home planet."))
	default:
		title = render(l, lang.M("Turn %d. It is %s's turn; catastrophe: %s.", s.Round, s.active(), s.catTerm()))
	}
	tf := draw.Font{Size: 15, Bold: true, Color: draw.Ink}
	lines := draw.Wrap(title, tf, pictureWidth-32)
	y := p.Note(16, 10, pictureWidth-16, title, tf, 20) - 2

	// A cell is w wide; rows are 1.5 × the hexagon's radius apart.
	const labels = 24.0 // the row numbers' column
	w := math.Min(28, (pictureWidth-24-labels)/(float64(g.W())+0.5))
	size := w / math.Sqrt(3)
	rowH := size * 1.5
	boardW := (float64(g.W()) + 0.5) * w
	x0 := (pictureWidth-boardW-labels)/2 + labels + w/2
	labelFont := draw.Font{Size: math.Min(10, w*0.55), Anchor: draw.Middle, Color: draw.Muted}
	y0 := y + labelFont.Size*2.6 + size
	p.Board = draw.Rect{Min: draw.Pt(0, y+2), Max: draw.Pt(pictureWidth, y0+float64(g.H()-1)*size*1.5+size+6)}
	at := func(c Cell) draw.Point {
		return draw.Pt(x0+float64(c.X)*w+float64(c.Y%2)*w/2, y0+float64(c.Y)*rowH)
	}
	// Column names over the first row, row numbers left of each row.
	for x := 0; x < g.W(); x++ {
		c := at(Cell{x, 0})
		p.Text(draw.Pt(c.X, y0-size-labelFont.Size*0.9), colName(x), labelFont)
	}
	for yy := 0; yy < g.H(); yy++ {
		c := at(Cell{0, yy})
		f := labelFont
		f.Anchor = draw.End
		p.Text(draw.Pt(c.X-w*0.6, c.Y), fmt.Sprint(yy+1), f)
	}
	// Empty space first, then each planet: its owner's ring, its cells.
	// Cells are drawn a little small, so the paper between them is the
	// grid.
	cell := size * 0.93
	// Sized up front: grown one cell at a time this slice was most of
	// what a picture allocated.
	empty := make([]draw.Point, 0, g.W()*g.H())
	planets := s.planetMap()
	for yy := 0; yy < g.H(); yy++ {
		for x := 0; x < g.W(); x++ {
			if planets[yy*g.W()+x] == nil {
				empty = append(empty, at(Cell{x, yy}))
			}
		}
	}
	p.Hexes(empty, cell, true, draw.Style{Fill: draw.Space})
	glyphFont := draw.Font{Size: math.Min(12, w*0.58), Bold: true, Anchor: draw.Middle}
	mark := func(c Cell, text string, ink draw.Color) {
		f := glyphFont
		f.Color = ink
		p.Text(at(c), text, f)
	}
	for _, pl := range s.Planets {
		if pl.Owner == v.player && v.player != "" {
			p.Focus.Include((float64(pl.radius())+1)*w, at(pl.Centre))
		}
		if pl.Owner != "" {
			p.Circle(at(pl.Centre), (float64(pl.radius())+0.55)*w, draw.Style{Stroke: draw.OwnerStyle(v.seatIndex(pl.Owner)).Fill, Width: w * 0.45})
		}
		hc := hexCells(pl.Centre, pl.radius())
		cells := make([]draw.Point, 0, len(hc))
		for _, c := range hc {
			if g.in(c) {
				cells = append(cells, at(c))
			}
		}
		p.Hexes(cells, cell, true, draw.Style{Fill: biomeFill[pl.Biome]})
		// The monolith of an owned planet; an empty centre otherwise.
		if pl.Owner != "" {
			o := draw.OwnerStyle(v.seatIndex(pl.Owner))
			p.Polygon(draw.HexPoints(at(pl.Centre), cell*0.98, true), draw.Style{Fill: o.Fill, Stroke: draw.Ink, Width: 1})
			mark(pl.Centre, "@"+v.digit(pl.Owner), o.Ink)
		} else {
			p.Circle(at(pl.Centre), size*0.45, draw.Style{Stroke: draw.Muted, Width: 1.5})
		}
		for _, st := range pl.Sites {
			switch st.Kind {
			case Forest:
				p.Polygon(draw.HexPoints(at(st.Cell), cell*0.98, true), draw.Style{Fill: draw.RGB(0x4F7D3A)})
				mark(st.Cell, "t", draw.RGB(0xFFFFFF))
			case Mountain:
				p.Polygon(draw.HexPoints(at(st.Cell), cell*0.98, true), draw.Style{Fill: draw.RGB(0x85725F)})
				mark(st.Cell, "^", draw.RGB(0xFFFFFF))
			default:
				// A structure of the planet's owner (a planet with none
				// keeps none: Board writes the letter alone).
				st2, ink := draw.Style{Fill: draw.RGB(0xFFFFFF), Stroke: draw.Ink, Width: 1}, draw.Ink
				if pl.Owner != "" {
					o := draw.OwnerStyle(v.seatIndex(pl.Owner))
					st2.Fill, ink = o.Fill, o.Ink
				}
				p.Polygon(draw.HexPoints(at(st.Cell), cell*0.98, true), st2)
				mark(st.Cell, string(glyphs[st.Kind])+v.digit(pl.Owner), ink)
			}
		}
	}
	for _, c := range s.Asteroids {
		p.Circle(at(c), size*0.62, draw.Style{Fill: draw.RGB(0x5B5B5B), Stroke: draw.Ink, Width: 1})
		mark(c, "*", draw.RGB(0xFFFFFF))
	}
	for _, st := range s.Structs {
		o := draw.OwnerStyle(v.seatIndex(st.Owner))
		h := size * 0.78
		c := at(st.Cell)
		p.Polygon([]draw.Point{{X: c.X - h, Y: c.Y - h}, {X: c.X + h, Y: c.Y - h}, {X: c.X + h, Y: c.Y + h}, {X: c.X - h, Y: c.Y + h}},
			draw.Style{Fill: o.Fill, Stroke: draw.Ink, Width: 1.2})
		mark(st.Cell, string(glyphs[st.Kind])+v.digit(st.Owner), o.Ink)
	}
	for _, sh := range s.Ships {
		o := draw.OwnerStyle(v.seatIndex(sh.Owner))
		st := draw.Style{Fill: o.Fill, Stroke: draw.Ink, Width: 1.2}
		if sh.Owner == v.player {
			st.Width = 2.2
			p.Focus.Include(w, at(sh.Cell))
		}
		p.Circle(at(sh.Cell), size*0.9, st)
		mark(sh.Cell, string(glyphs[sh.Class])+v.digit(sh.Owner), o.Ink)
	}
	y = y0 + float64(g.H()-1)*rowH + size + 12
	story := v.story(at, size*0.9, w)
	p.Story(story)

	// The legend, in the reader's language: seats, then what each mark is.
	var seats []draw.Key
	for i, seat := range s.Seats {
		o := draw.OwnerStyle(i)
		label := seat
		if seat == v.player {
			label += " (" + picWord(l, "you") + ")"
		}
		seats = append(seats, draw.Key{Swatch: draw.SwatchDisc, Style: draw.Style{Fill: o.Fill, Stroke: draw.Ink, Width: 1},
			Mark: fmt.Sprint(i + 1), MarkColor: o.Ink, Label: label})
	}
	y = p.Legend(16, y, pictureWidth-16, 13, seats)
	grey := draw.Style{Fill: draw.RGB(0xFFFFFF), Stroke: draw.Ink, Width: 1}
	keys := []draw.Key{
		{Swatch: draw.SwatchHex, Style: draw.Style{Fill: draw.Space}, Label: picWord(l, "space")},
		{Swatch: draw.SwatchHex, Style: draw.Style{Fill: biomeFill[Fair]}, Label: picWord(l, "planet") + ": " + word(l, Fair)},
		{Swatch: draw.SwatchHex, Style: draw.Style{Fill: biomeFill[Harsh]}, Label: word(l, Harsh)},
		{Swatch: draw.SwatchHex, Style: draw.Style{Fill: biomeFill[Water]}, Label: word(l, Water)},
		{Swatch: draw.SwatchHex, Style: grey, Mark: "@", MarkColor: draw.Ink, Label: picWord(l, "monolith")},
		{Swatch: draw.SwatchDisc, Style: draw.Style{Fill: draw.Paper, Stroke: draw.Muted, Width: 1.5}, Label: picWord(l, "free")},
		{Swatch: draw.SwatchHex, Style: draw.Style{Fill: draw.RGB(0x4F7D3A)}, Mark: "t", MarkColor: draw.RGB(0xFFFFFF), Label: word(l, Forest)},
		{Swatch: draw.SwatchHex, Style: draw.Style{Fill: draw.RGB(0x85725F)}, Mark: "^", MarkColor: draw.RGB(0xFFFFFF), Label: word(l, Mountain)},
		{Swatch: draw.SwatchDisc, Style: draw.Style{Fill: draw.RGB(0x5B5B5B)}, Mark: "*", MarkColor: draw.RGB(0xFFFFFF), Label: word(l, "asteroid")},
	}
	for _, k := range []string{Furnace, Greenhouse, Spaceport, CannonS, Tower} {
		keys = append(keys, draw.Key{Swatch: draw.SwatchHex, Style: grey, Mark: string(glyphs[k]), MarkColor: draw.Ink, Label: word(l, k)})
	}
	for _, k := range []string{Station, Rig, Habitat} {
		keys = append(keys, draw.Key{Swatch: draw.SwatchSquare, Style: grey, Mark: string(glyphs[k]), MarkColor: draw.Ink, Label: word(l, k)})
	}
	y = p.Legend(16, y, pictureWidth-16, 13, keys)
	var ships []draw.Key
	for _, k := range []string{Small, Medium, Large, Huge, Cargo} {
		label := word(l, k)
		if len(ships) == 0 {
			label = picWord(l, "ships") + ": " + label
		}
		ships = append(ships, draw.Key{Swatch: draw.SwatchDisc, Style: grey, Mark: string(glyphs[k]), MarkColor: draw.Ink, Label: label})
	}
	y = p.Legend(16, y, pictureWidth-16, 13, ships)
	y = p.StoryLegend(16, y, pictureWidth-16, 13, story, v.storyLabel)
	y = p.Note(16, y, pictureWidth-16, picWord(l, "digit")+".", draw.Font{Size: 13, Color: draw.Ink}, 18)
	p.H = int(math.Ceil(y + 8))
	var seatList []string
	for i, seat := range s.Seats {
		seatList = append(seatList, fmt.Sprintf("%d %s", i+1, seat))
	}
	p.Summary = strings.Join(lines, " ") + " " + render(l, lang.M("Seats: %s.", strings.Join(seatList, ", ")))
	return p
}

// seatIndex is the index of seat p, for its colour (0 for nobody).
func (v view) seatIndex(p string) int {
	for i, q := range v.s.Seats {
		if q == p {
			return i
		}
	}
	return 0
}

// digit is p's seat number as Board writes it after a letter, "" for nobody.
func (v view) digit(p string) string { return strings.TrimSpace(string(v.seatDigit(p))) }
