package outbox_test

import (
	"context"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"orrery/engine/store"
	"orrery/pbem/outbox"
)

// crashSender stands for a process killed in the middle of sending: the
// claim has committed, and the worker never gets to settle. runtime.Goexit
// ends the worker's goroutine where it stands.
type crashSender struct{ got int }

func (c *crashSender) Send(_ context.Context, mails []outbox.Mail) []error {
	c.got += len(mails)
	runtime.Goexit()
	return nil
}

// countSender accepts every mail and counts them.
type countSender struct {
	mu   sync.Mutex
	sent []outbox.Mail
}

func (c *countSender) Send(_ context.Context, mails []outbox.Mail) []error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sent = append(c.sent, mails...)
	return make([]error, len(mails))
}

// crash runs q.RunOnce until its sender dies, as kill -9 would leave it.
func crash(q *outbox.Queue) {
	done := make(chan struct{})
	go func() { defer close(done); q.RunOnce(context.Background()) }()
	<-done
}

func enqueueN(t *testing.T, db *store.Store, n int) {
	t.Helper()
	for i := range n {
		require.NoError(t, db.Update(context.Background(), func(tx store.Tx) error { return outbox.Enqueue(tx, mail(i)) }))
	}
}

// After a crash mid-send, a worker started on the same database sends the
// mails the dead one had claimed at the very instant it starts, not after
// the 30 s backoff the claim had set.
func TestRestartSendsAGoneWorkersClaimsAtOnce(t *testing.T) {
	st := openStore(t)
	now := time.Now().Add(time.Minute)
	clock := func() time.Time { return now }
	enqueueN(t, st, 5)
	dead := &crashSender{}
	crash(outbox.New(st, dead, outbox.Options{Now: clock}))
	require.Equal(t, 5, dead.got)
	n, err := outbox.InFlight(st)
	require.NoError(t, err)
	require.Equal(t, 5, n, "the claims were not left behind by the crash")

	restarted := &countSender{}
	q := outbox.New(st, restarted, outbox.Options{Now: clock}) // default backoff: 30 s
	next, err := q.RunOnce(context.Background())
	require.NoError(t, err)
	assert.Len(t, restarted.sent, 5, "at the instant of the restart")
	assert.True(t, next.IsZero(), "something is still queued, due at %v", next)
	c, _ := outbox.Count(st)
	assert.Equal(t, outbox.Stats{Sent: 5}, c)
}

// With a shared database, another daemon's claims are left alone while its
// lease is renewed, and released once it lapses.
func TestSharedDatabaseReleasesOnlyLapsedLeases(t *testing.T) {
	st := openStore(t)
	now := time.Now().Add(time.Minute)
	clock := func() time.Time { return now }
	opts := outbox.Options{Now: clock, Shared: true, Lease: 30 * time.Second, MinBackoff: time.Hour}
	enqueueN(t, st, 3)
	a := outbox.New(st, &crashSender{}, opts)
	require.NoError(t, a.RenewLease())
	crash(a) // a's mails are in flight; a itself is alive as far as b can tell

	bSent := &countSender{}
	b := outbox.New(st, bSent, opts)
	require.NoError(t, b.RenewLease())
	next, err := b.RunOnce(context.Background())
	require.NoError(t, err)
	assert.Empty(t, bSent.sent, "b took a live daemon's work")
	assert.Equal(t, now.Add(10*time.Second), next, "b should look again when a's lease may have lapsed")

	now = now.Add(29 * time.Second)
	_, err = b.RunOnce(context.Background())
	require.NoError(t, err)
	assert.Empty(t, bSent.sent, "b took work under a lease not yet lapsed")

	now = now.Add(2 * time.Second) // a's lease (30 s) has lapsed; its backoff (1 h) has not
	_, err = b.RunOnce(context.Background())
	require.NoError(t, err)
	assert.Len(t, bSent.sent, 3)
}

// A send cut short by the daemon stopping is not a failure: the mails are
// due again at once, with no error recorded and no claim left.
func TestShutdownMidSendLeavesMailsDue(t *testing.T) {
	st := openStore(t)
	now := time.Now().Add(time.Minute)
	enqueueN(t, st, 2)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	q := outbox.New(st, fakeSender{err: context.Canceled}, outbox.Options{Now: func() time.Time { return now }})
	q.RunOnce(ctx)
	items, err := outbox.Pending(st)
	require.NoError(t, err)
	require.Len(t, items, 2)
	for _, it := range items {
		assert.True(t, now.Equal(it.NextAttempt), "due at %v, want %v", it.NextAttempt, now)
		assert.Empty(t, it.Owner)
		assert.Empty(t, it.LastError)
	}
}

// Run holds a lease while it runs and drops it when it stops.
func TestRunHoldsALease(t *testing.T) {
	st := openStore(t)
	q := outbox.New(st, &countSender{}, outbox.Options{})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- q.Run(ctx) }()
	leases := func() (ids []string) {
		st.View(context.Background(), func(tx store.Tx) error {
			if b := tx.Bucket([]byte("mail")).Bucket(outbox.BucketOwners); b != nil {
				b.ForEach(func(k, _ []byte) error { ids = append(ids, string(k)); return nil })
			}
			return nil
		})
		return
	}
	require.Eventually(t, func() bool { return len(leases()) == 1 }, 5*time.Second, 10*time.Millisecond)
	assert.Equal(t, []string{q.ID()}, leases())
	cancel()
	require.NoError(t, <-done)
	assert.Empty(t, leases())
}
