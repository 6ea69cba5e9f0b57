package game_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"orrery/engine"
	"orrery/engine/enginetest/toy"
	"orrery/engine/game"
	"orrery/engine/store"
	"orrery/engine/store/storetest"
	"orrery/games"
)

// renamed is the toy ruleset under another name: a second ruleset for the
// ruleset filter.
type renamed struct {
	engine.Ruleset
	name string
}

func (r renamed) Info() engine.Info { i := r.Ruleset.Info(); i.Name = r.name; return i }

func twoRulesets() []engine.Ruleset {
	return []engine.Ruleset{toy.Ruleset(), renamed{toy.Ruleset(), "toy2"}}
}

// newServiceWith returns a service on a new store, its clock, and a
// function that opens its store again.
func newServiceWith(t testing.TB, rulesets []engine.Ruleset) (*game.Service, *clock, func() (*store.Store, error)) {
	t.Helper()
	open := storetest.Default().New(t)
	st, err := open()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	c := &clock{t: time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)}
	return game.New(st, rulesets, game.WithClock(c.now)), c, open
}

func mustCreate(t testing.TB, svc *game.Service, req game.CreateRequest) {
	t.Helper()
	if _, err := svc.Create(context.Background(), req); err != nil {
		t.Fatal(err)
	}
}

func seats(emails ...string) []game.PlayerSpec {
	var out []game.PlayerSpec
	for _, e := range emails {
		name, _, _ := strings.Cut(e, "@")
		out = append(out, game.PlayerSpec{Name: name, Email: e})
	}
	return out
}

func ids(gs []*game.Game) string {
	var out []string
	for _, g := range gs {
		out = append(out, g.ID)
	}
	return strings.Join(out, " ")
}

// listFixture holds games in every state game list filters on.
func listFixture(t *testing.T) *game.Service {
	svc, _, _ := newServiceWith(t, twoRulesets())
	mustCreate(t, svc, game.CreateRequest{ID: "a1", Ruleset: "toy", Players: seats("ann@x.org", "bob@x.org")})
	mustCreate(t, svc, game.CreateRequest{ID: "a2", Ruleset: "toy", Players: seats("ann@x.org", "cyd@x.org")})
	submit(t, svc, "a2", "ann", "PUSH 1") // a2 now waits for cyd only
	mustCreate(t, svc, game.CreateRequest{ID: "b1", Ruleset: "toy2", Players: seats("bob@x.org", "cyd@x.org")})
	mustCreate(t, svc, game.CreateRequest{ID: "o1", Ruleset: "toy", Players: seats("ann@x.org"), Seats: 3})
	mustCreate(t, svc, game.CreateRequest{ID: "z9", Ruleset: "toy", Players: seats("dan@x.org"), Options: map[string]string{"finish": "1"}})
	if r := submit(t, svc, "z9", "dan", "PUSH 1"); !r.Game.Over() {
		t.Fatal("z9 should be over after one push")
	}
	return svc
}

func TestListGamesFilters(t *testing.T) {
	svc := listFixture(t)
	ctx := context.Background()
	cases := []struct {
		f    game.ListFilter
		want string
	}{
		{game.ListFilter{}, "a1 a2 b1 o1 z9"},
		{game.ListFilter{Ruleset: "toy2"}, "b1"},
		{game.ListFilter{Ruleset: "chess"}, ""},
		{game.ListFilter{Player: "ann@x.org"}, "a1 a2 o1"},
		{game.ListFilter{Player: " ANN@X.org"}, "a1 a2 o1"},
		{game.ListFilter{Awaiting: true}, "a1 a2 b1"},
		{game.ListFilter{Player: "ann@x.org", Awaiting: true}, "a1"},
		{game.ListFilter{Player: "cyd@x.org", Awaiting: true}, "a2 b1"},
		{game.ListFilter{Open: true}, "o1"},
		{game.ListFilter{Ruleset: "toy", Awaiting: true}, "a1 a2"},
		{game.ListFilter{Open: true, Player: "ann@x.org"}, "o1"},
		{game.ListFilter{Player: "bob@x.org", Ruleset: "toy"}, "a1"},
		{game.ListFilter{Player: "dan@x.org", Awaiting: true}, ""},
	}
	for _, c := range cases {
		page, err := svc.ListGames(ctx, game.ListOptions{ListFilter: c.f})
		if err != nil {
			t.Fatal(err)
		}
		if got := ids(page.Games); got != c.want || page.Next != "" {
			t.Errorf("%+v: listed %q (next %q), want %q", c.f, got, page.Next, c.want)
		}
		n, err := svc.CountGames(ctx, c.f)
		if err != nil {
			t.Fatal(err)
		}
		if want := len(strings.Fields(c.want)); n != want {
			t.Errorf("%+v: counted %d, want %d", c.f, n, want)
		}
	}
}

// Pages follow each other by After, or are picked by Offset, and cover
// every game once, in id order.
func TestListGamesPages(t *testing.T) {
	svc, _, _ := newServiceWith(t, twoRulesets())
	ctx := context.Background()
	var want []string
	for i := range 25 {
		id := fmt.Sprintf("g%02d", i)
		want = append(want, id)
		rs := "toy"
		if i%3 == 0 {
			rs = "toy2"
		}
		mustCreate(t, svc, game.CreateRequest{ID: id, Ruleset: rs, Players: seats(fmt.Sprintf("p%d@x.org", i))})
	}
	var got []string
	opt := game.ListOptions{Limit: 10}
	pages := 0
	for {
		page, err := svc.ListGames(ctx, opt)
		if err != nil {
			t.Fatal(err)
		}
		pages++
		if len(page.Games) > 10 {
			t.Fatalf("a page of %d games, limit 10", len(page.Games))
		}
		for _, g := range page.Games {
			got = append(got, g.ID)
		}
		if page.Next == "" {
			break
		}
		opt.After = page.Next
	}
	if strings.Join(got, " ") != strings.Join(want, " ") || pages != 3 {
		t.Errorf("%d pages listed %v", pages, got)
	}
	page, err := svc.ListGames(ctx, game.ListOptions{Offset: 20, Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(page.Games); got != "g20 g21 g22 g23 g24" || page.Next != "" {
		t.Errorf("offset 20: %q next %q", got, page.Next)
	}
	page, err = svc.ListGames(ctx, game.ListOptions{ListFilter: game.ListFilter{Ruleset: "toy2"}, After: "g03", Limit: 2})
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(page.Games); got != "g06 g09" || page.Next != "g09" {
		t.Errorf("toy2 after g03: %q next %q", got, page.Next)
	}
}

// The tags follow a game through its life: open while signing up,
// awaiting with each awaited address, none of it once over; a replaced or
// kicked seat's address leaves.
func TestListIndexFollowsChanges(t *testing.T) {
	svc, _, _ := newServiceWith(t, twoRulesets())
	ctx := context.Background()
	list := func(f game.ListFilter) string {
		t.Helper()
		page, err := svc.ListGames(ctx, game.ListOptions{ListFilter: f})
		if err != nil {
			t.Fatal(err)
		}
		return ids(page.Games)
	}
	mustCreate(t, svc, game.CreateRequest{ID: "g", Ruleset: "toy", Players: seats("ann@x.org"), Seats: 2, Options: map[string]string{"finish": "3"}})
	if list(game.ListFilter{Open: true}) != "g" || list(game.ListFilter{Awaiting: true}) != "" {
		t.Fatal("a game signing up is not listed as open only")
	}
	if _, err := svc.Join(ctx, "g", game.PlayerSpec{Name: "bob", Email: "bob@x.org"}); err != nil {
		t.Fatal(err)
	}
	if list(game.ListFilter{Open: true}) != "" || list(game.ListFilter{Player: "bob@x.org", Awaiting: true}) != "g" {
		t.Fatal("after the last JOIN the game is not awaiting bob")
	}
	if _, _, err := svc.Replace(ctx, "g", "bob", "carl@x.org"); err != nil {
		t.Fatal(err)
	}
	if list(game.ListFilter{Player: "bob@x.org"}) != "" || list(game.ListFilter{Player: "carl@x.org", Awaiting: true}) != "g" {
		t.Fatal("the replaced address is still listed, or the new one is not")
	}
	if _, _, err := svc.Kick(ctx, "g", "bob"); err != nil {
		t.Fatal(err)
	}
	if list(game.ListFilter{Player: "carl@x.org"}) != "" {
		t.Fatal("a kicked seat's address is still listed")
	}
	for i := 0; ; i++ {
		r := submit(t, svc, "g", "ann", "PUSH 3")
		if r.Game.Over() {
			break
		}
		if i > 10 {
			t.Fatal("the race does not end")
		}
	}
	if list(game.ListFilter{Awaiting: true}) != "" || list(game.ListFilter{Ruleset: "toy"}) != "g" {
		t.Fatal("a game over is still awaiting, or lost its ruleset")
	}
}

// A database from before the indexes (schema version 1: the players
// bucket, no seats, game-tags or log-by-step) gets them built on first
// use, and then answers as a new one.
func TestIndexesRebuiltForOldDatabase(t *testing.T) {
	ctx := context.Background()
	svc, _, open := newServiceWith(t, twoRulesets())
	mustCreate(t, svc, game.CreateRequest{ID: "a1", Ruleset: "toy", Players: seats("ann@x.org", "bob@x.org"), Settings: &game.Settings{Early: true, Press: "signed"}})
	if _, _, err := svc.Press(ctx, "a1", "ann", nil, "hello bob"); err != nil {
		t.Fatal(err)
	}
	mustCreate(t, svc, game.CreateRequest{ID: "o1", Ruleset: "toy2", Players: seats("ann@x.org"), Seats: 2})
	// Make it a version 1 file.
	st := svc.Store()
	err := st.Update(context.Background(), func(tx store.Tx) error {
		for _, b := range [][]byte{store.BucketSeats, store.BucketTags, store.BucketWake} {
			if err := tx.DeleteBucket(b); err != nil {
				return err
			}
		}
		if err := tx.Bucket(store.BucketGames).Bucket([]byte("a1")).DeleteBucket(store.BucketLogStep); err != nil {
			return err
		}
		if _, err := tx.CreateBucket(store.BucketPlayers); err != nil {
			return err
		}
		return tx.Bucket(store.BucketMeta).Put(store.KeySchema, []byte("1"))
	})
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	st, err = open()
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	svc = game.New(st, twoRulesets())
	if g, err := svc.GamesOf(ctx, "ann@x.org"); err != nil || strings.Join(g, " ") != "a1 o1" {
		t.Fatalf("ann's games after the rebuild: %v %v", g, err)
	}
	page, err := svc.ListGames(ctx, game.ListOptions{ListFilter: game.ListFilter{Open: true}})
	if err != nil || ids(page.Games) != "o1" {
		t.Fatalf("open games after the rebuild: %v %v", page, err)
	}
	r, err := svc.StepReport(ctx, "a1", 0, "bob")
	if err != nil || len(r.Press) != 1 || r.Press[0].Text != "hello bob" {
		t.Fatalf("bob's press of step 0 after the rebuild: %+v %v", r, err)
	}
	st.View(context.Background(), func(tx store.Tx) error {
		if tx.Bucket(store.BucketPlayers) != nil {
			t.Error("version 1's players bucket survived the rebuild")
		}
		if c := tx.Bucket(store.BucketWake).KeyN(); c != 1 {
			t.Errorf("%d games in the wake index, want a1 only", c)
		}
		return nil
	})
}

// A catch-up Tick handles many due games in batches, each game once; a
// game whose tick fails is reported and holds up none of the others.
func TestTickBatchesAndIsolatesFailures(t *testing.T) {
	svc, clk, _ := newServiceWith(t, twoRulesets())
	ctx := context.Background()
	const n = 600
	for i := range n {
		mustCreate(t, svc, game.CreateRequest{ID: fmt.Sprintf("g%03d", i), Ruleset: "toy", Players: seats(fmt.Sprintf("p%d@x.org", i)),
			Settings: &game.Settings{TurnLength: time.Hour}})
	}
	clk.t = clk.t.Add(2 * time.Hour)
	broken := errors.New("the mail side refuses g300")
	hook := func(_ store.Tx, c *game.Change) error {
		if c.Game.ID == "g300" {
			return broken
		}
		return nil
	}
	res, err := svc.Tick(ctx, hook)
	if !errors.Is(err, broken) || !strings.Contains(err.Error(), "g300") {
		t.Errorf("Tick's error %v does not name g300's failure", err)
	}
	if len(res) != n-1 {
		t.Errorf("%d games resolved, want %d", len(res), n-1)
	}
	for i := range n {
		g, err := svc.Get(ctx, fmt.Sprintf("g%03d", i))
		if err != nil {
			t.Fatal(err)
		}
		if want := uint64(1); i == 300 && g.Step != 0 || i != 300 && g.Step != want {
			t.Fatalf("%s is at step %d after the tick", g.ID, g.Step)
		}
	}
	// Done once: the next tick finds only the broken game still due.
	res, err = svc.Tick(ctx)
	if err != nil || len(res) != 1 || res[0].Game != "g300" {
		t.Errorf("second tick: %v %v", res, err)
	}
}

// A reminder nobody needed (every order in, early resolution off) does
// not keep the game due until its deadline.
func TestSeenReminderNotDueAgain(t *testing.T) {
	svc, clk := newService(t)
	ctx := context.Background()
	createWith(t, svc, game.Settings{TurnLength: 24 * time.Hour, Reminders: []time.Duration{12 * time.Hour}}, "ann", "bob")
	submit(t, svc, "g", "ann", "PUSH 1")
	submit(t, svc, "g", "bob", "PUSH 1")
	clk.t = clk.t.Add(13 * time.Hour)
	if _, ns := tick(t, svc); len(ns) != 0 {
		t.Errorf("a reminder went out though every order is in: %s", kinds(ns))
	}
	g, err := svc.Get(ctx, "g")
	if err != nil {
		t.Fatal(err)
	}
	if !g.Wake.Equal(g.Deadline) {
		t.Errorf("the game wakes at %v, want its deadline %v", g.Wake, g.Deadline)
	}
}

// StepOfTurn bisects the step records: for every ruleset's bot game, with
// a rollback in it, it finds the first step of each turn as reading every
// step would, and says so for a turn never reached.
func TestStepOfTurnBisects(t *testing.T) {
	ctx := context.Background()
	for _, rs := range games.All() {
		t.Run(rs.Info().Name, func(t *testing.T) {
			st := storetest.Open(t, storetest.Default())
			svc := game.New(st, games.All(), game.WithBotStepLimit(40))
			info := rs.Info()
			var bots []game.PlayerSpec
			for i := range info.MinPlayers {
				bots = append(bots, game.PlayerSpec{Name: fmt.Sprintf("bot%d", i), Bot: true})
			}
			g, err := svc.Create(ctx, game.CreateRequest{ID: "b", Ruleset: info.Name, Players: bots, DiceSecret: "bisect"})
			if err != nil {
				t.Fatal(err)
			}
			if g.Step > 4 {
				if _, _, err := svc.Rollback(ctx, "b", g.Step/2, "test"); err != nil {
					t.Fatal(err)
				}
			}
			if g, err = svc.Get(ctx, "b"); err != nil {
				t.Fatal(err)
			}
			first := map[int]uint64{}
			for n := uint64(0); n <= g.Step; n++ {
				r, err := svc.StepReport(ctx, "b", n, "")
				if err != nil {
					t.Fatal(err)
				}
				if _, ok := first[r.Turn]; !ok {
					first[r.Turn] = n
				}
			}
			t.Logf("%d steps, turn %d", g.Step, g.Turn)
			for turn := -1; turn <= g.Turn+1; turn++ {
				step, err := svc.StepOfTurn(ctx, "b", turn)
				want, ok := first[turn]
				switch {
				case ok && (err != nil || step != want):
					t.Errorf("turn %d: step %d, %v; want step %d", turn, step, err, want)
				case !ok && !game.IsUserError(err):
					t.Errorf("turn %d was never reached, but StepOfTurn gave step %d, %v", turn, step, err)
				}
			}
		})
	}
}
