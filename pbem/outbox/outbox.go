// Package outbox is the daemon's durable queue of outgoing mail, in the
// style of mox's queue: a mail is written to bbolt in the same transaction
// as the game change that caused it, and a single worker sends it. Before
// every attempt the worker persists the attempt count and the time of the
// next attempt, so a crash mid-send neither loses the mail nor retries it in
// a hot loop; a failed attempt backs off exponentially with jitter. Every
// mail carries a Message-ID fixed at enqueue time, so a resend after a crash
// is recognisably the same mail.
//
// The worker sleeps on a timer set to the next due mail and on a kick
// channel of size one, which a committed transaction that queued mail
// pokes (bbolt's OnCommit), so replies leave within milliseconds. While a
// batch is being sent, the next one is claimed and the one before settled
// beside it (pipeline.go): the connection does not wait for the database.
//
// Mail leaves over Options.Connections SMTP connections at once (default
// one). Over a link to a distant provider, where every SMTP command waits a
// round trip, more connections send more mails a second
// (BenchmarkSendOverSlowLink: 17.9, 32.7 and 52.8 mails/s over 1, 2 and 4
// connections at 10 ms a reply). On loopback, where the mail servers share
// the daemon's cores, they cost more than they give: two connections made
// pbem/soak's backlog drain 2.2 to 2.6 times slower. Each connection serves
// the recipients whose address hashes to it, in queue order, so one
// player's mails still arrive in the order they were queued (an
// acknowledgement before the report it caused).
package outbox

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	mrand "math/rand/v2"
	"strings"
	"sync"
	"time"

	"orrery/engine/store"
)

// Bucket names under store.BucketMail (also listed in engine/store/schema.go).
var (
	BucketQueue = store.BucketMailOutbox     // seq → Item, mails still to send (JSON, compressed: body.go)
	BucketSent  = store.BucketMailOutboxSent // seq → JSON Record of a delivered mail
	BucketDead  = store.BucketMailOutboxDead // seq → Item given up on, stored as a queued one
)

// Mail is one outgoing message, stored as its parts; it is composed into
// MIME only when sent.
type Mail struct {
	MessageID string   `json:"message_id"` // without angle brackets; Enqueue makes one if empty
	From      string   `json:"from"`       // "Orrery <orrery@example.org>" or a bare address
	To        []string `json:"to"`
	Subject   string   `json:"subject"`
	Text      string   `json:"text"`
	// HTML, when set, makes the mail multipart/alternative.
	HTML       string            `json:"html,omitempty"`
	InReplyTo  string            `json:"in_reply_to,omitempty"` // Message-ID, without brackets
	References []string          `json:"references,omitempty"`
	Auto       string            `json:"auto"`              // Auto-Submitted value: auto-replied / auto-generated
	Headers    map[string]string `json:"headers,omitempty"` // extra headers (X-Orrery-Game)
	Date       time.Time         `json:"date"`
	// Kind names what the mail is (ack, report, help...), for logs and
	// the demo's summary; it is not sent.
	Kind string `json:"kind,omitempty"`
	Game string `json:"game,omitempty"`
	// Files are attached as they are (report.json): small, and stored
	// with the mail.
	Files []File `json:"files,omitempty"`
	// Picture asks for the picture of a board, drawn when the mail is
	// composed (SMTP.Pictures) and shown inline in the HTML part by its
	// Content-ID: a picture is never stored in the queue, one per mail.
	Picture *Picture `json:"picture,omitempty"`
	// Received is when the mail this one answers was read (zero for a
	// mail that answers none): the ack latency runs from it to the SMTP
	// server's acceptance. It is not sent.
	Received time.Time `json:"received,omitzero"`
	// EnvelopeFrom is the SMTP envelope sender (MAIL FROM), "" for the
	// From address. It is not stored: the queue sets it for each
	// attempt (Options.Envelope), from the mail's sequence number.
	EnvelopeFrom string `json:"-"`
}

// File is an attachment.
type File struct {
	Name        string `json:"name"`
	ContentType string `json:"content_type"`
	Data        []byte `json:"data"`
}

// Picture names the board picture of one step as one reader sees it.
type Picture struct {
	Game   string `json:"game"`
	Epoch  int    `json:"epoch"` // the game's rollbacks then: a rolled-back step draws nothing
	Step   uint64 `json:"step"`
	Player string `json:"player"` // the seat; engine.Observer for the public view
	// ContentID is the picture's Content-ID (without angle brackets), as
	// the HTML part's <img src="cid:..."> names it.
	ContentID string `json:"content_id"`
	Name      string `json:"name"` // file name: board.png
	// Lang is the reader's language, for a ruleset that words its views
	// only when they are shown (engine.Localizer: the picture's title and
	// legend); "" draws the view as it is.
	Lang string `json:"lang,omitempty"`
	// Notes are written under the picture, in the reader's language:
	// what the mail side knows and the view does not, such as who plays
	// a seat while its holder is away (engine.NotedView).
	Notes []string `json:"notes,omitempty"`
}

// Item is a queued mail with its delivery state.
type Item struct {
	Seq         uint64    `json:"seq"`
	Mail        Mail      `json:"mail"`
	Queued      time.Time `json:"queued"`
	Attempts    int       `json:"attempts"`
	NextAttempt time.Time `json:"next_attempt"`
	LastError   string    `json:"last_error,omitempty"`
	// Owner is the id of the worker that claimed the mail and has not
	// settled it yet: a mail in flight (owners.go).
	Owner string `json:"owner,omitempty"`
}

// Record is what is kept of a delivered mail.
type Record struct {
	Seq       uint64    `json:"seq"`
	MessageID string    `json:"message_id"`
	To        []string  `json:"to"`
	Subject   string    `json:"subject"`
	Kind      string    `json:"kind,omitempty"`
	Game      string    `json:"game,omitempty"`
	Sent      time.Time `json:"sent"`
	Attempts  int       `json:"attempts"`
	Queued    time.Time `json:"queued,omitzero"`
	Received  time.Time `json:"received,omitzero"` // Mail.Received
	// Bounced is the worst bounce counted of this mail ("soft",
	// "hard"; "" none): one mail counts once, however many DSNs cite
	// it (MarkBounced).
	Bounced string `json:"bounced,omitempty"`
}

// NewMessageID returns a fresh Message-ID (without brackets) in domain.
func NewMessageID(domain string) string {
	var b [12]byte
	rand.Read(b[:])
	if domain == "" {
		domain = "orrery.invalid"
	}
	return hex.EncodeToString(b[:]) + ".orrery@" + domain
}

// Domain returns the domain of an address such as "Bot <bot@example.org>".
func Domain(addr string) string {
	addr = strings.TrimSuffix(strings.TrimSpace(addr), ">")
	if i := strings.LastIndexByte(addr, '@'); i >= 0 {
		return addr[i+1:]
	}
	return ""
}

func buckets(tx store.Tx) (store.Bucket, error) {
	mail := tx.Bucket(store.BucketMail)
	if mail == nil {
		var err error
		if mail, err = tx.CreateBucketIfNotExists(store.BucketMail); err != nil {
			return nil, err
		}
	}
	for _, name := range [][]byte{BucketSent, BucketDead, BucketState} {
		if _, err := mail.CreateBucketIfNotExists(name); err != nil {
			return nil, err
		}
	}
	return mail.CreateBucketIfNotExists(BucketQueue)
}

// Enqueue stores m in the queue inside tx (a game.Hook's transaction). The
// mail is due at once; a running Queue finds it at its next wake-up. Use
// Queue.Enqueue to also wake the worker when tx commits.
func Enqueue(tx store.Tx, m Mail) error {
	_, err := enqueue(tx, m, time.Now())
	return err
}

func enqueue(tx store.Tx, m Mail, now time.Time) (uint64, error) {
	if len(m.To) == 0 {
		return 0, errors.New("outbox: mail has no recipient")
	}
	if m.From == "" {
		return 0, errors.New("outbox: mail has no sender")
	}
	q, err := buckets(tx)
	if err != nil {
		return 0, fmt.Errorf("outbox: %w", err)
	}
	if m.MessageID == "" {
		m.MessageID = NewMessageID(Domain(m.From))
	}
	if m.Date.IsZero() {
		m.Date = now
	}
	// The bucket's one sequence row is written by every transaction
	// that queues mail, so two daemons' workers wait for each other on
	// it on PostgreSQL. That is cheaper than it looks: numbered from a
	// clock instead, without that row, both ran a whole batch and one
	// was refused at its end for the other predicate conflicts, and two
	// daemons drained a backlog slower (BenchmarkSharedQueue in
	// pbem/daemon).
	seq, err := q.NextSequence()
	if err != nil {
		return 0, err
	}
	it := Item{Seq: seq, Mail: m, Queued: now, NextAttempt: now}
	data, err := encodeBody(it)
	if err != nil {
		return 0, err
	}
	k := store.Key(seq)
	if err := q.Put(k, data); err != nil {
		return 0, err
	}
	if err := putState(tx.Bucket(store.BucketMail).Bucket(BucketState), k, stateOf(&it)); err != nil {
		return 0, err
	}
	return seq, indexGameMail(tx, m.Game, seq)
}

// Sender delivers mail. Send is given a batch and returns one error per
// mail (nil = accepted by the server); a batch shares one connection.
type Sender interface {
	Send(ctx context.Context, mails []Mail) []error
}

// Permanent marks a delivery error that retrying cannot fix (SMTP 5xx).
type Permanent struct{ Err error }

func (p *Permanent) Error() string { return p.Err.Error() }
func (p *Permanent) Unwrap() error { return p.Err }

// Options tune a Queue.
type Options struct {
	// MinBackoff is the delay after the first failure (default 30 s); each
	// further failure doubles it up to MaxBackoff (default 1 h). Jitter of
	// ±25% keeps a crowd of mails from retrying in step.
	MinBackoff, MaxBackoff time.Duration
	// GiveUpAfter moves a mail to the dead bucket once it has been queued
	// this long (default 5 days), as MTAs do.
	GiveUpAfter time.Duration
	// Batch is the most mails sent over one connection (default 100).
	Batch int
	// Connections is how many SMTP connections send at once (default 1;
	// raise it for a distant provider, within its cap on concurrent
	// connections per account, often a few to a dozen).
	Connections int
	Now         func() time.Time
	Logger      *slog.Logger
	// OnSent, if set, is called after a mail is recorded as delivered; with
	// more than one connection it may be called from several goroutines
	// at once.
	OnSent func(Record)
	// OnFailed, if set, is called after a failed attempt is recorded;
	// dead says the mail was given up on. Same goroutines as OnSent.
	OnFailed func(it Item, err error, dead bool)
	// Shared says other daemons may use the same database at once, each
	// with its own worker: a claim is then released only when its
	// owner's lease has lapsed. Without it (bbolt: one process holds the
	// file), every claim not this worker's is released at once.
	Shared bool
	// Lease is how long a worker's lease lasts without renewal (default
	// 30 s; renewed every third of it while Run runs).
	Lease time.Duration
	// OnDead, if set, runs in the transaction that gives up on a mail
	// (permanent says the server refused it for good, 5xx): the daemon
	// queues the GM's report there, so it goes exactly once.
	OnDead func(tx store.Tx, it Item, permanent bool) error
	// Envelope, if set, returns the envelope sender of the mail numbered
	// seq, for each attempt: the daemon's VERP address (pbem/bounce),
	// which ties the DSN that may answer it to this one mail.
	Envelope func(seq uint64, m Mail) string
}

// Queue is the outbox worker.
type Queue struct {
	db     *store.Store
	sender Sender
	opt    Options
	kick   chan struct{}
	id     string // owner id of this worker's claims (owners.go)
	lease  Lease
	// flying holds the keys of the mails this worker claimed and has
	// not settled yet (pipeline.go).
	flyMu  sync.Mutex
	flying map[string]struct{}
	// adopted says how far every queued body is known to have its
	// state record (state.go).
	adopted adopted
}

// New returns a Queue over db sending with s.
func New(db *store.Store, s Sender, opt Options) *Queue {
	if opt.MinBackoff <= 0 {
		opt.MinBackoff = 30 * time.Second
	}
	if opt.MaxBackoff <= 0 {
		opt.MaxBackoff = time.Hour
	}
	if opt.GiveUpAfter <= 0 {
		opt.GiveUpAfter = 5 * 24 * time.Hour
	}
	if opt.Batch <= 0 {
		opt.Batch = 100
	}
	if opt.Connections <= 0 {
		opt.Connections = 1
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.Logger == nil {
		opt.Logger = slog.New(slog.DiscardHandler)
	}
	if opt.Lease <= 0 {
		opt.Lease = 30 * time.Second
	}
	return &Queue{db: db, sender: s, opt: opt, kick: make(chan struct{}, 1), id: newOwnerID(), flying: map[string]struct{}{}}
}

// SetOnDead sets Options.OnDead; call it before Run.
func (q *Queue) SetOnDead(fn func(tx store.Tx, it Item, permanent bool) error) { q.opt.OnDead = fn }

// SetEnvelope sets Options.Envelope; call it before Run.
func (q *Queue) SetEnvelope(fn func(seq uint64, m Mail) string) { q.opt.Envelope = fn }

// Enqueue stores m inside tx and wakes the worker once tx commits.
func (q *Queue) Enqueue(tx store.Tx, m Mail) error {
	if _, err := enqueue(tx, m, q.opt.Now()); err != nil {
		return err
	}
	tx.OnCommit(q.Kick)
	return nil
}

// Kick wakes the worker; it never blocks.
func (q *Queue) Kick() {
	select {
	case q.kick <- struct{}{}:
	default:
	}
}

// Run sends due mail until ctx is done. It holds a lease while it runs
// (owners.go) and sends at once the mails that a worker which is gone had
// claimed and not settled.
func (q *Queue) Run(ctx context.Context) error {
	if err := q.db.Update(context.Background(), q.renewLease); err != nil {
		q.opt.Logger.Error("outbox: lease", "err", err)
	}
	leaseDone := make(chan struct{})
	go func() {
		defer close(leaseDone)
		t := time.NewTicker(q.opt.Lease / 3)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				if err := q.db.Update(context.Background(), q.renewLease); err != nil {
					q.opt.Logger.Error("outbox: lease", "err", err)
				}
			}
		}
	}()
	defer func() {
		<-leaseDone
		if err := q.dropLease(); err != nil {
			q.opt.Logger.Warn("outbox: lease", "err", err)
		}
	}()
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		next, err := q.RunOnce(ctx)
		if err != nil && ctx.Err() == nil {
			q.opt.Logger.Error("outbox", "err", err)
			next = q.opt.Now().Add(time.Second)
		}
		wait := time.Hour
		if !next.IsZero() {
			wait = max(next.Sub(q.opt.Now()), 0)
		}
		if q.opt.Shared {
			// Other processes enqueue too (another daemon, a GM's
			// command on PostgreSQL), and their commits kick no one
			// here: look again soon.
			wait = min(wait, SharedPoll)
		}
		timer.Reset(wait)
		select {
		case <-ctx.Done():
			return nil
		case <-q.kick:
		case <-timer.C:
		}
		if !timer.Stop() {
			select {
			case <-timer.C:
			default:
			}
		}
	}
}

// SharedPoll bounds how long a worker of a shared database (Options.Shared)
// waits before it looks for mail other processes queued.
const SharedPoll = 2 * time.Second

// RunOnce sends every mail now due, in batches over Options.Connections
// connections at once, and returns when the next queued mail is due (zero:
// the queue is empty).
func (q *Queue) RunOnce(ctx context.Context) (time.Time, error) {
	n := q.opt.Connections
	if n == 1 {
		return q.runShard(ctx, 0)
	}
	nexts := make([]time.Time, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			nexts[i], errs[i] = q.runShard(ctx, i)
		}()
	}
	wg.Wait()
	var next time.Time
	for _, t := range nexts {
		if !t.IsZero() && (next.IsZero() || t.Before(next)) {
			next = t
		}
	}
	return next, errors.Join(errs...)
}

// shardOf is the connection that sends the mail whose first recipient's
// address hashes to to (toHash): all of one player's mails share a
// connection and keep their order.
func shardOf(to uint32, n int) int {
	if n <= 1 {
		return 0
	}
	return int(to % uint32(n))
}

// claim picks the due mails and, in the same transaction, records the
// attempt, marks them as this worker's and pushes their next attempt into
// the future: a failed send waits for its backoff instead of hammering the
// server. A mail marked by a worker that is gone (owners.go) is due at
// once, whatever its next attempt said; a mail marked by another live
// worker is in flight there and is left alone. It claims only the mails of
// shard's recipients.
//
// A mail this worker has claimed and not yet settled (in flight beside the
// claim: pipeline.go) is passed over unread. The keys of the mails claimed
// are returned with them.
func (q *Queue) claim(shard int) (due []Item, keys []string, next time.Time, err error) {
	now := q.opt.Now()
	var adoptedTo uint64
	dropped := false
	err = q.db.Update(context.Background(), func(tx store.Tx) error {
		bodies, err := buckets(tx)
		if err != nil {
			return err
		}
		states := tx.Bucket(store.BucketMail).Bucket(BucketState)
		due, keys, next, dropped = nil, nil, time.Time{}, false
		if adoptedTo, err = q.adopt(bodies, states); err != nil {
			return err
		}
		alive := q.liveOwners(tx, now)
		// The claims are written after the scan, not during it: on
		// PostgreSQL a write makes the cursor read its page again.
		type claimed struct {
			k []byte
			s state
		}
		var picks []claimed
		c := states.Cursor()
		// Stop at a full batch: RunOnce comes back for the rest at once,
		// and needs the next due time only when nothing is due. Reading
		// the whole queue for every batch made a backlog of n replies
		// cost n²/Batch decodes; it was a quarter of the daemon's CPU
		// while draining 2,000 order mails. The scan reads the small
		// state records only (state.go).
		for k, v := c.First(); k != nil && len(picks) < q.opt.Batch; k, v = c.Next() {
			if q.inFlight(k) {
				continue
			}
			var s state
			if err := json.Unmarshal(v, &s); err != nil {
				return fmt.Errorf("outbox item %d: state: %w", store.KeyN(k), err)
			}
			if shardOf(s.To, q.opt.Connections) != shard {
				continue
			}
			released := false
			if s.Owner != "" && s.Owner != q.id {
				if alive(s.Owner) {
					// In flight in another daemon; look again when
					// its lease may have lapsed.
					if t := now.Add(q.opt.Lease / 3); next.IsZero() || t.Before(next) {
						next = t
					}
					continue
				}
				released = true // its worker died mid-send
				q.opt.Logger.Info("outbox: released the claim of a worker that is gone", "seq", store.KeyN(k), "owner", s.Owner)
			}
			if s.NextAttempt.After(now) && !released {
				if next.IsZero() || s.NextAttempt.Before(next) {
					next = s.NextAttempt
				}
				continue
			}
			s.Attempts++
			s.NextAttempt = now.Add(q.backoff(s.Attempts))
			s.Owner = q.id
			picks = append(picks, claimed{store.Copy(k), s})
		}
		// Only the bodies of the mails taken are read (in one
		// statement on PostgreSQL), and none is written.
		pk := make([][]byte, len(picks))
		for i, p := range picks {
			pk[i] = p.k
		}
		vs := store.GetMany(bodies, pk)
		for i, p := range picks {
			v := vs[i]
			if v == nil {
				// Sent by an older Orrery, which left the state.
				if err := states.Delete(p.k); err != nil {
					return err
				}
				dropped = true
				continue
			}
			it, err := decodeItem(p.k, v, nil)
			if err != nil {
				// A body that cannot be read (a damaged record) is
				// kept as it is, for the GM, and tried again after
				// the longest backoff: one mail must not hold up the
				// queue behind it, as it did when its error failed
				// every claim.
				q.opt.Logger.Error("outbox: a queued mail cannot be read; kept, and tried again later", "seq", store.KeyN(p.k), "err", err)
				p.s.Owner, p.s.LastError = "", err.Error()
				p.s.NextAttempt = now.Add(q.opt.MaxBackoff)
				if err := putState(states, p.k, p.s); err != nil {
					return err
				}
				continue
			}
			p.s.apply(&it)
			if err := putState(states, p.k, p.s); err != nil {
				return err
			}
			due = append(due, it)
			keys = append(keys, string(p.k))
		}
		return nil
	})
	if err != nil {
		return nil, nil, next, err
	}
	q.doneAdopting(adoptedTo)
	if dropped {
		q.adoptAgain()
	}
	q.fly(keys, true)
	return due, keys, next, nil
}

func (q *Queue) backoff(attempts int) time.Duration {
	d := q.opt.MinBackoff
	for i := 1; i < attempts && d < q.opt.MaxBackoff; i++ {
		d *= 2
	}
	d = min(d, q.opt.MaxBackoff)
	jitter := time.Duration(mrand.Int64N(int64(d)/2+1)) - d/4
	return d + jitter
}

// settle records the outcome of a send and clears the claims. With
// shutdown set (the daemon is stopping, which cut the send short), a mail
// that failed is due again at once rather than after its backoff: it did
// not fail, it was interrupted.
func (q *Queue) settle(items []Item, errs []error, shutdown bool) error {
	now := q.opt.Now()
	var sent []Record
	type failure struct {
		it   Item
		err  error
		dead bool
	}
	var failed []failure
	err := q.db.Update(context.Background(), func(tx store.Tx) error {
		// A try PostgreSQL refused is run again: start afresh, or
		// OnSent would hear of its mails twice (store.Update).
		sent, failed = sent[:0], failed[:0]
		b, err := buckets(tx)
		if err != nil {
			return err
		}
		mail := tx.Bucket(store.BucketMail)
		states := mail.Bucket(BucketState)
		// A mail leaves the queue with both its records; a failed
		// attempt changes its state record only (state.go).
		drop := func(k []byte) error {
			if err := b.Delete(k); err != nil {
				return err
			}
			return states.Delete(k)
		}
		for i, it := range items {
			var e error
			if i < len(errs) {
				e = errs[i]
			}
			k := store.Key(it.Seq)
			if e == nil {
				rec := Record{Seq: it.Seq, MessageID: it.Mail.MessageID, To: it.Mail.To, Subject: it.Mail.Subject, Kind: it.Mail.Kind, Game: it.Mail.Game, Sent: now, Attempts: it.Attempts,
					Queued: it.Queued, Received: it.Mail.Received}
				data, _ := json.Marshal(rec)
				if err := mail.Bucket(BucketSent).Put(k, data); err != nil {
					return err
				}
				if err := drop(k); err != nil {
					return err
				}
				sent = append(sent, rec)
				continue
			}
			it.Owner = ""
			if shutdown && !errors.As(e, new(*Permanent)) {
				it.NextAttempt = now
				if err := putState(states, k, stateOf(&it)); err != nil {
					return err
				}
				continue
			}
			it.LastError = e.Error()
			var perm *Permanent
			dead := errors.As(e, &perm) || now.Sub(it.Queued) > q.opt.GiveUpAfter
			failed = append(failed, failure{it, e, dead})
			if dead {
				q.opt.Logger.Warn("outbox: giving up", "message_id", it.Mail.MessageID, "to", it.Mail.To, "err", e)
				data, err := encodeBody(it)
				if err != nil {
					return err
				}
				if err := mail.Bucket(BucketDead).Put(k, data); err != nil {
					return err
				}
				if err := drop(k); err != nil {
					return err
				}
				if q.opt.OnDead != nil {
					if err := q.opt.OnDead(tx, it, perm != nil); err != nil {
						return err
					}
				}
				continue
			}
			q.opt.Logger.Info("outbox: will retry", "message_id", it.Mail.MessageID, "attempts", it.Attempts, "next", it.NextAttempt, "err", e)
			if err := putState(states, k, stateOf(&it)); err != nil {
				return err
			}
		}
		return nil
	})
	if err == nil && q.opt.OnSent != nil {
		for _, r := range sent {
			q.opt.OnSent(r)
		}
	}
	if err == nil && q.opt.OnFailed != nil {
		for _, f := range failed {
			q.opt.OnFailed(f.it, f.err, f.dead)
		}
	}
	return err
}

// Stats counts the mails in each state.
type Stats struct{ Queued, Sent, Dead int }

// Count returns the queue's counts.
func Count(db *store.Store) (Stats, error) {
	var s Stats
	err := db.View(context.Background(), func(tx store.Tx) error {
		mail := tx.Bucket(store.BucketMail)
		if mail == nil {
			return nil
		}
		n := func(name []byte) int {
			if b := mail.Bucket(name); b != nil {
				return b.KeyN()
			}
			return 0
		}
		s = Stats{Queued: n(BucketQueue), Sent: n(BucketSent), Dead: n(BucketDead)}
		return nil
	})
	return s, err
}

// Pending lists the queued items.
func Pending(db *store.Store) ([]Item, error) {
	var out []Item
	err := db.View(context.Background(), func(tx store.Tx) error {
		mail := tx.Bucket(store.BucketMail)
		if mail == nil || mail.Bucket(BucketQueue) == nil {
			return nil
		}
		return forEachItem(mail, func(_ []byte, it Item) error {
			out = append(out, it)
			return nil
		})
	})
	return out, err
}

// Event is one mail of a game as `orrery game log` shows it: sent, still
// queued (with its attempts so far), or given up on.
type Event struct {
	Time     time.Time // sent; or queued, for mail not (yet) delivered
	State    string    // "sent", "queued", "gave up", "dropped" (by the GM: Error says why) or "unreadable" (its body is damaged; no Time)
	Kind     string    // report, notice, reply, welcome…
	To       []string
	Subject  string
	Attempts int
	Error    string // the last error of a mail not delivered
}
