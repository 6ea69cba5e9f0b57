package game

import (
	"context"
	"errors"
	"testing"

	"orrery/engine"
	"orrery/engine/enginetest/toy"
	"orrery/engine/store"
	"orrery/engine/store/storetest"
)

// The indexes' version marker read inside a transaction group is
// remembered once the group commits, and not before (it may be the
// group's own write): the daemon reads every mail in a group, and read
// the marker again for each one (a round trip on PostgreSQL). A group
// that rolls back its own rebuild leaves it unremembered.
func TestIndexMarkerRememberedWhenTheGroupCommits(t *testing.T) {
	storetest.Each(t, func(t *testing.T, k storetest.Kind) {
		st := storetest.Open(t, k)
		ctx := context.Background()
		svc := New(st, []engine.Ruleset{toy.Ruleset()})
		if _, err := svc.Create(ctx, CreateRequest{ID: "a", Ruleset: "toy", DiceSecret: "a",
			Players: []PlayerSpec{{Name: "ann", Email: "ann@example.org"}, {Name: "bob", Email: "bob@example.org"}}}); err != nil {
			t.Fatal(err)
		}
		ofAnn := func(ctx context.Context) {
			t.Helper()
			if ids, err := svc.GamesOf(ctx, "ann@example.org"); err != nil || len(ids) != 1 || ids[0] != "a" {
				t.Fatalf("GamesOf gives %v, %v; want [a]", ids, err)
			}
		}

		// The marker rebuilt in a group that then fails: not remembered.
		svc = New(st, []engine.Ruleset{toy.Ruleset()})
		if err := st.Update(ctx, func(tx store.Tx) error { return tx.Bucket(store.BucketMeta).Delete(store.KeyIndexes) }); err != nil {
			t.Fatal(err)
		}
		failed := errors.New("the batch fails")
		if err := st.Group(ctx, func(ctx context.Context) error {
			ofAnn(ctx) // rebuilds the indexes in the group
			ofAnn(ctx) // reads the group's own marker
			return failed
		}); !errors.Is(err, failed) {
			t.Fatalf("the group returned %v, want its failure", err)
		}
		if svc.index.ok.Load() {
			t.Fatal("a marker rolled back with its group is remembered")
		}

		// Rebuilt and committed, then read by a new service in a group
		// that commits: remembered after the commit only.
		ofAnn(ctx)
		svc = New(st, []engine.Ruleset{toy.Ruleset()})
		if err := st.Group(ctx, func(ctx context.Context) error {
			ofAnn(ctx)
			if svc.index.ok.Load() {
				t.Error("the marker is remembered before its group committed")
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if !svc.index.ok.Load() {
			t.Error("the marker read in a group that committed is not remembered: every mail reads it again")
		}
	})
}
