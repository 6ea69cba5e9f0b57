package daemon

import (
	"bytes"
	"context"
	"slices"
	"time"

	"orrery/engine/game"
	"orrery/engine/store"
	"orrery/pbem/imapin"
	"orrery/pbem/inmail"
	"orrery/pbem/policy"
)

// Handle handles one message; it is the imapin.Handler. It is HandleBatch
// of one message: the message, the changes it makes and the mails they
// cause commit in one transaction (one fsync).
func (d *Daemon) Handle(ctx context.Context, msg imapin.Message) (imapin.Disposition, error) {
	o := d.HandleBatch(ctx, []imapin.Message{msg})[0]
	return o.Disposition, o.Err
}

// HandleBatch handles a fetched batch of messages in order; it is the
// imapin.BatchHandler of Run. The batch commits in one transaction
// (store.Group), or in one per Config.GroupTime of work when it takes longer:
// each message's game changes, its seen-record and every mail it causes,
// many messages to an fsync, which is what lets a backlog drain at the
// pace of the mail servers. Each message still sees what the ones
// before it did, and is recorded exactly once: a crash before the commit
// leaves the whole batch in the inbox, to be handled again; after it, the
// seen-records make a second look file the mails only.
//
// A failed change cannot be undone inside a shared transaction. When one
// message fails (a refused order is not a failure: it is answered; a
// store error, or a change the engine refuses after writing part of it,
// is), the batch is rolled back and done again: the messages before it as
// one group, the failing one alone, in transactions of its own as before
// group commit (where its parts are recorded one by one), then the rest as
// a group.
func (d *Daemon) HandleBatch(ctx context.Context, msgs []imapin.Message) []imapin.Outcome {
	d.mu.Lock()
	defer d.mu.Unlock()
	out := make([]imapin.Outcome, len(msgs))
	d.handleGroups(d.checkSenders(ctx, msgs), msgs, out)
	return out
}

type verdictsKey struct{}

// checkSenders authenticates the senders of a batch's mails before its
// transaction opens, and returns a context that hands each verdict to
// checkSender: the check asks DNS (DKIM keys, DMARC records), and a slow
// or failing resolver must not hold the database's writer lock, for which
// the outbox and the tick wait. Mails seen before, unreadable or silenced
// are left out, as handle leaves them. The context also carries the keys
// of the batch's seen-records and reply budgets, for readAhead.
//
// Inside a transaction group already (the shared queue's worker, whose
// batch is claimed in it) there is no lock to keep DNS out of, and the
// mails are checked as handle comes to them (checkSender), with no
// transaction of their own for the seen-records: the worker claims 50
// mails and handles those that fit in Config.GroupTime, and a read here of
// every claimed mail's seen-record was a round trip on PostgreSQL, done
// again in each later batch that claimed the mail (about three a mail in
// a backlog's drain). The context still carries the keys, for readAhead
// in the worker's transaction.
func (d *Daemon) checkSenders(ctx context.Context, msgs []imapin.Message) context.Context {
	inGroup := d.st.InGroup(ctx)
	verdicts := map[*byte]policy.Verdict{}
	type todo struct {
		raw []byte
		m   *inmail.Message
	}
	var check []todo
	var keys, senders [][]byte
	var from []string
	for _, msg := range msgs {
		if len(msg.Raw) == 0 {
			continue
		}
		m, _ := inmail.Parse(msg.Raw, inmail.Options{MaxText: d.cfg.MaxText})
		if m == nil || policy.Silence(m, d.cfg.Policy) != "" {
			continue
		}
		check = append(check, todo{msg.Raw, m})
		keys = append(keys, []byte(messageKey(m, msg.Raw)))
		from = append(from, game.CanonAddress(m.From))
		senders = append(senders, addrKey(from[len(from)-1]))
	}
	ctx = context.WithValue(ctx, aheadKey{}, &ahead{seen: keys, limits: senders, from: from})
	if inGroup {
		return ctx
	}
	// The seen-records in one read-only transaction for the batch, and
	// on PostgreSQL in one statement (store.GetMany): a transaction a
	// mail cost two round trips (its read, its end) before handling
	// began.
	var seen [][]byte
	if len(keys) > 0 {
		if err := d.st.View(ctx, func(tx store.Tx) error {
			if mail := tx.Bucket(store.BucketMail); mail != nil && mail.Bucket(BucketSeen) != nil {
				seen = store.GetMany(mail.Bucket(BucketSeen), keys)
			}
			return nil
		}); err != nil {
			return ctx // handle checks each sender as it comes to it
		}
	}
	for i, c := range check {
		if ctx.Err() != nil {
			break
		}
		if seen != nil && seen[i] != nil {
			continue
		}
		verdicts[&c.raw[0]] = policy.CheckSender(ctx, c.raw, c.m, d.cfg.Policy, d.cfg.Resolver, false)
	}
	return context.WithValue(ctx, verdictsKey{}, verdicts)
}

// ahead is what checkSenders learnt of a batch's mails that readAhead
// reads in the batch's transaction: their seen-records' keys, their
// senders' reply budgets' (Daemon.allow), and the senders, whose games
// handle looks up (game.Service.GamesOf).
type ahead struct {
	seen, limits [][]byte
	from         []string
}

type aheadKey struct{}

// partsAhead says which mails of a batch had parts recorded when the
// batch's transaction began (a handling cut short: handleAlone commits
// them one by one, and a crash can stop it between two).
type partsAhead struct{ has map[string]bool }

type partsAheadKey struct{}

// maxPartsAhead bounds the records readAhead walks in the parts bucket,
// which holds only the parts of handlings cut short: past it, each mail
// asks for its own parts as before.
const maxPartsAhead = 256

// readAhead reads, at the start of a batch's transaction, what each of
// its mails would otherwise read alone, on PostgreSQL a round trip each
// (four of the ten an order mail cost in a drain): the seen-records
// and reply budgets of the mails checkSenders parsed, and their senders'
// pages of the seats index (GamesOf's), into the transaction's memory,
// and whether any of them has parts recorded, into the context it
// returns (handle sets job.noOldParts from it).
// Read in the batch's own transaction, what it says holds there: a part
// another process records meanwhile fails the transaction on PostgreSQL
// (serialisable; it is retried, and reads again) and waits for it on
// bbolt (one writer). A batch HandleBatch began walks the parts bucket
// (walk true), which holds few records, in one read. The shared queue's
// worker, beside other daemons' workers, would make that walk conflict
// with every batch that records one; it seeks to each mail's parts
// instead (a page of them each, all in one round trip): those reads,
// like its reads of single keys and of its senders' seats, are those its
// mails' handling made one by one, of mails and senders its claim holds.
func (d *Daemon) readAhead(ctx context.Context, walk bool) context.Context {
	a, _ := ctx.Value(aheadKey{}).(*ahead)
	if a == nil {
		return ctx
	}
	var pa *partsAhead
	err := d.st.View(ctx, func(tx store.Tx) error {
		game.GamesOfAhead(tx, a.from)
		mail := tx.Bucket(store.BucketMail)
		if mail == nil {
			pa = &partsAhead{}
			return nil
		}
		if seen := mail.Bucket(BucketSeen); seen != nil && len(a.seen) > 0 {
			store.GetMany(seen, a.seen)
		}
		if limits := mail.Bucket(BucketLimits); limits != nil && len(a.limits) > 0 {
			store.GetMany(limits, a.limits)
		}
		parts := mail.Bucket(BucketParts)
		if parts == nil {
			pa = &partsAhead{}
			return nil
		}
		has := map[string]bool{}
		if !walk {
			// Each mail's own: the first page of a Seek to its
			// parts' prefix, all in one round trip (store.SeekAhead),
			// which the Seeks below then read.
			prefixes := make([][]byte, len(a.seen))
			for i, k := range a.seen {
				prefixes[i] = append(slices.Clip(k), 0)
			}
			store.SeekAhead(parts, prefixes)
			c := parts.Cursor()
			for _, p := range prefixes {
				if k, _ := c.Seek(p); k != nil && bytes.HasPrefix(k, p) {
					has[string(p[:len(p)-1])] = true
				}
			}
			pa = &partsAhead{has: has}
			return nil
		}
		c, n := parts.Cursor(), 0
		for k, _ := c.First(); k != nil; k, _ = c.Next() {
			if n++; n > maxPartsAhead {
				return nil // too many to walk: each mail asks
			}
			if i := bytes.LastIndexByte(k, 0); i >= 0 {
				has[string(k[:i])] = true
			}
		}
		pa = &partsAhead{has: has}
		return nil
	})
	if err != nil || pa == nil {
		// Nothing known: each mail asks for its own, as before (and on
		// PostgreSQL a failed read has failed the transaction, which the
		// first mail's handling then reports, and the batch is redone).
		return ctx
	}
	return context.WithValue(ctx, partsAheadKey{}, pa)
}

// noOldParts reports whether readAhead found no parts recorded for the
// mail key in this transaction.
func noOldParts(ctx context.Context, key string) bool {
	pa, _ := ctx.Value(partsAheadKey{}).(*partsAhead)
	return pa != nil && !pa.has[key]
}

// checkedSender returns the verdict checkSenders made for the mail raw.
func checkedSender(ctx context.Context, raw []byte) (policy.Verdict, bool) {
	vs, _ := ctx.Value(verdictsKey{}).(map[*byte]policy.Verdict)
	if len(raw) == 0 || vs == nil {
		return policy.Verdict{}, false
	}
	v, ok := vs[&raw[0]]
	return v, ok
}

// DefaultGroupTime bounds the work one transaction of a batch holds: the
// outbox and the tick wait for the database's writer lock while a batch's
// transaction is open, so a batch that takes longer commits every
// GroupTime (one fsync each: a few percent of the time), and the outbox
// keeps the SMTP server busy meanwhile.
const DefaultGroupTime = 100 * time.Millisecond

// DefaultSharedGroupTime is DefaultGroupTime on a store with no writer
// lock (PostgreSQL), where the outbox and the tick run beside an open
// batch: there what bounds a batch's transaction is what it holds in
// memory and what a refused one redoes, and a short bound only multiplies
// the batch's own round trips (its reads ahead, its commit). With the
// database half a millisecond away each way, 100 ms held two mails a
// transaction and drained 2,000 order mails in 62.5 s; 1 s, in 36.6 s.
const DefaultSharedGroupTime = time.Second

// handleGroups fills out with the outcome of each of msgs, as HandleBatch
// says: in transactions of at most Config.GroupTime of work each.
func (d *Daemon) handleGroups(ctx context.Context, msgs []imapin.Message, out []imapin.Outcome) {
	for len(msgs) > 0 {
		var disp []imapin.Disposition
		failed := -1 // the message whose handling failed, spoiling the group
		start := time.Now()
		err := d.st.Group(ctx, func(ctx context.Context) error {
			disp, failed = disp[:0], -1
			ctx = d.readAhead(ctx, true)
			for k, msg := range msgs {
				if k > 0 && time.Since(start) >= d.cfg.GroupTime {
					return nil // commit these; the rest in the next group
				}
				x, err := d.handle(ctx, msg)
				if err == nil && d.st.GroupFailed(ctx) {
					err = errGroupSpoiled
				}
				if err != nil {
					failed = k
					return err
				}
				disp = append(disp, x)
			}
			return nil
		})
		if err == nil {
			for i, x := range disp {
				out[i] = imapin.Outcome{Disposition: x}
			}
			msgs, out = msgs[len(disp):], out[len(disp):]
			continue
		}
		if ctx.Err() != nil || failed < 0 {
			// Cancelled, or the commit itself failed (a full disk):
			// nothing is recorded, every message stays in the inbox.
			for i := range out[:len(msgs)] {
				out[i] = imapin.Outcome{Err: err}
			}
			return
		}
		k := failed
		if k > 0 {
			d.handleGroups(ctx, msgs[:k], out[:k])
		}
		d.log.Info("mail handled in transactions of its own after its batch failed", "uid", msgs[k].UID, "err", err)
		out[k].Disposition, out[k].Err = d.handleAlone(ctx, msgs[k])
		msgs, out = msgs[k+1:], out[k+1:]
	}
}

// alonePatience is how long handleAlone tries again a mail that
// PostgreSQL keeps refusing to serialise with other daemons' work.
const alonePatience = 2 * time.Minute

// handleAlone handles msg in transactions of its own. When the store
// refused them for conflicting with concurrent transactions after all its
// tries (store.Store.Retryable: other daemons committing to the same
// records, on PostgreSQL), the mail is tried again here, for up to
// alonePatience, instead of failing: a failed mail is offered again a
// minute later (imapin.Config.RetryFailed, queueRetry), after its
// sender's later mails have applied, and a player's earlier orders would
// replace his later ones.
func (d *Daemon) handleAlone(ctx context.Context, msg imapin.Message) (imapin.Disposition, error) {
	x, err := d.handle(ctx, msg)
	for wait, start := 50*time.Millisecond, time.Now(); d.st.Retryable(err) && ctx.Err() == nil && time.Since(start) < alonePatience; wait = min(2*wait, 2*time.Second) {
		d.log.Warn("mail refused by the database for conflicting with other work; trying it again", "uid", msg.UID, "retry_in", wait, "err", err)
		select {
		case <-ctx.Done():
		case <-time.After(wait):
		}
		x, err = d.handle(ctx, msg)
	}
	return x, err
}

// errGroupSpoiled stands for a failure a message's handling met and
// answered (a refused change) inside a group that it spoiled.
var errGroupSpoiled = groupError("a change failed inside the batch's transaction")

type groupError string

func (e groupError) Error() string { return string(e) }
