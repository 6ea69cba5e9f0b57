package draw

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"image"
	"image/color"
	"image/draw"
	"math"
	"slices"
	"sync"

	"github.com/klauspost/compress/zlib"
	"golang.org/x/image/font"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"
)

// PNG renders the picture as a palette PNG (at most 256 colours, which keeps
// a board well under 150 KB) with no text chunks: nothing but pixels.
func (p *Picture) PNG() ([]byte, error) {
	if err := p.drawable(); err != nil {
		return nil, err
	}
	// The canvas, the palette image and the histogram are megabytes that
	// live for one picture: taken fresh each time, their pages were
	// faulted in and cleared again for every report (an eighth of a
	// picture's CPU), so they are reused.
	bufs := scratches.Get().(*scratch)
	defer scratches.Put(bufs)
	img := &image.RGBA{Pix: grow(&bufs.canvas, 4*p.W*p.H), Stride: 4 * p.W, Rect: image.Rect(0, 0, p.W, p.H)}
	if err := p.paint(img); err != nil {
		return nil, err
	}
	b, err := encodePaletted(quantize(img, bufs))
	if err != nil {
		return nil, fmt.Errorf("encoding the board picture as PNG: %w", err)
	}
	return b, nil
}

// scratch is one picture's working memory, reused (scratches).
type scratch struct {
	canvas, indexes []byte
	hist            []bin
}

// scratches are the working memory of pictures drawn before: a daemon
// draws one for every report it sends, one a core at a time.
var scratches = sync.Pool{New: func() any { return new(scratch) }}

// grow makes *b n bytes long, reusing its array when it is large enough;
// the bytes are not cleared.
func grow(b *[]byte, n int) []byte {
	if cap(*b) < n {
		*b = make([]byte, n)
	}
	*b = (*b)[:n]
	return *b
}

// zlibs are compressors to reuse: each holds some hundreds of KB of
// tables, and a daemon draws a picture for every report it sends.
var zlibs = sync.Pool{New: func() any {
	z, _ := zlib.NewWriterLevel(nil, zlib.BestSpeed)
	return z
}}

// encodePaletted writes img as an 8-bit palette PNG: the chunks image/png
// writes for it (IHDR, PLTE, IDAT, IEND; rows unfiltered, as image/png
// leaves a palette's), with the rows compressed by klauspost/compress's
// zlib at its fastest. That deflates a board in a little over half the
// time compress/zlib's fastest takes, to as many bytes, and compressing
// was a fifth of a picture's CPU.
func encodePaletted(img *image.Paletted) ([]byte, error) {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	if w <= 0 || h <= 0 || len(img.Palette) == 0 || len(img.Palette) > 256 {
		return nil, fmt.Errorf("a %d × %d picture of %d colours", w, h, len(img.Palette))
	}
	var out bytes.Buffer
	out.Grow(w * h / 8)
	out.WriteString("\x89PNG\r\n\x1a\n")
	chunk := func(kind string, data []byte) {
		var n [4]byte
		binary.BigEndian.PutUint32(n[:], uint32(len(data)))
		out.Write(n[:])
		crc := crc32.NewIEEE()
		crc.Write([]byte(kind))
		crc.Write(data)
		out.WriteString(kind)
		out.Write(data)
		binary.BigEndian.PutUint32(n[:], crc.Sum32())
		out.Write(n[:])
	}
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], uint32(w))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(h))
	ihdr[8], ihdr[9] = 8, 3 // 8 bits a pixel, palette; no interlace
	chunk("IHDR", ihdr)
	plte := make([]byte, 0, 3*len(img.Palette))
	for _, c := range img.Palette {
		r, g, b, _ := c.RGBA()
		plte = append(plte, uint8(r>>8), uint8(g>>8), uint8(b>>8))
	}
	chunk("PLTE", plte)
	var idat bytes.Buffer
	z := zlibs.Get().(*zlib.Writer)
	defer zlibs.Put(z)
	z.Reset(&idat)
	row := make([]byte, 1+w) // filter type 0, then the row
	for y := range h {
		copy(row[1:], img.Pix[y*img.Stride:y*img.Stride+w])
		if _, err := z.Write(row); err != nil {
			return nil, err
		}
	}
	if err := z.Close(); err != nil {
		return nil, err
	}
	chunk("IDAT", idat.Bytes())
	chunk("IEND", nil)
	return out.Bytes(), nil
}

// Raster paints the picture into a full-colour image (anti-aliased), which
// PNG then reduces to a palette.
func (p *Picture) Raster() (*image.RGBA, error) {
	if err := p.drawable(); err != nil {
		return nil, err
	}
	img := image.NewRGBA(image.Rect(0, 0, p.W, p.H))
	if err := p.paint(img); err != nil {
		return nil, err
	}
	return img, nil
}

// drawable says why the picture cannot be drawn, if it cannot.
func (p *Picture) drawable() error {
	if p.W <= 0 || p.H <= 0 || p.W > 4000 || p.H > 4000 {
		return fmt.Errorf("a picture of %d × %d pixels cannot be drawn (1 to 4000 each way)", p.W, p.H)
	}
	return nil
}

// paint paints the picture onto img, all of which it covers (the paper
// first): what img held before does not show.
func (p *Picture) paint(img *image.RGBA) error {
	r := &raster{img: img, faces: faces{}}
	fillRect(r.img, nrgba(p.paper()))
	for _, s := range p.Shapes {
		if err := r.shape(s); err != nil {
			return err
		}
	}
	return nil
}

type raster struct {
	img    *image.RGBA
	z      vector.Rasterizer
	faces  faces
	glyphs map[glyphKey]glyph
	mask   *image.Alpha // the coverage of the shape being filled
	stamps map[stampKey]*image.Alpha
}

// path is one closed outline, to be filled with the others of its shape
// under the non-zero rule (the rasterizer adds coverage and clamps it).
type path struct {
	pts    []Point
	circle bool    // pts[0] is the centre, r the radius
	r      float64 // circle radius
	rev    bool    // circle drawn the other way round (a hole)
}

func (r *raster) shape(s Shape) error {
	switch s := s.(type) {
	case *Circle:
		st := s.Style
		if st.Fill.visible() {
			r.fill(st.Fill, []path{{pts: []Point{s.C}, circle: true, r: s.R}})
		}
		if st.Stroke.visible() && st.Width > 0 {
			if len(st.Dash) > 0 {
				r.stroke(st, circlePoints(s.C, s.R), true)
			} else {
				ro, ri := s.R+st.Width/2, math.Max(0, s.R-st.Width/2)
				r.fill(st.Stroke, []path{{pts: []Point{s.C}, circle: true, r: ro}, {pts: []Point{s.C}, circle: true, r: ri, rev: true}})
			}
		}
	case *Polygon:
		if len(s.Points) < 2 {
			return nil
		}
		if s.Style.Fill.visible() && len(s.Points) > 2 {
			r.fill(s.Style.Fill, []path{{pts: s.Points}})
		}
		if s.Style.Stroke.visible() && s.Style.Width > 0 {
			r.stroke(s.Style, s.Points, true)
		}
	case *Hexes:
		if s.Style.Fill.visible() {
			for _, c := range s.Centres {
				r.stamp(c, s.Size, s.Pointy, s.Style.Fill)
			}
		}
		if s.Style.Stroke.visible() && s.Style.Width > 0 {
			for _, c := range s.Centres {
				r.stroke(s.Style, HexPoints(c, s.Size, s.Pointy), true)
			}
		}
	case *Line:
		if len(s.Points) < 2 || !s.Style.Stroke.visible() {
			return nil
		}
		pts := s.Points
		if s.Arrow > 0 {
			var head []Point
			pts, head = arrowHead(pts, s.Arrow, s.Style.Width)
			defer r.fill(s.Style.Stroke, []path{{pts: head}})
		}
		if s.Style.Width > 0 && len(pts) >= 2 {
			r.stroke(s.Style, pts, false)
		}
	case *Text:
		return r.text(s)
	default:
		return fmt.Errorf("the board picture has a shape of unknown kind %T", s)
	}
	return nil
}

// fill paints paths in c, rasterising only their bounding box.
func (r *raster) fill(c Color, paths []path) {
	lo, hi := Point{math.Inf(1), math.Inf(1)}, Point{math.Inf(-1), math.Inf(-1)}
	for _, pa := range paths {
		var l, h Point
		if pa.circle {
			l, h = Point{pa.pts[0].X - pa.r, pa.pts[0].Y - pa.r}, Point{pa.pts[0].X + pa.r, pa.pts[0].Y + pa.r}
		} else {
			l, h = pointBounds(pa.pts, 0)
		}
		lo.X, lo.Y = math.Min(lo.X, l.X), math.Min(lo.Y, l.Y)
		hi.X, hi.Y = math.Max(hi.X, h.X), math.Max(hi.Y, h.Y)
	}
	box := image.Rect(int(math.Floor(lo.X)), int(math.Floor(lo.Y)), int(math.Ceil(hi.X))+1, int(math.Ceil(hi.Y))+1).Intersect(r.img.Rect)
	if box.Empty() {
		return
	}
	r.z.Reset(box.Dx(), box.Dy())
	ox, oy := float64(box.Min.X), float64(box.Min.Y)
	at := func(p Point) (float32, float32) { return float32(p.X - ox), float32(p.Y - oy) }
	for _, pa := range paths {
		if pa.circle {
			circlePath(&r.z, pa.pts[0].X-ox, pa.pts[0].Y-oy, pa.r, pa.rev)
			continue
		}
		x, y := at(pa.pts[0])
		r.z.MoveTo(x, y)
		for _, q := range pa.pts[1:] {
			x, y := at(q)
			r.z.LineTo(x, y)
		}
		r.z.ClosePath()
	}
	// The coverage goes to an alpha mask first (the rasterizer's fast
	// path), then only the covered pixels are blended.
	if r.mask == nil || cap(r.mask.Pix) < box.Dx()*box.Dy() {
		r.mask = image.NewAlpha(image.Rect(0, 0, box.Dx(), box.Dy()))
	}
	m := &image.Alpha{Pix: r.mask.Pix[:box.Dx()*box.Dy()], Stride: box.Dx(), Rect: image.Rect(0, 0, box.Dx(), box.Dy())}
	r.z.DrawOp = draw.Src
	r.z.Draw(m, m.Rect, image.Opaque, image.Point{})
	blend(r.img, box.Min, m, c)
}

// blend paints c onto img through mask m placed at off (straight alpha
// source over an opaque image), skipping what the mask leaves bare and
// what falls outside the image.
func blend(img *image.RGBA, off image.Point, m *image.Alpha, c Color) {
	sr, sg, sb, sa := uint32(c.R), uint32(c.G), uint32(c.B), uint32(c.A)
	area := m.Rect.Add(off).Intersect(img.Rect)
	for y := area.Min.Y; y < area.Max.Y; y++ {
		my := y - off.Y
		row := m.Pix[my*m.Stride+area.Min.X-off.X : my*m.Stride+area.Max.X-off.X]
		i := img.PixOffset(area.Min.X, y)
		for x, ma := range row {
			if ma == 0 {
				continue
			}
			a := uint32(ma) * sa / 255 // the source's weight, 0 to 255
			p := img.Pix[i+4*x : i+4*x+4 : i+4*x+4]
			if a == 255 {
				p[0], p[1], p[2], p[3] = c.R, c.G, c.B, 255
				continue
			}
			p[0] = uint8((uint32(p[0])*(255-a) + sr*a + 127) / 255)
			p[1] = uint8((uint32(p[1])*(255-a) + sg*a + 127) / 255)
			p[2] = uint8((uint32(p[2])*(255-a) + sb*a + 127) / 255)
			p[3] = 255
		}
	}
}

// stampKey names the coverage of one hexagon at one quarter-pixel phase.
type stampKey struct {
	size   float64
	pointy bool
	fx, fy int
}

// stamp fills a hexagon centred on c. Every hexagon of a size is the same
// up to where its centre falls within a pixel, so its coverage is
// rasterised once per quarter-pixel phase and then only blended: a board of
// thousands of cells costs little more than its pixels.
func (r *raster) stamp(c Point, size float64, pointy bool, col Color) {
	qx, qy := math.Round(c.X*4)/4, math.Round(c.Y*4)/4
	ix, iy := math.Floor(qx), math.Floor(qy)
	key := stampKey{size, pointy, int((qx - ix) * 4), int((qy - iy) * 4)}
	pad := math.Ceil(size) + 1
	if r.stamps == nil {
		r.stamps = map[stampKey]*image.Alpha{}
	}
	m, ok := r.stamps[key]
	if !ok {
		n := int(2 * pad)
		m = image.NewAlpha(image.Rect(0, 0, n, n))
		var z vector.Rasterizer
		z.Reset(n, n)
		pts := HexPoints(Point{pad + float64(key.fx)/4, pad + float64(key.fy)/4}, size, pointy)
		z.MoveTo(float32(pts[0].X), float32(pts[0].Y))
		for _, q := range pts[1:] {
			z.LineTo(float32(q.X), float32(q.Y))
		}
		z.ClosePath()
		z.DrawOp = draw.Src
		z.Draw(m, m.Rect, image.Opaque, image.Point{})
		r.stamps[key] = m
	}
	blend(r.img, image.Pt(int(ix-pad), int(iy-pad)), m, col)
}

// circlePath adds a circle as four cubic arcs, clockwise on screen, or the
// other way round when rev (to cut a hole).
func circlePath(z *vector.Rasterizer, cx, cy, rad float64, rev bool) {
	const k = 0.5522847498 // control point distance for a quarter circle
	c := float32(rad * k)
	x, y, rr := float32(cx), float32(cy), float32(rad)
	if !rev {
		z.MoveTo(x+rr, y)
		z.CubeTo(x+rr, y+c, x+c, y+rr, x, y+rr)
		z.CubeTo(x-c, y+rr, x-rr, y+c, x-rr, y)
		z.CubeTo(x-rr, y-c, x-c, y-rr, x, y-rr)
		z.CubeTo(x+c, y-rr, x+rr, y-c, x+rr, y)
	} else {
		z.MoveTo(x+rr, y)
		z.CubeTo(x+rr, y-c, x+c, y-rr, x, y-rr)
		z.CubeTo(x-c, y-rr, x-rr, y-c, x-rr, y)
		z.CubeTo(x-rr, y+c, x-c, y+rr, x, y+rr)
		z.CubeTo(x+c, y+rr, x+rr, y+c, x+rr, y)
	}
	z.ClosePath()
}

// circlePoints approximates a circle by a polygon, for dashed outlines.
func circlePoints(c Point, rad float64) []Point {
	n := max(12, int(rad))
	pts := make([]Point, n)
	for i := range pts {
		a := 2 * math.Pi * float64(i) / float64(n)
		pts[i] = Point{c.X + rad*math.Cos(a), c.Y + rad*math.Sin(a)}
	}
	return pts
}

// stroke paints the outline of pts (closed or open) as the union of one
// quadrilateral per segment and a round join at each inner corner. Every
// piece is wound the same way, so overlaps add up instead of cancelling.
func (r *raster) stroke(st Style, pts []Point, closed bool) {
	runs := [][]Point{pts}
	if closed {
		runs = [][]Point{append(append([]Point(nil), pts...), pts[0])}
	}
	if len(st.Dash) > 0 {
		runs = dashes(runs[0], st.Dash)
		closed = false
	}
	hw := st.Width / 2
	var paths []path
	for _, run := range runs {
		for i := 0; i+1 < len(run); i++ {
			a, b := run[i], run[i+1]
			dx, dy := b.X-a.X, b.Y-a.Y
			l := math.Hypot(dx, dy)
			if l == 0 {
				continue
			}
			nx, ny := -dy/l*hw, dx/l*hw
			paths = append(paths, path{pts: clockwise([]Point{{a.X + nx, a.Y + ny}, {b.X + nx, b.Y + ny}, {b.X - nx, b.Y - ny}, {a.X - nx, a.Y - ny}})})
			if i > 0 || closed {
				paths = append(paths, path{pts: []Point{a}, circle: true, r: hw})
			}
		}
	}
	if len(paths) > 0 {
		r.fill(st.Stroke, paths)
	}
}

// clockwise returns pts turning clockwise on screen (positive area).
func clockwise(pts []Point) []Point {
	area := 0.0
	for i, p := range pts {
		q := pts[(i+1)%len(pts)]
		area += p.X*q.Y - q.X*p.Y
	}
	if area < 0 {
		for i, j := 0, len(pts)-1; i < j; i, j = i+1, j-1 {
			pts[i], pts[j] = pts[j], pts[i]
		}
	}
	return pts
}

// dashes cuts a line into its "on" pieces under the pattern.
func dashes(pts []Point, pattern []float64) [][]Point {
	total := 0.0
	for _, d := range pattern {
		total += d
	}
	if total <= 0 {
		return [][]Point{pts}
	}
	var out [][]Point
	var cur []Point
	k, left := 0, pattern[0] // which dash, and how much of it remains
	on := true
	for i := 0; i+1 < len(pts); i++ {
		a, b := pts[i], pts[i+1]
		l := math.Hypot(b.X-a.X, b.Y-a.Y)
		pos := 0.0
		for pos < l {
			step := math.Min(left, l-pos)
			t0, t1 := pos/l, (pos+step)/l
			p0 := Point{a.X + (b.X-a.X)*t0, a.Y + (b.Y-a.Y)*t0}
			p1 := Point{a.X + (b.X-a.X)*t1, a.Y + (b.Y-a.Y)*t1}
			if on {
				if len(cur) == 0 {
					cur = append(cur, p0)
				}
				cur = append(cur, p1)
			}
			pos += step
			left -= step
			if left <= 1e-9 {
				if on && len(cur) > 1 {
					out = append(out, cur)
				}
				cur = nil
				k = (k + 1) % len(pattern)
				left = pattern[k]
				on = k%2 == 0
			}
		}
	}
	if on && len(cur) > 1 {
		out = append(out, cur)
	}
	return out
}

// arrowHead shortens a line so that its end hides under a head of length
// n, and returns the head's triangle.
func arrowHead(pts []Point, n, width float64) ([]Point, []Point) {
	a, b := pts[len(pts)-2], pts[len(pts)-1]
	dx, dy := b.X-a.X, b.Y-a.Y
	l := math.Hypot(dx, dy)
	if l == 0 {
		return pts, nil
	}
	ux, uy := dx/l, dy/l
	half := math.Max(n*0.45, width)
	base := Point{b.X - ux*n, b.Y - uy*n}
	head := []Point{b, {base.X - uy*half, base.Y + ux*half}, {base.X + uy*half, base.Y - ux*half}}
	out := append([]Point(nil), pts...)
	cut := math.Min(n*0.8, l)
	out[len(out)-1] = Point{b.X - ux*cut, b.Y - uy*cut}
	return out, head
}

// text writes t with the Go font, its halo first if it has one.
func (r *raster) text(t *Text) error {
	if t.Text == "" || !t.Font.Color.visible() {
		return nil
	}
	face, err := r.faces.get(t.Font)
	if err != nil {
		return err
	}
	w := float64(font.MeasureString(face, t.Text)) / 64
	x := t.At.X
	switch t.Font.Anchor {
	case Middle:
		x -= w / 2
	case End:
		x -= w
	}
	y := t.At.Y + baseline(t.Font)
	if t.Font.Halo.visible() {
		src := image.NewUniform(nrgba(t.Font.Halo))
		h := math.Max(1, math.Round(t.Font.Size/9))
		for _, o := range [][2]float64{{-1, -1}, {0, -1}, {1, -1}, {-1, 0}, {1, 0}, {-1, 1}, {0, 1}, {1, 1}} {
			r.drawString(face, t.Font, x+o[0]*h, y+o[1]*h, t.Text, src)
		}
	}
	r.drawString(face, t.Font, x, y, t.Text, image.NewUniform(nrgba(t.Font.Color)))
	return nil
}

// glyphKey names one glyph mask: a face, a rune, and where the glyph
// starts within its pixel, in quarters.
type glyphKey struct {
	size  float64
	bold  bool
	r     rune
	phase int
}

type glyph struct {
	dr   image.Rectangle // relative to the whole pixel the glyph starts in
	mask *image.Alpha
}

// drawString writes s with its baseline at y, as font.Drawer does, but
// keeps each glyph's mask for the rest of the rendering: boards repeat the
// same few letters and digits hundreds of times. The baseline falls on a
// whole pixel and a glyph's start on a quarter pixel, which keeps letters
// crisp and the cache small.
func (r *raster) drawString(face font.Face, f Font, x, y float64, s string, src image.Image) {
	if r.glyphs == nil {
		r.glyphs = map[glyphKey]glyph{}
	}
	dot := fix(x)
	iy := int(math.Round(y))
	prev := rune(-1)
	for _, c := range s {
		if prev >= 0 {
			dot += face.Kern(prev, c)
		}
		prev = c
		q := (dot + 8) &^ 15 // to a quarter pixel
		ix, phase := q.Floor(), int(q-fixed.I(q.Floor()))/16
		key := glyphKey{f.Size, f.Bold, c, phase}
		g, ok := r.glyphs[key]
		if !ok {
			dr, mask, maskp, _, ok := face.Glyph(fixed.Point26_6{X: fixed.Int26_6(phase * 16)}, c)
			if ok && !dr.Empty() {
				m := image.NewAlpha(image.Rect(0, 0, dr.Dx(), dr.Dy()))
				draw.Draw(m, m.Bounds(), mask, maskp, draw.Src)
				g = glyph{dr: dr, mask: m}
			}
			r.glyphs[key] = g
		}
		if adv, ok := face.GlyphAdvance(c); ok {
			dot += adv
		}
		if g.mask == nil {
			continue
		}
		draw.DrawMask(r.img, g.dr.Add(image.Pt(ix, iy)), src, image.Point{}, g.mask, image.Point{}, draw.Over)
	}
}

func fix(v float64) fixed.Int26_6 { return fixed.Int26_6(math.Round(v * 64)) }

func nrgba(c Color) color.Color { return color.NRGBA{c.R, c.G, c.B, c.A} }

// fillRect paints the whole image in c: one pixel, then copies of what is
// already painted, doubling each time.
func fillRect(img *image.RGBA, c color.Color) {
	r, g, b, a := c.RGBA()
	if len(img.Pix) < 4 {
		return
	}
	copy(img.Pix, []uint8{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), uint8(a >> 8)})
	for n := 4; n < len(img.Pix); n *= 2 {
		copy(img.Pix[n:], img.Pix[:n])
	}
}

// bins are quantize's colour bins: 5 bits a channel.
const bins = 1 << 15

// bin counts the pixels of one bin and sums their channels.
type bin struct{ n, r, g, b uint32 }

// quantize reduces an opaque image to at most 256 colours: colours are
// binned at 5 bits a channel, the 256 fullest bins become the palette (each
// the mean of its pixels, so a flat fill keeps its colour), and every other
// bin takes the nearest of them. No dithering: boards are flat colour with
// anti-aliased edges, and dither noise would only grow the file. Integer
// arithmetic and fixed tie-breaks make it deterministic.
//
// It costs about as much as painting the board did (a quarter of a
// daemon's CPU in a backlog whose reports carry pictures): both passes
// over the pixels step two at a time through runs of one colour, most of
// a board, and a bin that is in the palette is not searched for.
func quantize(img *image.RGBA, bufs *scratch) *image.Paletted {
	if len(bufs.hist) != bins {
		bufs.hist = make([]bin, bins)
	} else {
		clear(bufs.hist)
	}
	hist := bufs.hist
	key := func(r, g, b uint8) int { return int(r>>3)<<10 | int(g>>3)<<5 | int(b>>3) }
	pix := img.Pix
	// A pixel read as one word (alpha is always 255), two as one double.
	px := func(i int) uint32 { return binary.LittleEndian.Uint32(pix[i:]) }
	px2 := func(i int) uint64 { return binary.LittleEndian.Uint64(pix[i:]) }
	twice := func(v uint32) uint64 { return uint64(v) | uint64(v)<<32 }
	add := func(i, n int) {
		h := &hist[key(pix[i], pix[i+1], pix[i+2])]
		h.n += uint32(n)
		h.r += uint32(n) * uint32(pix[i])
		h.g += uint32(n) * uint32(pix[i+1])
		h.b += uint32(n) * uint32(pix[i+2])
	}
	// Count a run at a time.
	if len(pix) > 0 {
		start, cur := 0, px(0)
		cur2 := twice(cur)
		for i := 4; i < len(pix); {
			if i+8 <= len(pix) && px2(i) == cur2 {
				i += 8
				continue
			}
			if v := px(i); v != cur {
				add(start, (i-start)/4)
				start, cur, cur2 = i, v, twice(v)
			}
			i += 4
		}
		add(start, (len(pix)-start)/4)
	}
	var used []int
	for k := range hist {
		if hist[k].n > 0 {
			used = append(used, k)
		}
	}
	// The fullest first, ties in the order of their bins.
	top := slices.Clone(used)
	slices.SortFunc(top, func(a, b int) int {
		if c := cmp.Compare(hist[b].n, hist[a].n); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	if len(top) > 256 {
		top = top[:256]
	}
	mean := func(h bin) (int, int, int) {
		return int((h.r + h.n/2) / h.n), int((h.g + h.n/2) / h.n), int((h.b + h.n/2) / h.n)
	}
	pal := make(color.Palette, len(top))
	rgb := make([][3]int, len(top))
	for i, k := range top {
		r, g, b := mean(hist[k])
		rgb[i] = [3]int{r, g, b}
		pal[i] = color.RGBA{uint8(r), uint8(g), uint8(b), 255}
	}
	index := make([]uint8, bins)
	for _, k := range used {
		r, g, b := mean(hist[k])
		best, bestD := 0, math.MaxInt
		for i, c := range rgb {
			dr, dg, db := r-c[0], g-c[1], b-c[2]
			if d := 2*dr*dr + 4*dg*dg + 3*db*db; d < bestD {
				best, bestD = i, d
				if d == 0 {
					break // its own colour (or one just like it): none is nearer
				}
			}
		}
		index[k] = uint8(best)
	}
	// Every index is written below: the reused bytes need no clearing.
	out := &image.Paletted{Pix: grow(&bufs.indexes, img.Rect.Dx()*img.Rect.Dy()), Stride: img.Rect.Dx(), Rect: img.Rect, Palette: pal}
	if len(pix) > 0 {
		last := px(0)
		last2, at := twice(last), index[key(pix[0], pix[1], pix[2])]
		dst := out.Pix
		for i, j := 0, 0; i < len(pix); {
			if i+8 <= len(pix) && px2(i) == last2 {
				dst[j], dst[j+1] = at, at
				i, j = i+8, j+2
				continue
			}
			if v := px(i); v != last {
				last, last2, at = v, twice(v), index[key(pix[i], pix[i+1], pix[i+2])]
			}
			dst[j] = at
			i, j = i+4, j+1
		}
	}
	return out
}
