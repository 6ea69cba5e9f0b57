package draw

import (
	"slices"
	"sync"
	"sync/atomic"
)

// Painter draws pictures to PNG byte for byte as Picture.PNG does, but
// keeps the last few it drew, each at every stage of its drawing (canvas,
// colour counts, palette, indexes). A picture much like one
// of them is drawn from it, again only where the two differ: the seats of
// a game are sent the same board at the same step, told apart by a
// "(you)" in the legend or one outlined piece, and a daemon draws their
// pictures one after the other. Safe for concurrent use.
//
// Each picture kept holds about five bytes a pixel (3.4 MB for an 800 ×
// 700 board) until newer ones push it out.
type Painter struct {
	mu   sync.Mutex
	kept []*scratch // the newest last
	keep int

	fresh, reused atomic.Int64
}

// NewPainter returns a painter that keeps the last keep pictures it drew.
func NewPainter(keep int) *Painter { return &Painter{keep: keep} }

// PNG draws p as p.PNG() does, giving the same bytes.
func (pt *Painter) PNG(p *Picture) ([]byte, error) {
	if err := p.drawable(); err != nil {
		return nil, err
	}
	bufs := scratches.Get().(*scratch)
	bufs.marks = bufs.marks.current()
	base, diffA, diffB := pt.take(p)
	var dirty region
	if base != nil {
		var err error
		if dirty, err = changed(p.W, p.H, base.pic, p, diffA, diffB, bufs.marks); err != nil || 2*dirty.area() > p.W*p.H {
			// Half the picture or more to do again: as quick drawn anew.
			pt.give(base)
			base = nil
		}
	}
	out, err := bufs.draw(p, base, dirty)
	if base != nil {
		pt.give(base)
		pt.reused.Add(1)
	} else {
		pt.fresh.Add(1)
	}
	if err != nil {
		scratches.Put(bufs)
		return nil, err
	}
	bufs.pic = p
	pt.give(bufs)
	return out, nil
}

// Counts says how many pictures were drawn whole and how many from one
// drawn before.
func (pt *Painter) Counts() (fresh, reused int64) { return pt.fresh.Load(), pt.reused.Load() }

// take removes from the kept pictures the one most like p (the fewest
// shapes to paint again, the newest of equals) and returns it, with which
// of its shapes and of p's differ; nil when none is of p's size and paper
// or none shares at least half its shapes with p. A picture taken is the
// taker's alone until it gives it back, so no picture is drawn from one
// that is being changed.
func (pt *Painter) take(p *Picture) (*scratch, []int, []int) {
	pt.mu.Lock()
	defer pt.mu.Unlock()
	best, bestN := -1, len(p.Shapes)/2+1
	var bestA, bestB []int
	for i := len(pt.kept) - 1; i >= 0; i-- {
		k := pt.kept[i].pic
		if k.W != p.W || k.H != p.H || k.paper() != p.paper() {
			continue
		}
		a, b := differ(k.Shapes, p.Shapes)
		if n := max(len(a), len(b)); n < bestN {
			best, bestN, bestA, bestB = i, n, a, b
		}
	}
	if best < 0 {
		return nil, nil, nil
	}
	s := pt.kept[best]
	pt.kept = slices.Delete(pt.kept, best, best+1)
	return s, bestA, bestB
}

// give keeps s, the newest, and lets the oldest go past the painter's
// count (their memory back to the pool every drawing takes from).
func (pt *Painter) give(s *scratch) {
	pt.mu.Lock()
	defer pt.mu.Unlock()
	pt.kept = append(pt.kept, s)
	for len(pt.kept) > pt.keep {
		old := pt.kept[0]
		pt.kept = slices.Delete(pt.kept, 0, 1)
		old.pic = nil
		scratches.Put(old)
	}
}

// differ says which shapes of a and of b differ, once the longest run the
// two begin with and the longest they end with are set aside: outside what
// those paint, a and b paint alike. Where the two middles are as long as
// each other, they are compared shape by shape.
func differ(a, b []Shape) (da, db []int) {
	n := min(len(a), len(b))
	pre := 0
	for pre < n && sameShape(a[pre], b[pre]) {
		pre++
	}
	suf := 0
	for suf < n-pre && sameShape(a[len(a)-1-suf], b[len(b)-1-suf]) {
		suf++
	}
	if len(a) == len(b) {
		for i := pre; i < len(a)-suf; i++ {
			if !sameShape(a[i], b[i]) {
				da, db = append(da, i), append(db, i)
			}
		}
		return da, db
	}
	for i := pre; i < len(a)-suf; i++ {
		da = append(da, i)
	}
	for i := pre; i < len(b)-suf; i++ {
		db = append(db, i)
	}
	return da, db
}

// changed is the part of a w × h picture where a and b may have different
// pixels: what the shapes of each that differ (da of a, db of b) paint.
// Everything else both pictures paint with the same shapes in the same
// order.
func changed(w, h int, a, b *Picture, da, db []int, m *marks) (region, error) {
	pick := func(all []Shape, at []int) []Shape {
		out := make([]Shape, len(at))
		for i, j := range at {
			out[i] = all[j]
		}
		return out
	}
	g := newRegion(h)
	if err := footprint(g, w, h, pick(a.Shapes, da), m); err != nil {
		return nil, err
	}
	if err := footprint(g, w, h, pick(b.Shapes, db), m); err != nil {
		return nil, err
	}
	return g, nil
}

// sameShape says whether a and b are the same shape, painted the same.
func sameShape(a, b Shape) bool {
	switch a := a.(type) {
	case *Circle:
		b, ok := b.(*Circle)
		return ok && a.C == b.C && a.R == b.R && sameStyle(a.Style, b.Style)
	case *Polygon:
		b, ok := b.(*Polygon)
		return ok && slices.Equal(a.Points, b.Points) && sameStyle(a.Style, b.Style)
	case *Hexes:
		b, ok := b.(*Hexes)
		return ok && a.Size == b.Size && a.Pointy == b.Pointy && slices.Equal(a.Centres, b.Centres) && sameStyle(a.Style, b.Style)
	case *Line:
		b, ok := b.(*Line)
		return ok && a.Arrow == b.Arrow && slices.Equal(a.Points, b.Points) && sameStyle(a.Style, b.Style)
	case *Text:
		b, ok := b.(*Text)
		return ok && *a == *b
	}
	return false
}

func sameStyle(a, b Style) bool {
	return a.Fill == b.Fill && a.Stroke == b.Stroke && a.Width == b.Width && slices.Equal(a.Dash, b.Dash)
}
