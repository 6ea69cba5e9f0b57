package outbox_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"testing"
	"time"

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
		if err := st.Update(ctx, func(tx store.Tx) error { return q.Enqueue(tx, mail(i)) }); err != nil {
			t.Fatal(err)
		}
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

// recordSender accepts every mail and records their subjects in order.
type recordSender struct{ subjects *[]string }

func (r recordSender) Send(_ context.Context, mails []outbox.Mail) []error {
	for _, m := range mails {
		*r.subjects = append(*r.subjects, m.Subject)
	}
	return make([]error, len(mails))
}

// A database several daemons share numbers queued mail from the store's
// KeyClock, not from the queue's sequence. Mail queued before, under
// sequence numbers, is still sent, and first; `orrery db copy` of such a
// database to a bbolt file keeps every mail, and the file's queue, which
// numbers by its sequence again, sends them and what it queues next.
func TestClockKeysKeepOldMailAndCopy(t *testing.T) {
	dsn := storetest.NewSchema(t)
	ctx := context.Background()
	pg, err := pgstore.Open(ctx, dsn, pgstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pg.Close() })
	var sent []string
	q := outbox.New(pg, recordSender{&sent}, outbox.Options{Shared: true})
	// Two mails as an older release queued them: keys 1 and 2.
	if err := pg.Update(ctx, func(tx store.Tx) error {
		if err := q.Enqueue(tx, mail(0)); err != nil { // makes the buckets
			return err
		}
		b := tx.Bucket(store.BucketMail).Bucket(outbox.BucketQueue)
		for seq := uint64(1); seq <= 2; seq++ {
			m := mail(int(seq))
			m.Subject = fmt.Sprintf("old %d", seq)
			data, err := json.Marshal(outbox.Item{Seq: seq, Mail: m, Queued: time.Now(), NextAttempt: time.Now()})
			if err != nil {
				return err
			}
			if err := b.Put(store.Key(seq), data); err != nil {
				return err
			}
		}
		return b.SetSequence(2)
	}); err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 2; i++ {
		m := mail(i)
		m.Subject = fmt.Sprintf("new %d", i)
		if err := pg.Update(ctx, func(tx store.Tx) error { return q.Enqueue(tx, m) }); err != nil {
			t.Fatal(err)
		}
	}
	items, err := outbox.Pending(pg)
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range items {
		if _, clock := store.KeyTime(it.Seq); clock != (it.Seq > 2) {
			t.Errorf("mail %q has key %#x: want the clock's for new mail only", it.Mail.Subject, it.Seq)
		}
	}
	// Copy to a bbolt file before sending: every mail goes along.
	file, err := store.Open(t.TempDir()+"/copy.db", store.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { file.Close() })
	if _, err := store.CopyAll(ctx, file, pg); err != nil {
		t.Fatal(err)
	}
	if _, err := q.RunOnce(ctx); err != nil {
		t.Fatal(err)
	}
	want := []string{"old 1", "old 2", mail(0).Subject, "new 1", "new 2"}
	if !slices.Equal(sent, want) {
		t.Errorf("sent %q, want %q: every mail once, the old ones first", sent, want)
	}
	var fromFile []string
	fq := outbox.New(file, recordSender{&fromFile}, outbox.Options{})
	if err := file.Update(ctx, func(tx store.Tx) error {
		return fq.Enqueue(tx, outbox.Mail{From: "bot@pbem.test", To: []string{"x@example.org"}, Subject: "after the copy"})
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := fq.RunOnce(ctx); err != nil {
		t.Fatal(err)
	}
	want = append(want[:2:2], "after the copy", mail(0).Subject, "new 1", "new 2")
	if !slices.Equal(fromFile, want) {
		t.Errorf("the copy sent %q, want %q: every mail copied, and the file's own numbered after the old ones", fromFile, want)
	}
}
