package draw

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// SVG writes the picture as a standalone SVG document: the same shapes as
// the PNG, in the same order, with coordinates rounded to a tenth of a
// pixel so that the bytes do not depend on floating-point noise. It has no
// title, id or comment: its only words are the picture's texts and, as the
// accessible label, its Alt.
func (p *Picture) SVG() ([]byte, error) {
	if p.W <= 0 || p.H <= 0 {
		return nil, fmt.Errorf("a picture of %d × %d pixels cannot be drawn", p.W, p.H)
	}
	var b bytes.Buffer
	bg := p.paper()
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" role="img" aria-label="%s" font-family="Go, 'DejaVu Sans', Arial, sans-serif">`+"\n",
		p.W, p.H, p.W, p.H, escape(p.Alt()))
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="%s"/>`+"\n", p.W, p.H, hex(bg))
	for i, s := range p.Shapes {
		// The step's story (Story) is one group, so that a page may
		// style or hide it; it carries no words of its own.
		if i == p.story[0] && p.story[1] > i {
			b.WriteString(`<g class="story">` + "\n")
		}
		if i == p.story[1] && i > p.story[0] {
			b.WriteString("</g>\n")
		}
		switch s := s.(type) {
		case *Circle:
			fmt.Fprintf(&b, `<circle cx="%s" cy="%s" r="%s"%s/>`+"\n", num(s.C.X), num(s.C.Y), num(s.R), paint(s.Style, true))
		case *Polygon:
			if len(s.Points) < 2 {
				continue
			}
			fmt.Fprintf(&b, `<polygon points="%s"%s/>`+"\n", points(s.Points), paint(s.Style, true))
		case *Hexes:
			if len(s.Centres) == 0 {
				continue
			}
			fmt.Fprintf(&b, `<path d="%s"%s/>`+"\n", hexPath(s), paint(s.Style, true))
		case *Line:
			if len(s.Points) < 2 || !s.Style.Stroke.visible() {
				continue
			}
			pts := s.Points
			var head []Point
			if s.Arrow > 0 {
				pts, head = arrowHead(pts, s.Arrow, s.Style.Width)
			}
			st := s.Style
			st.Fill = None
			fmt.Fprintf(&b, `<polyline points="%s"%s/>`+"\n", points(pts), paint(st, false))
			if head != nil {
				fmt.Fprintf(&b, `<polygon points="%s" fill="%s"%s/>`+"\n", points(head), hex(s.Style.Stroke), opacity("fill-", s.Style.Stroke))
			}
		case *Text:
			if s.Text == "" || !s.Font.Color.visible() {
				continue
			}
			b.WriteString(text(s))
		default:
			return nil, fmt.Errorf("the board picture has a shape of unknown kind %T", s)
		}
	}
	if n := len(p.Shapes); n == p.story[1] && n > p.story[0] {
		b.WriteString("</g>\n")
	}
	b.WriteString("</svg>\n")
	return b.Bytes(), nil
}

// hexPath writes many hexagons as one path: each an absolute move to its
// first corner, then the same five relative steps.
func hexPath(h *Hexes) string {
	unit := flatHex
	if h.Pointy {
		unit = pointyHex
	}
	var steps strings.Builder
	for i := 1; i < 6; i++ {
		d := Point{(unit[i].X - unit[i-1].X) * h.Size, (unit[i].Y - unit[i-1].Y) * h.Size}
		if i > 1 {
			steps.WriteByte(' ')
		}
		steps.WriteString(num(d.X) + " " + num(d.Y))
	}
	rel := "l" + steps.String() + "z"
	var b strings.Builder
	for _, c := range h.Centres {
		b.WriteString("M" + num(c.X+unit[0].X*h.Size) + " " + num(c.Y+unit[0].Y*h.Size) + rel)
	}
	return b.String()
}

func text(t *Text) string {
	var b strings.Builder
	fmt.Fprintf(&b, `<text x="%s" y="%s" font-size="%s"`, num(t.At.X), num(t.At.Y+baseline(t.Font)), num(t.Font.Size))
	switch t.Font.Anchor {
	case Middle:
		b.WriteString(` text-anchor="middle"`)
	case End:
		b.WriteString(` text-anchor="end"`)
	}
	if t.Font.Bold {
		b.WriteString(` font-weight="bold"`)
	}
	if w := TextWidth(t.Text, t.Font); utf8.RuneCountInString(t.Text) > 1 && w > 0 {
		// The layout measured the text in the Go font the PNG is drawn
		// with; a browser without it draws a wider one, and a legend's
		// lines ran into each other. Held to the measured width, the
		// text takes the room the layout gave it in any font.
		fmt.Fprintf(&b, ` textLength="%s" lengthAdjust="spacingAndGlyphs"`, num(w))
	}
	fmt.Fprintf(&b, ` fill="%s"%s`, hex(t.Font.Color), opacity("fill-", t.Font.Color))
	if t.Font.Halo.visible() {
		fmt.Fprintf(&b, ` stroke="%s" stroke-width="%s" stroke-linejoin="round" paint-order="stroke"`,
			hex(t.Font.Halo), num(2*math.Max(1, t.Font.Size/9)))
	}
	b.WriteString(">" + escape(t.Text) + "</text>\n")
	return b.String()
}

// paint writes a style's fill and stroke attributes.
func paint(st Style, fill bool) string {
	var b strings.Builder
	if fill && st.Fill.visible() {
		fmt.Fprintf(&b, ` fill="%s"%s`, hex(st.Fill), opacity("fill-", st.Fill))
	} else {
		b.WriteString(` fill="none"`)
	}
	if st.Stroke.visible() && st.Width > 0 {
		fmt.Fprintf(&b, ` stroke="%s" stroke-width="%s"%s stroke-linejoin="round"`, hex(st.Stroke), num(st.Width), opacity("stroke-", st.Stroke))
		if len(st.Dash) > 0 {
			ds := make([]string, len(st.Dash))
			for i, d := range st.Dash {
				ds[i] = num(d)
			}
			fmt.Fprintf(&b, ` stroke-dasharray="%s"`, strings.Join(ds, " "))
		}
	}
	return b.String()
}

func opacity(prefix string, c Color) string {
	if c.A == 255 {
		return ""
	}
	return fmt.Sprintf(` %sopacity="%s"`, prefix, strconv.FormatFloat(float64(c.A)/255, 'f', 3, 64))
}

func hex(c Color) string { return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B) }

// num writes v to a tenth of a pixel, without a needless ".0" or "-0".
func num(v float64) string {
	v = math.Round(v*10) / 10
	if v == 0 {
		return "0"
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

func points(pts []Point) string {
	parts := make([]string, len(pts))
	for i, p := range pts {
		parts[i] = num(p.X) + "," + num(p.Y)
	}
	return strings.Join(parts, " ")
}

func escape(s string) string {
	var b strings.Builder
	xml.EscapeText(&b, []byte(s))
	return b.String()
}
