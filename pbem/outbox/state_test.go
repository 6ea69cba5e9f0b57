package outbox_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"orrery/engine/store"
	"orrery/pbem/outbox"
)

// records returns the raw records of bucket name under mail, by seq.
func records(t *testing.T, st *store.Store, name []byte) map[uint64]string {
	t.Helper()
	out := map[uint64]string{}
	require.NoError(t, st.View(context.Background(), func(tx store.Tx) error {
		b := tx.Bucket(store.BucketMail).Bucket(name)
		if b == nil {
			return nil
		}
		return b.ForEach(func(k, v []byte) error {
			out[store.KeyN(k)] = string(v)
			return nil
		})
	}))
	return out
}

// queueOld stores it as an older Orrery queued mail: the whole Item under
// the queue's next sequence number, with no state record.
func queueOld(t *testing.T, st *store.Store, it outbox.Item) uint64 {
	t.Helper()
	var seq uint64
	require.NoError(t, st.Update(context.Background(), func(tx store.Tx) error {
		q, err := tx.Bucket(store.BucketMail).CreateBucketIfNotExists(outbox.BucketQueue)
		if err != nil {
			return err
		}
		if seq, err = q.NextSequence(); err != nil {
			return err
		}
		it.Seq = seq
		data, err := json.Marshal(it)
		if err != nil {
			return err
		}
		return q.Put(store.Key(seq), data)
	}))
	return seq
}

// A mail an older Orrery queued (its state inside the item, no state
// record) is listed as it was and sent by its own state: due at once,
// after its backoff, or at once when the worker that claimed it is gone.
func TestMailQueuedByAnOlderOrrery(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	cases := []struct {
		name string
		item outbox.Item
		// whether the first run sends it, and whether a run an hour
		// later does
		sentNow, sentLater bool
	}{
		{"due", outbox.Item{Queued: now.Add(-time.Minute), NextAttempt: now.Add(-time.Minute)}, true, true},
		{"backing off", outbox.Item{Queued: now.Add(-time.Hour), Attempts: 2, NextAttempt: now.Add(10 * time.Minute),
			LastError: "451 try later"}, false, true},
		{"claimed by a worker that is gone", outbox.Item{Queued: now.Add(-time.Minute), Attempts: 1,
			NextAttempt: now.Add(30 * time.Second), Owner: "123-dead"}, true, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st := openStore(t)
			c.item.Mail = mail(1)
			c.item.Mail.MessageID = "old@pbem.test"
			seq := queueOld(t, st, c.item)
			// Listed with the item's own state.
			items, err := outbox.Pending(st)
			require.NoError(t, err)
			want := c.item
			want.Seq = seq
			require.Len(t, items, 1)
			assert.Equal(t, want.Attempts, items[0].Attempts)
			assert.Equal(t, want.LastError, items[0].LastError)
			assert.Equal(t, want.Owner, items[0].Owner)
			assert.True(t, want.NextAttempt.Equal(items[0].NextAttempt))

			at := now
			s := &countSender{}
			q := outbox.New(st, s, outbox.Options{Now: func() time.Time { return at }})
			_, err = q.RunOnce(context.Background())
			require.NoError(t, err)
			assert.Equal(t, c.sentNow, len(s.sent) == 1, "sent at once")
			if !c.sentNow {
				items, err := outbox.Pending(st)
				require.NoError(t, err)
				require.Len(t, items, 1)
				assert.Equal(t, c.item.Attempts, items[0].Attempts, "attempts while it waits")
			}
			at = now.Add(time.Hour)
			_, err = q.RunOnce(context.Background())
			require.NoError(t, err)
			require.Len(t, s.sent, 1, "sent once")
			assert.Equal(t, "old@pbem.test", s.sent[0].MessageID)
			got, err := outbox.Count(st)
			require.NoError(t, err)
			assert.Equal(t, outbox.Stats{Sent: 1}, got)
			assert.Empty(t, records(t, st, outbox.BucketState))
		})
	}
}

// A claim and a failed attempt write the mail's small state record only:
// the body, text, HTML and attachments, stays byte for byte as queued.
// Settling moves both records together: to the sent records, or to the
// dead ones with the last state.
func TestClaimWritesOnlyTheState(t *testing.T) {
	cases := []struct {
		name string
		err  error // what the server says to the first attempt
		// after the first attempt
		queued, sent, dead int
	}{
		{"accepted", nil, 0, 1, 0},
		{"temporary failure", errors.New("451 try later"), 1, 0, 0},
		{"refused for good", &outbox.Permanent{Err: errors.New("550 no such user")}, 0, 0, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st := openStore(t)
			now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
			q := outbox.New(st, fakeSender{c.err}, outbox.Options{Now: func() time.Time { return now }})
			m := mail(1)
			m.Files = []outbox.File{{Name: "report.json", ContentType: "application/json", Data: []byte(`{"turn":1}`)}}
			enqueue(t, st, q, m)
			bodies := records(t, st, outbox.BucketQueue)
			require.Len(t, bodies, 1)
			require.Len(t, records(t, st, outbox.BucketState), 1)

			_, err := q.RunOnce(context.Background())
			require.NoError(t, err)
			got, err := outbox.Count(st)
			require.NoError(t, err)
			assert.Equal(t, outbox.Stats{Queued: c.queued, Sent: c.sent, Dead: c.dead}, got)
			states := records(t, st, outbox.BucketState)
			if c.queued == 0 {
				assert.Empty(t, records(t, st, outbox.BucketQueue), "body left behind")
				assert.Empty(t, states, "state left behind")
			} else {
				assert.Equal(t, bodies, records(t, st, outbox.BucketQueue), "the body was rewritten")
				require.Len(t, states, 1)
				items, err := outbox.Pending(st)
				require.NoError(t, err)
				require.Len(t, items, 1)
				assert.Equal(t, 1, items[0].Attempts)
				assert.Equal(t, "451 try later", items[0].LastError)
				assert.Empty(t, items[0].Owner)
				assert.True(t, items[0].NextAttempt.After(now))
			}
			if c.dead > 0 {
				var it outbox.Item
				for _, v := range records(t, st, outbox.BucketDead) {
					require.NoError(t, outbox.DecodeBody([]byte(v), &it))
				}
				assert.Equal(t, 1, it.Attempts)
				assert.Contains(t, it.LastError, "550")
				assert.Equal(t, m.Files, it.Mail.Files)
			}
		})
	}
}

// A claim left unsettled by a crash marks the state record with its
// owner; the body is untouched, and the restart sends the mail once.
func TestCrashLeavesTheBodyAsQueued(t *testing.T) {
	st := openStore(t)
	enqueueN(t, st, 3)
	bodies := records(t, st, outbox.BucketQueue)
	crash(outbox.New(st, &crashSender{}, outbox.Options{}))
	assert.Equal(t, bodies, records(t, st, outbox.BucketQueue))
	n, err := outbox.InFlight(st)
	require.NoError(t, err)
	assert.Equal(t, 3, n)

	s := &countSender{}
	_, err = outbox.New(st, s, outbox.Options{}).RunOnce(context.Background())
	require.NoError(t, err)
	assert.Len(t, s.sent, 3)
	assert.Empty(t, records(t, st, outbox.BucketQueue))
	assert.Empty(t, records(t, st, outbox.BucketState))
}

// A state record without its body (an older Orrery sent the mail, and
// knew nothing of the state) is dropped by the claim that finds it, and
// holds nothing else back.
func TestStateWithoutBodyIsDropped(t *testing.T) {
	st := openStore(t)
	enqueueN(t, st, 2)
	require.NoError(t, st.Update(context.Background(), func(tx store.Tx) error {
		return tx.Bucket(store.BucketMail).Bucket(outbox.BucketQueue).Delete(store.Key(1))
	}))
	s := &countSender{}
	_, err := outbox.New(st, s, outbox.Options{}).RunOnce(context.Background())
	require.NoError(t, err)
	assert.Len(t, s.sent, 1)
	assert.Empty(t, records(t, st, outbox.BucketState))
}

// Mail an older Orrery queues while a new worker runs (a GM's older CLI
// on a shared PostgreSQL) is adopted by the next claim.
func TestOlderMailQueuedWhileRunning(t *testing.T) {
	st := openStore(t)
	s := &countSender{}
	q := outbox.New(st, s, outbox.Options{})
	enqueueN(t, st, 1)
	_, err := q.RunOnce(context.Background())
	require.NoError(t, err)
	now := time.Now()
	queueOld(t, st, outbox.Item{Mail: mail(7), Queued: now, NextAttempt: now})
	enqueueN(t, st, 1)
	_, err = q.RunOnce(context.Background())
	require.NoError(t, err)
	require.Len(t, s.sent, 3)
	assert.Equal(t, mail(7).Subject, s.sent[1].Subject)
}
