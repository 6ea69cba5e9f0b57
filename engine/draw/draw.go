// Package draw is the small drawing model every ruleset describes its board
// in, and the one renderer that turns it into a PNG (for mail) or an SVG (for
// the web). A game says what is where (circles, hexes, lines with arrows,
// text) in pixels of the final picture; this package knows nothing of any
// game, and nothing of mail.
//
// A picture is only ever what its shapes say: the PNG carries no text chunk
// and the SVG no title, id or comment but what the shapes and Summary hold,
// so a picture built from a player's own view shows nothing hidden from that
// player. The same picture gives the same bytes, PNG and SVG alike.
package draw

import (
	"math"
	"strings"
)

// Point is a position in pixels, x rightward and y downward.
type Point struct{ X, Y float64 }

// Pt is shorthand for Point{x, y}.
func Pt(x, y float64) Point { return Point{x, y} }

// Add returns p moved by q.
func (p Point) Add(q Point) Point { return Point{p.X + q.X, p.Y + q.Y} }

// Color is a colour with straight (not premultiplied) alpha. The zero Color
// is transparent, which a Style reads as "none".
type Color struct{ R, G, B, A uint8 }

// RGB makes an opaque colour from 0xRRGGBB.
func RGB(hex uint32) Color { return Color{uint8(hex >> 16), uint8(hex >> 8), uint8(hex), 255} }

// None is no colour: no fill, no stroke, no halo.
var None = Color{}

// visible reports whether anything is painted in c.
func (c Color) visible() bool { return c.A > 0 }

// luma is the colour's perceived lightness, 0 to 255.
func (c Color) luma() int { return (299*int(c.R) + 587*int(c.G) + 114*int(c.B)) / 1000 }

// Style says how a shape is painted: its inside, and its outline.
type Style struct {
	Fill   Color
	Stroke Color
	Width  float64   // stroke width in pixels; 0 draws no outline
	Dash   []float64 // on and off lengths along the outline; empty: solid
}

// Anchor is where a text stands relative to its point.
type Anchor int

// The three anchors: the text starts, is centred, or ends at its point.
const (
	Start Anchor = iota
	Middle
	End
)

// Font is how a text is written. The face is always the Go font (regular
// or bold), which the PNG renderer embeds; an SVG names it first and falls
// back on the reader's sans-serif.
type Font struct {
	Size   float64 // pixels from ascender to descender, roughly
	Bold   bool
	Anchor Anchor
	Color  Color
	// Halo is painted around the letters so a label reads over lines and
	// shapes; None leaves them bare.
	Halo Color
}

// Shape is one thing drawn: *Circle, *Polygon, *Hexes, *Line or *Text.
// Shapes are painted in the order they were added, later ones over earlier
// ones.
type Shape interface {
	bounds() (lo, hi Point)
}

// Circle is a disc and its outline.
type Circle struct {
	C     Point
	R     float64
	Style Style
}

// Polygon is a closed shape (a hex, a box) through its points.
type Polygon struct {
	Points []Point
	Style  Style
}

// Hexes are many regular hexagons of one size and style, such as the empty
// cells of a board: one shape rather than thousands, which keeps the SVG
// small (one path) and the PNG quick.
type Hexes struct {
	Centres []Point
	Size    float64 // circumradius
	Pointy  bool    // a corner up (else a flat top)
	Style   Style
}

// Line is an open line through its points, stroked with Style.Stroke (its
// fill is not used). Arrow, if above 0, puts an arrowhead that long at the
// last point.
type Line struct {
	Points []Point
	Style  Style
	Arrow  float64
}

// Text is one line of text. At is the middle of the letters' height (not
// the baseline), at the start, centre or end as Font.Anchor says, so a
// label centred on a disc is simply At: the disc's centre, Anchor: Middle.
type Text struct {
	At   Point
	Text string
	Font Font
}

func (c *Circle) bounds() (Point, Point) {
	w := c.R + c.Style.Width/2
	return Point{c.C.X - w, c.C.Y - w}, Point{c.C.X + w, c.C.Y + w}
}

func (p *Polygon) bounds() (Point, Point) { return pointBounds(p.Points, p.Style.Width/2) }

func (h *Hexes) bounds() (Point, Point) { return pointBounds(h.Centres, h.Size+h.Style.Width/2) }

func (l *Line) bounds() (Point, Point) { return pointBounds(l.Points, l.Style.Width/2+l.Arrow) }

func (t *Text) bounds() (Point, Point) {
	w := TextWidth(t.Text, t.Font)
	x := t.At.X
	switch t.Font.Anchor {
	case Middle:
		x -= w / 2
	case End:
		x -= w
	}
	h := t.Font.Size * 0.7
	return Point{x - 2, t.At.Y - h - 2}, Point{x + w + 2, t.At.Y + h + 2}
}

func pointBounds(pts []Point, pad float64) (Point, Point) {
	if len(pts) == 0 {
		return Point{}, Point{}
	}
	lo, hi := pts[0], pts[0]
	for _, p := range pts[1:] {
		lo.X, lo.Y = math.Min(lo.X, p.X), math.Min(lo.Y, p.Y)
		hi.X, hi.Y = math.Max(hi.X, p.X), math.Max(hi.Y, p.Y)
	}
	return Point{lo.X - pad, lo.Y - pad}, Point{hi.X + pad, hi.Y + pad}
}

// Picture is a board as shapes, W × H pixels on a Background.
type Picture struct {
	W, H       int
	Background Color
	// Summary is the short text alternative of the picture (see Alt). Like
	// every text of the picture, it must hold only what the view shows.
	Summary string
	Shapes  []Shape
	// story is the run of Shapes that Story drew (from, to): the web's
	// SVG groups them, and tests count them.
	story [2]int
	told  Story
	// Board is where the board lies in the picture: above it stands the
	// title, below it the legend and notes. Phone lays these out again
	// for a phone and shows the board at a scale its labels read at.
	// Empty: the whole picture is board.
	Board Rect
	// Focus is the part of the board that concerns the reader: their own
	// pieces. Phone shows what lies around it when the board does not fit
	// a phone's width. Empty: the middle of the board.
	Focus Rect
	// PhoneBoard, when set, is the board laid out by the game for a
	// phone's width (PhoneWidth px, no word under PhoneFont): Phone shows
	// it in the place of the board, for a board that no crop would read
	// well (a tree whose every branch counts).
	PhoneBoard *Picture
	parts      []part       // what Legend and Note drew, for Phone
	wide       map[int]bool // the shapes WideText drew, which Phone leaves out
}

// New starts an empty picture. The height may be set later, once the game
// has laid out its board and legend.
func New(w, h int, background Color) *Picture {
	return &Picture{W: w, H: h, Background: background}
}

// paper is the background as painted: opaque (a picture has no holes), and
// Paper if none is given.
func (p *Picture) paper() Color {
	bg := p.Background
	if !bg.visible() {
		return Paper
	}
	bg.A = 255
	return bg
}

// Add appends shapes, to be painted over those already there.
func (p *Picture) Add(s ...Shape) { p.Shapes = append(p.Shapes, s...) }

// Circle adds a disc.
func (p *Picture) Circle(c Point, r float64, st Style) { p.Add(&Circle{C: c, R: r, Style: st}) }

// Polygon adds a closed shape.
func (p *Picture) Polygon(pts []Point, st Style) { p.Add(&Polygon{Points: pts, Style: st}) }

// Hexes adds many hexagons of one size and style.
func (p *Picture) Hexes(centres []Point, size float64, pointy bool, st Style) {
	p.Add(&Hexes{Centres: centres, Size: size, Pointy: pointy, Style: st})
}

// Line adds an open line through pts.
func (p *Picture) Line(st Style, pts ...Point) { p.Add(&Line{Points: pts, Style: st}) }

// Arrow adds a line from a to b with an arrowhead of length head at b.
func (p *Picture) Arrow(a, b Point, st Style, head float64) {
	p.Add(&Line{Points: []Point{a, b}, Style: st, Arrow: head})
}

// Text adds a line of text.
func (p *Picture) Text(at Point, s string, f Font) { p.Add(&Text{At: at, Text: s, Font: f}) }

// WideText adds a line of text that speaks of the picture's own layout
// ("the centre on the left"), which Phone leaves out when it shows the
// game's PhoneBoard in the board's place.
func (p *Picture) WideText(at Point, s string, f Font) {
	if p.wide == nil {
		p.wide = map[int]bool{}
	}
	p.wide[len(p.Shapes)] = true
	p.Text(at, s, f)
}

// Alt is a short text alternative of the picture, for an <img alt="…">:
// the game's Summary, or a plain "Picture of the board".
func (p *Picture) Alt() string {
	if s := strings.TrimSpace(p.Summary); s != "" {
		return s
	}
	return "Picture of the board"
}

// Texts lists every text written in the picture, in drawing order, with the
// Summary first: all that a reader of the PNG or SVG could learn in words,
// for tests that check a picture shows nothing hidden.
func (p *Picture) Texts() []string {
	out := []string{p.Summary}
	for _, s := range p.Shapes {
		if t, ok := s.(*Text); ok {
			out = append(out, t.Text)
		}
	}
	return out
}

// HexPoints returns the six corners of a regular hexagon centred on c with
// circumradius size: pointy-topped (a corner up) or flat-topped.
func HexPoints(c Point, size float64, pointy bool) []Point {
	unit := &flatHex
	if pointy {
		unit = &pointyHex
	}
	pts := make([]Point, 6)
	for i, u := range unit {
		pts[i] = Point{c.X + size*u.X, c.Y + size*u.Y}
	}
	return pts
}

// The corners of hexagons of radius 1, clockwise on screen from the east
// (flat top) or from 30° above it (pointy top), worked out once.
var flatHex, pointyHex = hexCorners(0), hexCorners(-30)

func hexCorners(start float64) [6]Point {
	var out [6]Point
	for i := range out {
		a := (start + 60*float64(i)) * math.Pi / 180
		out[i] = Point{math.Cos(a), math.Sin(a)}
	}
	return out
}

// Owner is how one owner's things are drawn: a fill colour from a palette
// that colour-blind readers can tell apart (Okabe and Ito's), and an ink
// that reads on it. Colour alone is never enough: every owned thing on a
// board also carries its owner's letter or number.
type Owner struct {
	Fill Color
	Ink  Color
}

// owners is Okabe and Ito's palette, darkest hues first so that neighbours
// in seat order differ in lightness as well as hue.
var owners = []Color{
	RGB(0x0072B2), // blue
	RGB(0xE69F00), // orange
	RGB(0x009E73), // bluish green
	RGB(0xCC79A7), // reddish purple
	RGB(0x56B4E9), // sky blue
	RGB(0xD55E00), // vermillion
	RGB(0xF0E442), // yellow
	RGB(0x999999), // grey
}

// OwnerStyle returns the style of seat i (from 0). Past eight seats the
// palette starts again; the letters still tell them apart.
func OwnerStyle(i int) Owner {
	c := owners[((i%len(owners))+len(owners))%len(owners)]
	ink := Ink
	if c.luma() < 128 {
		ink = RGB(0xFFFFFF)
	}
	return Owner{Fill: c, Ink: ink}
}

// The house colours every board shares, light so that a picture prints and
// reads in a mail client's light or dark mode alike.
var (
	Paper = RGB(0xFAF9F5) // the background
	Ink   = RGB(0x1F1F1F) // text and outlines
	Muted = RGB(0x6B6B6B) // secondary text: coordinates, notes
	Faint = RGB(0xD9D6CC) // grid lines, empty cells
	Space = RGB(0xEEF1F6) // empty space on hex boards
)

// Key is one entry of a legend: a small swatch (a disc, a square or a
// hexagon in Style, with Mark written on it in MarkColor) and its Label.
type Key struct {
	Swatch    Swatch
	Style     Style
	Mark      string
	MarkColor Color
	Label     string
}

// Swatch is the shape of a legend entry's sample.
type Swatch int

// The legend's swatches.
const (
	SwatchDisc Swatch = iota
	SwatchSquare
	SwatchHex
	SwatchLine
	SwatchNone // the label alone
)

// Legend lays keys out in rows from (x, y) to maxX, each key's swatch then
// its label, wrapping to a new row when one would pass maxX. It returns the
// y below the last row.
func (p *Picture) Legend(x, y, maxX float64, size float64, keys []Key) float64 {
	const gap = 14
	sw := size * 1.25 // swatch size
	row := size * 1.9
	cx := x
	from, top := len(p.Shapes), y
	defer func() {
		p.parts = append(p.parts, part{from: from, to: len(p.Shapes), y: top, keys: keys, size: size})
	}()
	f := Font{Size: size, Color: Ink}
	y += row / 2
	var m Meter
	for _, k := range keys {
		w := m.Width(k.Label, f)
		if k.Swatch != SwatchNone {
			w += sw + 5
		}
		if cx > x && cx+w > maxX {
			cx, y = x, y+row
		}
		lx := cx
		if k.Swatch != SwatchNone {
			c := Point{cx + sw/2, y}
			switch k.Swatch {
			case SwatchDisc:
				p.Circle(c, sw/2, k.Style)
			case SwatchSquare:
				h := sw / 2
				p.Polygon([]Point{{c.X - h, c.Y - h}, {c.X + h, c.Y - h}, {c.X + h, c.Y + h}, {c.X - h, c.Y + h}}, k.Style)
			case SwatchHex:
				p.Polygon(HexPoints(c, sw/2+1, true), k.Style)
			case SwatchLine:
				p.Line(k.Style, Point{cx, y}, Point{cx + sw, y})
			}
			if k.Mark != "" {
				p.Text(c, k.Mark, Font{Size: size * 0.85, Bold: true, Anchor: Middle, Color: k.MarkColor})
			}
			lx += sw + 5
		}
		p.Text(Point{lx, y}, k.Label, f)
		cx += w + gap
	}
	return y + row/2
}

// Wrap breaks text into lines no wider than width pixels in font f, at
// spaces, for notes under a board.
func Wrap(text string, f Font, width float64) []string {
	var lines []string
	line := ""
	var m Meter
	for _, w := range strings.Fields(text) {
		try := w
		if line != "" {
			try = line + " " + w
		}
		if line != "" && m.Width(try, f) > width {
			lines = append(lines, line)
			line = w
			continue
		}
		line = try
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}
