package hostile

// Budgets per sender (issue 39): one stranger's catch-all domain cannot
// spend every stranger's daily budget, and NEW and INVITE by mail are
// neither free nor open to a forged From.

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"orrery/engine/game"
	"orrery/pbem/daemon"
)

// flat is a mail's text with its spacing and line breaks undone
// (answers are filled to 78 columns).
func flat(m out) string { return strings.Join(strings.Fields(m.body), " ") }

// 600 OBSERVE mails from 600 addresses of one catch-all domain, within
// seconds, get at most that domain's share of the strangers' daily budget
// answered (50 of 500 by default); a newcomer from another domain is
// then still asked to confirm a JOIN, takes the seat, and has HELP
// answered. Before, the flood was answered 500 times and the newcomer
// not at all that day.
func TestOneDomainFlood(t *testing.T) { both(t, testOneDomainFlood) }

func testOneDomainFlood(t *testing.T, b backend) {
	e := start(t, b, envOptions{})
	e.settleIn *= 6 // 600 mails, through the real servers too
	if _, err := e.d.Service().Create(context.Background(), game.CreateRequest{ID: "open", Ruleset: "toy", Seats: 4,
		Players: []game.PlayerSpec{{Name: "ann", Email: e.ann}}}); err != nil {
		t.Fatal(err)
	}
	e.settle()
	e.take()
	const flood, share = 600, 50
	t0 := time.Now()
	for i := range flood {
		_, raw := e.msg(e.addr(fmt.Sprintf("x%d", i), "catchall.example"), "watch", "OBSERVE g1")
		e.deliver(raw)
	}
	e.settle()
	toFlood := 0
	for _, m := range e.take() {
		for _, r := range m.to {
			if strings.HasSuffix(strings.ToLower(r), "@catchall.example") {
				toFlood++
			}
		}
	}
	t.Logf("%d OBSERVE mails from one domain: %d answers, all handled in %v", flood, toFlood, time.Since(t0).Round(time.Millisecond))
	if toFlood > share || toFlood == 0 {
		t.Errorf("%d answers to one domain's addresses; want 1 to its share, %d", toFlood, share)
	}
	if obs := e.observers("g1"); len(obs) != 0 {
		t.Errorf("subscribed without confirming: %v", obs)
	}
	// A newcomer, elsewhere.
	nina := e.addr("nina", "newcomer.example")
	_, raw := e.msg(nina, "may I play?", "JOIN open")
	e.deliver(raw)
	e.settle()
	c, token := confirmation(t, e.take(), nina)
	e.deliver(e.reply(nina, c, "CONFIRM "+token))
	e.settle()
	e.take()
	g, _ := e.d.Service().Get(context.Background(), "open")
	if _, ok := g.PlayerByEmail(nina); !ok {
		t.Errorf("the newcomer's confirmed JOIN took no seat: %v", g.Players)
	}
	_, raw = e.msg(e.addr("nino", "newcomer.example"), "how does this work?", "HELP")
	e.deliver(raw)
	e.settle()
	if m := expectOne(t, e.take(), e.addr("nino", "newcomer.example"), ""); !strings.Contains(flat(m), "JOIN") {
		t.Errorf("the newcomer's HELP answer:\n%s", m.body)
	}
}

// NEW opens a game in its sender's name only with the secret of a seat
// they hold (sender_auth off here, as for serve --embedded: the From is
// whatever the sender wrote): a forged From gets its victim one refusal
// saying how, and no game. NEW and INVITE beyond the sender's day are
// refused, saying when to try again, and nobody is invited.
func TestNewAndInviteByMail(t *testing.T) { both(t, testNewAndInviteByMail) }

func testNewAndInviteByMail(t *testing.T, b backend) {
	e := start(t, b, envOptions{daemon: func(c *daemon.Config) { c.MaxOpenGames, c.NewPerDay, c.InvitesPerDay = 10, 2, 3 }})
	ctx := context.Background()
	mine := func() int {
		ids, err := e.d.Service().GamesOf(ctx, e.ann)
		if err != nil {
			t.Fatal(err)
		}
		return len(ids)
	}
	say := func(body string) out {
		t.Helper()
		_, raw := e.msg(e.ann, "games", body)
		e.deliver(raw)
		e.settle()
		ms := e.take()
		a := to(ms, e.ann)
		if len(a) == 0 {
			t.Fatalf("no answer to %q: %v to %v", body, subjects(ms), recipients(ms))
		}
		return a[0]
	}
	// Forged: ann's address, no secret.
	if m := say("NEW toy 2"); !strings.Contains(flat(m), "NEW opens a game in your name, so it needs the secret of a seat you hold here") ||
		!strings.Contains(flat(m), "write a line SECRET and the secret of a seat you hold here") {
		t.Errorf("NEW without a secret:\n%s", m.body)
	}
	if n := mine(); n != 1 {
		t.Fatalf("NEW without a secret: ann is in %d games", n)
	}
	sec := "SECRET " + e.secret("ann") + "\n"
	for _, id := range []string{"n1", "n2"} {
		if m := say(sec + "NEW toy 3 id=" + id); !strings.Contains(flat(m), "You opened game "+id) {
			t.Errorf("NEW with ann's secret:\n%s", m.body)
		}
	}
	if m := say(sec + "NEW toy 3 id=n3"); !strings.Contains(flat(m), "you have opened 2 games by mail within a day") ||
		!strings.Contains(flat(m), "you can try again after") {
		t.Errorf("a NEW over the budget:\n%s", m.body)
	}
	if n := mine(); n != 3 {
		t.Errorf("ann is in %d games; want g1, n1 and n2", n)
	}
	carl, dora, erin := e.addr("carl", "example.net"), e.addr("dora", "example.net"), e.addr("erin", "example.net")
	_, raw := e.msg(e.ann, "invites", "INVITE n1 "+carl+", "+dora)
	e.deliver(raw)
	e.settle()
	ms := e.take()
	if len(to(ms, carl)) != 1 || len(to(ms, dora)) != 1 {
		t.Errorf("INVITE within the budget: %v to %v", subjects(ms), recipients(ms))
	}
	_, raw = e.msg(e.ann, "more invites", "INVITE n2 "+erin+", "+e.addr("fred", "example.net"))
	e.deliver(raw)
	e.settle()
	ms = e.take()
	if len(ms) != 1 || !strings.Contains(flat(to(ms, e.ann)[0]), "one player may invite at most 3 addresses within a day, and this INVITE would pass that") {
		t.Errorf("INVITE over the budget: %v to %v", subjects(ms), recipients(ms))
	}
}
