package draw

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"math"
	"sort"

	"golang.org/x/image/font"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"
)

// PNG renders the picture as a palette PNG (at most 256 colours, which keeps
// a board well under 150 KB) with no text chunks: nothing but pixels.
func (p *Picture) PNG() ([]byte, error) {
	img, err := p.Raster()
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(&b, quantize(img)); err != nil {
		return nil, fmt.Errorf("encoding the board picture as PNG: %w", err)
	}
	return b.Bytes(), nil
}

// Raster paints the picture into a full-colour image (anti-aliased), which
// PNG then reduces to a palette.
func (p *Picture) Raster() (*image.RGBA, error) {
	if p.W <= 0 || p.H <= 0 || p.W > 4000 || p.H > 4000 {
		return nil, fmt.Errorf("a picture of %d × %d pixels cannot be drawn (1 to 4000 each way)", p.W, p.H)
	}
	r := &raster{img: image.NewRGBA(image.Rect(0, 0, p.W, p.H)), faces: faces{}}
	fillRect(r.img, nrgba(p.paper()))
	for _, s := range p.Shapes {
		if err := r.shape(s); err != nil {
			return nil, err
		}
	}
	return r.img, nil
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

// quantize reduces an opaque image to at most 256 colours: colours are
// binned at 5 bits a channel, the 256 fullest bins become the palette (each
// the mean of its pixels, so a flat fill keeps its colour), and every other
// bin takes the nearest of them. No dithering: boards are flat colour with
// anti-aliased edges, and dither noise would only grow the file. Integer
// arithmetic and fixed tie-breaks make it deterministic.
func quantize(img *image.RGBA) *image.Paletted {
	const bins = 1 << 15
	type bin struct{ n, r, g, b uint32 }
	hist := make([]bin, bins)
	key := func(r, g, b uint8) int { return int(r>>3)<<10 | int(g>>3)<<5 | int(b>>3) }
	pix := img.Pix
	// Boards are mostly runs of one colour: count a run at a time, reading
	// a pixel as one word (alpha is always 255).
	px := func(i int) uint32 { return binary.LittleEndian.Uint32(pix[i:]) }
	add := func(i, n int) {
		h := &hist[key(pix[i], pix[i+1], pix[i+2])]
		h.n += uint32(n)
		h.r += uint32(n) * uint32(pix[i])
		h.g += uint32(n) * uint32(pix[i+1])
		h.b += uint32(n) * uint32(pix[i+2])
	}
	start := 0
	if len(pix) > 0 {
		cur := px(0)
		for i := 4; i < len(pix); i += 4 {
			if v := px(i); v != cur {
				add(start, (i-start)/4)
				start, cur = i, v
			}
		}
		add(start, (len(pix)-start)/4)
	}
	var used []int
	for k := range hist {
		if hist[k].n > 0 {
			used = append(used, k)
		}
	}
	top := append([]int(nil), used...)
	sort.SliceStable(top, func(i, j int) bool { return hist[top[i]].n > hist[top[j]].n })
	if len(top) > 256 {
		top = top[:256]
	}
	pal := make(color.Palette, len(top))
	for i, k := range top {
		h := hist[k]
		pal[i] = color.RGBA{uint8((h.r + h.n/2) / h.n), uint8((h.g + h.n/2) / h.n), uint8((h.b + h.n/2) / h.n), 255}
	}
	index := make([]uint8, bins)
	for _, k := range used {
		h := hist[k]
		r, g, b := int((h.r+h.n/2)/h.n), int((h.g+h.n/2)/h.n), int((h.b+h.n/2)/h.n)
		best, bestD := 0, math.MaxInt
		for i, c := range pal {
			pc := c.(color.RGBA)
			dr, dg, db := r-int(pc.R), g-int(pc.G), b-int(pc.B)
			if d := 2*dr*dr + 4*dg*dg + 3*db*db; d < bestD {
				best, bestD = i, d
			}
		}
		index[k] = uint8(best)
	}
	out := image.NewPaletted(img.Rect, pal)
	var last uint32
	var at uint8
	for i, j := 0, 0; i < len(pix); i, j = i+4, j+1 {
		if v := px(i); v != last || i == 0 {
			last, at = v, index[key(pix[i], pix[i+1], pix[i+2])]
		}
		out.Pix[j] = at
	}
	return out
}
