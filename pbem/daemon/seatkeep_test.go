package daemon_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"orrery/engine/game"
	"orrery/engine/store"
	"orrery/pbem/bounce"
	"orrery/pbem/daemon"
	"orrery/pbem/pbemtest"
)

// Issue 39 by mail: losing mail is not losing the seat.

// bouncingHarness is a daemon whose outbox refuses for good the mail to
// the addresses in the map it returns (as a server answering 550 does),
// each refusal a hard bounce, and one hard bounce enough to give an
// address up; g2 is a game of ann, bob and cyd under --abandoned open
// with a window of two steps (--abandon-after 2), bob reading Russian.
func bouncingHarness(t *testing.T) (*harness, map[string]bool) {
	t.Helper()
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	refuse := map[string]bool{}
	h := rig{send: refusing(refuse),
		config: daemon.Config{Now: func() time.Time { return now }, GM: "Game Master <" + gmAddr + ">", GMSecret: "gm-secret",
			RepliesPerHour: 1000, Bounces: bounce.Policy{HardLimit: 1}},
		game: &game.CreateRequest{ID: "g2", Ruleset: "toy",
			Players: []game.PlayerSpec{{Name: "ann", Email: "ann@example.org"}, {Name: "bob", Email: "bob@example.org"}, {Name: "cyd", Email: "cyd@example.org"}},
			Options: map[string]string{"finish": "30"}, Settings: &game.Settings{Early: true, AbandonAfter: 2, Abandoned: "open"}},
	}.start(t)
	d := h.d
	h.flush()
	h.say("bob@example.org", "lang", "SET LANG ru")
	// bob's mailbox breaks: the answer to his STATUS is refused for good,
	// which gives his address up; the next tick tells his game.
	refuse["bob@example.org"] = true
	h.say("bob@example.org", "[g2 "+h.secret("bob")+"]", "STATUS")
	h.flush()
	if err := d.Maintain(context.Background()); err != nil {
		t.Fatal(err)
	}
	if !unreachable(h, "bob@example.org") {
		t.Fatal("a mail refused for good did not make bob's address unreachable")
	}
	return h, refuse
}

// said is some with the mails' lines joined: a phrase may be filled over
// two lines.
func said(t *testing.T, mails []string, addr string, phrases ...string) {
	t.Helper()
	some(t, flat(mails), addr, phrases...)
}

func unreachable(h *harness, addr string) (un bool) {
	h.st.View(context.Background(), func(tx store.Tx) error { un = bounce.Unreachable(tx, addr); return nil })
	return un
}

// round has ann and cyd send their orders: without bob's, whose seat the
// game no longer waits for, they complete a step.
func (h *harness) round() []pbemtest.Mail {
	h.t.Helper()
	before := h.step()
	sent := h.say("ann@example.org", "[g2 "+h.secret("ann")+"]", "push 1")
	sent = append(sent, h.say("cyd@example.org", "[g2 "+h.secret("cyd")+"]", "push 1")...)
	if h.step() != before+1 {
		h.t.Fatalf("ann's and cyd's orders did not complete step %d", before+1)
	}
	return sent
}

func (h *harness) step() uint64 {
	g, err := h.d.Service().Get(context.Background(), "g2")
	if err != nil {
		h.t.Fatal(err)
	}
	return g.Step
}

// TestSeatKeptWhileMailBounces: bob's mail bounces in a game under
// --abandoned open. The GM and the other players are told, the seat plays
// his defaults, but a stranger's JOIN right after does not take it, nor
// one step later. bob writes again (his orders, with his secret) before
// the window closes: the seat is his as before, the others are told, and
// he gets, in Russian, what happened while his mail bounced; his orders
// count, and the report they complete reaches him.
func TestSeatKeptWhileMailBounces(t *testing.T) {
	h, refuse := bouncingHarness(t)
	sent := h.flush()
	for _, who := range []string{"ann@example.org", "cyd@example.org", gmAddr} {
		said(t, to(sent, who), who, "A player's mail bounces", "Mail to bob in g2 bounces, so they get no reports: the seat plays its defaults, and if they do "+
			"not write again within 2 steps it is open for anyone to take (JOIN g2).")
	}
	none(t, to(sent, "bob@example.org"), "bob")
	// A stranger cannot take the seat.
	one(t, to(h.say("dora@example.org", "games", "LIST"), "dora@example.org"), "dora")
	one(t, to(h.say("dora@example.org", "join", "JOIN g2"), "dora@example.org"), "dora", "has no seat open to take")
	h.round() // step 1: bob's defaults
	one(t, to(h.say("dora@example.org", "join", "JOIN g2"), "dora@example.org"), "dora", "has no seat open to take")
	// bob's mailbox works again; he sends his orders for step 2.
	delete(refuse, "bob@example.org")
	sent = h.say("bob@example.org", "[g2 "+h.secret("bob")+"]", "push 2")
	if unreachable(h, "bob@example.org") {
		t.Fatal("bob's address is still unreachable after he wrote")
	}
	bob := to(sent, "bob@example.org")
	said(t, bob, "bob", "X-Orrery-Kind: reply", "места, которые я для вас сохранил, остаются вашими")
	said(t, bob, "bob", "X-Orrery-Kind: notice", "Письма вам не доходили с", "поэтому отчётов g2 вы не получали",
		"ваше место bob снова ваше", "Тем временем за вас по умолчанию сыграно: шаг 1;", "ведущему и другим игрокам было сказано:",
		"Письма игроку bob в g2 не доходят, отчётов он не получает: место играет по умолчанию, а если он не напишет снова за 2 шага, его сможет занять любой (JOIN g2).")
	for _, m := range bob {
		if strings.Contains(m, "Mail to") || strings.Contains(m, "Meanwhile") {
			t.Errorf("bob's mail is not all in Russian:\n%s", m)
		}
	}
	for _, who := range []string{"ann@example.org", "cyd@example.org", gmAddr} {
		said(t, to(sent, who), who, "A player's mail arrives again", "bob writes again in g2: the seat is theirs as before, and the game waits for their "+
			"orders again.")
	}
	g, _ := h.d.Service().Get(context.Background(), "g2")
	if p, _ := g.PlayerByName("bob"); p.Email != "bob@example.org" || len(g.Unreachable) != 0 || len(g.OpenSeats()) != 0 {
		t.Fatalf("after bob wrote: %+v, unreachable %v, open %v", p, g.Unreachable, g.OpenSeats())
	}
	// His orders count: with ann's and cyd's they complete step 2, whose
	// report reaches him.
	sent = h.round()
	some(t, to(sent, "bob@example.org"), "bob", "g2", "2")
	if n := len(to(sent, "bob@example.org")); n == 0 {
		t.Error("the report of the step bob's orders completed did not reach him")
	}
	one(t, to(h.say("dora@example.org", "join", "JOIN g2"), "dora@example.org"), "dora", "has no seat open to take")
	res, err := h.d.Service().Verify(context.Background(), "g2")
	if err != nil || !res.OK() {
		t.Fatalf("verify: %v %v", err, res.Problems)
	}
}

// TestSeatOpensAfterTheWindow: if bob does not write within the window
// (two steps by defaults), the seat opens as before: the others are told,
// a stranger's JOIN and CONFIRM take it, and bob writing after that gets
// his address back, not the seat.
func TestSeatOpensAfterTheWindow(t *testing.T) {
	h, refuse := bouncingHarness(t)
	h.flush()
	h.round()
	sent := h.round()
	said(t, to(sent, "ann@example.org"), "ann", "Mail to bob in g2 bounces, so they get no reports: the seat is open for anyone to take (send JOIN g2)")
	said(t, to(sent, gmAddr), "gm", "Mail to bob in g2 bounces, so they get no reports: the seat is open for anyone to take")
	h.confirm(h.say("dora@example.org", "join", "JOIN g2"), "dora@example.org")
	sent = h.flush()
	one(t, to(sent, "dora@example.org"), "dora", "Welcome to", "as bob")
	some(t, to(sent, gmAddr), "gm", "dora@example.org took the open seat bob of g2.")
	delete(refuse, "bob@example.org")
	bob := to(h.say("bob@example.org", "hello", "MY GAMES"), "bob@example.org")
	if len(bob) != 1 {
		t.Fatalf("%d mails to bob, want 1", len(bob))
	}
	said(t, bob, "bob", "Письма вам не доходили", "Ваше место тем временем могло перейти к другому игроку")
	if strings.Contains(bob[0], "g2  ") {
		t.Errorf("bob's MY GAMES lists g2:\n%s", bob[0])
	}
}
