// Package imapin reads the bot's mailbox over IMAP (go-imap v2) and hands
// each message to a handler, then files it: processed mail is moved to one
// folder, rejected mail to another. It never deletes: where the server lacks
// MOVE it copies the message and marks the original with a keyword
// (DoneKeyword) that later searches skip, instead of \Deleted + EXPUNGE.
//
// It waits for new mail with IDLE where the server offers it and polls
// otherwise, reconnects with exponential backoff and jitter for as long as
// the server stays away, and notices a changed UIDVALIDITY (the handler
// gets it with every message, and the daemon keys its receipts on it).
// go-imap's client takes no context: every blocking call is cut short by a
// goroutine that closes the connection when the context is done.
package imapin

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-sasl"
)

// DoneKeyword marks a message that was copied away on a server without MOVE.
const DoneKeyword imap.Flag = "$OrreryDone"

// Config says where and how to read.
type Config struct {
	Addr string // host:port
	TLS  string // "implicit", "starttls" or "none"
	// Auth is "plain" (LOGIN command), "xoauth2" or "oauthbearer".
	Auth        string
	Credentials func(ctx context.Context) (user, secret string, err error)
	// Refused, if set, is called when the server refuses the login, so
	// that a token source drops a cached token the provider no longer
	// takes (revoked, or expired early) and the next try fetches a new
	// one instead of repeating the dead one until its stated expiry.
	Refused func()

	Inbox     string // default INBOX
	Processed string // default "Orrery/Processed"
	Rejected  string // default "Orrery/Rejected"

	// Poll forces polling even where IDLE is offered.
	Poll         bool
	PollInterval time.Duration // default 30 s
	// IdleRestart ends and restarts IDLE this often (default 5 min).
	// Servers drop idle connections after 30 minutes; and a server that
	// does not report, when IDLE starts, mail that arrived just before it
	// (go-imap's imapserver) is caught up with at the restart.
	IdleRestart time.Duration
	MinBackoff  time.Duration // default 1 s
	MaxBackoff  time.Duration // default 2 min
	Batch       int           // messages fetched per round trip (default 50)
	// MaxSize is the largest mail fetched whole (RFC822.SIZE, default
	// DefaultMaxSize): a larger one is handed over as its header alone,
	// with Message.Truncated set, so that it can be answered and filed.
	// BatchBytes bounds the bytes of the mails fetched whole at once
	// (default DefaultBatchBytes; one mail always goes).
	MaxSize    int64
	BatchBytes int64
	// RetryFailed is how long a message whose handler failed (a full
	// disk, a database error) waits before it is offered again in the
	// same session (default 1 min; IDLE wakes at least every IdleRestart).
	RetryFailed time.Duration
	Logger      *slog.Logger
}

// Defaults of Config.MaxSize and Config.BatchBytes: mail larger than a
// provider's attachment limit is never orders, and an 82 MB mail fetched
// whole took the daemon from 80 to 520 MB of memory.
const (
	DefaultMaxSize    = 20 << 20
	DefaultBatchBytes = 32 << 20
)

// maxHeader is the most of an oversize mail's header fetched.
const maxHeader = 64 << 10

// Message is one mail to handle.
type Message struct {
	Mailbox     string
	UIDValidity uint32
	UID         uint32
	Raw         []byte
	// Size is the mail's size as the server gives it (RFC822.SIZE).
	// Truncated says Raw is only the header (at most 64 KB of it) of a
	// mail over Config.MaxSize, which was not fetched whole.
	Size      int64
	Truncated bool
}

// Disposition is where a handled message goes.
type Disposition int

const (
	Processed Disposition = iota // moved to Config.Processed
	Rejected                     // moved to Config.Rejected
	Keep                         // left in the inbox (the handler will see it again)
)

// Handler handles one message. An error leaves the message in the inbox; it
// is offered again after Config.RetryFailed, or after a reconnect.
type Handler func(ctx context.Context, m Message) (Disposition, error)

// Outcome is what became of one message of a batch: Err as a Handler's.
type Outcome struct {
	Disposition Disposition
	Err         error
}

// BatchHandler handles the messages of one fetch (up to Config.Batch, in
// UID order) together and returns one Outcome for each, in the same order:
// the daemon commits a whole batch in one transaction (group commit), so a
// backlog costs one fsync per batch, not several per mail. The messages are
// filed only after it returns.
type BatchHandler func(ctx context.Context, ms []Message) []Outcome

// OneByOne makes a BatchHandler of a Handler.
func OneByOne(h Handler) BatchHandler {
	return func(ctx context.Context, ms []Message) []Outcome {
		out := make([]Outcome, len(ms))
		for i, m := range ms {
			if ctx.Err() != nil {
				out[i].Err = ctx.Err()
				continue
			}
			out[i].Disposition, out[i].Err = h(ctx, m)
		}
		return out
	}
}

// Reader reads one mailbox.
type Reader struct {
	cfg Config
	log *slog.Logger
	// Connected, if set, is called after each successful login and select.
	Connected func(uidValidity uint32)
	// Looked, when set, is called after each look at the inbox with how
	// many messages it handed over, so that a test can wait for the
	// reader to have looked again instead of sleeping.
	Looked func(handed int)
	// Lost, if set, is called when a session ends in a failure, before
	// the reader waits to reconnect (metrics count reconnects by it).
	Lost    func(err error)
	onLogin func()
}

// New returns a Reader with cfg's defaults filled in.
func New(cfg Config) *Reader {
	if cfg.Inbox == "" {
		cfg.Inbox = "INBOX"
	}
	if cfg.Processed == "" {
		cfg.Processed = "Orrery/Processed"
	}
	if cfg.Rejected == "" {
		cfg.Rejected = "Orrery/Rejected"
	}
	if cfg.PollInterval <= 0 {
		cfg.PollInterval = 30 * time.Second
	}
	if cfg.IdleRestart <= 0 {
		cfg.IdleRestart = 5 * time.Minute
	}
	if cfg.MinBackoff <= 0 {
		cfg.MinBackoff = time.Second
	}
	if cfg.MaxBackoff <= 0 {
		cfg.MaxBackoff = 2 * time.Minute
	}
	if cfg.RetryFailed <= 0 {
		cfg.RetryFailed = time.Minute
	}
	if cfg.Batch <= 0 {
		cfg.Batch = 50
	}
	if cfg.MaxSize <= 0 {
		cfg.MaxSize = DefaultMaxSize
	}
	if cfg.BatchBytes <= 0 {
		cfg.BatchBytes = DefaultBatchBytes
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Reader{cfg: cfg, log: log}
}

// ErrLogin wraps a refused login. Run returns it when the very first login
// fails, so that a wrong password or token stops the daemon at once with a
// clear message; later refusals (a revoked token) are retried like any
// other failure.
var ErrLogin = errors.New("the IMAP server refused the login")

// Run reads until ctx is done, reconnecting after any failure.
func (r *Reader) Run(ctx context.Context, h Handler) error { return r.RunBatch(ctx, OneByOne(h)) }

// RunBatch is Run with a handler that takes each fetched batch at once.
func (r *Reader) RunBatch(ctx context.Context, h BatchHandler) error {
	backoff := r.cfg.MinBackoff
	connected := false
	r.onLogin = func() { connected = true }
	for {
		start := time.Now()
		err := r.session(ctx, h)
		if ctx.Err() != nil {
			return nil
		}
		if !connected && errors.Is(err, ErrLogin) {
			return err
		}
		if time.Since(start) > time.Minute {
			backoff = r.cfg.MinBackoff // it worked for a while: start over
		}
		wait := backoff/2 + time.Duration(rand.Int64N(int64(backoff)))
		if r.Lost != nil {
			r.Lost(err)
		}
		r.log.Warn("imap: connection lost; reconnecting", "err", err, "in", wait.Round(time.Millisecond))
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(wait):
		}
		backoff = min(backoff*2, r.cfg.MaxBackoff)
	}
}

func (r *Reader) dial(opts *imapclient.Options) (*imapclient.Client, error) {
	switch r.cfg.TLS {
	case "implicit":
		return imapclient.DialTLS(r.cfg.Addr, opts)
	case "starttls":
		return imapclient.DialStartTLS(r.cfg.Addr, opts)
	default:
		return imapclient.DialInsecure(r.cfg.Addr, opts)
	}
}

// session is one connection's life: login, select, then handle and wait.
func (r *Reader) session(ctx context.Context, h BatchHandler) error {
	wake := make(chan struct{}, 1)
	poke := func() {
		select {
		case wake <- struct{}{}:
		default:
		}
	}
	opts := &imapclient.Options{UnilateralDataHandler: &imapclient.UnilateralDataHandler{
		Mailbox: func(d *imapclient.UnilateralDataMailbox) {
			if d.NumMessages != nil {
				poke()
			}
		},
	}}
	c, err := r.dial(opts)
	if err != nil {
		return fmt.Errorf("connect %s: %w", r.cfg.Addr, err)
	}
	defer c.Close()
	stop := context.AfterFunc(ctx, func() { c.Close() })
	defer stop()

	if err := r.login(ctx, c); err != nil {
		return err
	}
	if r.onLogin != nil {
		r.onLogin()
	}
	for _, box := range []string{r.cfg.Processed, r.cfg.Rejected} {
		if err := ensureMailbox(c, box); err != nil {
			return err
		}
	}
	sel, err := c.Select(r.cfg.Inbox, nil).Wait()
	if err != nil {
		return fmt.Errorf("select %s: %w", r.cfg.Inbox, err)
	}
	uidValidity := sel.UIDValidity
	if r.Connected != nil {
		r.Connected(uidValidity)
	}
	hasMove := c.Caps().Has(imap.CapMove) || c.Caps().Has(imap.CapIMAP4rev2)
	idle := !r.cfg.Poll && (c.Caps().Has(imap.CapIdle) || c.Caps().Has(imap.CapIMAP4rev2))
	r.log.Info("imap: connected", "addr", r.cfg.Addr, "mailbox", r.cfg.Inbox, "uidvalidity", uidValidity, "idle", idle, "move", hasMove)
	// Messages not to offer again before the time given: handler errors
	// (retried after RetryFailed) and kept messages (not in this session).
	failed := map[imap.UID]time.Time{}

	for {
		for {
			n, err := r.drain(ctx, c, h, uidValidity, hasMove, failed)
			if err != nil {
				return err
			}
			if r.Looked != nil {
				r.Looked(n)
			}
			if n == 0 {
				break
			}
		}
		if idle {
			if err := r.idle(ctx, c, wake, nextRetry(failed, r.cfg.IdleRestart)); err != nil {
				return err
			}
		} else {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-wake:
			case <-time.After(nextRetry(failed, r.cfg.PollInterval)):
			}
			if err := c.Noop().Wait(); err != nil {
				return fmt.Errorf("noop: %w", err)
			}
		}
	}
}

// nextRetry is how long to wait before looking at the inbox again: at most
// limit, less when a failed message is due to be offered again sooner.
func nextRetry(failed map[imap.UID]time.Time, limit time.Duration) time.Duration {
	now := time.Now()
	for _, until := range failed {
		if d := until.Sub(now); d < limit {
			limit = max(d, 10*time.Millisecond)
		}
	}
	return limit
}

func (r *Reader) idle(ctx context.Context, c *imapclient.Client, wake chan struct{}, wait time.Duration) error {
	cmd, err := c.Idle()
	if err != nil {
		return fmt.Errorf("idle: %w", err)
	}
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case <-ctx.Done():
	case <-wake:
	case <-timer.C:
	case <-c.Closed():
	}
	if err := cmd.Close(); err != nil {
		return fmt.Errorf("end idle: %w", err)
	}
	if err := cmd.Wait(); err != nil {
		return fmt.Errorf("idle: %w", err)
	}
	return ctx.Err()
}

func (r *Reader) login(ctx context.Context, c *imapclient.Client) error {
	user, secret := "", ""
	if r.cfg.Credentials != nil {
		var err error
		if user, secret, err = r.cfg.Credentials(ctx); err != nil {
			return fmt.Errorf("imap credentials: %w", err)
		}
	}
	var err error
	switch r.cfg.Auth {
	case "xoauth2":
		err = c.Authenticate(&xoauth2{user: user, token: secret})
	case "oauthbearer":
		err = c.Authenticate(&oauthBearer{sasl.NewOAuthBearerClient(&sasl.OAuthBearerOptions{Username: user, Token: secret})})
	default:
		err = c.Login(user, secret).Wait()
	}
	if err != nil {
		var ie *imap.Error
		if errors.As(err, &ie) && ie.Type == imap.StatusResponseTypeNo {
			if r.cfg.Refused != nil {
				r.cfg.Refused()
			}
			return fmt.Errorf("%w as %s: %v", ErrLogin, user, err)
		}
		return fmt.Errorf("imap login as %s: %w", user, err)
	}
	return nil
}

// ensureMailbox creates name unless it exists.
func ensureMailbox(c *imapclient.Client, name string) error {
	list, err := c.List("", name, nil).Collect()
	if err != nil {
		return fmt.Errorf("list %s: %w", name, err)
	}
	if len(list) > 0 {
		return nil
	}
	if err := c.Create(name, nil).Wait(); err != nil {
		var ie *imap.Error
		if errors.As(err, &ie) && ie.Code == imap.ResponseCodeAlreadyExists {
			return nil
		}
		return fmt.Errorf("create folder %s: %w", name, err)
	}
	return nil
}

// drain handles up to one batch of the inbox's waiting messages and files
// them; it returns how many it handled.
func (r *Reader) drain(ctx context.Context, c *imapclient.Client, h BatchHandler, uidValidity uint32, hasMove bool, failed map[imap.UID]time.Time) (int, error) {
	data, err := c.UIDSearch(&imap.SearchCriteria{NotFlag: []imap.Flag{DoneKeyword}}, nil).Wait()
	if err != nil {
		return 0, fmt.Errorf("search: %w", err)
	}
	var uids []imap.UID
	now := time.Now()
	for _, u := range data.AllUIDs() {
		if until, ok := failed[u]; !ok || !now.Before(until) {
			uids = append(uids, u)
		}
	}
	if len(uids) == 0 {
		return 0, nil
	}
	slices.Sort(uids)
	if len(uids) > r.cfg.Batch {
		uids = uids[:r.cfg.Batch]
	}
	// Sizes first: a mail over MaxSize is fetched as its header alone,
	// and the mails fetched whole at once stay within BatchBytes.
	sized, err := c.Fetch(imap.UIDSetNum(uids...), &imap.FetchOptions{UID: true, RFC822Size: true}).Collect()
	if err != nil {
		return 0, fmt.Errorf("fetch sizes: %w", err)
	}
	size := map[imap.UID]int64{}
	for _, m := range sized {
		size[m.UID] = m.RFC822Size
	}
	var whole, big []imap.UID
	var total int64
take:
	for _, u := range uids {
		n, ok := size[u]
		switch {
		case !ok:
			failed[u] = now.Add(r.cfg.RetryFailed) // vanished meanwhile
		case n > r.cfg.MaxSize:
			big = append(big, u)
		case len(whole) > 0 && total+n > r.cfg.BatchBytes:
			// The next round takes it and what follows: mails are
			// handled in the order they came (later orders replace
			// earlier ones).
			break take
		default:
			whole = append(whole, u)
			total += n
		}
	}
	uids = append(append([]imap.UID(nil), whole...), big...)
	section := &imap.FetchItemBodySection{Peek: true}
	header := &imap.FetchItemBodySection{Peek: true, Specifier: imap.PartSpecifierHeader, Partial: &imap.SectionPartial{Size: maxHeader}}
	var msgs []*imapclient.FetchMessageBuffer
	for _, f := range []struct {
		uids    []imap.UID
		section *imap.FetchItemBodySection
	}{{whole, section}, {big, header}} {
		if len(f.uids) == 0 {
			continue
		}
		got, err := c.Fetch(imap.UIDSetNum(f.uids...), &imap.FetchOptions{UID: true, BodySection: []*imap.FetchItemBodySection{f.section}}).Collect()
		if err != nil {
			return 0, fmt.Errorf("fetch: %w", err)
		}
		msgs = append(msgs, got...)
	}
	slices.SortFunc(msgs, func(a, b *imapclient.FetchMessageBuffer) int { return int(a.UID) - int(b.UID) })
	var done, rejected []imap.UID
	batch := make([]Message, len(msgs))
	for i, m := range msgs {
		batch[i] = Message{Mailbox: r.cfg.Inbox, UIDValidity: uidValidity, UID: uint32(m.UID), Raw: m.FindBodySection(section), Size: size[m.UID]}
		if size[m.UID] > r.cfg.MaxSize {
			batch[i].Raw, batch[i].Truncated = headerOnly(m.FindBodySection(header)), true
			r.log.Warn("imap: mail over the size limit; its header alone is read", "uid", m.UID, "size", size[m.UID], "limit", r.cfg.MaxSize)
		}
	}
	outcomes := h(ctx, batch)
	for i, m := range msgs {
		if ctx.Err() != nil {
			break
		}
		disp, err := Disposition(0), error(errors.New("the handler gave no outcome"))
		if i < len(outcomes) {
			disp, err = outcomes[i].Disposition, outcomes[i].Err
		}
		switch {
		case err != nil:
			r.log.Error("imap: handler failed; message left in the inbox, to be retried", "uid", m.UID, "err", err, "retry_in", r.cfg.RetryFailed)
			failed[m.UID] = now.Add(r.cfg.RetryFailed)
		case disp == Processed:
			done = append(done, m.UID)
		case disp == Rejected:
			rejected = append(rejected, m.UID)
		default:
			failed[m.UID] = now.Add(100 * 365 * 24 * time.Hour) // Keep: not again in this session
		}
	}
	// A message whose body could not be fetched (vanished meanwhile) must
	// not loop: mark what was asked but not returned as failed.
	got := map[imap.UID]bool{}
	for _, m := range msgs {
		got[m.UID] = true
	}
	for _, u := range uids {
		if !got[u] {
			failed[u] = now.Add(r.cfg.RetryFailed)
		}
	}
	if err := r.file(c, done, r.cfg.Processed, hasMove); err != nil {
		return 0, err
	}
	if err := r.file(c, rejected, r.cfg.Rejected, hasMove); err != nil {
		return 0, err
	}
	return len(msgs), ctx.Err()
}

// headerOnly makes a fetched header (maybe cut at maxHeader) a message
// with an empty body: whole lines only, then the blank line.
func headerOnly(h []byte) []byte {
	if i := bytes.Index(h, []byte("\r\n\r\n")); i >= 0 {
		return h[:i+4]
	}
	if i := bytes.LastIndex(h, []byte("\r\n")); i >= 0 {
		h = h[:i+2]
	}
	return append(append([]byte(nil), h...), "\r\n"...)
}

func (r *Reader) file(c *imapclient.Client, uids []imap.UID, box string, hasMove bool) error {
	if len(uids) == 0 {
		return nil
	}
	set := imap.UIDSetNum(uids...)
	if hasMove {
		if _, err := c.Move(set, box).Wait(); err != nil {
			return fmt.Errorf("move to %s: %w", box, err)
		}
		return nil
	}
	if _, err := c.Copy(set, box).Wait(); err != nil {
		return fmt.Errorf("copy to %s: %w", box, err)
	}
	err := c.Store(set, &imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{DoneKeyword, imap.FlagSeen}}, nil).Close()
	if err != nil {
		return fmt.Errorf("flag as done: %w", err)
	}
	return nil
}

// xoauth2 is the SASL XOAUTH2 mechanism (Google, Microsoft).
type xoauth2 struct{ user, token string }

func (x *xoauth2) Start() (string, []byte, error) {
	return "XOAUTH2", []byte("user=" + x.user + "\x01auth=Bearer " + x.token + "\x01\x01"), nil
}

// Next answers the server's error challenge with an empty response, after
// which the server fails the exchange with its message.
func (x *xoauth2) Next(challenge []byte) ([]byte, error) { return []byte{}, nil }

// oauthBearer is go-sasl's OAUTHBEARER client, except that it answers the
// server's error challenge with the dummy response RFC 7628 (3.2.3) asks
// for, ^A, instead of giving up: the server then fails the exchange with
// NO, which Run reads as a refused login (ErrLogin) like any other, rather
// than leaving the command half done.
type oauthBearer struct{ sasl.Client }

func (o *oauthBearer) Next(challenge []byte) ([]byte, error) { return []byte{1}, nil }
