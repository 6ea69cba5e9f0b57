package draw

import (
	"testing"

	"golang.org/x/image/font"
	"golang.org/x/image/font/opentype"
)

// TestMeasureIsMeasureString: measure gives what font.MeasureString of
// an opentype Face gives, to the 1/64 pixel, so that every board keeps
// its layout byte for byte.
func TestMeasureIsMeasureString(t *testing.T) {
	fonts, err := goFonts()
	if err != nil {
		t.Fatal(err)
	}
	texts := []string{"", "A", "AV", "To", "Wa", "Earthman 12 (3/4)", "Ignis ×3 — ☉ 7", "Übergang", "東京 tôkyô",
		"\x00\ufffd\U0010FFFF", "fi ffl", "  lead and trail  ", "W.A.V.E", "mixed\ttab\nline"}
	for _, size := range []float64{8, 9.5, 11, 12, 13, 13.6, 14, 18, 22.75} {
		for bold := range 2 {
			face, err := opentype.NewFace(fonts[bold], &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingNone})
			if err != nil {
				t.Fatal(err)
			}
			var m Meter
			for _, s := range texts {
				if got, want := m.measure(fonts[bold], s, size), font.MeasureString(face, s); got != want {
					t.Errorf("size %v bold %d %q: measure %v, MeasureString %v", size, bold, s, got, want)
				}
			}
		}
	}
}
