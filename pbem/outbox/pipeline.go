package outbox

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// The database's part of sending, done beside the SMTP connection.
//
// Each batch costs two transactions, each with its fsync: the claim before
// the send and the settling after it; and while the daemon handles a
// backlog, each waits for the writer lock its batches of incoming mail
// hold. Done one after the other, the connection stood idle through them:
// in pbem/soak's backlog drain (5,000 order mails, 30,000 mails sent) the
// outbox spent a third of its time there, and the drain reached 0.66× of
// the raw fetch and send of the same mails. So while one batch goes out,
// another goroutine claims the next and settles the one before: the
// connection waits only when the database is slower than the server.
//
// Exactly once is kept as before: a mail is claimed (its attempt and its
// owner persisted) before it is sent, and settled after, so a crash at any
// instant leaves it claimed and it is sent again after the restart (at
// least once, with the same Message-ID; owners.go). A mail claimed and not
// yet settled is in flight (Queue.flying): claim passes it over, so the
// claim of the next batch, made while it is being sent, never takes it a
// second time, however short its backoff. One connection still sends its
// batches one after the other, in the order they were claimed, so one
// player's mails keep their order.

// runShard sends the due mails of one connection's recipients, batch after
// batch, until none is due, with the claims and settlements beside the
// sending. The sending stays in the calling goroutine.
func (q *Queue) runShard(ctx context.Context, shard int) (time.Time, error) {
	// The database's work, in the order it is asked for: at most a
	// claim and a settlement are waiting at once.
	work := make(chan func(), 2)
	var wg sync.WaitGroup
	wg.Go(func() {
		for f := range work {
			f()
		}
	})
	// Even when the sender never returns (runtime.Goexit in the tests'
	// crashSender), the worker ends and is waited for.
	defer wg.Wait()
	defer close(work)

	type claimed struct {
		due  []Item
		keys []string
		next time.Time
		err  error
	}
	claimNext := func() <-chan claimed {
		ch := make(chan claimed, 1)
		work <- func() {
			var c claimed
			c.due, c.keys, c.next, c.err = q.claim(shard)
			ch <- c
		}
		return ch
	}
	settleLater := func(c claimed, errs []error, shutdown bool) <-chan error {
		ch := make(chan error, 1)
		work <- func() {
			err := q.settle(c.due, errs, shutdown)
			q.fly(c.keys, false)
			ch <- err
		}
		return ch
	}
	var settling <-chan error // the batch before, being settled
	settled := func() error {
		if settling == nil {
			return nil
		}
		err := <-settling
		settling = nil
		return err
	}

	cur := <-claimNext()
	for {
		if cur.err != nil || len(cur.due) == 0 {
			wasSettling := settling != nil
			if err := settled(); err != nil && cur.err == nil {
				return time.Time{}, err
			}
			if cur.err != nil || !wasSettling {
				return cur.next, cur.err
			}
			// That claim passed over the batch then in flight: claim
			// again now that it is settled, for the time its failed
			// mails are due again (or for mail queued meanwhile).
			cur = <-claimNext()
			continue
		}
		var ahead <-chan claimed
		if ctx.Err() == nil {
			ahead = claimNext() // while this batch goes out
		}
		mails := make([]Mail, len(cur.due))
		for i, it := range cur.due {
			mails[i] = it.Mail
			if q.opt.Envelope != nil {
				mails[i].EnvelopeFrom = q.opt.Envelope(it.Seq, it.Mail)
			}
		}
		errs := q.sender.Send(ctx, mails)
		stopping := ctx.Err() != nil
		failed := settled() // the batch before's
		settling = settleLater(cur, errs, stopping)
		var next claimed
		if ahead != nil {
			next = <-ahead
		}
		if !stopping && failed == nil {
			cur = next
			continue
		}
		// Stopping, or the database failed: the batch claimed ahead
		// goes back to the queue untried and due at once, as an
		// interrupted one does.
		if len(next.due) > 0 {
			cause := failed
			if stopping {
				cause = ctx.Err()
			}
			notTried := make([]error, len(next.due))
			for i := range notTried {
				notTried[i] = fmt.Errorf("not tried: %w", cause)
			}
			if err := settled(); failed == nil {
				failed = err
			}
			settling = settleLater(next, notTried, true)
		}
		if err := settled(); failed == nil {
			failed = err
		}
		if failed == nil {
			failed = ctx.Err()
		}
		return time.Time{}, failed
	}
}

// inFlight reports whether the mail under key k is claimed by this worker
// and not yet settled.
func (q *Queue) inFlight(k []byte) bool {
	q.flyMu.Lock()
	defer q.flyMu.Unlock()
	_, ok := q.flying[string(k)]
	return ok
}

// fly marks the mails under keys as in flight, or no longer.
func (q *Queue) fly(keys []string, on bool) {
	q.flyMu.Lock()
	defer q.flyMu.Unlock()
	for _, k := range keys {
		if on {
			q.flying[k] = struct{}{}
		} else {
			delete(q.flying, k)
		}
	}
}
