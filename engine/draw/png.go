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
// A Painter draws the same bytes, quicker for pictures much like one it
// drew just before.
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
	return bufs.draw(p, nil, nil)
}

// scratch is one picture's working memory, reused (scratches). After a
// drawing it holds that picture at every stage, which is what a Painter
// keeps to draw the next one from.
type scratch struct {
	canvas, indexes []byte
	hist            []bin
	// used are the bins the picture's pixels fall in; top the palette's,
	// fullest first, and rgb their colours; index maps each used bin to
	// its palette entry (other bins' entries are stale).
	used, top []int
	rgb       [][3]int
	index     []uint8
	lut       [256]int16 // what each entry of a base's palette became
	marks     *marks
	// pic is what a Painter's kept picture was drawn from and png its
	// bytes; users, how many drawings read it now, and out, whether it is
	// no longer kept (both under the Painter's lock).
	pic   *Picture
	png   []byte
	users int
	out   bool
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

// draw renders p into bufs and returns its PNG. Given base, a picture of
// the same size and paper drawn into another scratch, and dirty, the part
// of the canvas outside which p and base paint the same pixels, it starts
// from base's canvas, colour counts and palette indexes, and paints,
// counts and reads colours again only within dirty. The bytes are the
// same either way. The rows are deflated whole every time: the palette's
// order (fullest colour first) moves between two seats' pictures, so
// their indexes differ even where their pixels do not.
func (bufs *scratch) draw(p *Picture, base *scratch, dirty region) ([]byte, error) {
	bufs.pic = nil
	bufs.marks = bufs.marks.current()
	full := image.Rect(0, 0, p.W, p.H)
	img := &image.RGBA{Pix: grow(&bufs.canvas, 4*p.W*p.H), Stride: 4 * p.W, Rect: full}
	if len(bufs.hist) != bins {
		bufs.hist = make([]bin, bins)
	}
	if base == nil {
		if err := p.paint(img, []image.Rectangle{full}, bufs.marks); err != nil {
			return nil, err
		}
		clear(bufs.hist)
		count(bufs.hist, img, full, 1)
	} else {
		copy(img.Pix, base.canvas)
		copy(bufs.hist, base.hist)
		rects := dirty.rects()
		for _, r := range rects {
			count(bufs.hist, img, r, ^uint32(0)) // take away what base has there
		}
		if err := p.paint(img, rects, bufs.marks); err != nil {
			return nil, err
		}
		for _, r := range rects {
			count(bufs.hist, img, r, 1)
		}
	}
	bufs.choosePalette(base)
	pix := grow(&bufs.indexes, p.W*p.H)
	if base == nil {
		mapPixels(img, full, bufs.index, pix)
	} else {
		bufs.carry(img, base)
		for _, r := range dirty.rects() {
			mapPixels(img, r, bufs.index, pix)
		}
	}
	b, err := writePNG(pix, p.W, p.H, p.W, bufs.rgb)
	if err != nil {
		return nil, fmt.Errorf("encoding the board picture as PNG: %w", err)
	}
	return b, nil
}

// zlibs are compressors to reuse: each holds some hundreds of KB of
// tables, and a daemon draws a picture for every report it sends.
var zlibs = sync.Pool{New: func() any {
	z, _ := zlib.NewWriterLevel(nil, zlib.BestSpeed)
	return z
}}

// writePNG writes the palette image pix (w × h, stride; colours rgb) as an
// 8-bit palette PNG: the chunks image/png writes for it (IHDR, PLTE, IDAT,
// IEND; rows unfiltered, as image/png leaves a palette's), with the rows
// compressed by klauspost/compress's zlib at its fastest. That deflates a
// board in a little over half the time compress/zlib's fastest takes, to
// as many bytes, and compressing was a fifth of a picture's CPU.
func writePNG(pix []byte, w, h, stride int, rgb [][3]int) ([]byte, error) {
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
	plte := make([]byte, 0, 3*len(rgb))
	for _, c := range rgb {
		plte = append(plte, uint8(c[0]), uint8(c[1]), uint8(c[2]))
	}
	chunk("PLTE", plte)
	var idat bytes.Buffer
	z := zlibs.Get().(*zlib.Writer)
	defer zlibs.Put(z)
	z.Reset(&idat)
	row := make([]byte, 1+w) // filter type 0, then the row
	for y := range h {
		copy(row[1:], pix[y*stride:y*stride+w])
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

// encodePaletted writes img as an 8-bit palette PNG, as PNG writes a
// picture once it is reduced to a palette.
func encodePaletted(img *image.Paletted) ([]byte, error) {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	if w <= 0 || h <= 0 || len(img.Palette) == 0 || len(img.Palette) > 256 {
		return nil, fmt.Errorf("a %d × %d picture of %d colours", w, h, len(img.Palette))
	}
	rgb := make([][3]int, len(img.Palette))
	for i, c := range img.Palette {
		r, g, b, _ := c.RGBA()
		rgb[i] = [3]int{int(r >> 8), int(g >> 8), int(b >> 8)}
	}
	return writePNG(img.Pix[img.PixOffset(img.Rect.Min.X, img.Rect.Min.Y):], w, h, img.Stride, rgb)
}

// Raster paints the picture into a full-colour image (anti-aliased), which
// PNG then reduces to a palette.
func (p *Picture) Raster() (*image.RGBA, error) {
	if err := p.drawable(); err != nil {
		return nil, err
	}
	img := image.NewRGBA(image.Rect(0, 0, p.W, p.H))
	if err := p.paint(img, []image.Rectangle{img.Rect}, newMarks()); err != nil {
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

// paint paints the picture onto the parts clips of img (rectangles that do
// not overlap), all of which it covers (the paper first): what img held
// there before does not show, and nothing outside them changes. Each
// pixel within them comes out as painting the whole picture paints it: a
// shape's coverage is worked out over the same box either way, and only
// the blending stops at a clip's edge.
func (p *Picture) paint(img *image.RGBA, clips []image.Rectangle, m *marks) error {
	r := &raster{img: img, marks: m}
	for _, c := range clips {
		if c = c.Intersect(img.Rect); !c.Empty() {
			r.clips = append(r.clips, c)
			r.dsts = append(r.dsts, img.SubImage(c).(*image.RGBA))
		}
	}
	if len(r.clips) == 0 {
		return nil
	}
	for _, d := range r.dsts {
		fillRect(d, nrgba(p.paper()))
	}
	for _, s := range p.Shapes {
		if err := r.shape(s); err != nil {
			return err
		}
	}
	return nil
}

// region is a part of a picture kept as one rectangle for each strip of
// stripRows rows: the parts of a board that differ between two seats'
// pictures lie here and there (each seat's own pieces, the legend), and
// one rectangle round all of them would cover half the board.
type region []image.Rectangle

// stripRows is how tall a region's strips are: finer strips fit the
// changed parts more closely, and cost a rectangle each.
const stripRows = 32

func newRegion(h int) region { return make(region, (h+stripRows-1)/stripRows) }

// add adds box (within the picture) to g.
func (g region) add(box image.Rectangle) {
	if box.Empty() {
		return
	}
	for i := box.Min.Y / stripRows; i < len(g) && i*stripRows < box.Max.Y; i++ {
		b := box
		b.Min.Y, b.Max.Y = max(b.Min.Y, i*stripRows), min(b.Max.Y, (i+1)*stripRows)
		g[i] = g[i].Union(b)
	}
}

// rects are g's rectangles that hold something.
func (g region) rects() []image.Rectangle {
	var out []image.Rectangle
	for _, r := range g {
		if !r.Empty() {
			out = append(out, r)
		}
	}
	return out
}

// area is how many pixels g holds.
func (g region) area() int {
	n := 0
	for _, r := range g {
		n += r.Dx() * r.Dy()
	}
	return n
}

// footprint adds to g what shapes paint in a w × h picture (when painted
// in it, over whatever else): every pixel they could change. It is
// measured by the painting's own steps, which stop short of painting.
func footprint(g region, w, h int, shapes []Shape, m *marks) error {
	r := &raster{img: &image.RGBA{Rect: image.Rect(0, 0, w, h)}, measure: g, marks: m}
	for _, s := range shapes {
		if err := r.shape(s); err != nil {
			return err
		}
	}
	return nil
}

type raster struct {
	img   *image.RGBA
	clips []image.Rectangle // what may be painted of img
	dsts  []*image.RGBA     // img cut to each clip
	z     vector.Rasterizer
	mask  *image.Alpha // the coverage of the shape being filled
	*marks
	// measure, if set: paint nothing, only add to it where it would paint.
	measure region
}

// marks are what a drawing keeps of the letters and hexagons it has
// drawn, for the rest of it and for the pictures drawn after it with the
// same scratch: faces, each glyph's mask and advance, kerning, and each
// hexagon's coverage. None depends on the picture.
type marks struct {
	faces  faces
	glyphs map[glyphKey]glyph
	stamps map[stampKey]*image.Alpha
	advs   map[glyphKey]advance // phase 0
	kerns  map[kernKey]fixed.Int26_6
}

type advance struct {
	adv fixed.Int26_6
	ok  bool
}

type kernKey struct {
	size       float64
	bold       bool
	prev, next rune
}

func newMarks() *marks {
	return &marks{faces: faces{}, glyphs: map[glyphKey]glyph{}, stamps: map[stampKey]*image.Alpha{},
		advs: map[glyphKey]advance{}, kerns: map[kernKey]fixed.Int26_6{}}
}

// marksKept bounds what marks hold: a board writes a few hundred letters
// and pairs, but the names and words of every game a daemon draws over
// months would have them grow for ever.
const marksKept = 20000

// current returns m, or new marks in its place once it holds more than
// marksKept glyphs, pairs and hexagons.
func (m *marks) current() *marks {
	if m == nil || len(m.glyphs)+len(m.kerns)+len(m.advs)+len(m.stamps) > marksKept {
		return newMarks()
	}
	return m
}

// advance is face's GlyphAdvance of c, kept.
func (m *marks) advance(face font.Face, f Font, c rune) advance {
	k := glyphKey{size: f.Size, bold: f.Bold, r: c}
	a, ok := m.advs[k]
	if !ok {
		a.adv, a.ok = face.GlyphAdvance(c)
		m.advs[k] = a
	}
	return a
}

// kern is face's Kern of prev and next, kept.
func (m *marks) kern(face font.Face, f Font, prev, next rune) fixed.Int26_6 {
	k := kernKey{f.Size, f.Bold, prev, next}
	v, ok := m.kerns[k]
	if !ok {
		v = face.Kern(prev, next)
		m.kerns[k] = v
	}
	return v
}

// measureString is font.MeasureString, from the kept advances and kerning.
func (m *marks) measureString(face font.Face, f Font, s string) fixed.Int26_6 {
	var w fixed.Int26_6
	prev := rune(-1)
	for _, c := range s {
		if prev >= 0 {
			w += m.kern(face, f, prev, c)
		}
		w += m.advance(face, f, c).adv
		prev = c
	}
	return w
}

// touch says whether anything of box is to be painted: it meets a clip,
// and the raster is not measuring (then box is added to what it measures).
func (r *raster) touch(box image.Rectangle) bool {
	if r.measure != nil {
		r.measure.add(box.Intersect(r.img.Rect))
		return false
	}
	return r.meets(box)
}

// meets says whether box meets a clip.
func (r *raster) meets(box image.Rectangle) bool {
	for _, c := range r.clips {
		if box.Overlaps(c) {
			return true
		}
	}
	return false
}

// each calls paint with each part of img, cut to a clip, that box meets.
func (r *raster) each(box image.Rectangle, paint func(dst *image.RGBA)) {
	for i, c := range r.clips {
		if box.Overlaps(c) {
			paint(r.dsts[i])
		}
	}
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
	if box.Empty() || !r.touch(box) {
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
	r.each(box, func(dst *image.RGBA) { blend(dst, box.Min, m, c) })
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
	n := int(2 * pad)
	off := image.Pt(int(ix-pad), int(iy-pad))
	if !r.touch(image.Rect(0, 0, n, n).Add(off)) {
		return
	}
	m, ok := r.stamps[key]
	if !ok {
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
	r.each(image.Rect(0, 0, n, n).Add(off), func(dst *image.RGBA) { blend(dst, off, m, col) })
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
	w := float64(r.measureString(face, t.Font, t.Text)) / 64
	x := t.At.X
	switch t.Font.Anchor {
	case Middle:
		x -= w / 2
	case End:
		x -= w
	}
	y := t.At.Y + baseline(t.Font)
	h := math.Max(1, math.Round(t.Font.Size/9))
	// A glyph reaches less than an em past its advance and above the
	// baseline, and half an em below it: a text far from every clip is
	// not looked at letter by letter (footprint still is).
	if r.measure == nil {
		em := t.Font.Size + h + 2
		if !r.meets(image.Rect(int(x-em), int(y-2*em), int(x+w+em)+1, int(y+em)+1)) {
			return nil
		}
	}
	if t.Font.Halo.visible() {
		src := image.NewUniform(nrgba(t.Font.Halo))
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
	dot := fix(x)
	iy := int(math.Round(y))
	prev := rune(-1)
	for _, c := range s {
		if prev >= 0 {
			dot += r.kern(face, f, prev, c)
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
		if a := r.advance(face, f, c); a.ok {
			dot += a.adv
		}
		if g.mask == nil {
			continue
		}
		if at := g.dr.Add(image.Pt(ix, iy)); r.touch(at) {
			r.each(at, func(dst *image.RGBA) { draw.DrawMask(dst, at, src, image.Point{}, g.mask, image.Point{}, draw.Over) })
		}
	}
}

func fix(v float64) fixed.Int26_6 { return fixed.Int26_6(math.Round(v * 64)) }

func nrgba(c Color) color.Color { return color.NRGBA{c.R, c.G, c.B, c.A} }

// fillRect paints all of img (its Rect, which may be cut from a larger
// image) in c: one pixel, then copies of what is already painted of its
// first row, doubling each time, then that row into the others.
func fillRect(img *image.RGBA, c color.Color) {
	r, g, b, a := c.RGBA()
	w, h := img.Rect.Dx(), img.Rect.Dy()
	if w <= 0 || h <= 0 {
		return
	}
	first := img.Pix[:4*w]
	copy(first, []uint8{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), uint8(a >> 8)})
	for n := 4; n < len(first); n *= 2 {
		copy(first[n:], first[:n])
	}
	for y := 1; y < h; y++ {
		copy(img.Pix[y*img.Stride:y*img.Stride+4*w], first)
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
// a board, and a bin that is in the palette is not searched for. A
// Painter runs the three steps (count, choosePalette, mapPixels) on the
// part of a picture that changed.
func quantize(img *image.RGBA, bufs *scratch) *image.Paletted {
	if len(bufs.hist) != bins {
		bufs.hist = make([]bin, bins)
	} else {
		clear(bufs.hist)
	}
	count(bufs.hist, img, img.Rect, 1)
	bufs.choosePalette(nil)
	pal := make(color.Palette, len(bufs.rgb))
	for i, c := range bufs.rgb {
		pal[i] = color.RGBA{uint8(c[0]), uint8(c[1]), uint8(c[2]), 255}
	}
	// Every index is written: the reused bytes need no clearing.
	out := &image.Paletted{Pix: grow(&bufs.indexes, img.Rect.Dx()*img.Rect.Dy()), Stride: img.Rect.Dx(), Rect: img.Rect, Palette: pal}
	mapPixels(img, img.Rect, bufs.index, out.Pix)
	return out
}

// binOf is the bin of a colour.
func binOf(r, g, b uint8) int { return int(r>>3)<<10 | int(g>>3)<<5 | int(b>>3) }

// A pixel read as one word (alpha is always 255), two as one double.
func px(pix []byte, i int) uint32 { return binary.LittleEndian.Uint32(pix[i:]) }

func px2(pix []byte, i int) uint64 { return binary.LittleEndian.Uint64(pix[i:]) }

func twice(v uint32) uint64 { return uint64(v) | uint64(v)<<32 }

// rows returns the pixels of img within r as runs of whole rows: one run
// when they lie one after the other in memory, else a run a row; and the
// index (in img's pixels, counted from its corner) of each run's first.
func rows(img *image.RGBA, r image.Rectangle, runs [][]byte, firsts []int) ([][]byte, []int) {
	r = r.Intersect(img.Rect)
	if r.Empty() {
		return runs, firsts
	}
	if r.Min.X == img.Rect.Min.X && r.Max.X == img.Rect.Max.X && img.Stride == 4*r.Dx() {
		i := img.PixOffset(r.Min.X, r.Min.Y)
		return append(runs, img.Pix[i:i+4*r.Dx()*r.Dy()]), append(firsts, (r.Min.Y-img.Rect.Min.Y)*img.Rect.Dx())
	}
	for y := r.Min.Y; y < r.Max.Y; y++ {
		i := img.PixOffset(r.Min.X, y)
		runs = append(runs, img.Pix[i:i+4*r.Dx()])
		firsts = append(firsts, (y-img.Rect.Min.Y)*img.Rect.Dx()+r.Min.X-img.Rect.Min.X)
	}
	return runs, firsts
}

// count adds the pixels of img within r to hist, a run of one colour at a
// time; sign 1 adds them, ^uint32(0) (minus one) takes them away again.
func count(hist []bin, img *image.RGBA, r image.Rectangle, sign uint32) {
	runs, _ := rows(img, r, nil, nil)
	for _, pix := range runs {
		countRun(hist, pix, sign)
	}
}

func countRun(hist []bin, pix []byte, sign uint32) {
	add := func(i, n int) {
		h := &hist[binOf(pix[i], pix[i+1], pix[i+2])]
		k := uint32(n) * sign
		h.n += k
		h.r += k * uint32(pix[i])
		h.g += k * uint32(pix[i+1])
		h.b += k * uint32(pix[i+2])
	}
	start, cur := 0, px(pix, 0)
	cur2 := twice(cur)
	for i := 4; i < len(pix); {
		if i+8 <= len(pix) && px2(pix, i) == cur2 {
			i += 8
			continue
		}
		if v := px(pix, i); v != cur {
			add(start, (i-start)/4)
			start, cur, cur2 = i, v, twice(v)
		}
		i += 4
	}
	add(start, (len(pix)-start)/4)
}

// choosePalette chooses the colours of the picture counted in bufs.hist
// (its fullest 256 bins, each its pixels' mean) and maps every bin it uses
// to the nearest of them. Given base, a picture whose palette came out the
// same, the bins base used keep base's entries (the same rule gave them)
// and only bins new to this picture are searched; given any base, it
// works out bufs.lut, what each entry of base's palette becomes (carry).
func (bufs *scratch) choosePalette(base *scratch) {
	hist := bufs.hist
	bufs.used = bufs.used[:0]
	for k := range hist {
		if hist[k].n > 0 {
			bufs.used = append(bufs.used, k)
		}
	}
	// The fullest first, ties in the order of their bins.
	bufs.top = append(bufs.top[:0], bufs.used...)
	slices.SortFunc(bufs.top, func(a, b int) int {
		if c := cmp.Compare(hist[b].n, hist[a].n); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	if len(bufs.top) > 256 {
		bufs.top = bufs.top[:256]
	}
	mean := func(h bin) [3]int {
		return [3]int{int((h.r + h.n/2) / h.n), int((h.g + h.n/2) / h.n), int((h.b + h.n/2) / h.n)}
	}
	bufs.rgb = bufs.rgb[:0]
	for _, k := range bufs.top {
		bufs.rgb = append(bufs.rgb, mean(hist[k]))
	}
	if len(bufs.index) != bins {
		bufs.index = make([]uint8, bins)
	}
	samePalette := base != nil && slices.Equal(bufs.top, base.top) && slices.Equal(bufs.rgb, base.rgb)
	if samePalette {
		copy(bufs.index, base.index)
	}
	for _, k := range bufs.used {
		if samePalette && base.hist[k].n > 0 {
			continue
		}
		m := mean(hist[k])
		best, bestD := 0, math.MaxInt
		for i, c := range bufs.rgb {
			dr, dg, db := m[0]-c[0], m[1]-c[1], m[2]-c[2]
			if d := 2*dr*dr + 4*dg*dg + 3*db*db; d < bestD {
				best, bestD = i, d
				if d == 0 {
					break // its own colour (or one just like it): none is nearer
				}
			}
		}
		bufs.index[k] = uint8(best)
	}
	if base == nil {
		return
	}
	// A pixel both pictures have the same falls in a bin both use. Where
	// every such bin of one entry of base's palette takes one entry of
	// this one, its pixels take that entry; where they part ways, each
	// pixel is looked at again.
	for i := range bufs.lut {
		bufs.lut[i] = unset
	}
	for _, k := range bufs.used {
		if base.hist[k].n == 0 {
			continue
		}
		switch a, b := base.index[k], int16(bufs.index[k]); bufs.lut[a] {
		case unset:
			bufs.lut[a] = b
		case b, split:
		default:
			bufs.lut[a] = split
		}
	}
}

// The entries of scratch.lut that are not an entry of the palette.
const (
	unset = -1 // no bin of the entry is used in both pictures
	split = -2 // its bins take different entries now
)

// carry writes the indexes of the pixels where the pictures in bufs and
// base are the same (all but the changed region) from base's indexes
// through bufs.lut, or from the pixel where the entry split: cheaper than
// reading every pixel's colour again. Within the changed region it
// writes what mapPixels then writes over.
func (bufs *scratch) carry(img *image.RGBA, base *scratch) {
	pix, from := bufs.indexes, base.indexes
	var lut [256]uint8
	var again [256]bool
	for i, v := range bufs.lut {
		lut[i], again[i] = uint8(v), v < 0
	}
	for j, a := range from[:len(pix)] {
		if again[a] {
			q := img.Pix[4*j : 4*j+3]
			pix[j] = bufs.index[binOf(q[0], q[1], q[2])]
			continue
		}
		pix[j] = lut[a]
	}
}

// mapPixels writes the palette index of each pixel of img within r to dst
// (img's size, one byte a pixel), a run of one colour at a time.
func mapPixels(img *image.RGBA, r image.Rectangle, index []uint8, dst []byte) {
	runs, firsts := rows(img, r, nil, nil)
	for k, pix := range runs {
		mapRun(pix, index, dst[firsts[k]:firsts[k]+len(pix)/4])
	}
}

func mapRun(pix []byte, index []uint8, dst []byte) {
	last := px(pix, 0)
	last2, at := twice(last), index[binOf(pix[0], pix[1], pix[2])]
	for i, j := 0, 0; i < len(pix); {
		if i+8 <= len(pix) && px2(pix, i) == last2 {
			dst[j], dst[j+1] = at, at
			i, j = i+8, j+2
			continue
		}
		if v := px(pix, i); v != last {
			last, last2, at = v, twice(v), index[binOf(pix[i], pix[i+1], pix[i+2])]
		}
		dst[j] = at
		i, j = i+4, j+1
	}
}

// PalettePNG writes img (opaque) as PNG writes a picture: reduced to a
// palette of at most 256 colours, no text chunks. Screenshots kept in the
// repository are written so, at a third of a browser's full-colour PNG.
func PalettePNG(img *image.RGBA) ([]byte, error) {
	return encodePaletted(quantize(img, new(scratch)))
}
