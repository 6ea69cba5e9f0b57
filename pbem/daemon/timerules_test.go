package daemon_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"orrery/engine/game"
)

// VACATION ALL in a mail of one game declares the absence in every game
// of the sender, each telling its players; SET TZ moves the zone the
// games keep quiet hours in, and SET AUTOVACATION off is kept for the
// allowance.
func TestVacationAllAndTimeSettingsByMail(t *testing.T) {
	h, _ := clocked(t, game.Settings{Early: true, TurnLength: 72 * time.Hour, Vacation: "extend", MaxVacation: 30 * 24 * time.Hour})
	ctx := context.Background()
	svc := h.d.Service()
	if _, err := svc.Create(ctx, game.CreateRequest{ID: "g9", Ruleset: "toy",
		Players: []game.PlayerSpec{{Name: "ann", Email: "ann@example.org"}, {Name: "cy", Email: "cy@example.org"}}}); err != nil {
		t.Fatal(err)
	}
	h.flush()
	h.handle(h.mail("ann@example.org", "[g2 "+h.secret("ann")+"]", "VACATION ALL FROM 2026-12-20 TO 2027-01-03"))
	sent := h.flush()
	some(t, to(sent, "bob@example.org"), "bob", "ann is on vacation in g2", "deadlines wait for them")
	some(t, to(sent, "cy@example.org"), "cy", "ann is on vacation in g9")
	// Each game under its own cap: g9 keeps the default 14 days.
	for id, end := range map[string]time.Time{"g2": time.Date(2027, 1, 4, 0, 0, 0, 0, time.UTC), "g9": time.Date(2027, 1, 3, 0, 0, 0, 0, time.UTC)} {
		g, _ := svc.Get(ctx, id)
		if len(g.Vacations) != 1 || g.Vacations[0].Player != "ann" || !g.Vacations[0].To.Equal(end) {
			t.Errorf("%s: vacations %+v", id, g.Vacations)
		}
	}
	h.handle(h.mail("ann@example.org", "settings", "SET TZ Asia/Tokyo\nSET AUTOVACATION off"))
	h.flush()
	g, _ := svc.Get(ctx, "g2")
	if p, _ := g.PlayerByName("ann"); p.Zone != "Asia/Tokyo" {
		t.Errorf("ann's zone in g2 is %q after SET TZ", p.Zone)
	}
	if a, err := svc.AbsenceOf(ctx, "ann@example.org"); err != nil || !a.NoAuto || len(a.Vacations) != 1 {
		t.Errorf("ann's record %+v %v", a, err)
	}
}

// A player whose seat passed to another is told so, when and why, when
// they write again, not that their address is unknown.
func TestFormerHolderToldTheSeatPassed(t *testing.T) {
	h, _ := clocked(t, game.Settings{Early: true, TurnLength: 72 * time.Hour})
	old := h.secret("bob")
	if _, _, err := h.d.Service().ReplaceSeat(context.Background(), "g2", "bob", game.Seat{Email: "eve@example.org"}, "bob asked to leave"); err != nil {
		t.Fatal(err)
	}
	h.flush()
	h.handle(h.mail("bob@example.org", "[g2 "+old+"]", "push 1"))
	some(t, to(h.flush(), "bob@example.org"), "bob", "Your seat bob in g2 passed to another player on", "the GM gave it to a new player (bob asked to leave)")
}

// Under --abandoned bot, the player the bot replaced writes again with
// their secret within the return window: the seat is theirs again, the
// mail's orders count, and they get a summary of what the bot did.
func TestBotGivesTheSeatBackByMail(t *testing.T) {
	h, now := clocked(t, game.Settings{Early: true, TurnLength: time.Hour, AbandonAfter: 1, Abandoned: "bot", ReturnWindow: 2})
	old := h.secret("bob")
	h.handle(h.mail("ann@example.org", "[g2 "+h.secret("ann")+"]", "push 1"))
	*now = now.Add(2 * time.Hour)
	h.tick()
	h.flush()
	if g, _ := h.d.Service().Get(context.Background(), "g2"); !g.Players[1].Bot {
		t.Fatal("the bot did not take bob's seat")
	}
	h.handle(h.mail("bob@example.org", "[g2 "+old+"]", "push 2"))
	sent := h.flush()
	some(t, to(sent, "bob@example.org"), "bob", "Welcome back to g2: your seat bob is yours again")
	some(t, to(sent, "ann@example.org"), "ann", "bob of g2 is played by its player again")
	g, _ := h.d.Service().Get(context.Background(), "g2")
	if p, _ := g.PlayerByName("bob"); p.Bot || p.Email != "bob@example.org" {
		t.Fatalf("bob's seat: %+v", p)
	}
}

// A player's own VACATION by mail is the player's act in the game's log
// (Player and Source "mail"), as `game log` shows it; the GM's GM
// VACATION stays the GM's.
func TestOwnVacationLoggedAsThePlayers(t *testing.T) {
	h, _ := clocked(t, game.Settings{Early: true, Vacation: "defaults", MaxVacation: 14 * 24 * time.Hour})
	h.handle(h.mail("ann@example.org", "[g2 "+h.secret("ann")+"]", "VACATION FROM 2026-12-20 TO 2026-12-24"))
	h.gm("GM VACATION g2 bob FROM 2026-12-01 TO 2026-12-05")
	h.flush()
	ex, err := h.d.Service().Export(context.Background(), "g2")
	if err != nil {
		t.Fatal(err)
	}
	var own, gms int
	for _, e := range ex.Log {
		if e.Kind != "gm" || !strings.HasPrefix(e.Text, "vacation ") {
			continue
		}
		switch {
		case strings.Contains(e.Text, "ann") && e.Player == "ann" && e.Source == "mail":
			own++
		case strings.Contains(e.Text, "bob") && e.Player == "" && e.Source == "gm":
			gms++
		default:
			t.Errorf("vacation logged as %q by %q (%s)", e.Text, e.Player, e.Source)
		}
	}
	if own != 1 || gms != 1 {
		t.Errorf("ann's own vacations logged %d, the GM's %d; want 1 and 1", own, gms)
	}
}

// A seat that passed to another player keeps its name, but its new
// holder is greeted by their own name, and everyone's report says who
// plays it now ("Seat bob, played by eve."); a seat the bot took says so.
func TestSeatPlayedByAnother(t *testing.T) {
	h, _ := clocked(t, game.Settings{Early: true, TurnLength: 72 * time.Hour})
	ctx := context.Background()
	svc := h.d.Service()
	if _, _, err := svc.ReplaceSeat(ctx, "g2", "bob", game.Seat{Email: "eve@example.org"}, "bob asked to leave"); err != nil {
		t.Fatal(err)
	}
	sent := h.flush()
	some(t, to(sent, "eve@example.org"), "eve", "Welcome to Toy Race, eve", "Hello eve,")
	g, _ := svc.Get(ctx, "g2")
	eve, _ := g.PlayerByName("bob")
	h.handle(h.mail("ann@example.org", "[g2 "+h.secret("ann")+"]", "push 1"))
	h.handle(h.mail("eve@example.org", "[g2 "+eve.Secret+"]", "push 1"))
	sent = h.flush()
	some(t, to(sent, "ann@example.org"), "ann", "Hello ann,", "Seat bob, played by eve.")
	some(t, to(sent, "eve@example.org"), "eve", "Hello eve,", "Seat bob, played by eve.")
	if _, _, err := svc.ReplaceSeat(ctx, "g2", "bob", game.Seat{Bot: true}, ""); err != nil {
		t.Fatal(err)
	}
	h.flush()
	h.handle(h.mail("ann@example.org", "[g2 "+h.secret("ann")+"]", "push 1"))
	some(t, to(h.flush(), "ann@example.org"), "ann", "Seat bob, played by the computer.")
}
