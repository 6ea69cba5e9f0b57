package earthman

import (
	"fmt"
	"math"
	"strings"

	"orrery/engine/draw"
	"orrery/engine/lang"
)

// The picture of the solar disc, for both editions: the same tree as the
// ASCII board (centre left, worldward rightward), each world with a box per
// region and its fleets, each trajectory with the fleets in it. It is drawn
// from the same counters Board reads; neither edition hides anything on the
// board (000-H, 001-H), and the owner's standing orders, triggers and stored
// destinations, which are hidden, are never drawn. Over the disc, the last
// step's story (story.go): moves and launches as arrows in the owner's
// colour, fire and overthrows, losses, builds and takeovers as marks.

const pictureWidth = 800

// chip is one counter drawn as a small labelled box: a region or a fleet.
type chip struct {
	text string
	seat int  // owner's seat, or unSeat, or noSeat (an empty region), or devSeat (Devastation)
	you  bool // the reader's own: drawn with a thick edge
	risk bool // At Risk (full rules): drawn with a dashed edge as well as a capital
}

const (
	unSeat  = -1
	noSeat  = -2
	devSeat = -3
)

// disc is what each edition tells the picture.
type disc struct {
	title    string
	players  []string
	you      string
	regions  func(world string) []chip
	fleets   func(place string) []chip
	pi       func(world string) string // "+ab", or ""
	notes    []string                  // the edition's legend, in sentences
	summary  string
	capitals bool // the edition writes At Risk as a capital letter
	// tag is the language of the picture's own words (English when
	// empty); title, notes and summary come written.
	tag lang.Tag
	// story is what the last step did that the reader may see (story.go).
	story []draw.Told
}

// chipStyle is how a chip of seat is painted: fill, ink and edge.
func chipStyle(seat int, you bool) (draw.Style, draw.Color) {
	st := draw.Style{Stroke: draw.Ink, Width: 1}
	ink := draw.Ink
	switch seat {
	case unSeat:
		st.Fill = draw.RGB(0xB8B8B8)
	case noSeat:
		st.Fill, st.Stroke = draw.Paper, draw.Muted
	case devSeat:
		st.Fill, ink = draw.RGB(0x4A4036), draw.RGB(0xFFFFFF)
	default:
		o := draw.OwnerStyle(seat)
		st.Fill, ink = o.Fill, o.Ink
	}
	if you {
		st.Width = 2.5
	}
	return st, ink
}

// chipWidth is the width of a chip's box: a square for one letter, wider
// for a count.
func chipWidth(m *draw.Meter, c chip) float64 {
	return math.Max(20, m.Width(c.text, chipFont)+8)
}

var chipFont = draw.Font{Size: 13, Bold: true, Anchor: draw.Middle}

// drawChips draws chips in rows from (x, y) (the middle of the first row),
// wrapping at maxX, and returns the y of the last row's middle.
func drawChips(p *draw.Picture, x, y, maxX float64, chips []chip) float64 {
	cx := x
	var m draw.Meter
	for _, c := range chips {
		w := chipWidth(&m, c)
		if cx > x && cx+w > maxX {
			cx, y = x, y+23
		}
		st, ink := chipStyle(c.seat, c.you)
		if c.you {
			p.Focus.Include(14, draw.Pt(cx, y), draw.Pt(cx+w, y))
		}
		if c.risk {
			st.Stroke, st.Width, st.Dash = draw.RGB(0xC0392B), 2.5, []float64{3, 2}
		}
		p.Polygon([]draw.Point{{X: cx, Y: y - 10}, {X: cx + w, Y: y - 10}, {X: cx + w, Y: y + 10}, {X: cx, Y: y + 10}}, st)
		if c.text != "" {
			f := chipFont
			f.Color = ink
			p.Text(draw.Pt(cx+w/2, y), c.text, f)
		}
		cx += w + 3
	}
	return y
}

// chipsWidth is how wide chips lie in one row.
func chipsWidth(chips []chip) float64 {
	w := 0.0
	var m draw.Meter
	for _, c := range chips {
		w += chipWidth(&m, c) + 3
	}
	return w
}

// picture lays the disc out: worlds down the right in board order, each
// trajectory between the places it leads to.
func (d disc) picture() *draw.Picture {
	p := draw.New(pictureWidth, 100, draw.Paper)
	p.Text(draw.Pt(16, 24), d.title, draw.Font{Size: 17, Bold: true, Color: draw.Ink})
	p.WideText(draw.Pt(16, 46), tr(d.tag, lang.M("The solar disc: the centre on the left; moving right is worldward.")), draw.Font{Size: 13, Color: draw.Muted})

	const top, row = 92.0, 56.0
	colX := map[Kind]float64{SolarSystem: 44, Interplanetary: 150, Approach: 262, World: 386}
	at := map[string]draw.Point{}
	worlds := board.Worlds()
	for i, w := range worlds {
		at[w.Name] = draw.Pt(colX[World], top+float64(i)*row)
	}
	// Each trajectory sits level with the middle of the places worldward
	// of it: fill in from the rim inward.
	for _, k := range []Kind{Approach, Interplanetary, SolarSystem} {
		for _, t := range board.Trajectories() {
			if t.Kind != k {
				continue
			}
			ys := 0.0
			kids := board.Children(t.Name)
			for _, c := range kids {
				ys += at[c].Y
			}
			at[t.Name] = draw.Pt(colX[k], ys/float64(len(kids)))
		}
	}
	// The links of the tree, under everything.
	link := draw.Style{Stroke: draw.Faint, Width: 3}
	for _, pl := range board.Places {
		if pl.Parent != "" {
			a, b := at[pl.Parent], at[pl.Name]
			mid := (a.X + b.X) / 2
			p.Line(link, a, draw.Pt(mid, a.Y), draw.Pt(mid, b.Y), b)
		}
	}
	hostile := draw.RGB(0xC0392B)
	for _, t := range board.Trajectories() {
		c := at[t.Name]
		r := 7.0
		if t.Kind == SolarSystem {
			r = 11
		}
		p.Circle(c, r, draw.Style{Fill: draw.Paper, Stroke: draw.Ink, Width: 2})
		p.Text(draw.Pt(c.X, c.Y-r-9), t.Name, draw.Font{Size: 13, Anchor: draw.Middle, Color: draw.Ink, Halo: draw.Paper})
		if chips := d.fleets(t.Name); len(chips) > 0 {
			// Fleets in space hang under their trajectory, centred while
			// they fit in a row of three.
			w := math.Min(chipsWidth(chips[:min(3, len(chips))]), 105)
			drawChips(p, c.X-w/2, c.Y+r+15, c.X+w/2+1, chips)
		}
	}
	for _, w := range worlds {
		c := at[w.Name]
		st := draw.Style{Fill: draw.RGB(0xDCE6F0), Stroke: draw.Ink, Width: 1.5}
		if w.Hostile {
			st = draw.Style{Fill: draw.RGB(0xF6D5CF), Stroke: hostile, Width: 2.5, Dash: []float64{5, 3}}
		}
		p.Circle(c, 13, st)
		name := w.Name
		if w.Hostile {
			name += " !"
		}
		p.Text(draw.Pt(c.X+20, c.Y), name, draw.Font{Size: 14, Bold: true, Color: draw.Ink})
		x := c.X + 110
		regs := d.regions(w.Name)
		drawChips(p, x, c.Y, x+10*23, regs)
		x += chipsWidth(regs)
		if pi := d.pi(w.Name); pi != "" {
			p.Text(draw.Pt(x, c.Y), pi, draw.Font{Size: 13, Bold: true, Color: draw.Ink})
			x += draw.TextWidth(pi, draw.Font{Size: 13, Bold: true}) + 4
		}
		if fl := d.fleets(w.Name); len(fl) > 0 {
			x = math.Max(x+8, 616)
			p.Line(draw.Style{Stroke: draw.Faint, Width: 1.5}, draw.Pt(x-6, c.Y-12), draw.Pt(x-6, c.Y+12))
			drawChips(p, x, c.Y, pictureWidth-8, fl)
		}
	}
	y := top + float64(len(worlds)-1)*row + 30
	story := d.storyOf(d.story, at)
	p.Story(story)
	p.Board = draw.Rect{Min: draw.Pt(0, 54), Max: draw.Pt(pictureWidth, y-6)}
	p.Text(draw.Pt(386+110, top-34), tr(d.tag, lang.M("regions")), draw.Font{Size: 12, Color: draw.Muted})
	p.Text(draw.Pt(616, top-34), tr(d.tag, lang.M("fleets at the world")), draw.Font{Size: 12, Color: draw.Muted})

	var keys []draw.Key
	for i, pl := range d.players {
		st, ink := chipStyle(i, false)
		label := pl
		if pl == d.you {
			label = tr(d.tag, lang.M("%s (you: thick edge)", pl))
		}
		keys = append(keys, draw.Key{Swatch: draw.SwatchSquare, Style: st, Mark: string(rune('a' + i)), MarkColor: ink, Label: label})
	}
	st, ink := chipStyle(unSeat, false)
	keys = append(keys, draw.Key{Swatch: draw.SwatchSquare, Style: st, Mark: "U", MarkColor: ink, Label: tr(d.tag, lang.M("the UN"))})
	st, _ = chipStyle(noSeat, false)
	keys = append(keys, draw.Key{Swatch: draw.SwatchSquare, Style: st, Label: tr(d.tag, lang.M("empty region"))})
	y = p.Legend(16, y, pictureWidth-16, 14, keys)
	y = p.StoryLegend(16, y, pictureWidth-16, 13, story, d.storyLabel)
	for _, n := range d.notes {
		y = p.Note(16, y, pictureWidth-16, n, draw.Font{Size: 13, Color: draw.Ink}, 19)
	}
	p.H = int(math.Ceil(y + 10))
	p.PhoneBoard = d.phoneBoard(tr(d.tag, lang.M("The solar disc: the centre at the top; each place under the one skyward of it.")))
	p.Summary = d.summary
	return p
}

// seatOf is the seat index of a faction for its colour: players from 0, the
// UN unSeat.
func seatOf(players []string, f string) int {
	if f == un {
		return unSeat
	}
	for i, p := range players {
		if p == f {
			return i
		}
	}
	return noSeat
}

// Picture draws the first edition's disc: a box per region with its
// developer's letter (an empty box for an unclaimed region), and a box per
// faction's fleets with the count.
func (v *view) Picture() *draw.Picture {
	s := v.s
	d := disc{players: s.Players, you: v.player, tag: v.tag(), story: draw.SeenBy(s.Story, v.Player())}
	d.regions = func(w string) []chip {
		var out []chip
		for _, f := range s.factions() {
			for range s.devs(f, w) {
				out = append(out, chip{text: s.letter(f), seat: seatOf(s.Players, f), you: f == v.player && f != ""})
			}
		}
		for range s.unclaimed(w) {
			out = append(out, chip{seat: noSeat})
		}
		return out
	}
	d.fleets = func(at string) []chip {
		var out []chip
		for _, f := range s.factions() {
			if n := s.fleets(f, at); n > 0 {
				out = append(out, chip{text: fmt.Sprintf("%s%d", s.letter(f), n), seat: seatOf(s.Players, f), you: f == v.player && f != ""})
			}
		}
		return out
	}
	d.pi = func(string) string { return "" }
	d.notes = []string{v.t(lang.M("A box with a letter is one development; a box with a number is that many fleets. " +
		"! marks a hostile world. Fleets in space hang under their trajectory."))}
	switch s.Stage {
	case stageSetup:
		d.title = v.t(lang.M("The Earthman's Burden · setup: %s places a fleet", s.Players[s.Placers[s.Placed]]))
	case stageTurns:
		d.title = v.t(lang.M("The Earthman's Burden · turn %d, round %d: %s to play", s.TurnN, s.Round, s.Players[s.Active]))
	default:
		d.title = v.t(lang.M("The Earthman's Burden · game over"))
	}
	var totals []string
	for _, f := range s.factions() {
		fl, dv := s.total(f)
		totals = append(totals, v.t(lang.M("%s %s and %s", f, devsM(dv), fleetsM(fl))))
	}
	d.summary = d.title + ". " + strings.Join(totals, "; ") + "."
	return d.picture()
}

// Picture draws the full rules' disc: a box per region (its owner's letter,
// a capital when At Risk, with the count of developments; # with the
// Devastation; empty when bare), the Political Influence after a +, and each
// player's fleets with those At Risk in brackets, as Board writes them.
func (v *fullView) Picture() *draw.Picture {
	s := v.s
	d := disc{players: s.Players, you: v.player, capitals: true, tag: v.pictureTag(), story: draw.SeenBy(s.Story, v.Player())}
	t := func(m lang.Msg) string { return tr(d.tag, m) }
	d.regions = func(w string) []chip {
		var out []chip
		for _, reg := range s.Regions[w] {
			c := chip{seat: noSeat}
			switch {
			case reg.Devs > 0:
				c = chip{text: s.letterOf(reg.Owner, reg.AtRisk), seat: seatOf(s.Players, reg.Owner), you: reg.Owner == v.player && v.player != "", risk: reg.AtRisk}
				if reg.Devs > 1 {
					c.text += fmt.Sprint(reg.Devs)
				}
				if reg.Owner == un && reg.AtRisk {
					c.text += "!"
				}
			case reg.Devastation > 1:
				c = chip{text: fmt.Sprintf("#%d", reg.Devastation), seat: devSeat}
			case reg.Devastation == 1:
				c = chip{text: "#", seat: devSeat}
			}
			out = append(out, c)
		}
		return out
	}
	d.fleets = func(at string) []chip {
		var out []chip
		for i, p := range s.Players {
			f := s.Fleets[at][p]
			if f == nil || f.Ok+f.Risk == 0 {
				continue
			}
			t := fmt.Sprintf("%s%d", s.letterOf(p, false), f.Ok+f.Risk)
			if f.Risk > 0 {
				t += fmt.Sprintf("(%d!)", f.Risk)
			}
			out = append(out, chip{text: t, seat: i, you: p == v.player, risk: f.Risk > 0})
		}
		return out
	}
	d.pi = func(w string) string {
		if len(s.PI[w]) == 0 {
			return ""
		}
		out := "+"
		for _, p := range s.PI[w] {
			out += s.letterOf(p, false)
		}
		return out
	}
	d.notes = []string{t(lang.M("A region box shows its owner's letter (a capital: At Risk; U! a UN region At Risk) and how many " +
		"developments if more than one; # is Devastation (#2: two markers). +ab: a's and b's Political Influence. " +
		"a5(2!): five fleets, two of them At Risk. A dashed red edge: At Risk. ! marks a hostile world."))}
	switch s.Stage {
	case "prelude":
		d.title = t(lang.M("The Earthman's Burden · prelude: %s", s.Players[s.Preludes[0]]))
	case "turns":
		d.title = t(lang.M("The Earthman's Burden · turn %d: %s to play", s.TurnN, s.Players[s.Active]))
	default:
		d.title = t(lang.M("The Earthman's Burden · game over"))
	}
	var vps []string
	for _, p := range s.Players {
		vps = append(vps, t(lang.M("%s %d VP", p, s.P[p].VP)))
	}
	d.summary = d.title + ". " + strings.Join(vps, ", ") + "."
	return d.picture()
}

// pictureTag is the language the full rules' picture is drawn in: English
// until the full edition's view knows its reader's language (then it is
// that view's tag()).
func (v *fullView) pictureTag() lang.Tag { return v.tag() }
