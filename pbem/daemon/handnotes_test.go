package daemon_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"orrery/engine"
	"orrery/engine/enginetest/toy"
	"orrery/engine/game"
	"orrery/pbem/daemon"
	"orrery/pbem/outbox"
)

// The board picture of a report says under its legend who plays a seat
// that changed hands ("bob: played by eve"), in each reader's language,
// whether the outbox draws it from the view kept when the report was
// queued or from the step read again by another process (a restart): the
// notes go with the queued mail.
func TestPictureSaysWhoPlaysASeat(t *testing.T) {
	ctx := context.Background()
	cfg := daemon.Config{From: "Orrery <" + botAddr + ">", RepliesPerHour: 1000}
	rulesets := []engine.Ruleset{toy.Drawn()}
	var mu sync.Mutex
	drawn := map[string][]string{} // the texts of the pictures each reader's mails were drawn with, the latest last
	pics := daemon.PictureFunc(func(v engine.View) ([]byte, string, bool) {
		d, ok := v.(engine.Drawer)
		if !ok {
			return nil, "", false
		}
		p := d.Picture()
		mu.Lock()
		drawn[v.Player()] = append(drawn[v.Player()], strings.Join(p.Texts(), "|"))
		mu.Unlock()
		return append([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR\x00\x00\x03\x20\x00\x00\x01\x00"), v.Player()...), p.Alt(), true
	})
	h := rig{rulesets: rulesets, config: cfg, pictures: true, game: g1("40")}.start(t)
	d := h.d
	d.Mailer().Pictures = pics
	h.flush()
	latest := func(seat string) string {
		mu.Lock()
		defer mu.Unlock()
		if len(drawn[seat]) == 0 {
			return ""
		}
		return drawn[seat][len(drawn[seat])-1]
	}
	h.handle(h.mail("ann@example.org", "[g1 "+h.secret("ann")+"]", "push 2"))
	h.handle(h.mail("bob@example.org", "[g1 "+h.secret("bob")+"]", "push 3"))
	h.flush()
	if got := latest("ann"); got == "" || strings.Contains(got, "played by") {
		t.Fatalf("before bob left, ann's picture reads %q", got)
	}
	h.handle(h.mail("ann@example.org", "settings", "SET LANG ru"))
	if _, _, err := d.Service().ReplaceSeat(ctx, "g1", "bob", game.Seat{Email: "eve@example.org"}, "bob moved away"); err != nil {
		t.Fatal(err)
	}
	h.flush()
	g, _ := d.Service().Get(ctx, "g1")
	eve, _ := g.PlayerByName("bob")
	h.handle(h.mail("ann@example.org", "[g1 "+h.secret("ann")+"]", "push 1"))
	h.handle(h.mail("eve@example.org", "[g1 "+eve.Secret+"]", "push 1"))
	h.flush()
	if got := latest("ann"); !strings.Contains(got, "bob: за него играет eve") {
		t.Errorf("ann (Russian) got a picture reading %q, want a note of who plays bob", got)
	}
	if got := latest("bob"); !strings.Contains(got, "bob: played by eve") {
		t.Errorf("eve got a picture reading %q, want a note of who plays bob", got)
	}
	// Another process (a restart: no views kept) draws the same notes,
	// which came with the queued mail.
	other := rig{store: h.st, server: h.srv, rulesets: rulesets, config: cfg, noGame: true}.start(t).d
	other.Mailer().Pictures = pics
	g, _ = d.Service().Get(ctx, "g1")
	if _, err := other.Picture(ctx, outbox.Picture{Game: "g1", Step: g.Step, Player: "bob", Notes: []string{"bob: played by eve"}}); err != nil {
		t.Fatal(err)
	}
	if got := latest("bob"); !strings.Contains(got, "bob: played by eve") {
		t.Errorf("drawn again from the store, the picture reads %q", got)
	}
	if n := strings.Count(latest("bob"), "played by"); n != 1 {
		t.Errorf("the note is written %d times", n)
	}
}
