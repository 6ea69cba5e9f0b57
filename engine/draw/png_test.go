package draw

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"math/rand/v2"
	"sort"
	"sync"
	"testing"
)

// quantizeReference is quantize as first written, reading every pixel in
// both passes: the fast one must give the very same image.
func quantizeReference(img *image.RGBA) *image.Paletted {
	const bins = 1 << 15
	type bin struct{ n, r, g, b uint32 }
	hist := make([]bin, bins)
	key := func(r, g, b uint8) int { return int(r>>3)<<10 | int(g>>3)<<5 | int(b>>3) }
	pix := img.Pix
	// Boards are mostly runs of one colour: count a run at a time, reading
	// a pixel as one word (alpha is always 255).
	px := func(i int) uint32 { return binary.LittleEndian.Uint32(pix[i:]) }
	add := func(i, n int) {
		h := &hist[key(pix[i], pix[i+1], pix[i+2])]
		h.n += uint32(n)
		h.r += uint32(n) * uint32(pix[i])
		h.g += uint32(n) * uint32(pix[i+1])
		h.b += uint32(n) * uint32(pix[i+2])
	}
	start := 0
	if len(pix) > 0 {
		cur := px(0)
		for i := 4; i < len(pix); i += 4 {
			if v := px(i); v != cur {
				add(start, (i-start)/4)
				start, cur = i, v
			}
		}
		add(start, (len(pix)-start)/4)
	}
	var used []int
	for k := range hist {
		if hist[k].n > 0 {
			used = append(used, k)
		}
	}
	top := append([]int(nil), used...)
	sort.SliceStable(top, func(i, j int) bool { return hist[top[i]].n > hist[top[j]].n })
	if len(top) > 256 {
		top = top[:256]
	}
	pal := make(color.Palette, len(top))
	for i, k := range top {
		h := hist[k]
		pal[i] = color.RGBA{uint8((h.r + h.n/2) / h.n), uint8((h.g + h.n/2) / h.n), uint8((h.b + h.n/2) / h.n), 255}
	}
	index := make([]uint8, bins)
	for _, k := range used {
		h := hist[k]
		r, g, b := int((h.r+h.n/2)/h.n), int((h.g+h.n/2)/h.n), int((h.b+h.n/2)/h.n)
		best, bestD := 0, math.MaxInt
		for i, c := range pal {
			pc := c.(color.RGBA)
			dr, dg, db := r-int(pc.R), g-int(pc.G), b-int(pc.B)
			if d := 2*dr*dr + 4*dg*dg + 3*db*db; d < bestD {
				best, bestD = i, d
			}
		}
		index[k] = uint8(best)
	}
	out := image.NewPaletted(img.Rect, pal)
	var last uint32
	var at uint8
	for i, j := 0, 0; i < len(pix); i, j = i+4, j+1 {
		if v := px(i); v != last || i == 0 {
			last, at = v, index[key(pix[i], pix[i+1], pix[i+2])]
		}
		out.Pix[j] = at
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

// BenchmarkQuantizeReference is the reference on the same board, to
// compare with BenchmarkQuantize.
func BenchmarkQuantizeReference(b *testing.B) {
	img, _ := hexBoard().Raster()
	for b.Loop() {
		quantizeReference(img)
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
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for g := range 16 {
		wg.Go(func() {
			for k := range 3 {
				i := (g + k) % len(pictures)
				got, err := pictures[i].PNG()
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
