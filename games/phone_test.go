package games

import (
	"fmt"
	"math"
	"testing"

	"orrery/engine"
	"orrery/engine/draw"
	"orrery/engine/enginetest"
)

// phoneWidth is the CSS width a phone gives a mail's picture (issue 44),
// and minLabel the CSS height below which a label cannot be read there.
const (
	phoneWidth = 360.0
	minLabel   = 11.0
)

// labelCSS is how high a label of font size size is drawn, in CSS px, when
// a picture w px wide is shown phoneWidth px wide.
func labelCSS(size float64, w int) float64 { return size * phoneWidth / float64(w) }

// TestPhoneLabels measures, from the picture model, each seat's mail
// picture (draw.Picture.Mail) of a mid-game step (step 20 of a bot game)
// of every ruleset as a phone shows it: the smallest label's height in CSS
// px at 360 px display width, which issue 44 wants at least 11, and the
// PNG's size as mailed (at draw.MailScale).
func TestPhoneLabels(t *testing.T) {
	for _, rs := range All() {
		info := rs.Info()
		t.Run(info.Name, func(t *testing.T) {
			var players []string
			for i := range min(4, info.MaxPlayers) {
				players = append(players, fmt.Sprintf("p%d", i+1))
			}
			done := false
			enginetest.Walk(t, rs, enginetest.Options{Players: players, Seed: 3, MaxSteps: 24}, func(step int, st engine.State) {
				if done || (step < 20 && !st.Outcome().Over) {
					return
				}
				done = true
				for _, p := range players {
					d, ok := st.View(p).(engine.Drawer)
					if !ok {
						continue
					}
					pic := d.Picture().Mail()
					small, label := math.Inf(1), ""
					for _, s := range pic.Shapes {
						if tx, ok := s.(*draw.Text); ok {
							if h := labelCSS(tx.Font.Size, pic.W); h < small {
								small, label = h, tx.Text
							}
						}
					}
					png, err := pic.Scaled(draw.MailScale).PNG()
					if err != nil {
						t.Fatal(err)
					}
					t.Logf("step %d, %s: %d×%d, PNG %.1f KB, smallest label %.1f CSS px (%q)", step, p, pic.W, pic.H, float64(len(png))/1024, small, label)
					if small < minLabel {
						t.Errorf("%s's picture: label %q is %.1f CSS px high at %g px width, below %g", p, label, small, phoneWidth, minLabel)
					}
				}
			})
		})
	}
}
