package draw

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math/rand/v2"
	"slices"
	"sort"
	"sync"
	"testing"
)

// quantizeReference is quantize's doc comment read plainly, a pixel at a
// time, with none of its shortcuts: each pixel's 5-bit bin; the 256 fullest
// bins (ties in bin order), each the rounded mean of its pixels; every bin
// to the first palette colour at the least weighted distance from its mean.
// The fast one must give the very same image.
func quantizeReference(img *image.RGBA) *image.Paletted {
	type sum struct{ n, r, g, b int }
	sums := map[int]*sum{}
	binOf := func(p []uint8) int { return int(p[0]>>3)<<10 | int(p[1]>>3)<<5 | int(p[2]>>3) }
	for i := 0; i < len(img.Pix); i += 4 {
		p := img.Pix[i : i+4]
		k := binOf(p)
		if sums[k] == nil {
			sums[k] = &sum{}
		}
		s := sums[k]
		s.n, s.r, s.g, s.b = s.n+1, s.r+int(p[0]), s.g+int(p[1]), s.b+int(p[2])
	}
	mean := func(k int) [3]int {
		s := sums[k]
		return [3]int{(s.r + s.n/2) / s.n, (s.g + s.n/2) / s.n, (s.b + s.n/2) / s.n}
	}
	var keys []int
	for k := range sums {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	top := slices.Clone(keys)
	sort.SliceStable(top, func(i, j int) bool { return sums[top[i]].n > sums[top[j]].n })
	top = top[:min(len(top), 256)]
	pal := make(color.Palette, len(top))
	for i, k := range top {
		m := mean(k)
		pal[i] = color.RGBA{uint8(m[0]), uint8(m[1]), uint8(m[2]), 255}
	}
	nearest := map[int]uint8{}
	for _, k := range keys {
		m, best, bestD := mean(k), 0, -1
		for i, k2 := range top {
			c := mean(k2)
			dr, dg, db := m[0]-c[0], m[1]-c[1], m[2]-c[2]
			if d := 2*dr*dr + 4*dg*dg + 3*db*db; bestD < 0 || d < bestD {
				best, bestD = i, d
			}
		}
		nearest[k] = uint8(best)
	}
	out := image.NewPaletted(img.Rect, pal)
	for i := 0; i < len(img.Pix); i += 4 {
		out.Pix[i/4] = nearest[binOf(img.Pix[i:i+4])]
	}
	return out
}

// hexBoard is BenchmarkHexBoard's picture: 2,420 anti-aliased hexes.
func hexBoard() *Picture {
	p := New(800, 700, Paper)
	var cs []Point
	for y := 0; y < 44; y++ {
		for x := 0; x < 55; x++ {
			cs = append(cs, Pt(20+float64(x)*13.9+float64(y%2)*7, 40+float64(y)*12))
		}
	}
	p.Hexes(cs, 7.5, true, Style{Fill: Space})
	return p
}

func TestQuantizeMatchesTheReference(t *testing.T) {
	raster := func(p *Picture) *image.RGBA {
		img, err := p.Raster()
		if err != nil {
			t.Fatal(err)
		}
		return img
	}
	labelled := New(300, 200, Paper)
	labelled.Circle(Pt(60, 60), 40, Style{Fill: Ink, Stroke: Space, Width: 3})
	labelled.Text(Pt(120, 100), "Orrery · Сатурн", Font{Size: 18, Color: Ink, Halo: Paper})
	// Noise: thousands of bins, most of them matched to the nearest of
	// the 256 kept (the search the runs do not shortcut).
	noise := image.NewRGBA(image.Rect(0, 0, 97, 61))
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < len(noise.Pix); i += 4 {
		noise.Pix[i], noise.Pix[i+1], noise.Pix[i+2], noise.Pix[i+3] = uint8(rng.IntN(256)), uint8(rng.IntN(256)), uint8(rng.IntN(256)), 255
	}
	// Ties: two colours of exactly as many pixels each.
	halves := image.NewRGBA(image.Rect(0, 0, 4, 2))
	for i := 0; i < len(halves.Pix); i += 4 {
		c := color.RGBA{200, 10, 10, 255}
		if i >= len(halves.Pix)/2 {
			c = color.RGBA{10, 10, 200, 255}
		}
		halves.Pix[i], halves.Pix[i+1], halves.Pix[i+2], halves.Pix[i+3] = c.R, c.G, c.B, c.A
	}
	one := image.NewRGBA(image.Rect(0, 0, 1, 1))
	one.Pix[3] = 255
	// One scratch for all, in turn larger and smaller: what a picture
	// before left in it must not show in the next.
	bufs := new(scratch)
	for _, c := range []struct {
		name string
		img  *image.RGBA
	}{{"hex board", raster(hexBoard())}, {"ties", halves}, {"shapes and text", raster(labelled)}, {"noise", noise}, {"one pixel", one}, {"hex board again", raster(hexBoard())}} {
		name, img := c.name, c.img
		got, want := quantize(img, bufs), quantizeReference(img)
		if len(got.Palette) != len(want.Palette) {
			t.Errorf("%s: %d colours, want %d", name, len(got.Palette), len(want.Palette))
			continue
		}
		for i := range want.Palette {
			if got.Palette[i] != want.Palette[i] {
				t.Errorf("%s: colour %d is %v, want %v", name, i, got.Palette[i], want.Palette[i])
				break
			}
		}
		if !bytes.Equal(got.Pix, want.Pix) {
			t.Errorf("%s: the pixels' indexes differ from the reference's", name)
		}
		if name == "noise" && len(got.Palette) != 256 {
			t.Errorf("noise: %d colours, want the 256 the palette holds", len(got.Palette))
		}
	}
}

func BenchmarkQuantize(b *testing.B) {
	img, err := hexBoard().Raster()
	if err != nil {
		b.Fatal(err)
	}
	bufs := new(scratch)
	for b.Loop() {
		quantize(img, bufs)
	}
}

// encodePaletted's PNG decodes (with image/png) to the very palette and
// pixels it was given, whatever the size, and holds no chunk but the four.
func TestEncodePalettedRoundTrips(t *testing.T) {
	board, err := hexBoard().Raster()
	if err != nil {
		t.Fatal(err)
	}
	two := image.NewPaletted(image.Rect(0, 0, 3, 5), color.Palette{color.RGBA{0, 0, 0, 255}, color.RGBA{250, 240, 230, 255}})
	for i := range two.Pix {
		two.Pix[i] = uint8(i % 2)
	}
	// A picture cut from a larger one: its stride is not its width.
	wide := quantize(board, new(scratch))
	cut := wide.SubImage(image.Rect(100, 50, 317, 151)).(*image.Paletted)
	for name, img := range map[string]*image.Paletted{"board": wide, "two colours": two, "cut": cut,
		"one pixel": image.NewPaletted(image.Rect(0, 0, 1, 1), color.Palette{color.RGBA{9, 8, 7, 255}})} {
		data, err := encodePaletted(img)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var kinds []string
		for at := 8; at+8 <= len(data); {
			n := int(binary.BigEndian.Uint32(data[at:]))
			kinds = append(kinds, string(data[at+4:at+8]))
			at += 12 + n
		}
		if got := fmt.Sprint(kinds); got != "[IHDR PLTE IDAT IEND]" {
			t.Errorf("%s: chunks %s", name, got)
		}
		dec, err := png.Decode(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%s: image/png cannot read it: %v", name, err)
		}
		p, ok := dec.(*image.Paletted)
		if !ok {
			t.Fatalf("%s: decoded as %T, want a palette image", name, dec)
		}
		if p.Rect.Size() != img.Rect.Size() || len(p.Palette) != len(img.Palette) {
			t.Fatalf("%s: %v with %d colours, want %v with %d", name, p.Rect.Size(), len(p.Palette), img.Rect.Size(), len(img.Palette))
		}
		for i := range img.Palette {
			r1, g1, b1, a1 := p.Palette[i].RGBA()
			r2, g2, b2, a2 := img.Palette[i].RGBA()
			if r1 != r2 || g1 != g2 || b1 != b2 || a1 != a2 {
				t.Errorf("%s: colour %d is %v, want %v", name, i, p.Palette[i], img.Palette[i])
			}
		}
		for y := range img.Rect.Dy() {
			for x := range img.Rect.Dx() {
				if got, want := p.ColorIndexAt(x, y), img.ColorIndexAt(img.Rect.Min.X+x, img.Rect.Min.Y+y); got != want {
					t.Fatalf("%s: pixel (%d,%d) is colour %d, want %d", name, x, y, got, want)
				}
			}
		}
	}
	if _, err := encodePaletted(image.NewPaletted(image.Rect(0, 0, 2, 2), nil)); err == nil {
		t.Error("a picture with no palette was encoded")
	}
}

// Pictures drawn at once (a daemon draws one a core) share the reused
// scratch memory and compressors without showing in each other: each
// comes out as it does drawn alone.
func TestPNGsDrawnAtOnce(t *testing.T) {
	small := New(320, 180, Paper)
	small.Circle(Pt(90, 90), 60, Style{Fill: Space, Stroke: Ink, Width: 2})
	small.Text(Pt(200, 100), "Сатурн", Font{Size: 20, Color: Ink})
	pictures := []*Picture{hexBoard(), small}
	alone := make([][]byte, len(pictures))
	for i, p := range pictures {
		var err error
		if alone[i], err = p.PNG(); err != nil {
			t.Fatal(err)
		}
	}
	atOnce(t, 16, 3, alone, func(i int) ([]byte, error) { return pictures[i].PNG() })
}

// atOnce has goroutines draw pictures rounds times each, picture i by
// draw(i), taking them in turns that differ from goroutine to goroutine,
// and fails t where one comes out other than alone[i].
func atOnce(t *testing.T, goroutines, rounds int, alone [][]byte, draw func(i int) ([]byte, error)) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make(chan error, goroutines)
	for g := range goroutines {
		wg.Go(func() {
			for k := range rounds {
				i := (g*3 + k) % len(alone)
				got, err := draw(i)
				if err == nil && !bytes.Equal(got, alone[i]) {
					err = fmt.Errorf("picture %d drawn beside others differs from it drawn alone", i)
				}
				if err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
