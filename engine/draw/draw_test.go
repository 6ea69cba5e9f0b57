package draw

import (
	"bytes"
	"image"
	"image/png"
	"math"
	"strings"
	"testing"
)

// decode renders p as PNG and decodes it.
func decode(t *testing.T, p *Picture) image.Image {
	t.Helper()
	data, err := p.PNG()
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// near reports whether the pixel at (x, y) is within tol of c on every
// channel (the palette is binned at 5 bits a channel).
func near(img image.Image, x, y int, c Color, tol int) bool {
	r, g, b, _ := img.At(x, y).RGBA()
	d := func(a uint32, b uint8) int { return int(a>>8) - int(b) }
	abs := func(v int) int { return max(v, -v) }
	return abs(d(r, c.R)) <= tol && abs(d(g, c.G)) <= tol && abs(d(b, c.B)) <= tol
}

// TestShapesLandWhereTheySay paints each kind of shape and reads pixels
// back: inside is the fill, outside the paper, an outline its stroke, a
// dashed line has gaps, an arrowhead is filled, and text leaves ink.
func TestShapesLandWhereTheySay(t *testing.T) {
	red, blue, green := RGB(0xCC2222), RGB(0x2244CC), RGB(0x22AA44)
	p := New(200, 120, Paper)
	p.Circle(Pt(30, 30), 20, Style{Fill: red, Stroke: Ink, Width: 4})
	p.Polygon(HexPoints(Pt(90, 30), 20, true), Style{Fill: blue})
	p.Line(Style{Stroke: green, Width: 4, Dash: []float64{10, 10}}, Pt(10, 80), Pt(190, 80))
	p.Arrow(Pt(120, 100), Pt(190, 100), Style{Stroke: Ink, Width: 2}, 12)
	p.Text(Pt(150, 30), "Wg", Font{Size: 20, Bold: true, Anchor: Middle, Color: Ink})
	p.Hexes([]Point{{20, 105}, {45, 105}}, 8, true, Style{Fill: blue})
	img := decode(t, p)
	for _, c := range []struct {
		name string
		x, y int
		want Color
	}{
		{"circle's inside", 30, 30, red},
		{"circle's outline", 30, 10, Ink},
		{"outside everything", 60, 60, Paper},
		{"hexagon's inside", 90, 30, blue},
		{"hexagon's corner is not filled", 90 + 19, 30 - 19, Paper},
		{"a dash", 15, 80, green},
		{"a gap", 25, 80, Paper},
		{"the arrowhead", 186, 100, Ink},
		{"beside the arrowhead", 186, 108, Paper},
		{"a stamped hexagon", 20, 105, blue},
		{"between stamped hexagons", 33, 105, Paper},
	} {
		if !near(img, c.x, c.y, c.want, 6) {
			t.Errorf("%s at (%d, %d) is %v, want %v", c.name, c.x, c.y, img.At(c.x, c.y), c.want)
		}
	}
	inked := 0
	for y := 15; y < 45; y++ {
		for x := 130; x < 170; x++ {
			if near(img, x, y, Ink, 40) {
				inked++
			}
		}
	}
	if inked < 40 {
		t.Errorf("the text left %d dark pixels", inked)
	}
}

// TestPNGIsSmallAndBare: a picture is a palette PNG of no more than 256
// colours, with no chunk but the four an image needs, the same bytes every
// time, and its flat colours kept.
func TestPNGIsSmallAndBare(t *testing.T) {
	p := New(800, 600, Paper)
	for i := 0; i < 40; i++ {
		p.Circle(Pt(float64(20*i+10), float64(15*i)), 9.5, Style{Fill: OwnerStyle(i).Fill, Stroke: Ink, Width: 1})
		p.Text(Pt(float64(20*i), 300+float64(i)*5), "Ы12ab", Font{Size: 11 + float64(i%5), Color: OwnerStyle(i + 3).Fill, Halo: Paper})
	}
	a, err := p.PNG()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := p.PNG()
	if !bytes.Equal(a, b) {
		t.Error("two renderings differ")
	}
	img, err := png.Decode(bytes.NewReader(a))
	if err != nil {
		t.Fatal(err)
	}
	pal, ok := img.(*image.Paletted)
	if !ok || len(pal.Palette) > 256 {
		t.Fatalf("not a palette image of at most 256 colours: %T", img)
	}
	var kinds []string
	data := bytes.TrimPrefix(a, []byte("\x89PNG\r\n\x1a\n"))
	for len(data) >= 12 {
		n := int(data[0])<<24 | int(data[1])<<16 | int(data[2])<<8 | int(data[3])
		kinds = append(kinds, string(data[4:8]))
		data = data[12+n:]
	}
	if len(kinds) < 4 || kinds[0] != "IHDR" || kinds[1] != "PLTE" || kinds[len(kinds)-1] != "IEND" {
		t.Errorf("chunks %q", kinds)
	}
	for _, k := range kinds {
		if k != "IHDR" && k != "PLTE" && k != "IDAT" && k != "IEND" {
			t.Errorf("a %s chunk", k)
		}
	}
	if !near(img, 795, 595, Paper, 2) || !near(img, 10, 0, OwnerStyle(0).Fill, 3) {
		t.Errorf("flat colours moved: %v %v", img.At(795, 595), img.At(10, 0))
	}
}

// TestSVGSaysWhatTheModelSays: the SVG has one element per shape, in
// order, escapes text, rounds to a tenth of a pixel, and names nothing but
// the Alt.
func TestSVGSaysWhatTheModelSays(t *testing.T) {
	p := New(300, 200, Paper)
	p.Summary = `Board of "ann" & <bob>`
	p.Circle(Pt(10.04, 20.06), 5, Style{Fill: RGB(0x112233)})
	p.Polygon([]Point{{0, 0}, {1.25, 0}, {1, -0.04}}, Style{Stroke: Ink, Width: 1, Dash: []float64{2, 1}})
	p.Text(Pt(5, 5), "a < b & c", Font{Size: 12, Color: Ink, Anchor: End, Bold: true})
	p.Arrow(Pt(0, 0), Pt(10, 0), Style{Stroke: RGB(0xFF0000), Width: 2}, 4)
	p.Hexes([]Point{{50, 50}, {60, 50}}, 5, true, Style{Fill: Space})
	svg, err := p.SVG()
	if err != nil {
		t.Fatal(err)
	}
	s := string(svg)
	for _, want := range []string{
		`aria-label="Board of &#34;ann&#34; &amp; &lt;bob&gt;"`,
		`<circle cx="10" cy="20.1" r="5" fill="#112233"/>`,
		`<polygon points="0,0 1.3,0 1,0" fill="none" stroke="#1f1f1f" stroke-width="1" stroke-linejoin="round" stroke-dasharray="2 1"/>`,
		`text-anchor="end" font-weight="bold"`,
		`>a &lt; b &amp; c</text>`,
		`<polyline points="0,0 6.8,0"`,
		`<polygon points="10,0 6,2 6,-2" fill="#ff0000"/>`,
		`<path d="M54.3 47.5l0 5`,
	} {
		if !strings.Contains(s, want) {
			t.Errorf("the SVG lacks %s:\n%s", want, s)
		}
	}
	for _, bad := range []string{"<title", " id=", "<!--", "<metadata"} {
		if strings.Contains(s, bad) {
			t.Errorf("the SVG has %s", bad)
		}
	}
	if n := strings.Count(s, "\n"); n != 2+6+1 {
		t.Errorf("%d lines, want one per element:\n%s", n, s)
	}
}

func TestBadSizes(t *testing.T) {
	for _, p := range []*Picture{New(0, 10, Paper), New(10, -1, Paper), New(5000, 10, Paper)} {
		if _, err := p.PNG(); err == nil {
			t.Errorf("a %d × %d PNG was drawn", p.W, p.H)
		}
	}
	if _, err := New(0, 10, Paper).SVG(); err == nil {
		t.Error("an empty SVG was drawn")
	}
}

func TestAltAndTexts(t *testing.T) {
	p := New(100, 100, Paper)
	if p.Alt() != "Picture of the board" {
		t.Errorf("default alt %q", p.Alt())
	}
	p.Summary = "Turn 3"
	p.Text(Pt(1, 1), "ann", Font{Size: 10, Color: Ink})
	p.Legend(0, 50, 100, 10, []Key{{Swatch: SwatchDisc, Label: "bob"}})
	if p.Alt() != "Turn 3" || strings.Join(p.Texts(), ",") != "Turn 3,ann,bob" {
		t.Errorf("alt %q, texts %q", p.Alt(), p.Texts())
	}
}

func TestLegendAndWrap(t *testing.T) {
	p := New(300, 100, Paper)
	var keys []Key
	for _, l := range []string{"first seat", "second seat", "third seat", "fourth seat"} {
		keys = append(keys, Key{Swatch: SwatchSquare, Style: Style{Fill: Ink}, Mark: "a", MarkColor: Paper, Label: l})
	}
	y := p.Legend(10, 0, 200, 12, keys)
	if y < 2*12*1.9-1 || y > 4*12*1.9+1 {
		t.Errorf("four keys in 190 px end at y=%v: want two or three rows", y)
	}
	for _, s := range p.Shapes {
		lo, hi := s.bounds()
		if lo.X < 9 || hi.X > 202 {
			t.Errorf("a legend shape spans %v to %v, outside 10 to 200", lo, hi)
		}
	}
	lines := Wrap("one two three four five six seven", Font{Size: 12}, 60)
	if len(lines) < 3 || strings.Join(lines, " ") != "one two three four five six seven" {
		t.Errorf("wrap: %q", lines)
	}
	for _, l := range lines {
		if w := TextWidth(l, Font{Size: 12}); w > 60 && strings.Contains(l, " ") {
			t.Errorf("line %q is %v px", l, w)
		}
	}
}

func TestHexPoints(t *testing.T) {
	for _, pointy := range []bool{true, false} {
		pts := HexPoints(Pt(5, 7), 10, pointy)
		for i, q := range pts {
			if d := math.Hypot(q.X-5, q.Y-7); math.Abs(d-10) > 1e-9 {
				t.Errorf("corner %d at distance %v", i, d)
			}
			n := pts[(i+1)%6]
			if d := math.Hypot(n.X-q.X, n.Y-q.Y); math.Abs(d-10) > 1e-9 {
				t.Errorf("side %d of length %v", i, d)
			}
		}
		top := pts[0]
		for _, q := range pts {
			if q.Y < top.Y {
				top = q
			}
		}
		if pointy != (math.Abs(top.X-5) < 1e-9) {
			t.Errorf("pointy %v: the top corner is at %v", pointy, top)
		}
	}
}

func TestOwnerInkReads(t *testing.T) {
	for i := 0; i < 8; i++ {
		o := OwnerStyle(i)
		if d := o.Fill.luma() - o.Ink.luma(); d*d < 90*90 {
			t.Errorf("seat %d: ink %v on %v has too little contrast", i, o.Ink, o.Fill)
		}
	}
	if OwnerStyle(0) == OwnerStyle(1) || OwnerStyle(8) != OwnerStyle(0) {
		t.Error("the palette does not go round as it should")
	}
}

func BenchmarkHexBoard(b *testing.B) {
	p := hexBoard()
	for b.Loop() {
		if _, err := p.PNG(); err != nil {
			b.Fatal(err)
		}
	}
}
