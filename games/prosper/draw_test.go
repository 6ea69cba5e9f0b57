package prosper

import (
	"flag"
	"fmt"
	"strings"
	"testing"

	"orrery/engine"
	"orrery/engine/dice"
	"orrery/engine/draw/drawtest"
	"orrery/engine/enginetest"
)

var pictures = flag.String("pictures", "", "write every board picture the tests draw as DIR/NAME.png, to look at")

// picture is the view's board picture, through the engine's contract.
func picture(t testing.TB, v engine.View) []byte {
	t.Helper()
	d, ok := v.(engine.Drawer)
	if !ok {
		t.Fatalf("%T does not draw its board", v)
	}
	png, _ := drawtest.Check(t, d.Picture())
	return png
}

// TestGoldenPictures pins the picture of the golden boards' positions as
// SVG (the PNG is the same shapes), and checks each PNG for a phone.
func TestGoldenPictures(t *testing.T) {
	for _, c := range []struct{ n, steps int }{{2, 0}, {2, 40}, {4, 60}, {6, 80}} {
		s := play(t, c.n, c.steps, 7)
		name := fmt.Sprintf("picture-%dp-step%d", c.n, c.steps)
		v := s.View(s.Seats[0]).(*view)
		png := picture(t, v)
		drawtest.Save(t, *pictures, name, png)
		svg, _ := v.Picture().SVG()
		drawtest.Golden(t, name+".svg", svg, *update)
		// Every planet and every owner's letter is in the picture.
		texts := strings.Join(v.Picture().Texts(), "\n")
		for i, pl := range s.Planets {
			if !strings.Contains(texts, pl.Name) {
				t.Errorf("%s: planet %s is not drawn", name, pl.Name)
			}
			if pl.Owner != "" && !strings.Contains(texts, v.cellInfo(i)[2:]) {
				t.Errorf("%s: %s's ships %q are not drawn", name, pl.Name, v.cellInfo(i))
			}
		}
	}
}

// TestPictureShowsNoPlan: a settling plan is its writer's alone (the one
// secret of Prosper), so no other seat's picture and not the public one
// shows it, in words or in the SVG; the writer's own picture is no
// different for having one.
func TestPictureShowsNoPlan(t *testing.T) {
	s := play(t, 3, 0, 7)
	writer := s.Seats[1]
	prompt := engine.Prompt{ID: "plan:" + writer, Player: writer, Kind: engine.KindAnytime, Ask: planAsk}
	orders, errs := s.View(writer).Parse(prompt, "SETTLE Capella 9\nSETTLE Electra 8 ELSE Regulus 8")
	if len(errs) > 0 {
		t.Fatalf("the plan is refused: %v", errs)
	}
	before, _ := s.View(writer).(*view).Picture().SVG()
	if _, err := s.Resolve([]engine.Answer{{Prompt: prompt, Orders: orders}}, dice.New("x")); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(s.View(writer).Status(), "Electra 8") {
		t.Fatal("the writer has no plan, so this test proves nothing")
	}
	for _, v := range []engine.View{s.View(s.Seats[0]), s.View(s.Seats[2]), s.View(writer), s.PublicView()} {
		pic := v.(engine.Drawer).Picture()
		if w := drawtest.Shows(pic, "Electra 8", "Capella 9", "ELSE", "SETTLE"); w != "" {
			t.Errorf("%q's picture shows %q", v.Player(), w)
		}
	}
	after, _ := s.View(writer).(*view).Picture().SVG()
	if string(before) != string(after) {
		t.Error("the writer's picture changed with the plan")
	}
	pub := s.PublicView().(engine.Drawer).Picture()
	if w := drawtest.Shows(pub, "(you)"); w != "" {
		t.Errorf("the public picture marks someone as you")
	}
	if w := drawtest.Shows(s.View(writer).(engine.Drawer).Picture(), writer+" (you)"); w == "" {
		t.Errorf("the writer's picture does not mark them as you")
	}
	drawtest.Check(t, pub)
}

// TestPicturesOfBotGames draws every seat's and the public picture at
// every step of bot games of 2 to 6 players: no panic, and every picture
// within the bounds.
func TestPicturesOfBotGames(t *testing.T) {
	games := 6
	if testing.Short() {
		games = 2
	}
	for seed := 1; seed <= games; seed++ {
		n := 2 + seed%5
		enginetest.Walk(t, Ruleset(), enginetest.Options{Players: players(n), Seed: uint64(seed), MaxSteps: 150}, func(step int, st engine.State) {
			if step%5 != 0 {
				return
			}
			s := st.(*State)
			// Every view's model and SVG; one seat's PNG and the public one.
			for _, p := range append([]string{""}, s.Seats...) {
				if _, err := s.View(p).(*view).Picture().SVG(); err != nil {
					t.Fatal(err)
				}
			}
			drawtest.Bounds(t, s.View(s.Seats[step/5%len(s.Seats)]).(*view).Picture())
			drawtest.Bounds(t, s.PublicView().(*view).Picture())
		})
	}
}

// BenchmarkPicture draws the 6-player board of the golden files.
func BenchmarkPicture(b *testing.B) {
	s := play(b, 6, 80, 7)
	v := s.View(s.Seats[0]).(*view)
	drawtest.Bench(b, v.Picture)
}

// TestREADMEPicture keeps the picture the README shows (a 4-player game in
// its movement phase, as the player to move sees it) in step with the
// drawing: go test -update redraws it.
func TestREADMEPicture(t *testing.T) {
	s := play(t, 4, 40, 7)
	png := picture(t, s.View(s.mover()))
	drawtest.GoldenPNG(t, "../../docs/boards/prosper.png", png, *update)
}

// TestRussianPicture: a view localized to Russian draws its picture in
// Russian too (title, legend, text alternative): the same shapes, planets
// and marks, with no English word left. The mail side does not ask for it
// yet (it draws the picture when the mail leaves, without the reader's
// language).
func TestRussianPicture(t *testing.T) {
	s := play(t, 4, 60, 7)
	en := s.View(s.Seats[0])
	ru := Ruleset().(engine.Localizer).Localize(en, langRU)
	pe, pr := en.(engine.Drawer).Picture(), ru.(engine.Drawer).Picture()
	drawtest.Check(t, pr)
	texts := strings.Join(pr.Texts(), "\n") + "\n" + pr.Alt()
	for _, want := range []string{"туземцы", "толстое кольцо: ваши планеты", "раунд", "(вы)"} {
		if !strings.Contains(texts, want) {
			t.Errorf("the Russian picture lacks %q:\n%s", want, texts)
		}
	}
	if latin := latinWords(strings.ReplaceAll(texts, "Prosper or Perish", "")); len(latin) > 0 {
		t.Errorf("the Russian picture still has English words %v:\n%s", latin, texts)
	}
	if len(pe.Texts()) != len(pr.Texts()) || pe.W != pr.W {
		t.Errorf("the Russian picture is not the same picture: %d texts, %d px wide; English %d, %d px", len(pr.Texts()), pr.W, len(pe.Texts()), pe.W)
	}
}
