package outbox_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"orrery/engine/store"
	"orrery/engine/store/storetest"
	"orrery/pbem/outbox"
	"orrery/pbem/pbemtest"
)

// openStore opens an empty store of the backend ORRERY_TEST_STORE names
// (bbolt by default).
func openStore(t *testing.T) *store.Store {
	t.Helper()
	return storetest.Open(t, storetest.Default())
}

func sender(srv *pbemtest.Server) *outbox.SMTP {
	return &outbox.SMTP{Addr: srv.SMTPAddr, TLS: "none", Auth: "plain", Timeout: 2 * time.Second,
		Credentials: func(context.Context) (string, string, error) { return "bot@pbem.test", "pw", nil }}
}

func mail(i int) outbox.Mail {
	return outbox.Mail{From: "Orrery <bot@pbem.test>", To: []string{fmt.Sprintf("p%d@example.org", i)},
		Subject: fmt.Sprintf("[g1] mail %d", i), Text: "board\n", HTML: "<pre>board</pre>", Auto: "auto-replied",
		InReplyTo: "orig@example.org", References: []string{"root@x", "orig@example.org"}}
}

// enqueue queues each mail on q in a transaction of its own, as the daemon
// queues each answer with the change it answers, and stops the test at
// the first the queue refuses.
func enqueue(t *testing.T, st *store.Store, q *outbox.Queue, mails ...outbox.Mail) {
	t.Helper()
	for _, m := range mails {
		if err := st.Update(context.Background(), func(tx store.Tx) error { return q.Enqueue(tx, m) }); err != nil {
			t.Fatalf("enqueue %q: %v", m.Subject, err)
		}
	}
}

func TestSendsComposedMail(t *testing.T) {
	srv := pbemtest.StartT(t, pbemtest.Options{})
	st := openStore(t)
	q := outbox.New(st, sender(srv), outbox.Options{})
	enqueue(t, st, q, mail(1))
	if _, err := q.RunOnce(context.Background()); err != nil {
		t.Fatal(err)
	}
	sent := srv.Sent()
	if len(sent) != 1 {
		t.Fatalf("sent %d mails, want 1", len(sent))
	}
	raw := string(sent[0].Data)
	for _, want := range []string{"Auto-Submitted: auto-replied", "In-Reply-To: <orig@example.org>",
		"References: <root@x> <orig@example.org>", "multipart/alternative", "Subject: [g1] mail 1", "Message-ID: <"} {
		if !strings.Contains(raw, want) {
			t.Errorf("mail lacks %q:\n%s", want, raw)
		}
	}
	if s, _ := outbox.Count(st); s != (outbox.Stats{Sent: 1}) {
		t.Errorf("counts %+v, want one sent", s)
	}
}

// With the server down every mail stays queued with its attempt and next
// attempt persisted; once it is back they all go, each exactly once.
func TestNothingLostWhileServerDown(t *testing.T) {
	srv := pbemtest.StartT(t, pbemtest.Options{})
	st := openStore(t)
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	q := outbox.New(st, sender(srv), outbox.Options{Now: func() time.Time { return now }, MinBackoff: time.Minute})
	srv.StopSMTP()
	for i := range 5 {
		enqueue(t, st, q, mail(i))
	}
	next, err := q.RunOnce(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if d := next.Sub(now); d < 45*time.Second || d > 75*time.Second {
		t.Errorf("next attempt in %v, want about a minute", d)
	}
	items, _ := outbox.Pending(st)
	if len(items) != 5 || items[0].Attempts != 1 || items[0].LastError == "" {
		t.Fatalf("after a failed try: %+v", items)
	}
	// Not due yet: nothing is tried.
	if _, err := q.RunOnce(context.Background()); err != nil {
		t.Fatal(err)
	}
	if items, _ := outbox.Pending(st); items[0].Attempts != 1 {
		t.Errorf("retried before the backoff: %d attempts", items[0].Attempts)
	}
	srv.FailSMTP(errors.New("try later"))
	if err := srv.StartSMTP(); err != nil {
		t.Fatal(err)
	}
	now = now.Add(2 * time.Minute)
	q.RunOnce(context.Background())
	if items, _ := outbox.Pending(st); len(items) != 5 || items[0].Attempts != 2 || !strings.Contains(items[0].LastError, "try later") {
		t.Fatalf("after a 451: %+v", items)
	}
	srv.FailSMTP(nil)
	now = now.Add(time.Hour)
	if _, err := q.RunOnce(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n := len(srv.Sent()); n != 5 {
		t.Errorf("delivered %d mails, want 5", n)
	}
	if s, _ := outbox.Count(st); s != (outbox.Stats{Sent: 5}) {
		t.Errorf("counts %+v", s)
	}
}

// The worker wakes when a transaction that queued mail commits.
func TestKickOnCommit(t *testing.T) {
	srv := pbemtest.StartT(t, pbemtest.Options{})
	st := openStore(t)
	q := outbox.New(st, sender(srv), outbox.Options{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan struct{})
	go func() { q.Run(ctx); close(done) }()
	time.Sleep(50 * time.Millisecond)
	// An idle queue sleeps an hour: the mail arriving within the wait below
	// was sent because the commit kicked the worker.
	st.Update(context.Background(), func(tx store.Tx) error { return q.Enqueue(tx, mail(1)) })
	wctx, wcancel := context.WithTimeout(ctx, 5*time.Second)
	defer wcancel()
	if _, err := srv.WaitSent(wctx, 1); err != nil {
		t.Fatal(err)
	}
	// A rolled-back transaction queues nothing.
	st.Update(context.Background(), func(tx store.Tx) error { q.Enqueue(tx, mail(2)); return errors.New("rollback") })
	time.Sleep(100 * time.Millisecond)
	if n := len(srv.Sent()); n != 1 {
		t.Errorf("sent %d", n)
	}
	cancel()
	<-done
}

type fakeSender struct{ err error }

func (f fakeSender) Send(_ context.Context, mails []outbox.Mail) []error {
	errs := make([]error, len(mails))
	for i := range errs {
		errs[i] = f.err
	}
	return errs
}

// A permanent refusal (5xx) is not retried: the mail goes to the dead
// bucket; a temporary one is retried until GiveUpAfter.
func TestGivingUp(t *testing.T) {
	st := openStore(t)
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	q := outbox.New(st, fakeSender{&outbox.Permanent{Err: errors.New("550 no such user")}}, outbox.Options{Now: func() time.Time { return now }})
	st.Update(context.Background(), func(tx store.Tx) error { return q.Enqueue(tx, mail(1)) })
	q.RunOnce(context.Background())
	if s, _ := outbox.Count(st); s != (outbox.Stats{Dead: 1}) {
		t.Errorf("after a 550: %+v", s)
	}
	q = outbox.New(st, fakeSender{errors.New("421 try later")}, outbox.Options{Now: func() time.Time { return now }, GiveUpAfter: time.Hour})
	st.Update(context.Background(), func(tx store.Tx) error { return q.Enqueue(tx, mail(2)) })
	for range 3 {
		q.RunOnce(context.Background())
		now = now.Add(20 * time.Minute)
	}
	if s, _ := outbox.Count(st); s != (outbox.Stats{Queued: 1, Dead: 1}) {
		t.Errorf("within the hour: %+v", s)
	}
	now = now.Add(2 * time.Hour)
	q.RunOnce(context.Background())
	if s, _ := outbox.Count(st); s != (outbox.Stats{Dead: 2}) {
		t.Errorf("after the hour: %+v", s)
	}
}

type batchSender struct{ sizes []int }

func (b *batchSender) Send(_ context.Context, mails []outbox.Mail) []error {
	b.sizes = append(b.sizes, len(mails))
	return make([]error, len(mails))
}

// A full batch is claimed without reading the rest of the queue: a backlog
// of n mails must not cost n²/Batch decodes. The sign of it here is that a
// damaged record behind the first batches does not hold those back.
func TestClaimReadsOnlyABatch(t *testing.T) {
	st := openStore(t)
	s := &batchSender{}
	q := outbox.New(st, s, outbox.Options{Batch: 2, Connections: 1})
	for i := range 5 {
		enqueue(t, st, q, mail(i))
	}
	if _, err := q.RunOnce(context.Background()); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(s.sizes) != "[2 2 1]" {
		t.Errorf("batches %v, want [2 2 1]", s.sizes)
	}
	for i := range 4 {
		enqueue(t, st, q, mail(i))
	}
	// A damaged mail: its body and its delivery state (the records a
	// claim scans) both unreadable.
	err := st.Update(context.Background(), func(tx store.Tx) error {
		if err := tx.Bucket(store.BucketMail).Bucket(outbox.BucketQueue).Put(store.Key(1000), []byte("{damaged")); err != nil {
			return err
		}
		return tx.Bucket(store.BucketMail).Bucket(outbox.BucketState).Put(store.Key(1000), []byte("{damaged"))
	})
	if err != nil {
		t.Fatal(err)
	}
	s.sizes = nil
	if _, err := q.RunOnce(context.Background()); err == nil || !strings.Contains(err.Error(), "outbox item 1000") {
		t.Errorf("RunOnce = %v, want the damaged item named", err)
	}
	if fmt.Sprint(s.sizes) != "[2 2]" {
		t.Errorf("batches before the damaged record %v, want [2 2]", s.sizes)
	}
}

// meetSender records what each Send call carried, and holds every call
// until want calls are in flight at once (or a generous time has passed,
// so that a queue that never sends in parallel fails instead of hanging).
type meetSender struct {
	want     int
	mu       sync.Mutex
	inFlight int
	most     int
	met      chan struct{}
	once     sync.Once
	got      []outbox.Mail
}

func (m *meetSender) Send(_ context.Context, mails []outbox.Mail) []error {
	m.mu.Lock()
	m.inFlight++
	m.most = max(m.most, m.inFlight)
	if m.inFlight == m.want {
		m.once.Do(func() { close(m.met) })
	}
	m.mu.Unlock()
	select {
	case <-m.met:
	case <-time.After(10 * time.Second):
		m.once.Do(func() { close(m.met) }) // the meeting failed: stop waiting
	}
	m.mu.Lock()
	m.inFlight--
	m.got = append(m.got, mails...)
	m.mu.Unlock()
	return make([]error, len(mails))
}

// With several connections, mails to different players leave at once, each
// mail exactly once, and one player's mails keep the order they were
// queued in (an acknowledgement must not arrive after the report it
// caused), however the batches fall.
func TestConnectionsSendInParallelAndKeepEachPlayersOrder(t *testing.T) {
	st := openStore(t)
	s := &meetSender{want: 2, met: make(chan struct{})}
	q := outbox.New(st, s, outbox.Options{Batch: 3, Connections: 3})
	const players, each = 6, 7
	for i := range players * each {
		m := outbox.Mail{From: "Orrery <bot@pbem.test>", To: []string{fmt.Sprintf("Player %d <p%d@example.org>", i%players, i%players)},
			Subject: fmt.Sprintf("%d", i/players), Text: "x\n"}
		enqueue(t, st, q, m)
	}
	if _, err := q.RunOnce(context.Background()); err != nil {
		t.Fatal(err)
	}
	if s.most < 2 {
		t.Errorf("at most %d Send calls at once, want 2 or more with Connections: 3", s.most)
	}
	if len(s.got) != players*each {
		t.Fatalf("sent %d mails, want %d", len(s.got), players*each)
	}
	next := map[string]int{}
	for _, m := range s.got {
		to := m.To[0]
		if m.Subject != fmt.Sprint(next[to]) {
			t.Errorf("%s got mail %s after mail %d: out of order", to, m.Subject, next[to]-1)
		}
		next[to]++
	}
	if st, _ := outbox.Count(st); st != (outbox.Stats{Sent: players * each}) {
		t.Errorf("queue after the run: %+v", st)
	}
}

// OfGame lists a game's mails in the order they were queued, each as sent,
// still queued (with its attempts and last error) or given up on, and
// none of another game's.
func TestOfGame(t *testing.T) {
	st := openStore(t)
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	clock := outbox.Options{Now: func() time.Time { return now }}
	of := func(i int, game string) outbox.Mail {
		m := mail(i)
		m.Game, m.Kind = game, fmt.Sprintf("k%d", i)
		return m
	}
	run := func(s outbox.Sender, m outbox.Mail) {
		q := outbox.New(st, s, clock)
		st.Update(context.Background(), func(tx store.Tx) error { return q.Enqueue(tx, m) })
		q.RunOnce(context.Background())
		now = now.Add(time.Minute)
	}
	run(fakeSender{nil}, of(1, "g1"))
	run(fakeSender{nil}, of(2, "g2"))
	run(fakeSender{&outbox.Permanent{Err: errors.New("550 no such user")}}, of(3, "g1"))
	run(fakeSender{errors.New("421 try later")}, of(4, "g1"))
	var got []outbox.Event
	st.View(context.Background(), func(tx store.Tx) error {
		var err error
		got, err = outbox.OfGame(tx, "g1")
		return err
	})
	var lines []string
	for _, e := range got {
		lines = append(lines, fmt.Sprintf("%s %s %s %s %d %s", e.Time.Format("15:04"), e.State, e.Kind, e.To[0], e.Attempts, e.Error))
	}
	want := []string{"00:00 sent k1 p1@example.org 1 ", "00:02 gave up k3 p3@example.org 1 550 no such user",
		"00:03 queued k4 p4@example.org 1 421 try later"}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("OfGame(g1):\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
}

// BenchmarkSendOverSlowLink sends a turn's worth of reports (one mail to
// each of 40 players) to an SMTP server whose every reply takes 10 ms, as
// a provider across the internet does, over 1, 2 and 4 connections. It
// reports mails per second; smtp.connections is chosen from it. On
// loopback with the servers on the same two cores, more connections buy
// nothing (pbem/soak's backlog part): the gain is the link's latency.
func BenchmarkSendOverSlowLink(b *testing.B) {
	for _, conns := range []int{1, 2, 4} {
		b.Run(fmt.Sprintf("connections=%d", conns), func(b *testing.B) {
			srv := pbemtest.StartT(b, pbemtest.Options{NoDeliver: true, SMTPLatency: 10 * time.Millisecond})
			st, err := store.Open(filepath.Join(b.TempDir(), "db"), store.Options{Timeout: time.Second})
			if err != nil {
				b.Fatal(err)
			}
			defer st.Close()
			q := outbox.New(st, sender(srv), outbox.Options{Connections: conns})
			const players = 40
			sent := 0
			for b.Loop() {
				err := st.Update(context.Background(), func(tx store.Tx) error {
					for i := range players {
						if err := q.Enqueue(tx, mail(i)); err != nil {
							return err
						}
					}
					return nil
				})
				if err != nil {
					b.Fatal(err)
				}
				if _, err := q.RunOnce(context.Background()); err != nil {
					b.Fatal(err)
				}
				sent += players
			}
			if got := len(srv.Sent()); got != sent {
				b.Fatalf("the server got %d mails, want %d", got, sent)
			}
			b.ReportMetric(float64(sent)/b.Elapsed().Seconds(), "mails/s")
		})
	}
}
