package draw

import (
	"math"
	"slices"
)

// Rect is an axis-aligned rectangle of a picture. The zero Rect is empty:
// nothing marked.
type Rect struct{ Min, Max Point }

// Empty reports whether nothing was marked in r.
func (r Rect) Empty() bool { return r == Rect{} }

// W and H are the rectangle's width and height.
func (r Rect) W() float64 { return r.Max.X - r.Min.X }

// H is the rectangle's height.
func (r Rect) H() float64 { return r.Max.Y - r.Min.Y }

// Include grows r to hold the points, each with pad around it.
func (r *Rect) Include(pad float64, pts ...Point) {
	for _, p := range pts {
		lo, hi := Point{p.X - pad, p.Y - pad}, Point{p.X + pad, p.Y + pad}
		if r.Empty() {
			*r = Rect{lo, hi}
			continue
		}
		r.Min.X, r.Min.Y = math.Min(r.Min.X, lo.X), math.Min(r.Min.Y, lo.Y)
		r.Max.X, r.Max.Y = math.Max(r.Max.X, hi.X), math.Max(r.Max.Y, hi.Y)
	}
}

// part is a run of a picture's shapes that Legend or Note drew, kept with
// what they were drawn from so that Phone can lay them out again at its
// width rather than shrink them.
type part struct {
	from, to int // p.Shapes[from:to]
	y        float64
	keys     []Key // a legend's
	size     float64
	note     string // a note's text, written in font
	font     Font
}

// Note writes text wrapped into lines no wider than maxX-x, from (x, y)
// one lineH below the other, and returns the y below the last line. A
// picture's title and notes are written so: Phone wraps them again for
// its width.
func (p *Picture) Note(x, y, maxX float64, text string, f Font, lineH float64) float64 {
	from := len(p.Shapes)
	top := y
	for _, l := range Wrap(text, f, maxX-x) {
		p.Text(Pt(x, y+lineH/2), l, f)
		y += lineH
	}
	p.parts = append(p.parts, part{from: from, to: len(p.Shapes), y: top, note: text, font: f})
	return y
}

// The phone layout's measures (issue 44): a mail's picture is laid out
// PhoneWidth px wide, which a 360 px phone shows 332 CSS px wide (within
// the mail's margins); a label under 11 CSS px cannot be read there, so
// none is drawn smaller than PhoneFont (11 × PhoneWidth / 332, and a
// little over).
const (
	PhoneWidth = 400
	PhoneFont  = 13.5
	phoneEdge  = 12 // margin left and right of texts
)

// MinFont is the size of the smallest text the picture writes, +Inf if it
// writes none.
func (p *Picture) MinFont() float64 {
	small := math.Inf(1)
	for _, s := range p.Shapes {
		if t, ok := s.(*Text); ok && t.Text != "" {
			small = math.Min(small, t.Font.Size)
		}
	}
	return small
}

// Phone lays the picture out again for a phone (PhoneWidth px wide, no
// text under PhoneFont): the game's title on top, then the board, then its
// legend and notes, each wrapped again at the phone's width. The board is
// shown at the scale that makes its smallest label PhoneFont high; when it
// is then wider or much taller than the phone's screen, what lies around
// p.Focus (the reader's own pieces) is shown cropped, with the whole board
// small beneath it (its shapes without their words) and a frame on it
// round the part shown. A picture without a Board is taken as all board;
// one with a PhoneBoard shows that in its place.
// Nothing is drawn that p does not draw: the phone's picture tells no
// more than p.
func (p *Picture) Phone() *Picture {
	out := New(PhoneWidth, 100, p.Background)
	out.Summary = p.Summary
	board := p.Board
	if board.Empty() {
		board = Rect{Max: Pt(float64(p.W), float64(p.H))}
	}
	// Which shapes are board, which title or footer.
	inPart := make([]int, len(p.Shapes)) // 1+index of the part, 0 none
	for i, pt := range p.parts {
		for j := pt.from; j < pt.to; j++ {
			inPart[j] = i + 1
		}
	}
	var boardShapes, headLoose, footLoose []Shape
	small := math.Inf(1)
	for i, s := range p.Shapes {
		if inPart[i] > 0 || (p.wide[i] && p.PhoneBoard != nil) {
			continue
		}
		lo, hi := s.bounds()
		mid := (lo.Y + hi.Y) / 2
		switch {
		case mid < board.Min.Y:
			headLoose = append(headLoose, s)
		case mid > board.Max.Y:
			footLoose = append(footLoose, s)
		default:
			boardShapes = append(boardShapes, s)
			if t, ok := s.(*Text); ok && t.Text != "" {
				small = math.Min(small, t.Font.Size)
			}
		}
	}
	y := 6.0
	// The title: notes and loose words above the board, in their order.
	var head, foot []part
	for _, pt := range p.parts {
		if pt.y < board.Min.Y {
			head = append(head, pt)
		} else {
			foot = append(foot, pt)
		}
	}
	// Laid out apart first, to know how tall it is, and drawn after the
	// board so that the paper over the board's spill does not hide it.
	title := New(PhoneWidth, 0, p.Background)
	y = title.block(y, head, headLoose)

	if pb := p.PhoneBoard; pb != nil {
		k, top := PhoneWidth/float64(pb.W), y+4
		for _, s := range pb.Shapes {
			out.Add(transform(s, func(q Point) Point { return Pt(q.X*k, top+q.Y*k) }, k, false))
		}
		out.Add(title.Shapes...)
		out.Line(Style{Stroke: Faint, Width: 1}, Pt(0, top), Pt(PhoneWidth, top))
		y = top + float64(pb.H)*k
		out.Line(Style{Stroke: Faint, Width: 1}, Pt(0, y), Pt(PhoneWidth, y))
		y = out.block(y+8, foot, footLoose)
		out.H = int(math.Ceil(y + 8))
		return out
	}

	// The board, scaled so that its smallest label is PhoneFont high.
	fit := PhoneWidth / board.W()
	k := fit
	if !math.IsInf(small, 1) {
		k = math.Max(fit, PhoneFont/small)
	}
	view := board
	cw, ch := PhoneWidth/k, math.Min(board.H(), 1.3*PhoneWidth/k)
	cropped := cw < board.W()-0.5 || ch < board.H()-0.5
	if cropped {
		f := p.Focus
		if f.Empty() {
			f = board
		}
		c := Pt((f.Min.X+f.Max.X)/2, (f.Min.Y+f.Max.Y)/2)
		x0 := math.Max(board.Min.X, math.Min(c.X-cw/2, board.Max.X-cw))
		y0 := math.Max(board.Min.Y, math.Min(c.Y-ch/2, board.Max.Y-ch))
		if cw >= board.W() {
			x0 = (board.Min.X + board.Max.X - cw) / 2
		}
		view = Rect{Pt(x0, y0), Pt(x0+cw, y0+ch)}
	} else {
		view.Min.X = (board.Min.X + board.Max.X - cw) / 2
		view.Max.X = view.Min.X + cw
	}
	top := y + 4
	spillUp, spillDown := 0.0, 0.0 // how far shapes reach past the part shown
	for _, s := range boardShapes {
		lo, hi := s.bounds()
		if hi.X < view.Min.X || lo.X > view.Max.X || hi.Y < view.Min.Y || lo.Y > view.Max.Y {
			continue
		}
		spillUp, spillDown = math.Max(spillUp, view.Min.Y-lo.Y), math.Max(spillDown, hi.Y-view.Max.Y)
		out.Add(transform(s, func(q Point) Point { return Pt((q.X-view.Min.X)*k, top+(q.Y-view.Min.Y)*k) }, k, false))
	}
	bottom := top + view.H()*k
	// Paper over what spills above and below the part shown (only as far
	// as it spills: a paper the height of the picture cost more to paint
	// than the board).
	if spillUp > 0 {
		out.Polygon(rectPoints(Rect{Pt(-1, top-spillUp*k-2), Pt(PhoneWidth+1, top)}), Style{Fill: out.paper()})
	}
	if spillDown > 0 {
		out.Polygon(rectPoints(Rect{Pt(-1, bottom), Pt(PhoneWidth+1, bottom+spillDown*k+2)}), Style{Fill: out.paper()})
	}
	out.Add(title.Shapes...)
	y = bottom + 8
	if cropped {
		out.Line(Style{Stroke: Faint, Width: 1}, Pt(0, top), Pt(PhoneWidth, top))
		out.Line(Style{Stroke: Faint, Width: 1}, Pt(0, bottom), Pt(PhoneWidth, bottom))
		// The whole board, small, and where the part above lies on it.
		tw := math.Min(0.5*PhoneWidth, 1.1*PhoneWidth*board.W()/board.H()*0.5)
		t := tw / board.W()
		x0 := (PhoneWidth - tw) / 2
		place := func(q Point) Point { return Pt(x0+(q.X-board.Min.X)*t, y+(q.Y-board.Min.Y)*t) }
		for _, s := range boardShapes {
			if _, ok := s.(*Text); ok {
				continue
			}
			out.Add(transform(s, place, t, true))
		}
		out.Polygon(rectPoints(Rect{place(board.Min), place(board.Max)}), Style{Stroke: Faint, Width: 1})
		frame := Rect{place(view.Min), place(view.Max)}
		frame.Min.X, frame.Max.X = math.Max(frame.Min.X, x0), math.Min(frame.Max.X, x0+tw)
		out.Polygon(rectPoints(frame), Style{Stroke: Ink, Width: 2})
		y += board.H()*t + 8
	}
	y = out.block(y, foot, footLoose)
	out.H = int(math.Ceil(y + 8))
	return out
}

// block lays out, from y down, the parts (legends and notes, laid out
// anew at the phone's width) and the loose shapes (kept as drawn, larger
// if their words are small, when they fit across; else each word written
// as a line of its own), in the order they stood in the picture, and
// returns the y below them.
func (p *Picture) block(y float64, parts []part, loose []Shape) float64 {
	type item struct {
		y     float64
		part  *part
		loose bool
	}
	var items []item
	for i := range parts {
		items = append(items, item{y: parts[i].y, part: &parts[i]})
	}
	if len(loose) > 0 {
		lo, _ := loose[0].bounds()
		items = append(items, item{y: lo.Y, loose: true})
	}
	slices.SortStableFunc(items, func(a, b item) int {
		switch {
		case a.y < b.y:
			return -1
		case a.y > b.y:
			return 1
		}
		return 0
	})
	for _, it := range items {
		switch {
		case it.loose:
			y = p.looseBlock(y, loose)
		case it.part.keys != nil:
			size := math.Max(it.part.size, PhoneFont)
			for _, k := range it.part.keys {
				if k.Mark != "" {
					size = math.Max(size, PhoneFont/0.85)
				}
			}
			// A key of words alone too long for a row is a note.
			var keys []Key
			var m Meter
			for _, k := range it.part.keys {
				if k.Swatch == SwatchNone && m.Width(k.Label, Font{Size: size}) > PhoneWidth-2*phoneEdge {
					if len(keys) > 0 {
						y = p.Legend(phoneEdge, y, PhoneWidth-phoneEdge, size, keys)
						keys = nil
					}
					f := Font{Size: size, Color: Ink}
					y = p.Note(phoneEdge, y+2, PhoneWidth-phoneEdge, k.Label, f, size*1.35) + 2
					continue
				}
				keys = append(keys, k)
			}
			if len(keys) > 0 {
				y = p.Legend(phoneEdge, y, PhoneWidth-phoneEdge, size, keys)
			}
		default:
			f := it.part.font
			f.Size = math.Max(f.Size, PhoneFont)
			y = p.Note(phoneEdge, y+2, PhoneWidth-phoneEdge, it.part.note, f, f.Size*1.35)
		}
	}
	return y
}

// looseBlock draws shapes drawn outside a Legend or Note: as they stand,
// moved to the phone's margin and enlarged to PhoneFont, when that fits
// the width; else only their words, a line each.
func (p *Picture) looseBlock(y float64, shapes []Shape) float64 {
	lo, hi := Point{math.Inf(1), math.Inf(1)}, Point{math.Inf(-1), math.Inf(-1)}
	small := math.Inf(1)
	for _, s := range shapes {
		a, b := s.bounds()
		lo.X, lo.Y = math.Min(lo.X, a.X), math.Min(lo.Y, a.Y)
		hi.X, hi.Y = math.Max(hi.X, b.X), math.Max(hi.Y, b.Y)
		if t, ok := s.(*Text); ok && t.Text != "" {
			small = math.Min(small, t.Font.Size)
		}
	}
	k := 1.0
	if !math.IsInf(small, 1) {
		k = math.Max(1, PhoneFont/small)
	}
	if (hi.X-lo.X)*k <= PhoneWidth-2*phoneEdge+4 {
		for _, s := range shapes {
			p.Add(transform(s, func(q Point) Point { return Pt(phoneEdge-2+(q.X-lo.X)*k, y+(q.Y-lo.Y)*k) }, k, false))
		}
		return y + (hi.Y-lo.Y)*k
	}
	for _, s := range shapes {
		if t, ok := s.(*Text); ok && t.Text != "" {
			f := t.Font
			f.Size, f.Anchor = math.Max(f.Size, PhoneFont), Start
			y = p.Note(phoneEdge, y, PhoneWidth-phoneEdge, t.Text, f, f.Size*1.4)
		}
	}
	return y
}

func rectPoints(r Rect) []Point {
	return []Point{r.Min, {r.Max.X, r.Min.Y}, r.Max, {r.Min.X, r.Max.Y}}
}

// Scaled is the picture k times larger every way: the same drawing at k
// times the pixels, as a mail's picture is rasterised at twice its size
// to be sharp on a phone's screen.
func (p *Picture) Scaled(k float64) *Picture {
	out := &Picture{W: int(math.Round(float64(p.W) * k)), H: int(math.Round(float64(p.H) * k)), Background: p.Background, Summary: p.Summary}
	out.Shapes = make([]Shape, len(p.Shapes))
	for i, s := range p.Shapes {
		out.Shapes[i] = transform(s, func(q Point) Point { return Pt(q.X*k, q.Y*k) }, k, false)
	}
	return out
}

// transform is a copy of s with every point moved by at and every length
// (radii, widths, dashes, arrowheads, font sizes) times k. thin keeps
// outlines at least a little visible when k shrinks them.
func transform(s Shape, at func(Point) Point, k float64, thin bool) Shape {
	st := func(in Style) Style {
		out := in
		out.Width = in.Width * k
		if thin && in.Width > 0 {
			out.Width = math.Max(out.Width, 0.6)
		}
		if len(in.Dash) > 0 {
			out.Dash = make([]float64, len(in.Dash))
			for i, d := range in.Dash {
				out.Dash[i] = d * k
			}
		}
		return out
	}
	pts := func(in []Point) []Point {
		out := make([]Point, len(in))
		for i, q := range in {
			out[i] = at(q)
		}
		return out
	}
	switch s := s.(type) {
	case *Circle:
		return &Circle{C: at(s.C), R: s.R * k, Style: st(s.Style)}
	case *Polygon:
		return &Polygon{Points: pts(s.Points), Style: st(s.Style)}
	case *Hexes:
		return &Hexes{Centres: pts(s.Centres), Size: s.Size * k, Pointy: s.Pointy, Style: st(s.Style)}
	case *Line:
		return &Line{Points: pts(s.Points), Style: st(s.Style), Arrow: s.Arrow * k}
	case *Text:
		f := s.Font
		f.Size = s.Font.Size * k
		return &Text{At: at(s.At), Text: s.Text, Font: f}
	}
	return s
}

// MailScale is how many pixels a mail's picture has for each of its
// CSS px: twice, so that a phone's screen (two or three device pixels to
// a CSS px) shows it sharp.
const MailScale = 2

// Mail is the picture a mail carries: p laid out for a phone (Phone),
// PhoneWidth CSS px wide; draw it Scaled(MailScale).
func (p *Picture) Mail() *Picture { return p.Phone() }
