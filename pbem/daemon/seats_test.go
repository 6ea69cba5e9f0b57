package daemon_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"orrery/engine"
	"orrery/engine/enginetest/toy"
	"orrery/engine/game"
	"orrery/engine/store"
	"orrery/pbem/bounce"
	"orrery/pbem/daemon"
	"orrery/pbem/imapin"
	"orrery/pbem/outbox"
	"orrery/pbem/pbemtest"
	"orrery/pbem/policy"
)

// Issue 18 by mail: seats that change hands, self-service commands and
// their refusals, bounces, reminders and digests.

func none(t *testing.T, mails []string, addr string) {
	t.Helper()
	if len(mails) != 0 {
		t.Errorf("%d mails to %s, want none: %q", len(mails), addr, mails)
	}
}

// TestReplaceByMailToBotAndBack: GM REPLACE … BOT gives bob's seat to the
// computer, which plays it at once; bob is told why, loses access, and ann
// is told; GM REPLACE … ADDRESS gives it to carl, who is welcomed with the
// seat's report and reads its history without the press bob got.
func TestReplaceByMailToBotAndBack(t *testing.T) {
	h, now := clocked(t, game.Settings{Early: true})
	ann, bob := h.secret("ann"), h.secret("bob")
	h.say("ann@example.org", "[g2 "+ann+"]", "PRESS TO bob\nmeet me at the finish\nEND")
	*now = now.Add(time.Hour)
	sent := func() []pbemtest.Mail { h.gm("GM REPLACE g2 bob BOT away for a month"); return h.flush() }()
	one(t, to(sent, "bob@example.org"), "bob", "You no longer hold your seat", "The GM gave your seat bob in g2 to the computer: away for a month.")
	some(t, to(sent, "ann@example.org"), "ann", "bob of g2 is now played by the computer")
	some(t, to(sent, gmAddr), "gm", "Done: GM REPLACE g2 bob BOT away for a month")
	// The old secret no longer works; the bot's orders are in, so ann's
	// complete the step.
	h.say("bob@example.org", "[g2 "+bob+"]", "push 3")
	if r := h.say("ann@example.org", "[g2 "+ann+"]", "push 2"); len(to(r, "bob@example.org")) != 0 {
		t.Errorf("the old address got mail of the seat: %q", to(r, "bob@example.org"))
	}
	g, _ := h.d.Service().Get(context.Background(), "g2")
	if g.Step != 1 {
		t.Fatalf("the bot did not play: step %d", g.Step)
	}
	*now = now.Add(time.Hour)
	h.gm("GM REPLACE g2 bob carl@example.org")
	sent = h.flush()
	welcome := one(t, to(sent, "carl@example.org"), "carl", "Welcome to", "You take this seat over from its earlier player", "turn 2")
	if strings.Contains(welcome, "meet me at the finish") {
		t.Errorf("carl's welcome holds bob's press:\n%s", welcome)
	}
	g, _ = h.d.Service().Get(context.Background(), "g2")
	carl, _ := g.PlayerByName("bob")
	hist := one(t, to(h.say("carl@example.org", "[g2 "+carl.Secret+"]", "HISTORY g2 1"), "carl@example.org"), "carl", "turn 1")
	if strings.Contains(hist, "meet me at the finish") {
		t.Errorf("the new holder reads the press of the old one:\n%s", hist)
	}
	if a := one(t, to(h.say("ann@example.org", "[g2 "+ann+"]", "HISTORY g2 1"), "ann@example.org"), "ann", "turn 1"); !strings.Contains(a, "meet me at the finish") {
		t.Errorf("ann lost the press she sent:\n%s", a)
	}
	// The GM may name the seat by the address that holds it now.
	*now = now.Add(time.Hour)
	h.gm("GM REPLACE g2 carl@example.org dora@example.org carl moved away")
	sent = h.flush()
	one(t, to(sent, "carl@example.org"), "carl", "The GM gave your seat bob in g2 to a new player: carl moved away.")
	one(t, to(sent, "dora@example.org"), "dora", "Welcome to")
	res, err := h.d.Service().Verify(context.Background(), "g2")
	if err != nil || !res.OK() {
		t.Fatalf("verify: %v %v", err, res.Problems)
	}
}

// TestAbandonedSeatGoesToTheBotByMail: under --abandoned bot the seat of a
// player who stopped sending goes to the computer; the player, the others
// and the GM are told; the game waits for nobody.
func TestAbandonedSeatGoesToTheBotByMail(t *testing.T) {
	h, now := clocked(t, game.Settings{Early: true, TurnLength: 24 * time.Hour, AbandonAfter: 1, Abandoned: "bot"})
	h.say("ann@example.org", "[g2 "+h.secret("ann")+"]", "push 1")
	*now = now.Add(25 * time.Hour)
	h.tick()
	sent := h.flush()
	some(t, to(sent, "bob@example.org"), "bob", "You no longer hold your seat", "so the computer plays your", "seat bob from now on")
	some(t, to(sent, "ann@example.org"), "ann", "bob has sent no orders in g2 for 1 step in a row: the computer plays the seat", "from now on.")
	some(t, to(sent, gmAddr), "gm", "A seat is abandoned", "the computer plays the seat")
	h.say("ann@example.org", "[g2 "+h.secret("ann")+"]", "push 1")
	if g, _ := h.d.Service().Get(context.Background(), "g2"); g.Step != 2 {
		t.Errorf("the game waits for the bot's seat: step %d", g.Step)
	}
}

// TestOpenSeatByMail: under --abandoned open anyone may JOIN the seat of a
// player who stopped sending; LIST shows it; JOIN of a game with no open
// seat is refused.
func TestOpenSeatByMail(t *testing.T) {
	h, now := clocked(t, game.Settings{Early: true, TurnLength: 24 * time.Hour, AbandonAfter: 1, Abandoned: "open"})
	h.say("ann@example.org", "[g2 "+h.secret("ann")+"]", "push 1")
	*now = now.Add(25 * time.Hour)
	h.tick()
	sent := h.flush()
	some(t, to(sent, "bob@example.org"), "bob", "Your seat is offered to other players", "Until someone takes it, orders you send still count.")
	some(t, to(sent, "ann@example.org"), "ann", "the seat is open for anyone", "to take (send JOIN g2)")
	one(t, to(h.say("eve@example.org", "games", "LIST"), "eve@example.org"), "eve", "seat bob is open: send JOIN g2 to take it")
	one(t, to(h.say("eve@example.org", "join", "JOIN g1"), "eve@example.org"), "eve", "game g1 has started and has no seat open to take")
	*now = now.Add(time.Minute)
	h.confirm(h.say("dora@example.org", "join", "JOIN g2"), "dora@example.org") // JOIN asks its address to confirm
	sent = h.flush()
	one(t, to(sent, "dora@example.org"), "dora", "Welcome to", "you have a seat in game g2 (Toy Race) as bob", "You take this seat over")
	one(t, to(sent, "bob@example.org"), "bob", "Your seat bob in g2 was taken by a new player.")
	some(t, to(sent, gmAddr), "gm", "dora@example.org took the open seat bob of g2.")
	some(t, to(sent, "ann@example.org"), "ann", "bob of g2 is now played by a new player.")
	one(t, to(h.say("eve@example.org", "join", "JOIN g2"), "eve@example.org"), "eve", "has no seat open to take")
}

// TestMyGamesByMail: MY GAMES lists the games the address plays or
// observes, its seat, whether its orders are in, who is awaited, the
// deadline in its time zone, and its record; a stranger gets an empty list.
func TestMyGamesByMail(t *testing.T) {
	h, _ := clocked(t, game.Settings{Early: true, TurnLength: 48 * time.Hour})
	ann := h.secret("ann")
	h.say("ann@example.org", "[g2 "+ann+"]", "push 1")
	if _, err := h.d.Service().Create(context.Background(), game.CreateRequest{ID: "g3", Ruleset: "toy",
		Players: []game.PlayerSpec{{Name: "cyd", Email: "cyd@example.org"}}}); err != nil {
		t.Fatal(err)
	}
	h.confirm(h.say("ann@example.org", "watch", "OBSERVE g3"), "ann@example.org")
	h.say("ann@example.org", "tz", "SET TZ Europe/Moscow")
	m := one(t, to(h.say("ann@example.org", "mine", "MY GAMES"), "ann@example.org"), "ann", "YOUR GAMES", "YOUR RECORD", "2 games")
	for _, want := range []string{
		"g1           Toy Race, seat ann: turn 1, race; your orders are missing; waiting for ann, bob.",
		"g2           Toy Race, seat ann: turn 1, race; your orders are in; waiting for bob; deadline",
		"MSK (12:00 UTC)",
		"g3           Toy Race, observed: turn 1, race; waiting for cyd.",
	} {
		if !strings.Contains(strings.Join(strings.Fields(m), " "), strings.Join(strings.Fields(want), " ")) {
			t.Errorf("MY GAMES lacks %q:\n%s", want, m)
		}
	}
	one(t, to(h.say("eve@example.org", "mine", "MY GAMES"), "eve@example.org"), "eve", "(you play and observe no game here now)", "You have not played a game here yet.")
	// LIST from a player starts with the same.
	one(t, to(h.say("ann@example.org", "list", "LIST"), "ann@example.org"), "ann", "YOUR GAMES", "GAMES OPEN TO JOIN")
}

// TestSecretByMail: SECRET mails a seat's secret to the seat's own
// address only: to the asker when it is theirs; to the owner, with a word
// that someone else asked, when a seat is named from elsewhere (the asker
// learns nothing of it); never to a stranger asking for their own; at
// most 3 times a day.
func TestSecretByMail(t *testing.T) {
	h := newHarness(t, func(c *daemon.Config) { c.RepliesPerHour = 1000 })
	sent := h.say("ann@example.org", "lost", "SECRET g1")
	some(t, to(sent, "ann@example.org"), "ann", "Your secret in g1 is on its way to you")
	some(t, to(sent, "ann@example.org"), "ann", "Your secret in g1", "Your secret is: "+h.secret("ann"))
	// A stranger asking for "their" secret gets nothing, and nobody is mailed.
	sent = h.say("eve@example.org", "lost", "SECRET g1")
	one(t, to(sent, "eve@example.org"), "eve", "I read SECRET g1 as asking for your secret in game g1, but you hold no")
	if len(sent) != 1 {
		t.Errorf("a stranger's SECRET sent %d mails", len(sent))
	}
	// Naming bob's seat: bob gets it, told someone else asked; eve only
	// that it went to the seat's address.
	sent = h.say("eve@example.org", "lost", "SECRET g1 bob")
	e := one(t, to(sent, "eve@example.org"), "eve", "If seat bob of g1 is yours, its secret is on its way to the address the seat", "is held with, not to this one")
	if strings.Contains(e, h.secret("bob")) || strings.Contains(e, "bob@example.org") {
		t.Errorf("the asker learned the secret or the address:\n%s", e)
	}
	one(t, to(sent, "bob@example.org"), "bob", "Someone asked, from another address than this one", "Your secret is: "+h.secret("bob"))
	h.say("bob@example.org", "lost", "SECRET g1")
	h.say("bob@example.org", "lost", "SECRET g1")
	sent = h.say("bob@example.org", "lost", "SECRET g1")
	one(t, to(sent, "bob@example.org"), "bob", "the secret of seat bob in g1 was sent 3 times in the last day")
	one(t, to(h.say("ann@example.org", "lost", "SECRET g1 nosuch"), "ann@example.org"), "ann", `game g1 has no seat "nosuch"`)
}

// TestNewGameByMail: who may open games (players by default), how many at
// once, a game's creator INVITEs and STARTs it, and nobody else may.
func TestNewGameByMail(t *testing.T) {
	h := newHarness(t, func(c *daemon.Config) { c.RepliesPerHour, c.MaxOpenGames = 1000, 2 })
	sec := "SECRET " + h.secret("ann") + "\n" // NEW needs a seat's secret (TestNewNeedsProof)
	one(t, to(h.say("eve@example.org", "new", "NEW toy 3"), "eve@example.org"), "eve", "games are opened by those who play here")
	one(t, to(h.say("ann@example.org", "new", "NEW chess"), "ann@example.org"), "ann", `there is no ruleset "chess" (LIST names them)`)
	one(t, to(h.say("ann@example.org", "new", sec+"NEW toy 3 speed=9"), "ann@example.org"), "ann", `toy has no option "speed"`)
	m := one(t, to(h.say("ann@example.org", "new", sec+"NEW toy 3 id=race finish=10 seat=annie"), "ann@example.org"), "ann",
		"Your new game is open for players", "You opened game race (Toy Race) with 3 seats, and hold seat annie.")
	_ = m
	g, err := h.d.Service().Get(context.Background(), "race")
	if err != nil || !g.Signup || g.Options["finish"] != "10" || g.Settings.TurnLength != 72*time.Hour || g.Creator != "ann@example.org" {
		t.Fatalf("race: %+v %v", g, err)
	}
	sent := h.say("ann@example.org", "invite", "INVITE race carl@example.org, dora@example.org")
	one(t, to(sent, "ann@example.org"), "ann", "I invited carl@example.org, dora@example.org to race.")
	one(t, to(sent, "carl@example.org"), "carl", "You are invited to a game", "ann@example.org invites you to play race, a game of Toy Race: 1 of 3", "JOIN race")
	one(t, to(h.say("bob@example.org", "invite", "INVITE race eve@example.org"), "bob@example.org"), "bob", "only the player who opened race may invite others to it")
	one(t, to(h.say("bob@example.org", "start", "START race"), "bob@example.org"), "bob", "only the player who opened race may start it early")
	h.confirm(h.say("carl@example.org", "join", "JOIN race"), "carl@example.org")
	h.flush()
	sent = h.say("ann@example.org", "start", "START race")
	some(t, to(sent, "ann@example.org"), "ann", "Game race starts with 2 players")
	some(t, to(sent, "ann@example.org"), "ann", "Welcome to Toy Race, annie")
	one(t, to(sent, "carl@example.org"), "carl", "Welcome to Toy Race, carl")
	if g, _ := h.d.Service().Get(context.Background(), "race"); g.Signup || g.Seats != 2 {
		t.Errorf("race after START: signup %v, %d seats", g.Signup, g.Seats)
	}
	// Two games open at once, no more.
	h.say("ann@example.org", "new", sec+"NEW toy 2")
	h.say("ann@example.org", "new", sec+"NEW toy 2")
	one(t, to(h.say("ann@example.org", "new", sec+"NEW toy 2"), "ann@example.org"), "ann", "you have opened 2 games that are not over")
}

// TestOnlyTheGMOpensGames: with games.open_by gm, a player's NEW is
// refused and the GM's is not.
func TestOnlyTheGMOpensGames(t *testing.T) {
	h := newHarness(t, func(c *daemon.Config) {
		c.OpenGames, c.GM, c.GMSecret = "gm", "gm@example.org", "gm-secret"
	})
	h.flush()
	one(t, to(h.say("ann@example.org", "new", "NEW toy 2"), "ann@example.org"), "ann", "on this server only the game master opens games")
	some(t, to(h.say("gm@example.org", "new", "SECRET gm-secret\nNEW toy 2 id=gms"), "gm@example.org"), "gm", "You opened game gms")
}

// TestRemindersOffAndDigest: SET REMINDERS off stops reminders; SET DIGEST
// on turns every report and the game's news into one mail a day, at 07:00
// in the reader's zone, sent once.
func TestRemindersOffAndDigest(t *testing.T) {
	h, now := clocked(t, game.Settings{Early: true, TurnLength: 24 * time.Hour, Reminders: []time.Duration{2 * time.Hour}})
	h.say("bob@example.org", "set", "SET REMINDERS off")
	*now = now.Add(22*time.Hour + time.Minute)
	h.tick()
	sent := h.flush()
	one(t, to(sent, "ann@example.org"), "ann", "Reminder: your orders are due")
	none(t, to(sent, "bob@example.org"), "bob")

	h.say("ann@example.org", "set", "SET DIGEST on")
	for i := 0; i < 2; i++ {
		h.say("ann@example.org", "[g2 "+h.secret("ann")+"]", "push 1")
		sent = h.say("bob@example.org", "[g2 "+h.secret("bob")+"]", "push 2")
		some(t, to(sent, "bob@example.org"), "bob", "report for bob")
		for _, m := range to(sent, "ann@example.org") {
			if strings.Contains(m, "X-Orrery-Kind: report") {
				t.Errorf("ann, on DIGEST, got a report:\n%s", m)
			}
		}
	}
	h.gm("GM MESSAGE g2 The server moves on Tuesday.")
	for _, m := range to(h.flush(), "ann@example.org") {
		if strings.Contains(m, "server moves") {
			t.Errorf("the GM's message came at once to ann, on DIGEST")
		}
	}
	if err := h.d.Maintain(context.Background()); err != nil {
		t.Fatal(err)
	}
	none(t, to(h.flush(), "ann@example.org"), "ann") // not 07:00 yet
	*now = time.Date(now.Year(), now.Month(), now.Day()+1, 7, 0, 0, 0, time.UTC)
	if err := h.d.Maintain(context.Background()); err != nil {
		t.Fatal(err)
	}
	d := one(t, to(h.flush(), "ann@example.org"), "ann", "Your daily digest: 1 game", "Step 1, turn 2", "Step 2, turn 3",
		"Message from the game master", "The server moves on Tuesday.", "RESEND g2")
	_ = d
	if err := h.d.Maintain(context.Background()); err != nil {
		t.Fatal(err)
	}
	none(t, to(h.flush(), "ann@example.org"), "ann")
}

// dsnMail is a Postfix delivery status notification about our mail id to
// rcpt, with status (5.1.1: a hard bounce; 4.2.2 delayed: a soft one).
// dsnMail is a DSN reporting on the mail with Message-ID id to rcpt,
// delivered to the address envelope (a VERP address of ours, as Dovecot
// writes it in Delivered-To; "" for none: a DSN addressed to the bot's
// own address, or forged).
func dsnMail(h *harness, envelope, id, rcpt, action, status string) imapin.Message {
	h.n++
	delivered := ""
	if envelope != "" {
		delivered = "Delivered-To: " + envelope + "\r\n"
	}
	raw := fmt.Sprintf("Return-Path: <>\r\n%sFrom: MAILER-DAEMON@mx.example.org (Mail Delivery System)\r\nTo: %s\r\n"+
		"Subject: Undelivered Mail Returned to Sender\r\nAuto-Submitted: auto-replied\r\nMessage-Id: <dsn%d@mx.example.org>\r\n"+
		"Date: Sun, 22 Nov 2026 12:00:00 +0000\r\nMIME-Version: 1.0\r\n"+
		"Content-Type: multipart/report; report-type=delivery-status; boundary=\"B%d\"\r\n\r\n"+
		"--B%d\r\nContent-Type: text/plain\r\n\r\nI'm sorry to have to inform you that your message could not be delivered.\r\n"+
		"--B%d\r\nContent-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; mx.example.org\r\n\r\n"+
		"Final-Recipient: rfc822; %s\r\nAction: %s\r\nStatus: %s\r\nDiagnostic-Code: smtp; 552 %s Mailbox full\r\n\r\n"+
		"--B%d\r\nContent-Type: text/rfc822-headers\r\n\r\nFrom: Orrery <%s>\r\nTo: %s\r\nMessage-ID: <%s>\r\nSubject: report\r\n\r\n--B%d--\r\n",
		delivered, botAddr, h.n, h.n, h.n, h.n, rcpt, action, status, status, h.n, botAddr, rcpt, id, h.n)
	return imapin.Message{Mailbox: "INBOX", UIDValidity: 1, UID: uint32(h.n), Raw: []byte(raw)}
}

// sentTo is the mails among sent to addr, each with its envelope sender
// (pbemtest.Mail.From: the MAIL FROM the daemon gave).
func sentTo(sent []pbemtest.Mail, addr string) []pbemtest.Mail {
	var out []pbemtest.Mail
	for _, m := range sent {
		if len(m.To) == 1 && m.To[0] == addr {
			out = append(out, m)
		}
	}
	return out
}

func idOf(m pbemtest.Mail) string { return strings.Trim(header(m.Data, "Message-ID"), "<>") }

// bounceCount is addr's bounces as kept.
func bounceCount(h *harness, addr string) (hard, soft int, unreachable bool) {
	h.st.View(context.Background(), func(tx store.Tx) error {
		s, _ := bounce.Load(tx, addr)
		hard, soft = s.Count()
		unreachable = !s.Unreachable.IsZero()
		return nil
	})
	return
}

// TestBouncesByMail: DSNs answering our mail are counted against the
// address the bounced mail went to, told by the VERP address they were
// delivered to; a mail counts once, however many DSNs cite it (a hard
// bounce replaces a soft one); three hard bounces of three mails make it
// unreachable: it is mailed no more, its seats play their defaults (the
// bot takes the one in g2, --abandoned bot, only after the window of 3
// steps), and the GM and the other players are told. DSNs not addressed
// to a valid token of ours count for nothing, whatever Message-ID they
// quote; a mail from the address makes it reachable again and gives it its
// seats back.
func TestBouncesByMail(t *testing.T) {
	h, now := clocked(t, game.Settings{Early: true, Abandoned: "bot"})
	var sent []pbemtest.Mail
	for _, body := range []string{"push 1", "push 2", "push 3"} {
		h.say("ann@example.org", "[g2 "+h.secret("ann")+"]", body)
		sent = append(sent, h.say("bob@example.org", "[g2 "+h.secret("bob")+"]", body)...)
	}
	bobs, anns := sentTo(sent, "bob@example.org"), sentTo(sent, "ann@example.org")
	if len(bobs) < 3 || len(anns) < 1 {
		t.Fatalf("%d mails to bob, %d to ann", len(bobs), len(anns))
	}
	seqs := map[string]bool{}
	for _, m := range append(bobs, anns...) {
		if !strings.HasPrefix(m.From, "orrery+b-") || !strings.HasSuffix(m.From, "@pbem.test") || seqs[m.From] {
			t.Fatalf("envelope sender %q: not a VERP address of its own", m.From)
		}
		seqs[m.From] = true
		if strings.Contains(string(m.Data), "+b-") {
			t.Fatalf("the VERP address is in the mail itself:\n%s", m.Data)
		}
	}
	m1, m2, m3 := bobs[0], bobs[1], bobs[2]
	forged := strings.Replace(m1.From, "orrery+b-", "orrery+b-a", 1)
	for _, m := range []imapin.Message{
		dsnMail(h, m1.From, idOf(m1), "bob@example.org", "delayed", "4.2.2"),                                           // soft
		dsnMail(h, "", idOf(m1), "bob@example.org", "failed", "5.2.2"),                                                 // no token: the Message-ID alone
		dsnMail(h, forged, idOf(m1), "bob@example.org", "failed", "5.2.2"),                                             // a made-up token
		dsnMail(h, "orrery+b-aaaaaaaaaaaaaaaaaaaa@pbem.test", idOf(m1), "bob@example.org", "failed", "5.2.2"),          // another
		dsnMail(h, m1.From, idOf(m1), "bob@example.org", "failed", "5.2.2"),                                            // m1 given up on: hard
		dsnMail(h, m1.From, idOf(m1), "bob@example.org", "failed", "5.2.2"),                                            // m1 again
		dsnMail(h, m1.From, "ffffffffffffffffffffffff.g2.e0s1.orrery@pbem.test", "bob@example.org", "failed", "5.2.2"), // m1 again, quoting another
		dsnMail(h, strings.ToUpper(m1.From), idOf(m1), "bob@example.org", "failed", "5.2.2"),                           // m1 again, case folded
		dsnMail(h, m2.From, idOf(m2), "bob@example.org", "failed", "5.2.2"),                                            // m2
	} {
		h.handle(m)
		*now = now.Add(time.Hour)
	}
	if hard, soft, un := bounceCount(h, "bob@example.org"); hard != 2 || soft != 0 || un {
		t.Fatalf("after two mails bounced for good: %d hard, %d soft, unreachable %v", hard, soft, un)
	}
	if a := to(h.flush(), botAddr); len(a) != 0 {
		t.Errorf("a DSN was answered: %q", a)
	}
	// ann's mail bouncing says nothing of bob, even when it names him.
	h.handle(dsnMail(h, anns[0].From, idOf(m3), "bob@example.org", "failed", "5.1.1"))
	if hard, _, _ := bounceCount(h, "ann@example.org"); hard != 1 {
		t.Errorf("ann's bounced mail: %d hard bounces of ann", hard)
	}
	if _, _, un := bounceCount(h, "bob@example.org"); un {
		t.Fatal("ann's bounced mail made bob unreachable")
	}
	h.handle(dsnMail(h, m3.From, idOf(m3), "bob@example.org", "failed", "5.2.2"))
	if _, _, un := bounceCount(h, "bob@example.org"); !un {
		t.Fatal("three hard bounces within 14 days did not make bob's address unreachable")
	}
	sent = h.flush()
	said(t, to(sent, gmAddr), "gm", "A player's mail bounces", "Mail to bob in g2 bounces, so they get no reports: the seat plays its defaults, and if they do not write again within 3 steps the computer plays it from then on.")
	said(t, to(sent, gmAddr), "gm", "A player's mail bounces", "Mail to bob in g1 bounces, so they get no reports: the seat plays its defaults, and if they do not write again within 3 steps it is marked abandoned.")
	some(t, to(sent, "ann@example.org"), "ann", "Mail to bob in g2 bounces")
	none(t, to(sent, "bob@example.org"), "bob")
	g, _ := h.d.Service().Get(context.Background(), "g2")
	if p, _ := g.PlayerByName("bob"); p.Bot || g.Bouncing("bob") == nil {
		t.Fatalf("bob's seat right after his mail bounced: %+v", p)
	}
	// The game goes on without waiting for bob or mailing him.
	sent = h.say("ann@example.org", "[g2 "+h.secret("ann")+"]", "push 2")
	none(t, to(sent, "bob@example.org"), "bob")
	if g2, _ := h.d.Service().Get(context.Background(), "g2"); g2.Step != g.Step+1 {
		t.Errorf("the game waited for bob's seat: step %d, was %d", g2.Step, g.Step)
	}
	// bob writes again: his address works, he is told what happened, and
	// both seats are his as before.
	sent = h.say("bob@example.org", "hello", "MY GAMES")
	mine := to(sent, "bob@example.org")
	said(t, mine, "bob", "Your address works again", "the seats I kept for you are yours as before", "g1 Toy Race, seat bob", "g2 Toy Race, seat bob")
	said(t, mine, "bob", "[g2 "+h.secret("bob")+"] Your address works again", "Meanwhile your defaults were played at step 4;")
	said(t, mine, "bob", "[g1 ", "Your address works again", "No step was played by your defaults meanwhile;")
	if hard, _, un := bounceCount(h, "bob@example.org"); hard != 0 || un {
		t.Errorf("bob's bounces after he wrote: %d hard, unreachable %v", hard, un)
	}
}

// TestBouncesWithoutVERP: under bounces.verp: off the envelope sender is
// the bot's own address and the quoted Message-ID tells the mail, but a
// mail counts once however many DSNs cite it, and a DSN must pass
// sender_auth: under strict, three forged reports on three of bob's mails
// count for nothing.
func TestBouncesWithoutVERP(t *testing.T) {
	for _, strict := range []bool{false, true} {
		t.Run(map[bool]string{false: "sender_auth off", true: "sender_auth strict"}[strict], func(t *testing.T) {
			h := newHarness(t, func(c *daemon.Config) {
				c.Bounces.NoVERP = true
				c.RepliesPerHour = 1000
				if strict {
					c.Policy = policy.Config{AuthServID: "mx.pbem.test", SenderAuth: policy.AuthStrict}
				}
			})
			// Under strict the players' mail is vouched for by our
			// receiving server; the DSNs below are not.
			say := func(who, subject, body string) []pbemtest.Mail {
				h.handle(h.mail(who, subject, body, "Authentication-Results: mx.pbem.test; spf=pass smtp.mailfrom="+who))
				return h.flush()
			}
			var sent []pbemtest.Mail
			sent = append(sent, h.flush()...)
			for _, body := range []string{"push 1", "push 2", "push 3"} {
				say("ann@example.org", "[g1 "+h.secret("ann")+"]", body)
				sent = append(sent, say("bob@example.org", "[g1 "+h.secret("bob")+"]", body)...)
			}
			bobs := sentTo(sent, "bob@example.org")
			if len(bobs) < 3 {
				t.Fatalf("%d mails to bob", len(bobs))
			}
			for _, m := range bobs {
				if m.From != botAddr {
					t.Fatalf("envelope sender %q under verp off", m.From)
				}
			}
			for range 3 {
				h.handle(dsnMail(h, "", idOf(bobs[0]), "bob@example.org", "failed", "5.2.2"))
			}
			if hard, _, _ := bounceCount(h, "bob@example.org"); hard != map[bool]int{false: 1, true: 0}[strict] {
				t.Errorf("three DSNs citing one mail: %d hard bounces", hard)
			}
			h.handle(dsnMail(h, "", idOf(bobs[1]), "bob@example.org", "failed", "5.2.2"))
			h.handle(dsnMail(h, "", idOf(bobs[2]), "bob@example.org", "failed", "5.2.2"))
			if _, _, un := bounceCount(h, "bob@example.org"); un != !strict {
				t.Errorf("three DSNs citing three mails: unreachable %v", un)
			}
			if strict {
				// A report our server vouches for counts.
				m := dsnMail(h, "", idOf(bobs[0]), "bob@example.org", "failed", "5.2.2")
				m.Raw = append([]byte("Authentication-Results: mx.pbem.test; spf=pass smtp.helo=mx.example.org; dkim=pass header.d=mx.example.org\r\n"), m.Raw...)
				h.handle(m)
				if hard, _, _ := bounceCount(h, "bob@example.org"); hard != 1 {
					t.Errorf("an authenticated DSN: %d hard bounces", hard)
				}
			}
		})
	}
}

// TestForgedDSNIsCheap: a forged DSN of 3,400 recipient blocks (250 KB)
// quoting a mail sent to its author, and addressed to that mail's real
// VERP address, counts once, as one event, and grows the database by a
// few KB at most.
func TestForgedDSNIsCheap(t *testing.T) {
	h := newHarness(t, func(c *daemon.Config) { c.RepliesPerHour = 1000 })
	sent := h.say("ann@example.org", "hello", "HELP")
	m := sentTo(sent, "ann@example.org")[0]
	size := func() int {
		n := 0
		h.st.View(context.Background(), func(tx store.Tx) error {
			if b := tx.Bucket(store.BucketMail).Bucket(store.BucketMailBounces); b != nil {
				b.ForEach(func(k, v []byte) error { n += len(k) + len(v); return nil })
			}
			return nil
		})
		return n
	}
	for range 3 {
		raw := forgedDSN(m.From, idOf(m), "ann@example.org", 3400)
		if len(raw) < 240<<10 {
			t.Fatalf("the forged DSN is %d bytes", len(raw))
		}
		h.n++
		h.handle(imapin.Message{Mailbox: "INBOX", UIDValidity: 1, UID: uint32(h.n), Raw: raw})
	}
	if hard, soft, un := bounceCount(h, "ann@example.org"); hard != 1 || soft != 0 || un {
		t.Errorf("three 3,400-block DSNs on one mail: %d hard, %d soft, unreachable %v", hard, soft, un)
	}
	if n := size(); n > 2<<10 {
		t.Errorf("the bounces bucket holds %d bytes", n)
	}
}

// forgedDSN is issue 39's attack: a report of n recipient blocks naming
// rcpt, quoting the Message-ID id, delivered to envelope ("" for none).
func forgedDSN(envelope, id, rcpt string, n int) []byte {
	var b strings.Builder
	if envelope != "" {
		b.WriteString("Delivered-To: " + envelope + "\r\n")
	}
	fmt.Fprintf(&b, "From: MAILER-DAEMON@evil.example\r\nTo: %s\r\nSubject: Undelivered Mail Returned to Sender\r\nMessage-ID: <forged%d@evil.example>\r\n"+
		"MIME-Version: 1.0\r\nContent-Type: multipart/report; report-type=delivery-status; boundary=\"b\"\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\nNo.\r\n"+
		"--b\r\nContent-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; mx.evil.example\r\n", botAddr, time.Now().UnixNano())
	for i := range n {
		fmt.Fprintf(&b, "\r\nFinal-Recipient: rfc822; %s\r\nAction: failed\r\nStatus: 5.1.1\r\nDiagnostic-Code: smtp; 550 5.1.1 no such user, block %d\r\n", rcpt, i)
	}
	fmt.Fprintf(&b, "--b\r\nContent-Type: text/rfc822-headers\r\n\r\nFrom: Orrery <%s>\r\nTo: %s\r\nMessage-ID: <%s>\r\nSubject: x\r\n\r\n--b--\r\n", botAddr, rcpt, id)
	return []byte(b.String())
}

// failing sends through the in-process server except to the addresses it
// refuses for good, as a server answering 550 does.
// refusing wraps a sender in failing.
func refusing(refuse map[string]bool) func(outbox.Sender) outbox.Sender {
	return func(s outbox.Sender) outbox.Sender { return failing{s, refuse} }
}

type failing struct {
	outbox.Sender
	refuse map[string]bool
}

func (f failing) Send(ctx context.Context, mails []outbox.Mail) []error {
	errs := f.Sender.Send(ctx, mails)
	for i, m := range mails {
		if f.refuse[m.To[0]] {
			errs[i] = &outbox.Permanent{Err: fmt.Errorf("550 5.1.1 <%s>: Recipient address rejected: User unknown", m.To[0])}
		}
	}
	return errs
}

// TestMailGivenUpOnIsReportedToTheGM: the outbox gives up on a mail the
// server refuses for good; the GM is told, once, and it counts as a hard
// bounce of the address.
func TestMailGivenUpOnIsReportedToTheGM(t *testing.T) {
	h := rig{send: refusing(map[string]bool{"bob@example.org": true}), queue: &outbox.Options{},
		config: daemon.Config{GM: "gm@example.org"},
		game: &game.CreateRequest{ID: "g1", Ruleset: "toy",
			Players: []game.PlayerSpec{{Name: "ann", Email: "ann@example.org"}, {Name: "bob", Email: "bob@example.org"}}},
	}.start(t)
	srv, st, q := h.srv, h.st, h.q
	for i := 0; i < 2; i++ {
		if _, err := q.RunOnce(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	gm := to(srv.Sent(), "gm@example.org")
	one(t, gm, "gm", "A mail could not be delivered", "I gave up on a mail to bob@example.org (game g1, queued", "User unknown")
	var hard int
	st.View(context.Background(), func(tx store.Tx) error {
		s, _ := bounce.Load(tx, "bob@example.org")
		hard, _ = s.Count()
		return nil
	})
	if hard != 1 {
		t.Errorf("%d hard bounces of bob counted, want 1", hard)
	}
}

// TestMailCheckNamesBouncesAndComplaints: orrery mail check says what a
// DSN is and that it is counted, not answered, and what a feedback report
// is and when it counts.
func TestMailCheckNamesBouncesAndComplaints(t *testing.T) {
	for _, c := range []struct {
		file string // under ../bounce/testdata
		why  []string
	}{
		{"dsn/exim-user-unknown.eml", []string{"a hard bounce of cyd@example.com (5.0.0)"}},
		{"arf/microsoft-jmrp.eml", []string{"a feedback report (abuse, from Microsoft JMRP/1.0)", "VERP"}},
	} {
		t.Run(c.file, func(t *testing.T) {
			raw, err := os.ReadFile("../bounce/testdata/" + c.file)
			if err != nil {
				t.Fatal(err)
			}
			v := daemon.Inspect(raw, []engine.Ruleset{toy.Ruleset()}, "", 0)
			if v.Reply {
				t.Errorf("answered: verdict %+v", v)
			}
			for _, w := range c.why {
				if !strings.Contains(v.Why, w) {
					t.Errorf("the verdict lacks %q: %+v", w, v)
				}
			}
		})
	}
}
