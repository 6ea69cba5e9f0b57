package daemon

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"orrery/engine/game"
	"orrery/engine/store"
	"orrery/pbem/imapin"
	"orrery/pbem/inmail"
	"orrery/pbem/policy"
)

// This file is the shared inbox queue: how several daemons on one
// PostgreSQL database share the mail work (Config.Lead set on a store no
// process holds alone). One daemon leads and reads the mailbox; reading is
// cheap, handling is not (parsing, sender authentication, the game
// change, the replies). So the leader only copies each fetched mail into
// the queue in the database and files it, and every daemon, the leader
// too, runs a worker that claims queued mails (store.Bucket.Claim: FOR NO
// KEY UPDATE SKIP LOCKED) and handles them as HandleBatch does. The
// workers take turns at their batches (Config.Turn; WorkQueue says why):
// a second daemon adds a worker ready when the first's batch ends, and
// takes over the work when the first dies, but two batches do not run at
// once.
//
// Layout (engine/store/schema.go): mail/inbox-queue/<sender>/<seq> holds a
// queued mail, under the canonical address of its sender, seq counting
// arrivals; mail/inbox-queued/<message key> → sender marks a mail queued,
// so that one fetched again (the leader died before filing it) is not
// queued twice.
//
// Exactly once. The queue is a second inbox, and a worker treats it as
// the reader treats the mailbox: a claimed batch is handled by
// handleGroups, where each mail's effect, its seen-record and the mails it
// causes commit in one transaction, and only then are the handled entries
// deleted, in the claim's transaction. A worker that dies anywhere (its
// process killed, its connection dropped) rolls back its claim, and the
// mails it held are claimed again, by another daemon or after a restart;
// one whose seen-record had committed is then only dropped from the queue,
// as a mail fetched twice is only filed. Likewise the leader files a mail
// only after its queue entry committed.
//
// Order. A sender's queued mails are one bucket, which one worker at a
// time claims and handles in arrival order: a player's later mail applies
// after his earlier one, and replaces its orders, as with one daemon.
// Mails of different senders waiting at the same time may apply in either
// order, as they might have arrived in either; a game's row lock makes
// their changes to it one after the other. A mail whose handling failed
// (the database, DNS) waits queueRetry and is tried again, while the
// sender's later mails go on, as a failed mail in the mailbox does.
//
// Alone. A leader that finds no other daemon's outbox holding a live
// lease, and nothing queued, handles a fetched batch itself, as a daemon
// on a store of its own does (HandleBatch), instead of queueing it for
// no one else to claim (alone). That spares the queued copies' writes
// and deletes, the queueing transaction, the claims, and the conflicts
// between the reader's and the worker's transactions: in a 10,000-game
// backlog's drain on PostgreSQL the daemon's CPU went from 43-48 s to
// 39 s, the server's from 13-14 s to 11 s, and the transactions refused
// and done again from 131-148 to 52 (docs/benchmarks.md). Only the
// leader queues, so the queue stays empty while it handles the batch,
// and a sender's later mail cannot overtake a queued one. A daemon that
// starts meanwhile finds nothing to claim and shares from the next batch
// on; one that died keeps the leader queueing until its lease lapses.
//
// What the leader files where: a mail it can answer at once without any
// work (unreadable, or silenced: policy.Silence) it handles itself, and
// files as today; every other mail goes to the processed folder once
// queued, even if its handling later rejects it (a forged sender): the
// seen-record, and the log, say how it ended.

// Bucket names under store.BucketMail (also listed in engine/store/schema.go).
var (
	BucketQueue  = store.BucketMailQueue  // sender → seq → JSON queuedMail
	BucketQueued = store.BucketMailQueued // message key → sender, while queued
)

const (
	// claimSenders is how many senders' queued mails a worker claims at
	// once, and claimMails the most mails it takes of them: the batch
	// one fetch from the mailbox gives.
	claimSenders = 16
	claimMails   = 50
	// queueRetry is how long a queued mail whose handling failed waits
	// before it is tried again (imapin.Config.RetryFailed's default).
	queueRetry = time.Minute
	// DefaultQueuePoll is how often an idle worker looks for queued mail
	// (Config.QueuePoll); the leader's own worker is woken at once.
	DefaultQueuePoll = 500 * time.Millisecond
	// enqueuePatience is how long the leader tries to queue a fetched
	// batch before it gives up and leaves the batch in the mailbox, to be
	// fetched again (imapin.Config.RetryFailed) behind later mail.
	enqueuePatience = 10 * time.Minute
)

// queuedMail is a mail in the queue, as the reader handed it over.
type queuedMail struct {
	Key         string    `json:"key"` // messageKey
	Mailbox     string    `json:"mailbox"`
	UIDValidity uint32    `json:"uidvalidity"`
	UID         uint32    `json:"uid"`
	Size        int64     `json:"size"`
	Truncated   bool      `json:"truncated,omitempty"`
	Raw         []byte    `json:"raw"`
	Queued      time.Time `json:"queued"`
	// Retry is set when handling it failed: not before then.
	Retry time.Time `json:"retry,omitzero"`
}

func (q *queuedMail) message() imapin.Message {
	return imapin.Message{Mailbox: q.Mailbox, UIDValidity: q.UIDValidity, UID: q.UID, Raw: q.Raw, Size: q.Size, Truncated: q.Truncated}
}

// shared reports whether the mail work goes through the queue: several
// daemons may run on this store.
func (d *Daemon) shared() bool { return d.cfg.Lead != nil && !d.st.Locks() }

// senderKey is the queue bucket of a mail from m's sender.
func senderKey(m *inmail.Message) []byte {
	if a := game.CanonAddress(m.From); a != "" {
		return addrKey(a)
	}
	return []byte("\x00no sender")
}

// Enqueue is the leader's imapin.BatchHandler when the daemon runs shared:
// it queues each mail of a fetched batch for the workers, in one
// transaction, and tells the reader to file it; a mail seen before is
// filed as it was, one already queued is filed only. A leader alone
// (alone) handles the batch itself instead, as HandleBatch.
func (d *Daemon) Enqueue(ctx context.Context, msgs []imapin.Message) []imapin.Outcome {
	if d.alone(ctx) {
		out := d.HandleBatch(ctx, msgs)
		n := 0
		for _, o := range out {
			if o.Err == nil {
				n++
			}
		}
		d.log.Debug("handled fetched mail here: no other daemon runs", "mails", n)
		return out
	}
	out := make([]imapin.Outcome, len(msgs))
	type item struct {
		i      int
		key    string
		sender []byte
	}
	var items []item
	var direct []imapin.Message
	var directAt []int
	for i, msg := range msgs {
		m, _ := inmail.Parse(msg.Raw, inmail.Options{MaxText: d.cfg.MaxText})
		if m == nil || policy.Silence(m, d.cfg.Policy) != "" {
			direct, directAt = append(direct, msg), append(directAt, i)
			continue
		}
		items = append(items, item{i: i, key: messageKey(m, msg.Raw), sender: senderKey(m)})
	}
	if len(items) > 0 {
		now := d.cfg.Now()
		queue := func() error {
			return d.st.Update(ctx, func(tx store.Tx) error {
				seen, err := mailBucket(tx, BucketSeen)
				if err != nil {
					return err
				}
				q, err := mailBucket(tx, BucketQueue)
				if err != nil {
					return err
				}
				queued, err := mailBucket(tx, BucketQueued)
				if err != nil {
					return err
				}
				for _, it := range items {
					out[it.i] = imapin.Outcome{Disposition: imapin.Processed}
					if v := seen.Get([]byte(it.key)); v != nil {
						var rec seenRecord
						if json.Unmarshal(v, &rec) == nil && rec.Disposition == "rejected" {
							out[it.i].Disposition = imapin.Rejected
						}
						continue
					}
					if queued.Get([]byte(it.key)) != nil {
						continue // fetched again before it was filed
					}
					msg := msgs[it.i]
					v, err := json.Marshal(queuedMail{Key: it.key, Mailbox: msg.Mailbox, UIDValidity: msg.UIDValidity, UID: msg.UID,
						Size: msg.Size, Truncated: msg.Truncated, Raw: msg.Raw, Queued: now})
					if err != nil {
						return err
					}
					b, err := q.CreateBucketIfNotExists(it.sender)
					if err != nil {
						return fmt.Errorf("queue a mail from %q: %w", it.sender, err)
					}
					seq, err := q.NextSequence()
					if err != nil {
						return err
					}
					if err := b.Put(store.Key(seq), v); err != nil {
						return fmt.Errorf("queue a mail from %q: %w", it.sender, err)
					}
					if err := queued.Put([]byte(it.key), it.sender); err != nil {
						return err
					}
				}
				tx.OnCommit(d.wakeWorker)
				return nil
			})
		}
		// The batch is queued before the reader may fetch the next one:
		// a batch that failed and was offered again later would be
		// queued behind mail that arrived after it, and a player's
		// later orders would apply first. So a failure (PostgreSQL
		// refusing the transaction again and again while the workers
		// commit, the database restarting) is tried again here, the
		// reader waiting, for up to enqueuePatience.
		err := queue()
		for wait, start := 50*time.Millisecond, time.Now(); err != nil && ctx.Err() == nil && time.Since(start) < enqueuePatience; wait = min(2*wait, 5*time.Second) {
			d.log.Warn("fetched mail not queued yet; trying again, the mail after it waits", "mails", len(items), "retry_in", wait, "err", err)
			select {
			case <-ctx.Done():
			case <-time.After(wait):
			}
			err = queue()
		}
		if err != nil {
			for _, it := range items {
				out[it.i] = imapin.Outcome{Err: fmt.Errorf("queue the mail for handling: %w", err)}
			}
		}
	}
	if len(direct) > 0 {
		got := d.HandleBatch(ctx, direct)
		for k, i := range directAt {
			out[i] = got[k]
		}
	}
	return out
}

// alone reports whether the leader may handle a fetched batch itself
// (see "Alone" above): this daemon has an outbox, no other daemon's
// outbox holds a live lease, and nothing is queued. A failure to look
// says no: the batch is queued, as always before.
func (d *Daemon) alone(ctx context.Context) bool {
	if d.queue == nil {
		return false
	}
	alone := false
	err := d.st.View(ctx, func(tx store.Tx) error {
		if mail := tx.Bucket(store.BucketMail); mail != nil {
			if q := mail.Bucket(BucketQueue); q != nil && q.KeyN() > 0 {
				return nil
			}
		}
		alone = !d.queue.OthersLive(tx)
		return nil
	})
	return err == nil && alone
}

// wakeWorker tells this process's worker that mail was queued.
func (d *Daemon) wakeWorker() {
	select {
	case d.wake <- struct{}{}:
	default:
	}
}

// work handles queued mail until ctx ends: at once while there is some,
// else when the leader in this process queues more, or every
// Config.QueuePoll for what other daemons queued.
func (d *Daemon) work(ctx context.Context) {
	for ctx.Err() == nil {
		n, err := d.WorkQueue(ctx)
		if err != nil && ctx.Err() == nil {
			d.log.Error("handle queued mail", "err", err)
		}
		if n > 0 && err == nil {
			continue
		}
		select {
		case <-ctx.Done():
		case <-d.wake:
		case <-time.After(d.cfg.QueuePoll):
		}
	}
}

// queueEntry is a queued mail a worker claimed.
type queueEntry struct {
	sender, seq []byte
	q           queuedMail
}

// claimQueue claims, in tx, the mail of senders that no other worker
// holds, one sender at a time, until it has up to most of their mails that
// are due (in arrival order) or claimSenders senders. It returns the
// senders claimed and the mails. One sender at a time: a worker that finds
// enough in one sender's mails leaves the next sender to another worker,
// instead of holding it while it works through the first.
func (d *Daemon) claimQueue(tx store.Tx, most int) ([][]byte, []queueEntry, error) {
	mail := tx.Bucket(store.BucketMail)
	if mail == nil || mail.Bucket(BucketQueue) == nil {
		return nil, nil, nil
	}
	q := mail.Bucket(BucketQueue)
	var names [][]byte
	var todo []queueEntry
	mine := map[string]bool{}
	now := d.cfg.Now()
	for len(names) < claimSenders && len(todo) < most {
		// Claim gives again what this transaction holds: the one
		// not yet among them is the next sender.
		got, err := q.Claim(len(names) + 1)
		if err != nil {
			return nil, nil, err
		}
		var name []byte
		for _, n := range got {
			if !mine[string(n)] {
				name = n
				break
			}
		}
		if name == nil {
			break // no other sender is free
		}
		mine[string(name)] = true
		names = append(names, name)
		b := q.Bucket(name)
		if b == nil {
			continue
		}
		c := b.Cursor()
		for k, v := c.First(); k != nil && len(todo) < most; k, v = c.Next() {
			e := queueEntry{sender: name, seq: store.Copy(k)}
			if err := json.Unmarshal(v, &e.q); err != nil {
				return nil, nil, fmt.Errorf("queued mail %x from %q is unreadable: %w", k, name, err)
			}
			if !e.q.Retry.After(now) {
				todo = append(todo, e)
			}
		}
	}
	return names, todo, nil
}

// unqueue deletes from the queue, in tx, the mails of todo whose outcome
// has no error (out nil: all of them), marks the others to be tried again
// after queueRetry, and deletes the claimed senders' buckets left empty.
func (d *Daemon) unqueue(tx store.Tx, names [][]byte, todo []queueEntry, out []imapin.Outcome) (int, error) {
	q, err := mailBucket(tx, BucketQueue)
	if err != nil {
		return 0, err
	}
	queued, err := mailBucket(tx, BucketQueued)
	if err != nil {
		return 0, err
	}
	handled := 0
	for i, e := range todo {
		b := q.Bucket(e.sender)
		if b == nil {
			return 0, fmt.Errorf("the queue of mail from %q vanished while claimed", e.sender)
		}
		if out != nil && out[i].Err != nil {
			d.log.Error("queued mail not handled; it stays queued, to be tried again", "uid", e.q.UID, "key", e.q.Key, "retry_in", queueRetry, "err", out[i].Err)
			e.q.Retry = d.cfg.Now().Add(queueRetry)
			v, err := json.Marshal(e.q)
			if err != nil {
				return 0, err
			}
			if err := b.Put(e.seq, v); err != nil {
				return 0, err
			}
			continue
		}
		if err := b.Delete(e.seq); err != nil {
			return 0, err
		}
		if err := queued.Delete([]byte(e.q.Key)); err != nil {
			return 0, err
		}
		handled++
	}
	for _, name := range names {
		if b := q.Bucket(name); b != nil && b.KeyN() == 0 {
			if err := q.DeleteBucket(name); err != nil {
				return 0, err
			}
		}
	}
	return handled, nil
}

// WorkQueue claims a batch of queued mail (the mails of up to
// claimSenders senders that no other worker holds), handles it, and
// deletes from the queue what it handled; it returns how many mails it
// handled. The claim, the handling of every mail (its effect, its
// seen-record, the mails it causes) and the deletes are one transaction
// (store.Group): one connection, one commit for the batch, and the batch
// stays queued whole if anything stops it before the commit. The senders'
// authentication asks DNS inside that transaction: on PostgreSQL it holds
// only the claimed senders' rows meanwhile, not a writer lock, so what
// HandleBatch keeps out of its transaction for bbolt's sake may stay in.
// The batch stops taking mails after Config.GroupTime of work; the rest
// wait for the next.
//
// Turns. Two such transactions at once cannot both commit: each writes
// the outbox's sequence row with its first reply, and PostgreSQL makes
// the second wait for the row and then refuses it (40001) when the first
// commits, besides refusing one of two that read and wrote the same index
// pages. The one refused had worked for nothing, and tried again after a
// pause (the store's backoff, longer each time) while the winner had
// begun its next batch at once: one worker could win every batch for
// seconds while the other handled none. So with Config.Turn (PostgreSQL's
// advisory lock, granted in the order asked) the workers take turns: a
// batch waits for the lock before its transaction begins, and sees what
// the batch before it committed. What else shares the database (the
// leader queueing mail, the outboxes, the tick) still may refuse a
// batch; the group is then run again, each try with a quarter of the
// mails the one before had, so that one short enough to win comes soon.
//
// When a mail's handling fails inside the group (a change the engine
// refuses half done), the group is rolled back and the batch is done
// again by workApart (or, on a store one process holds, left queued for
// the next start: see drainLeftover).
func (d *Daemon) WorkQueue(ctx context.Context) (int, error) {
	handled, failed := 0, false
	tries := 0
	batch := func(ctx context.Context) error {
		return d.st.Group(ctx, func(ctx context.Context) error {
			tries++
			handled, failed = 0, false
			var names [][]byte
			var todo []queueEntry
			err := d.st.Update(ctx, func(tx store.Tx) error {
				var err error
				names, todo, err = d.claimQueue(tx, max(1, claimMails>>(2*(tries-1))))
				return err
			})
			if err != nil || len(names) == 0 {
				return err
			}
			d.log.Debug("claimed queued mail", "try", tries, "senders", len(names), "mails", len(todo))
			msgs := make([]imapin.Message, len(todo))
			for i, e := range todo {
				msgs[i] = e.q.message()
			}
			d.mu.Lock()
			defer d.mu.Unlock()
			vctx := d.readAhead(d.checkSenders(ctx, msgs), false)
			start := time.Now()
			for k, msg := range msgs {
				if k > 0 && time.Since(start) >= d.cfg.GroupTime {
					todo = todo[:k] // the rest in the next batch
					break
				}
				_, err := d.handle(vctx, msg)
				if err == nil && d.st.GroupFailed(ctx) {
					err = errGroupSpoiled
				}
				if err != nil {
					failed = true
					return err
				}
			}
			return d.st.Update(ctx, func(tx store.Tx) error {
				var err error
				handled, err = d.unqueue(tx, names, todo, nil)
				return err
			})
		})
	}
	var err error
	if d.cfg.Turn != nil && d.shared() {
		err = d.cfg.Turn(ctx, batch)
	} else {
		err = batch(ctx)
	}
	if failed && ctx.Err() == nil && d.shared() {
		d.log.Info("queued mail handled apart after its batch failed", "err", err)
		return d.workApart(ctx)
	}
	if err == nil && handled > 0 {
		d.log.Debug("handled queued mail", "mails", handled)
	}
	return handled, err
}

// workApart claims a batch of queued mail in a transaction of its own,
// which holds the claim while handleGroups handles the batch in others,
// as it handles a fetched batch: the mails before a failing one as a
// group, the failing one alone in transactions of its own (its parts
// recorded one by one), the rest as a group. Then the claim's
// transaction deletes from the queue what was handled and commits. Each
// mail's effect commits with its seen-record; if the claim's transaction
// fails after that (the process dies), the mails are claimed again and
// only dropped from the queue, as a mail fetched twice is only filed. It
// needs two connections at once, so it is kept for the rare batch that
// failed in one group.
func (d *Daemon) workApart(ctx context.Context) (int, error) {
	handled := 0
	err := d.st.Update(ctx, func(tx store.Tx) error {
		handled = 0
		names, todo, err := d.claimQueue(tx, claimMails)
		if err != nil || len(todo) == 0 {
			return err
		}
		msgs := make([]imapin.Message, len(todo))
		for i, e := range todo {
			msgs[i] = e.q.message()
		}
		out := make([]imapin.Outcome, len(msgs))
		d.mu.Lock()
		d.handleGroups(d.checkSenders(ctx, msgs), msgs, out)
		d.mu.Unlock()
		if err := ctx.Err(); err != nil {
			return err // stopping: roll back the claim, the mails stay queued
		}
		handled, err = d.unqueue(tx, names, todo, out)
		return err
	})
	if err == nil && handled > 0 {
		d.log.Debug("handled queued mail", "mails", handled)
	}
	return handled, err
}

// drainLeftover handles, at the start of a daemon that does not run
// shared, what a queue holds: mail that daemons sharing a PostgreSQL
// database queued and had not handled when the database was copied to a
// bbolt file (orrery db copy). Such a daemon reads its mailbox directly,
// and would otherwise never look at the queue.
func (d *Daemon) drainLeftover(ctx context.Context) error {
	left := false
	err := d.st.View(ctx, func(tx store.Tx) error {
		if mail := tx.Bucket(store.BucketMail); mail != nil {
			if q := mail.Bucket(BucketQueue); q != nil {
				left = q.KeyN() > 0
			}
		}
		return nil
	})
	for left && err == nil {
		var n int
		if n, err = d.WorkQueue(ctx); n == 0 {
			break
		}
	}
	return err
}
