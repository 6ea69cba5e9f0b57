package games

import (
	"bytes"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"orrery/engine"
	"orrery/engine/dice"
	"orrery/engine/draw"
	"orrery/engine/draw/drawtest"
	"orrery/engine/enginetest"
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
					t.Errorf("%s: the view of %q (%T) draws no picture: add a Picture method (engine.Drawer; draw.Board draws a text board)", info.Name, v.Player(), v)
					continue
				}
				pic := d.Picture()
				drawtest.Bounds(t, pic)
				if pic.Alt() == "" {
					t.Errorf("%s: the picture of %q has no text alternative", info.Name, v.Player())
				}
				// The mail's picture, laid out for a phone (issue 44).
				m := pic.Mail()
				if f := m.MinFont(); m.W != draw.PhoneWidth || f < draw.PhoneFont-1e-9 {
					t.Errorf("%s: the mail picture of %q is %d px wide with words %.1f px high: want %d px, at least %g", info.Name, v.Player(), m.W, f, draw.PhoneWidth, draw.PhoneFont)
				}
				if _, err := m.Scaled(draw.MailScale).PNG(); err != nil {
					t.Errorf("%s: the mail picture of %q: %v", info.Name, v.Player(), err)
				}
			}
		}
	}
}

// TestPainterOnEveryGame: a daemon draws every seat's picture of a step
// one after the other with one draw.Painter, each from the picture before
// it where the two are alike. In bot games of every ruleset, at many
// steps, each seat's and the observers' picture so drawn has the very
// bytes the picture gives drawn alone. The share drawn from another is
// logged (it is what the painter saves a daemon).
func TestPainterOnEveryGame(t *testing.T) {
	maxSteps := 60
	if testing.Short() {
		maxSteps = 20 // -short: the opening; the full run plays on
	}
	for _, rs := range All() {
		info := rs.Info()
		t.Run(info.Name, func(t *testing.T) {
			var players []string
			for i := range min(5, info.MaxPlayers) {
				players = append(players, fmt.Sprintf("p%d", i+1))
			}
			pt, mailPt := draw.NewPainter(4), draw.NewPainter(4)
			steps := 0
			enginetest.Walk(t, rs, enginetest.Options{Players: players, Seed: 3, MaxSteps: maxSteps}, func(step int, st engine.State) {
				if step%4 != 0 && !st.Outcome().Over {
					return
				}
				steps++
				var views []engine.View
				for _, p := range players {
					views = append(views, st.View(p))
				}
				if pv, ok := st.(engine.PublicViewer); ok {
					views = append(views, pv.PublicView())
				}
				for _, v := range views {
					d, ok := v.(engine.Drawer)
					if !ok {
						t.Fatalf("the view of %q (%T) has no Picture method: add one (engine.Drawer; draw.Board draws a text board)", v.Player(), v)
					}
					want, err := d.Picture().PNG()
					if err != nil {
						t.Fatal(err)
					}
					got, err := pt.PNG(d.Picture())
					if err != nil {
						t.Fatal(err)
					}
					if !bytes.Equal(got, want) {
						t.Fatalf("step %d: %q's picture drawn by the painter differs from it drawn alone", step, v.Player())
					}
					// And the mail's, as the mailer draws it (at every
					// third step checked: a mail's picture has twice the
					// pixels).
					if steps%3 != 1 {
						continue
					}
					mail := d.Picture().Mail().Scaled(draw.MailScale)
					want, err = mail.PNG()
					if err != nil {
						t.Fatal(err)
					}
					if got, err = mailPt.PNG(mail); err != nil || !bytes.Equal(got, want) {
						t.Fatalf("step %d: %q's mail picture drawn by the painter differs from it drawn alone (%v)", step, v.Player(), err)
					}
				}
			})
			fresh, reused := pt.Counts()
			t.Logf("%s: %d steps, %d pictures drawn anew, %d from another", info.Name, steps, fresh, reused)
			mf, mr := mailPt.Counts()
			t.Logf("%s: mail pictures: %d drawn anew, %d from another", info.Name, mf, mr)
			if reused == 0 {
				t.Errorf("%s: no seat's picture was drawn from another's", info.Name)
			}
		})
	}
}

// BenchmarkSeatPictures draws every seat's picture of four positions of a
// bot game (five seats where the ruleset seats five, at steps 20, 24, 28
// and 32), each anew and with one painter as a daemon does. An op is the
// seats of one position, the positions taken in turn.
func BenchmarkSeatPictures(b *testing.B) {
	for _, rs := range All() {
		info := rs.Info()
		var players []string
		for i := range min(5, info.MaxPlayers) {
			players = append(players, fmt.Sprintf("p%d", i+1))
		}
		var positions [][]*draw.Picture
		enginetest.Walk(b, rs, enginetest.Options{Players: players, Seed: 3, MaxSteps: 32}, func(step int, st engine.State) {
			if step < 20 || step%4 != 0 || len(positions) == 4 {
				return
			}
			var pics []*draw.Picture
			for _, p := range players {
				if d, ok := st.View(p).(engine.Drawer); ok {
					pics = append(pics, d.Picture())
				}
			}
			positions = append(positions, pics)
		})
		if len(positions) == 0 {
			b.Logf("%s: no bot game lasts to step 20, so there is nothing to draw", info.Name)
			continue
		}
		b.Run(info.Name+"/anew", func(b *testing.B) {
			i := 0
			for b.Loop() {
				for _, p := range positions[i%len(positions)] {
					if _, err := p.PNG(); err != nil {
						b.Fatal(err)
					}
				}
				i++
			}
		})
		// As a report mail carries it: laid out for a phone, at 2×.
		b.Run(info.Name+"/mail", func(b *testing.B) {
			i := 0
			for b.Loop() {
				for _, p := range positions[i%len(positions)] {
					if _, err := p.Mail().Scaled(draw.MailScale).PNG(); err != nil {
						b.Fatal(err)
					}
				}
				i++
			}
		})
		b.Run(info.Name+"/painter", func(b *testing.B) {
			pt := draw.NewPainter(4)
			i := 0
			for b.Loop() {
				for _, p := range positions[i%len(positions)] {
					if _, err := pt.PNG(p); err != nil {
						b.Fatal(err)
					}
				}
				i++
			}
			fresh, reused := pt.Counts()
			b.ReportMetric(float64(reused)/float64(fresh+reused), "reused/picture")
		})
		// As the outbox draws a batch's pictures: two at once, taken in
		// their mails' order.
		b.Run(info.Name+"/painter-two", func(b *testing.B) {
			pt := draw.NewPainter(4)
			i := 0
			for b.Loop() {
				pics := positions[i%len(positions)]
				var next atomic.Int64
				var wg sync.WaitGroup
				for range 2 {
					wg.Go(func() {
						for j := int(next.Add(1)) - 1; j < len(pics); j = int(next.Add(1)) - 1 {
							if _, err := pt.PNG(pics[j]); err != nil {
								b.Error(err)
							}
						}
					})
				}
				wg.Wait()
				i++
			}
			fresh, reused := pt.Counts()
			b.ReportMetric(float64(reused)/float64(fresh+reused), "reused/picture")
		})
	}
}
