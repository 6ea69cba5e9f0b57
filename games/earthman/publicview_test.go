package earthman

import (
	"strings"
	"testing"

	"orrery/engine"
)

// checkPublic compares a seat's view with the public view: the board is
// the same (nothing on it is hidden), every player's line of the status
// is there, and none of the private words the seat sees is.
func checkPublic(t *testing.T, seat, pub engine.View, players, private []string) {
	t.Helper()
	own := seat.Status()
	for _, w := range private {
		if !strings.Contains(strings.Join(strings.Fields(own), " "), w) {
			t.Fatalf("the seat's own status lacks %q (else this test proves nothing):\n%s", w, own)
		}
	}
	if pub.Player() != engine.Observer {
		t.Errorf("the public view belongs to %q", pub.Player())
	}
	if pub.Board() != seat.Board() {
		t.Errorf("public board differs from a seat's:\n%s\nwant:\n%s", pub.Board(), seat.Board())
	}
	status := strings.Join(strings.Fields(pub.Status()), " ")
	for _, p := range players {
		if !strings.Contains(status, p+" (") {
			t.Errorf("public status has no line for %s:\n%s", p, pub.Status())
		}
	}
	for _, w := range append([]string{"Your", "standing order"}, private...) {
		if strings.Contains(status, w) {
			t.Errorf("public status shows %q:\n%s", w, pub.Status())
		}
	}
	p := engine.Prompt{ID: "any:ann", Player: "ann", Kind: engine.KindAnytime}
	if _, errs := pub.Parse(p, "AGREE DRAW"); len(errs) == 0 {
		t.Errorf("the public view accepted orders")
	}
}

// An observer of the classic edition sees the board and the status table
// (000-H: nothing is hidden), but not the standing orders, triggers, stored
// destinations or gift bars that only their owner's status shows.
func TestPublicViewClassic(t *testing.T) {
	s := buildState(t, `players ann bob
active bob
dev Earth ann 2
dev Earth bob 1
dev Earth UN 4
fleet Earth ann 1
fleet Inner ann 2
course ann Inner Luna 2
oncoup ann Mars DECOMMISSION
tasked ann Earth 1 0
trigger ann ON LOSS AT ANY BY bob GIFT ALL DEV TO UN
agree bob bob`)
	s.Support = map[string][]Support{"ann": {{Target: "bob", World: "Earth", N: 1}}}
	checkPublic(t, s.View("ann"), s.PublicView(), []string{"ann", "bob"},
		[]string{"ON COUP AT Mars DECOMMISSION", "ON ATTACK ON bob", "ON LOSS AT ANY BY bob", "bound for Luna", "Not giftable"})
	if !strings.Contains(s.PublicView().Status(), "agrees that bob has won") {
		t.Errorf("an agreement is public, but the public status does not show it:\n%s", s.PublicView().Status())
	}
}

// An observer of the full rules sees the disc, tracks and pools, but no
// player's standing orders (the AI family among them).
func TestPublicViewFull(t *testing.T) {
	s := buildFull(t, `players ann bob
active bob
region Earth 1 ann 1
fleet Mars ann 3
order ann AI KEEP 2
order ann AI SHIELD bob
order ann AI DEFEND MIN 2
order ann OVERTHROWN YIELD ON Mars
order ann EXPOSE Mars
order ann TECH Research
order ann PEACE YES
order ann CONCEDE TO bob
order ann ACCEPT SHARES AI
option collab`)
	checkPublic(t, s.View("ann"), s.PublicView(), []string{"ann", "bob"},
		[]string{"AI KEEP 2", "AI SHIELD bob", "EXPOSE Mars", "TECH Research", "PEACE YES", "CONCEDE TO bob", "AI OWN", "AI DEFEND MIN 2", "OVERTHROWN YIELD ON Mars", "DEFENSIVE FIRE", "ACCEPT SHARES AI"})
}
