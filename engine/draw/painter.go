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
// pictures one after the other. Safe for concurrent use: a picture like
// one being drawn waits for it rather than being drawn whole beside it
// (the outbox draws a batch's pictures one a core at once, and two seats
// of a step were drawn whole side by side).
//
// Each picture kept holds about five bytes a pixel (3.4 MB for an 800 ×
// 700 board) until newer ones push it out.
type Painter struct {
	mu      sync.Mutex
	kept    []*scratch // the newest last
	keep    int
	drawing map[*Picture]chan struct{} // closed once drawn and kept

	fresh, reused atomic.Int64
}

// NewPainter returns a painter that keeps the last keep pictures it drew.
func NewPainter(keep int) *Painter {
	return &Painter{keep: keep, drawing: map[*Picture]chan struct{}{}}
}

// PNG draws p as p.PNG() does, giving the same bytes.
func (pt *Painter) PNG(p *Picture) ([]byte, error) {
	if err := p.drawable(); err != nil {
		return nil, err
	}
	var base *scratch
	var diffA, diffB []int
	for {
		var wait <-chan struct{}
		if base, diffA, diffB, wait = pt.take(p); wait == nil {
			break
		}
		<-wait // a picture like p being drawn: it is kept next
	}
	defer pt.drawn(p)
	if base != nil && len(diffA) == 0 && len(diffB) == 0 {
		// The same picture (each observer's, or a step sent again):
		// the same bytes.
		out := slices.Clone(base.png)
		pt.release(base)
		pt.reused.Add(1)
		return out, nil
	}
	bufs := scratches.Get().(*scratch)
	bufs.marks = bufs.marks.current()
	var dirty region
	if base != nil {
		var err error
		if dirty, err = changed(p.W, p.H, base.pic, p, diffA, diffB, bufs.marks); err != nil || 2*dirty.area() > p.W*p.H {
			// Half the picture or more to do again: as quick drawn anew.
			pt.release(base)
			base = nil
		}
	}
	out, err := bufs.draw(p, base, dirty)
	if base != nil {
		pt.release(base)
		pt.reused.Add(1)
	} else {
		pt.fresh.Add(1)
	}
	if err != nil {
		scratches.Put(bufs)
		return nil, err
	}
	bufs.pic, bufs.png = p, append(bufs.png[:0], out...)
	pt.give(bufs)
	return out, nil
}

// Counts says how many pictures were drawn whole and how many from one
// drawn before.
func (pt *Painter) Counts() (fresh, reused int64) { return pt.fresh.Load(), pt.reused.Load() }

// take returns the kept picture most like p (the fewest shapes to paint
// again, the newest of equals), with which of its shapes and of p's
// differ; nil when none is of p's size and paper or none shares at least
// half its shapes with p. A kept picture never changes, and several may
// draw from it at once: take counts it as used until release, and it
// goes back to the pool only once pushed out and no longer used. When
// none is kept but one so like p is being drawn, take returns what to
// wait on instead; otherwise p is marked as being drawn (until drawn).
func (pt *Painter) take(p *Picture) (*scratch, []int, []int, <-chan struct{}) {
	pt.mu.Lock()
	defer pt.mu.Unlock()
	like := func(k *Picture) (a, b []int, ok bool) {
		if k.W != p.W || k.H != p.H || k.paper() != p.paper() {
			return nil, nil, false
		}
		a, b = differ(k.Shapes, p.Shapes)
		return a, b, max(len(a), len(b)) <= len(p.Shapes)/2
	}
	best, bestN := -1, 0
	var bestA, bestB []int
	for i := len(pt.kept) - 1; i >= 0; i-- {
		if a, b, ok := like(pt.kept[i].pic); ok && (best < 0 || max(len(a), len(b)) < bestN) {
			best, bestN, bestA, bestB = i, max(len(a), len(b)), a, b
		}
	}
	if best < 0 && pt.keep > 0 {
		for k, done := range pt.drawing {
			if _, _, ok := like(k); ok && k != p {
				return nil, nil, nil, done
			}
		}
	}
	if _, ok := pt.drawing[p]; !ok {
		pt.drawing[p] = make(chan struct{})
	}
	if best < 0 {
		return nil, nil, nil, nil
	}
	s := pt.kept[best]
	s.users++
	return s, bestA, bestB, nil
}

// release is the end of a use of s (take). A picture still kept counts as
// drawn just now: the kept go in the order they were last drawn from.
func (pt *Painter) release(s *scratch) {
	pt.mu.Lock()
	defer pt.mu.Unlock()
	s.users--
	if s.out {
		if s.users == 0 {
			s.out, s.pic = false, nil
			scratches.Put(s)
		}
		return
	}
	if i := slices.Index(pt.kept, s); i >= 0 {
		pt.kept = append(slices.Delete(pt.kept, i, i+1), s)
	}
}

// drawn says p is drawn (and kept, if it could be): who waits on it goes on.
func (pt *Painter) drawn(p *Picture) {
	pt.mu.Lock()
	defer pt.mu.Unlock()
	if done, ok := pt.drawing[p]; ok {
		close(done)
		delete(pt.drawing, p)
	}
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
		if old.users > 0 {
			old.out = true // the pool's once its last user is done
			continue
		}
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
