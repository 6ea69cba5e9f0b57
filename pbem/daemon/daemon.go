// Package daemon is the mail side's main loop: it reads players' mail
// (pbem/imapin), parses it (pbem/inmail), decides whether to answer at all,
// routes it (pbem/route), applies it to games (engine/game), and queues the
// answers (pbem/outbox), exactly once per message.
//
// Exactly once: every message is keyed by its Message-ID (or a hash of it
// when it has none). The key, with the mailbox's UIDVALIDITY and UID, is
// written in the same bbolt transaction as the game change the message
// causes and the reply it gets, through a game.Hook. A message seen again
// after a crash (it was applied but not yet moved) is only moved. A mail
// with several commands that change games records each one as a part, in
// that command's own transaction, so a retry skips the parts already done.
package daemon

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sort"
	"strings"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"

	"orrery/engine"
	"orrery/engine/game"
	"orrery/engine/store"
	"orrery/pbem/imapin"
	"orrery/pbem/inmail"
	"orrery/pbem/outbox"
	"orrery/pbem/route"
)

// Bucket names under store.BucketMail (also listed in engine/store/schema.go).
var (
	BucketSeen    = store.BucketMailSeen    // message key → JSON seenRecord
	BucketParts   = store.BucketMailParts   // message key + "\x00" + part number → reply text of a done part
	BucketUIDs    = store.BucketMailUIDs    // UIDVALIDITY (4 bytes) + UID (4 bytes) → message key
	BucketLimits  = store.BucketMailRate    // lowercased address → JSON rateRecord
	BucketUnknown = store.BucketMailUnknown // lowercased address → RFC 3339 time of the last help to a stranger
)

// Config tunes the daemon.
type Config struct {
	From string // the bot's address, "Orrery <orrery@example.org>"
	GM   string // the game master's address for notices ("" = none)
	// RepliesPerHour caps answers to one address (default 30); turn
	// reports are not counted.
	RepliesPerHour int
	// Strangers is "daily" (one short help a day to unknown senders,
	// the default) or "none".
	Strangers string
	// NoSecret accepts orders from a registered address without the
	// player's secret.
	NoSecret bool
	// MaxText is the most text bytes read from a mail (inmail default).
	MaxText int
	// TickEvery runs deadlines and reminders this often (default 10 s).
	TickEvery time.Duration
	Now       func() time.Time
	Logger    *slog.Logger
	Render    Renderer
}

// Daemon answers mail for the games of one store.
type Daemon struct {
	cfg    Config
	st     *store.Store
	svc    *game.Service
	mailer *Mailer
	queue  *outbox.Queue
	log    *slog.Logger
	mu     sync.Mutex // one message at a time: bbolt serialises writers anyway
}

// New builds a daemon over st. The game service it makes carries the
// mailer's hook, so every change queues its mail; opts are passed on.
func New(st *store.Store, rulesets []engine.Ruleset, q *outbox.Queue, cfg Config, opts ...game.Option) *Daemon {
	if cfg.RepliesPerHour <= 0 {
		cfg.RepliesPerHour = 30
	}
	if cfg.Strangers == "" {
		cfg.Strangers = "daily"
	}
	if cfg.TickEvery <= 0 {
		cfg.TickEvery = 10 * time.Second
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	d := &Daemon{cfg: cfg, st: st, queue: q, log: cfg.Logger}
	d.mailer = &Mailer{From: cfg.From, GM: cfg.GM, Render: cfg.Render}
	if q != nil {
		d.mailer.Enqueue = q.Enqueue
	}
	all := append([]game.Option{game.WithClock(cfg.Now), game.WithLogger(cfg.Logger)}, opts...)
	all = append(all, game.WithHooks(d.mailer.Hook))
	d.svc = game.New(st, rulesets, all...)
	return d
}

// Service is the daemon's game service (with the mail hook).
func (d *Daemon) Service() *game.Service { return d.svc }

// Mailer is the daemon's mailer.
func (d *Daemon) Mailer() *Mailer { return d.mailer }

// Run reads mail with r, sends with the queue and ticks deadlines until ctx
// is done.
func (d *Daemon) Run(ctx context.Context, r *imapin.Reader) error {
	var wg sync.WaitGroup
	if d.queue != nil {
		wg.Add(1)
		go func() { defer wg.Done(); d.queue.Run(ctx) }()
	}
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
				if _, err := d.svc.Tick(ctx); err != nil && ctx.Err() == nil {
					d.log.Error("tick", "err", err)
				}
			}
		}
	}()
	err := r.Run(ctx, d.Handle)
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

type rateRecord struct {
	Times []time.Time `json:"times"`
}

func mailBucket(tx *bolt.Tx, name []byte) (*bolt.Bucket, error) {
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
		return "id:" + strings.ToLower(m.MessageID)
	}
	sum := sha256.Sum256(raw)
	return "sha256:" + hex.EncodeToString(sum[:])
}

func uidKey(validity, uid uint32) []byte {
	var k [8]byte
	binary.BigEndian.PutUint32(k[:4], validity)
	binary.BigEndian.PutUint32(k[4:], uid)
	return k[:]
}

func (d *Daemon) seen(ctx context.Context, key string) (*seenRecord, error) {
	var rec *seenRecord
	err := d.st.View(ctx, func(tx *bolt.Tx) error {
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
	rec, err := d.seen(ctx, "id:"+strings.ToLower(strings.Trim(messageID, "<>")))
	return rec != nil, err
}

func partKey(key string, n int) []byte { return fmt.Appendf(nil, "%s\x00%04d", key, n) }

func (d *Daemon) part(ctx context.Context, key string, n int) (string, bool, error) {
	var text string
	var ok bool
	err := d.st.View(ctx, func(tx *bolt.Tx) error {
		mail := tx.Bucket(store.BucketMail)
		if mail == nil || mail.Bucket(BucketParts) == nil {
			return nil
		}
		if v := mail.Bucket(BucketParts).Get(partKey(key, n)); v != nil {
			text, ok = string(v), true
		}
		return nil
	})
	return text, ok, err
}

func putPart(tx *bolt.Tx, key string, n int, text string) error {
	b, err := mailBucket(tx, BucketParts)
	if err != nil {
		return err
	}
	return b.Put(partKey(key, n), []byte(text))
}

// job is one message being handled.
type job struct {
	msg     imapin.Message
	m       *inmail.Message
	key     string
	from    string
	parts   int      // part counter for changing commands
	answers []string // sections of the reply
	// game and player the reply is about, for its subject tag and thread
	game   *game.Game
	player game.Player
	// rejected files the message under Rejected
	rejected bool
	why      string
	noReply  bool
	stranger bool // the sender is in none of our games
}

// Handle handles one message; it is the imapin.Handler.
func (d *Daemon) Handle(ctx context.Context, msg imapin.Message) (imapin.Disposition, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	m, perr := inmail.Parse(msg.Raw, inmail.Options{MaxText: d.cfg.MaxText})
	j := &job{msg: msg, m: m, key: messageKey(m, msg.Raw)}
	if rec, err := d.seen(ctx, j.key); err != nil {
		return 0, err
	} else if rec != nil {
		d.log.Info("mail seen before; filing it only", "key", j.key, "uid", msg.UID)
		if rec.Disposition == "rejected" {
			return imapin.Rejected, nil
		}
		return imapin.Processed, nil
	}
	if m == nil {
		j.rejected, j.noReply, j.why = true, true, fmt.Sprintf("unreadable header: %v", perr)
		return d.finish(ctx, j)
	}
	j.from = strings.ToLower(m.From)
	if why := d.ignore(m); why != "" {
		j.rejected, j.noReply, j.why = true, true, why
		d.log.Info("not answering", "from", m.From, "subject", m.Subject, "why", why)
		return d.finish(ctx, j)
	}
	if m.Oversize {
		j.rejected, j.why = true, "oversize"
		j.answers = append(j.answers, fmt.Sprintf("Your mail is too long for me to read (over %d KiB of text); nothing in it\nwas applied. Send your orders alone, without quoting earlier mails.", d.maxText()/1024))
		return d.finish(ctx, j)
	}
	if perr != nil && errors.Is(perr, inmail.ErrNoText) {
		j.rejected, j.why = true, "no text"
		j.answers = append(j.answers, "Your mail has no text I can read; nothing was applied. Send your\norders as plain text (or as an attached orders.txt).")
		return d.finish(ctx, j)
	}
	if err := d.apply(ctx, j); err != nil {
		return 0, err
	}
	return d.finish(ctx, j)
}

func (d *Daemon) maxText() int {
	if d.cfg.MaxText > 0 {
		return d.cfg.MaxText
	}
	return inmail.DefaultMaxText
}

// ignore says why a mail must get no answer at all ("" = answer it): mail
// from robots, lists and bounces, and our own mail, so that two robots
// never answer each other forever (RFC 3834).
func (d *Daemon) ignore(m *inmail.Message) string {
	from := strings.ToLower(m.From)
	local, _, _ := strings.Cut(from, "@")
	switch {
	case from == "":
		return "no sender"
	case m.AutoSubmitted != "" && m.AutoSubmitted != "no":
		return "Auto-Submitted: " + m.AutoSubmitted
	case m.Precedence == "bulk" || m.Precedence == "junk" || m.Precedence == "list":
		return "Precedence: " + m.Precedence
	case m.ListID != "":
		return "mailing list"
	case m.NullSender:
		return "empty return path (a bounce)"
	case local == "mailer-daemon" || local == "postmaster" || strings.HasPrefix(local, "owner-") || strings.HasSuffix(local, "-request") || local == "noreply" || local == "no-reply":
		return "sender is a robot (" + local + ")"
	case from == strings.ToLower(bareAddress(d.cfg.From)):
		return "our own mail"
	}
	return ""
}

func bareAddress(a string) string {
	if i := strings.LastIndexByte(a, '<'); i >= 0 {
		return strings.TrimSuffix(a[i+1:], ">")
	}
	return strings.TrimSpace(a)
}

// finish records the message as seen and queues the reply, in one
// transaction.
func (d *Daemon) finish(ctx context.Context, j *job) (imapin.Disposition, error) {
	now := d.cfg.Now()
	disp := "processed"
	if j.rejected {
		disp = "rejected"
	}
	rec := seenRecord{Key: j.key, UIDValidity: j.msg.UIDValidity, UID: j.msg.UID, At: now, Disposition: disp, Why: j.why}
	if j.m != nil {
		rec.From, rec.Subject = j.m.From, j.m.Subject
	}
	err := d.st.Update(ctx, func(tx *bolt.Tx) error {
		seen, err := mailBucket(tx, BucketSeen)
		if err != nil {
			return err
		}
		if seen.Get([]byte(j.key)) != nil {
			return nil // a concurrent handler finished it
		}
		data, _ := json.Marshal(rec)
		if err := seen.Put([]byte(j.key), data); err != nil {
			return err
		}
		uids, err := mailBucket(tx, BucketUIDs)
		if err != nil {
			return err
		}
		if err := uids.Put(uidKey(j.msg.UIDValidity, j.msg.UID), []byte(j.key)); err != nil {
			return err
		}
		if j.noReply || len(j.answers) == 0 || j.from == "" {
			return nil
		}
		if j.stranger && d.cfg.Strangers == "none" {
			return nil
		}
		if j.stranger {
			ok, err := d.strangerAllowed(tx, j.from, now)
			if err != nil || !ok {
				return err
			}
		}
		if ok, err := d.allow(tx, j.from, now); err != nil || !ok {
			if err == nil {
				d.log.Warn("rate limit: not answering", "to", j.from)
			}
			return err
		}
		return d.mailer.enqueue(tx, d.reply(j))
	})
	if err != nil {
		return 0, fmt.Errorf("record message: %w", err)
	}
	if j.rejected {
		return imapin.Rejected, nil
	}
	return imapin.Processed, nil
}

// reply builds the answer to j's mail, threaded under it.
func (d *Daemon) reply(j *job) outbox.Mail {
	subj := "Re: " + strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(j.m.Subject, "Re: "), "RE: "))
	if j.m.Subject == "" {
		subj = "Your mail to Orrery"
	}
	c := d.mailer.render().Reply(subj, j.answers)
	refs := append([]string(nil), j.m.References...)
	if j.game != nil {
		root := d.mailer.RootID(j.game.ID)
		if !contains(refs, root) {
			refs = append([]string{root}, refs...)
		}
		if !strings.Contains(c.Subject, "["+j.game.ID) {
			tag := j.game.ID
			if j.player.Secret != "" {
				tag += " " + j.player.Secret
			}
			c.Subject = fmt.Sprintf("[%s] %s", tag, c.Subject)
		}
	}
	if j.m.MessageID != "" {
		refs = append(refs, j.m.MessageID)
	}
	if len(refs) > 20 {
		refs = append(refs[:1], refs[len(refs)-19:]...)
	}
	out := outbox.Mail{To: []string{j.from}, Subject: c.Subject, Text: c.Text, HTML: c.HTML,
		InReplyTo: j.m.MessageID, References: refs, Auto: "auto-replied", Kind: "reply"}
	if j.game != nil {
		out.Game = j.game.ID
		out.Headers = map[string]string{"X-Orrery-Game": j.game.ID}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// allow counts a reply to addr against its hourly budget.
func (d *Daemon) allow(tx *bolt.Tx, addr string, now time.Time) (bool, error) {
	b, err := mailBucket(tx, BucketLimits)
	if err != nil {
		return false, err
	}
	var r rateRecord
	if v := b.Get([]byte(addr)); v != nil {
		json.Unmarshal(v, &r)
	}
	kept := r.Times[:0]
	for _, t := range r.Times {
		if now.Sub(t) < time.Hour {
			kept = append(kept, t)
		}
	}
	r.Times = kept
	if len(r.Times) >= d.cfg.RepliesPerHour {
		return false, nil
	}
	r.Times = append(r.Times, now)
	data, _ := json.Marshal(r)
	return true, b.Put([]byte(addr), data)
}

// strangerAllowed lets one help reply a day go to an address in no game.
func (d *Daemon) strangerAllowed(tx *bolt.Tx, addr string, now time.Time) (bool, error) {
	b, err := mailBucket(tx, BucketUnknown)
	if err != nil {
		return false, err
	}
	if v := b.Get([]byte(addr)); v != nil {
		if t, err := time.Parse(time.RFC3339, string(v)); err == nil && now.Sub(t) < 24*time.Hour {
			return false, nil
		}
	}
	return true, b.Put([]byte(addr), []byte(now.UTC().Format(time.RFC3339)))
}

// apply routes j's mail and runs what it asks.
func (d *Daemon) apply(ctx context.Context, j *job) error {
	games, err := d.svc.List(ctx)
	if err != nil {
		return err
	}
	byID := map[string]*game.Game{}
	isPlayer := false
	for _, g := range games {
		byID[g.ID] = g
		if _, ok := g.PlayerByEmail(j.from); ok {
			isPlayer = true
		}
	}
	r := route.Route(j.m, route.Options{IsGame: func(id string) bool { return byID[id] != nil }})
	j.stranger = !isPlayer
	if r.Game != "" {
		if g := byID[r.Game]; g != nil {
			j.game = g
			if p, ok := g.PlayerByEmail(j.from); ok {
				j.player = p
			}
		}
	}
	if len(r.Errors) > 0 {
		var b strings.Builder
		b.WriteString("Some lines of your mail could not be read:\n")
		for _, e := range r.Errors {
			writeLineError(&b, e)
		}
		j.answers = append(j.answers, strings.TrimRight(b.String(), "\n"))
	}
	if r.Empty() {
		j.answers = append(j.answers, d.help(j.game))
		return nil
	}
	for _, c := range r.Commands {
		if err := d.command(ctx, j, r, c, byID); err != nil {
			return err
		}
	}
	if r.HasOrders && r.Game != "" {
		return d.orders(ctx, j, r, byID[r.Game])
	}
	return nil
}

func writeLineError(b *strings.Builder, e engine.LineError) {
	if e.Line > 0 {
		fmt.Fprintf(b, "  line %d: %s\n    ", e.Line, e.Text)
	} else {
		b.WriteString("  ")
	}
	b.WriteString(e.Msg)
	if e.Fix != "" {
		fmt.Fprintf(b, " — %s", e.Fix)
	}
	b.WriteString("\n")
}

// authenticate checks that the sender plays in g and gave their secret.
// On failure it adds the answer to j and returns false.
func (d *Daemon) authenticate(j *job, r *route.Result, g *game.Game) (game.Player, bool) {
	if g == nil {
		j.answers = append(j.answers, fmt.Sprintf("There is no game %q here. Send LIST for the open games.", r.Game))
		return game.Player{}, false
	}
	p, ok := g.PlayerByEmail(j.from)
	if !ok {
		j.answers = append(j.answers, fmt.Sprintf("You (%s) are not a player in game %s; nothing was applied.", j.from, g.ID))
		return p, false
	}
	if !d.cfg.NoSecret && r.Secret != p.Secret {
		d.log.Warn("wrong or missing secret", "game", g.ID, "player", p.Name, "from", j.from)
		if r.Secret == "" {
			j.answers = append(j.answers, fmt.Sprintf("Your mail to game %s carries no secret, so nothing was applied. Put it in\nthe subject as [%s YOURSECRET] (replying to our mails does that), or\nwrite a line SECRET YOURSECRET. It is in your welcome mail.", g.ID, g.ID))
		} else {
			j.answers = append(j.answers, fmt.Sprintf("The secret in your mail to game %s is wrong, so nothing was applied.\nIf you did not send this mail, someone is using your address: tell\nthe game master. Your secret is in your welcome mail.", g.ID))
		}
		return p, false
	}
	return p, true
}

// orders submits the mail's orders, recording the message in the same
// transaction.
func (d *Daemon) orders(ctx context.Context, j *job, r *route.Result, g *game.Game) error {
	n := j.parts
	j.parts++
	if text, ok, err := d.part(ctx, j.key, n); err != nil || ok {
		j.answers = append(j.answers, text)
		return err
	}
	p, ok := d.authenticate(j, r, g)
	if !ok {
		return nil
	}
	first := true
	var answer string
	hook := func(tx *bolt.Tx, c *game.Change) error {
		if !first || c.Submit == nil {
			return nil
		}
		first = false
		answer = d.mailer.render().Ack(c.Game, p, c.Submit).Text
		if r.OrdersFrom != "" {
			answer = fmt.Sprintf("(orders read from the attachment %s)\n", r.OrdersFrom) + answer
		}
		return putPart(tx, j.key, n, answer)
	}
	res, err := d.svc.Submit(ctx, game.Input{Game: g.ID, Player: p.Name, Text: r.Orders, Source: "mail", Ref: j.m.MessageID}, hook)
	if err != nil {
		var ue *game.UserError
		if errors.As(err, &ue) {
			j.answers = append(j.answers, ue.Msg)
			return nil
		}
		if res != nil && !first {
			// Applied; a later bot move failed. The answer stands.
			d.log.Error("after submit", "game", g.ID, "err", err)
			j.answers = append(j.answers, answer)
			return nil
		}
		return err
	}
	j.answers = append(j.answers, answer)
	return nil
}

// command runs one command line.
func (d *Daemon) command(ctx context.Context, j *job, r *route.Result, c route.Command, byID map[string]*game.Game) error {
	switch c.Name {
	case route.Help:
		j.answers = append(j.answers, d.help(byID[c.Game]))
	case route.List:
		j.answers = append(j.answers, d.list(byID))
	case route.Rules:
		rs, err := engine.Find(d.svc.Rulesets(), c.Ruleset)
		if err != nil {
			j.answers = append(j.answers, err.Error())
			return nil
		}
		info := rs.Info()
		j.answers = append(j.answers, fmt.Sprintf("RULES %s — %s\n\n%s\n\nORDERS\n%s", info.Name, info.Title, info.Summary, info.OrderHelp))
	case route.Status, route.Board, route.History:
		rr := *r
		rr.Game = c.Game
		p, ok := d.authenticate(j, &rr, byID[c.Game])
		if !ok {
			return nil
		}
		var rep *game.Report
		var err error
		if c.Name == route.History {
			var step uint64
			if c.Turn > 0 {
				step, err = d.svc.StepOfTurn(ctx, c.Game, c.Turn)
			} else {
				step = byID[c.Game].Step
			}
			if err == nil {
				rep, err = d.svc.StepReport(ctx, c.Game, step, p.Name)
			}
		} else {
			rep, err = d.svc.Report(ctx, c.Game, p.Name)
		}
		if err != nil {
			if game.IsUserError(err) {
				j.answers = append(j.answers, err.Error())
				return nil
			}
			return err
		}
		var b strings.Builder
		writeReport(&b, rep)
		j.answers = append(j.answers, strings.TrimRight(b.String(), "\n"))
	case route.Join, route.Resign, route.Wait:
		return d.change(ctx, j, r, c, byID)
	case route.Orders:
		// Marks where orders start; handled with the orders.
	}
	return nil
}

// change runs a command that changes a game, as one recorded part.
func (d *Daemon) change(ctx context.Context, j *job, r *route.Result, c route.Command, byID map[string]*game.Game) error {
	n := j.parts
	j.parts++
	if text, ok, err := d.part(ctx, j.key, n); err != nil || ok {
		j.answers = append(j.answers, text)
		return err
	}
	var answer string
	hook := func(tx *bolt.Tx, ch *game.Change) error {
		if answer == "" {
			return nil
		}
		err := putPart(tx, j.key, n, answer)
		answer = "" // recorded once
		return err
	}
	g := byID[c.Game]
	var err error
	switch c.Name {
	case route.Join:
		if g == nil {
			j.answers = append(j.answers, fmt.Sprintf("There is no game %q here. Send LIST for the open games.", c.Game))
			return nil
		}
		seat := c.Seat
		if seat == "" {
			seat = seatName(j.from)
		}
		answer = fmt.Sprintf("You joined game %s as %s. Your welcome mail, with your secret, comes\nwhen the game starts.", g.ID, seat)
		text := answer
		_, err = d.svc.Join(ctx, g.ID, game.PlayerSpec{Name: seat, Email: j.from}, hook)
		if err == nil {
			j.answers = append(j.answers, text)
		}
	case route.Resign, route.Wait:
		rr := *r
		rr.Game = c.Game
		p, ok := d.authenticate(j, &rr, g)
		if !ok {
			return nil
		}
		if c.Name == route.Resign {
			answer = fmt.Sprintf("You resigned from game %s; your seat plays its defaults from now on.", g.ID)
			text := answer
			if _, _, err = d.svc.Resign(ctx, g.ID, p.Name, hook); err == nil {
				j.answers = append(j.answers, text)
			}
		} else {
			answer = fmt.Sprintf("Game %s will not resolve early this turn; it waits for the deadline.", g.ID)
			text := answer
			if _, _, err = d.svc.Wait(ctx, g.ID, p.Name, hook); err == nil {
				j.answers = append(j.answers, text)
			}
		}
	}
	if err != nil {
		if game.IsUserError(err) {
			j.answers = append(j.answers, err.Error())
			return nil
		}
		return err
	}
	return nil
}

// seatName makes a seat name from an address's local part.
func seatName(addr string) string {
	local, _, _ := strings.Cut(addr, "@")
	var b strings.Builder
	for _, r := range strings.ToLower(local) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9' && b.Len() > 0) {
			b.WriteRune(r)
		}
		if b.Len() >= 16 {
			break
		}
	}
	if b.Len() == 0 {
		return "player"
	}
	return b.String()
}

func (d *Daemon) help(g *game.Game) string {
	var b strings.Builder
	b.WriteString(`This is Orrery, a play-by-email game server. Write one command a line:

  HELP                      this text
  LIST                      open games and rulesets
  RULES <ruleset>           the rules summary and order language
  JOIN <game> [seat-name]   take a seat in a game that is signing up
  STATUS <game>             your current board and who is still to send
  BOARD <game>              the same as STATUS
  HISTORY <game> [turn]     the report of a past turn
  RESIGN <game>             leave a game
  WAIT <game>               ask a game not to resolve early this turn
  ORDERS <game>             everything below this line is orders

A mail about a game carries [game-id secret] in its subject (replying to
our mails keeps it) or the lines GAME <id> and SECRET <secret>; every
other line of it is an order.`)
	if g != nil {
		if rs, err := engine.Find(d.svc.Rulesets(), g.Ruleset); err == nil {
			fmt.Fprintf(&b, "\n\nORDERS IN %s (%s)\n%s", g.ID, rs.Info().Title, rs.Info().OrderHelp)
		}
	}
	return b.String()
}

func (d *Daemon) list(byID map[string]*game.Game) string {
	var b strings.Builder
	var ids []string
	for id, g := range byID {
		if g.Signup {
			ids = append(ids, id)
		}
	}
	sort.Strings(ids)
	b.WriteString("GAMES OPEN FOR JOIN\n")
	if len(ids) == 0 {
		b.WriteString("  none\n")
	}
	for _, id := range ids {
		g := byID[id]
		fmt.Fprintf(&b, "  %-12s %-10s %d of %d seats taken\n", id, g.Ruleset, len(g.Players), g.Seats)
	}
	b.WriteString("\nRULESETS\n")
	for _, rs := range d.svc.Rulesets() {
		info := rs.Info()
		fmt.Fprintf(&b, "  %-10s %s (%d–%d players)\n", info.Name, info.Title, info.MinPlayers, info.MaxPlayers)
	}
	return strings.TrimRight(b.String(), "\n")
}
