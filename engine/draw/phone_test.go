package draw

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"slices"
	"strings"
	"testing"
)

// boardWithLabels is an 800-px board of small labels in a 10 × 10 grid,
// a title, a legend and a note, the reader's piece at (7, 2).
func boardWithLabels() *Picture {
	p := New(800, 100, Paper)
	p.Text(Pt(16, 20), "Title of the game, turn 3", Font{Size: 17, Bold: true, Color: Ink})
	p.Board = Rect{Min: Pt(0, 40), Max: Pt(800, 760)}
	for i := range 10 {
		for j := range 10 {
			c := Pt(40+float64(i)*80, 80+float64(j)*72)
			p.Circle(c, 20, Style{Fill: Faint, Stroke: Ink, Width: 1})
			p.Text(c, fmt.Sprintf("%d.%d", i, j), Font{Size: 9, Anchor: Middle, Color: Ink})
			if i == 7 && j == 2 {
				p.Focus.Include(30, c)
			}
		}
	}
	y := p.Legend(16, 770, 784, 13, []Key{{Swatch: SwatchDisc, Style: Style{Fill: Faint}, Mark: "a", MarkColor: Ink, Label: "ann (you)"}, {Swatch: SwatchSquare, Label: "bob"}})
	y = p.Note(16, y, 784, "A long note that a phone must wrap onto more lines than the board's width needs, to be read at all.", Font{Size: 13, Color: Ink}, 18)
	p.H = int(y + 8)
	return p
}

// TestPhone checks the phone layout: PhoneWidth wide, no word under
// PhoneFont, the reader's own piece shown, no word that the picture does
// not write, the note wrapped anew.
func TestPhone(t *testing.T) {
	p := boardWithLabels()
	m := p.Mail()
	if m.W != PhoneWidth {
		t.Errorf("width %d, want %d", m.W, PhoneWidth)
	}
	if f := m.MinFont(); f < PhoneFont-1e-9 {
		t.Errorf("smallest word %.1f px, want at least %g", f, PhoneFont)
	}
	if f := p.MinFont(); f >= PhoneFont {
		t.Fatalf("the board's words are %.1f px already: the test tests nothing", f)
	}
	texts := p.Texts()
	var notes int
	for _, s := range m.Texts()[1:] {
		if !slices.Contains(texts, s) {
			notes++ // a note's line wrapped anew must be part of the note
			if !containsWords(p, s) {
				t.Errorf("the phone's picture writes %q, which the picture does not", s)
			}
		}
	}
	if notes == 0 {
		t.Error("the note was not wrapped again for the phone's width")
	}
	var mine bool
	for _, s := range m.Shapes {
		if tx, ok := s.(*Text); ok && tx.Text == "7.2" {
			mine = tx.At.X > 0 && tx.At.X < PhoneWidth
		}
	}
	if !mine {
		t.Error("the reader's own piece (7.2) is not within the phone's picture")
	}
	for _, s := range m.Shapes {
		if tx, ok := s.(*Text); ok && tx.Text == "0.0" && tx.At.X > 0 && tx.At.X < PhoneWidth && tx.At.Y < 300 {
			t.Error("the far corner (0.0) is shown: the crop is not around the reader's piece")
		}
	}
	if m.H < 200 || m.H > 1400 {
		t.Errorf("the phone's picture is %d px high", m.H)
	}
}

func containsWords(p *Picture, line string) bool {
	for _, pt := range p.parts {
		if pt.note != "" && len(line) > 0 && strings.Contains(pt.note, line) {
			return true
		}
	}
	return false
}

// TestScaled checks that a picture drawn at twice its size is twice as
// large every way.
func TestScaled(t *testing.T) {
	p := boardWithLabels()
	s := p.Scaled(2)
	if s.W != 2*p.W || s.H != 2*p.H || len(s.Shapes) != len(p.Shapes) {
		t.Fatalf("%d × %d with %d shapes from %d × %d with %d", s.W, s.H, len(s.Shapes), p.W, p.H, len(p.Shapes))
	}
	for i, sh := range p.Shapes {
		switch a := sh.(type) {
		case *Text:
			b := s.Shapes[i].(*Text)
			if b.Font.Size != 2*a.Font.Size || b.At != Pt(2*a.At.X, 2*a.At.Y) {
				t.Fatalf("text %q: %+v from %+v", a.Text, b, a)
			}
		case *Circle:
			b := s.Shapes[i].(*Circle)
			if b.R != 2*a.R || b.Style.Width != 2*a.Style.Width {
				t.Fatalf("circle %+v from %+v", b, a)
			}
		}
	}
	if _, err := s.PNG(); err != nil {
		t.Fatal(err)
	}
}

// TestPhoneBoard checks that a game's own phone layout of its board takes
// the board's place, and that a text about the wide layout is left out.
func TestPhoneBoard(t *testing.T) {
	p := boardWithLabels()
	p.WideText(Pt(16, 34), "the centre on the left", Font{Size: 13, Color: Muted})
	pb := New(PhoneWidth, 120, Paper)
	pb.Text(Pt(10, 20), "the centre at the top", Font{Size: PhoneFont, Color: Muted})
	pb.Text(Pt(10, 60), "list of places", Font{Size: 14, Color: Ink})
	p.PhoneBoard = pb
	m := p.Mail()
	texts := m.Texts()
	for _, want := range []string{"Title of the game, turn 3", "the centre at the top", "list of places", "bob"} {
		if !slices.Contains(texts, want) {
			t.Errorf("the phone's picture does not write %q: %q", want, texts)
		}
	}
	for _, unwanted := range []string{"the centre on the left", "7.2"} {
		if slices.Contains(texts, unwanted) {
			t.Errorf("the phone's picture writes %q, of the wide picture", unwanted)
		}
	}
	if f := m.MinFont(); f < PhoneFont-1e-9 {
		t.Errorf("smallest word %.1f px", f)
	}
	p.PhoneBoard = nil
	if !slices.Contains(p.Mail().Texts(), "the centre on the left") {
		t.Error("without a phone board, the wide picture's own words are left out")
	}
}

// TestPalettePNG checks that a full-colour image written as a palette PNG
// reads back as the same size with the colours of its pixels kept close.
func TestPalettePNG(t *testing.T) {
	img, err := boardWithLabels().Scaled(MailScale).Raster()
	if err != nil {
		t.Fatal(err)
	}
	b, err := PalettePNG(img)
	if err != nil {
		t.Fatal(err)
	}
	back, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	pal, ok := back.(*image.Paletted)
	if !ok || pal.Rect != img.Rect || len(pal.Palette) > 256 {
		t.Fatalf("read back a %T of %v, want a palette image of %v", back, back.Bounds(), img.Rect)
	}
	r, g, bl, _ := pal.At(40, 160).RGBA()
	want := img.RGBAAt(40, 160)
	if d := int(r>>8) - int(want.R) + int(g>>8) - int(want.G) + int(bl>>8) - int(want.B); d > 24 || d < -24 {
		t.Errorf("pixel (40, 160) is %d %d %d, want about %v", r>>8, g>>8, bl>>8, want)
	}
}
