package orbital

import (
	"fmt"
	"math"
	"strings"

	"orrery/engine/draw"
	"orrery/engine/lang"
)

const pictureWidth = 800

// Picture draws the map as Board does, from the view's own copy of the
// state (so a payload hidden from the reader is not there to draw): the 331
// hexes with their names, the rings shaded (debris rings in brown), the
// planet, the moons, and every unit in space as a token of its owner (the
// first player's round, the second's square) with an arrow for its velocity:
// from its hex to where that velocity alone would carry it next turn. Over
// the map, the turn's story (story.go), thicker: each unit's move from
// where it began the turn, launches, laser fire and strikes as arrows;
// targets, losses, purchases and placements as marks.
func (v *view) Picture() *draw.Picture {
	s := v.s
	p := draw.New(pictureWidth, 100, draw.Paper)
	title := v.render(lang.M("Orbital · turn %d", s.TurnN))
	var banks []string
	for _, pl := range s.Players {
		banks = append(banks, fmt.Sprintf("%s %d RU", pl.Name, pl.RU))
	}
	p.Text(draw.Pt(16, 24), title, draw.Font{Size: 17, Bold: true, Color: draw.Ink})
	p.Text(draw.Pt(pictureWidth-16, 24), strings.Join(banks, " · "), draw.Font{Size: 14, Anchor: draw.End, Color: draw.Ink})

	// Pointy-topped hexes, 21 across the middle row, as the ASCII board
	// staggers them: half a hex across (hw) per step of planar x, a row
	// down (rh) per step of planar y.
	size := (pictureWidth - 40.0) / (2*Radius + 1) / math.Sqrt(3)
	hw, rh := size*math.Sqrt(3)/2, size*1.5
	centre := draw.Pt(pictureWidth/2, 48+size+Radius*rh)
	at := func(h Hex) draw.Point {
		x, y := h.planar()
		return draw.Pt(centre.X+float64(x)*hw, centre.Y+float64(y)*rh)
	}
	ringFill := [2]draw.Color{draw.RGB(0xEEF1F6), draw.RGB(0xE3E8F0)}
	debris := draw.RGB(0xE9DCC8)
	name := draw.Font{Size: 8.5, Anchor: draw.Middle, Color: draw.RGB(0x8A8F98)}
	occupied := map[Hex]bool{}
	for _, m := range s.Moons {
		occupied[m.Hex] = true
	}
	for _, u := range s.Units {
		if u.In == "" {
			occupied[u.Hex] = true
		}
	}
	// The cells a little small, so the paper between them is the grid:
	// one shape per shade.
	cells := map[draw.Color][]draw.Point{}
	shade := func(n int) draw.Color {
		if s.rings.Debris[n] {
			return debris
		}
		return ringFill[n%2]
	}
	for _, h := range allHexes() {
		cells[shade(h.ring())] = append(cells[shade(h.ring())], at(h))
	}
	for _, c := range []draw.Color{ringFill[0], ringFill[1], debris} {
		p.Hexes(cells[c], size*0.96, true, draw.Style{Fill: c})
	}
	for _, h := range allHexes() {
		n := h.ring()
		c := at(h)
		if n > 0 && !occupied[h] {
			p.Text(draw.Pt(c.X, c.Y+size*0.45), h.Name(), name)
		}
		if _, ok := corner(h); ok && n > 0 {
			// Corner hexes carry the blue number: a dot marks them.
			p.Circle(draw.Pt(c.X, c.Y-size*0.35), 2.2, draw.Style{Fill: draw.RGB(0x3B6EA8)})
		}
	}
	p.Circle(centre, size*0.95, draw.Style{Fill: draw.RGB(0x2E6F57), Stroke: draw.Ink, Width: 1.5})
	p.Text(centre, v.render(lang.M("planet")), draw.Font{Size: 9, Bold: true, Anchor: draw.Middle, Color: draw.RGB(0xFFFFFF)})

	// Velocity arrows under the tokens, so the tokens stay readable.
	type token struct {
		text  string
		seat  int // -1: a moon
		extra string
	}
	tokens := map[Hex][]token{}
	arrow := func(h Hex, vel, f int, c draw.Color) {
		if vel <= 0 {
			return
		}
		to := h.add(dirs[mod6(f)].scale(vel))
		p.Arrow(at(h), at(to), draw.Style{Stroke: c, Width: 2.5}, 9)
	}
	for _, m := range s.Moons {
		arrow(m.Hex, m.V, m.F, draw.RGB(0x7A7A7A))
		tokens[m.Hex] = append(tokens[m.Hex], token{text: m.ID, seat: -1})
	}
	for _, u := range s.Units {
		if u.In != "" {
			continue // aboard: it goes where its carrier goes
		}
		seat := v.seat(u.Owner)
		if u.Owner == v.player && v.player != "" {
			p.Focus.Include(size*1.5, at(u.Hex))
		}
		arrow(u.Hex, u.V, u.F, draw.OwnerStyle(seat).Fill)
		t := token{text: u.ID, seat: seat}
		if n := len(s.cargo(u.ID)); n > 0 {
			t.extra = fmt.Sprintf("+%d", n)
		}
		tokens[u.Hex] = append(tokens[u.Hex], t)
	}
	var extras []*draw.Text // "+n aboard" marks, over every token
	var shared []string     // hexes with more than one thing, for a caption
	for _, h := range allHexes() {
		list := tokens[h]
		if len(list) == 0 {
			continue
		}
		if len(list) > 1 {
			var ids []string
			for _, t := range list {
				ids = append(ids, t.text+t.extra)
			}
			shared = append(shared, h.Name()+": "+strings.Join(ids, " "))
		}
		c := at(h)
		// One token fills the hex; more share it, up to three, and when
		// there are more the third says how many there are in all (×5).
		r := size * 0.62
		offs := []draw.Point{{}}
		if len(list) > 1 {
			r = size * 0.47
			offs = []draw.Point{{X: -r, Y: -r * 0.55}, {X: r, Y: -r * 0.55}, {X: 0, Y: r * 0.95}}
		}
		for i, t := range list {
			if i >= len(offs) {
				break
			}
			label, extra := t.text, t.extra
			if i == len(offs)-1 && len(list) > len(offs) {
				label, extra = fmt.Sprintf("×%d", len(list)), ""
			}
			at := c.Add(offs[i])
			v.token(p, at, r, t.seat, label)
			if extra != "" {
				extras = append(extras, &draw.Text{At: draw.Pt(at.X+r*0.95, at.Y-r*0.85), Text: extra,
					Font: draw.Font{Size: 10, Bold: true, Anchor: draw.Middle, Color: draw.Ink, Halo: draw.Paper}})
			}
		}
	}
	for _, e := range extras {
		p.Add(e)
	}
	story := v.story(at, size*0.62)
	p.Story(story)
	y := centre.Y + Radius*rh + size + 14
	p.Board = draw.Rect{Min: draw.Pt(0, 40), Max: draw.Pt(pictureWidth, y-6)}

	// The rings' printed numbers, as the board's table gives them.
	tf := draw.Font{Size: 12, Color: draw.Ink, Anchor: draw.Middle}
	p.Text(draw.Pt(16, y+8), v.render(lang.M("ring")), draw.Font{Size: 12, Bold: true, Color: draw.Ink})
	for i := 1; i <= Radius; i++ {
		f := tf
		f.Bold = true
		p.Text(draw.Pt(76+float64(i)*24, y+8), fmt.Sprint(i), f)
	}
	for k, row := range []struct {
		name string
		vals [Radius + 1]int
	}{{v.render(lang.M("green")), s.rings.Green}, {v.render(lang.M("white")), s.rings.White}, {v.render(lang.M("blue")), s.rings.Blue}} {
		ry := y + 26 + float64(k)*17
		p.Text(draw.Pt(16, ry), row.name, draw.Font{Size: 12, Color: draw.Ink})
		for i := 1; i <= Radius; i++ {
			p.Text(draw.Pt(76+float64(i)*24, ry), fmt.Sprint(row.vals[i]), tf)
		}
	}
	var notes []string
	if len(shared) > 0 {
		notes = append(notes, v.render(lang.M("Sharing a hex: %s.", strings.Join(shared, "; "))))
	}
	notes = append(notes,
		v.render(lang.M("Hex names: ring, sextant A–F, offset from the sextant's corner (a dot marks the corners, which carry the blue number).")),
		v.render(lang.M("An arrow is a velocity: where it alone would carry the unit or moon next turn. +2 beside a unit: two units aboard. ×5: five units share the hex.")),
		v.render(lang.M("Brown rings are debris (rings 4 and 7).")),
	)
	var keys []draw.Key
	for i, pl := range s.Players {
		o := draw.OwnerStyle(i)
		sw := draw.SwatchDisc
		if i%2 == 1 {
			sw = draw.SwatchSquare
		}
		label := pl.Name
		if pl.Name == v.player {
			label = v.render(lang.M("%s (you)", label))
		}
		keys = append(keys, draw.Key{Swatch: sw, Style: draw.Style{Fill: o.Fill, Stroke: draw.Ink, Width: 1}, Label: label})
	}
	keys = append(keys, draw.Key{Swatch: draw.SwatchDisc, Style: draw.Style{Fill: draw.RGB(0xBDBDBD), Stroke: draw.Ink, Width: 1}, Label: v.render(lang.M("moon"))})
	ly := p.Legend(360, y-2, pictureWidth-16, 13, keys)
	ly = math.Max(ly, y+26+2*17+10)
	ly = p.StoryLegend(16, ly, pictureWidth-16, 13, story, v.storyLabel)
	for _, n := range notes {
		ly = p.Note(16, ly, pictureWidth-16, n, draw.Font{Size: 13, Color: draw.Ink}, 18)
	}
	p.H = int(math.Ceil(ly + 8))
	var units []lang.Msg
	for _, pl := range s.Players {
		n := 0
		for _, u := range s.Units {
			if u.Owner == pl.Name {
				n++
			}
		}
		units = append(units, lang.M("%s %s and %d RU", pl.Name, lang.MN("%d unit", "%d units", n), pl.RU))
	}
	p.Summary = v.render(lang.M("%s: %s; %s.", title, lang.ArgOf(units), lang.MN("%d moon", "%d moons", len(s.Moons))))
	return p
}

// seat is the index of a player, for their colour and token shape.
func (v *view) seat(name string) int {
	for i, p := range v.s.Players {
		if p.Name == name {
			return i
		}
	}
	return 0
}

// token draws one unit (the first player's round, the second's square) or
// moon (seat -1, grey and round) with its label.
func (v *view) token(p *draw.Picture, c draw.Point, r float64, seat int, label string) {
	st := draw.Style{Fill: draw.RGB(0xBDBDBD), Stroke: draw.Ink, Width: 1.2}
	ink := draw.Ink
	if seat >= 0 {
		o := draw.OwnerStyle(seat)
		st.Fill, ink = o.Fill, o.Ink
		if v.player != "" && seat < len(v.s.Players) && v.s.Players[seat].Name == v.player {
			st.Width = 2.5
		}
	}
	if seat >= 0 && seat%2 == 1 {
		h := r * 0.9
		p.Polygon([]draw.Point{{X: c.X - h, Y: c.Y - h}, {X: c.X + h, Y: c.Y - h}, {X: c.X + h, Y: c.Y + h}, {X: c.X - h, Y: c.Y + h}}, st)
	} else {
		p.Circle(c, r, st)
	}
	size := math.Min(11, r*0.95)
	if len(label) > 2 {
		size = math.Min(size, r*0.8)
	}
	p.Text(c, label, draw.Font{Size: size, Bold: true, Anchor: draw.Middle, Color: ink})
}
