package draw

import (
	"fmt"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
)

// goFonts parses the Go fonts once. They are read-only after that and safe
// for concurrent use (each Face keeps its own buffers).
var goFonts = sync.OnceValues(func() ([2]*opentype.Font, error) {
	var out [2]*opentype.Font
	for i, ttf := range [][]byte{goregular.TTF, gobold.TTF} {
		f, err := opentype.Parse(ttf)
		if err != nil {
			return out, fmt.Errorf("the embedded Go font does not parse: %w", err)
		}
		out[i] = f
	}
	return out, nil
})

// faces makes and keeps the faces of one rendering: a Face is not safe for
// concurrent use, so every render has its own.
type faces map[[2]float64]font.Face

func (fs faces) get(f Font) (font.Face, error) {
	bold := 0.0
	if f.Bold {
		bold = 1
	}
	key := [2]float64{f.Size, bold}
	if face, ok := fs[key]; ok {
		return face, nil
	}
	fonts, err := goFonts()
	if err != nil {
		return nil, err
	}
	face, err := opentype.NewFace(fonts[int(bold)], &opentype.FaceOptions{Size: f.Size, DPI: 72, Hinting: font.HintingNone})
	if err != nil {
		return nil, fmt.Errorf("a %.1f px face of the Go font: %w", f.Size, err)
	}
	fs[key] = face
	return face, nil
}

// TextWidth is the width in pixels of s written in f, as the PNG renderer
// writes it (an SVG reader's fallback font may differ a little).
// A Meter measures many texts faster.
func TextWidth(s string, f Font) float64 { return new(Meter).Width(s, f) }

// Meter measures texts as TextWidth does, with one glyph buffer for all:
// an sfnt.Buffer is over a kilobyte, and one for each label and each word
// of a note was most of a board's allocations. The zero Meter is ready to
// use; a Meter is not safe for concurrent use.
type Meter struct{ buf sfnt.Buffer }

// Width is TextWidth.
func (m *Meter) Width(s string, f Font) float64 {
	fonts, err := goFonts()
	if err != nil {
		// Only a broken build gets here; a rough guess keeps layout going
		// and the renderer reports the error.
		return float64(len([]rune(s))) * f.Size * 0.55
	}
	bold := 0
	if f.Bold {
		bold = 1
	}
	return float64(m.measure(fonts[bold], s, f.Size)) / 64
}

// measure is font.MeasureString(opentype.NewFace(fnt, size, 72 DPI, no
// hinting), s), step for step, without making a Face for it (a Face
// carries a rasterizer and its buffers). A rune's glyph is looked up once
// rather than once for the kerning on each side and once for its advance.
func (m *Meter) measure(fnt *opentype.Font, s string, size float64) fixed.Int26_6 {
	scale := fixed.Int26_6(0.5 + (size * 72 * 64 / 72)) // as opentype.NewFace
	ppem := fixed.Int26_6(fnt.UnitsPerEm())             // as opentype's Face.Kern
	var advance fixed.Int26_6
	var prev sfnt.GlyphIndex
	first := true
	for _, c := range s {
		x, _ := fnt.GlyphIndex(&m.buf, c)
		if !first {
			if k, err := fnt.Kern(&m.buf, prev, x, ppem, font.HintingNone); err == nil {
				advance += k
			}
		}
		if a, err := fnt.GlyphAdvance(&m.buf, x, scale, font.HintingNone); err == nil {
			advance += a
		}
		prev, first = x, false
	}
	return advance
}

// baseline is how far below a text's middle its baseline lies: half the
// height of the Go font's capitals (0.72 em).
func baseline(f Font) float64 { return f.Size * 0.36 }
