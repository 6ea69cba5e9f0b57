package earthman

import (
	"math"

	"orrery/engine/draw"
)

// phoneChip is a chip's font on a phone: no word there is smaller than
// draw.PhoneFont.
var phoneChip = draw.Font{Size: 14, Bold: true, Anchor: draw.Middle}

// phoneBoard lays the disc out for a phone's width (draw.Picture's
// PhoneBoard): the tree as an indented list, the centre first and each
// place under the one skyward of it, with what the wide picture shows of
// it on its line (a trajectory's fleets; a world's regions, Political
// Influence and fleets), wrapping onto more lines when they do not fit;
// caption, which says so, above it.
// No crop of the wide picture reads well: the worlds' boxes stand at its
// right edge and the fleets in space at its left.
func (d disc) phoneBoard(caption string) *draw.Picture {
	const (
		w      = draw.PhoneWidth
		edge   = 10.0
		indent = 15.0
		line   = 27.0
		maxX   = w - edge
	)
	p := draw.New(w, 100, draw.Paper)
	var m draw.Meter
	chipW := func(c chip) float64 { return math.Max(22, m.Width(c.text, phoneChip)+8) }
	// chips draws chips from x on the line whose middle is y, the next
	// lines starting at x0, and returns the middle of the last line and
	// the x after the last chip.
	chips := func(x, x0, y float64, list []chip) (float64, float64) {
		for _, c := range list {
			cw := chipW(c)
			if x > x0 && x+cw > maxX {
				x, y = x0, y+line
			}
			st, ink := chipStyle(c.seat, c.you)
			if c.risk {
				st.Stroke, st.Width, st.Dash = draw.RGB(0xC0392B), 2.5, []float64{3, 2}
			}
			p.Polygon([]draw.Point{{X: x, Y: y - 11}, {X: x + cw, Y: y - 11}, {X: x + cw, Y: y + 11}, {X: x, Y: y + 11}}, st)
			if c.text != "" {
				f := phoneChip
				f.Color = ink
				p.Text(draw.Pt(x+cw/2, y), c.text, f)
			}
			x += cw + 3
		}
		return y, x
	}
	name := draw.Font{Size: 14, Color: draw.Ink, Halo: draw.Paper}
	world := draw.Font{Size: 14, Bold: true, Color: draw.Ink}
	link := draw.Style{Stroke: draw.Faint, Width: 2}
	hostile := draw.RGB(0xC0392B)
	// The worlds' boxes start in one column, after the longest name.
	regionsX := 0.0
	for _, wl := range board.Worlds() {
		regionsX = math.Max(regionsX, m.Width(wl.Name+" !", world))
	}
	y := p.Note(edge, 6, maxX, caption, draw.Font{Size: draw.PhoneFont, Color: draw.Muted}, 19) + 4 + line/2
	var walk func(name string, depth int) float64
	walk = func(place string, depth int) float64 {
		pl, _ := board.Get(place)
		x := edge + float64(depth)*indent
		mine := y
		if pl.Kind == World {
			st := draw.Style{Fill: draw.RGB(0xDCE6F0), Stroke: draw.Ink, Width: 1.5}
			label := pl.Name
			if pl.Hostile {
				st = draw.Style{Fill: draw.RGB(0xF6D5CF), Stroke: hostile, Width: 2, Dash: []float64{4, 2}}
				label += " !"
			}
			p.Circle(draw.Pt(x+7, y), 7, st)
			p.Text(draw.Pt(x+19, y), label, world)
			rx := x + 19 + regionsX + 8
			ly, lx := chips(rx, rx, y, d.regions(pl.Name))
			if pi := d.pi(pl.Name); pi != "" {
				f := world
				pw := m.Width(pi, f)
				if lx+pw > maxX {
					ly, lx = ly+line, rx
				}
				p.Text(draw.Pt(lx, ly), pi, f)
				lx += pw + 4
			}
			if fl := d.fleets(pl.Name); len(fl) > 0 {
				// A bar between the regions and the fleets, on a line of
				// their own when they do not fit after the regions.
				if lx+8+chipW(fl[0]) > maxX {
					ly, lx = ly+line, rx
				}
				p.Line(draw.Style{Stroke: draw.Muted, Width: 1.5}, draw.Pt(lx+2, ly-12), draw.Pt(lx+2, ly+12))
				ly, _ = chips(lx+8, rx+8, ly, fl)
			}
			y = ly + line
			return mine
		}
		r := 5.0
		if pl.Kind == SolarSystem {
			r = 7
		}
		p.Circle(draw.Pt(x+7, y), r, draw.Style{Fill: draw.Paper, Stroke: draw.Ink, Width: 2})
		p.Text(draw.Pt(x+19, y), pl.Name, name)
		nx := x + 19 + m.Width(pl.Name, name) + 8
		ly, _ := chips(nx, nx, y, d.fleets(pl.Name))
		y = ly + line
		last := mine
		for _, c := range board.Children(place) {
			cy := walk(c, depth+1)
			cx := edge + float64(depth+1)*indent
			p.Line(link, draw.Pt(x+7, cy), draw.Pt(cx+1, cy))
			last = cy
		}
		p.Line(link, draw.Pt(x+7, mine+r), draw.Pt(x+7, last))
		return mine
	}
	walk(board.Places[0].Name, 0)
	p.H = int(math.Ceil(y - line/2 + 4))
	return p
}
