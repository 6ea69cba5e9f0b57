package draw

import (
	"bytes"
	"slices"
	"strings"
	"testing"
)

// WithNotes writes its notes under the picture, which grows to hold them,
// in PNG and SVG alike; the picture it was given is left as it was, and
// no notes change nothing.
func TestWithNotes(t *testing.T) {
	p := New(300, 120, Paper)
	p.Circle(Pt(50, 50), 20, Style{Fill: Ink})
	p.Text(Pt(100, 50), "ann", Font{Size: 14, Color: Ink})
	before, err := p.PNG()
	if err != nil {
		t.Fatal(err)
	}
	if got := p.WithNotes(); got != p {
		t.Errorf("no notes made a new picture")
	}
	long := "carl: played by the computer, which has been playing this seat for a good many steps now"
	n := p.WithNotes("bob: played by eve", long)
	if n.H <= p.H+2*noteLine || n.W != p.W {
		t.Errorf("with three lines of notes the picture is %dx%d (was %dx%d)", n.W, n.H, p.W, p.H)
	}
	texts := n.Texts()
	if !slices.Contains(texts, "bob: played by eve") || !strings.HasPrefix(texts[len(texts)-2], "carl: played by the computer") {
		t.Errorf("notes not written: %q", texts)
	}
	for _, s := range n.Shapes[len(p.Shapes):] {
		lo, hi := s.bounds()
		if lo.Y < float64(p.H) || hi.Y > float64(n.H) || hi.X > float64(n.W) {
			t.Errorf("a note stands outside the room made for it: %v to %v in %dx%d", lo, hi, n.W, n.H)
		}
	}
	if len(p.Shapes) != 2 || p.H != 120 {
		t.Errorf("the original picture changed: %d shapes, height %d", len(p.Shapes), p.H)
	}
	if after, _ := p.PNG(); !bytes.Equal(before, after) {
		t.Errorf("the original picture draws differently")
	}
	svg, err := n.SVG()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(svg, []byte("bob: played by eve")) {
		t.Errorf("the SVG lacks the note:\n%s", svg)
	}
}
