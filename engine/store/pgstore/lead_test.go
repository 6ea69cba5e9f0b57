package pgstore_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"orrery/engine/store"
	"orrery/engine/store/pgstore"
	"orrery/engine/store/storetest"
)

// Two processes' stores want to lead: one does, the other waits; when the
// leader's session dies (pg_terminate_backend, as when its process is
// killed), the leader's work is cancelled and the standby takes over
// within a few polls. (The old leader learns of it at its next poll, so
// the two may overlap by up to a poll: what a leader does must stay safe
// then, as reading mail is, each mail being applied once by its seen
// record.)
func TestLeadFailsOver(t *testing.T) {
	dsn := storetest.NewSchema(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	open := func() *store.Store {
		s, err := pgstore.Open(ctx, dsn, pgstore.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	a, b := open(), open()
	const key, poll = 0x7465737401, 100 * time.Millisecond
	aLed, aLost := make(chan struct{}), make(chan struct{})
	// a's process "dies" with its session: its Lead ends then.
	aCtx, aDie := context.WithCancel(ctx)
	go pgstore.Lead(aCtx, a, key, poll, nil, func(ctx context.Context) error {
		close(aLed)
		<-ctx.Done()
		aDie()
		close(aLost)
		return ctx.Err()
	})
	<-aLed
	bLed := make(chan time.Time, 1)
	go pgstore.Lead(ctx, b, key, poll, nil, func(ctx context.Context) error {
		bLed <- time.Now()
		<-ctx.Done()
		return nil
	})
	select {
	case <-bLed:
		t.Fatal("the standby led while the leader held the lock")
	case <-time.After(5 * poll):
	}
	// Kill the leader's session.
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var n int
	if err := conn.QueryRow(ctx, `SELECT count(pg_terminate_backend(pid)) FROM pg_locks
		WHERE locktype = 'advisory' AND granted AND (classid::bigint << 32 | objid::bigint) = $1`, int64(key)).Scan(&n); err != nil || n != 1 {
		t.Fatalf("terminated %d sessions holding the lock: %v", n, err)
	}
	killed := time.Now()
	select {
	case <-aLost:
	case <-time.After(20 * poll):
		t.Fatal("the old leader's work was not cancelled when its session died")
	}
	select {
	case at := <-bLed:
		t.Logf("the standby led %v after the leader's session died", at.Sub(killed).Round(time.Millisecond))
	case <-time.After(50 * poll):
		t.Fatal("the standby did not take over")
	}
	if err := pgstore.Lead(ctx, storetest.Open(t, storetest.Bolt), key, poll, nil, nil); err == nil || errors.Is(err, context.Canceled) {
		t.Errorf("Lead on a bbolt store gave %v", err)
	}
}

// A leader's work that ends while Lead checks its connection (SELECT 1
// every poll) leaves the check to finish before the connection is closed:
// a pgx connection is for one goroutine at a time, and go test -race
// caught the close beside the check. Many short leads, polled every
// millisecond, each end at a different moment of the check; each leads
// again at once, which only a released lock allows.
func TestLeadEndsWithItsCheck(t *testing.T) {
	dsn := storetest.NewSchema(t)
	ctx := context.Background()
	s, err := pgstore.Open(ctx, dsn, pgstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	const key = 0x7465737402
	for i := range 60 {
		led := false
		err := pgstore.Lead(ctx, s, key, time.Millisecond, nil, func(ctx context.Context) error {
			led = true
			time.Sleep(time.Duration(i%7) * 300 * time.Microsecond)
			return nil
		})
		if err != nil || !led {
			t.Fatalf("lead %d: led %v, %v", i, led, err)
		}
	}
}
