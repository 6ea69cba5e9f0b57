package outbox_test

import (
	"context"
	"errors"
	"maps"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"orrery/engine/store"
	"orrery/engine/store/pgstore"
	"orrery/engine/store/storetest"
	"orrery/pbem/outbox"
	"orrery/pbem/pbemtest"
)

// On a database several processes share, a mail another process queued
// (a GM's command on PostgreSQL, which kicks no worker here) is sent
// within about SharedPoll, by one of the two workers, once; the counts
// agree from either process.
func TestSharedWorkersSendWhatOthersQueue(t *testing.T) {
	dsn := storetest.NewSchema(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv := pbemtest.StartT(t, pbemtest.Options{})
	open := func() *store.Store {
		st, err := pgstore.Open(ctx, dsn, pgstore.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		return st
	}
	a, b, cli := open(), open(), open()
	workCtx, stopWork := context.WithCancel(ctx)
	var running sync.WaitGroup
	for _, st := range []*store.Store{a, b} {
		q := outbox.New(st, sender(srv), outbox.Options{Shared: true})
		running.Go(func() { q.Run(workCtx) })
	}
	other := outbox.New(cli, sender(srv), outbox.Options{Shared: true}) // never runs
	const n = 5
	for i := range n {
		enqueue(t, cli, other, mail(i))
	}
	wait, cancelWait := context.WithTimeout(ctx, 3*outbox.SharedPoll)
	defer cancelWait()
	if _, err := srv.WaitSent(wait, n); err != nil {
		t.Fatalf("%d of %d mails sent within 3×SharedPoll: %v", len(srv.Sent()), n, err)
	}
	// Both workers stopped, whatever either was sending is sent: a mail
	// sent twice at once shows in the server's count, one left unsettled
	// (to go again later) in the counts below.
	stopWork()
	running.Wait()
	if got := len(srv.Sent()); got != n {
		t.Fatalf("%d mails sent, want %d, each once", got, n)
	}
	for _, st := range []*store.Store{a, cli} {
		if c, err := outbox.Count(st); err != nil || c != (outbox.Stats{Sent: n}) {
			t.Errorf("counts %+v, %v; want %d sent", c, err, n)
		}
	}
}

// settleSender refuses the mails whose subject refuse names, with the
// error it gives, and accepts the others.
type settleSender struct{ refuse map[string]error }

func (s settleSender) Send(_ context.Context, mails []outbox.Mail) []error {
	errs := make([]error, len(mails))
	for i, m := range mails {
		errs[i] = s.refuse[m.Subject]
	}
	return errs
}

// When PostgreSQL refuses a settle's transaction and Store runs it again,
// OnSent still hears of each mail sent once, and OnFailed of each mail
// given up once: what a refused try collected is dropped. The refusal is
// made where the settle lets code in, OnDead, which returns a
// serialization failure the first time (as the server would, had another
// transaction touched the same records).
func TestSettleRetriedReportsOnce(t *testing.T) {
	dsn := storetest.NewSchema(t)
	ctx := context.Background()
	st, err := pgstore.Open(ctx, dsn, pgstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	sent, failed := map[string]int{}, map[string]int{}
	refuse := map[string]error{mail(1).Subject: &outbox.Permanent{Err: errors.New("550 no such user")}}
	q := outbox.New(st, settleSender{refuse}, outbox.Options{Shared: true,
		OnSent:   func(r outbox.Record) { sent[r.Subject]++ },
		OnFailed: func(it outbox.Item, _ error, _ bool) { failed[it.Mail.Subject]++ }})
	deads := 0
	q.SetOnDead(func(store.Tx, outbox.Item, bool) error {
		if deads++; deads == 1 {
			return &pgconn.PgError{Code: "40001", Message: "could not serialize access (made by the test)"}
		}
		return nil
	})
	for i := range 3 {
		enqueue(t, st, q, mail(i))
	}
	r0 := st.Stats().Retries
	if _, err := q.RunOnce(ctx); err != nil {
		t.Fatal(err)
	}
	if got := st.Stats().Retries - r0; got != 1 || deads != 2 {
		t.Fatalf("the settle ran %d times and was retried %d times, want 2 and 1", deads, got)
	}
	want := map[string]int{mail(0).Subject: 1, mail(2).Subject: 1}
	if !maps.Equal(sent, want) {
		t.Errorf("OnSent heard %v, want each mail sent once: %v", sent, want)
	}
	if !maps.Equal(failed, map[string]int{mail(1).Subject: 1}) {
		t.Errorf("OnFailed heard %v, want the refused mail once", failed)
	}
	if c, err := outbox.Count(st); err != nil || c != (outbox.Stats{Sent: 2, Dead: 1}) {
		t.Errorf("counts %+v (%v), want 2 sent and 1 dead", c, err)
	}
}
