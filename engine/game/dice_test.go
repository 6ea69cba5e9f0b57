package game_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
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

// secretToy is the toy race with secrets: a deck shuffled at setup that no
// player sees, a secret die for each push that only its pusher sees, pushes
// declared public (engine.PublicOrders) and mottos kept secret.
type secretToy struct{ engine.Ruleset }

type secretState struct{ engine.State }

func (r secretToy) Info() engine.Info {
	i := r.Ruleset.Info()
	i.Name, i.Title = "secret-toy", "Toy Race with secrets"
	return i
}

func (r secretToy) NewState(s engine.Setup, d *dice.Dice) (engine.State, error) {
	st, err := r.Ruleset.NewState(s, d)
	d.ShuffleFor(12, "the deck", func(i, j int) {}, dice.GMOnly)
	return secretState{st}, err
}

func (r secretToy) LoadState(data []byte) (engine.State, error) {
	st, err := r.Ruleset.LoadState(data)
	return secretState{st}, err
}

func (s secretState) Resolve(answers []engine.Answer, d *dice.Dice) ([]engine.Event, error) {
	events, err := s.State.Resolve(answers, d)
	for _, a := range answers {
		if a.Prompt.Kind == engine.KindTurn {
			d.RollFor(6, "a secret die of "+a.Prompt.Player, a.Prompt.Player)
		}
	}
	return events, err
}

func (s secretState) OrdersPublic(a engine.Answer) bool { return a.Prompt.Kind == engine.KindTurn }

func newSecretService(t testing.TB, hooks ...game.Hook) *game.Service {
	t.Helper()
	st := storetest.Open(t, storetest.Default())
	return game.New(st, []engine.Ruleset{secretToy{toy.Ruleset()}, toy.Ruleset()}, game.WithHooks(hooks...))
}

// TestEachReaderGetsTheDiceTheyMaySee plays a step of the secret toy and
// reads its report as each player, an observer and the GM: public rolls
// and public orders for all; a secret die, its stream's seed, and a secret
// motto's salt and text for their owner alone; the hidden seed for the GM;
// and everything for everyone once the game is over.
func TestEachReaderGetsTheDiceTheyMaySee(t *testing.T) {
	ctx := context.Background()
	svc := newSecretService(t)
	g, err := svc.Create(ctx, game.CreateRequest{ID: "s", Ruleset: "secret-toy", DiceSecret: "x", Options: map[string]string{"finish": "12"},
		Players: []game.PlayerSpec{{Name: "ann"}, {Name: "bob"}}})
	if err != nil {
		t.Fatal(err)
	}
	if g.DiceScheme != dice.Scheme2 {
		t.Fatalf("a new game has dice scheme %d", g.DiceScheme)
	}
	for _, in := range []game.Input{{Player: "ann", Prompt: "motto:ann", Text: "MOTTO never give up"},
		{Player: "ann", Text: "PUSH 2"}, {Player: "bob", Text: "PUSH 1"}} {
		in.Game = "s"
		if res, err := svc.Submit(ctx, in); err != nil || !res.Accepted {
			t.Fatalf("%+v: %v %v", in, err, res)
		}
	}
	// Step 1 is ann's motto, resolved on receipt; step 2 the pushes.
	reports := map[string]*game.Report{}
	for _, r := range []string{"ann", "bob", game.Observer, game.GM} {
		if reports[r], err = svc.StepReport(ctx, "s", 2, r); err != nil {
			t.Fatal(err)
		}
		motto, err := svc.StepReport(ctx, "s", 1, r)
		if err != nil {
			t.Fatal(err)
		}
		p := motto.Inputs[0]
		if p.Head != "ann motto:ann sent" || !p.Hidden || (p.Salt != "") != (r == "ann" || r == game.GM) || (len(p.Lines) > 0) != (p.Salt != "") {
			t.Errorf("%q reads ann's secret motto as %+v", r, p)
		}
	}
	gm := reports[game.GM]
	if dice.PublicSeed(gm.HiddenSeed) != gm.RevealedSeed || gm.RollSeed != dice.RollSeed(gm.RevealedSeed, gm.Digest) {
		t.Fatalf("the GM's report does not tie its seeds together: %+v", gm)
	}
	for _, r := range []string{"ann", "bob", game.Observer} {
		rep := reports[r]
		if rep.HiddenSeed != "" {
			t.Errorf("%q got the hidden seed", r)
		}
		var keys []string
		for _, st := range rep.Streams {
			keys = append(keys, st.Key)
		}
		var secret []string
		for _, roll := range rep.Rolls {
			if roll.Stream != "" {
				secret = append(secret, roll.Stream)
			}
		}
		want := []string{r}
		if r == game.Observer {
			want = nil
		}
		if !slices.Equal(keys, want) || !slices.Equal(secret, want) {
			t.Errorf("%q sees the streams %v and secret rolls of %v, want %v", r, keys, secret, want)
		}
		if err := dice.CheckStreams(rep.RollSeed, rep.Streams, rep.Rolls); err != nil {
			t.Errorf("%q cannot check their dice: %v", r, err)
		}
		for _, p := range rep.Inputs {
			readable := !p.Hidden || slices.Contains(p.To, r)
			if readable != (p.Salt != "" || len(p.Lines) > 0) {
				t.Errorf("%q: part %q readable %v, shows salt %q lines %q", r, p.Head, readable, p.Salt, p.Lines)
			}
			if p.Hidden && p.Salt != "" && p.Sealed().Hash != p.Hash {
				t.Errorf("%q: the hash of their own part %q does not check", r, p.Head)
			}
		}
	}
	heads := func(rep *game.Report) (out []string) {
		for _, p := range rep.Inputs {
			out = append(out, p.Head)
		}
		return out
	}
	if h := heads(gm); !slices.Equal(h, []string{"ann push:ann sent", "bob push:bob sent"}) {
		t.Errorf("step 2's inputs are %v, want the two pushes", h)
	}
	if gm.LastOrders != "bob" || gm.LastResent {
		t.Errorf("last orders %q (again: %v), want bob", gm.LastOrders, gm.LastResent)
	}
	if reports["bob"].Inputs[0].Lines[0] != "PUSH 2" {
		t.Errorf("bob does not read ann's public push: %+v", reports["bob"].Inputs)
	}
	// Play to the end: then every report shows everything to everyone.
	for i := 0; i < 20; i++ {
		g, _ := svc.Get(ctx, "s")
		if g.Over() {
			break
		}
		submit(t, svc, "s", "ann", "PUSH 3")
		submit(t, svc, "s", "bob", "PUSH 3")
	}
	end, err := svc.StepReport(ctx, "s", 0, "bob")
	if err != nil {
		t.Fatal(err)
	}
	if end.HiddenSeed == "" || len(end.Streams) != 1 || len(end.Rolls) != 12 {
		t.Errorf("after the end, bob's report of step 0 has hidden seed %q, %d streams, %d rolls", end.HiddenSeed, len(end.Streams), len(end.Rolls))
	}
	if err := dice.CheckStreams(end.RollSeed, end.Streams, end.Rolls); err != nil || dice.PublicSeed(end.HiddenSeed) != end.RevealedSeed {
		t.Errorf("the revealed deck does not check: %v", err)
	}
	v, err := svc.Verify(ctx, "s")
	if err != nil || !v.OK() {
		t.Fatalf("verify: %v %v", err, v.Problems)
	}
}

// TestSecretToyHidesWhatItHides runs the players' script of enginetest
// over bot games of the secret toy: nobody computes the deck or another's
// secret die, and no hidden seed or salt reaches a reader it is not for.
func TestSecretToyHidesWhatItHides(t *testing.T) {
	for seed := uint64(1); seed <= 3; seed++ {
		players := []string{"ann", "bob", "cy"}
		hook, sent := enginetest.RecordReports(players)
		enginetest.PlayBots(t, secretToy{toy.Ruleset()}, enginetest.Options{Players: players, Seed: seed, MaxSteps: 30,
			Options: map[string]string{"finish": "1000"}, Hooks: []game.Hook{hook}})
		if n := enginetest.CheckHiddenRolls(t, sent, players); n == 0 {
			t.Fatal("no hidden roll was tried")
		}
	}
}

// TestLastOrdersAreNamed: each report names the player whose orders came
// in last, and says when they replaced earlier orders after everyone
// else's were in (what a GM who plays and knows the secret would do).
func TestLastOrdersAreNamed(t *testing.T) {
	cases := []struct {
		name   string
		sends  []string // players, in the order they send
		force  bool     // the GM resolves with the missing defaults
		last   string
		resent bool
	}{
		{"in turn", []string{"ann", "bob", "cy"}, false, "cy", false},
		{"early, then late", []string{"cy", "cy", "ann", "bob"}, false, "bob", false},
		{"again after all were in", []string{"ann", "bob", "cy", "ann"}, false, "ann", true},
		{"last, and again", []string{"ann", "bob", "cy", "cy"}, false, "cy", true},
		{"again before the last", []string{"ann", "ann", "bob", "cy"}, false, "cy", false},
		{"a default is in from the start", []string{"ann", "bob", "ann"}, true, "ann", true},
		{"nobody sent", nil, true, "", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			svc, _ := newService(t)
			ctx := context.Background()
			st := game.DefaultSettings()
			st.Early = false
			req := game.CreateRequest{ID: "g", Ruleset: "toy", DiceSecret: "x", Settings: &st,
				Players: []game.PlayerSpec{{Name: "ann"}, {Name: "bob"}, {Name: "cy"}}}
			if _, err := svc.Create(ctx, req); err != nil {
				t.Fatal(err)
			}
			for i, p := range c.sends {
				submit(t, svc, "g", p, []string{"PUSH 1", "PUSH 2", "PUSH 3"}[i%3])
			}
			if _, err := svc.Advance(ctx, "g", c.force); err != nil {
				t.Fatal(err)
			}
			rep, err := svc.StepReport(ctx, "g", 1, "bob")
			if err != nil {
				t.Fatal(err)
			}
			if rep.LastOrders != c.last || rep.LastResent != c.resent {
				t.Errorf("the report says %q (again: %v), want %q (%v)", rep.LastOrders, rep.LastResent, c.last, c.resent)
			}
			if v, err := svc.Verify(ctx, "g"); err != nil || !v.OK() {
				t.Fatalf("verify: %v %v", err, v.Problems)
			}
		})
	}
}

// TestVerifyCatchesDiceTampering changes what a scheme-2 step record says
// of its dice and expects verify to name it.
func TestVerifyCatchesDiceTampering(t *testing.T) {
	cases := []struct {
		name string
		edit func(rec *game.StepRecord)
		want string
	}{
		{"an order", func(r *game.StepRecord) { r.Inputs[0].Lines = []string{"PUSH 3"} }, "SHA-256 of the part"},
		{"an order and its hash", func(r *game.StepRecord) { r.Inputs[0].Lines = []string{"PUSH 3"}; r.Inputs[0] = r.Inputs[0].Sealed() }, "digest or roll seed"},
		{"the digest", func(r *game.StepRecord) { r.Digest = strings.Repeat("0", 64) }, "digest or roll seed"},
		{"the roll seed", func(r *game.StepRecord) { r.RollSeed = strings.Repeat("0", 64) }, "digest or roll seed"},
		{"who was last", func(r *game.StepRecord) { r.LastOrders = "ann" }, "last orders came from"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			svc, _ := newService(t)
			create(t, svc, "g", "ann", "bob")
			submit(t, svc, "g", "ann", "PUSH 2")
			submit(t, svc, "g", "bob", "PUSH 1")
			err := svc.Store().Update(context.Background(), func(tx store.Tx) error {
				sb := tx.Bucket(store.BucketGames).Bucket([]byte("g")).Bucket(store.BucketSteps)
				var rec game.StepRecord
				if err := json.Unmarshal(sb.Get(store.Key(1)), &rec); err != nil {
					return err
				}
				c.edit(&rec)
				data, _ := json.Marshal(rec)
				return sb.Put(store.Key(1), data)
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

// TestDiceSurviveExportRollbackAndAnytime: a scheme-2 game with an anytime
// step, orders sent twice, a rollback and a forced step exports, imports
// into another database and verifies there; the import keeps the scheme
// and the count of orders sent, so the next step names the same last
// sender; after the rollback each kept step's hidden seed is still found.
func TestDiceSurviveExportRollbackAndAnytime(t *testing.T) {
	ctx := context.Background()
	svc, clk := newService(t)
	create(t, svc, "g", "ann", "bob", "cy")
	submit(t, svc, "g", "ann", "PUSH 1")
	submit(t, svc, "g", "bob", "PUSH 1")
	submit(t, svc, "g", "cy", "PUSH 2") // step 1
	if res, err := svc.Submit(ctx, game.Input{Game: "g", Player: "bob", Prompt: "motto:bob", Text: "MOTTO slow and steady"}); err != nil || len(res.Steps) != 1 {
		t.Fatalf("the motto did not resolve at once: %v", err) // step 2
	}
	submit(t, svc, "g", "ann", "PUSH 3")
	submit(t, svc, "g", "bob", "PUSH 3")
	submit(t, svc, "g", "cy", "PUSH 3") // step 3
	clk.t = clk.t.Add(time.Hour)
	if _, _, err := svc.Rollback(ctx, "g", 2, "test"); err != nil {
		t.Fatal(err)
	}
	submit(t, svc, "g", "bob", "PUSH 1")
	submit(t, svc, "g", "ann", "PUSH 1")
	submit(t, svc, "g", "ann", "PUSH 2") // again, after bob; cy is awaited
	for n := uint64(0); n <= 2; n++ {
		rep, err := svc.StepReport(ctx, "g", n, game.GM)
		if err != nil {
			t.Fatal(err)
		}
		if dice.PublicSeed(rep.HiddenSeed) != rep.RevealedSeed {
			t.Errorf("step %d, played before the rollback: the hidden seed shown does not give its seed", n)
		}
	}
	rep2, _ := svc.StepReport(ctx, "g", 2, "cy")
	if len(rep2.Inputs) != 1 || rep2.Inputs[0].Head != "bob motto:bob sent" || !rep2.Inputs[0].Hidden || rep2.Inputs[0].Salt != "" {
		t.Errorf("cy's report of bob's motto step shows %+v", rep2.Inputs)
	}
	x, err := svc.Export(ctx, "g")
	if err != nil {
		t.Fatal(err)
	}
	data, _ := json.Marshal(x)
	var y game.Export
	json.Unmarshal(data, &y)
	other, _ := newService(t)
	if _, err := other.Import(ctx, &y, game.ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	y.Game.ID, y.Game.DiceScheme = "future", 3
	if _, err := other.Import(ctx, &y, game.ImportOptions{}); err == nil || !strings.Contains(err.Error(), "scheme 3, which this server does not know") {
		t.Errorf("a game of an unknown dice scheme imported: %v", err)
	}
	for _, s := range []*game.Service{svc, other} {
		if _, err := s.Advance(ctx, "g", true); err != nil {
			t.Fatal(err)
		}
		g, _ := s.Get(ctx, "g")
		rep, _ := s.StepReport(ctx, "g", g.Step, "cy")
		if g.DiceScheme != dice.Scheme2 || rep.LastOrders != "ann" || !rep.LastResent {
			t.Errorf("scheme %d, last orders %q (again: %v), want 2, ann, true", g.DiceScheme, rep.LastOrders, rep.LastResent)
		}
		if v, err := s.Verify(ctx, "g"); err != nil || !v.OK() {
			t.Fatalf("verify: %v %v", err, v.Problems)
		}
	}
}

// BenchmarkResolveStep resolves a three-player step of the toy: parse,
// inputs and their digest, roll seed, rolls, and the stored records.
func BenchmarkResolveStep(b *testing.B) {
	st, err := store.Open(filepath.Join(b.TempDir(), "b.db"), store.Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	svc := game.New(st, []engine.Ruleset{toy.Ruleset()})
	req := game.CreateRequest{ID: "g", Ruleset: "toy", DiceSecret: "bench", Options: map[string]string{"finish": "1000000000"},
		Players: []game.PlayerSpec{{Name: "ann"}, {Name: "bob"}, {Name: "cy"}}}
	if _, err := svc.Create(context.Background(), req); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, p := range []string{"ann", "bob", "cy"} {
			res, err := svc.Submit(context.Background(), game.Input{Game: "g", Player: p, Prompt: "push:" + p, Text: "PUSH 1", Source: "bench"})
			if err != nil || !res.Accepted {
				b.Fatal(err)
			}
		}
	}
}
