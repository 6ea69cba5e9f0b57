package pgstore_test

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"orrery/engine/store"
	"orrery/engine/store/pgstore"
	"orrery/engine/store/storetest"
)

// Processes that ask for the turn lock take turns: one waits while
// another holds it, and a holder that asks again at once goes behind the
// one already waiting; a wait cancelled leaves no lock behind; a store
// in another schema does not wait.
func TestTurnTakesTurns(t *testing.T) {
	dsn := storetest.NewSchema(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	open := func(dsn string) *store.Store {
		s, err := pgstore.Open(ctx, dsn, pgstore.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	a, b, other := open(dsn), open(dsn), open(storetest.NewSchema(t))
	const key = 0x7465737402
	ta, tb, to := pgstore.NewTurns(a, key), pgstore.NewTurns(b, key), pgstore.NewTurns(other, key)
	defer ta.Close()
	defer tb.Close()
	defer to.Close()
	turns := map[*store.Store]*pgstore.Turns{a: ta, b: tb, other: to}
	var mu sync.Mutex
	var order []string
	turn := func(s *store.Store, name string, fn func()) error {
		return turns[s].Run(ctx, func(context.Context) error {
			mu.Lock()
			order = append(order, name)
			mu.Unlock()
			if fn != nil {
				fn()
			}
			return nil
		})
	}
	bDone := make(chan error, 1)
	err := turn(a, "a", func() {
		// Another schema's turn is its own.
		octx, ocancel := context.WithTimeout(ctx, 10*time.Second)
		defer ocancel()
		if err := to.Run(octx, func(context.Context) error { return nil }); err != nil {
			t.Errorf("a store in another schema waited for the turn: %v", err)
		}
		// A wait given up leaves nothing held.
		wctx, wcancel := context.WithTimeout(ctx, 200*time.Millisecond)
		defer wcancel()
		if err := tb.Run(wctx, func(context.Context) error {
			t.Error("b had the turn while a held it")
			return nil
		}); err == nil {
			t.Error("b's cancelled wait for the turn returned no error")
		}
		conn, err := pgx.Connect(ctx, dsn)
		if err != nil {
			t.Error(err)
			return
		}
		defer conn.Close(ctx)
		// waitFor polls until as many requests for the lock wait.
		waitFor := func(want int) {
			for waiting := -1; waiting != want && ctx.Err() == nil; time.Sleep(10 * time.Millisecond) {
				if err := conn.QueryRow(ctx, `SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted
				AND (classid::bigint << 32 | objid::bigint) = hashtextextended(current_schema(), $1)`, int64(key)).Scan(&waiting); err != nil {
					t.Error(err)
					return
				}
			}
		}
		// The wait given up ends with its session, which the server
		// notices a moment later: until then its request still shows,
		// and would pass for b's below.
		waitFor(0)
		go func() { bDone <- turn(b, "b", nil) }()
		// b waits meanwhile: PostgreSQL shows the lock not granted.
		waitFor(1)
	})
	if err != nil {
		t.Fatal(err)
	}
	// a asks again at once: b, waiting already, goes first.
	if err := turn(a, "a", nil); err != nil {
		t.Fatal(err)
	}
	if err := <-bDone; err != nil {
		t.Fatal(err)
	}
	if want := []string{"a", "b", "a"}; !slices.Equal(order, want) {
		t.Errorf("the turns went %v, want %v", order, want)
	}
}
