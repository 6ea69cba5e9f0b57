package web

import (
	"context"
	"encoding/base64"
	"strings"
	"testing"

	"orrery/engine/game"
	"orrery/engine/store"
)

// A private link is a seat's own: it opens that seat's page and no other;
// it is 128 random-looking bits that no one without the server's key can
// make from the seat's secret; it stops working when the seat gets a new
// player (replace), when its player is kicked or resigns (each re-issues
// the secret), and the seat's new link works at once.
func TestTokens(t *testing.T) {
	svc, _ := toyGame(t)
	s := newSite(t, Config{Service: svc})
	ctx := context.Background()
	ann, bob := tokenOf(t, svc, "g1", "ann"), tokenOf(t, svc, "g1", "bob")
	if raw, err := base64.RawURLEncoding.DecodeString(ann); err != nil || len(raw) != 16 || ann == bob {
		t.Fatalf("tokens %q %q: %v", ann, bob, err)
	}
	if tokenOf(t, svc, "g1", "ann") != ann {
		t.Errorf("a seat's token changed with nothing changed")
	}
	for seat, tok := range map[string]string{"ann": ann, "bob": bob} {
		w := get(s, "GET", "/g/g1/p/"+tok)
		if w.Code != 200 || !strings.Contains(w.Body.String(), "<b>This is "+seat+"'s private page") {
			t.Errorf("%s's link: %d", seat, w.Code)
		}
	}
	// Another server (another key) gives another token for the same
	// game, seat and secret.
	other, _ := toyGame(t)
	g, _ := svc.Get(ctx, "g1")
	g2, _ := other.Get(ctx, "g1")
	p, _ := g.PlayerByName("ann")
	var fromOther string
	other.Store().Update(ctx, func(tx store.Tx) error {
		var err error
		fromOther, err = Token(tx, g2, p)
		return err
	})
	if fromOther == "" || fromOther == ann {
		t.Errorf("another server's key gives %q for the same secret (this one's %q)", fromOther, ann)
	}
	if w := get(s, "GET", "/g/g1/p/"+fromOther); w.Code != 404 {
		t.Errorf("a token made with another key: %d", w.Code)
	}
	// A seat with a new secret has a new link; the old one is dead.
	rotate := []struct {
		name string
		do   func() error
		seat string
	}{
		{"replace", func() error { _, _, err := svc.Replace(ctx, "g1", "ann", "new-ann@example.org"); return err }, "ann"},
		{"kick", func() error { _, _, err := svc.Kick(ctx, "g1", "bob"); return err }, "bob"},
	}
	for _, r := range rotate {
		old := tokenOf(t, svc, "g1", r.seat)
		if err := r.do(); err != nil {
			t.Fatal(err)
		}
		if w := get(s, "GET", "/g/g1/p/"+old+"/step/1"); w.Code != 404 {
			t.Errorf("%s: the old link still opens: %d", r.name, w.Code)
		}
		now := tokenOf(t, svc, "g1", r.seat)
		if now == old {
			t.Errorf("%s: the token did not change", r.name)
		}
		if w := get(s, "GET", "/g/g1/p/"+now); w.Code != 200 {
			t.Errorf("%s: the new link: %d", r.name, w.Code)
		}
	}
	// A token is for one game.
	if _, err := svc.Create(ctx, game.CreateRequest{ID: "g2", Ruleset: "toy", Players: []game.PlayerSpec{{Name: "ann"}}}); err != nil {
		t.Fatal(err)
	}
	if w := get(s, "GET", "/g/g2/p/"+tokenOf(t, svc, "g1", "ann")); w.Code != 404 {
		t.Errorf("g1's token on g2: %d", w.Code)
	}
}

// Before any link was mailed there is no key, and no token is valid; a
// read transaction does not make one.
func TestNoKeyNoPrivatePages(t *testing.T) {
	svc, _ := toyGame(t)
	s := newSite(t, Config{Service: svc})
	ctx := context.Background()
	g, _ := svc.Get(ctx, "g1")
	p, _ := g.PlayerByName("ann")
	err := svc.Store().View(ctx, func(tx store.Tx) error {
		_, err := Token(tx, g, p)
		return err
	})
	if err == nil {
		t.Errorf("a read transaction made a token")
	}
	if seat, ok := seatOf(nil, g, "AAAAAAAAAAAAAAAAAAAAAA"); ok {
		t.Errorf("no key, yet %q", seat)
	}
	if w := get(s, "GET", "/g/g1/p/AAAAAAAAAAAAAAAAAAAAAA"); w.Code != 404 {
		t.Errorf("%d", w.Code)
	}
}
