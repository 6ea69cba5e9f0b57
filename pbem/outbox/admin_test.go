package outbox_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"orrery/engine/store"
	"orrery/pbem/outbox"
)

// The GM's tools over the outbox (orrery mail queue, retry, drop): a
// mail given up on, one waiting after a failed attempt and one whose body
// is damaged are each listed as what they are; the damaged one holds up
// neither the list nor the game's log; a retry makes a waiting mail due
// now and puts a dead one back in the queue with its give-up time anew,
// and the queue then sends both; a drop deletes a mail unsent and the
// game's log says so, and why.
func TestGMQueueTools(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	clock := outbox.Options{Now: func() time.Time { return now }, MinBackoff: time.Hour, MaxBackoff: time.Hour}
	of := func(i int) outbox.Mail {
		m := mail(i)
		m.Game, m.Kind = "g1", "report"
		return m
	}
	refuse := outbox.New(st, fakeSender{&outbox.Permanent{Err: errors.New("550 no such user")}}, clock)
	enqueue(t, st, refuse, of(1))
	_, err := refuse.RunOnce(ctx)
	require.NoError(t, err)
	later := outbox.New(st, fakeSender{errors.New("421 try later")}, clock)
	enqueue(t, st, later, of(2), of(3))
	_, err = later.RunOnce(ctx)
	require.NoError(t, err)
	_, err = outbox.Compact(st, now, 0) // the game index, as the daemon builds it at start
	require.NoError(t, err)
	require.NoError(t, st.Update(ctx, func(tx store.Tx) error {
		b := tx.Bucket(store.BucketMail).Bucket(outbox.BucketQueue)
		v := b.Get(store.Key(3))
		return b.Put(store.Key(3), append([]byte("\xffS2"), v[len(v)/2:]...))
	}))

	queued, err := outbox.List(ctx, st, false, 0, 0)
	require.NoError(t, err)
	require.Len(t, queued, 2)
	assert.Equal(t, uint64(2), queued[0].Seq)
	assert.Empty(t, queued[0].Unreadable)
	assert.Equal(t, 1, queued[0].Item.Attempts)
	assert.Equal(t, "421 try later", queued[0].Item.LastError)
	assert.WithinRange(t, queued[0].Item.NextAttempt, now.Add(45*time.Minute), now.Add(75*time.Minute), "backed off by an hour (±25%)")
	assert.Equal(t, "p2@example.org", queued[0].Item.Mail.To[0])
	assert.Equal(t, uint64(3), queued[1].Seq)
	assert.Contains(t, queued[1].Unreadable, "outbox item 3")
	dead, err := outbox.List(ctx, st, true, 0, 0)
	require.NoError(t, err)
	require.Len(t, dead, 1)
	assert.True(t, dead[0].Dead)
	assert.Equal(t, "550 no such user", dead[0].Item.LastError)
	page, err := outbox.List(ctx, st, false, 2, 1)
	require.NoError(t, err)
	require.Len(t, page, 1, "the page after #2")
	assert.Equal(t, uint64(3), page[0].Seq)
	page, err = outbox.List(ctx, st, false, 0, 1)
	require.NoError(t, err)
	require.Len(t, page, 1, "--limit 1")
	assert.Equal(t, uint64(2), page[0].Seq)

	log, err := outboxLog(st, "g1")
	require.NoError(t, err, "a damaged body does not stop game log")
	require.Len(t, log, 3)
	assert.Equal(t, []string{"gave up", "queued", "unreadable"}, []string{log[0].State, log[1].State, log[2].State})
	assert.Contains(t, log[2].Error, "orrery mail drop 3")

	_, err = outbox.Retry(ctx, st, 3, now)
	assert.ErrorContains(t, err, "drop it", "a damaged body is not sent again")
	_, err = outbox.Retry(ctx, st, 9, now)
	assert.ErrorIs(t, err, outbox.ErrNoMail)
	was, err := outbox.Drop(ctx, st, 3, "damaged on disk", now)
	require.NoError(t, err)
	assert.NotEmpty(t, was.Unreadable)
	_, err = outbox.Drop(ctx, st, 3, "again", now)
	assert.ErrorIs(t, err, outbox.ErrNoMail, "dropped once")

	// Five days later: the provider is mended; #2 is not due for an
	// hour yet, and #1 was given up on long ago.
	now = now.Add(5 * 24 * time.Hour)
	was, err = outbox.Retry(ctx, st, 1, now)
	require.NoError(t, err)
	assert.True(t, was.Dead)
	_, err = outbox.Retry(ctx, st, 2, now)
	require.NoError(t, err)
	c, err := outbox.Count(st)
	require.NoError(t, err)
	assert.Equal(t, outbox.Stats{Queued: 2}, c)
	queued, err = outbox.List(ctx, st, false, 0, 0)
	require.NoError(t, err)
	require.Len(t, queued, 2)
	assert.Equal(t, now, queued[0].Item.Queued.UTC(), "a dead letter retried gets its give-up time anew")
	s := &countSender{}
	_, err = outbox.New(st, s, clock).RunOnce(ctx)
	require.NoError(t, err)
	require.Len(t, s.sent, 2, "both sent at once")
	c, err = outbox.Count(st)
	require.NoError(t, err)
	assert.Equal(t, outbox.Stats{Sent: 2}, c)

	// A drop of a waiting mail: gone unsent, and the game's log says so.
	enqueue(t, st, later, of(4))
	_, err = outbox.Drop(ctx, st, 4, "wrong address", now)
	require.NoError(t, err)
	s = &countSender{}
	_, err = outbox.New(st, s, clock).RunOnce(ctx)
	require.NoError(t, err)
	assert.Empty(t, s.sent)
	log, err = outboxLog(st, "g1")
	require.NoError(t, err)
	require.Len(t, log, 3, "#1 and #2 sent, #4 dropped (#3 named no game once damaged)")
	assert.Equal(t, []string{"sent", "sent", "dropped"}, []string{log[0].State, log[1].State, log[2].State})
	assert.Equal(t, "dropped by the GM: wrong address", log[2].Error)
	assert.Equal(t, "p4@example.org", log[2].To[0])
}
