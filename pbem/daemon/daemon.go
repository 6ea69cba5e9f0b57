// Package daemon is the mail side's main loop: it reads players' mail
// (pbem/imapin), parses it (pbem/inmail), decides whether to answer at all,
// routes it (pbem/route), applies it to games (engine/game), and queues the
// answers (pbem/outbox), exactly once per message.
//
// Exactly once: every message is keyed by its Message-ID (or a hash of it
// when it has none). The key, with the mailbox's UIDVALIDITY and UID, is
// written in the same bbolt transaction as the game change the message
// causes and the reply it gets, through a game.Hook. A message seen again
// after a crash (it was applied but not yet moved) is only moved. The mails
// of one IMAP fetch share that transaction (batch.go: group commit, one
// fsync a batch); with several daemons on one PostgreSQL database, the
// mail reaches them through a queue in the store (queue.go). A mail
// handled alone, after its batch failed, with
// several commands that change games records each one as a part, in that
// command's own transaction, so a retry skips the parts already done.
package daemon

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"orrery/engine"
	"orrery/engine/game"
	"orrery/engine/store"
	"orrery/pbem/bounce"
	"orrery/pbem/imapin"
	"orrery/pbem/inmail"
	"orrery/pbem/metrics"
	"orrery/pbem/outbox"
	"orrery/pbem/policy"
)

// Bucket names under store.BucketMail (also listed in engine/store/schema.go).
var (
	BucketSeen    = store.BucketMailSeen     // message key → JSON seenRecord
	BucketParts   = store.BucketMailParts    // message key + "\x00" + part number → reply text of a done part
	BucketUIDs    = store.BucketMailUIDs     // UIDVALIDITY (4 bytes) + UID (4 bytes) → message key
	BucketLimits  = store.BucketMailRate     // lowercased address → rate record (ratetimes.go)
	BucketUnknown = store.BucketMailUnknown  // lowercased address → RFC 3339 time of the last help to a stranger
	BucketHeld    = store.BucketMailHeld     // Message-ID of a "held" mail → JSON heldRecord
	BucketApplied = store.BucketMailApplied  // game, player, step shown, orders hash → time applied
	BucketPing    = store.BucketMailPingPong // address + subject + text → rate record (ratetimes.go) of answers that changed nothing
	BucketBudget  = store.BucketMailBudget   // person, "\x00all", "\x00reserve", "\x00d\x00"+domain, "\x00r\x00"+domain → JSON budgetRecord of replies to strangers today; "\x00new\x00"/"\x00invite\x00"+person → JSON times of NEW/INVITE (budget.go)
	BucketDNSFail = store.BucketMailDNSFail  // domain → RFC 3339 time DNS first failed for it
	BucketConsent = store.BucketMailConsent  // token → JSON consentRecord of a JOIN or OBSERVE to confirm (consent.go)
)

// DefaultMaxReply is the largest answer to a mail, in bytes of text and
// HTML: three reports of the biggest ruleset fit.
const DefaultMaxReply = 256 << 10

// Config tunes the daemon.
type Config struct {
	From string // the bot's address, "Orrery <orrery@example.org>"
	GM   string // the game master's address for notices ("" = none)
	// GMSecret lets mail from the GM address with "SECRET <GMSecret>"
	// run GM commands ("GM PAUSE demo1 ..."); "" turns them off.
	GMSecret string
	// RepliesPerHour caps answers to one address (default 30); turn
	// reports are not counted.
	RepliesPerHour int
	// Strangers is "daily" (one short help a day to unknown senders,
	// the default) or "none".
	Strangers string
	// Relax loosens sender authentication for every game; RelaxGames
	// for the games named only (games among friends), on top of Relax.
	Relax      policy.Relax
	RelaxGames map[string]policy.Relax
	// Policy says how senders are authenticated (policy.CheckSender);
	// Own and OwnMessageIDSuffix are filled in from From. Its zero
	// SenderAuth is off, as demo and serve --embedded want: they have no
	// DNS. orrery serve --config turns DMARC on by default.
	Policy policy.Config
	// Resolver answers the DNS look-ups of sender authentication (nil:
	// the system's); tests give a map.
	Resolver policy.Resolver
	// DNSGrace is how long DNS may keep failing for a domain, mail from
	// it waiting in the inbox, before the domain counts as having no
	// DMARC record and the secret decides (default 1 hour).
	DNSGrace time.Duration
	// PingPong stops answering one address on one subject after this
	// many answers within an hour that changed nothing (default 3): an
	// out-of-office that answers every answer never loops for long.
	PingPong int
	// StrangerDaily caps the replies a day to one address in none of our
	// games (default 5), StrangerGlobal those to all such addresses
	// together (default 500): no stranger can make the bot mail out
	// more than it was sent. StrangerDomain caps those to the addresses
	// of one organisational domain (default a tenth of StrangerGlobal),
	// and StrangerReserve of StrangerGlobal is kept for the answers to
	// JOIN (default a fifth), of which one domain takes at most the same
	// share (budget.go): one sender's catch-all domain cannot spend
	// everyone's day, and a newcomer's JOIN is answered.
	StrangerDaily, StrangerGlobal   int
	StrangerDomain, StrangerReserve int
	// NewPerDay is how many games one person may open by mail (NEW) in
	// any 24 hours (default 3), InvitesPerDay how many addresses they
	// may invite (INVITE, default 20). The GM is not limited.
	NewPerDay, InvitesPerDay int
	// MaxText is the most text bytes read from a mail (inmail default).
	MaxText int
	// MaxMail is the reader's limit on a whole mail (imapin.Config.
	// MaxSize), named in the answer to a mail over it.
	MaxMail int
	// MaxObservers caps the observers one game takes by mail (default
	// 50); the GM may add more from the command line.
	MaxObservers int
	// PressPerDay is how much press one seat may have relayed in any 24
	// hours (default 50): a player cannot make the server mail the other
	// seats without end.
	PressPerDay int
	// PreviewsPerStep is how many PREVIEWs one seat gets answered in one
	// step of a game (default 3; preview.go): enough to try a plan or
	// two, too few to fish the rules for the other seats' secrets.
	PreviewsPerStep int
	// PlusDistinct lists the domains where local+tag@ is not a tag of
	// local@ but another person's mailbox; elsewhere the +tags of an
	// address are one person for OBSERVE, JOIN and strangers' budgets
	// (policy.Person).
	PlusDistinct []string
	// ReadsPerMail is how many read commands (STATUS, HISTORY, RESEND,
	// LIST…) one mail gets answered, the same one counted once (default
	// 3); MaxReply bounds any answer's bytes (default DefaultMaxReply):
	// one mail must never hold the daemon, nor make a huge answer. The
	// GM's mail is not limited.
	ReadsPerMail int
	MaxReply     int
	// Templates is a directory of template overrides ("" = embedded).
	Templates string
	// WebLink, when the daemon serves web pages, gives the address of a
	// seat's private page for its report mails (pbem/web.PrivateLink).
	WebLink WebLink
	// UnsubURL is the web pages' public address, when they run: mails
	// then carry a one-click unsubscribe URI there (unsubscribe.go).
	UnsubURL string
	// OpenGames says who may open a game by mail (NEW): "anyone",
	// "players" (an address that holds or held a seat here: the
	// default) or "gm"; MaxOpenGames is how many unfinished games one
	// address may have opened at once (default 2).
	OpenGames    string
	MaxOpenGames int
	// Bounces says when an address whose mail bounces is given up on
	// (default: 3 hard bounces within 14 days).
	Bounces bounce.Policy
	// TickEvery runs deadlines and reminders this often (default 10 s).
	TickEvery time.Duration
	// Ticked, if set, is called after each round of Run's tick loop
	// (deadlines, GM report, bounces and digests): a test driving the
	// real loop with a fake clock (Now) learns when a round has seen the
	// time it set.
	Ticked func()
	// GroupTime is the most work one transaction of a fetched batch
	// holds before it commits and the next begins (default
	// DefaultGroupTime, DefaultSharedGroupTime on PostgreSQL); tests
	// that count transactions set it long.
	GroupTime time.Duration
	// Lead, when set, runs the IMAP reader only while this process
	// leads: with several daemons on one PostgreSQL database, one reads
	// the mailbox and the others stand by (cmd/orrery serve sets it to
	// pgstore.Lead). The outbox and the tick run in every process, and
	// so does the mail work: on a store that no process holds alone
	// (PostgreSQL), the leader only queues what it reads, and every
	// process's worker handles the queue (queue.go); a leader with no
	// other daemon on the database handles it itself.
	Lead func(ctx context.Context, read func(context.Context) error) error
	// Turn, when set, runs each batch of queued mail a worker of a
	// shared daemon handles, so that the daemons' workers take turns
	// (cmd/orrery serve sets it to a pgstore.Turns' Run): two batches
	// at once would only refuse each other (queue.go says why).
	Turn func(ctx context.Context, work func(context.Context) error) error
	// QueuePoll is how often an idle worker of a shared daemon looks for
	// mail another daemon queued (default DefaultQueuePoll).
	QueuePoll time.Duration
	// Retention is how long records of sent mail are kept whole before
	// they are compacted to what game log shows (default 90 days).
	Retention time.Duration
	Now       func() time.Time
	Logger    *slog.Logger
	// Metrics counts what the daemon does (nil: not counted).
	Metrics *metrics.Daemon
}

// Daemon answers mail for the games of one store.
type Daemon struct {
	cfg    Config
	st     *store.Store
	svc    *game.Service
	mailer *Mailer
	queue  *outbox.Queue
	log    *slog.Logger
	mu     sync.Mutex    // one message at a time: bbolt serialises writers anyway
	wake   chan struct{} // the leader queued mail (queue.go)
	// gmQueryFn answers GM LIST, SHOW… by mail (SetGMQuery).
	gmQueryFn GMQuery
	// words classify lines of each ruleset's mails (route.Classifier).
	words *words
	// gmRefusal is the decision on the mail last refused a GM command
	// (gmguard.go), shared by its lines.
	gmRefusal struct {
		key    string
		answer bool
	}
	// verp makes and reads the envelope senders that tie a DSN to the
	// mail it answers (deliver.go); its Key is nil until read.
	verp bounce.VERP
}

// New builds a daemon over st. The game service it makes carries the
// mailer's hook, so every change queues its mail; opts are passed on.
func New(st *store.Store, rulesets []engine.Ruleset, q *outbox.Queue, cfg Config, opts ...game.Option) (*Daemon, error) {
	orDefault(&cfg.RepliesPerHour, 30)
	switch cfg.Strangers {
	case "":
		cfg.Strangers = "daily"
	case "daily", "none":
	default:
		return nil, fmt.Errorf("strangers must be daily or none, not %q", cfg.Strangers)
	}
	orDefault(&cfg.TickEvery, 10*time.Second)
	switch cfg.OpenGames {
	case "":
		cfg.OpenGames = "players"
	case "anyone", "players", "gm":
	default:
		return nil, fmt.Errorf("who may open games must be anyone, players or gm, not %q", cfg.OpenGames)
	}
	orDefault(&cfg.MaxOpenGames, 2)
	cfg.Bounces = cfg.Bounces.WithDefaults()
	orDefault(&cfg.DNSGrace, time.Hour)
	orDefault(&cfg.PingPong, 3)
	orDefault(&cfg.StrangerDaily, 5)
	orDefault(&cfg.StrangerGlobal, 500)
	orDefault(&cfg.StrangerDomain, max(cfg.StrangerDaily, cfg.StrangerGlobal/10))
	orDefault(&cfg.StrangerReserve, cfg.StrangerGlobal/5)
	if cfg.StrangerReserve >= cfg.StrangerGlobal {
		return nil, fmt.Errorf("the strangers' reserve for JOIN (%d) must be less than their whole daily budget (%d)", cfg.StrangerReserve, cfg.StrangerGlobal)
	}
	orDefault(&cfg.NewPerDay, 3)
	orDefault(&cfg.InvitesPerDay, 20)
	orDefault(&cfg.ReadsPerMail, 3)
	orDefault(&cfg.MaxReply, DefaultMaxReply)
	orDefault(&cfg.MaxObservers, 50)
	orDefault(&cfg.PressPerDay, 50)
	orDefault(&cfg.PreviewsPerStep, 3)
	orDefault(&cfg.MaxMail, imapin.DefaultMaxSize)
	if cfg.GroupTime <= 0 {
		cfg.GroupTime = DefaultGroupTime
		if !st.Locks() {
			cfg.GroupTime = DefaultSharedGroupTime
		}
	}
	orDefault(&cfg.QueuePoll, DefaultQueuePoll)
	orDefault(&cfg.Retention, outbox.DefaultRetention)
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	cfg.Logger = SafeLogger(cfg.Logger) // no secret in any log (redact.go)
	if bareAddress(cfg.From) == "" || !strings.Contains(cfg.From, "@") {
		return nil, fmt.Errorf("the bot's From address %q is not an address", cfg.From)
	}
	if err := cfg.Policy.Validate(); err != nil {
		return nil, err
	}
	mailer, err := NewMailer(cfg.From, cfg.GM, cfg.Templates, rulesets)
	if err != nil {
		return nil, err
	}
	cfg.Policy.Own = append(cfg.Policy.Own, bareAddress(cfg.From))
	if cfg.Policy.OwnMessageIDSuffix == "" {
		cfg.Policy.OwnMessageIDSuffix = mailer.OwnSuffix()
	}
	mailer.WebLink = cfg.WebLink
	mailer.UnsubURL = cfg.UnsubURL
	d := &Daemon{cfg: cfg, st: st, queue: q, log: cfg.Logger, mailer: mailer, words: newWords(rulesets), wake: make(chan struct{}, 1)}
	from := bareAddress(cfg.From)
	at := strings.LastIndexByte(from, '@') // there is one: checked above
	local, domain := from[:at], from[at+1:]
	if cfg.Bounces.VERPLocal != "" {
		local = cfg.Bounces.VERPLocal
	}
	d.verp = bounce.VERP{Local: local, Delimiter: cfg.Bounces.VERPDelimiter, Domain: domain}
	if n := bounce.LocalLen(local, cfg.Bounces.VERPDelimiter); !cfg.Bounces.NoVERP && n > bounce.MaxLocalLen {
		return nil, fmt.Errorf("the bounce address %s%sb-TOKEN@%s would have a local part of up to %d characters, over the %d a mail server must take: set bounces.verp_local shorter", local, cfg.Bounces.VERPDelimiter, domain, n, bounce.MaxLocalLen)
	}
	if q != nil {
		mailer.Enqueue = q.Enqueue
		q.SetOnDead(d.deadMail)
		if !cfg.Bounces.NoVERP {
			// The key is made once, in the database every daemon
			// on it shares, before any mail goes.
			if err := st.Update(context.Background(), func(tx store.Tx) error {
				var err error
				d.verp.Key, err = bounce.VERPKey(tx, true)
				return err
			}); err != nil {
				return nil, fmt.Errorf("the bounce addresses' key: %w", err)
			}
			q.SetEnvelope(d.envelope)
		}
	}
	all := append([]game.Option{game.WithClock(cfg.Now), game.WithLogger(cfg.Logger)}, opts...)
	all = append(all, game.WithHooks(mailer.Hook, cfg.Metrics.Hook))
	d.svc = game.New(st, rulesets, all...)
	return d, nil
}

// Service is the daemon's game service (with the mail hook).
func (d *Daemon) Service() *game.Service { return d.svc }

// Mailer is the daemon's mailer.
func (d *Daemon) Mailer() *Mailer { return d.mailer }

// Run reads mail with r, sends with the queue and ticks deadlines until ctx
// is done.
func (d *Daemon) Run(ctx context.Context, r *imapin.Reader) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if err := d.svc.BuildIndexes(ctx); err != nil {
		if ctx.Err() != nil {
			return nil // stopped while starting: a clean stop
		}
		return fmt.Errorf("build the game indexes: %w", err)
	}
	if !d.shared() {
		if err := d.drainLeftover(ctx); err != nil && ctx.Err() == nil {
			d.log.Error("handle the mail left queued by daemons that shared the database", "err", err)
		}
	}
	var wg sync.WaitGroup
	if d.queue != nil {
		wg.Add(1)
		go func() { defer wg.Done(); d.queue.Run(ctx) }()
	}
	wg.Add(1)
	go func() { defer wg.Done(); d.housekeep(ctx) }()
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(d.cfg.TickEvery)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				start := time.Now()
				if _, err := d.svc.Tick(ctx); err != nil && ctx.Err() == nil {
					d.log.Error("tick", "err", err)
				}
				d.cfg.Metrics.Tick(time.Since(start))
				if err := d.gmGuardTick(ctx); err != nil && ctx.Err() == nil {
					d.log.Error("tick: GM report", "err", err)
				}
				if err := d.Maintain(ctx); err != nil && ctx.Err() == nil {
					d.log.Error("bounces and digests", "err", err)
				}
				if d.cfg.Ticked != nil {
					d.cfg.Ticked()
				}
			}
		}
	}()
	read := func(ctx context.Context) error { return r.RunBatch(ctx, d.HandleBatch) }
	if d.shared() {
		// Several daemons may share this store: the leader queues the
		// mail it reads, and every daemon's worker handles the queue.
		read = func(ctx context.Context) error { return r.RunBatch(ctx, d.Enqueue) }
		wg.Add(1)
		go func() { defer wg.Done(); d.work(ctx) }()
	}
	var err error
	if d.cfg.Lead != nil {
		err = d.cfg.Lead(ctx, read)
	} else {
		err = read(ctx)
	}
	cancel() // the reader gave up (a refused login): stop the rest too
	wg.Wait()
	return err
}

type seenRecord struct {
	Key         string    `json:"key"`
	UIDValidity uint32    `json:"uidvalidity"`
	UID         uint32    `json:"uid"`
	From        string    `json:"from"`
	Subject     string    `json:"subject"`
	At          time.Time `json:"at"`
	Disposition string    `json:"disposition"` // processed, rejected
	Why         string    `json:"why,omitempty"`
}

func mailBucket(tx store.Tx, name []byte) (store.Bucket, error) {
	mail := tx.Bucket(store.BucketMail)
	if mail == nil {
		var err error
		if mail, err = tx.CreateBucketIfNotExists(store.BucketMail); err != nil {
			return nil, err
		}
	}
	return mail.CreateBucketIfNotExists(name)
}

// messageKey identifies a message across mailboxes and UIDVALIDITY changes.
func messageKey(m *inmail.Message, raw []byte) string {
	if m != nil && m.MessageID != "" {
		id := strings.ToLower(m.MessageID)
		if len(id) > maxKey {
			// bbolt refuses keys over 32 KB, and a sender writes
			// what Message-ID he likes: a long one is known by its hash.
			sum := sha256.Sum256([]byte(id))
			return "idsha256:" + hex.EncodeToString(sum[:])
		}
		return "id:" + id
	}
	sum := sha256.Sum256(raw)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// maxKey bounds what a key made of a sender's words (an address, a
// Message-ID) keeps of them: a real address has at most 320 characters
// (RFC 5321), and bbolt refuses keys over 32 KB, which would leave a mail
// to be retried for ever.
const maxKey = 320

// addrKey is the key of an address's records (rate limits, budgets).
func addrKey(addr string) []byte { return []byte(clip(addr, maxKey)) }

func uidKey(validity, uid uint32) []byte {
	var k [8]byte
	binary.BigEndian.PutUint32(k[:4], validity)
	binary.BigEndian.PutUint32(k[4:], uid)
	return k[:]
}

func (d *Daemon) seen(ctx context.Context, key string) (*seenRecord, error) {
	var rec *seenRecord
	err := d.st.View(ctx, func(tx store.Tx) error {
		mail := tx.Bucket(store.BucketMail)
		if mail == nil || mail.Bucket(BucketSeen) == nil {
			return nil
		}
		v := mail.Bucket(BucketSeen).Get([]byte(key))
		if v == nil {
			return nil
		}
		rec = &seenRecord{}
		return json.Unmarshal(v, rec)
	})
	return rec, err
}

// Seen reports whether a message with this Message-ID was handled.
func (d *Daemon) Seen(ctx context.Context, messageID string) (bool, error) {
	rec, err := d.seen(ctx, messageKey(&inmail.Message{MessageID: strings.Trim(messageID, "<>")}, nil))
	return rec != nil, err
}

// orDefault sets *v to def when it is zero or less: a limit left unset in
// Config (or set to nonsense) takes the daemon's default.
func orDefault[T ~int | ~int64](v *T, def T) {
	if *v <= 0 {
		*v = def
	}
}
