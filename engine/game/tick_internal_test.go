package game

import (
	"bytes"
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"orrery/engine"
	"orrery/engine/enginetest/toy"
	"orrery/engine/store"
	"orrery/engine/store/storetest"
)

// A tick that opens a new step for a bot seat (here a deadline resolving
// the step a human missed) has the bot answer it at once.
func TestTickPlaysBotsItGivesOrdersToGive(t *testing.T) {
	for _, k := range storetest.Kinds() {
		t.Run(k.Name, func(t *testing.T) {
			st := storetest.Open(t, k)
			now := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
			svc := New(st, []engine.Ruleset{toy.Ruleset()}, WithClock(func() time.Time { return now }))
			ctx := context.Background()
			for _, id := range []string{"a", "b"} {
				if _, err := svc.Create(ctx, CreateRequest{ID: id, Ruleset: "toy", DiceSecret: id,
					Players:  []PlayerSpec{{Name: "ann", Email: "ann@example.org"}, {Name: "bob", Bot: true}},
					Settings: &Settings{Early: true, TurnLength: time.Hour}}); err != nil {
					t.Fatal(err)
				}
			}
			botAnswered := func(id string) (uint64, bool) {
				g, err := svc.Get(ctx, id)
				if err != nil {
					t.Fatal(err)
				}
				for _, p := range g.Prompts {
					if p.Player == "bob" && p.Kind.Blocks() {
						return g.Step, contains(g.Answered, p.ID)
					}
				}
				t.Fatalf("game %s at step %d asks bob nothing", id, g.Step)
				return 0, false
			}
			for _, id := range []string{"a", "b"} {
				if step, ok := botAnswered(id); step != 0 || !ok {
					t.Fatalf("game %s: bob has not answered step %d after the creation", id, step)
				}
			}
			now = now.Add(2 * time.Hour) // ann missed the deadline
			res, err := svc.Tick(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if len(res) != 2 || len(res[0].Steps) != 1 || len(res[1].Steps) != 1 {
				t.Fatalf("the tick did %+v, want the deadline's step in a and b", res)
			}
			for _, id := range []string{"a", "b"} {
				if step, ok := botAnswered(id); step != 1 || !ok {
					t.Errorf("game %s: bob has not answered step %d after the tick that opened it", id, step)
				}
			}
		})
	}
}

// storedInfo is a game's record as stored, and its entry in ticks.
func storedInfo(t *testing.T, svc *Service, id string) (info []byte, ticks tickTimes, inTicks bool) {
	t.Helper()
	if err := svc.st.View(context.Background(), func(tx store.Tx) error {
		info = store.Copy(tx.Bucket(store.BucketGames).Bucket([]byte(id)).Get(store.KeyInfo))
		if tb := tx.Bucket(store.BucketTicks); tb != nil {
			ticks, inTicks = decodeTicks(tb.Get([]byte(id)))
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return info, ticks, inTicks
}

// wakeKeys lists the wake index's entries of game id, as times.
func wakeKeys(t *testing.T, svc *Service, id string) []time.Time {
	t.Helper()
	var out []time.Time
	if err := svc.st.View(context.Background(), func(tx store.Tx) error {
		return tx.Bucket(store.BucketWake).ForEach(func(k, _ []byte) error {
			if string(k[8:]) == id {
				out = append(out, fromUnixNano(store.KeyN(k[:8])))
			}
			return nil
		})
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

// newToyGame opens a store of kind k and makes game "a" of the toy
// ruleset in it (ann and bob, early resolution, two-hour turns), with
// *now as the service's clock: a test moves the time by setting it.
func newToyGame(t *testing.T, k storetest.Kind, now *time.Time) (*store.Store, *Service) {
	t.Helper()
	st := storetest.Open(t, k)
	svc := New(st, []engine.Ruleset{toy.Ruleset()}, WithClock(func() time.Time { return *now }))
	if _, err := svc.Create(context.Background(), CreateRequest{ID: "a", Ruleset: "toy", DiceSecret: "a",
		Players:  []PlayerSpec{{Name: "ann", Email: "ann@example.org"}, {Name: "bob", Email: "bob@example.org"}},
		Settings: &Settings{Early: true, TurnLength: 2 * time.Hour}}); err != nil {
		t.Fatal(err)
	}
	return st, svc
}

// A tick that only looks at a game (nothing due but the look) leaves its
// record byte for byte as it was: only its entry in ticks and its wake
// key move. The record never holds the tick times.
func TestTickThatOnlyLooksLeavesTheRecord(t *testing.T) {
	storetest.Each(t, func(t *testing.T, k storetest.Kind) {
		now := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
		st, svc := newToyGame(t, k, &now)
		ctx := context.Background()
		before, ticks, ok := storedInfo(t, svc, "a")
		if !ok || !ticks.ticked.IsZero() || !ticks.wake.Equal(now) {
			t.Fatalf("a new game's ticks entry is %+v (%v), want never ticked, due now", ticks, ok)
		}
		if bytes.Contains(before, []byte(`"ticked"`)) || bytes.Contains(before, []byte(`"wake"`)) {
			t.Errorf("the record holds tick times: %s", before)
		}
		now = now.Add(time.Minute)
		if res, err := svc.Tick(ctx); err != nil || len(res) != 0 {
			t.Fatalf("the tick did %+v, %v; want a look only", res, err)
		}
		after, ticks, _ := storedInfo(t, svc, "a")
		if !bytes.Equal(before, after) {
			t.Errorf("a tick that only looked rewrote the record:\n%s\nto\n%s", before, after)
		}
		deadline := now.Add(-time.Minute).Add(2 * time.Hour)
		if !ticks.ticked.Equal(now) || !ticks.wake.Equal(deadline) {
			t.Errorf("after the look ticks holds %+v, want ticked %v, wake at the deadline %v", ticks, now, deadline)
		}
		if w := wakeKeys(t, svc, "a"); len(w) != 1 || !w[0].Equal(deadline) {
			t.Errorf("the wake index holds %v for a, want the deadline only", w)
		}
		if g, err := svc.Get(ctx, "a"); err != nil || !g.Ticked.Equal(now) || !g.Wake.Equal(deadline) {
			t.Errorf("Get gives ticked %v wake %v (%v), want %v and %v", g.Ticked, g.Wake, err, now, deadline)
		}
		// An index rebuild keeps ticks: the game still waits for its
		// deadline.
		if err := st.Update(ctx, func(tx store.Tx) error { return tx.Bucket(store.BucketMeta).Delete(store.KeyIndexes) }); err != nil {
			t.Fatal(err)
		}
		svc = New(st, []engine.Ruleset{toy.Ruleset()}, WithClock(func() time.Time { return now }))
		now = now.Add(time.Minute)
		if res, err := svc.Tick(ctx); err != nil || len(res) != 0 {
			t.Fatalf("the tick after the rebuild did %+v, %v; want nothing", res, err)
		}
		if _, again, _ := storedInfo(t, svc, "a"); again != ticks {
			t.Errorf("after an index rebuild ticks holds %+v, want %+v as before", again, ticks)
		}
	})
}

// A database of schema version 2 keeps its games' tick times in their
// records: opened by this version, Get reads them there, the first Tick's
// index rebuild copies them into ticks, and the game wakes when it would
// have (here for its reminder), not at once.
func TestVersion2TickTimesCarriedOver(t *testing.T) {
	storetest.Each(t, func(t *testing.T, k storetest.Kind) {
		open := k.New(t)
		st, err := open()
		if err != nil {
			t.Fatal(err)
		}
		now := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
		clock := WithClock(func() time.Time { return now })
		rulesets := []engine.Ruleset{toy.Ruleset()}
		svc := New(st, rulesets, clock)
		ctx := context.Background()
		for _, id := range []string{"a", "b"} {
			if _, err := svc.Create(ctx, CreateRequest{ID: id, Ruleset: "toy", DiceSecret: id,
				Players:  []PlayerSpec{{Name: "ann", Email: "ann@example.org"}, {Name: "bob", Email: "bob@example.org"}},
				Settings: &Settings{Early: true, TurnLength: 2 * time.Hour, Reminders: []time.Duration{30 * time.Minute}}}); err != nil {
				t.Fatal(err)
			}
		}
		now = now.Add(time.Minute)
		if _, err := svc.Tick(ctx); err != nil {
			t.Fatal(err)
		}
		ticked, reminder := now, now.Add(-time.Minute).Add(90*time.Minute)
		// Write the records as version 2 did, with the tick times in
		// them, and drop ticks.
		if err := st.Update(ctx, func(tx store.Tx) error {
			for _, id := range []string{"a", "b"} {
				b := tx.Bucket(store.BucketGames).Bucket([]byte(id))
				g, err := readGame(b)
				if err != nil {
					return err
				}
				if err := putJSON(b, store.KeyInfo, withTicks(tx, g)); err != nil {
					return err
				}
			}
			if err := tx.DeleteBucket(store.BucketTicks); err != nil {
				return err
			}
			return tx.Bucket(store.BucketMeta).Put(store.KeySchema, []byte("2"))
		}); err != nil {
			t.Fatal(err)
		}
		st.Close()
		if st, err = open(); err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		svc = New(st, rulesets, clock)
		if g, err := svc.Get(ctx, "a"); err != nil || !g.Ticked.Equal(ticked) || !g.Wake.Equal(reminder) {
			t.Fatalf("before the rebuild Get gives ticked %v wake %v (%v), want %v and %v", g.Ticked, g.Wake, err, ticked, reminder)
		}
		now = now.Add(time.Minute)
		if res, err := svc.Tick(ctx); err != nil || len(res) != 0 {
			t.Fatalf("the first tick after the upgrade did %+v, %v; want nothing", res, err)
		}
		for _, id := range []string{"a", "b"} {
			_, ticks, ok := storedInfo(t, svc, id)
			if !ok || !ticks.ticked.Equal(ticked) || !ticks.wake.Equal(reminder) {
				t.Errorf("%s: after the rebuild ticks holds %+v (%v), want ticked %v, wake %v", id, ticks, ok, ticked, reminder)
			}
			if w := wakeKeys(t, svc, id); len(w) != 1 || !w[0].Equal(reminder) {
				t.Errorf("%s: the wake index holds %v, want the reminder only", id, w)
			}
		}
		now = reminder
		res, err := svc.Tick(ctx)
		if err != nil || len(res) != 2 || len(res[0].Notices) != 2 || res[0].Notices[0].Kind != "reminder" {
			t.Fatalf("at the reminder's time the tick did %+v, %v; want a reminder in a and b", res, err)
		}
		info, _, _ := storedInfo(t, svc, "a")
		if bytes.Contains(info, []byte(`"ticked"`)) {
			t.Errorf("a record written since the upgrade still holds its tick time: %s", info)
		}
	})
}

// Two Ticks at once over one database (two daemons, or a daemon and
// `game tick`, each with a store of its own on PostgreSQL) split the due
// games: each handles a share, every game is handled once, and neither
// waits for the other. Each Tick's hook, at its first game, waits until
// the other Tick has reached a game of its own, inside its batch's open
// transaction: a Tick that waited for the other's batch to end would
// never get there. On bbolt, whose one writer makes the second wait
// anyway, the two Ticks run at once without that meeting, and still
// handle each game once.
func TestTwoTicksSplitTheDueGames(t *testing.T) {
	storetest.Each(t, func(t *testing.T, k storetest.Kind) {
		open := k.New(t)
		stores := make([]*store.Store, 2)
		for i := range stores {
			if i > 0 && k.Name == "bbolt" {
				stores[i] = stores[0] // one process holds the file
				continue
			}
			st, err := open()
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { st.Close() })
			stores[i] = st
		}
		now := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
		clock := WithClock(func() time.Time { return now })
		rulesets := []engine.Ruleset{toy.Ruleset()}
		ctx := context.Background()
		const n = 30
		for i := range n {
			id := fmt.Sprintf("g%02d", i)
			if _, err := New(stores[0], rulesets, clock).Create(ctx, CreateRequest{ID: id, Ruleset: "toy", DiceSecret: id,
				Players:  []PlayerSpec{{Name: "ann", Email: "ann@example.org"}, {Name: "bob", Email: "bob@example.org"}},
				Settings: &Settings{Early: true, TurnLength: time.Hour}}); err != nil {
				t.Fatal(err)
			}
		}
		now = now.Add(2 * time.Hour) // every deadline passed: each tick resolves a step
		meet := k.Name != "bbolt"
		var in [2]chan struct{}
		var met [2]error
		results := make([][]TickResult, 2)
		errs := make([]error, 2)
		var wg sync.WaitGroup
		for i := range 2 {
			in[i] = make(chan struct{})
		}
		for i := range 2 {
			svc := New(stores[i], rulesets, clock)
			svc.tickBatch = 10
			var once sync.Once
			hook := func(store.Tx, *Change) error {
				if !meet {
					return nil
				}
				once.Do(func() {
					close(in[i])
					select {
					case <-in[1-i]:
					case <-time.After(20 * time.Second):
						met[i] = fmt.Errorf("tick %d held its batch 20 s, and the other tick reached no game meanwhile", i)
					}
				})
				return nil
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				results[i], errs[i] = svc.Tick(ctx, hook)
			}()
		}
		wg.Wait()
		for i := range 2 {
			if errs[i] != nil {
				t.Fatalf("tick %d: %v", i, errs[i])
			}
			if met[i] != nil {
				t.Error(met[i])
			}
		}
		handled := map[string]int{}
		for i, res := range results {
			for _, r := range res {
				if len(r.Steps) != 1 {
					t.Errorf("tick %d did %d steps in %s, want 1", i, len(r.Steps), r.Game)
				}
				handled[r.Game]++
			}
			// Both ticks were inside a batch at once (met, above); the
			// share each ends with may still be all or nothing: when
			// PostgreSQL refuses one's batch for a conflict with the
			// other's commit, its games are tried again one by one, and
			// the other may have done them by then.
			t.Logf("tick %d handled %d games", i, len(res))
		}
		for i := range n {
			id := fmt.Sprintf("g%02d", i)
			if handled[id] != 1 {
				t.Errorf("%s was handled %d times, want once", id, handled[id])
			}
			g, err := New(stores[0], rulesets, clock).Get(ctx, id)
			if err != nil || g.Step != 1 {
				t.Errorf("%s is at step %d (%v), want 1", id, g.Step, err)
			}
		}
	})
}

// ticksSpy counts the writes to the ticks bucket made through a game's
// bucket (writeGameFrom reaches ticks by b.Tx()).
type ticksSpy struct {
	spied
	puts *int
}

// spied names store.Bucket for embedding (a field named Bucket would hide
// the method).
type spied = store.Bucket

func (s ticksSpy) Tx() store.Tx { return ticksSpyTx{s.spied.Tx(), s.puts} }

type ticksSpyTx struct {
	store.Tx
	puts *int
}

func (s ticksSpyTx) Bucket(name []byte) store.Bucket { return s.wrap(name, s.Tx.Bucket(name)) }

func (s ticksSpyTx) CreateBucketIfNotExists(name []byte) (store.Bucket, error) {
	b, err := s.Tx.CreateBucketIfNotExists(name)
	return s.wrap(name, b), err
}

// wrap counts b's writes if it is ticks (and keeps a missing bucket nil).
func (s ticksSpyTx) wrap(name []byte, b store.Bucket) store.Bucket {
	if b == nil || !bytes.Equal(name, store.BucketTicks) {
		return b
	}
	return ticksSpyBucket{b, s.puts}
}

type ticksSpyBucket struct {
	spied
	puts *int
}

func (s ticksSpyBucket) Put(k, v []byte) error {
	*s.puts++
	return s.spied.Put(k, v)
}

// A write of a game's record that leaves its tick times as they are (an
// order that does not finish the turn) does not write its ticks entry
// again; one that moves its wake (a new deadline) does.
func TestWriteThatKeepsTheTimesLeavesTicks(t *testing.T) {
	storetest.Each(t, func(t *testing.T, k storetest.Kind) {
		now := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
		st, svc := newToyGame(t, k, &now)
		ctx := context.Background()
		now = now.Add(time.Minute)
		if _, err := svc.Tick(ctx); err != nil {
			t.Fatal(err)
		}
		_, before, _ := storedInfo(t, svc, "a")
		write := func(change func(g *Game)) (puts int) {
			t.Helper()
			if err := st.Update(ctx, func(tx store.Tx) error {
				puts = 0
				b := tx.Bucket(store.BucketGames).Bucket([]byte("a"))
				g, err := readGame(b)
				if err != nil {
					return err
				}
				was := factsOf(g)
				change(g)
				return writeGameFrom(ticksSpy{b, &puts}, g, was)
			}); err != nil {
				t.Fatal(err)
			}
			return puts
		}
		if n := write(func(g *Game) { g.Updated = now }); n != 0 {
			t.Errorf("a write that keeps the tick times wrote ticks %d times", n)
		}
		if _, after, ok := storedInfo(t, svc, "a"); !ok || after != before {
			t.Errorf("ticks holds %+v (%v) after that write, want %+v", after, ok, before)
		}
		later := before.wake.Add(time.Hour)
		if n := write(func(g *Game) { g.Deadline = later }); n != 1 {
			t.Errorf("a write that moves the deadline wrote ticks %d times, want once", n)
		}
		if _, after, _ := storedInfo(t, svc, "a"); !after.wake.Equal(later) || !after.ticked.Equal(before.ticked) {
			t.Errorf("after the deadline moved ticks holds %+v, want ticked %v, wake %v", after, before.ticked, later)
		}
		if w := wakeKeys(t, svc, "a"); len(w) != 1 || !w[0].Equal(later) {
			t.Errorf("the wake index holds %v for a, want the new deadline only", w)
		}
	})
}
