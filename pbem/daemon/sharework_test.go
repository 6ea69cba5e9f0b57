package daemon_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"orrery/engine"
	"orrery/engine/enginetest/toy"
	"orrery/engine/game"
	"orrery/engine/store"
	"orrery/engine/store/pgstore"
	"orrery/engine/store/storetest"
	"orrery/pbem/daemon"
	"orrery/pbem/imapin"
	"orrery/pbem/outbox"
	"orrery/pbem/pbemtest"
)

// worker is one daemon process of several sharing a PostgreSQL database
// and one mailbox, with what its worker handled from the shared queue.
type worker struct {
	name    string
	st      *store.Store
	d       *daemon.Daemon
	handled atomic.Int64 // mails its worker handled from the queue, or its leader alone (queue.go)
	direct  atomic.Int64 // of those, the mails its leader handled alone
	log     *slog.Logger // the daemon's, the reader's too: their warnings are shown
	leading atomic.Bool
	stop    context.CancelFunc
	done    chan error
}

// countHandled counts the mails a daemon's worker reports handled, and
// those its leader handled itself for want of another daemon.
type countHandled struct {
	slog.Handler
	n   *atomic.Int64
	d   *atomic.Int64        // the leader's alone
	log func(string, ...any) // t.Logf: errors are shown
}

func (h countHandled) Enabled(context.Context, slog.Level) bool { return true }
func (h countHandled) Handle(ctx context.Context, r slog.Record) error {
	if r.Level >= slog.LevelWarn || traceShare {
		var b strings.Builder
		r.Attrs(func(a slog.Attr) bool { fmt.Fprintf(&b, " %s=%v", a.Key, a.Value); return true })
		h.log("%s %s: %s%s", r.Time.Format("05.000"), r.Level, r.Message, b.String())
	}
	if alone := r.Message == "handled fetched mail here: no other daemon runs"; alone || r.Message == "handled queued mail" {
		r.Attrs(func(a slog.Attr) bool {
			if a.Key == "mails" {
				h.n.Add(a.Value.Int64())
				if alone && h.d != nil {
					h.d.Add(a.Value.Int64())
				}
			}
			return true
		})
	}
	return nil
}
func (h countHandled) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h countHandled) WithGroup(string) slog.Handler      { return h }

// For finding out how two daemons share the work: ORRERY_TEST_TRACE=1
// logs every line of the daemons' logs with its time (their claims, each
// transaction PostgreSQL refused and why: pgstore.Options.Logger), and
// ORRERY_TEST_NOTURN=1 runs their workers without Config.Turn, as before
// the turns, to compare (BenchmarkSharedQueue too).
var traceShare = os.Getenv("ORRERY_TEST_TRACE") != ""

// newWorker is one daemon process of several on one PostgreSQL database,
// as orrery serve makes it: it opens its own connection pool on dsn (its
// connections named name in pg_stat_activity), a shared outbox sending to
// srv, and a daemon that leads by the IMAP advisory lock (w.leading says
// when it does) and counts the queued mails its worker handled. tune, if
// set, changes the daemon's Config before it is made.
func newWorker(t testing.TB, ctx context.Context, dsn, name string, srv *pbemtest.Server, tune func(*daemon.Config), opts ...game.Option) *worker {
	t.Helper()
	sep := "?"
	if strings.Contains(dsn, "?") {
		sep = "&"
	}
	w := &worker{name: name, done: make(chan error, 1)}
	w.log = slog.New(countHandled{n: &w.handled, d: &w.direct, log: func(f string, a ...any) { t.Logf(name+": "+f, a...) }})
	st, err := pgstore.Open(ctx, dsn+sep+"application_name="+name, pgstore.Options{Logger: w.log})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	w.st = st
	q := outbox.New(st, &outbox.SMTP{Addr: srv.SMTPAddr, TLS: "none"}, outbox.Options{MinBackoff: 50 * time.Millisecond, Shared: true})
	lead := func(ctx context.Context, read func(context.Context) error) error {
		return pgstore.Lead(ctx, st, pgstore.LockIMAP, 100*time.Millisecond, nil, func(ctx context.Context) error {
			w.leading.Store(true)
			defer w.leading.Store(false)
			return read(ctx)
		})
	}
	cfg := daemon.Config{From: "Orrery <" + botAddr + ">",
		Lead: lead, TickEvery: time.Hour, QueuePoll: 20 * time.Millisecond,
		Logger: w.log}
	if os.Getenv("ORRERY_TEST_NOTURN") == "" {
		turns := pgstore.NewTurns(st, pgstore.LockApply)
		t.Cleanup(turns.Close)
		cfg.Turn = turns.Run
	}
	if tune != nil {
		tune(&cfg)
	}
	d, err := daemon.New(st, []engine.Ruleset{toy.Ruleset()}, q, cfg, opts...)
	if err != nil {
		t.Fatal(err)
	}
	w.d = d
	return w
}

func (w *worker) run(ctx context.Context, srv *pbemtest.Server) {
	rctx, stop := context.WithCancel(ctx)
	w.stop = stop
	r := imapin.New(imapin.Config{Addr: srv.IMAPAddr, TLS: "none", IdleRestart: 300 * time.Millisecond,
		Logger:      w.log,
		Credentials: func(context.Context) (string, string, error) { return botAddr, "pw", nil }})
	go func() { w.done <- w.d.Run(rctx, r) }()
}

// settle stops the running workers ws and waits for them to end, and
// returns how many mails the database's outbox still holds queued. Once
// they are stopped nothing more is handled, answered or sent, so what a
// test counts afterwards is final: a mail handled or answered twice is
// seen for certain, where a pause of a few hundred milliseconds only made
// it likely to have come.
func settle(t *testing.T, ws ...*worker) int {
	t.Helper()
	for _, w := range ws {
		w.stop()
	}
	for _, w := range ws {
		if err := <-w.done; err != nil && !errors.Is(err, context.Canceled) {
			t.Errorf("daemon %s: %v", w.name, err)
		}
	}
	s, err := outbox.Count(ws[0].st)
	if err != nil {
		t.Fatal(err)
	}
	return s.Queued
}

// twoWorkers makes daemons a and b on a new schema of one PostgreSQL
// database, sharing one mail server, as newWorker makes each (tune, if
// set, applied to both); ctx ends when the test does.
func twoWorkers(t *testing.T, tune func(*daemon.Config)) (ctx context.Context, srv *pbemtest.Server, a, b *worker) {
	t.Helper()
	dsn := storetest.NewSchema(t)
	srv = pbemtest.StartT(t, pbemtest.Options{Users: map[string]string{botAddr: "pw"}})
	ctx, cancel := context.WithCancel(context.Background())
	a, b = newWorker(t, ctx, dsn, "orrery-a", srv, tune), newWorker(t, ctx, dsn, "orrery-b", srv, tune)
	t.Cleanup(cancel) // before the workers' stores close (cleanups run last first)
	return ctx, srv, a, b
}

// otherDaemon holds on st, until the returned func is called (or the test
// ends), the live lease of a second daemon's outbox, sending through srv:
// a leader then queues the mail it reads, for the workers to share, where
// alone it would handle it itself (queue.go, "Alone").
func otherDaemon(t testing.TB, st *store.Store, srv *pbemtest.Server) func() {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	q := outbox.New(st, &outbox.SMTP{Addr: srv.SMTPAddr, TLS: "none"}, outbox.Options{MinBackoff: 50 * time.Millisecond, Shared: true})
	done := make(chan struct{})
	go func() { defer close(done); q.Run(ctx) }()
	var once sync.Once
	stop := func() { once.Do(func() { cancel(); <-done }) }
	t.Cleanup(stop)
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		live := false
		if err := st.View(ctx, func(tx store.Tx) error {
			if mail := tx.Bucket(store.BucketMail); mail != nil && mail.Bucket(outbox.BucketOwners) != nil {
				live = mail.Bucket(outbox.BucketOwners).Get([]byte(q.ID())) != nil
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if live {
			return stop
		}
		if time.Now().After(deadline) {
			t.Fatal("the second outbox wrote no lease")
		}
	}
}

// motto is the mail of seat p of game g setting its motto to n.
func motto(g *game.Game, p string, n int) string {
	s, _ := g.PlayerByName(p)
	return fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: [%s %s] motto\r\nMessage-ID: <%s-%s-%d@example.org>\r\n"+
		"Date: Sun, 22 Nov 2026 12:00:00 +0000\r\n\r\nMOTTO m%d\r\n", s.Email, botAddr, g.ID, s.Secret, g.ID, p, n, n)
}

// mottoRefs returns, for each seat of game id, the Message-IDs of the
// mails applied to it, in the order the game's log has them.
func mottoRefs(t *testing.T, ctx context.Context, svc *game.Service, id string) map[string][]string {
	t.Helper()
	x, err := svc.Export(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	refs := map[string][]string{}
	for _, e := range x.Log {
		if e.Source == "mail" {
			refs[e.Player] = append(refs[e.Player], strings.Trim(e.Ref, "<>"))
		}
	}
	return refs
}

// TestTwoDaemonsShareTheMailWork: two daemons on one PostgreSQL database
// both handle mail from the one mailbox (the leader queues it, both
// workers claim it), every mail applies exactly once, and each player's
// mails apply in the order they arrived.
func TestTwoDaemonsShareTheMailWork(t *testing.T) {
	ctx, srv, a, b := twoWorkers(t, nil)
	// Rounds of mail, one a seat each, all in the mailbox before the
	// daemons start: a backlog, so that both workers always have mail
	// to claim, and how they share it is the claims' doing alone.
	games, each := 24, 10
	if testing.Short() {
		each = 4 // -short: a shorter backlog; the full run sends ten rounds
	}
	var gs []*game.Game
	for k := range games {
		g, err := a.d.Service().Create(ctx, game.CreateRequest{ID: fmt.Sprintf("g%d", k), Ruleset: "toy",
			Players: []game.PlayerSpec{{Name: "ann", Email: fmt.Sprintf("ann%d@example.org", k)}, {Name: "bob", Email: fmt.Sprintf("bob%d@example.org", k)}}})
		if err != nil {
			t.Fatal(err)
		}
		gs = append(gs, g)
	}
	for n := 1; n <= each; n++ {
		for _, g := range gs {
			for _, p := range []string{"ann", "bob"} {
				if err := srv.Append(botAddr, "INBOX", []byte(motto(g, p, n))); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	a.run(ctx, srv)
	b.run(ctx, srv)
	total := games * 2 * each
	wctx, wcancel := context.WithTimeout(ctx, 2*time.Minute)
	defer wcancel()
	if _, err := srv.WaitMessages(wctx, botAddr, "Orrery/Processed", total); err != nil {
		t.Fatalf("the mails were not all read: %v", err)
	}
	for a.handled.Load()+b.handled.Load() < int64(total) && wctx.Err() == nil {
		time.Sleep(20 * time.Millisecond)
	}
	settle(t, a, b) // the counts are final: a mail handled twice is counted
	t.Logf("daemon a handled %d mails, b %d", a.handled.Load(), b.handled.Load())
	for _, w := range []*worker{a, b} {
		s := w.st.Stats()
		t.Logf("%s: %d commits, %d retries; refused: %v", w.name, s.Commits, s.Retries, pgstore.Conflicts(w.st))
	}
	if got := a.handled.Load() + b.handled.Load(); got != int64(total) {
		t.Errorf("the workers handled %d mails, want %d: each once", got, total)
	}
	// Fair shares. The workers take turns (Config.Turn: PostgreSQL
	// grants the lock in the order it was asked for), so while both
	// have mail to claim they handle alternate batches, and each about
	// half the mail. Before the turns, about one run in ten one worker
	// won every batch for seconds: the other's batch waited on the
	// outbox's sequence row the first held, was refused when the first
	// committed, and tried again later and later (store's backoff)
	// while the first began its next batch at once. The bound is loose
	// (an eighth, where alternate batches give about a half) so that a
	// loaded machine, where batches differ in size, does not trip it.
	for _, w := range []*worker{a, b} {
		if n := w.handled.Load(); n < int64(total/8) {
			t.Errorf("daemon %s handled %d of %d mails, want at least an eighth: the work was not shared", w.name, n, total)
		}
	}
	for _, g := range gs {
		refs := mottoRefs(t, ctx, a.d.Service(), g.ID)
		for _, p := range []string{"ann", "bob"} {
			var want []string
			for n := 1; n <= each; n++ {
				want = append(want, fmt.Sprintf("%s-%s-%d@example.org", g.ID, p, n))
			}
			if strings.Join(refs[p], " ") != strings.Join(want, " ") {
				t.Errorf("%s %s: the mails applied were\n%v\nwant each once, in arrival order:\n%v", g.ID, p, refs[p], want)
			}
		}
	}
	if err := a.st.View(ctx, func(tx store.Tx) error {
		for _, name := range [][]byte{daemon.BucketQueue, daemon.BucketQueued} {
			if bk := tx.Bucket(store.BucketMail).Bucket(name); bk != nil && bk.KeyN() != 0 {
				t.Errorf("mail/%s holds %d keys once all is handled, want none", name, bk.KeyN())
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}

// TestLoneLeaderHandlesWhatItReads: a daemon with no other on its
// database handles the mail it reads itself, and queues none; once a
// second daemon runs, the mail goes through the queue, for both workers;
// once it has stopped, the first handles its mail alone again. Each mail
// applies once, in the order sent.
func TestLoneLeaderHandlesWhatItReads(t *testing.T) {
	ctx, srv, a, b := twoWorkers(t, nil)
	g, err := a.d.Service().Create(ctx, game.CreateRequest{ID: "g1", Ruleset: "toy",
		Players: []game.PlayerSpec{{Name: "ann", Email: "ann@example.org"}, {Name: "bob", Email: "bob@example.org"}}})
	if err != nil {
		t.Fatal(err)
	}
	queued := 0 // mails that went through the queue in the last send
	wctx, wcancel := context.WithTimeout(ctx, time.Minute)
	defer wcancel()
	sent := 0
	send := func(n int) {
		t.Helper()
		direct0 := a.direct.Load() + b.direct.Load()
		for range n {
			sent++
			if err := srv.Append(botAddr, "INBOX", []byte(motto(g, "ann", sent))); err != nil {
				t.Fatal(err)
			}
		}
		for a.handled.Load()+b.handled.Load() < int64(sent) && wctx.Err() == nil {
			time.Sleep(10 * time.Millisecond)
		}
		if wctx.Err() != nil {
			t.Fatalf("%d of %d mails handled", a.handled.Load()+b.handled.Load(), sent)
		}
		queued = n - int(a.direct.Load()+b.direct.Load()-direct0)
	}
	liveLeases := func() int {
		n := 0
		if err := a.st.View(ctx, func(tx store.Tx) error {
			if mail := tx.Bucket(store.BucketMail); mail != nil && mail.Bucket(outbox.BucketOwners) != nil {
				return mail.Bucket(outbox.BucketOwners).ForEach(func(k, v []byte) error {
					var l outbox.Lease
					if json.Unmarshal(v, &l) == nil && l.Until.After(time.Now()) {
						n++
					}
					return nil
				})
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		return n
	}
	waitLeases := func(want int) {
		t.Helper()
		for liveLeases() != want && wctx.Err() == nil {
			time.Sleep(10 * time.Millisecond)
		}
		if wctx.Err() != nil {
			t.Fatalf("%d live outbox leases, want %d", liveLeases(), want)
		}
	}

	a.run(ctx, srv)
	waitLeases(1)
	send(5)
	if queued != 0 {
		t.Errorf("alone: %d of 5 mails queued, want none: the leader handles them itself", queued)
	}

	b.run(ctx, srv)
	waitLeases(2)
	send(20)
	if queued != 20 {
		t.Errorf("with a second daemon: %d of 20 mails queued, want all, for both workers", queued)
	}

	b.stop()
	<-b.done // a clean stop drops its outbox's lease
	waitLeases(1)
	send(5)
	if queued != 0 {
		t.Errorf("alone again: %d of 5 mails queued, want none", queued)
	}

	refs := mottoRefs(t, ctx, a.d.Service(), "g1")
	var want []string
	for n := 1; n <= sent; n++ {
		want = append(want, fmt.Sprintf("g1-ann-%d@example.org", n))
	}
	if strings.Join(refs["ann"], " ") != strings.Join(want, " ") {
		t.Errorf("the mails applied were\n%v\nwant each once, in the order sent:\n%v", refs["ann"], want)
	}
	a.stop()
	<-a.done
}

// TestQueuedMailSurvivesItsWorker: a worker that dies in the middle of
// handling a mail (its daemon stopped and its database connections cut
// while the mail's transaction is open) leaves the mail queued; the
// other daemon's worker, which skipped it while it was claimed, handles
// it, once.
func TestQueuedMailSurvivesItsWorker(t *testing.T) {
	dsn := storetest.NewSchema(t)
	srv := pbemtest.StartT(t, pbemtest.Options{Users: map[string]string{botAddr: "pw"}})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	blocked, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	stall := func(tx store.Tx, c *game.Change) error {
		if c.Submit != nil && c.Game.ID == "g1" {
			once.Do(func() { close(blocked); <-release })
		}
		return nil
	}
	a := newWorker(t, ctx, dsn, "orrery-a", srv, nil, game.WithHooks(stall))
	b := newWorker(t, ctx, dsn, "orrery-b", srv, nil)
	// A third daemon's outbox, so that a, leading, queues the mail.
	otherDaemon(t, b.st, srv)
	g, err := a.d.Service().Create(ctx, game.CreateRequest{ID: "g1", Ruleset: "toy",
		Players: []game.PlayerSpec{{Name: "ann", Email: "ann@example.org"}, {Name: "bob", Email: "bob@example.org"}}})
	if err != nil {
		t.Fatal(err)
	}
	a.run(ctx, srv)
	if err := srv.Append(botAddr, "INBOX", []byte(motto(g, "ann", 1))); err != nil {
		t.Fatal(err)
	}
	wctx, wcancel := context.WithTimeout(ctx, 30*time.Second)
	defer wcancel()
	select {
	case <-blocked:
	case <-wctx.Done():
		t.Fatal("daemon a never began the mail's change")
	}
	b.run(ctx, srv) // a standby: its worker polls the queue
	time.Sleep(300 * time.Millisecond)
	if n := b.handled.Load(); n != 0 {
		t.Fatalf("daemon b handled %d mails while a held the only one", n)
	}
	// Kill a: stop it, and cut every connection it has, with the mail's
	// transaction open.
	a.stop()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'orrery-a'`); err != nil {
		t.Fatal(err)
	}
	close(release)
	<-a.done
	for b.handled.Load() == 0 && wctx.Err() == nil {
		time.Sleep(20 * time.Millisecond)
	}
	if b.handled.Load() != 1 {
		t.Fatalf("daemon b handled %d mails, want the one a left", b.handled.Load())
	}
	// The welcome, the first turn's report, and the answer.
	if _, err := srv.WaitMessages(wctx, "ann@example.org", "INBOX", 3); err != nil {
		t.Fatalf("ann's mail was not answered: %v", err)
	}
	if n := settle(t, b); n != 0 {
		t.Errorf("the outbox holds %d mails once ann's is answered: a second answer", n)
	}
	msgs, err := srv.Messages("ann@example.org", "INBOX")
	if err != nil {
		t.Fatal(err)
	}
	answers := 0
	for _, m := range msgs {
		if strings.Contains(string(m), "Orders received") {
			answers++
		}
	}
	if answers != 1 {
		t.Errorf("ann got %d answers to her one mail, want 1", answers)
	}
	if refs := mottoRefs(t, ctx, b.d.Service(), "g1"); len(refs["ann"]) != 1 {
		t.Errorf("ann's mail applied %d times (%v), want once", len(refs["ann"]), refs["ann"])
	}
}

// TestQueueRefetch: the leader files a mail only after queueing it, so a
// leader that dies between the two reads it again. Queued again before it
// was handled, it stays one entry; after it was handled, it is only filed.
// Either way it applies once. An unreadable or silenced mail is handled by
// the leader at once, and filed as rejected.
func TestQueueRefetch(t *testing.T) {
	dsn := storetest.NewSchema(t)
	st, err := pgstore.Open(context.Background(), dsn, pgstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	h := newHarnessOn(t, st, func(c *daemon.Config) {
		c.Lead = func(ctx context.Context, read func(context.Context) error) error { return read(ctx) }
	})
	otherDaemon(t, st, h.srv) // else the leader handles what it reads itself
	ctx := context.Background()
	queued := func() int {
		n := 0
		if err := st.View(ctx, func(tx store.Tx) error {
			if q := tx.Bucket(store.BucketMail).Bucket(daemon.BucketQueue); q != nil {
				return q.ForEachBucket(func(k []byte) error { n += q.Bucket(k).KeyN(); return nil })
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		return n
	}
	orders := h.mail("ann@example.org", "[g1 "+h.secret("ann")+"] orders", "MOTTO first")
	bounce := h.mail("MAILER-DAEMON@example.org", "Undelivered Mail Returned to Sender", "MOTTO none", "Auto-Submitted: auto-replied")
	for try := range 2 {
		out := h.d.Enqueue(ctx, []imapin.Message{orders, bounce})
		if out[0].Err != nil || out[0].Disposition != imapin.Processed {
			t.Fatalf("try %d: the orders mail got %+v, want processed", try, out[0])
		}
		if out[1].Err != nil || out[1].Disposition != imapin.Rejected {
			t.Fatalf("try %d: the auto-reply got %+v, want rejected at once", try, out[1])
		}
		if n := queued(); n != 1 {
			t.Fatalf("try %d: %d mails queued, want the orders mail once", try, n)
		}
	}
	n, err := h.d.WorkQueue(ctx)
	if err != nil || n != 1 {
		t.Fatalf("WorkQueue handled %d mails (%v), want 1", n, err)
	}
	out := h.d.Enqueue(ctx, []imapin.Message{orders})
	if out[0].Err != nil || out[0].Disposition != imapin.Processed {
		t.Fatalf("the orders mail read again after it was handled got %+v, want processed", out[0])
	}
	if n := queued(); n != 0 {
		t.Fatalf("a mail already handled was queued again (%d in the queue)", n)
	}
	if n, err := h.d.WorkQueue(ctx); err != nil || n != 0 {
		t.Fatalf("WorkQueue of an empty queue handled %d mails (%v)", n, err)
	}
	if refs := mottoRefs(t, ctx, h.d.Service(), "g1"); len(refs["ann"]) != 1 {
		t.Errorf("ann's mail applied %d times, want once", len(refs["ann"]))
	}
	if seen, err := h.d.Seen(ctx, "m1@example.org"); err != nil || !seen {
		t.Errorf("the orders mail has no seen-record (%v)", err)
	}
}

// TestLeftoverQueueOnBbolt: a bbolt daemon (no queue of its own) handles,
// when it starts, the mail that daemons sharing a PostgreSQL database left
// queued (the database copied to a file with orrery db copy), once.
func TestLeftoverQueueOnBbolt(t *testing.T) {
	h := newHarnessAt(t, t.TempDir()+"/orrery.db")
	ctx := context.Background()
	m := h.mail("ann@example.org", "[g1 "+h.secret("ann")+"] orders", "MOTTO left")
	stop := otherDaemon(t, h.st, h.srv) // so that Enqueue queues it
	if out := h.d.Enqueue(ctx, []imapin.Message{m}); out[0].Err != nil {
		t.Fatal(out[0].Err)
	}
	stop()
	r := imapin.New(imapin.Config{Addr: h.srv.IMAPAddr, TLS: "none",
		Credentials: func(context.Context) (string, string, error) { return botAddr, "pw", nil }})
	h.run(ctx, r)
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if seen, err := h.d.Seen(ctx, "m1@example.org"); err == nil && seen {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if refs := mottoRefs(t, ctx, h.d.Service(), "g1"); len(refs["ann"]) != 1 {
		t.Fatalf("the queued mail applied %d times, want once", len(refs["ann"]))
	}
	if err := h.st.View(ctx, func(tx store.Tx) error {
		if q := tx.Bucket(store.BucketMail).Bucket(daemon.BucketQueue); q != nil && q.KeyN() != 0 {
			t.Errorf("the queue still holds %d senders' mail", q.KeyN())
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}
