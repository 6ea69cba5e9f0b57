package daemon_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"orrery/engine/game"
)

// Refused GM commands, from a forged gm address or elsewhere, are answered
// at most three times an hour and reported to the GM at most once a day,
// counted by sender; the right secret works at every moment in between.
func TestWrongGMSecrets(t *testing.T) {
	h, now := clocked(t, game.Settings{Early: true})
	refusals := func(mails []string) (answers, reports []string) {
		for _, m := range mails {
			if strings.Contains(m, "refused since") {
				reports = append(reports, m)
			} else if strings.Contains(m, "nothing was applied") {
				answers = append(answers, m)
			}
		}
		return
	}
	guess := func(from string, n int) {
		for i := range n {
			h.handle(h.mail(from, fmt.Sprintf("gm %s %d-%d", from, h.n, i), "SECRET guess-"+string(rune('a'+i))+"\nGM PAUSE g2 mine now\nGM STATUS g2"))
		}
	}
	guess("Game Master <"+gmAddr+">", 5)
	guess("mallory@example.net", 2)
	sent := h.flush()
	answers, reports := refusals(to(sent, gmAddr))
	mallory, _ := refusals(to(sent, "mallory@example.net"))
	assert.Len(t, append(answers, mallory...), 3, "refusals answered in the first hour")
	// The first refusal is reported at once; the rest wait for the day.
	if assert.Len(t, reports, 1) {
		assert.Contains(t, reports[0], "1 GM command was refused since")
		assert.Contains(t, reports[0], "1 from "+gmAddr+" (your address, perhaps forged)")
	}
	// The right secret works between the guesses, and is answered.
	h.gm("GM STATUS g2")
	h.gm("GM PAUSE g2 lunch")
	gmMails := to(h.flush(), gmAddr)
	assert.Equal(t, 3, len(gmMails), "the GM's two answers and the pause notice to the GM")
	g, _ := h.d.Service().Get(t.Context(), "g2")
	assert.True(t, g.Paused, "the right secret did not work after refusals")

	// An hour later three refusals may be answered again (to four new
	// senders here, each within its own daily allowance as a stranger);
	// no new report before a day has passed since the last.
	*now = now.Add(61 * time.Minute)
	var later []string
	for i := range 4 {
		from := fmt.Sprintf("guesser%d@example.net", i)
		guess(from, 1)
		later = append(later, from)
	}
	sent = h.flush()
	answers = nil
	for _, from := range later {
		a, _ := refusals(to(sent, from))
		answers = append(answers, a...)
	}
	assert.Len(t, answers, 3)
	_, reports = refusals(to(sent, gmAddr))
	assert.Empty(t, reports)
	h.tick()
	h.d.GMGuardTick(t.Context())
	_, reports = refusals(to(h.flush(), gmAddr))
	assert.Empty(t, reports, "a second report within the day")

	// A day after the first report, the tick reports the rest by sender.
	*now = now.Add(23 * time.Hour)
	h.d.GMGuardTick(t.Context())
	_, reports = refusals(to(h.flush(), gmAddr))
	if assert.Len(t, reports, 1) {
		assert.Contains(t, reports[0], "10 GM commands were refused since")
		assert.Contains(t, reports[0], "4 from "+gmAddr)
		assert.Contains(t, reports[0], "2 from mallory@example.net")
		assert.Contains(t, reports[0], "1 from guesser3@example.net")
	}
	h.d.GMGuardTick(t.Context())
	_, reports = refusals(to(h.flush(), gmAddr))
	assert.Empty(t, reports, "reported twice")
}
