package e2e

import (
	"bytes"
	"fmt"
	"net/mail"
	"strings"
	"testing"
	"time"

	"orrery/engine"
	"orrery/engine/enginetest/toy"
	"orrery/engine/game"
	"orrery/pbem/daemon"
)

// A GM command by mail through Postfix and Dovecot: a PAUSE with a wrong
// GM secret is refused and changes nothing; with the right one the game
// pauses, every player is told the reason and the GM gets a confirmation.
func TestGMCommandByMail(t *testing.T) {
	e := newRun(t)
	s, n, bot := e.stack, e.n, e.bot
	gm := "gm-" + n + "@" + s.Domain
	ctx := e.start(t, "gm.db", []engine.Ruleset{toy.Ruleset()}, true, time.Minute,
		func(c *daemon.Config) { c.GM, c.GMSecret = "GM <"+gm+">", "gm-"+n })
	d := e.d

	players := []string{"ann-" + n + "@" + s.Domain, "bob-" + n + "@" + s.Domain}
	if _, err := d.Service().Create(ctx, game.CreateRequest{ID: "gm-e2e", Ruleset: "toy",
		Players: []game.PlayerSpec{{Name: "ann", Email: players[0]}, {Name: "bob", Email: players[1]}}}); err != nil {
		t.Fatal(err)
	}
	gmMail := func(i int, secret string) []byte {
		return fmt.Appendf(nil, "From: GM <%s>\r\nTo: %s\r\nSubject: pause\r\nMessage-ID: <gm%d-%s@%s>\r\nDate: %s\r\n"+
			"Content-Type: text/plain; charset=utf-8\r\n\r\nSECRET %s\r\nGM PAUSE gm-e2e the map is wrong\r\n",
			gm, bot, i, n, s.Domain, time.Now().Format(time.RFC1123Z), secret)
	}
	// waitFor returns the first mail to addr whose subject holds subj.
	waitFor := func(addr, subj string) *mail.Message {
		t.Helper()
		for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
			msgs, _ := s.fetch(addr)
			for _, raw := range msgs {
				if m, err := mail.ReadMessage(bytes.NewReader(raw)); err == nil && strings.Contains(m.Header.Get("Subject"), subj) {
					return m
				}
			}
		}
		t.Fatalf("%s got no mail about %q", addr, subj)
		return nil
	}

	if err := s.inject(bot, gmMail(1, "wrong")); err != nil {
		t.Fatal(err)
	}
	waitFor(gm, "Not accepted")
	if g, _ := d.Service().Get(ctx, "gm-e2e"); g.Paused {
		t.Fatal("a wrong GM secret paused the game")
	}
	if err := s.inject(bot, gmMail(2, "gm-"+n)); err != nil {
		t.Fatal(err)
	}
	for _, p := range players {
		m := waitFor(p, "paused")
		var body bytes.Buffer
		body.ReadFrom(m.Body)
		if !strings.Contains(body.String(), "the map is wrong") {
			t.Errorf("%s's notice lacks the reason", p)
		}
	}
	waitFor(gm, "GM command done")
	if g, _ := d.Service().Get(ctx, "gm-e2e"); !g.Paused {
		t.Fatal("the GM's PAUSE did not pause the game")
	}
}
