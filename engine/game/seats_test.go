package game_test

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"orrery/engine/game"
	"orrery/engine/store"
)

func verifyClean(t *testing.T, svc *game.Service, id string) {
	t.Helper()
	res, err := svc.Verify(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if !res.OK() {
		t.Fatalf("verify %s: %v", id, res.Problems)
	}
}

func holders(g *game.Game, seat string) string {
	p, _ := g.PlayerByName(seat)
	var out []string
	for _, h := range p.History(g) {
		who := h.Email
		if h.Bot {
			who = "bot"
		}
		s := who + "@" + itoa(h.From)
		if h.Ended != "" {
			s += "-" + itoa(h.To) + ":" + h.Ended
		}
		out = append(out, s)
	}
	return strings.Join(out, " ")
}

func itoa(n uint64) string { return strconv.FormatUint(n, 10) }

func findNotice(ns []game.Notice, kind string) *game.Notice {
	for i := range ns {
		if ns[i].Kind == kind {
			return &ns[i]
		}
	}
	return nil
}

// TestReplaceSeatWithBotAndBack hands a seat to the bot mid-game, which
// answers what the seat is asked at once, then to a new person; the seat's
// history names each holder with the steps they played, the old address is
// told and loses access, and the log replays.
func TestReplaceSeatWithBotAndBack(t *testing.T) {
	ctx := context.Background()
	svc, clk := newService(t)
	create(t, svc, "g", "ann", "bob")
	submit(t, svc, "g", "ann", "PUSH 1")
	submit(t, svc, "g", "bob", "PUSH 1") // step 1
	oldSecret := mustGet(t, svc, "g").Players[1].Secret
	clk.t = clk.t.Add(time.Hour)
	submit(t, svc, "g", "ann", "PUSH 2")
	_, ns, err := svc.ReplaceSeat(ctx, "g", "bob", game.Seat{Bot: true}, "away for a month")
	if err != nil {
		t.Fatal(err)
	}
	lost := findNotice(ns, "seat-lost")
	if lost == nil || len(lost.Addresses) != 1 || lost.Addresses[0] != "bob@example.org" ||
		!strings.Contains(lost.Text, "The GM gave your seat bob in g to the computer: away for a month.") {
		t.Fatalf("the old holder is not told why: %+v", ns)
	}
	if r := findNotice(ns, "replaced"); r == nil || !strings.Contains(r.Text, "bob of g is now played by the computer") || strings.Join(r.To, ",") != "ann," {
		t.Fatalf("the others are not told: %+v", ns)
	}
	// The bot answered bob's open prompt, which completed step 2.
	g := mustGet(t, svc, "g")
	if g.Step != 2 {
		t.Fatalf("the bot did not play the seat's open prompt: step %d", g.Step)
	}
	bob, _ := g.PlayerByName("bob")
	if !bob.Bot || bob.Email != "" || bob.Secret == oldSecret {
		t.Fatalf("seat after replacement: %+v", bob)
	}
	if got := holders(g, "bob"); got != "bob@example.org@1-1:replaced bot@2" {
		t.Errorf("history %q", got)
	}
	// Back to a person, with a new secret and a welcome (the notice names
	// the seat for the mail side).
	clk.t = clk.t.Add(time.Hour)
	g, ns, err = svc.ReplaceSeat(ctx, "g", "bob", game.Seat{Email: "carl@example.org"}, "")
	if err != nil {
		t.Fatal(err)
	}
	if findNotice(ns, "seat-lost") != nil {
		t.Errorf("the bot was told it lost its seat: %+v", ns)
	}
	if got := holders(g, "bob"); got != "bob@example.org@1-1:replaced bot@2-2:replaced carl@example.org@3" {
		t.Errorf("history %q", got)
	}
	submit(t, svc, "g", "ann", "PUSH 1")
	submit(t, svc, "g", "bob", "PUSH 3")
	verifyClean(t, svc, "g")
	if ids, _ := svc.GamesOf(ctx, "bob@example.org"); len(ids) != 0 {
		t.Errorf("bob's address still indexed as playing: %v", ids)
	}
	if ids, _ := svc.HeldGames(ctx, "bob@example.org"); len(ids) != 1 {
		t.Errorf("bob's past seat is not indexed: %v", ids)
	}
	if _, _, err := svc.ReplaceSeat(ctx, "g", "ann", game.Seat{Email: "carl@example.org"}, ""); err == nil || !strings.Contains(err.Error(), "already plays bob") {
		t.Errorf("one address in two seats: %v", err)
	}
	// Each step's report, read again later, says who played bob then.
	for step, want := range []string{"", "", "bob:bot", "bob:carl"} {
		r, err := svc.StepReport(ctx, "g", uint64(step), "ann")
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, h := range r.Hands {
			who := h.By
			if h.Bot {
				who = "bot"
			}
			got = append(got, h.Seat+":"+who)
		}
		if strings.Join(got, " ") != want {
			t.Errorf("report of step %d (now %d) says %q played bob, want %q", step, mustGet(t, svc, "g").Step, got, want)
		}
	}
}

func mustGet(t *testing.T, svc *game.Service, id string) *game.Game {
	t.Helper()
	g, err := svc.Get(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestAbandonedPolicies plays a seat that stops sending orders under each
// policy: defaults (today's behaviour: the GM is told), bot (the bot takes
// the seat and the game goes on without waiting), open (anyone may JOIN
// it; the old holder is told, the new one does not see the press of
// before).
func TestAbandonedPolicies(t *testing.T) {
	ctx := context.Background()
	play := func(t *testing.T, policy string) (*game.Service, *clock, []game.Notice) {
		svc, clk := newService(t)
		createWith(t, svc, game.Settings{Early: true, TurnLength: 24 * time.Hour, AbandonAfter: 2, Abandoned: policy}, "ann", "bob", "cyd")
		if _, _, err := svc.Press(ctx, "g", "bob", []string{"cyd"}, "a secret pact"); err != nil {
			t.Fatal(err)
		}
		var all []game.Notice
		for i := 0; i < 2; i++ {
			submit(t, svc, "g", "ann", "PUSH 1")
			submit(t, svc, "g", "cyd", "PUSH 1")
			clk.t = clk.t.Add(25 * time.Hour)
			_, n := tick(t, svc)
			all = append(all, n...)
		}
		return svc, clk, all
	}
	t.Run("defaults", func(t *testing.T) {
		svc, _, ns := play(t, "")
		if kinds(ns) != "abandoned:" {
			t.Fatalf("notices %q, want the GM told only", kinds(ns))
		}
		if g := mustGet(t, svc, "g"); !strings.Contains(holders(g, "bob"), "bob@example.org@1") || g.Players[1].Bot {
			t.Errorf("seat %+v", g.Players[1])
		}
	})
	t.Run("bot", func(t *testing.T) {
		svc, _, ns := play(t, "bot")
		if kinds(ns) != "abandoned:ann,cyd, seat-lost:" {
			t.Fatalf("notices %q", kinds(ns))
		}
		if !strings.Contains(ns[0].Text, "bob has sent no orders in g for 2 steps in a row: the computer plays the seat from now on.") ||
			ns[1].Addresses[0] != "bob@example.org" {
			t.Errorf("notices %+v", ns)
		}
		g := mustGet(t, svc, "g")
		if got := holders(g, "bob"); got != "bob@example.org@1-2:abandoned bot@3" {
			t.Errorf("history %q", got)
		}
		// The bot answered at once: ann and cyd alone complete the step.
		if r := submit(t, svc, "g", "ann", "PUSH 1"); len(r.Steps) != 0 {
			t.Fatal("resolved without cyd")
		}
		if r := submit(t, svc, "g", "cyd", "PUSH 1"); len(r.Steps) != 1 {
			t.Fatal("the step waits for the bot's seat")
		}
		rec, _ := svc.PlayerRecord(ctx, "bob@example.org")
		if rec.Games != 1 || rec.Missed != 2 || rec.Abandoned != 1 || rec.Steps != 2 {
			t.Errorf("bob's record %+v", rec)
		}
		verifyClean(t, svc, "g")
	})
	t.Run("open", func(t *testing.T) {
		svc, clk, ns := play(t, "open")
		if kinds(ns) != "abandoned:ann,cyd, seat-open:bob" {
			t.Fatalf("notices %q", kinds(ns))
		}
		g := mustGet(t, svc, "g")
		if got := g.OpenSeats(); len(got) != 1 || got[0] != "bob" {
			t.Fatalf("open seats %v", got)
		}
		clk.t = clk.t.Add(time.Minute)
		var joined []game.Notice
		hook := func(_ store.Tx, c *game.Change) error { joined = append(joined, c.Notices...); return nil }
		if _, err := svc.Join(ctx, "g", game.PlayerSpec{Name: "dan", Email: "dan@example.org"}, hook); err != nil {
			t.Fatal(err)
		}
		if kinds(joined) != "replaced:ann,cyd taken: seat-lost:" {
			t.Errorf("notices %q", kinds(joined))
		}
		g = mustGet(t, svc, "g")
		if p, _ := g.PlayerByEmail("dan@example.org"); p.Name != "bob" || len(g.OpenSeats()) != 0 || len(g.Abandoned) != 0 {
			t.Errorf("after JOIN: seat %+v, open %v, abandoned %v", p, g.OpenSeats(), g.Abandoned)
		}
		// dan reads the seat's earlier reports, not bob's press.
		r, err := svc.StepReport(ctx, "g", 0, "bob")
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Press) != 0 || r.Board == "" {
			t.Errorf("the new holder's report of step 0: press %+v, board %q", r.Press, r.Board)
		}
		if r, _ := svc.StepReport(ctx, "g", 0, "cyd"); len(r.Press) != 1 {
			t.Errorf("cyd lost the press she got: %+v", r.Press)
		}
		if _, err := svc.Join(ctx, "g", game.PlayerSpec{Name: "eve", Email: "eve@example.org"}); err == nil || !strings.Contains(err.Error(), "no seat open to take") {
			t.Errorf("JOIN of a game with no open seat: %v", err)
		}
		verifyClean(t, svc, "g")
	})
}

// TestKickTellsWhy and the player's record across a kick.
func TestKickTellsWhy(t *testing.T) {
	ctx := context.Background()
	svc, _ := newService(t)
	create(t, svc, "g", "ann", "bob")
	_, ns, err := svc.KickFor(ctx, "g", "bob", "abusive press")
	if err != nil {
		t.Fatal(err)
	}
	lost := findNotice(ns, "seat-lost")
	if lost == nil || lost.Addresses[0] != "bob@example.org" || !strings.Contains(lost.Text, "The GM removed you from g: abusive press.") {
		t.Fatalf("notices %+v", ns)
	}
	g := mustGet(t, svc, "g")
	if got := holders(g, "bob"); got != "bob@example.org@1-0:kicked" {
		t.Errorf("history %q", got)
	}
}

// TestStartNowAndInvite: a game opened by a player starts early on its
// creator's word with enough players, and only the creator invites.
func TestStartNowAndInvite(t *testing.T) {
	ctx := context.Background()
	svc, _ := newService(t)
	_, err := svc.Create(ctx, game.CreateRequest{ID: "g", Ruleset: "toy", Seats: 4, Creator: "ann@example.org",
		Players: []game.PlayerSpec{{Name: "ann", Email: "ann@example.org"}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, ns, err := svc.Invite(ctx, "g", "ANN@example.org", []string{"bob@example.org", "cyd@example.org", "bob@example.org"}); err != nil || len(ns) != 1 ||
		strings.Join(ns[0].Addresses, " ") != "bob@example.org cyd@example.org" || !strings.Contains(ns[0].Text, "ANN@example.org invites you to play g, a game of Toy Race: 1 of 4 seats are taken.") {
		t.Fatalf("invite: %+v %v", ns, err)
	}
	if _, ns, _ := svc.Invite(ctx, "g", "ann@example.org", []string{"bob@example.org"}); len(ns) != 0 {
		t.Errorf("invited twice: %v", ns)
	}
	if _, _, err := svc.Invite(ctx, "g", "bob@example.org", []string{"x@example.org"}); err == nil || !strings.Contains(err.Error(), "only the player who opened g") {
		t.Errorf("a stranger invited: %v", err)
	}
	if _, err := svc.StartNow(ctx, "g", "bob@example.org"); err == nil || !strings.Contains(err.Error(), "only the player who opened") {
		t.Errorf("START by another: %v", err)
	}
	if _, err := svc.Join(ctx, "g", game.PlayerSpec{Name: "bob", Email: "bob@example.org"}); err != nil {
		t.Fatal(err)
	}
	g, err := svc.StartNow(ctx, "g", "ann@example.org")
	if err != nil {
		t.Fatal(err)
	}
	if g.Signup || g.Seats != 2 || g.Step != 0 || len(g.Prompts) == 0 {
		t.Fatalf("not started: %+v", g)
	}
	if _, err := svc.StartNow(ctx, "g", "ann@example.org"); err == nil || !strings.Contains(err.Error(), "started already") {
		t.Errorf("a second START: %v", err)
	}
	verifyClean(t, svc, "g")
}

// TestRollbackRecountsHolders: after a rollback the steps undone no longer
// count against anyone, and an earlier holder's misses do not mark the
// seat of the player who took it over.
func TestRollbackRecountsHolders(t *testing.T) {
	ctx := context.Background()
	svc, clk := newService(t)
	createWith(t, svc, game.Settings{Early: true, TurnLength: 24 * time.Hour, AbandonAfter: 2, Abandoned: "open"}, "ann", "bob")
	for i := 0; i < 2; i++ {
		submit(t, svc, "g", "ann", "PUSH 1")
		clk.t = clk.t.Add(25 * time.Hour)
		tick(t, svc)
	}
	clk.t = clk.t.Add(time.Minute)
	if _, err := svc.Join(ctx, "g", game.PlayerSpec{Name: "x", Email: "dan@example.org"}); err != nil {
		t.Fatal(err)
	}
	submit(t, svc, "g", "ann", "PUSH 1")
	submit(t, svc, "g", "bob", "PUSH 1") // dan, step 3
	if _, _, err := svc.Rollback(ctx, "g", 2, "a mistake"); err != nil {
		t.Fatal(err)
	}
	g := mustGet(t, svc, "g")
	if len(g.Abandoned) != 0 || g.Missed["bob"] != 0 {
		t.Errorf("after the rollback: abandoned %v, missed %v", g.Abandoned, g.Missed)
	}
	if rec, _ := svc.PlayerRecord(ctx, "bob@example.org"); rec.Missed != 2 || rec.Abandoned != 1 {
		t.Errorf("bob's record %+v", rec)
	}
	verifyClean(t, svc, "g")
}
