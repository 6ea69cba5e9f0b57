package outbox_test

import (
	"context"
	"testing"
	"time"

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
	for _, st := range []*store.Store{a, b} {
		q := outbox.New(st, sender(srv), outbox.Options{Shared: true})
		go q.Run(ctx)
	}
	time.Sleep(200 * time.Millisecond)                                  // both idle, waiting
	other := outbox.New(cli, sender(srv), outbox.Options{Shared: true}) // never runs
	const n = 5
	for i := range n {
		if err := cli.Update(ctx, func(tx store.Tx) error { return other.Enqueue(tx, mail(i)) }); err != nil {
			t.Fatal(err)
		}
	}
	deadline := time.Now().Add(3 * outbox.SharedPoll)
	for len(srv.Sent()) < n && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	time.Sleep(outbox.SharedPoll) // a second sending would show now
	if got := len(srv.Sent()); got != n {
		t.Fatalf("%d mails sent, want %d, each once", got, n)
	}
	for _, st := range []*store.Store{a, cli} {
		if c, err := outbox.Count(st); err != nil || c != (outbox.Stats{Sent: n}) {
			t.Errorf("counts %+v, %v; want %d sent", c, err, n)
		}
	}
}
