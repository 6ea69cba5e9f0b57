package game_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"orrery/engine"
	"orrery/engine/dice"
	"orrery/engine/enginetest"
	"orrery/engine/enginetest/toy"
	"orrery/engine/game"
	"orrery/engine/store"
	"orrery/engine/store/storetest"
)

type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func newService(t testing.TB) (*game.Service, *clock) {
	t.Helper()
	st := storetest.Open(t, storetest.Default())
	c := &clock{t: time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)}
	return game.New(st, []engine.Ruleset{toy.Ruleset()}, game.WithClock(c.now)), c
}

func create(t testing.TB, svc *game.Service, id string, players ...string) *game.Game {
	t.Helper()
	req := game.CreateRequest{ID: id, Ruleset: "toy", DiceSecret: "fixed-" + id}
	for _, p := range players {
		req.Players = append(req.Players, game.PlayerSpec{Name: p, Email: p + "@example.org"})
	}
	g, err := svc.Create(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func submit(t testing.TB, svc *game.Service, id, player, text string) *game.SubmitResult {
	t.Helper()
	res, err := svc.Submit(context.Background(), game.Input{Game: id, Player: player, Text: text, Source: "test"})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestCreateValidates(t *testing.T) {
	svc, _ := newService(t)
	ctx := context.Background()
	cases := []struct {
		req  game.CreateRequest
		want string
	}{
		{game.CreateRequest{ID: "Bad Id", Ruleset: "toy", Players: []game.PlayerSpec{{Name: "a"}}}, "game id"},
		{game.CreateRequest{ID: "g1", Ruleset: "chess", Players: []game.PlayerSpec{{Name: "a"}}}, "no ruleset named \"chess\""},
		{game.CreateRequest{ID: "g1", Ruleset: "toy"}, "takes 1 to 8 players, not 0"},
		{game.CreateRequest{ID: "g1", Ruleset: "toy", Players: []game.PlayerSpec{{Name: "a"}, {Name: "A"}}}, "named twice"},
		{game.CreateRequest{ID: "g1", Ruleset: "toy", Players: []game.PlayerSpec{{Name: "a"}}, Options: map[string]string{"speed": "1"}}, "no option \"speed\""},
		{game.CreateRequest{ID: "g1", Ruleset: "toy", Players: []game.PlayerSpec{{Name: "a", Email: "x"}}}, "not a mail address"},
	}
	for _, c := range cases {
		_, err := svc.Create(ctx, c.req)
		if err == nil || !strings.Contains(err.Error(), c.want) || !game.IsUserError(err) {
			t.Errorf("%+v: got %v, want a user error with %q", c.req, err, c.want)
		}
	}
	create(t, svc, "g1", "ann")
	if _, err := svc.Create(ctx, game.CreateRequest{ID: "g1", Ruleset: "toy", Players: []game.PlayerSpec{{Name: "a"}}}); err == nil || !strings.Contains(err.Error(), "exists already") {
		t.Errorf("a second g1 gave %v", err)
	}
}

func TestSubmitRejectReplaceResolve(t *testing.T) {
	svc, _ := newService(t)
	g := create(t, svc, "g", "ann", "bob")
	if len(g.Players[0].Secret) != 10 || g.Players[0].Secret == g.Players[1].Secret {
		t.Fatalf("secrets %q %q", g.Players[0].Secret, g.Players[1].Secret)
	}
	bad := submit(t, svc, "g", "ann", "PUSH 9\nJUMP\nPUSH 2")
	if bad.Accepted || len(bad.Errors) != 2 || bad.Errors[0].Line != 1 || bad.Errors[1].Line != 2 {
		t.Fatalf("want errors on lines 1 and 2, got %+v", bad.Errors)
	}
	first := submit(t, svc, "g", "ann", "push 1")
	if !first.Accepted || first.Replaced || len(first.Steps) != 0 {
		t.Fatalf("first orders: %+v", first)
	}
	second := submit(t, svc, "g", "ann", "# changed my mind\npush 3")
	if !second.Accepted || !second.Replaced || strings.Join(second.Orders, "|") != "PUSH 3" {
		t.Fatalf("replacement: %+v", second)
	}
	if w := second.Game.Waiting(); len(w) != 1 || w[0] != "bob" {
		t.Fatalf("waiting %v, want [bob]", w)
	}
	last := submit(t, svc, "g", "bob", "PUSH 2")
	if len(last.Steps) != 1 {
		t.Fatalf("the last orders resolved %d steps, want 1", len(last.Steps))
	}
	step := last.Steps[0]
	if step.N != 1 || len(step.Rolls) != 2 || step.Reason != "all orders in" {
		t.Fatalf("step %+v", step.StepRecord)
	}
	for _, a := range step.Answers {
		if a.Prompt.Player == "ann" && a.Text != "PUSH 3" {
			t.Errorf("ann's resolved orders %q, want the replacement PUSH 3", a.Text)
		}
	}
	if r := rep(t, step, "ann"); r.Player != "ann" {
		t.Fatalf("ann's report is %s's", r.Player)
	}
	if _, err := step.Report("eve"); err == nil {
		t.Fatal("a report for a player who is not in the game")
	}
	if step.Commitment == step.NextCommitment || rep(t, step, "ann").RevealedSeed == "" {
		t.Errorf("seed and commitments not set: %+v", step.StepRecord)
	}
	v, err := svc.Verify(context.Background(), "g")
	if err != nil || !v.OK() {
		t.Fatalf("verify: %v %v", err, v.Problems)
	}
}

func TestCommitmentPublishedBeforeReveal(t *testing.T) {
	svc, _ := newService(t)
	g := create(t, svc, "g", "ann")
	before := g.NextCommitment()
	res := submit(t, svc, "g", "ann", "PUSH 1")
	if got := res.Steps[0].Commitment; got != before {
		t.Fatalf("step 1 revealed a seed with commitment %s; %s was published before", got, before)
	}
}

func TestAnytimePromptResolvesAlone(t *testing.T) {
	svc, _ := newService(t)
	create(t, svc, "g", "ann", "bob")
	submit(t, svc, "g", "ann", "PUSH 2")
	res, err := svc.Submit(context.Background(), game.Input{Game: "g", Player: "bob", Prompt: "motto:bob", Text: "MOTTO slow and steady"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Steps) != 1 || len(res.Steps[0].Answers) != 1 {
		t.Fatalf("an anytime answer should resolve alone: %+v", res.Steps)
	}
	if ev := rep(t, res.Steps[0], "ann").Events; len(ev) != 0 {
		t.Errorf("ann sees bob's private event: %v", ev)
	}
	if ev := rep(t, res.Steps[0], "bob").Events; len(ev) != 1 {
		t.Errorf("bob does not see his own event: %v", ev)
	}
	g, _ := svc.Get(context.Background(), "g")
	if w := g.Waiting(); len(w) != 1 || w[0] != "bob" {
		t.Fatalf("ann's pending turn orders were lost by the anytime step: waiting %v", w)
	}
	res = submit(t, svc, "g", "bob", "PUSH 1")
	if len(res.Steps) != 1 || len(res.Steps[0].Answers) != 2 {
		t.Fatalf("turn did not resolve with both orders: %+v", res.Steps)
	}
	if v, _ := svc.Verify(context.Background(), "g"); !v.OK() {
		t.Fatal(v.Problems)
	}
}

func TestAdvanceDeadlineAndForce(t *testing.T) {
	svc, clk := newService(t)
	ctx := context.Background()
	_, err := svc.Create(ctx, game.CreateRequest{ID: "g", Ruleset: "toy", DiceSecret: "x",
		Players:  []game.PlayerSpec{{Name: "ann"}, {Name: "bob"}},
		Settings: &game.Settings{Early: true, TurnLength: 48 * time.Hour}})
	if err != nil {
		t.Fatal(err)
	}
	submit(t, svc, "g", "ann", "PUSH 3")
	res, err := svc.Advance(ctx, "g", false)
	if err != nil || res.Due || len(res.Waiting) != 1 {
		t.Fatalf("advance before the deadline: %+v %v", res, err)
	}
	clk.t = clk.t.Add(49 * time.Hour)
	res, err = svc.Advance(ctx, "g", false)
	if err != nil || len(res.Steps) != 1 || res.Steps[0].Reason != "deadline" {
		t.Fatalf("advance after the deadline: %+v %v", res, err)
	}
	if d := rep(t, res.Steps[0], "").Defaults; len(d) != 1 || d[0] != "bob" {
		t.Errorf("defaults applied for %v, want [bob]", d)
	}
	if res.Game.Deadline != clk.t.Add(48*time.Hour) {
		t.Errorf("new deadline %v", res.Game.Deadline)
	}
	res, err = svc.Advance(ctx, "g", true)
	if err != nil || len(res.Steps) != 1 || res.Steps[0].Reason != "forced by the GM" {
		t.Fatalf("forced advance: %+v %v", res, err)
	}
	if v, _ := svc.Verify(ctx, "g"); !v.OK() {
		t.Fatal(v.Problems)
	}
}

func TestUserErrorsDoNotLeak(t *testing.T) {
	svc, _ := newService(t)
	create(t, svc, "g", "ann", "bob")
	_, err := svc.Submit(context.Background(), game.Input{Game: "nope", Player: "ann", Text: "PUSH 1"})
	if !game.IsUserError(err) {
		t.Errorf("unknown game: %v", err)
	}
	_, err = svc.Submit(context.Background(), game.Input{Game: "g", Player: "eve", Text: "PUSH 1"})
	if !game.IsUserError(err) || !strings.Contains(err.Error(), "no player \"eve\"") {
		t.Errorf("unknown player: %v", err)
	}
}

// TestVerifyCatchesTampering changes a stored snapshot, a roll, and the
// orders used, and expects verify to name each.
func TestVerifyCatchesTampering(t *testing.T) {
	cases := []struct {
		name string
		edit func(b store.Bucket) error
		want string
	}{
		{"snapshot", func(b store.Bucket) error {
			return b.Bucket(store.BucketSnaps).Put(store.Key(1), []byte(`{"tampered":true}`))
		}, "differs from the snapshot"},
		{"roll", func(b store.Bucket) error {
			sb := b.Bucket(store.BucketSteps)
			var rec game.StepRecord
			json.Unmarshal(sb.Get(store.Key(1)), &rec)
			rec.Rolls[0].Value = rec.Rolls[0].Value%6 + 1
			data, _ := json.Marshal(rec)
			return sb.Put(store.Key(1), data)
		}, "roll #1"},
		{"orders", func(b store.Bucket) error {
			lb := b.Bucket(store.BucketLog)
			c := lb.Cursor()
			for k, v := c.First(); k != nil; k, v = c.Next() {
				var e game.Entry
				json.Unmarshal(v, &e)
				if e.Kind == "resolve" {
					e.Answers[0].Text = "PUSH 1"
					if strings.Contains(string(v), `"text":"PUSH 1"`) {
						e.Answers[0].Text = "PUSH 2"
					}
					data, _ := json.Marshal(e)
					return lb.Put(k, data)
				}
			}
			return fmt.Errorf("no resolve entry")
		}, "not the latest accepted"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			svc, _ := newService(t)
			create(t, svc, "g", "ann", "bob")
			submit(t, svc, "g", "ann", "PUSH 3")
			submit(t, svc, "g", "bob", "PUSH 3")
			err := svc.Store().Update(context.Background(), func(tx store.Tx) error {
				return c.edit(tx.Bucket(store.BucketGames).Bucket([]byte("g")))
			})
			if err != nil {
				t.Fatal(err)
			}
			v, err := svc.Verify(context.Background(), "g")
			if err != nil {
				t.Fatal(err)
			}
			if v.OK() || !strings.Contains(strings.Join(v.Problems, "\n"), c.want) {
				t.Fatalf("verify found %v, want a problem with %q", v.Problems, c.want)
			}
		})
	}
}

type hookErr struct{}

func (hookErr) Error() string { return "hook refused" }

func TestHookFailureRollsBack(t *testing.T) {
	svc, _ := newService(t)
	create(t, svc, "g", "ann")
	var seen *game.Change
	fail := func(tx store.Tx, c *game.Change) error { seen = c; return hookErr{} }
	_, err := svc.Submit(context.Background(), game.Input{Game: "g", Player: "ann", Text: "PUSH 2"}, fail)
	if err == nil || seen == nil || len(seen.Steps) != 1 {
		t.Fatalf("hook did not run inside the resolution: %v %+v", err, seen)
	}
	g, _ := svc.Get(context.Background(), "g")
	if g.Step != 0 || len(g.Answered) != 0 {
		t.Fatalf("a failed hook left the game at step %d with answers %v", g.Step, g.Answered)
	}
	if v, _ := svc.Verify(context.Background(), "g"); !v.OK() {
		t.Fatal(v.Problems)
	}
}

func TestBotGamesVerify(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		r := enginetest.PlayBots(t, toy.Ruleset(), enginetest.Options{Players: []string{"a", "b", "c"}, Seed: seed})
		if !r.Game.Over() {
			t.Fatalf("seed %d: the toy race did not finish", seed)
		}
	}
}

// BenchmarkLoad compares loading a game's current state and report at step
// 10 and at step 1,000: the per-step snapshot keeps both one read.
func BenchmarkLoad(b *testing.B) {
	for _, steps := range []int{10, 1000} {
		b.Run(fmt.Sprintf("step=%d", steps), func(b *testing.B) {
			svc, _ := newService(b)
			ctx := context.Background()
			_, err := svc.Create(ctx, game.CreateRequest{ID: "g", Ruleset: "toy", DiceSecret: "x",
				Players: []game.PlayerSpec{{Name: "ann"}}, Options: map[string]string{"finish": "1000000"}})
			if err != nil {
				b.Fatal(err)
			}
			for i := 0; i < steps; i++ {
				submit(b, svc, "g", "ann", "PUSH 1")
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := svc.Report(ctx, "g", "ann"); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func TestHookRunsForRejectedOrders(t *testing.T) {
	svc, _ := newService(t)
	create(t, svc, "g", "ann")
	var got *game.SubmitResult
	hook := func(tx store.Tx, c *game.Change) error { got = c.Submit; return nil }
	if _, err := svc.Submit(context.Background(), game.Input{Game: "g", Player: "ann", Text: "PUSH 0"}, hook); err != nil {
		t.Fatal(err)
	}
	if got == nil || got.Accepted || len(got.Errors) != 1 {
		t.Fatalf("the hook saw %+v, want the rejection", got)
	}
}

func rep(t *testing.T, s game.Step, player string) *game.Report {
	t.Helper()
	r, err := s.Report(player)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestBotGameEvents(t *testing.T) {
	r := enginetest.PlayBots(t, toy.Ruleset(), enginetest.Options{Players: []string{"a", "b"}, Seed: 3})
	ev := r.Events(t)
	if len(ev) < 2 || !strings.Contains(strings.Join(ev, "\n"), "pushes") {
		t.Fatalf("events of a whole bot game: %v", ev)
	}
}

func TestViewAndChangeInput(t *testing.T) {
	svc, _ := newService(t)
	create(t, svc, "g", "ann", "bob")
	v, err := svc.View(context.Background(), "g", "ann")
	if err != nil || v.Player() != "ann" || !strings.Contains(v.Board(), "ann") {
		t.Fatalf("view: %v %v", v, err)
	}
	if _, err := svc.View(context.Background(), "g", "eve"); !game.IsUserError(err) {
		t.Fatalf("a view for a stranger: %v", err)
	}
	var in *game.Input
	hook := func(tx store.Tx, c *game.Change) error { in = c.Input; return nil }
	if _, err := svc.Submit(context.Background(), game.Input{Game: "g", Player: "ann", Text: "PUSH 1", Ref: "<m1@x>"}, hook); err != nil {
		t.Fatal(err)
	}
	if in == nil || in.Ref != "<m1@x>" {
		t.Fatalf("the hook saw input %+v", in)
	}
}

// The observers' report: public events only, the ruleset's public board
// and status (no motto, which only its writer and the GM see), no prompts.
func TestObserverReport(t *testing.T) {
	svc, _ := newService(t)
	create(t, svc, "g", "ann", "bob")
	ctx := context.Background()
	for _, in := range []game.Input{{Game: "g", Player: "ann", Text: "MOTTO secret plan", Prompt: "motto:ann"}, {Game: "g", Player: "ann", Text: "PUSH 2"}, {Game: "g", Player: "bob", Text: "PUSH 1"}} {
		if _, err := svc.Submit(ctx, in); err != nil {
			t.Fatal(err)
		}
	}
	gm, err := svc.Report(ctx, "g", game.GM)
	if err != nil {
		t.Fatal(err)
	}
	obs, err := svc.Report(ctx, "g", game.Observer)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(gm.Status, "secret plan") {
		t.Fatalf("the GM's status should show ann's motto (else this test proves nothing): %q", gm.Status)
	}
	if obs.Player != "" || len(obs.Prompts) != 0 || obs.Board != gm.Board || strings.Contains(obs.Status, "secret plan") || obs.Status == "" {
		t.Errorf("observer report: player %q, prompts %v, board %q (GM's %q), status %q", obs.Player, obs.Prompts, obs.Board, gm.Board, obs.Status)
	}
	for _, e := range obs.Events {
		if strings.Contains(e, "motto") {
			t.Errorf("observer sees a private event: %q", e)
		}
	}
	first, err := svc.StepReport(ctx, "g", 1, game.Observer)
	if err != nil || strings.Contains(strings.Join(first.Events, "\n"), "motto") {
		t.Errorf("observer report of step 1: %v %v", first, err)
	}
}

// newerRules is the toy ruleset after an upgrade that changed a rule: one
// more event at every resolution, and its version raised.
type newerRules struct{ engine.Ruleset }

func (n newerRules) Info() engine.Info {
	i := n.Ruleset.Info()
	i.Version++
	return i
}

func (n newerRules) NewState(s engine.Setup, d *dice.Dice) (engine.State, error) {
	st, err := n.Ruleset.NewState(s, d)
	return newerState{st}, err
}

func (n newerRules) LoadState(data []byte) (engine.State, error) {
	st, err := n.Ruleset.LoadState(data)
	return newerState{st}, err
}

type newerState struct{ engine.State }

func (s newerState) Resolve(a []engine.Answer, d *dice.Dice) ([]engine.Event, error) {
	ev, err := s.State.Resolve(a, d)
	return append(ev, engine.Event{Text: "a rule added in version 2"}), err
}

// A game records the rules version it was set up under; when a server with
// newer rules cannot replay it, verify says why before the mismatches,
// instead of leaving the GM with bare differences. Under the same rules,
// verify is clean and says nothing of versions.
func TestVerifyNamesAChangeOfRules(t *testing.T) {
	ctx := context.Background()
	st := storetest.Open(t, storetest.Default())
	old := game.New(st, []engine.Ruleset{toy.Ruleset()})
	g := create(t, old, "g", "ann", "bob")
	if g.RulesVersion != toy.Ruleset().Info().Version {
		t.Fatalf("the game recorded rules version %d, want %d", g.RulesVersion, toy.Ruleset().Info().Version)
	}
	submit(t, old, "g", "ann", "PUSH 1")
	submit(t, old, "g", "bob", "PUSH 2")
	v, err := old.Verify(ctx, "g")
	if err != nil || !v.OK() {
		t.Fatalf("verify under the same rules: %v %v", err, v.Problems)
	}
	upgraded := game.New(st, []engine.Ruleset{newerRules{toy.Ruleset()}})
	v, err = upgraded.Verify(ctx, "g")
	if err != nil {
		t.Fatal(err)
	}
	if v.OK() || len(v.Problems) < 2 {
		t.Fatalf("verify under changed rules found %v, want the change named and the mismatch", v.Problems)
	}
	want := "game g was set up under version 1 of the toy rules and this server has version 2"
	if !strings.HasPrefix(v.Problems[0], want) {
		t.Errorf("first problem %q, want it to start %q", v.Problems[0], want)
	}
}

// Orders refused before the change writes anything (no such player, no
// such prompt, a game over) leave a transaction group whole: the changes
// before and after them commit with the group, once (store.Unchanged).
// The daemon handles a batch of mails in one group, and at 10 games one
// mail in five was orders sent before the seat's turn.
func TestRefusalsBeforeAnyWriteKeepTheGroup(t *testing.T) {
	svc, _ := newService(t)
	create(t, svc, "g", "ann", "bob")
	st := svc.Store()
	ctx := context.Background()
	commits := st.Stats().Commits
	err := st.Group(ctx, func(ctx context.Context) error {
		if _, err := svc.Submit(ctx, game.Input{Game: "g", Player: "ann", Text: "PUSH 2", Source: "test"}); err != nil {
			return err
		}
		for _, in := range []game.Input{
			{Game: "g", Player: "zed", Text: "PUSH 1"},
			{Game: "g", Player: "ann", Prompt: "push:zed", Text: "PUSH 1"},
			{Game: "nope", Player: "ann", Text: "PUSH 1"},
		} {
			if _, err := svc.Submit(ctx, in); !game.IsUserError(err) {
				t.Errorf("%+v: %v, want a refusal", in, err)
			}
			if st.GroupFailed(ctx) {
				t.Fatalf("%+v: the refusal spoiled the group", in)
			}
		}
		_, err := svc.Submit(ctx, game.Input{Game: "g", Player: "bob", Text: "PUSH 3", Source: "test"})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if n := st.Stats().Commits - commits; n != 1 {
		t.Errorf("the group committed %d times, want once", n)
	}
	g, err := svc.Get(ctx, "g")
	if err != nil || g.Step != 1 {
		t.Fatalf("after the group: step %d, %v; want ann's and bob's orders to have resolved the turn", g.Step, err)
	}
}
