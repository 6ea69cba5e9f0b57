package earthman

import (
	"flag"
	"strings"
	"testing"

	"orrery/engine"
	"orrery/engine/draw/drawtest"
	"orrery/engine/enginetest"
)

var pictures = flag.String("pictures", "", "write every board picture the tests draw as DIR/NAME.png, to look at")

// The positions of the ASCII goldens (TestBoardGolden, TestFullBoardGolden),
// the full one with more counters on the disc, and with the secrets each
// seat keeps: standing orders, triggers, destinations.
const classicPosition = `players ann bob cat
active bob
dev Earth ann 2
dev Earth bob 1
dev Earth cat 1
dev Earth UN 3
fleet Earth UN 10
fleet Earth ann 1
dev Mars bob 2
fleet Mars cat 3
dev Venus ann 1
fleet Solar cat 2
fleet Cislunar ann 1
fleet Inner ann 2
course ann Inner Luna 2
fleet Jovian bob 4
oncoup ann ANY EVACUATE
tasked ann Earth 1 0
trigger ann ON LOSS AT ANY BY bob GIFT ALL DEV TO UN
agree cat bob`

const fullPosition = `players ann bob cat
active bob
first ann
region Earth 1 UN 1
region Earth 2 ann 2 risk
region Mars 1 bob 1
devastation Mars 2 2
pi Mars bob
fleet Mars ann 3 2
fleet Solar cat 1
devastation Venus 1 2
devastation Venus 2 2
devastation Venus 3 1
devastation Venus 4 1
region Earth 3 UN 1 risk
region Earth 4 cat 3
pi Earth ann
pi Earth cat
region Luna 1 cat 1
region Luna 2 cat 2
region Mars 3 ann 1
region Titan 1 bob 3
fleet Jovian bob 4
fleet Earth cat 2
fleet Cislunar ann 2 1
fleet Titan bob 2
ann vp 4
ann power 9
ann economy 2
ann sanctions 1
tech ann Attack 1
order ann DEFENSIVE FIRE AT bob
order ann AI KEEP 2
order ann EXPOSE Mars
order ann TECH Research`

// classicSecrets and fullSecrets are words only ann's status shows.
var (
	classicSecrets = []string{"bound for Luna", "EVACUATE", "ON LOSS", "ON COUP", "GIFT", "giftable", "standing"}
	fullSecrets    = []string{"DEFENSIVE", "AI KEEP", "EXPOSE", "TECH", "Research", "standing"}
)

func drawer(t testing.TB, v engine.View) engine.Drawer {
	t.Helper()
	d, ok := v.(engine.Drawer)
	if !ok {
		t.Fatalf("%T does not draw its board", v)
	}
	return d
}

// TestGoldenPictures pins both editions' pictures of the ASCII goldens'
// positions as SVG and checks their PNGs; every counter of the board is
// written in the picture as Board writes it.
func TestGoldenPictures(t *testing.T) {
	classic := buildState(t, classicPosition)
	full := buildFull(t, fullPosition)
	for _, c := range []struct {
		name  string
		v     engine.View
		chips []string
	}{
		{"classic", classic.View("ann"), []string{"U10", "a1", "c3", "c2", "a2", "b4"}},
		{"classic-public", classic.PublicView(), []string{"U10", "c3"}},
		{"full", full.View("ann"), []string{"A2", "#2", "+b", "+ac", "U!", "c3", "a5(2!)", "a3(1!)", "c1"}},
		{"full-public", full.PublicView(), []string{"A2", "a5(2!)"}},
	} {
		pic := drawer(t, c.v).Picture()
		png, svg := drawtest.Check(t, pic)
		drawtest.Save(t, *pictures, "picture-"+c.name, png)
		drawtest.Golden(t, "picture-"+c.name+".svg", svg, *update)
		texts := pic.Texts()
		for _, w := range append(c.chips, "Mercury", "Titan", "Kronian", "Solar") {
			if !contains(texts, w) && !contains(texts, w+" !") {
				t.Errorf("%s: no %q in the picture: %q", c.name, w, texts)
			}
		}
	}
}

// TestPicturesShowNoStandingOrders: nothing on the disc is hidden, so every
// seat's picture and the public one say the same, less who is "you"; and
// none of them shows the standing orders, triggers or destinations that
// only their owner's status lists.
func TestPicturesShowNoStandingOrders(t *testing.T) {
	classic := buildState(t, classicPosition)
	full := buildFull(t, fullPosition)
	for _, c := range []struct {
		name    string
		views   []engine.View
		pub     engine.View
		secrets []string
	}{
		{"classic", []engine.View{classic.View("ann"), classic.View("bob"), classic.View("")}, classic.PublicView(), classicSecrets},
		{"full", []engine.View{full.View("ann"), full.View("bob"), full.View("")}, full.PublicView(), fullSecrets},
	} {
		own := c.views[0].Status()
		for _, w := range c.secrets[:3] {
			if !strings.Contains(own, w) {
				t.Fatalf("%s: ann's status lacks %q, so this test proves nothing:\n%s", c.name, w, own)
			}
		}
		pub := drawer(t, c.pub).Picture()
		if w := drawtest.Shows(pub, append(c.secrets, "(you")...); w != "" {
			t.Errorf("%s: the public picture shows %q", c.name, w)
		}
		want := strings.Join(pub.Texts(), "\n")
		for _, v := range c.views {
			pic := drawer(t, v).Picture()
			if w := drawtest.Shows(pic, c.secrets...); w != "" {
				t.Errorf("%s: %q's picture shows %q", c.name, v.Player(), w)
			}
			got := strings.ReplaceAll(strings.Join(pic.Texts(), "\n"), " (you: thick edge)", "")
			if got != want {
				t.Errorf("%s: %q's picture says other things than the public one:\n%s\nwant:\n%s", c.name, v.Player(), got, want)
			}
		}
	}
}

// TestPicturesOfBotGames draws pictures at every fifth step of bot games of
// both editions: no panic, and within the bounds.
func TestPicturesOfBotGames(t *testing.T) {
	games := 4
	if testing.Short() {
		games = 2
	}
	for _, rs := range []engine.Ruleset{Classic(), Full()} {
		for seed := 1; seed <= games; seed++ {
			players := []string{"ann", "bob", "cat", "dan", "eve", "fay"}[:2+seed%5]
			enginetest.Walk(t, rs, enginetest.Options{Players: players, Seed: uint64(seed), MaxSteps: 120}, func(step int, st engine.State) {
				if step%5 != 0 {
					return
				}
				for _, p := range append([]string{""}, players...) {
					if _, err := drawer(t, st.View(p)).Picture().SVG(); err != nil {
						t.Fatal(err)
					}
				}
				drawtest.Bounds(t, drawer(t, st.View(players[step/5%len(players)])).Picture())
				drawtest.Bounds(t, drawer(t, st.(engine.PublicViewer).PublicView()).Picture())
			})
		}
	}
}

// BenchmarkPicture draws each edition's golden position as ann sees it.
func BenchmarkPicture(b *testing.B) {
	t := &testing.T{}
	b.Run("classic", func(b *testing.B) { drawtest.Bench(b, drawer(b, buildState(t, classicPosition).View("ann")).Picture) })
	b.Run("full", func(b *testing.B) { drawtest.Bench(b, drawer(b, buildFull(t, fullPosition).View("ann")).Picture) })
}

// TestREADMEPictures keep the pictures the README shows (each edition's
// golden position, as ann sees it) in step with the drawing: go test
// -update redraws them.
func TestREADMEPictures(t *testing.T) {
	for _, c := range []struct {
		v    engine.View
		file string
	}{{buildState(t, classicPosition).View("ann"), "earthman-classic"}, {buildFull(t, fullPosition).View("ann"), "earthman"}} {
		png, _ := drawtest.Check(t, drawer(t, c.v).Picture())
		drawtest.GoldenPNG(t, "../../docs/boards/"+c.file+".png", png, *update)
	}
}
