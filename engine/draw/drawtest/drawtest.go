// Package drawtest holds the checks every ruleset's board picture must
// pass, so that each game's draw tests say only which positions and which
// secrets: the PNG decodes, fits a phone, stays small and carries nothing
// but pixels; both renderings are deterministic; goldens are compared.
package drawtest

import (
	"bytes"
	"encoding/binary"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"orrery/engine/draw"
)

// The bounds of issue 16: a picture that reads on a phone and mails well.
const (
	MinWidth = 700
	MaxWidth = 900
	MaxBytes = 150 * 1024
)

// Check renders p as PNG and SVG twice, fails t unless both renderings are
// byte for byte the same and Bounds holds, and returns the first rendering
// of each.
func Check(t testing.TB, p *draw.Picture) (pngData, svgData []byte) {
	t.Helper()
	pngData, svgData = Bounds(t, p)
	again, _ := p.PNG()
	svgAgain, _ := p.SVG()
	if !bytes.Equal(pngData, again) || !bytes.Equal(svgData, svgAgain) {
		t.Error("drawing the same picture twice gave different bytes")
	}
	return pngData, svgData
}

// Bounds renders p once as PNG and SVG and fails t unless the PNG decodes
// to the picture's size (700 to 900 pixels wide, under 150 KB), is a
// palette image and holds no chunk but IHDR, PLTE, IDAT and IEND (so no
// text or time chunk can carry anything), and the SVG is one svg element.
func Bounds(t testing.TB, p *draw.Picture) (pngData, svgData []byte) {
	t.Helper()
	if p == nil {
		t.Fatal("the view drew no picture")
	}
	pngData, err := p.PNG()
	if err != nil {
		t.Fatalf("PNG: %v", err)
	}
	svgData, err = p.SVG()
	if err != nil {
		t.Fatalf("SVG: %v", err)
	}
	img, err := png.Decode(bytes.NewReader(pngData))
	if err != nil {
		t.Fatalf("the PNG does not decode: %v", err)
	}
	b := img.Bounds()
	if b.Dx() != p.W || b.Dy() != p.H {
		t.Errorf("the PNG is %v, the picture %d × %d", b.Size(), p.W, p.H)
	}
	if b.Dx() < MinWidth || b.Dx() > MaxWidth {
		t.Errorf("the PNG is %d pixels wide; a phone wants %d to %d", b.Dx(), MinWidth, MaxWidth)
	}
	if b.Dy() > 3*MaxWidth {
		t.Errorf("the PNG is %d pixels high", b.Dy())
	}
	if len(pngData) > MaxBytes {
		t.Errorf("the PNG has %d bytes, over %d", len(pngData), MaxBytes)
	}
	if _, ok := img.(*image.Paletted); !ok {
		t.Errorf("the PNG is %T, not a palette image", img)
	}
	for _, c := range Chunks(pngData) {
		switch c {
		case "IHDR", "PLTE", "IDAT", "IEND":
		default:
			t.Errorf("the PNG has a %s chunk: it must carry nothing but pixels", c)
		}
	}
	if !bytes.HasPrefix(svgData, []byte("<svg ")) || !bytes.HasSuffix(svgData, []byte("</svg>\n")) {
		t.Errorf("the SVG is not one svg element:\n%.200s", svgData)
	}
	return pngData, svgData
}

// Chunks lists the chunk types of a PNG file in order.
func Chunks(data []byte) []string {
	var out []string
	data = bytes.TrimPrefix(data, []byte("\x89PNG\r\n\x1a\n"))
	for len(data) >= 12 {
		n := int(binary.BigEndian.Uint32(data))
		out = append(out, string(data[4:8]))
		if 12+n > len(data) {
			break
		}
		data = data[12+n:]
	}
	return out
}

// Golden compares got with the file testdata/name, or rewrites the file
// when update is set (go test -update).
func Golden(t testing.TB, name string, got []byte, update bool) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(want, got) {
		wl, gl := strings.Split(string(want), "\n"), strings.Split(string(got), "\n")
		for i := 0; i < len(wl) || i < len(gl); i++ {
			var w, g string
			if i < len(wl) {
				w = wl[i]
			}
			if i < len(gl) {
				g = gl[i]
			}
			if w != g {
				t.Errorf("%s differs from %s at line %d (go test -update rewrites it):\nwant %s\ngot  %s", name, path, i+1, w, g)
				break
			}
		}
	}
}

// Shows returns the first of secrets that the picture tells in words (its
// texts, its Alt, or anywhere in its SVG), or "".
func Shows(p *draw.Picture, secrets ...string) string {
	svg, _ := p.SVG()
	text := strings.Join(p.Texts(), "\n") + "\n" + p.Alt() + "\n" + string(svg)
	for _, s := range secrets {
		if s != "" && strings.Contains(text, s) {
			return s
		}
	}
	return ""
}

// Save writes the PNG to dir/name.png when dir is set (go test -pictures
// DIR), so a person can look at what players get.
func Save(t testing.TB, dir, name string, pngData []byte) {
	t.Helper()
	if dir == "" {
		return
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), pngData, 0o644); err != nil {
		t.Fatal(err)
	}
}
