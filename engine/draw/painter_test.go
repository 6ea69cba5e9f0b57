package draw

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
)

// board is a seat's picture of a small board: hexes, pieces, a dashed
// route, an arrow, labels with halos, and a legend naming "you" (the part
// a seat's picture differs in). Each change edits the copy it is given.
func board(you int, change func(p *Picture)) *Picture {
	p := New(640, 520, Paper)
	p.Text(Pt(16, 20), "Turn 7. It is ann's turn.", Font{Size: 15, Bold: true, Color: Ink})
	var cs []Point
	for y := 0; y < 24; y++ {
		for x := 0; x < 30; x++ {
			cs = append(cs, Pt(30+float64(x)*19.5+float64(y%2)*9.75, 50+float64(y)*16.9))
		}
	}
	p.Hexes(cs, 11.25, true, Style{Fill: Space, Stroke: Muted, Width: 0.8})
	for i := range 5 {
		st := OwnerStyle(i)
		c := Pt(80+float64(i)*95, 120+float64(i%3)*110)
		p.Circle(c, 13, Style{Fill: st.Fill, Stroke: Ink, Width: 1})
		p.Text(c, fmt.Sprint(i+1), Font{Size: 12, Bold: true, Anchor: Middle, Color: st.Ink})
	}
	p.Line(Style{Stroke: Ink, Width: 1.5, Dash: []float64{4, 3}}, Pt(80, 120), Pt(270, 340), Pt(460, 120))
	p.Arrow(Pt(175, 230), Pt(365, 230), Style{Stroke: Ink, Width: 2}, 9)
	p.Text(Pt(320, 470), "Сатурн", Font{Size: 14, Anchor: Middle, Color: Ink, Halo: Paper})
	x := 16.0
	for i, name := range []string{"ann", "bob", "cy", "di", "ed"} {
		if i == you {
			name += " (you)"
		}
		st := OwnerStyle(i)
		p.Circle(Pt(x+8, 500), 8, Style{Fill: st.Fill, Stroke: Ink, Width: 1})
		p.Text(Pt(x+20, 500), name, Font{Size: 13, Color: Ink})
		x += 28 + TextWidth(name, Font{Size: 13})
	}
	if change != nil {
		change(p)
	}
	return p
}

// A painter gives every picture the bytes Picture.PNG gives it, whatever
// the picture before it was: the seats of one board one after the other,
// and pictures that differ from the one before at the top, the bottom,
// in their length, in a colour the palette must make room for, in size,
// or everywhere. And it does draw from the pictures before, or the test
// would show nothing.
func TestPainterDrawsWhatPNGDraws(t *testing.T) {
	seq := []struct {
		name   string
		pic    *Picture
		reused bool // drawn from one before
	}{
		{"ann's", board(0, nil), false},
		{"bob's", board(1, nil), true},
		{"ann's again", board(0, nil), true},
		{"cy's", board(2, nil), true},
		{"every hexagon smaller (more than half the picture to paint again)", board(1, func(p *Picture) {
			for _, s := range p.Shapes {
				if h, ok := s.(*Hexes); ok {
					h.Size = 9
				}
			}
		}), false},
		{"the same again", board(1, func(p *Picture) {
			for _, s := range p.Shapes {
				if h, ok := s.(*Hexes); ok {
					h.Size = 9
				}
			}
		}), true},
		{"a title of other words (the first band)", board(2, func(p *Picture) {
			p.Shapes[0] = &Text{At: Pt(16, 20), Text: "The game is over: bob won.", Font: Font{Size: 15, Bold: true, Color: Ink}}
		}), true},
		{"a piece moved", board(2, func(p *Picture) { p.Shapes[2].(*Circle).C = Pt(300, 300) }), true},
		{"a shape more, at the end (the last band)", board(3, func(p *Picture) {
			p.Polygon([]Point{{600, 490}, {639, 490}, {639, 519}, {600, 519}}, Style{Fill: RGB(0xd55e00)})
		}), true},
		{"a shape fewer, in the middle", board(3, func(p *Picture) {
			p.Shapes = append(p.Shapes[:4], p.Shapes[5:]...)
			p.Polygon([]Point{{600, 490}, {639, 490}, {639, 519}, {600, 519}}, Style{Fill: RGB(0xd55e00)})
		}), true},
		{"a new colour over a large part", board(3, func(p *Picture) {
			p.Shapes = append(p.Shapes[:4], p.Shapes[5:]...)
			p.Circle(Pt(320, 300), 110, Style{Fill: RGB(0x5a1f7e)})
		}), true},
		{"another paper", func() *Picture { p := board(4, nil); p.Background = RGB(0xffffff); return p }(), false},
		{"another size", func() *Picture { p := board(4, nil); p.H = 500; return p }(), false},
	}
	pt := NewPainter(4)
	for _, c := range seq {
		want, err := c.pic.PNG()
		if err != nil {
			t.Fatal(err)
		}
		_, before := pt.Counts()
		got, err := pt.PNG(c.pic)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: the painter's PNG (%d bytes) differs from the picture's own (%d bytes)", c.name, len(got), len(want))
		}
		if _, after := pt.Counts(); (after > before) != c.reused {
			t.Errorf("%s: drawn from a picture before: %v, want %v", c.name, after > before, c.reused)
		}
	}
	if _, err := pt.PNG(New(0, 10, Paper)); err == nil {
		t.Error("a picture 0 pixels wide was drawn")
	}
}

// Whatever a shape paints lies within its footprint: painted alone on
// paper, it leaves every pixel outside as paper.
func TestFootprintHoldsWhatIsPainted(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 9))
	f := func(lo, hi float64) float64 { return lo + r.Float64()*(hi-lo) }
	shapes := []Shape{
		&Text{At: Pt(3, 8), Text: "Edge", Font: Font{Size: 14, Color: Ink, Halo: Paper}},
		&Text{At: Pt(120, 60), Text: "Жёлтый (you)", Font: Font{Size: 13, Bold: true, Anchor: End, Color: Ink, Halo: RGB(0xffffff)}},
		&Line{Points: []Point{{-5, 10}, {60, 90}}, Style: Style{Stroke: Ink, Width: 3}, Arrow: 10},
	}
	for range 60 {
		st := Style{Fill: OwnerStyle(r.IntN(6)).Fill, Stroke: Ink, Width: f(0, 4)}
		if r.IntN(3) == 0 {
			st.Dash = []float64{f(1, 5), f(1, 5)}
		}
		c := Pt(f(-10, 170), f(-10, 130))
		switch r.IntN(4) {
		case 0:
			shapes = append(shapes, &Circle{C: c, R: f(1, 30), Style: st})
		case 1:
			shapes = append(shapes, &Polygon{Points: HexPoints(c, f(2, 25), r.IntN(2) == 0), Style: st})
		case 2:
			shapes = append(shapes, &Hexes{Centres: []Point{c, c.Add(Pt(f(-30, 30), f(-30, 30)))}, Size: f(2, 14), Pointy: true, Style: st})
		case 3:
			shapes = append(shapes, &Line{Points: []Point{c, c.Add(Pt(f(-50, 50), f(-50, 50)))}, Style: st, Arrow: f(0, 8)})
		}
	}
	for i, s := range shapes {
		p := New(160, 120, Paper)
		p.Add(s)
		img, err := p.Raster()
		if err != nil {
			t.Fatal(err)
		}
		fp := newRegion(p.H)
		if err := footprint(fp, p.W, p.H, []Shape{s}, newMarks()); err != nil {
			t.Fatal(err)
		}
		painted := 0
		for y := range p.H {
			for x := range p.W {
				if c := img.RGBAAt(x, y); c.R != Paper.R || c.G != Paper.G || c.B != Paper.B {
					painted++
					if !image.Pt(x, y).In(fp[y/stripRows]) {
						t.Fatalf("shape %d (%T %+v) paints (%d,%d), outside its footprint %v", i, s, s, x, y, fp)
					}
				}
			}
		}
		if painted == 0 && i < 3 {
			t.Errorf("shape %d paints nothing", i)
		}
	}
}

// One painter shared by goroutines drawing the seats' pictures at once
// gives each the bytes it has drawn alone, and the PNG reads back as the
// picture painted.
func TestPainterDrawsAtOnce(t *testing.T) {
	var pics []*Picture
	var alone [][]byte
	for you := range 5 {
		p := board(you, nil)
		b, err := p.PNG()
		if err != nil {
			t.Fatal(err)
		}
		pics, alone = append(pics, p), append(alone, b)
	}
	pt := NewPainter(3)
	atOnce(t, 8, 20, alone, func(i int) ([]byte, error) { return pt.PNG(pics[i]) })
	if _, reused := pt.Counts(); reused == 0 {
		t.Error("no picture was drawn from another")
	}
	img, err := pics[3].Raster()
	if err != nil {
		t.Fatal(err)
	}
	want := quantize(img, new(scratch))
	dec, err := png.Decode(bytes.NewReader(alone[3]))
	if err != nil {
		t.Fatal(err)
	}
	got := dec.(*image.Paletted)
	if !bytes.Equal(got.Pix, want.Pix) || len(got.Palette) != len(want.Palette) {
		t.Error("the PNG does not read back as the picture reduced to its palette")
	}
}

// BenchmarkSeats draws five seats' pictures of one board, each anew and
// with a painter.
func BenchmarkSeats(b *testing.B) {
	var pics []*Picture
	for you := range 5 {
		pics = append(pics, board(you, nil))
	}
	b.Run("anew", func(b *testing.B) {
		for b.Loop() {
			for _, p := range pics {
				if _, err := p.PNG(); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("painter", func(b *testing.B) {
		pt := NewPainter(4)
		for b.Loop() {
			for _, p := range pics {
				if _, err := pt.PNG(p); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}

// The marks a scratch keeps from picture to picture start again once
// they hold more than marksKept, and a picture drawn then is the same.
func TestMarksStartAgainWhenFull(t *testing.T) {
	m := newMarks()
	if m.current() != m {
		t.Fatal("new marks were replaced")
	}
	for i := range marksKept + 1 {
		m.kerns[kernKey{size: 12, prev: rune(i), next: 'a'}] = 0
	}
	if m.current() == m {
		t.Fatalf("marks holding %d pairs are kept", len(m.kerns))
	}
	p := board(0, nil)
	want, err := p.PNG()
	if err != nil {
		t.Fatal(err)
	}
	bufs := &scratch{marks: m}
	got, err := bufs.draw(p, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) || bufs.marks == m {
		t.Error("a picture drawn with full marks is not drawn with new ones, as it is drawn alone")
	}
}

// Two seats' pictures started at once (the outbox draws a batch's pictures
// one a core at once): the second waits for the first rather than being
// drawn whole beside it, and both come out as drawn alone.
func TestPainterWaitsForALikePicture(t *testing.T) {
	pics := []*Picture{board(0, nil), board(1, nil)}
	var alone [][]byte
	for _, p := range pics {
		b, err := p.PNG()
		if err != nil {
			t.Fatal(err)
		}
		alone = append(alone, b)
	}
	for round := range 5 {
		pt := NewPainter(4)
		start := make(chan struct{})
		var wg sync.WaitGroup
		got := make([][]byte, len(pics))
		for i, p := range pics {
			wg.Go(func() {
				<-start
				var err error
				if got[i], err = pt.PNG(p); err != nil {
					t.Error(err)
				}
			})
		}
		close(start)
		wg.Wait()
		for i := range pics {
			if !bytes.Equal(got[i], alone[i]) {
				t.Errorf("round %d: picture %d differs from it drawn alone", round, i)
			}
		}
		if fresh, reused := pt.Counts(); fresh != 1 || reused != 1 {
			t.Errorf("round %d: %d drawn whole and %d from the other, want 1 and 1", round, fresh, reused)
		}
	}
}

// The same picture again (each observer is sent the same one) is given the
// bytes drawn before, whatever its caller did with those: no drawing.
func TestPainterGivesTheSamePictureItsBytes(t *testing.T) {
	pt := NewPainter(2)
	first, err := pt.PNG(board(0, nil))
	if err != nil {
		t.Fatal(err)
	}
	want := slices.Clone(first)
	clear(first) // a caller's copy is its own
	for i := range 3 {
		got, err := pt.PNG(board(0, nil))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("the same picture, drawn again (%d), differs", i+1)
		}
	}
	if fresh, reused := pt.Counts(); fresh != 1 || reused != 3 {
		t.Errorf("%d drawn whole, %d from another, want 1 and 3", fresh, reused)
	}
}

func BenchmarkObservers(b *testing.B) {
	pt := NewPainter(4)
	for b.Loop() {
		if _, err := pt.PNG(board(0, nil)); err != nil {
			b.Fatal(err)
		}
	}
}
