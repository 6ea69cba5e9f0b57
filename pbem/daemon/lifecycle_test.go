package daemon_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"orrery/engine/game"
	"orrery/engine/store"
	"orrery/pbem/daemon"
	"orrery/pbem/imapin"
)

const gmAddr = "gm@example.org"

// clocked is a harness with a clock the test moves, a GM with a secret,
// and a second game g2 with deadlines, reminders and a grace period, its
// welcome mails sent; tune is applied after.
func clocked(t *testing.T, settings game.Settings, tune ...func(*daemon.Config)) (*harness, *time.Time) {
	t.Helper()
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	h := rig{tune: []func(*daemon.Config){func(c *daemon.Config) {
		c.Now = func() time.Time { return now }
		c.GM, c.GMSecret = "Game Master <"+gmAddr+">", "gm-secret"
		c.RepliesPerHour = 1000
	}}}.tuned(tune).start(t)
	g, err := h.d.Service().Create(context.Background(), game.CreateRequest{ID: "g2", Ruleset: "toy",
		Players:  []game.PlayerSpec{{Name: "ann", Email: "ann@example.org"}, {Name: "bob", Email: "bob@example.org"}},
		Options:  map[string]string{"finish": "30"},
		Settings: &settings})
	if err != nil {
		t.Fatal(err)
	}
	h.g = g
	h.flush()
	return h, &now
}

// one returns the single mail to addr among mails, failing unless there is
// exactly one and it holds every phrase.
func one(t *testing.T, mails []string, addr string, phrases ...string) string {
	t.Helper()
	if len(mails) != 1 {
		t.Fatalf("%d mails to %s, want 1: %q", len(mails), addr, mails)
	}
	for _, p := range phrases {
		if !strings.Contains(mails[0], p) {
			t.Errorf("the mail to %s lacks %q:\n%s", addr, p, mails[0])
		}
	}
	return mails[0]
}

// flat is mails with each one's lines joined and its spacing made single,
// for phrases that may be filled over two lines.
func flat(mails []string) []string {
	var out []string
	for _, m := range mails {
		out = append(out, strings.Join(strings.Fields(m), " "))
	}
	return out
}

// some fails unless one of mails holds every phrase.
func some(t *testing.T, mails []string, addr string, phrases ...string) {
	t.Helper()
next:
	for _, m := range mails {
		for _, p := range phrases {
			if !strings.Contains(m, p) {
				continue next
			}
		}
		return
	}
	t.Errorf("no mail to %s holds %q: %q", addr, phrases, mails)
}

func (h *harness) gm(body string) imapin.Disposition {
	return h.handle(h.mail("Game Master <"+gmAddr+">", "gm", "SECRET gm-secret\n"+body))
}

func (h *harness) tick() {
	h.t.Helper()
	if _, err := h.d.Service().Tick(context.Background()); err != nil {
		h.t.Fatal(err)
	}
}

func TestNoticesReachPlayersByMail(t *testing.T) {
	h, now := clocked(t, game.Settings{Early: true, TurnLength: 48 * time.Hour, Reminders: []time.Duration{24 * time.Hour},
		Grace: 6 * time.Hour, TellLate: true, Press: "signed"})
	h.handle(h.mail("ann@example.org", "[g2 "+h.secret("ann")+"]", "push 1"))
	h.flush()

	// A reminder for bob only, exactly once.
	*now = now.Add(25 * time.Hour)
	h.tick()
	h.tick()
	sent := h.flush()
	one(t, to(sent, "bob@example.org"), "bob", "Reminder: your orders are due")
	if m := to(sent, "ann@example.org"); len(m) != 0 {
		t.Errorf("ann sent orders but got %q", m)
	}
	// The deadline passes: bob is late, ann is told who is late.
	*now = now.Add(24 * time.Hour)
	h.tick()
	sent = h.flush()
	one(t, to(sent, "bob@example.org"), "bob", "Your orders are late")
	one(t, to(sent, "ann@example.org"), "ann", "bob")

	// The GM moves the deadline by mail; everyone is told why.
	if d := h.gm("GM DEADLINE g2 +24h bob is ill"); d != imapin.Processed {
		t.Fatalf("GM mail filed as %v", d)
	}
	sent = h.flush()
	for _, p := range []string{"ann", "bob"} {
		one(t, to(sent, p+"@example.org"), p, "The deadline moved", "bob is ill")
	}
	gmMails := to(sent, gmAddr)
	if len(gmMails) != 2 || !strings.Contains(strings.Join(gmMails, "\n"), "Done: GM DEADLINE g2 +24h bob is ill") {
		t.Errorf("the GM should get the notice and the confirmation: %q", gmMails)
	}

	// Pause and resume, with the reason.
	h.gm("GM PAUSE g2 the map is wrong")
	sent = h.flush()
	one(t, to(sent, "ann@example.org"), "ann", "paused", "the map is wrong")
	h.gm("GM RESUME g2")
	one(t, to(h.flush(), "bob@example.org"), "bob", "resumed")

	// A GM message.
	h.gm("GM MESSAGE g2 Welcome to the slow lane.")
	sent = h.flush()
	for _, p := range []string{"ann", "bob"} {
		one(t, to(sent, p+"@example.org"), p, "Message from the game master", "Welcome to the slow lane.")
	}

	// Replace: carol gets a welcome with bob's new secret; ann is told;
	// bob's old address and secret are refused afterwards.
	oldSecret := h.secret("bob")
	h.gm("GM REPLACE g2 bob carol@example.org")
	sent = h.flush()
	g, err := h.d.Service().Get(context.Background(), "g2")
	if err != nil {
		t.Fatal(err)
	}
	bob, _ := g.PlayerByName("bob")
	if bob.Secret == oldSecret || bob.Email != "carol@example.org" {
		t.Fatalf("bob's seat after replace: %+v", bob)
	}
	one(t, to(sent, "carol@example.org"), "carol", "Welcome to", "Your secret is: "+bob.Secret)
	one(t, to(sent, "ann@example.org"), "ann", "bob of g2 is now played by a new player")
	// bob is told, and gets nothing of the seat any more.
	one(t, to(sent, "bob@example.org"), "bob", "You no longer hold your seat", "The GM gave your seat bob in g2 to a new player: no reason given.")
	h.handle(h.mail("bob@example.org", "[g2 "+oldSecret+"]", "push 3"))
	if g2, _ := h.d.Service().Get(context.Background(), "g2"); len(g2.Answered) != len(g.Answered) {
		t.Errorf("the old address's orders were taken: %v", g2.Answered)
	}
	reply := one(t, to(h.flush(), "bob@example.org"), "bob")
	if strings.Contains(reply, "Orders received") {
		t.Errorf("the old address was answered as a player:\n%s", reply)
	}
	h.handle(h.mail("carol@example.org", "[g2 "+bob.Secret+"]", "push 3"))
	some(t, to(h.flush(), "carol@example.org"), "carol", "Orders received")

	// Kick: everyone left is told.
	h.gm("GM KICK g2 bob")
	sent = h.flush()
	one(t, to(sent, "ann@example.org"), "ann", "removed bob")

	// Resign by mail: the other player is told.
	g1, _ := h.d.Service().Get(context.Background(), "g1")
	ann, _ := g1.PlayerByName("ann")
	h.handle(h.mail("ann@example.org", "[g1 "+ann.Secret+"]", "RESIGN"))
	sent = h.flush()
	one(t, to(sent, "ann@example.org"), "ann", "You resigned")
	one(t, to(sent, "bob@example.org"), "bob", "ann resigned from g1")
}

// TestReminderSaysWhatAndWhere (issue 44): a reminder mail says what is
// still expected of its reader and links to their private page.
func TestReminderSaysWhatAndWhere(t *testing.T) {
	h, now := clocked(t, game.Settings{Early: true, TurnLength: 48 * time.Hour, Reminders: []time.Duration{24 * time.Hour}},
		func(c *daemon.Config) {
			c.WebLink = func(tx store.Tx, g *game.Game, p game.Player) (string, error) {
				return "https://orrery.example.org/p/" + g.ID + "/" + p.Name, nil
			}
		})
	var ask string
	for _, p := range h.g.PromptsFor("bob") {
		if p.Kind.Blocks() {
			ask = p.Ask
		}
	}
	h.handle(h.mail("ann@example.org", "[g2 "+h.secret("ann")+"]", "push 1"))
	h.flush()
	*now = now.Add(25 * time.Hour)
	h.tick()
	one(t, to(h.flush(), "bob@example.org"), "bob", "Reminder: your orders are due", "Still expected of you: "+ask,
		"https://orrery.example.org/p/g2/bob")
}

func TestRollbackByMail(t *testing.T) {
	h, _ := clocked(t, game.Settings{Early: true})
	h.handle(h.mail("ann@example.org", "[g2 "+h.secret("ann")+"]", "push 1"))
	h.handle(h.mail("bob@example.org", "[g2 "+h.secret("bob")+"]", "push 1"))
	h.flush()
	g, _ := h.d.Service().Get(context.Background(), "g2")
	if g.Turn < 2 {
		t.Fatalf("turn %d after both pushed", g.Turn)
	}
	h.gm("GM ROLLBACK g2 TURN 1 ann's orders were misread")
	sent := h.flush()
	for _, p := range []string{"ann", "bob"} {
		some(t, to(sent, p+"@example.org"), p, "Subject: [g2 "+h.secret(p)+"] The game was rolled back", "ann's orders")
		some(t, to(sent, p+"@example.org"), p, "Turn 1, race: report for "+p)
		for _, m := range to(sent, p+"@example.org") {
			if strings.Contains(m, "Welcome") {
				t.Errorf("a rollback to the setup welcomes %s again:\n%s", p, m)
			}
		}
	}
	if g, _ = h.d.Service().Get(context.Background(), "g2"); g.Turn != 1 {
		t.Errorf("turn %d after rollback to turn 1", g.Turn)
	}
}

func TestGMCommandsNeedAddressAndSecret(t *testing.T) {
	h, _ := clocked(t, game.Settings{Early: true})
	for _, m := range []imapin.Message{
		h.mail("Game Master <"+gmAddr+">", "gm", "SECRET wrong\nGM PAUSE g2 sneaky"),
		h.mail("ann@example.org", "gm", "SECRET gm-secret\nGM PAUSE g2 sneaky"),
		h.mail("Game Master <"+gmAddr+">", "gm", "GM PAUSE g2 sneaky"),
	} {
		if d := h.handle(m); d != imapin.Rejected {
			t.Errorf("filed as %v, want rejected", d)
		}
	}
	g, _ := h.d.Service().Get(context.Background(), "g2")
	if g.Paused {
		t.Fatal("a refused GM command paused the game")
	}
	sent := h.flush()
	if m := to(sent, "bob@example.org"); len(m) != 0 {
		t.Errorf("players were told of a refused command: %q", m)
	}
	for _, m := range append(to(sent, gmAddr), to(sent, "ann@example.org")...) {
		if !strings.Contains(m, "nothing was applied") && !strings.Contains(m, "X-Orrery-Kind: gm-alert") {
			t.Errorf("refusal does not say nothing was applied:\n%s", m)
		}
	}
	// The right address and secret work, and ADVANCE FORCE resolves.
	h.gm("GM ADVANCE g2")
	if m := one(t, to(h.flush(), gmAddr), "gm", "nothing was due"); !strings.Contains(m, "ann, bob") {
		t.Errorf("ADVANCE should name who is awaited:\n%s", m)
	}
	h.gm("GM ADVANCE g2 FORCE")
	if g, _ = h.d.Service().Get(context.Background(), "g2"); g.Step != 1 {
		t.Errorf("step %d after ADVANCE FORCE", g.Step)
	}
	h.flush()
	h.gm("GM RESEND g2 bob")
	sent = h.flush()
	one(t, to(sent, "bob@example.org"), "bob", "report for bob", "X-Orrery-Step: 1")
	one(t, to(sent, gmAddr), "gm", "went again to bob")
	if m := to(sent, "ann@example.org"); len(m) != 0 {
		t.Errorf("GM RESEND g2 bob mailed ann: %q", m)
	}
	h.gm("GM RESEND g2 TURN 1")
	sent = h.flush()
	one(t, to(sent, "ann@example.org"), "ann", "Turn 1, race: report for ann")
	one(t, to(sent, "bob@example.org"), "bob", "Turn 1, race: report for bob")
}

// TestHelpListsGMCommandsToTheGMOnly: a player's HELP lists what a player
// may send; the GM's commands go to the GM alone, who is known as for a
// GM command (the GM address with the GM secret).
func TestHelpListsGMCommandsToTheGMOnly(t *testing.T) {
	h, _ := clocked(t, game.Settings{Early: true})
	const gmLine = "GM PAUSE <game> [reason]"
	for _, c := range []struct {
		from, body, addr string
		gm               bool
	}{
		{"ann@example.org", "HELP", "ann@example.org", false},
		{"ann@example.org", "SECRET gm-secret\nHELP", "ann@example.org", false},
		{"stranger@example.org", "HELP toy", "stranger@example.org", false},
		{"Game Master <" + gmAddr + ">", "HELP", gmAddr, false},
		{"Game Master <" + gmAddr + ">", "SECRET wrong\nHELP", gmAddr, false},
		{"Game Master <" + gmAddr + ">", "SECRET gm-secret\nHELP", gmAddr, true},
		{"Game Master <" + gmAddr + ">", "SECRET gm-secret\nHELP toy", gmAddr, true},
	} {
		m := one(t, to(h.say(c.from, "help", c.body), c.addr), c.addr, "HELP [ruleset]")
		if got := strings.Contains(m, gmLine); got != c.gm {
			t.Errorf("%s writing %q: GM's commands listed %v, want %v:\n%s", c.from, c.body, got, c.gm, m)
		}
	}
}

func TestPressByMail(t *testing.T) {
	for _, tc := range []struct {
		press string
		gm    bool     // copy press to the GM
		want  []string // in carl's mail
		not   string
	}{
		{press: "signed", want: []string{"Press from ann to carl", "Meet me at the line."}},
		{press: "grey", gm: true, want: []string{"Anonymous press to carl"}, not: "ann"},
		{press: "grey", want: []string{"Anonymous press to carl", "Meet me at the line."}, not: "ann"},
		{press: "off"},
	} {
		name := tc.press
		if tc.gm {
			name += "-to-gm"
		}
		t.Run(name, func(t *testing.T) {
			h, _ := clocked(t, game.Settings{Early: true, Press: tc.press})
			if _, err := h.d.Service().Create(context.Background(), game.CreateRequest{ID: "g3", Ruleset: "toy",
				Players: []game.PlayerSpec{{Name: "ann", Email: "ann@example.org"}, {Name: "bob", Email: "bob@example.org"},
					{Name: "carl", Email: "carl@example.org"}},
				Settings: &game.Settings{Early: true, Press: tc.press, PressToGM: tc.gm}}); err != nil {
				t.Fatal(err)
			}
			h.flush()
			g, _ := h.d.Service().Get(context.Background(), "g3")
			ann, _ := g.PlayerByName("ann")
			h.handle(h.mail("ann@example.org", "[g3 "+ann.Secret+"] hi", "PRESS TO carl\nMeet me at the line.\nEND\npush 2"))
			sent := h.flush()
			if m := to(sent, "bob@example.org"); len(m) != 0 {
				t.Errorf("bob got press meant for carl: %q", m)
			}
			reply := strings.Join(to(sent, "ann@example.org"), "\n")
			if !strings.Contains(reply, "are accepted") {
				t.Errorf("the orders beside the press were not taken:\n%s", reply)
			}
			if tc.press == "off" {
				if m := to(sent, "carl@example.org"); len(m) != 0 {
					t.Errorf("press went out in a game without press: %q", m)
				}
				if !strings.Contains(reply, "allows no press") {
					t.Errorf("ann is not told press is off:\n%s", reply)
				}
				return
			}
			if !strings.Contains(reply, "Your press in game g3 went to carl") {
				t.Errorf("ann is not told where her press went:\n%s", reply)
			}
			if strings.Contains(reply, "] Press\r\n") {
				t.Errorf("the sender's confirmation looks like press received:\n%s", reply)
			}
			m := one(t, to(sent, "carl@example.org"), "carl", append([]string{"] Press\r\n"}, tc.want...)...)
			_, body, _ := strings.Cut(m, "\n\n")
			if tc.not != "" && strings.Contains(strings.ToLower(body), tc.not) {
				t.Errorf("grey press names its sender:\n%s", m)
			}
			gmMails := to(sent, gmAddr)
			if tc.gm {
				// The GM sees who sent even grey press.
				one(t, gmMails, "gm", "Press from ann to carl", "Meet me at the line.")
			} else if len(gmMails) != 0 {
				t.Errorf("the GM got press the game does not copy: %q", gmMails)
			}
			// PRESS TO ALL reaches both others.
			h.handle(h.mail("ann@example.org", "[g3 "+ann.Secret+"] hi", "PRESS TO ALL\nHello all.\nEND"))
			sent = h.flush()
			one(t, to(sent, "bob@example.org"), "bob", "Hello all.")
			one(t, to(sent, "carl@example.org"), "carl", "Hello all.")
			// The press is in carl's HISTORY, grey press without its
			// sender; bob's HISTORY has only the press he got.
			carl, _ := g.PlayerByName("carl")
			h.handle(h.mail("carl@example.org", "[g3 "+carl.Secret+"] history", "HISTORY g3"))
			hist := one(t, to(h.flush(), "carl@example.org"), "carl", "PRESS YOU SENT OR GOT", "Meet me at the line.", "Hello all.")
			if named := strings.Contains(hist, "from ann to carl"); named != (tc.press == "signed") {
				t.Errorf("HISTORY names the sender: %v, want %v (press %s):\n%s", named, tc.press == "signed", tc.press, hist)
			}
			bob, _ := g.PlayerByName("bob")
			h.handle(h.mail("bob@example.org", "[g3 "+bob.Secret+"] history", "HISTORY g3"))
			if hist := one(t, to(h.flush(), "bob@example.org"), "bob", "Hello all."); strings.Contains(hist, "Meet me at the line.") {
				t.Errorf("bob's HISTORY shows press meant for carl:\n%s", hist)
			}
		})
	}
}

func TestVacationObserveResend(t *testing.T) {
	h, _ := clocked(t, game.Settings{Early: true, Vacation: "defaults", MaxVacation: 14 * 24 * time.Hour})
	h.handle(h.mail("ann@example.org", "[g2 "+h.secret("ann")+"]", "VACATION FROM 2026-12-20 TO 2027-01-03"))
	sent := h.flush()
	some(t, to(sent, "ann@example.org"), "ann", "Vacation of ann noted", "2026-12-20", "capped")
	some(t, to(sent, gmAddr), "gm", "Vacation of ann")
	g, _ := h.d.Service().Get(context.Background(), "g2")
	if len(g.Vacations) != 1 || g.Vacations[0].Player != "ann" {
		t.Errorf("vacations: %+v", g.Vacations)
	}

	// An observer gets the public events of each step and the public
	// board: no private event (ann's motto), no private status.
	h.handle(h.mail("Olga <olga@example.org>", "watch", "OBSERVE g2"))
	asked := h.flush()
	one(t, to(asked, "olga@example.org"), "olga", "Please confirm: OBSERVE g2", "CONFIRM")
	h.confirm(asked, "olga@example.org")
	one(t, to(h.flush(), "olga@example.org"), "olga", "You now receive the public reports of game g2")
	// The motto answers ann's anytime prompt though the push is open.
	h.handle(h.mail("ann@example.org", "[g2 "+h.secret("ann")+"]", "motto slow and steady"))
	h.handle(h.mail("ann@example.org", "[g2 "+h.secret("ann")+"]", "push 2"))
	h.handle(h.mail("bob@example.org", "[g2 "+h.secret("bob")+"]", "push 1"))
	sent = h.flush()
	var reports []string
	for _, m := range to(sent, "olga@example.org") {
		if strings.Contains(m, "X-Orrery-Kind: observer") {
			reports = append(reports, m)
		}
	}
	if len(reports) == 0 {
		t.Fatalf("olga got no report: %q", to(sent, "olga@example.org"))
	}
	all := strings.Join(reports, "\n")
	if !strings.Contains(all, "bob pushes 1+") || strings.Contains(all, "new motto") {
		t.Errorf("olga's reports should hold the public events only:\n%s", all)
	}
	if !strings.Contains(all, "ann      ---") || strings.Contains(all, "slow and steady") {
		t.Errorf("olga's reports should show the public board (the track) and no motto:\n%s", all)
	}
	some(t, to(sent, "ann@example.org"), "ann", "ann has a new motto")
	// Public news reaches observers; a player's private notice does not.
	h.gm("GM PAUSE g2 a short break")
	h.gm("GM DEADLINE g2 +2h bob asked")
	sent = h.flush()
	some(t, to(sent, "olga@example.org"), "olga", "paused", "a short break")
	h.handle(h.mail("olga@example.org", "stop", "UNOBSERVE g2"))
	h.flush()
	if g, _ = h.d.Service().Get(context.Background(), "g2"); len(g.Observers) != 0 {
		t.Errorf("observers after UNOBSERVE: %v", g.Observers)
	}

	// RESEND: ann's own last report again, and a past turn's.
	h.handle(h.mail("ann@example.org", "[g2 "+h.secret("ann")+"]", "RESEND"))
	one(t, to(h.flush(), "ann@example.org"), "ann", "report for ann", "ann pushes 2+")
	h.handle(h.mail("ann@example.org", "[g2 "+h.secret("ann")+"]", "RESEND g2 1"))
	one(t, to(h.flush(), "ann@example.org"), "ann", "report for ann", "turn 1")
	h.handle(h.mail("bob@example.org", "[g2 "+h.secret("ann")+"]", "RESEND"))
	if m := to(h.flush(), "bob@example.org"); len(m) != 1 || strings.Contains(m[0], "report for") {
		t.Errorf("RESEND with another's secret: %q", m)
	}
}

func TestAbandonedSeatTellsTheGM(t *testing.T) {
	h, now := clocked(t, game.Settings{Early: true, TurnLength: 24 * time.Hour, AbandonAfter: 1})
	h.handle(h.mail("ann@example.org", "[g2 "+h.secret("ann")+"]", "push 1"))
	h.flush()
	*now = now.Add(25 * time.Hour)
	h.tick()
	sent := h.flush()
	some(t, to(sent, gmAddr), "gm", "Subject: [g2] A seat is abandoned", "bob")
	some(t, to(sent, "bob@example.org"), "bob", "report for bob")
	for _, m := range to(sent, "ann@example.org") {
		if strings.Contains(m, "abandon") {
			t.Errorf("ann was told of the GM's notice:\n%s", m)
		}
	}
}

func TestGMOrdersStatusVacationByMail(t *testing.T) {
	h, _ := clocked(t, game.Settings{Early: true, Vacation: "defaults", MaxVacation: 30 * 24 * time.Hour})
	// Orders phoned in: the GM enters them for ann, recorded as the GM's.
	h.gm("GM ORDERS g2 ann\npush 3\nEND")
	sent := h.flush()
	one(t, to(sent, gmAddr), "gm", "PUSH 3", "accepted")
	if m := to(sent, "ann@example.org"); len(m) != 0 {
		t.Errorf("ann got %q", m)
	}
	h.gm("GM ORDERS g2 bob\nfly away\nEND")
	one(t, to(h.flush(), gmAddr), "gm", "Not accepted", "fly away")
	h.gm("GM ORDERS g2 bob@example.org\npush 1\nEND") // a seat may be named by the address that holds it
	sent = h.flush()
	some(t, to(sent, "ann@example.org"), "ann", "report for ann", "ann pushes 3+")
	if g, _ := h.d.Service().Get(context.Background(), "g2"); g.Step != 1 {
		t.Fatalf("step %d after the GM's orders for both", g.Step)
	}
	// The GM's status shows the private events too.
	h.handle(h.mail("ann@example.org", "[g2 "+h.secret("ann")+"]", "motto onward"))
	h.flush()
	h.gm("GM STATUS g2")
	one(t, to(h.flush(), gmAddr), "gm", "ann has a new motto")
	// A vacation declared by the GM.
	h.gm("GM VACATION g2 BOB@example.org FROM 2026-12-01 TO 2026-12-05")
	sent = h.flush()
	some(t, to(sent, "bob@example.org"), "bob", "Vacation of bob noted", "2026-12-06 00:00")
	// Multi-line GM MESSAGE.
	h.gm("GM MESSAGE g2\nFirst line.\nSecond line.\nEND")
	one(t, to(h.flush(), "ann@example.org"), "ann", "First line.", "Second line.")
}

func TestGMMailSeenTwiceAppliesOnce(t *testing.T) {
	h, _ := clocked(t, game.Settings{Early: true})
	m := h.mail("Game Master <"+gmAddr+">", "gm", "SECRET gm-secret\nGM MESSAGE g2 Only once.\nGM PAUSE g2 once")
	h.handle(m)
	m.UID += 100 // the same mail again, as after a crash before it was moved
	h.handle(m)
	sent := h.flush()
	some(t, to(sent, "ann@example.org"), "ann", "Only once.")
	if n := len(to(sent, "ann@example.org")); n != 2 {
		t.Errorf("ann got %d mails, want the message and the pause once each", n)
	}
}

// A game whose creator chose --observers gm refuses OBSERVE by mail with
// the way out (ask the GM); the GM still subscribes observers.
func TestObserversOnlyThroughTheGM(t *testing.T) {
	h, _ := clocked(t, game.Settings{Early: true, Observers: "gm"})
	h.handle(h.mail("Olga <olga@example.org>", "watch", "OBSERVE g2"))
	one(t, to(h.flush(), "olga@example.org"), "olga", "only through its GM", "ask the GM")
	g, _ := h.d.Service().Get(context.Background(), "g2")
	if len(g.Observers) != 0 {
		t.Fatalf("observers after a refused OBSERVE: %v", g.Observers)
	}
	// The GM adds olga by mail; she gets the next step's public report.
	h.gm("GM OBSERVE g2 Olga@Example.org\nGM OBSERVE g2 olga@example.org maybe")
	one(t, to(h.flush(), gmAddr), "gm", "Done: GM OBSERVE g2 Olga@Example.org", "GM OBSERVE needs an address, and OFF")
	g, _ = h.d.Service().Get(context.Background(), "g2")
	if len(g.Observers) != 1 || g.Observers[0] != "olga@example.org" {
		t.Errorf("observers after the GM added olga: %v", g.Observers)
	}
	h.handle(h.mail("ann@example.org", "[g2 "+h.secret("ann")+"] t", "push 1"))
	one(t, to(h.say("bob@example.org", "[g2 "+h.secret("bob")+"] t", "push 2"), "olga@example.org"), "olga", "Turn 2")
	h.gm("GM OBSERVE g2 olga@example.org OFF")
	h.flush()
	if g, _ = h.d.Service().Get(context.Background(), "g2"); len(g.Observers) != 0 {
		t.Errorf("observers after GM OBSERVE … OFF: %v", g.Observers)
	}
	if _, err := h.d.Service().Create(context.Background(), game.CreateRequest{ID: "bad", Ruleset: "toy", Seats: 2, Settings: &game.Settings{Observers: "everyone"}}); err == nil || !strings.Contains(err.Error(), "must be open or gm") {
		t.Errorf("creating a game with observers=everyone: %v", err)
	}
}

// GM LIST, SHOW, PLAYERS, LOG, EXPORT and VERIFY by mail run the matching
// `orrery game` command through the daemon's GMQuery and mail its output
// back verbatim, to the GM only; bad lines are refused naming the fix, and
// without a GMQuery (or without the GM secret) nothing is run.
func TestGMQueriesByMail(t *testing.T) {
	h, _ := clocked(t, game.Settings{Early: true})
	h.gm("GM LOG g2")
	one(t, to(h.flush(), gmAddr), "gm", "answers GM LOG only on its command line", "orrery game log g2")

	var ran [][]string
	h.d.SetGMQuery(func(_ context.Context, args []string) (string, error) {
		ran = append(ran, args)
		if args[1] == "verify" {
			return "", errors.New("step 3 does not replay")
		}
		return "GAME   TURN\n" + strings.Join(args, "_") + "    1\n", nil
	})
	h.gm("GM LIST\nGM SHOW g2\nGM SHOW g2 AS Ann\nGM SHOW g2 PUBLIC\nGM PLAYERS g2\nGM LOG g2\nGM EXPORT g2\n" +
		"GM VERIFY g2\nGM SHOW g2 AS\nGM LOG g2 extra\nGM PLAYERS nosuch")
	want := [][]string{{"game", "list"}, {"game", "show", "g2", "--gm"}, {"game", "show", "g2", "--as", "ann"},
		{"game", "show", "g2", "--public"}, {"game", "players", "g2"}, {"game", "log", "g2"}, {"game", "export", "g2"},
		{"game", "verify", "g2"}}
	if fmt.Sprint(ran) != fmt.Sprint(want) {
		t.Errorf("ran\n %q\nwant\n %q", ran, want)
	}
	sent := h.flush()
	m := one(t, to(sent, gmAddr), "gm", "Answer to your GM query",
		"orrery game list\n\nGAME   TURN\ngame_list    1\n", "game_show_g2_--as_ann    1\n", "game_export_g2    1\n",
		"step 3 does not replay", "GM SHOW takes a game", "GM LOG takes only a game", `there is no game "nosuch"`)
	if strings.Contains(m, "Hello ann") {
		t.Errorf("the GM's answer reads as a player's:\n%s", m)
	}
	if len(sent) != 1 {
		t.Errorf("%d mails for the GM's queries, want only the answer to the GM", len(sent))
	}

	ran = nil
	h.handle(h.mail("ann@example.org", "gm", "SECRET gm-secret\nGM EXPORT g2"))
	h.handle(h.mail("Game Master <"+gmAddr+">", "gm", "SECRET wrong\nGM LIST"))
	if len(ran) != 0 {
		t.Errorf("queries ran without the GM's address and secret: %q", ran)
	}
	sent = h.flush()
	var refusals []string
	for _, m := range append(to(sent, gmAddr), to(sent, "ann@example.org")...) {
		if !strings.Contains(m, "X-Orrery-Kind: gm-alert") { // the GM's daily report (gmguard_test.go)
			refusals = append(refusals, m)
		}
	}
	if len(refusals) != 2 {
		t.Errorf("%d answers to the two refused queries, want 2", len(refusals))
	}
	for _, m := range refusals {
		if strings.Contains(m, "GAME   TURN") || !strings.Contains(m, "nothing was applied") {
			t.Errorf("a refused query was answered, or not refused:\n%s", m)
		}
	}
}

// GM JOIN seats a player in a game that is signing up; the last seat
// starts it and the new player gets the welcome with the secret.
func TestGMJoinByMail(t *testing.T) {
	h, _ := clocked(t, game.Settings{Early: true})
	if _, err := h.d.Service().Create(context.Background(), game.CreateRequest{ID: "open", Ruleset: "toy", Seats: 2,
		Players: []game.PlayerSpec{{Name: "ann", Email: "ann@example.org"}}}); err != nil {
		t.Fatal(err)
	}
	h.flush()
	h.gm("GM JOIN open carl\nGM JOIN open Carl carl@example.org")
	sent := h.flush()
	one(t, to(sent, gmAddr), "gm", "GM JOIN needs a seat name and the player's address", "Done: GM JOIN open Carl carl@example.org")
	one(t, to(sent, "carl@example.org"), "carl", "Welcome to Toy Race, carl", "Your secret is")
	g, _ := h.d.Service().Get(context.Background(), "open")
	if g.Signup || len(g.Players) != 2 {
		t.Errorf("after GM JOIN: signup %v, players %+v", g.Signup, g.Players)
	}
	// A game that has started takes no more seats.
	h.gm("GM JOIN open dora dora@example.org")
	if m := to(h.flush(), gmAddr); len(m) != 1 || !strings.Contains(m[0], "has started and has no seat open to take") {
		t.Errorf("GM JOIN on a started game: %q", m)
	}
}

// The GM's answers are not rate-limited (a GM mending a game sends many
// commands in an hour); a player's, and a mail from the GM's address
// without the GM secret, still are.
func TestGMAnswersNotRateLimited(t *testing.T) {
	h := newHarness(t, func(c *daemon.Config) {
		c.GM, c.GMSecret = "Game Master <"+gmAddr+">", "gm-secret"
		c.RepliesPerHour = 2
	})
	h.flush()
	for range 4 {
		h.gm("GM STATUS g1")
		h.handle(h.mail("ann@example.org", "[g1 "+h.secret("ann")+"] s", "STATUS"))
	}
	sent := h.flush()
	if n := len(to(sent, gmAddr)); n != 4 {
		t.Errorf("the GM got %d answers to 4 commands", n)
	}
	if n := len(to(sent, "ann@example.org")); n != 2 {
		t.Errorf("ann got %d answers with a limit of 2 an hour", n)
	}
	for range 4 {
		h.handle(h.mail("Game Master <"+gmAddr+">", "gm", "GM STATUS g1"))
	}
	answers := 0
	for _, m := range to(h.flush(), gmAddr) {
		if !strings.Contains(m, "refused since") { // the GM's report (gmguard_test.go)
			answers++
		}
	}
	if answers != 2 {
		t.Errorf("4 mails from the GM's address without the secret got %d answers, want the limit of 2", answers)
	}
}
