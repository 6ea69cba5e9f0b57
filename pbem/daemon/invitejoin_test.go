package daemon_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"orrery/pbem/daemon"
	"orrery/pbem/pbemtest"
)

// TestJoinAnsweringAnInvitation: a JOIN that replies to the invitation,
// from the invited address, takes the seat at once; a JOIN from another
// address, or naming only the game's root id, or another's invitation, or
// after the invitation's life, asks to confirm as any JOIN does (issue 43,
// consent.go).
func TestJoinAnsweringAnInvitation(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	h := newHarness(t, func(c *daemon.Config) {
		c.RepliesPerHour = 1000
		c.Now = func() time.Time { return now }
	})
	h.flush()
	h.say("ann@example.org", "new", "SECRET "+h.secret("ann")+"\nNEW toy 5 id=race")
	sent := h.say("ann@example.org", "invite", "INVITE race carl@example.org, dora@example.org, erin@example.org")
	invitation := func(addr string) (id, subject string) {
		t.Helper()
		for _, m := range sent {
			if len(m.To) == 1 && m.To[0] == addr && strings.Contains(string(m.Data), "invites you to play race") {
				return header(m.Data, "Message-ID"), header(m.Data, "Subject")
			}
		}
		t.Fatalf("no invitation went to %s", addr)
		return "", ""
	}
	carlID, carlSubject := invitation("carl@example.org")
	doraID, _ := invitation("dora@example.org")
	erinID, _ := invitation("erin@example.org")
	root := "<game-race.orrery@" + strings.SplitN(botAddr, "@", 2)[1] + ">"
	seated := func(addr string) bool {
		t.Helper()
		g, err := h.d.Service().Get(context.Background(), "race")
		if err != nil {
			t.Fatal(err)
		}
		_, ok := g.PlayerByEmail(addr)
		return ok
	}
	reply := func(from, body string, hdr ...string) []pbemtest.Mail {
		t.Helper()
		h.handle(h.mail(from, "Re: "+carlSubject, body, hdr...))
		return h.flush()
	}
	asks := func(sent []pbemtest.Mail, addr string) {
		t.Helper()
		one(t, to(sent, addr), addr, "Please confirm: JOIN race")
	}

	// Not the invited address, though it names carl's invitation.
	asks(reply("mallory@example.org", "JOIN race", "In-Reply-To: "+carlID), "mallory@example.org")
	// carl, but naming only what every mail of the game names.
	asks(reply("carl@example.org", "JOIN race", "In-Reply-To: "+root, "References: "+root), "carl@example.org")
	// carl, answering dora's invitation.
	asks(reply("carl@example.org", "JOIN race", "In-Reply-To: "+doraID), "carl@example.org")
	if seated("carl@example.org") || seated("mallory@example.org") {
		t.Fatal("seated without a confirmation")
	}

	// carl's reply to his own invitation: seated now, answered as a
	// confirmed JOIN is, and nothing asks him to confirm.
	got := to(reply("Carl <carl@example.org>", "JOIN race carlos", "In-Reply-To: "+carlID, "References: "+root+" "+carlID), "carl@example.org")
	if !seated("carl@example.org") {
		t.Fatalf("carl's reply to his invitation did not seat him: %q", got)
	}
	some(t, got, "carl", "joined race as carlos")
	for _, m := range got {
		if strings.Contains(m, "Please confirm") {
			t.Errorf("carl was asked to confirm: %s", m)
		}
	}
	// Again: one seat a person, as for any JOIN.
	one(t, to(reply("carl@example.org", "JOIN race", "In-Reply-To: "+carlID), "carl@example.org"), "carl", "you play carlos in game race already")

	// dora's reply by References alone (a client that drops In-Reply-To).
	reply("dora@example.org", "JOIN race", "References: "+root+" "+doraID)
	if !seated("dora@example.org") {
		t.Error("dora's reply to her invitation (References) did not seat her")
	}

	// erin answers after the invitation's life: asked to confirm.
	now = now.Add(15 * 24 * time.Hour)
	asks(reply("erin@example.org", "JOIN race", "In-Reply-To: "+erinID), "erin@example.org")
	if seated("erin@example.org") {
		t.Error("a lapsed invitation seated erin")
	}
}
