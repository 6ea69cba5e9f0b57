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
	"syscall"
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

// GoldenPNG compares a rendered PNG with the file at path (a picture the
// README shows, say), or rewrites it when update is set. The comparison is
// tolerant, as anti-aliasing may differ by a shade between machines: the
// sizes must match and at most one pixel in a hundred may differ by more
// than a few levels.
func GoldenPNG(t testing.TB, path string, got []byte, update bool) {
	t.Helper()
	if update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	a, err := png.Decode(bytes.NewReader(want))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	b, err := png.Decode(bytes.NewReader(got))
	if err != nil {
		t.Fatal(err)
	}
	if a.Bounds() != b.Bounds() {
		t.Fatalf("the picture is %v, %s is %v (go test -update rewrites it)", b.Bounds().Size(), path, a.Bounds().Size())
	}
	differ := 0
	r := a.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			r1, g1, b1, _ := a.At(x, y).RGBA()
			r2, g2, b2, _ := b.At(x, y).RGBA()
			if far(r1, r2) || far(g1, g2) || far(b1, b2) {
				differ++
			}
		}
	}
	if differ*100 > r.Dx()*r.Dy() {
		t.Errorf("%d of %d pixels differ from %s (go test -update rewrites it)", differ, r.Dx()*r.Dy(), path)
	}
}

func far(a, b uint32) bool {
	d := int(a>>8) - int(b>>8)
	return d > 12 || d < -12
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

// Loop runs f as a benchmark's loop and reports, beside the wall time, the
// process's CPU time per call (cpu-ms/op): on a shared machine the wall
// time counts other people's work too, the CPU time only ours (garbage
// collection included).
func Loop(b *testing.B, f func()) {
	b.Helper()
	start := cpuTime()
	n := 0
	for b.Loop() {
		f()
		n++
	}
	if n > 0 {
		b.ReportMetric(float64(cpuTime()-start)/float64(n)/1e6, "cpu-ms/op")
	}
}

// cpuTime is the user and system time the process has used, in ns.
func cpuTime() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// Bench runs the benchmarks every ruleset's picture has: building the
// model from the view, then rendering it as PNG and as SVG (with the bytes
// each takes).
func Bench(b *testing.B, picture func() *draw.Picture) {
	b.Run("model", func(b *testing.B) {
		Loop(b, func() { picture() })
	})
	for _, kind := range []string{"png", "svg"} {
		b.Run(kind, func(b *testing.B) {
			p := picture()
			render := p.PNG
			if kind == "svg" {
				render = p.SVG
			}
			var n int
			Loop(b, func() {
				data, err := render()
				if err != nil {
					b.Fatal(err)
				}
				n = len(data)
			})
			b.ReportMetric(float64(n), "bytes")
		})
	}
}
