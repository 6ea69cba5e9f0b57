package daemon_test

import (
	"context"
	"fmt"
	"testing"

	"orrery/engine/game"
	"orrery/engine/store/storetest"
	"orrery/pbem/imapin"
	"orrery/pbem/pbemtest"
)

// TestSharedBatchReadsAhead: the shared queue's worker reads its batch's
// seen-records, reply budgets, senders' seats and recorded parts at the
// start of the batch, a round trip for each kind (readAhead, seeking to
// each mail's parts instead of walking them all), and the claim names
// the claimed queues' buckets, so that each mail of a batch from nine
// senders costs PostgreSQL only its own reads and its sender's claim.
func TestSharedBatchReadsAhead(t *testing.T) {
	dsn := storetest.NewSchema(t)
	srv := pbemtest.StartT(t, pbemtest.Options{Users: map[string]string{botAddr: "pw"}})
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	w := newWorker(t, ctx, dsn, "orrery-a", srv, nil)
	var gs []*game.Game
	for k := range 11 {
		g, err := w.d.Service().Create(ctx, game.CreateRequest{ID: fmt.Sprintf("g%d", k), Ruleset: "toy",
			Players: []game.PlayerSpec{{Name: "ann", Email: fmt.Sprintf("ann%d@example.org", k)}, {Name: "bob", Email: fmt.Sprintf("bob%d@example.org", k)}}})
		if err != nil {
			t.Fatal(err)
		}
		gs = append(gs, g)
	}
	uid := uint32(0)
	// work queues the mails of games gs (a seat's each) and has the
	// worker handle them in one batch; it returns the round trips the
	// batch took.
	work := func(gs []*game.Game) int64 {
		t.Helper()
		stop := otherDaemon(t, w.st, srv) // queued, not handled by the leader alone
		var msgs []imapin.Message
		for _, g := range gs {
			uid++
			msgs = append(msgs, imapin.Message{Mailbox: "INBOX", UIDValidity: 1, UID: uid, Raw: []byte(motto(g, "ann", int(uid)))})
		}
		for _, o := range w.d.Enqueue(ctx, msgs) {
			if o.Err != nil {
				t.Fatal(o.Err)
			}
		}
		stop()
		s0 := w.st.Stats()
		n, err := w.d.WorkQueue(ctx)
		if err != nil || n != len(gs) {
			t.Fatalf("WorkQueue handled %d of %d mails: %v", n, len(gs), err)
		}
		return w.st.Stats().Sub(s0).RoundTrips
	}
	// What a daemon's first batch reads once, and each sender's first
	// mail, first; then one sender's second mail alone, and nine other
	// senders' second mails together.
	work(gs)
	one := work(gs[10:11])
	nine := work(gs[1:10])
	each := float64(nine-one) / 8
	t.Logf("round trips: a batch of one mail %d, of nine %d: %.2f a mail more", one, nine, each)
	// A toy mail's own round trips in a shared batch: its game's row
	// (read and locked with its records), its tick times, its pending
	// orders (read twice: the prompt's, then all), its reply's
	// ping-pong record; and its sender's: the claim and the walk of its
	// queue, the count of what is left and the delete of its emptied
	// queue. Nine. Its seen-record, reply budget, seats and recorded
	// parts (a read and a delete) were six more, one at a time, and the
	// claimed queue's bucket one (16 in all).
	if each > 9.5 {
		t.Errorf("each mail of a shared batch costs %.2f round trips more than the batch's first, want 9: its seen-record, reply budget, seats or parts were read alone, not ahead, or its claimed queue looked up again", each)
	}
}
