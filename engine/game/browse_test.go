package game_test

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"orrery/engine/game"
)

// GamesPage walks the games in id order a page at a time, skips what keep
// refuses without counting it, and says where the next page starts.
func TestGamesPage(t *testing.T) {
	svc, _ := newService(t)
	ctx := context.Background()
	var ids []string
	for i := 0; i < 7; i++ {
		id := fmt.Sprintf("g%d", i)
		create(t, svc, id, "ann")
		ids = append(ids, id)
	}
	cases := []struct {
		name     string
		after    string
		limit    int
		keep     func(*game.Game) bool
		want     []string
		wantNext string
	}{
		{"first page", "", 3, nil, []string{"g0", "g1", "g2"}, "g2"},
		{"middle page", "g2", 3, nil, []string{"g3", "g4", "g5"}, "g5"},
		{"last page", "g5", 3, nil, []string{"g6"}, ""},
		{"exactly full", "g3", 3, nil, []string{"g4", "g5", "g6"}, ""},
		{"after an id that is not there", "g25", 2, nil, []string{"g3", "g4"}, "g4"},
		{"past the end", "zzz", 3, nil, nil, ""},
		{"filtered", "", 2, func(g *game.Game) bool { return g.ID != "g1" && g.ID != "g2" }, []string{"g0", "g3"}, "g3"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			page, next, err := svc.GamesPage(ctx, c.after, c.limit, c.keep)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, g := range page {
				got = append(got, g.ID)
			}
			if !reflect.DeepEqual(got, c.want) || next != c.wantNext {
				t.Errorf("got %v next %q, want %v next %q", got, next, c.want, c.wantNext)
			}
		})
	}
	// Walking every page visits every game once.
	var all []string
	after := ""
	for {
		page, next, err := svc.GamesPage(ctx, after, 2, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range page {
			all = append(all, g.ID)
		}
		if next == "" {
			break
		}
		after = next
	}
	if !reflect.DeepEqual(all, ids) {
		t.Errorf("walking the pages gave %v, want %v", all, ids)
	}
}

// Steps, StepView and Facts tell what the reports of each step tell, read
// from the records and snapshots: the same turn, phase and reason, the same
// board, and the same events and rolls for each reader; the public view keeps a
// player's motto from observers.
func TestStepsViewsAndDice(t *testing.T) {
	svc, _ := newService(t)
	ctx := context.Background()
	create(t, svc, "g", "ann", "bob")
	for _, in := range []game.Input{{Game: "g", Player: "ann", Text: "MOTTO secret plan", Prompt: "motto:ann"},
		{Game: "g", Player: "ann", Text: "PUSH 2"}, {Game: "g", Player: "bob", Text: "PUSH 1"},
		{Game: "g", Player: "ann", Text: "PUSH 3"}, {Game: "g", Player: "bob", Text: "PUSH 3"}} {
		if _, err := svc.Submit(ctx, in); err != nil {
			t.Fatal(err)
		}
	}
	g, steps, err := svc.Steps(ctx, "g")
	if err != nil {
		t.Fatal(err)
	}
	if uint64(len(steps)) != g.Step+1 || g.Step < 3 {
		t.Fatalf("%d step infos for a game at step %d", len(steps), g.Step)
	}
	_, gmDice, err := svc.Facts(ctx, "g", game.GM)
	if err != nil {
		t.Fatal(err)
	}
	for i, si := range steps {
		n := uint64(i)
		rep, err := svc.StepReport(ctx, "g", n, game.Observer)
		if err != nil {
			t.Fatal(err)
		}
		if si.N != n || si.Turn != rep.Turn || si.Phase != rep.Phase || si.Reason != rep.Reason || si.Time.IsZero() {
			t.Errorf("step %d: info %+v, report turn %d phase %q reason %q", n, si, rep.Turn, rep.Phase, rep.Reason)
		}
		for _, who := range []string{game.Observer, "ann", "bob"} {
			rep, err := svc.StepReport(ctx, "g", n, who)
			if err != nil {
				t.Fatal(err)
			}
			v, err := svc.StepView(ctx, "g", n, who)
			if err != nil {
				t.Fatal(err)
			}
			if v.Board() != rep.Board || v.Status() != rep.Status {
				t.Errorf("step %d as %q: the view differs from the report", n, who)
			}
			if who != "ann" && strings.Contains(v.Status(), "secret plan") {
				t.Errorf("step %d: %q sees ann's motto", n, who)
			}
			_, ds, err := svc.Facts(ctx, "g", who)
			if err != nil {
				t.Fatal(err)
			}
			sameFacts(t, ds[i], rep, who)
		}
		if i > 0 && gmDice[i].Commitment != gmDice[i-1].NextCommitment {
			t.Errorf("step %d's commitment is not the one step %d announced", i, i-1)
		}
	}
	cur, err := svc.Report(ctx, "g", game.Observer)
	if err != nil {
		t.Fatal(err)
	}
	if last := gmDice[len(gmDice)-1]; last.NextCommitment != cur.NextCommitment {
		t.Errorf("the last step's next commitment %s, the report's %s", last.NextCommitment, cur.NextCommitment)
	}
	// Once the game is over, the facts show every roll, part, stream and
	// hidden seed to everyone, as the reports do.
	for i := 0; i < 40 && !g.Over(); i++ {
		for _, p := range []string{"ann", "bob"} {
			if _, err := svc.Submit(ctx, game.Input{Game: "g", Player: p, Text: "PUSH 3"}); err != nil {
				t.Fatal(err)
			}
		}
		if g, err = svc.Get(ctx, "g"); err != nil {
			t.Fatal(err)
		}
	}
	if !g.Over() {
		t.Fatal("the race did not end")
	}
	for _, who := range []string{game.Observer, "ann", "bob", game.GM} {
		_, ds, err := svc.Facts(ctx, "g", who)
		if err != nil {
			t.Fatal(err)
		}
		for i := range ds {
			rep, err := svc.StepReport(ctx, "g", uint64(i), who)
			if err != nil {
				t.Fatal(err)
			}
			sameFacts(t, ds[i], rep, who)
			if ds[i].HiddenSeed == "" {
				t.Errorf("step %d as %q: no hidden seed once the game is over", i, who)
			}
			for _, p := range ds[i].Inputs {
				if p.Hidden && p.Salt == "" {
					t.Errorf("step %d as %q: the part %q is still sealed once the game is over", i, who, p.Head)
				}
			}
		}
	}
	if _, err := svc.StepView(ctx, "g", g.Step+1, "ann"); err == nil || !game.IsUserError(err) {
		t.Errorf("a step not yet played: %v", err)
	}
	if _, err := svc.StepView(ctx, "g", 0, "zed"); err == nil || !game.IsUserError(err) {
		t.Errorf("no such player: %v", err)
	}
	if _, _, err := svc.Facts(ctx, "g", "zed"); err == nil || !game.IsUserError(err) {
		t.Errorf("no such player: %v", err)
	}
}

// sameFacts holds a step's facts for who to what who's report of the step
// says: seeds, events, rolls and everything of the dice's inputs.
func sameFacts(t *testing.T, d game.StepFacts, rep *game.Report, who string) {
	t.Helper()
	if d.N != rep.Step || d.Seed != rep.RevealedSeed || d.Commitment != rep.RevealedCommitment || !reflect.DeepEqual(d.Rolls, rep.Rolls) ||
		!reflect.DeepEqual(d.Events, rep.Events) {
		t.Errorf("step %d as %q: dice %+v, report seed %s rolls %v", rep.Step, who, d, rep.RevealedSeed, rep.Rolls)
	}
	if d.Digest != rep.Digest || d.RollSeed != rep.RollSeed || !reflect.DeepEqual(d.Inputs, rep.Inputs) || !reflect.DeepEqual(d.Streams, rep.Streams) ||
		d.HiddenSeed != rep.HiddenSeed || d.LastOrders != rep.LastOrders || d.LastResent != rep.LastResent {
		t.Errorf("step %d as %q: the facts' inputs %+v digest %s roll seed %s streams %v hidden %s last %s/%v; the report's %+v %s %s %v %s %s/%v",
			rep.Step, who, d.Inputs, d.Digest, d.RollSeed, d.Streams, d.HiddenSeed, d.LastOrders, d.LastResent,
			rep.Inputs, rep.Digest, rep.RollSeed, rep.Streams, rep.HiddenSeed, rep.LastOrders, rep.LastResent)
	}
	if rep.DiceScheme >= 2 && (d.Digest == "" || d.RollSeed == "" || len(d.Inputs) == 0) {
		t.Errorf("step %d as %q: a scheme-2 step without inputs, digest or roll seed", rep.Step, who)
	}
}
