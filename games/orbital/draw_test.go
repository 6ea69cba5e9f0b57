package orbital

import (
	"flag"
	"fmt"
	"slices"
	"strings"
	"testing"

	"orrery/engine"
	"orrery/engine/draw/drawtest"
	"orrery/engine/enginetest"
)

var pictures = flag.String("pictures", "", "write every board picture the tests draw as DIR/NAME.png, to look at")

// pictureState is parseState's position (a Station, a Bus and a Booster
// sharing a hex, a payload on the Booster, a warhead in the Station's bay,
// a Scoopship in the atmosphere) with two moons.
func pictureState(t *testing.T) *State {
	s := parseState(t)
	s.Moons = []Moon{{ID: "M1", Hex: hexAt(3, 1, 0), V: 3, F: 3, X: 2}, {ID: "M2", Hex: hexAt(6, 3, 2), V: 2, F: 4, X: 3}}
	s.TurnN = 3
	return s
}

// TestGoldenPictures pins the picture as each side and an observer see it,
// as SVG, and checks each PNG for a phone.
func TestGoldenPictures(t *testing.T) {
	s := pictureState(t)
	for _, c := range []struct {
		name string
		v    engine.View
	}{{"ann", s.View("ann")}, {"bob", s.View("bob")}, {"public", s.PublicView()}} {
		pic := c.v.(engine.Drawer).Picture()
		png, svg := drawtest.Check(t, pic)
		drawtest.Save(t, *pictures, "picture-"+c.name, png)
		drawtest.Golden(t, "picture-"+c.name+".svg", svg, *update)
		texts := pic.Texts()
		// Every unit in space of the view, and every moon, is drawn.
		for _, u := range c.v.(*view).s.Units {
			if u.In == "" && !slices.Contains(texts, u.ID) {
				t.Errorf("%s: unit %s is not drawn", c.name, u.ID)
			}
		}
		for _, m := range s.Moons {
			if !slices.Contains(texts, m.ID) {
				t.Errorf("%s: moon %s is not drawn", c.name, m.ID)
			}
		}
	}
}

// TestPictureHidesPayloads: what rides on an enemy Booster (and, with
// hidden-cargo on, in an enemy's bay) is hidden (002-E). The GM's view
// holds every unit; each unit it has that a side's view lacks must not be
// named in that side's picture, nor counted as a "+n aboard" mark.
func TestPictureHidesPayloads(t *testing.T) {
	for _, hidden := range []string{"off", "on"} {
		s := pictureState(t)
		s.Opts["hidden-cargo"] = hidden
		gm := s.View("").(*view).s
		for _, who := range []string{"ann", "bob", "public"} {
			var v *view
			if who == "public" {
				v = s.PublicView().(*view)
			} else {
				v = s.View(who).(*view)
			}
			pic := v.Picture()
			var secrets []string
			for _, u := range gm.Units {
				if v.s.unit(u.ID) == nil {
					secrets = append(secrets, u.ID)
				}
			}
			if who == "bob" && !slices.Contains(secrets, "C4") {
				t.Fatalf("hidden-cargo %s: the GM's view and bob's hold the same units, so this test proves nothing", hidden)
			}
			for _, id := range secrets {
				if slices.Contains(pic.Texts(), id) || strings.Contains(drawtest.Shows(pic, ">"+id+"<"), id) {
					t.Errorf("hidden-cargo %s: %s's picture names the hidden %s", hidden, who, id)
				}
			}
			// The "+n" marks beside carriers count what the view holds,
			// no more.
			if got, want := aboardMarks(pic.Texts()), aboardWant(v.s); got != want {
				t.Errorf("hidden-cargo %s: %s's picture has aboard marks %s, want %s", hidden, who, got, want)
			}
			if who == "bob" && aboardMarks(pic.Texts()) == aboardWant(gm) {
				t.Errorf("hidden-cargo %s: bob's marks are the GM's, so the test proves nothing", hidden)
			}
		}
	}
}

// aboardMarks lists the picture's "+n" texts, sorted.
func aboardMarks(texts []string) string {
	var out []string
	for _, x := range texts {
		if strings.HasPrefix(x, "+") {
			out = append(out, x)
		}
	}
	slices.Sort(out)
	return strings.Join(out, " ")
}

// aboardWant lists "+n" for every carrier in space of s, sorted.
func aboardWant(s *State) string {
	var out []string
	for _, u := range s.Units {
		if n := len(s.cargo(u.ID)); u.In == "" && n > 0 {
			out = append(out, fmt.Sprintf("+%d", n))
		}
	}
	slices.Sort(out)
	return strings.Join(out, " ")
}

// TestPicturesOfBotGames draws pictures through bot games with every
// option mix of TestBotGames: no panic, and within the bounds.
func TestPicturesOfBotGames(t *testing.T) {
	games := 8
	if testing.Short() {
		games = 2
	}
	for seed := 1; seed <= games; seed++ {
		opts := map[string]string{"turn-limit": "12"}
		switch seed % 4 {
		case 1:
			opts["scenario"], opts["moons"], opts["moon-count"] = "fast", "random", "4"
		case 2:
			opts["scenario"], opts["refinery-goal"], opts["station-ring"] = "refinery", "10", "2"
		case 3:
			opts["moon-count"], opts["hidden-cargo"], opts["opening"] = "3", "on", "off"
		}
		players := []string{"ann", "bob"}
		enginetest.Walk(t, Ruleset(), enginetest.Options{Players: players, Seed: uint64(seed), MaxSteps: 40, Options: opts}, func(step int, st engine.State) {
			if step%3 != 0 {
				return
			}
			for _, p := range []string{"", "ann", "bob"} {
				if _, err := st.View(p).(engine.Drawer).Picture().SVG(); err != nil {
					t.Fatal(err)
				}
			}
			drawtest.Bounds(t, st.View(players[step/3%2]).(engine.Drawer).Picture())
			drawtest.Bounds(t, st.(engine.PublicViewer).PublicView().(engine.Drawer).Picture())
		})
	}
}

// BenchmarkPicture draws the golden position as ann sees it.
func BenchmarkPicture(b *testing.B) {
	drawtest.Bench(b, pictureState(&testing.T{}).View("ann").(*view).Picture)
}

// TestREADMEPicture keeps the picture the README shows (a bot game with
// four random moons, a few turns in, as ann sees it) in step with the
// drawing: go test -update redraws it.
// MaxSteps counts the two placement steps before the opening too.
func TestREADMEPicture(t *testing.T) {
	var s *State
	opts := map[string]string{"scenario": "fast", "moons": "random", "moon-count": "4"}
	enginetest.Walk(t, Ruleset(), enginetest.Options{Players: []string{"ann", "bob"}, Seed: 5, MaxSteps: 8, Options: opts}, func(_ int, st engine.State) {
		s = st.(*State)
	})
	png, _ := drawtest.Check(t, s.View("ann").(engine.Drawer).Picture())
	drawtest.GoldenPNG(t, "../../docs/boards/orbital.png", png, *update)
}
