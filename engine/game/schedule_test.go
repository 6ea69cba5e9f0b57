package game_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"orrery/engine"
	"orrery/engine/enginetest/toy"
	"orrery/engine/game"
)

func createWith(t *testing.T, svc *game.Service, st game.Settings, players ...string) *game.Game {
	t.Helper()
	req := game.CreateRequest{ID: "g", Ruleset: "toy", DiceSecret: "sched", Settings: &st}
	for _, p := range players {
		req.Players = append(req.Players, game.PlayerSpec{Name: p, Email: p + "@example.org"})
	}
	g, err := svc.Create(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func tick(t *testing.T, svc *game.Service) ([]game.Step, []game.Notice) {
	t.Helper()
	res, err := svc.Tick(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var steps []game.Step
	var notices []game.Notice
	for _, r := range res {
		steps = append(steps, r.Steps...)
		notices = append(notices, r.Notices...)
	}
	return steps, notices
}

func kinds(ns []game.Notice) string {
	var k []string
	for _, n := range ns {
		k = append(k, n.Kind+":"+strings.Join(n.To, ","))
	}
	return strings.Join(k, " ")
}

func TestMissedDeadlineAfterRestartProcessedOnce(t *testing.T) {
	svc, clk := newService(t)
	createWith(t, svc, game.Settings{Early: true, TurnLength: 24 * time.Hour}, "ann", "bob")
	submit(t, svc, "g", "ann", "PUSH 2")
	// The daemon is down across the deadline; a new service over the same
	// store stands for the restarted one.
	clk.t = clk.t.Add(30 * time.Hour)
	restarted := game.New(svc.Store(), []engine.Ruleset{toy.Ruleset()}, game.WithClock(clk.now))
	steps, _ := tick(t, restarted)
	if len(steps) != 1 || steps[0].Reason != "deadline" {
		t.Fatalf("after the restart: %d steps, want one by deadline", len(steps))
	}
	steps, notices := tick(t, restarted)
	if len(steps)+len(notices) != 0 {
		t.Fatalf("a second tick did %d steps and %s", len(steps), kinds(notices))
	}
	g, _ := restarted.Get(context.Background(), "g")
	if want := clk.t.Add(24 * time.Hour); !g.Deadline.Equal(want) {
		t.Errorf("next deadline %v, want %v", g.Deadline, want)
	}
}

func TestRemindersExactlyOnce(t *testing.T) {
	svc, clk := newService(t)
	g := createWith(t, svc, game.Settings{Early: true, TurnLength: 48 * time.Hour, Reminders: []time.Duration{24 * time.Hour, time.Hour}}, "ann", "bob")
	deadline := g.Deadline
	submit(t, svc, "g", "ann", "PUSH 1")
	clk.t = deadline.Add(-30 * time.Hour)
	if _, n := tick(t, svc); len(n) != 0 {
		t.Fatalf("reminder before its offset: %s", kinds(n))
	}
	clk.t = deadline.Add(-23 * time.Hour)
	if _, n := tick(t, svc); kinds(n) != "reminder:bob" {
		t.Fatalf("at -23h got %q, want one reminder to bob", kinds(n))
	}
	if _, n := tick(t, svc); len(n) != 0 {
		t.Fatalf("the 24h reminder went twice: %s", kinds(n))
	}
	clk.t = deadline.Add(-30 * time.Minute)
	if _, n := tick(t, svc); kinds(n) != "reminder:bob" {
		t.Fatalf("at -30m got %q, want the 1h reminder to bob", kinds(n))
	}
	if _, n := tick(t, svc); len(n) != 0 {
		t.Fatalf("the 1h reminder went twice: %s", kinds(n))
	}
}

// TestReminderSaysWhatIsExpected (issue 44): each awaited player's
// reminder names what is still asked of them, not only when.
func TestReminderSaysWhatIsExpected(t *testing.T) {
	svc, clk := newService(t)
	g := createWith(t, svc, game.Settings{Early: true, TurnLength: 48 * time.Hour, Reminders: []time.Duration{time.Hour}}, "ann", "bob")
	var ask string
	for _, p := range g.PromptsFor("bob") {
		if p.Kind.Blocks() {
			ask = p.Ask
		}
	}
	if ask == "" {
		t.Fatal("bob is asked nothing")
	}
	clk.t = g.Deadline.Add(-30 * time.Minute)
	_, n := tick(t, svc)
	if kinds(n) != "reminder:ann reminder:bob" {
		t.Fatalf("got %q, want one reminder each", kinds(n))
	}
	for _, r := range n {
		if !strings.Contains(r.Text, "Still expected of you: "+ask) || r.Msg == nil {
			t.Errorf("reminder to %v: %q, want it to say %q", r.To, r.Text, ask)
		}
	}
}

func TestRemindersAfterLongDowntimeSendOne(t *testing.T) {
	svc, clk := newService(t)
	g := createWith(t, svc, game.Settings{Early: true, TurnLength: 48 * time.Hour, Reminders: []time.Duration{24 * time.Hour, time.Hour}}, "ann")
	clk.t = g.Deadline.Add(-10 * time.Minute)
	if _, n := tick(t, svc); kinds(n) != "reminder:ann" {
		t.Fatalf("got %q, want a single reminder for both passed offsets", kinds(n))
	}
	if _, n := tick(t, svc); len(n) != 0 {
		t.Fatalf("another reminder: %s", kinds(n))
	}
}

func TestGraceLateNoticeThenDefaults(t *testing.T) {
	svc, clk := newService(t)
	g := createWith(t, svc, game.Settings{Early: true, TurnLength: 24 * time.Hour, Grace: 6 * time.Hour, TellLate: true}, "ann", "bob")
	submit(t, svc, "g", "ann", "PUSH 1")
	clk.t = g.Deadline.Add(time.Hour)
	steps, n := tick(t, svc)
	if len(steps) != 0 || kinds(n) != "late:bob late-others:ann" {
		t.Fatalf("in grace: %d steps, notices %q", len(steps), kinds(n))
	}
	if _, n := tick(t, svc); len(n) != 0 {
		t.Fatalf("late notice twice: %s", kinds(n))
	}
	clk.t = g.Deadline.Add(6 * time.Hour)
	steps, _ = tick(t, svc)
	if len(steps) != 1 || rep(t, steps[0], "").Defaults[0] != "bob" {
		t.Fatalf("after grace: %+v", steps)
	}
}

func TestEarlyDelayAndWait(t *testing.T) {
	svc, clk := newService(t)
	createWith(t, svc, game.Settings{Early: true, EarlyDelay: time.Hour, TurnLength: 72 * time.Hour}, "ann", "bob")
	submit(t, svc, "g", "ann", "PUSH 1")
	if r := submit(t, svc, "g", "bob", "PUSH 1"); len(r.Steps) != 0 {
		t.Fatal("resolved without the early delay")
	}
	clk.t = clk.t.Add(30 * time.Minute)
	if s, _ := tick(t, svc); len(s) != 0 {
		t.Fatal("resolved inside the delay")
	}
	// bob changes his orders inside the delay: they are the ones used.
	submit(t, svc, "g", "bob", "PUSH 3")
	clk.t = clk.t.Add(61 * time.Minute)
	s, _ := tick(t, svc)
	if len(s) != 1 || !strings.Contains(strings.Join(rep(t, s[0], "").Events, "\n"), "bob pushes 3+") {
		t.Fatalf("after the delay: %+v", s)
	}
	// Next step: ann says WAIT, so it waits for the deadline.
	g, _ := svc.Get(context.Background(), "g")
	if _, _, err := svc.Wait(context.Background(), "g", "ann"); err != nil {
		t.Fatal(err)
	}
	submit(t, svc, "g", "ann", "PUSH 1")
	submit(t, svc, "g", "bob", "PUSH 1")
	clk.t = clk.t.Add(2 * time.Hour)
	if s, _ := tick(t, svc); len(s) != 0 {
		t.Fatal("resolved early despite WAIT")
	}
	clk.t = g.Deadline
	if s, _ := tick(t, svc); len(s) != 1 || s[0].Reason != "deadline" {
		t.Fatalf("at the deadline: %+v", s)
	}
}

// The minimum gap holds for early resolution and for --turn-length games,
// not only for a weekly schedule. Creation counts as step 0. Orders all in
// an hour into the gap wait for its end, and Tick resolves them then
// without a further mail; a turn length shorter than the gap puts the
// deadline at the gap's end.
func TestMinGapHoldsEarlyResolutionAndTurnLength(t *testing.T) {
	svc, clk := newService(t)
	start := clk.t
	createWith(t, svc, game.Settings{Early: true, TurnLength: 48 * time.Hour, MinGap: 24 * time.Hour}, "ann", "bob")
	clk.t = start.Add(time.Hour)
	submit(t, svc, "g", "ann", "PUSH 1")
	if r := submit(t, svc, "g", "bob", "PUSH 2"); len(r.Steps) != 0 {
		t.Fatal("resolved early inside the minimum gap")
	}
	if s, _ := tick(t, svc); len(s) != 0 {
		t.Fatal("a tick resolved inside the minimum gap")
	}
	g, _ := svc.Get(context.Background(), "g")
	if want := start.Add(24 * time.Hour); !g.Wake.Equal(want) {
		t.Errorf("Tick is to look again at %v, want the gap's end %v", g.Wake, want)
	}
	clk.t = start.Add(23 * time.Hour)
	if s, _ := tick(t, svc); len(s) != 0 {
		t.Fatal("a tick resolved inside the minimum gap")
	}
	clk.t = start.Add(24 * time.Hour)
	s, _ := tick(t, svc)
	if len(s) != 1 || s[0].Reason != "all orders in" {
		t.Fatalf("at the gap's end: %+v, want one step with all orders in", s)
	}

	svc2, clk2 := newService(t)
	start = clk2.t
	g = createWith(t, svc2, game.Settings{Early: true, TurnLength: 12 * time.Hour, MinGap: 24 * time.Hour}, "ann", "bob")
	if want := start.Add(24 * time.Hour); !g.Deadline.Equal(want) {
		t.Errorf("deadline %v, want the gap's end %v (the 12 h turn length is shorter)", g.Deadline, want)
	}
}

func TestAbandonedAfterMissedSteps(t *testing.T) {
	svc, clk := newService(t)
	createWith(t, svc, game.Settings{Early: true, TurnLength: 24 * time.Hour, AbandonAfter: 2}, "ann", "bob")
	var all []game.Notice
	for i := 0; i < 2; i++ {
		submit(t, svc, "g", "ann", "PUSH 1")
		clk.t = clk.t.Add(25 * time.Hour)
		_, n := tick(t, svc)
		all = append(all, n...)
	}
	if kinds(all) != "abandoned:" {
		t.Fatalf("notices %q, want one abandoned notice to the GM", kinds(all))
	}
	if !strings.Contains(all[0].Text, "bob has sent no orders for 2 steps in a row") {
		t.Errorf("abandoned notice: %q", all[0].Text)
	}
	// After one missed step, the notice says "1 step", not "1 steps".
	svc1, clk1 := newService(t)
	createWith(t, svc1, game.Settings{Early: true, TurnLength: 24 * time.Hour, AbandonAfter: 1}, "ann", "bob")
	submit(t, svc1, "g", "ann", "PUSH 1")
	clk1.t = clk1.t.Add(25 * time.Hour)
	if _, n := tick(t, svc1); len(n) != 1 || !strings.Contains(n[0].Text, "for 1 step in a row") {
		t.Errorf("after one missed step: %+v", n)
	}
	// bob's seat now plays its defaults: ann alone resolves the step.
	if r := submit(t, svc, "g", "ann", "PUSH 1"); len(r.Steps) != 1 {
		t.Fatal("the game still waits for an abandoned seat")
	}
}

func TestVacationPolicies(t *testing.T) {
	ctx := context.Background()
	t.Run("defaults", func(t *testing.T) {
		svc, clk := newService(t)
		createWith(t, svc, game.Settings{Early: true, TurnLength: 24 * time.Hour, Vacation: "defaults", AbandonAfter: 1}, "ann", "bob")
		if _, _, err := svc.DeclareVacation(ctx, "g", "bob", clk.t, clk.t.Add(72*time.Hour)); err != nil {
			t.Fatal(err)
		}
		r := submit(t, svc, "g", "ann", "PUSH 1")
		if len(r.Steps) != 1 {
			t.Fatal("the game waits for a player on vacation under the defaults policy")
		}
		if g, _ := svc.Get(ctx, "g"); len(g.Abandoned) != 0 || g.Missed["bob"] != 0 {
			t.Fatalf("a vacation counted as missed orders: %+v %v", g.Abandoned, g.Missed)
		}
	})
	t.Run("extend", func(t *testing.T) {
		svc, clk := newService(t)
		g := createWith(t, svc, game.Settings{Early: true, TurnLength: 24 * time.Hour, Vacation: "extend", MaxVacation: 5 * 24 * time.Hour}, "ann", "bob")
		_, n, err := svc.DeclareVacation(ctx, "g", "bob", clk.t, clk.t.Add(10*24*time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		g2, _ := svc.Get(ctx, "g")
		if want := clk.t.Add(5 * 24 * time.Hour); !g2.Deadline.Equal(want) || g2.Deadline.Equal(g.Deadline) {
			t.Fatalf("deadline %v, want it capped at %v", g2.Deadline, want)
		}
		if !strings.Contains(kinds(n), "deadline:") || !strings.Contains(n[0].Text, "capped at 5 days") {
			t.Fatalf("notices %q: %v", kinds(n), n)
		}
	})
}

func TestPauseResumeAndDeadlineChanges(t *testing.T) {
	ctx := context.Background()
	svc, clk := newService(t)
	g := createWith(t, svc, game.Settings{Early: true, TurnLength: 24 * time.Hour}, "ann", "bob")
	if _, _, err := svc.Pause(ctx, "g", "server move"); err != nil {
		t.Fatal(err)
	}
	clk.t = clk.t.Add(48 * time.Hour)
	if s, n := tick(t, svc); len(s)+len(n) != 0 {
		t.Fatal("a paused game ticked")
	}
	_, n, err := svc.Resume(ctx, "g")
	if err != nil {
		t.Fatal(err)
	}
	g2, _ := svc.Get(ctx, "g")
	if want := g.Deadline.Add(48 * time.Hour); !g2.Deadline.Equal(want) || !strings.Contains(n[0].Text, "by the 2 days the game was paused") {
		t.Fatalf("deadline after resume %v, want %v; told %q", g2.Deadline, want, n[0].Text)
	}
	if _, _, err := svc.ExtendDeadline(ctx, "g", 24*time.Hour, ""); err == nil {
		t.Error("a deadline change without a reason was accepted")
	}
	_, n, err = svc.ExtendDeadline(ctx, "g", 24*time.Hour, "holiday")
	if err != nil || n[0].Kind != "deadline" || !strings.Contains(n[0].Text, "holiday") || len(n[0].To) != 3 {
		t.Fatalf("extend: %v %+v", err, n)
	}
	if _, _, err := svc.SetDeadline(ctx, "g", clk.t.Add(-time.Hour), "oops"); err == nil {
		t.Error("a deadline in the past was accepted")
	}
}

func TestWeeklySchedule(t *testing.T) {
	st := game.Settings{Schedule: []string{"Mon 18:00", "Thu 18:00"}, TimeZone: "Europe/Berlin", MinGap: 48 * time.Hour}
	svc, clk := newService(t)
	clk.t = time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC) // a Monday
	g := createWith(t, svc, st, "ann")
	// Created Monday 10:00 UTC: the gap of 48h skips Monday 18:00 Berlin
	// and lands on Thursday 18:00 Berlin = 17:00 UTC.
	if want := time.Date(2026, 11, 26, 17, 0, 0, 0, time.UTC); !g.Deadline.Equal(want) {
		t.Fatalf("deadline %v, want %v", g.Deadline, want)
	}
	bad := game.Settings{Schedule: []string{"Funday 18:00"}}
	if _, err := svc.Create(context.Background(), game.CreateRequest{ID: "h", Ruleset: "toy", Players: []game.PlayerSpec{{Name: "a"}}, Settings: &bad}); err == nil {
		t.Error("a bad schedule was accepted")
	}
}

func TestRollbackThenNewOrders(t *testing.T) {
	ctx := context.Background()
	svc, _ := newService(t)
	create(t, svc, "g", "ann")
	var old []game.Step
	for i := 0; i < 3; i++ {
		old = append(old, submit(t, svc, "g", "ann", "PUSH 1").Steps...)
	}
	g, n, err := svc.Rollback(ctx, "g", 1, "bob's orders were lost")
	if err != nil {
		t.Fatal(err)
	}
	if g.Step != 1 || g.Epoch != 1 || n[0].Kind != "rollback" {
		t.Fatalf("after rollback: step %d epoch %d %+v", g.Step, g.Epoch, n)
	}
	r, _ := svc.Report(ctx, "g", "ann")
	if r.NextCommitment == old[1].Commitment {
		t.Fatal("the replayed step reuses the revealed seed's commitment")
	}
	s := submit(t, svc, "g", "ann", "PUSH 3").Steps[0]
	if s.N != 2 || s.Seed == old[1].Seed || s.Commitment != r.NextCommitment {
		t.Fatalf("new step 2: n=%d seed reused=%v commitment kept=%v", s.N, s.Seed == old[1].Seed, s.Commitment == r.NextCommitment)
	}
	v, err := svc.Verify(ctx, "g")
	if err != nil || !v.OK() {
		t.Fatalf("verify after rollback: %v %v", err, v.Problems)
	}
}

func TestReplaceRefusesOldAddress(t *testing.T) {
	ctx := context.Background()
	svc, _ := newService(t)
	g := create(t, svc, "g", "ann", "bob")
	old, _ := g.PlayerByName("bob")
	g2, n, err := svc.Replace(ctx, "g", "bob", "carol@example.org")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := g2.PlayerByEmail("bob@example.org"); ok {
		t.Fatal("the old address still has the seat")
	}
	p, ok := g2.PlayerByEmail("carol@example.org")
	if !ok || p.Name != "bob" || p.Secret == old.Secret {
		t.Fatalf("new player %+v", p)
	}
	// The others and the GM are told, and the old address why.
	if kinds(n) != "replaced:ann, seat-lost:" || n[0].Seat != "bob" || n[1].Addresses[0] != "bob@example.org" {
		t.Errorf("notices %q, seat %q", kinds(n), n[0].Seat)
	}
	if _, _, err := svc.Replace(ctx, "g", "bob", "ann@example.org"); err == nil {
		t.Error("a seat was given to another player's address")
	}
}

func TestExportImportEdited(t *testing.T) {
	ctx := context.Background()
	svc, _ := newService(t)
	create(t, svc, "g", "ann", "bob")
	submit(t, svc, "g", "ann", "PUSH 2")
	submit(t, svc, "g", "bob", "PUSH 1")
	submit(t, svc, "g", "ann", "PUSH 3") // pending
	x, err := svc.Export(ctx, "g")
	if err != nil {
		t.Fatal(err)
	}
	data, _ := json.MarshalIndent(x, "", "  ")
	// Round trip unchanged into another database.
	other, _ := newService(t)
	var x2 game.Export
	if err := json.Unmarshal(data, &x2); err != nil {
		t.Fatal(err)
	}
	res, err := other.Import(ctx, &x2, game.ImportOptions{})
	if err != nil || res.Edited {
		t.Fatalf("plain import: %v edited=%v", err, res != nil && res.Edited)
	}
	if g, _ := other.Get(ctx, "g"); len(g.Waiting()) != 1 || g.Waiting()[0] != "bob" {
		t.Fatalf("pending orders lost in import: waiting %v", g.Waiting())
	}
	// The GM edits the state by hand: bob gets 5 more.
	var st map[string]any
	json.Unmarshal(x.State, &st)
	st["pos"].(map[string]any)["bob"] = st["pos"].(map[string]any)["bob"].(float64) + 5
	x.State, _ = json.Marshal(st)
	if _, err := svc.Import(ctx, x, game.ImportOptions{}); err == nil || !strings.Contains(err.Error(), "--replace") {
		t.Fatalf("import over an existing game: %v", err)
	}
	res, err = svc.Import(ctx, x, game.ImportOptions{Replace: true})
	if err != nil || !res.Edited {
		t.Fatalf("edited import: %v %+v", err, res)
	}
	if v, _ := svc.Verify(ctx, "g"); !v.OK() {
		t.Fatalf("verify after an edited import: %v", v.Problems)
	}
	submit(t, svc, "g", "ann", "PUSH 1")
	if r := submit(t, svc, "g", "bob", "PUSH 1"); len(r.Steps) != 1 {
		t.Fatal("the imported game does not play on")
	}
	if v, _ := svc.Verify(ctx, "g"); !v.OK() {
		t.Fatalf("verify after playing on: %v", v.Problems)
	}
	// A broken log is refused.
	for _, e := range x.Log {
		if e.Kind == "resolve" {
			e.Answers = e.Answers[:1]
		}
	}
	if _, err := svc.Import(ctx, x, game.ImportOptions{Replace: true}); err == nil {
		t.Fatal("an export with a tampered log was imported")
	}
}

func TestOpenSeatsAndJoin(t *testing.T) {
	ctx := context.Background()
	svc, _ := newService(t)
	g, err := svc.Create(ctx, game.CreateRequest{ID: "open", Ruleset: "toy", Seats: 3, Players: []game.PlayerSpec{{Name: "ann", Email: "ann@example.org"}}})
	if err != nil || !g.Signup || g.Step != 0 || len(g.Prompts) != 0 {
		t.Fatalf("open game: %v %+v", err, g)
	}
	if _, err := svc.Report(ctx, "open", "ann"); err == nil || !strings.Contains(err.Error(), "1 of 3 seats") {
		t.Fatalf("report before the start: %v", err)
	}
	if _, err := svc.Join(ctx, "open", game.PlayerSpec{Name: "bob", Email: "ann@example.org"}); err == nil {
		t.Fatal("one address took two seats")
	}
	if g, err = svc.Join(ctx, "open", game.PlayerSpec{Name: "bob", Email: "bob@example.org"}); err != nil || !g.Signup {
		t.Fatalf("second seat: %v", err)
	}
	if g, err = svc.Join(ctx, "open", game.PlayerSpec{Name: "cat", Email: "cat@example.org"}); err != nil || g.Signup || len(g.Waiting()) != 3 {
		t.Fatalf("the full game did not start: %v %+v", err, g)
	}
	if _, err := svc.Join(ctx, "open", game.PlayerSpec{Name: "dan", Email: "dan@example.org"}); err == nil {
		t.Fatal("a started game took another player")
	}
	if v, _ := svc.Verify(ctx, "open"); !v.OK() || v.Steps != 1 {
		t.Fatalf("verify: %+v", v)
	}
}

func TestPressPolicies(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		press, want string
		gm          bool
	}{{"signed", "Press from ann to bob", false}, {"grey", "Anonymous press to bob", true}} {
		svc, _ := newService(t)
		createWith(t, svc, game.Settings{Early: true, Press: c.press, PressToGM: c.gm}, "ann", "bob", "cat")
		_, n, err := svc.Press(ctx, "g", "ann", []string{"bob"}, "ally with me?")
		if err != nil || !strings.HasPrefix(n[0].Text, c.want) || strings.Join(n[0].To, ",") != "bob" {
			t.Fatalf("%s press: %v %+v", c.press, err, n)
		}
		if c.gm && (len(n) != 2 || n[1].To[0] != game.GM || !strings.Contains(n[1].Text, "from ann")) {
			t.Fatalf("the GM copy of grey press must name the sender: %+v", n)
		}
		if !c.gm && len(n) != 1 {
			t.Fatalf("press went to the GM unasked: %+v", n)
		}
	}
	svc, _ := newService(t)
	createWith(t, svc, game.Settings{Early: true, Press: "off"}, "ann", "bob")
	if _, _, err := svc.Press(ctx, "g", "ann", nil, "hi"); err == nil {
		t.Fatal("press in a game without press")
	}
}

// Press is in the history: the report of a step, asked for later (HISTORY),
// carries the press each reader sent or got while it was the latest, with
// a grey sender unnamed to all but the sender and the GM, and nothing of
// anyone else's press; the next step's report carries the next press.
func TestPressInHistory(t *testing.T) {
	ctx := context.Background()
	svc, _ := newService(t)
	createWith(t, svc, game.Settings{Early: true, Press: "grey"}, "ann", "bob", "cat")
	if _, _, err := svc.Press(ctx, "g", "ann", []string{"bob"}, "ally with me?"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := svc.Press(ctx, "g", "bob", []string{"cat"}, "ann asked me\nto ally"); err != nil {
		t.Fatal(err)
	}
	seen := func(player string) string {
		r, err := svc.StepReport(ctx, "g", 0, player)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, p := range r.Press {
			out = append(out, fmt.Sprintf("%s>%s:%s", p.From, strings.Join(p.To, ","), p.Text))
		}
		return strings.Join(out, " | ")
	}
	for _, c := range []struct{ player, want string }{
		{"ann", "ann>bob:ally with me?"},
		{"bob", ">bob:ally with me? | bob>cat:ann asked me\nto ally"},
		{"cat", ">cat:ann asked me\nto ally"},
		{"", "ann>bob:ally with me? | bob>cat:ann asked me\nto ally"},
		{game.Observer, ""},
	} {
		if got := seen(c.player); got != c.want {
			t.Errorf("press in the history as %q: %q, want %q", c.player, got, c.want)
		}
	}
	// After a step, new press belongs to the new step's report.
	for _, p := range []string{"ann", "bob", "cat"} {
		submit(t, svc, "g", p, "PUSH 1")
	}
	if _, _, err := svc.Press(ctx, "g", "cat", nil, "good luck"); err != nil {
		t.Fatal(err)
	}
	r1, err := svc.StepReport(ctx, "g", 1, "ann")
	if err != nil || len(r1.Press) != 1 || r1.Press[0].Text != "good luck" || r1.Press[0].From != "" {
		t.Errorf("step 1 as ann: %v %+v", err, r1.Press)
	}
	if got := seen("ann"); got != "ann>bob:ally with me?" {
		t.Errorf("step 0 as ann after step 1: %q", got)
	}
}

func TestFinalReportRevealsDiceSecret(t *testing.T) {
	svc, _ := newService(t)
	ctx := context.Background()
	_, err := svc.Create(ctx, game.CreateRequest{ID: "g", Ruleset: "toy", DiceSecret: "the-secret",
		Players: []game.PlayerSpec{{Name: "ann"}}, Options: map[string]string{"finish": "3"}})
	if err != nil {
		t.Fatal(err)
	}
	if r, _ := svc.Report(ctx, "g", "ann"); r.DiceSecret != "" {
		t.Fatal("the dice secret is shown before the end")
	}
	submit(t, svc, "g", "ann", "PUSH 3")
	r, _ := svc.Report(ctx, "g", "ann")
	if !r.Outcome.Over || r.DiceSecret != "the-secret" {
		t.Fatalf("final report: over=%v secret=%q", r.Outcome.Over, r.DiceSecret)
	}
}

func TestKickedPlayerRefusedButGMMayEnterOrders(t *testing.T) {
	ctx := context.Background()
	svc, _ := newService(t)
	create(t, svc, "g", "ann", "bob")
	if _, _, err := svc.Kick(ctx, "g", "bob"); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Submit(ctx, game.Input{Game: "g", Player: "bob", Text: "PUSH 1", Source: "mail"}); !game.IsUserError(err) {
		t.Fatalf("a kicked player's orders: %v", err)
	}
	if r := submit(t, svc, "g", "ann", "PUSH 1"); len(r.Steps) != 1 {
		t.Fatal("the game waits for a kicked seat")
	}
	if _, err := svc.Submit(ctx, game.Input{Game: "g", Player: "bob", Text: "PUSH 2", Source: "gm"}); err != nil {
		t.Fatalf("the GM could not enter orders for a kicked seat: %v", err)
	}
}

func TestAddressIndex(t *testing.T) {
	ctx := context.Background()
	svc, _ := newService(t)
	create(t, svc, "g1", "ann", "bob")
	create(t, svc, "g2", "ann")
	if ids, _ := svc.GamesOf(ctx, "ANN@example.org"); strings.Join(ids, ",") != "g1,g2" {
		t.Fatalf("ann plays in %v", ids)
	}
	svc.Replace(ctx, "g1", "bob", "carol@example.org")
	if ids, _ := svc.GamesOf(ctx, "bob@example.org"); len(ids) != 0 {
		t.Fatalf("the replaced address still plays in %v", ids)
	}
	if ids, _ := svc.GamesOf(ctx, "carol@example.org"); strings.Join(ids, ",") != "g1" {
		t.Fatalf("carol plays in %v", ids)
	}
	svc.Kick(ctx, "g2", "ann")
	if ids, _ := svc.GamesOf(ctx, "ann@example.org"); strings.Join(ids, ",") != "g1" {
		t.Fatalf("after the kick ann plays in %v", ids)
	}
	x, _ := svc.Export(ctx, "g1")
	x.Game.Players[0].Email = "dan@example.org"
	if _, err := svc.Import(ctx, x, game.ImportOptions{Replace: true}); err != nil {
		t.Fatal(err)
	}
	if ids, _ := svc.GamesOf(ctx, "ann@example.org"); len(ids) != 0 {
		t.Fatalf("an imported game that dropped ann still lists her: %v", ids)
	}
	if ids, _ := svc.GamesOf(ctx, "dan@example.org"); strings.Join(ids, ",") != "g1" {
		t.Fatalf("dan plays in %v", ids)
	}
}

// TestWakeIndex: Tick looks only at games whose wake time has come; a game
// with nothing scheduled is looked at once after a change, then never.
func TestWakeIndex(t *testing.T) {
	ctx := context.Background()
	svc, clk := newService(t)
	req := func(id string, st game.Settings) {
		_, err := svc.Create(ctx, game.CreateRequest{ID: id, Ruleset: "toy", DiceSecret: id, Settings: &st,
			Players: []game.PlayerSpec{{Name: "ann"}, {Name: "bob"}}})
		if err != nil {
			t.Fatal(err)
		}
	}
	req("timed", game.Settings{Early: true, TurnLength: 24 * time.Hour, Reminders: []time.Duration{2 * time.Hour}})
	req("untimed", game.Settings{Early: true})
	clk.t = clk.t.Add(time.Hour)
	tick(t, svc)
	u, _ := svc.Get(ctx, "untimed")
	if !u.Wake.IsZero() {
		t.Fatalf("a game with nothing scheduled wakes at %v", u.Wake)
	}
	g, _ := svc.Get(ctx, "timed")
	if want := g.Deadline.Add(-2 * time.Hour); !g.Wake.Equal(want) {
		t.Fatalf("the timed game wakes at %v, want its reminder at %v", g.Wake, want)
	}
	clk.t = g.Deadline.Add(-90 * time.Minute)
	if _, n := tick(t, svc); kinds(n) != "reminder:ann reminder:bob" {
		t.Fatalf("at the reminder: %q", kinds(n))
	}
	g, _ = svc.Get(ctx, "timed")
	if !g.Wake.Equal(g.Deadline) {
		t.Fatalf("after the reminder the game wakes at %v, want the deadline %v", g.Wake, g.Deadline)
	}
	clk.t = g.Deadline
	if s, _ := tick(t, svc); len(s) != 1 {
		t.Fatal("the deadline did not resolve the step")
	}
}
