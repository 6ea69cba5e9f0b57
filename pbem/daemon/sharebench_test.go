package daemon_test

import (
	"context"
	"fmt"
	"maps"
	"testing"
	"time"

	"orrery/engine/game"
	"orrery/engine/store"
	"orrery/engine/store/pgstore"
	"orrery/engine/store/storetest"
	"orrery/pbem/imapin"
	"orrery/pbem/outbox"
	"orrery/pbem/pbemtest"
)

// BenchmarkSharedQueue drains a backlog of order mails (toy MOTTO, one
// sender per game, as pbem/soak's backlog sends them, over one game in
// sharedSpread) with one and with
// two daemons on one PostgreSQL database, each with its own worker and
// outbox sending to an in-process SMTP server: what a second daemon adds
// to the mail work, without the IMAP reading and the real mail servers of
// pbem/soak's TestScale, whose figures are noisier. It reports the mails
// handled and answered a second, and the transactions PostgreSQL refused
// and ran again a commit (store.Stats), the round trips to the server a
// mail until the last is handled (every daemon's), and logs what was refused
// (pgstore.Conflicts). Run with -benchtime=1x: one drain a run.
//
//	ORRERY_TEST_PG=… go test -run '^$' -bench SharedQueue -benchtime=1x ./pbem/daemon/
func BenchmarkSharedQueue(b *testing.B) {
	const games, mails = 50, 1000
	for _, n := range []int{1, 2} {
		b.Run(fmt.Sprintf("daemons=%d", n), func(b *testing.B) {
			var took time.Duration
			var d store.Stats
			conflicts := map[string]int64{}
			for range b.N {
				dt, ds, c := sharedDrain(b, n, games, mails)
				took += dt
				d.Retries += ds.Retries
				d.Commits += ds.Commits
				d.RoundTrips += ds.RoundTrips
				for k, v := range c {
					conflicts[k] += v
				}
			}
			b.ReportMetric(float64(b.N*mails)/took.Seconds(), "mails/s")
			b.ReportMetric(float64(d.Retries)/float64(max(d.Commits, 1)), "retries/commit")
			b.ReportMetric(float64(d.RoundTrips)/float64(b.N*mails), "roundtrips/mail")
			b.ReportMetric(0, "ns/op")
			b.Logf("%d daemons: %d mails in %v, %d retries in %d commits; refused: %v", n, b.N*mails, took.Round(time.Millisecond), d.Retries, d.Commits, conflicts)
		})
	}
}

// sharedSpread: one game in so many gets mail in BenchmarkSharedQueue.
const sharedSpread = 10

// sharedDrain queues mails order mails over games games in a new schema,
// then starts daemons daemons and times them until every mail is handled
// and every answer sent. It returns the time, the daemons' store.Stats
// over the drain and what PostgreSQL refused of their transactions.
func sharedDrain(b *testing.B, daemons, games, mails int) (time.Duration, store.Stats, map[string]int64) {
	b.StopTimer()
	defer b.StartTimer()
	dsn := storetest.NewSchema(b)
	srv := pbemtest.StartT(b, pbemtest.Options{Users: map[string]string{botAddr: "pw"}})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var ws []*worker
	for i := range daemons {
		ws = append(ws, newWorker(b, ctx, dsn, fmt.Sprintf("orrery-%d", i), srv, nil))
	}
	// The games that get mail are every spread-th of the database's, as
	// TestScale samples them: games made one after the other keep their
	// records side by side, and PostgreSQL's predicate locks take a page
	// of an index at a time, so two workers on neighbours conflict where
	// they would not on a server's games at large.
	var gs []*game.Game
	for k := range games * sharedSpread {
		g, err := ws[0].d.Service().Create(ctx, game.CreateRequest{ID: fmt.Sprintf("g%d", k), Ruleset: "toy",
			Players: []game.PlayerSpec{{Name: "ann", Email: fmt.Sprintf("ann%d@example.org", k)}, {Name: "bob", Email: fmt.Sprintf("bob%d@example.org", k)}}})
		if err != nil {
			b.Fatal(err)
		}
		if k%sharedSpread == 0 {
			gs = append(gs, g)
		}
	}
	// The welcome mails go first, by the first daemon's outbox alone.
	if err := sendAll(ctx, ws[0].st, srv); err != nil {
		b.Fatal(err)
	}
	// Queued while a second outbox holds a lease: alone, the leader
	// would handle the mails instead (queue.go).
	stop := otherDaemon(b, ws[0].st, srv)
	var batch []imapin.Message
	for i := range mails {
		batch = append(batch, imapin.Message{Mailbox: "INBOX", UIDValidity: 1, UID: uint32(i + 1), Raw: []byte(motto(gs[i%games], "ann", i))})
		if len(batch) == 50 || i == mails-1 {
			for _, o := range ws[0].d.Enqueue(ctx, batch) {
				if o.Err != nil {
					b.Fatal(o.Err)
				}
			}
			batch = batch[:0]
		}
	}
	stop()
	s0 := make([]store.Stats, daemons)
	for i, w := range ws {
		s0[i] = w.st.Stats()
	}
	c0 := make([]map[string]int64, daemons)
	for i, w := range ws {
		c0[i] = pgstore.Conflicts(w.st)
	}
	b.StartTimer()
	t0 := time.Now()
	for _, w := range ws {
		w.run(ctx, srv)
	}
	deadline := time.Now().Add(10 * time.Minute)
	handled := func() int64 {
		n := int64(0)
		for _, w := range ws {
			n += w.handled.Load()
		}
		return n
	}
	for handled() < int64(mails) && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	// The round trips until the last mail is handled: the workers', the
	// outboxes' and the ticks', not those of the wait below.
	var trips int64
	for i, w := range ws {
		trips += w.st.Stats().Sub(s0[i]).RoundTrips
	}
	for time.Now().Before(deadline) {
		if c, err := outbox.Count(ws[0].st); err == nil && c.Queued == 0 {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	took := time.Since(t0)
	b.StopTimer()
	if got := handled(); got != int64(mails) {
		b.Fatalf("%d of %d mails handled", got, mails)
	}
	d := store.Stats{RoundTrips: trips}
	conflicts := map[string]int64{}
	for i, w := range ws {
		s := w.st.Stats().Sub(s0[i])
		d.Retries += s.Retries
		d.Commits += s.Commits
		for k, v := range pgstore.Conflicts(w.st) {
			if v -= c0[i][k]; v > 0 {
				conflicts[k] += v
			}
		}
	}
	for _, w := range ws {
		w.stop()
		<-w.done
	}
	return took, d, maps.Clone(conflicts)
}

// sendAll sends what st's outbox holds, once, with a worker of its own.
func sendAll(ctx context.Context, st *store.Store, srv *pbemtest.Server) error {
	q := outbox.New(st, &outbox.SMTP{Addr: srv.SMTPAddr, TLS: "none"}, outbox.Options{Shared: true})
	_, err := q.RunOnce(ctx)
	return err
}
