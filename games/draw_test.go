package games

import (
	"fmt"
	"testing"

	"orrery/engine"
	"orrery/engine/dice"
	"orrery/engine/draw/drawtest"
)

// TestEveryGameDrawsItsBoard: mail and web pages draw the board of any game
// through engine.Drawer, so every listed ruleset's views (each seat's, the
// GM's and the observers') draw a picture that fits a phone, at the start
// of a game of its fewest and of its most players. What each picture hides
// is each game's own test.
func TestEveryGameDrawsItsBoard(t *testing.T) {
	for _, rs := range All() {
		info := rs.Info()
		opts, err := engine.ResolveOptions(info, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range []int{info.MinPlayers, info.MaxPlayers} {
			var players []string
			for i := 0; i < n; i++ {
				players = append(players, fmt.Sprintf("p%d", i+1))
			}
			st, err := rs.NewState(engine.Setup{GameID: "pic", Players: players, Options: opts}, dice.New("pic"))
			if err != nil {
				t.Fatalf("%s: %v", info.Name, err)
			}
			views := []engine.View{st.View("")}
			for _, p := range players {
				views = append(views, st.View(p))
			}
			if pv, ok := st.(engine.PublicViewer); ok {
				views = append(views, pv.PublicView())
			}
			for _, v := range views {
				d, ok := v.(engine.Drawer)
				if !ok {
					t.Errorf("%s: the view of %q (%T) draws no picture", info.Name, v.Player(), v)
					continue
				}
				pic := d.Picture()
				drawtest.Bounds(t, pic)
				if pic.Alt() == "" {
					t.Errorf("%s: the picture of %q has no text alternative", info.Name, v.Player())
				}
			}
		}
	}
}
