package daemon_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"orrery/engine/game"
	"orrery/pbem/daemon"
	"orrery/pbem/pbemtest"
	"orrery/pbem/settings"
)

// says is one with the mail's lines joined, spacing aside: a phrase may
// be filled over two lines (answers are filled to 78 columns).
func says(t *testing.T, mails []string, addr string, phrases ...string) {
	t.Helper()
	one(t, flat(mails), addr, phrases...)
}

// TestStrangerDomainsAndReserve: the strangers' daily budget is kept per
// domain as well as per person and overall: one domain's many addresses
// get at most its share, subdomains included; once the general part is
// spent, HELP and OBSERVE go unanswered, but a newcomer's JOIN is still
// asked to confirm, from the reserve, of which each domain takes its own
// share; the next day there is room again.
func TestStrangerDomainsAndReserve(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	h := newHarness(t, func(c *daemon.Config) {
		c.Now = func() time.Time { return now }
		c.StrangerGlobal, c.StrangerDomain, c.StrangerReserve = 10, 3, 2 // 8 for anything, 2 for JOIN only, 1 a domain
	})
	if _, err := h.d.Service().Create(context.Background(), game.CreateRequest{ID: "open", Ruleset: "toy", Seats: 6,
		Players: []game.PlayerSpec{{Name: "ann", Email: "ann@example.org"}}}); err != nil {
		t.Fatal(err)
	}
	h.flush()
	answered := func(from, body string) bool {
		t.Helper()
		return len(to(h.say(from, "hello", body), from)) == 1
	}
	n := 0
	for i := range 6 {
		// Addresses and subdomains of one organisational domain.
		if answered(fmt.Sprintf("eve%d@m%d.evil.example", i, i%2), "OBSERVE g1") {
			n++
		}
	}
	if n != 3 {
		t.Errorf("one domain's six addresses got %d answers; its share is 3", n)
	}
	for i := range 5 {
		if !answered(fmt.Sprintf("someone@d%d.example", i), "HELP") {
			t.Errorf("a stranger of another domain, %d, got no answer before the general budget was spent", i)
		}
	}
	// The 8 of the general budget are spent.
	if answered("new@fresh.example", "HELP") {
		t.Error("a HELP was answered beyond the general budget")
	}
	if answered("new@fresh.example", "OBSERVE g1") {
		t.Error("an OBSERVE was answered from the part kept for JOIN")
	}
	sent := h.say("new@fresh.example", "join", "JOIN open")
	says(t, to(sent, "new@fresh.example"), "new@fresh.example", "CONFIRM")
	// Confirmed, the seat is theirs, and its answer is a player's.
	h.confirm(sent, "new@fresh.example")
	some(t, to(h.flush(), "new@fresh.example"), "new@fresh.example", "open")
	if g, _ := h.d.Service().Get(context.Background(), "open"); len(g.Players) != 2 {
		t.Fatalf("after the confirmation, players %v", g.Players)
	}
	if answered("other@fresh.example", "JOIN open") {
		t.Error("a second JOIN of one domain drew on the reserve beyond its share")
	}
	if !answered("joe@late.example", "JOIN open") {
		t.Error("a JOIN of another domain got no answer with the reserve not spent")
	}
	if answered("kim@last.example", "JOIN open") {
		t.Error("a JOIN was answered with the reserve spent")
	}
	now = now.Add(24 * time.Hour)
	if !answered("kim@last.example", "HELP") {
		t.Error("the next day, a stranger's HELP got no answer")
	}
}

// TestNewNeedsProof: NEW opens a game in its sender's name only with the
// secret of a seat the sender holds, or a mail sender authentication
// vouches for; else it is refused, nothing opened, with what to do, in
// English and in Russian.
func TestNewNeedsProof(t *testing.T) {
	h := newHarness(t, func(c *daemon.Config) { c.RepliesPerHour, c.MaxOpenGames = 1000, 5 })
	h.flush()
	games := func() int {
		ids, err := h.d.Service().GamesOf(context.Background(), "ann@example.org")
		if err != nil {
			t.Fatal(err)
		}
		return len(ids)
	}
	says(t, to(h.say("ann@example.org", "new", "NEW toy 2"), "ann@example.org"), "ann",
		"NEW opens a game in your name, so it needs the secret of a seat you hold here", "and this mail has none",
		"write a line SECRET and the secret of a seat you hold here")
	// Another seat's secret, from ann's address: not ann's.
	says(t, to(h.say("ann@example.org", "new", "SECRET "+h.secret("bob")+"\nNEW toy 2"), "ann@example.org"), "ann",
		"the secret in your mail is not that of a seat you hold from this address")
	if n := games(); n != 1 {
		t.Fatalf("ann is in %d games after NEW without her secret; want 1", n)
	}
	if _, err := settings.Put(context.Background(), h.st, "ann@example.org", settings.Lang, "ru"); err != nil {
		t.Fatal(err)
	}
	says(t, to(h.say("ann@example.org", "new", "NEW toy 2"), "ann@example.org"), "ann",
		"NEW открывает игру от вашего имени", "напишите строку SECRET")
	says(t, to(h.say("ann@example.org", "new", "SECRET "+h.secret("ann")+"\nNEW toy 2"), "ann@example.org"), "ann", "toy-")
	if n := games(); n != 2 {
		t.Fatalf("ann is in %d games after NEW with her secret; want 2", n)
	}

	// With sender authentication on, a mail our server found aligned
	// (SPF pass for ann's domain) needs no secret; the refusal names
	// both ways.
	h = newHarness(t, byDMARC(pbemtest.DNS{}), func(c *daemon.Config) {
		c.RepliesPerHour, c.MaxOpenGames = 1000, 5
	})
	h.flush()
	says(t, to(h.say("ann@example.org", "new", "NEW toy 2"), "ann@example.org"), "ann",
		"or a mail your domain vouches for (DMARC)", "signs its mail (DKIM)")
	h.handle(h.mail("ann@example.org", "new", "NEW toy 2 id=vouched", "Authentication-Results: "+ourMX+"; spf=pass smtp.mailfrom=ann@example.org"))
	some(t, to(h.flush(), "ann@example.org"), "ann", "You opened game vouched")
}

// TestCreatorBudget: one person opens at most NewPerDay games and invites
// at most InvitesPerDay addresses by mail in any 24 hours; beyond, the
// answer says when they may try again (in their language), and nothing
// is opened or mailed; a day later there is room again.
func TestCreatorBudget(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	h := newHarness(t, func(c *daemon.Config) {
		c.Now = func() time.Time { return now }
		c.RepliesPerHour, c.MaxOpenGames, c.NewPerDay, c.InvitesPerDay = 1000, 10, 2, 3
	})
	h.flush()
	sec := "SECRET " + h.secret("ann") + "\n"
	some(t, to(h.say("ann@example.org", "new", sec+"NEW toy 3 id=a1"), "ann@example.org"), "ann", "You opened game a1")
	now = now.Add(time.Hour)
	some(t, to(h.say("ann@example.org", "new", sec+"NEW toy 3 id=a2"), "ann@example.org"), "ann", "You opened game a2")
	says(t, to(h.say("ann@example.org", "new", sec+"NEW toy 3 id=a3"), "ann@example.org"), "ann",
		"you have opened 2 games by mail within a day", "you can try again after Mon 2026-11-23 12:00 UTC")
	if _, err := h.d.Service().Get(context.Background(), "a3"); err == nil {
		t.Error("a3 was opened over the budget")
	}

	sent := h.say("ann@example.org", "invite", "INVITE a1 carl@example.org, dora@example.org")
	says(t, to(sent, "ann@example.org"), "ann", "I invited carl@example.org, dora@example.org to a1.")
	now = now.Add(time.Hour)
	sent = h.say("ann@example.org", "invite", "INVITE a2 erin@example.org, fred@example.org")
	says(t, to(sent, "ann@example.org"), "ann", "one player may invite at most 3 addresses within a day, and this INVITE would pass that", "you can try again after Mon 2026-11-23 13:00 UTC")
	none(t, to(sent, "erin@example.org"), "erin")
	says(t, to(h.say("ann@example.org", "invite", "INVITE a2 g1@example.org, g2@example.org, g3@example.org, g4@example.org"), "ann@example.org"), "ann",
		"one player may invite at most 3 addresses a day, and this INVITE names more new ones", "invite fewer at once")
	// One more fits.
	sent = h.say("ann@example.org", "invite", "INVITE a2 erin@example.org")
	says(t, to(sent, "ann@example.org"), "ann", "I invited erin@example.org to a2.")

	if _, err := settings.Put(context.Background(), h.st, "ann@example.org", settings.Lang, "ru"); err != nil {
		t.Fatal(err)
	}
	says(t, to(h.say("ann@example.org", "new", sec+"NEW toy 3 id=a3"), "ann@example.org"), "ann",
		"за сутки вы открыли письмами 2 игры", "попробуйте снова после пн 2026-11-23 12:00 UTC")

	now = time.Date(2026, 11, 23, 12, 0, 1, 0, time.UTC)
	some(t, to(h.say("ann@example.org", "new", sec+"NEW toy 3 id=a3"), "ann@example.org"), "ann", "a3")
	if _, err := h.d.Service().Get(context.Background(), "a3"); err != nil {
		t.Errorf("a day later, a3 was not opened: %v", err)
	}
}

// TestCreatorBudgetInABatch: an INVITE that the budget refuses only once
// its new addresses are known (inside the change) spoils its batch's
// shared transaction; the batch is done again around it, and every mail
// of it gets its answer, the invitations within the budget sent once.
func TestCreatorBudgetInABatch(t *testing.T) {
	h := newHarness(t, func(c *daemon.Config) { c.RepliesPerHour, c.InvitesPerDay = 1000, 3 })
	h.flush()
	some(t, to(h.say("ann@example.org", "new", "SECRET "+h.secret("ann")+"\nNEW toy 4 id=a1"), "ann@example.org"), "ann", "You opened game a1")
	h.batch(h.mail("ann@example.org", "invite", "INVITE a1 carl@example.org, dora@example.org"),
		h.mail("ann@example.org", "more", "INVITE a1 erin@example.org, fred@example.org"),
		h.mail("bob@example.org", "[g1 "+h.secret("bob")+"] status", "STATUS"))
	sent := h.flush()
	for _, a := range []string{"carl@example.org", "dora@example.org"} {
		one(t, to(sent, a), a, "JOIN a1")
	}
	none(t, to(sent, "erin@example.org"), "erin")
	some(t, to(sent, "ann@example.org"), "ann", "I invited carl@example.org, dora@example.org to a1.")
	some(t, to(sent, "ann@example.org"), "ann", "one player may invite at most 3 addresses within a day")
	if n := len(to(sent, "bob@example.org")); n != 1 {
		t.Errorf("bob got %d answers to his STATUS in the batch, want 1", n)
	}
}
