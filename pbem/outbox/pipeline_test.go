package outbox_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"orrery/engine/store"
	"orrery/pbem/outbox"
)

// slowSender takes its time over each batch, as a real server does, and
// notes whether the mail queued after each batch's last was claimed while
// the batch went out.
type slowSender struct {
	db      *store.Store
	mu      sync.Mutex
	batches [][]string // the subjects of each batch
	ahead   []bool     // the mail after the batch was claimed meanwhile
	fail    map[string]bool
}

func (s *slowSender) Send(_ context.Context, mails []outbox.Mail) []error {
	var subjects []string
	for _, m := range mails {
		subjects = append(subjects, m.Subject)
	}
	// Wait (a generous while) for the next batch's claim, which the
	// queue makes while this one is being sent.
	last := mails[len(mails)-1].MessageID
	ahead, more := false, true
	for deadline := time.Now().Add(2 * time.Second); more && !ahead && time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		items, _ := outbox.Pending(s.db)
		for i, it := range items {
			if it.Mail.MessageID == last {
				more = i+1 < len(items)
				ahead = more && items[i+1].Owner != ""
			}
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.batches = append(s.batches, subjects)
	s.ahead = append(s.ahead, ahead)
	errs := make([]error, len(mails))
	for i, m := range mails {
		if s.fail[m.Subject] {
			errs[i] = errors.New("451 try later")
		}
	}
	return errs
}

// The next batch is claimed while one is being sent, and a mail in flight
// is never claimed a second time, even when its backoff has run out before
// it is settled: every mail goes once, in queue order, and a failed one
// waits for its backoff.
func TestNextBatchClaimedWhileOneIsSent(t *testing.T) {
	st := openStore(t)
	s := &slowSender{db: st, fail: map[string]bool{}}
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	q := outbox.New(st, s, outbox.Options{Batch: 2, MinBackoff: time.Nanosecond, MaxBackoff: time.Nanosecond, Now: func() time.Time { return now }})
	for i := range 5 {
		enqueue(t, st, q, mail(i))
	}
	s.fail[mail(4).Subject] = true
	_, err := q.RunOnce(context.Background())
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(s.batches), 3)
	want := [][]string{{mail(0).Subject, mail(1).Subject}, {mail(2).Subject, mail(3).Subject}, {mail(4).Subject}}
	assert.Equal(t, want, s.batches[:3], "each mail once, in queue order")
	// The failed mail, its backoff a nanosecond, is tried again by
	// the same RunOnce only after it was settled: alone, never beside
	// itself.
	for _, b := range s.batches[3:] {
		assert.Equal(t, []string{mail(4).Subject}, b)
	}
	assert.Equal(t, []bool{true, true}, s.ahead[:2], "the next batch was not claimed while one was sent")
	c, err := outbox.Count(st)
	require.NoError(t, err)
	assert.Equal(t, 4, c.Sent)
}

// A daemon stopping mid-send leaves both the batch being sent and the one
// claimed ahead of it due at once, claimed by no one.
func TestStopLeavesTheBatchClaimedAheadDue(t *testing.T) {
	st := openStore(t)
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	ctx, cancel := context.WithCancel(context.Background())
	stopper := &stopSender{db: st, cancel: cancel}
	q := outbox.New(st, stopper, outbox.Options{Batch: 2, Now: func() time.Time { return now }})
	for i := range 4 {
		enqueue(t, st, q, mail(i))
	}
	_, err := q.RunOnce(ctx)
	require.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, 4, stopper.claimed, "the second batch was not claimed ahead")
	items, err := outbox.Pending(st)
	require.NoError(t, err)
	require.Len(t, items, 4)
	for _, it := range items {
		assert.Empty(t, it.Owner, "%s still claimed", it.Mail.Subject)
		assert.True(t, now.Equal(it.NextAttempt), "%s due at %v", it.Mail.Subject, it.NextAttempt)
		assert.Empty(t, it.LastError)
	}
}

// stopSender waits for the batch claimed ahead, then stops the daemon
// and fails its batch as a cut connection would.
type stopSender struct {
	db      *store.Store
	cancel  func()
	claimed int
}

func (s *stopSender) Send(ctx context.Context, mails []outbox.Mail) []error {
	for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if s.claimed, _ = outbox.InFlight(s.db); s.claimed > len(mails) {
			break
		}
	}
	s.cancel()
	errs := make([]error, len(mails))
	for i := range errs {
		errs[i] = ctx.Err()
	}
	return errs
}
