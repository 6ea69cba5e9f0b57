package daemon

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"orrery/engine"
	"orrery/engine/game"
	"orrery/engine/lang"
	"orrery/engine/store"
	"orrery/pbem/command"
	"orrery/pbem/imapin"
	"orrery/pbem/inmail"
	"orrery/pbem/outbox"
	"orrery/pbem/policy"
	"orrery/pbem/route"
	"orrery/pbem/settings"
	"orrery/templates"
)

func partKey(key string, n int) []byte { return fmt.Appendf(nil, "%s\x00%04d", key, n) }

// part returns the answer recorded for part n of a message, if that part
// was done before.
func (d *Daemon) part(ctx context.Context, key string, n int) (*section, error) {
	var out *section
	err := d.st.View(ctx, func(tx store.Tx) error {
		mail := tx.Bucket(store.BucketMail)
		if mail == nil || mail.Bucket(BucketParts) == nil {
			return nil
		}
		if v := mail.Bucket(BucketParts).Get(partKey(key, n)); v != nil {
			out = &section{}
			return json.Unmarshal(v, out)
		}
		return nil
	})
	return out, err
}

// newPart numbers the next recorded part of j's mail. done says that an
// earlier try of this very mail recorded it: its answer is j's again
// (a part recorded with no text, as JOIN's and VACATION's, whose answer
// is the engine's notice, adds none), and the caller returns err.
func (d *Daemon) newPart(ctx context.Context, j *job) (n int, done bool, err error) {
	n = j.parts
	j.parts++
	s, err := d.partOf(ctx, j, n)
	if s != nil && s.Text != "" {
		j.answers = append(j.answers, *s)
	}
	return n, err != nil || s != nil, err
}

// doneBefore says whether an earlier try of j's mail did its next part
// (the try crashed after committing it): that part's answer is taken again
// and the part passed over, so nothing is applied twice.
func (d *Daemon) doneBefore(ctx context.Context, j *job) (bool, error) {
	done, err := d.partOf(ctx, j, j.parts)
	if err != nil || done != nil {
		j.parts++
		if done != nil {
			j.answers = append(j.answers, *done)
		}
		return true, err
	}
	return false, nil
}

// partOf is part for j's mail, answered without asking the store when
// j had no parts when its transaction began and has not recorded part n
// since.
func (d *Daemon) partOf(ctx context.Context, j *job, n int) (*section, error) {
	if j.noOldParts && !slices.Contains(j.wrote, n) {
		return nil, nil
	}
	return d.part(ctx, j.key, n)
}

// putPart records part n of j's mail (putPart), and its number.
func (j *job) putPart(tx store.Tx, n int, s section) error {
	j.wrote = append(j.wrote, n)
	return putPart(tx, j.key, n, s)
}

func putPart(tx store.Tx, key string, n int, s section) error {
	b, err := mailBucket(tx, BucketParts)
	if err != nil {
		return err
	}
	data, err := json.Marshal(s)
	if err != nil {
		return err
	}
	return b.Put(partKey(key, n), data)
}

// dropParts forgets the answers of key's done parts once the message is
// recorded as seen: a retry now only files the mail, and a part's answer
// (as large as the answer itself) would otherwise stay for ever.
func dropParts(tx store.Tx, key string) error {
	b, err := mailBucket(tx, BucketParts)
	if err != nil {
		return err
	}
	// The keys first, then the deletes: one walk of the cursor, where
	// a Seek after each delete read the bucket again (on PostgreSQL, a
	// round trip each).
	prefix := []byte(key + "\x00")
	var keys [][]byte
	c := b.Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		keys = append(keys, store.Copy(k))
	}
	for _, k := range keys {
		if err := b.Delete(k); err != nil {
			return err
		}
	}
	return nil
}

// job is one message being handled.
type job struct {
	msg     imapin.Message
	m       *inmail.Message
	key     string
	from    string
	parts   int       // counter of game-changing parts
	answers []section // sections of the reply
	extra   []outbox.Mail
	// noOldParts: the mail had no parts recorded when its batch's
	// transaction began (readAhead), so its parts are those it records
	// in that transaction (wrote, their numbers), and neither partOf nor
	// finish need ask the store for them, on PostgreSQL a round trip
	// each.
	noOldParts bool
	wrote      []int
	// game and player the reply is about, for its thread
	game     *game.Game
	rejected bool // file under Rejected
	why      string
	noReply  bool
	// stranger marks a reply to someone in none of our games who asked
	// nothing we can do (an empty mail, unreadable lines, orders for a
	// game they do not play): such replies are limited to one a day.
	// HELP, LIST, RULES and JOIN are answered like anyone's.
	stranger bool
	isPlayer bool // the sender plays in some game
	// gm marks a mail from the GM's address with the GM secret: its
	// answers are not rate-limited, so a GM mending a game with many
	// commands in an hour is never left without the results.
	gm bool
	// mine are the games the sender plays in.
	mine []string
	// route is what the mail asks for, once read.
	route *route.Result
	// applied counts the parts of the mail that changed a game: a
	// refusal of another part must not say that nothing was applied.
	applied int
	// ignoredShown: the lines not read as orders are already listed in
	// a section of the answer.
	ignoredShown bool
	// held are orders held as a possibly stale copy (stale.go), stored
	// under replyID, the Message-ID of the answer that asks to CONFIRM.
	held    *heldRecord
	replyID string
	shown   *shownStep
	// reader is the sender's language and time zone (their settings);
	// changed lists the settings this mail changed, and showSettings
	// asks for the SETTINGS answer.
	reader       reader
	changed      []string
	showSettings bool
	// replied marks a reply already queued: orders that complete a
	// step are answered before the step's report (see orders).
	replied bool
	// read is when the daemon took the mail up; answered, that its reply
	// was queued (for metrics: observe.go).
	read     time.Time
	answered bool
	// consents are the JOIN and OBSERVE requests the answer asks to
	// confirm (kept by finish when it is sent); consenting is the one
	// being confirmed now (consent.go).
	consents   []consentRecord
	consenting *consentRecord
	// join marks an answer that asks to confirm a JOIN or confirms one:
	// to a stranger, it may draw on the budget kept for JOIN (budget.go).
	join bool
	// aligned: sender authentication found a DKIM signature or SPF pass
	// aligned with the From domain (policy.Verdict.Aligned): the mail is
	// the address's own, as NEW asks (selfservice.go).
	aligned bool
	// verdict is the sender authentication's whole verdict, for PING.
	verdict policy.Verdict
	// refused are the mail's lines not applied so far, and fix those
	// of them with an error (partial); commandsDone, that every command
	// line has run, so that what is left is known.
	refused, fix map[int]bool
	commandsDone bool
	// commit runs in the transaction that records the mail as handled
	// (a bounce counted, an address that works again).
	commit func(tx store.Tx) error
}

// replyPart is the part number that records a reply queued early, so that
// a retry after a crash does not send it twice.
const replyPart = 9999

// readerOf reads addr's settings.
func (d *Daemon) readerOf(ctx context.Context, addr string) reader {
	r := reader{zone: time.UTC}
	d.st.View(ctx, func(tx store.Tx) error {
		r = readerOf(tx, addr)
		return nil
	})
	return r
}

// say renders one section of the reply.
func (d *Daemon) say(j *job, kind string, data *templates.Data) error {
	if j.m != nil && data.Subject == "" {
		data.Subject = j.m.Subject
	}
	var view engine.View
	if data.Report != nil {
		view = data.Report.View
	}
	d.mailer.speak(data, j.reader, view)
	s, err := d.mailer.Render.Render(kind, data)
	if err != nil {
		return fmt.Errorf("render %s: %w", kind, err)
	}
	j.answers = append(j.answers, s)
	return nil
}

// refuse answers with the rejected template and the given errors.
func (d *Daemon) refuse(j *job, g *game.Game, p game.Player, errs ...engine.LineError) error {
	data := d.mailer.data(g, p, d.svc.Rulesets())
	data.Errors = capErrors(errs)
	data.Applied = j.applied > 0
	j.partial(data, errs, false)
	return d.say(j, templates.Rejected, data)
}

// maxIgnored is how many lines not read as orders an answer lists.
const maxIgnored = 10

// withIgnored lists, in the first section that shows orders or refuses
// them, the lines of j's mail not read as orders: the player sees that
// nothing was lost. A report pasted back is one entry.
func (j *job) withIgnored(data *templates.Data) {
	if j.ignoredShown || j.route == nil {
		return
	}
	j.ignoredShown = true
	r := j.route
	data.PastedFrom, data.PastedTo = r.PastedFrom, r.PastedTo
	for _, l := range r.Ignored {
		if r.PastedFrom > 0 && l.N >= r.PastedFrom && l.N <= r.PastedTo {
			continue
		}
		if len(data.Ignored) == maxIgnored {
			data.IgnoredMore++
			continue
		}
		data.Ignored = append(data.Ignored, templates.Line{N: l.N, Text: l.Text})
	}
}

// maxErrors is how many errors one reply lists: a mail of 10,000 bad lines
// must not get a quarter-megabyte answer. The game log keeps as many.
const maxErrors = game.MaxLoggedErrors

// clip cuts s to at most n bytes, on a character boundary.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}

// capErrors keeps the first maxErrors errors and says how many more there
// were, so the player still learns that the rest need fixing too.
func capErrors(errs []engine.LineError) []engine.LineError {
	if len(errs) <= maxErrors {
		return errs
	}
	out := append([]engine.LineError(nil), errs[:maxErrors]...)
	return append(out, engine.LineErr(0, "", lang.MN("and %d more error like these, not listed", "and %d more errors like these, not listed", len(errs)-maxErrors),
		lang.M("fix the lines above and send again: the rest will be checked then")))
}

// handle handles one message, inside a transaction group or not (batch.go);
// the caller holds d.mu.
func (d *Daemon) handle(ctx context.Context, msg imapin.Message) (imapin.Disposition, error) {
	m, perr := inmail.Parse(msg.Raw, inmail.Options{MaxText: d.cfg.MaxText})
	j := &job{msg: msg, m: m, key: messageKey(m, msg.Raw), read: d.cfg.Now()}
	j.noOldParts = noOldParts(ctx, j.key)
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
	j.from = game.CanonAddress(m.From)
	j.reader = d.readerOf(ctx, j.from)
	if isDSN(m.ReportType) {
		// A bounce of our mail: counted, never answered (deliver.go).
		return d.dsn(ctx, j)
	}
	if isComplaint(m.ReportType) {
		// A recipient marked our mail as spam: never answered (complaint.go).
		return d.complaint(ctx, j)
	}
	if why := policy.Silence(m, d.cfg.Policy); why != "" {
		j.rejected, j.noReply, j.why = true, true, why
		d.log.Info("not answering", "from", m.From, "why", why)
		return d.finish(ctx, j)
	}
	v, err := d.checkSender(ctx, msg.Raw, m)
	if err != nil {
		return 0, err // DNS trouble: leave it in the inbox, try later
	}
	j.aligned, j.verdict = v.Aligned, v
	if v.Refuse {
		// A forged sender: answering would be backscatter to the victim.
		j.rejected, j.noReply, j.why = true, true, v.Why
		d.log.Warn("sender not authenticated; nothing applied", "from", m.From, "why", v.Why)
		return d.finish(ctx, j)
	}
	if j.mine, err = d.svc.GamesOf(ctx, j.from); err != nil {
		return 0, err
	}
	j.isPlayer = len(j.mine) > 0
	if err := d.welcomeBack(ctx, j); err != nil {
		return 0, err
	}
	switch {
	case msg.Truncated:
		// Over the reader's size limit: only its header was fetched
		// (imapin.Config.MaxSize). Answered from it, nothing applied.
		j.rejected, j.why = true, fmt.Sprintf("a mail of %d bytes, over the size limit: not read", msg.Size)
		byID := &gameIndex{ctx: ctx, svc: d.svc, seen: map[string]*game.Game{}}
		r := route.Parse(m.Subject, "", nil, route.Options{IsGame: func(id string) bool { return byID.get(id) != nil }})
		data := d.mailer.data(byID.get(r.Game), game.Player{}, nil)
		data.Size, data.Limit, data.Unread = int(msg.Size), d.cfg.MaxMail, true
		err = d.say(j, templates.Oversize, data)
	case m.Oversize:
		j.rejected, j.why = true, "oversize"
		data := d.mailer.data(nil, game.Player{}, nil)
		data.Size, data.Limit = m.Size, d.maxText()
		err = d.say(j, templates.Oversize, data)
	case perr != nil:
		j.rejected, j.why = true, perr.Error()
		// The subject's tag still names the game: keep it on the answer,
		// so the player's client threads it with the game.
		byID := &gameIndex{ctx: ctx, svc: d.svc, seen: map[string]*game.Game{}}
		r := route.Parse(m.Subject, "", nil, route.Options{IsGame: func(id string) bool { return byID.get(id) != nil }})
		err = d.refuse(j, byID.get(r.Game), game.Player{}, engine.LineErr(0, "", lang.M("I could not read the text of your mail, so nothing in it was applied"),
			lang.M("send your orders as plain text in the mail, or attach them as orders.txt")))
	default:
		err = d.apply(ctx, j)
	}
	if err != nil {
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
	if j.game != nil && j.replyID == "" {
		// The answer names the step the game is at now, after the
		// mail: a reply to it is current.
		g := j.game
		if fresh, err := d.svc.Get(ctx, g.ID); err == nil {
			g = fresh
		}
		j.replyID = d.mailer.StepMessageID(g.ID, g.Epoch, g.Step)
	}
	disp := "processed"
	if j.rejected {
		disp = "rejected"
	}
	rec := seenRecord{Key: j.key, UIDValidity: j.msg.UIDValidity, UID: j.msg.UID, At: now, Disposition: disp, Why: clip(j.why, 200)}
	if j.m != nil {
		// Kept for the GM's log: a sender's 100 KB subject need not be.
		rec.From, rec.Subject = clip(j.m.From, 200), clip(j.m.Subject, 200)
	}
	err := d.st.Update(ctx, func(tx store.Tx) error {
		seen, err := mailBucket(tx, BucketSeen)
		if err != nil {
			return err
		}
		if seen.Get([]byte(j.key)) != nil {
			return nil
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
		// A reply queued early, with the orders it answers, before a
		// crash: its record goes with the other parts just below.
		early := false
		if j.noOldParts {
			// Its parts are those it recorded in this transaction.
			early = slices.Contains(j.wrote, replyPart)
			if len(j.wrote) > 0 {
				parts, err := mailBucket(tx, BucketParts)
				if err != nil {
					return err
				}
				for _, n := range j.wrote {
					if err := parts.Delete(partKey(j.key, n)); err != nil {
						return err
					}
				}
			}
		} else {
			if mail := tx.Bucket(store.BucketMail); mail != nil && mail.Bucket(BucketParts) != nil {
				early = mail.Bucket(BucketParts).Get(partKey(j.key, replyPart)) != nil
			}
			if err := dropParts(tx, j.key); err != nil {
				return err
			}
		}
		if j.commit != nil {
			if err := j.commit(tx); err != nil {
				return err
			}
		}
		for _, x := range j.extra {
			if ok, err := d.allow(tx, x.To[0], now); err != nil || !ok {
				if err != nil {
					return err
				}
				continue
			}
			if err := d.mailer.enqueue(tx, x); err != nil {
				return err
			}
		}
		if j.replied || j.noReply || len(j.answers) == 0 || j.from == "" {
			return nil
		}
		if early {
			return nil // queued before a crash, with the orders it answers
		}
		return d.queueReply(tx, j, now)
	})
	if err != nil {
		return 0, fmt.Errorf("record message: %w", err)
	}
	d.observe(j)
	if j.rejected {
		return imapin.Rejected, nil
	}
	return imapin.Processed, nil
}

// queueReply queues the reply to j's mail in tx, within the limits on
// replies (rate, strangers, ping-pong).
func (d *Daemon) queueReply(tx store.Tx, j *job, now time.Time) error {
	{
		out := d.reply(j)
		send := func() error { // observe.go counts it
			if err := keepConsents(tx, j); err != nil {
				return err
			}
			j.answered = true
			return d.mailer.enqueue(tx, out)
		}
		if j.held != nil {
			// The orders wait under this answer's Message-ID for a
			// CONFIRM; the answer goes whatever the rate limits, or
			// they would be held without the player knowing.
			b, err := mailBucket(tx, BucketHeld)
			if err != nil {
				return err
			}
			data, _ := json.Marshal(j.held)
			if err := b.Put([]byte(strings.ToLower(j.replyID)), data); err != nil {
				return err
			}
			return send()
		}
		if j.gm {
			return send()
		}
		if said := j.m.Text + j.m.Body; j.applied == 0 && said != "" {
			// (A mail we could not read at all is not counted: there is
			// no text to tell one such mail from another.)
			if ok, err := d.pingPong(tx, j.from, j.m.Subject, said, now); err != nil || !ok {
				if err == nil {
					d.log.Warn("the same mail answered too often within an hour with nothing changed: not answering (an autoresponder?)", "to", j.from)
				}
				return err
			}
		}
		// The GM (the GM address with the GM secret) plays no seat but is
		// no stranger: the whole HELP, GM verbs and all, and no budget.
		if !j.isPlayer && !(j.route != nil && d.isGM(j, j.route.Secret)) {
			if j.stranger {
				if d.cfg.Strangers == "none" {
					return nil
				}
				if ok, err := d.strangerAllowed(tx, d.person(j.from), now); err != nil || !ok {
					return err
				}
			}
			// A stranger's +tags are one person: eve+1@ … eve+200@
			// share eve@'s budget; a domain's addresses share its own.
			if why, err := d.strangerBudget(tx, d.person(j.from), j.join, now); err != nil || why != "" {
				if err == nil {
					d.log.Warn("not answering a stranger", "to", j.from, "why", why)
				}
				return err
			}
			out = d.capStranger(out)
		}
		out = d.capReply(out)
		if ok, err := d.allow(tx, j.from, now); err != nil || !ok {
			if err == nil {
				d.log.Warn("rate limit: not answering", "to", j.from)
			}
			return err
		}
		return send()
	}
}

// reply builds the answer to j's mail, threaded under it (and under the
// game, when it is about one).
func (d *Daemon) reply(j *job) outbox.Mail {
	c := merge(j.answers)
	// Only ids fit to be written back count; the thread's root and the
	// latest 19 are kept (RFC 5322 3.6.4 lets a reply trim the middle).
	refs := outbox.CleanIDs(j.m.References)
	if j.game != nil {
		if root := d.mailer.RootID(j.game.ID); !contains(refs, root) {
			refs = append([]string{root}, refs...)
		}
	}
	if j.m.MessageID != "" && !contains(refs, j.m.MessageID) {
		refs = append(refs, j.m.MessageID)
	}
	refs = outbox.CleanIDs(refs)
	if len(refs) > 20 {
		refs = append(refs[:1], refs[len(refs)-19:]...)
	}
	out := outbox.Mail{To: []string{j.from}, Subject: c.Subject, Text: c.Text, HTML: c.HTML,
		InReplyTo: j.m.MessageID, References: refs, Auto: "auto-replied", Kind: "reply", MessageID: j.replyID, Received: j.read}
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
func (d *Daemon) allow(tx store.Tx, addr string, now time.Time) (bool, error) {
	addr = game.CanonAddress(addr)
	b, err := mailBucket(tx, BucketLimits)
	if err != nil {
		return false, err
	}
	times := withinHour(rateTimes(b.Get(addrKey(addr))), now)
	if len(times) >= d.cfg.RepliesPerHour {
		return false, nil
	}
	return true, b.Put(addrKey(addr), rateRecord(append(times, now)))
}

// strangerAllowed lets one reply a day go to an address in no game.
func (d *Daemon) strangerAllowed(tx store.Tx, addr string, now time.Time) (bool, error) {
	b, err := mailBucket(tx, BucketUnknown)
	if err != nil {
		return false, err
	}
	if v := b.Get(addrKey(addr)); v != nil {
		if t, err := time.Parse(time.RFC3339, string(v)); err == nil && now.Sub(t) < 24*time.Hour {
			return false, nil
		}
	}
	return true, b.Put(addrKey(addr), []byte(now.UTC().Format(time.RFC3339)))
}

// routeOptions reads subject tags against the games that exist, and the
// lines of a game's mail with its ruleset's order words.
func (d *Daemon) routeOptions(byID *gameIndex) route.Options {
	return route.Options{
		IsGame: func(id string) bool { return byID.get(id) != nil },
		IsRuleset: func(name string) bool {
			_, err := engine.Find(d.svc.Rulesets(), name)
			return err == nil
		},
		Classifier: func(id string) *route.Classifier {
			if g := byID.get(id); g != nil {
				return d.words.forRuleset(g.Ruleset)
			}
			return d.words.all
		},
	}
}

// apply routes j's mail and runs what it asks.
func (d *Daemon) apply(ctx context.Context, j *job) error {
	// Games are read one by one as the mail names them, and the address
	// index says whether the sender plays anywhere: reading every game for
	// every mail cost a quarter of a second and 46 MB at 10,000 games.
	if tok := unsubSubject(j.m.Subject); tok != "" {
		return d.unsubscribeByMail(ctx, j, tok)
	}
	byID := &gameIndex{ctx: ctx, svc: d.svc, seen: map[string]*game.Game{}}
	r := route.Route(j.m, d.routeOptions(byID))
	j.route = r
	j.game = byID.get(r.Game)
	d.untagged(j, byID, r)
	if len(r.Errors) > 0 {
		// A mail with errors of its own (two games, a bad command line,
		// orders naming no game) is refused whole, before anything in
		// it is submitted: what it meant is unclear, and a partial
		// answer would contradict itself.
		j.stranger = !j.isPlayer && len(r.Commands) == 0
		data := d.mailer.data(j.game, game.Player{}, d.svc.Rulesets())
		data.Errors = capErrors(r.Errors)
		j.withIgnored(data)
		return d.say(j, templates.Rejected, data)
	}
	if r.Empty() && r.Game != "" && j.game != nil {
		// A game mail with nothing in it is empty orders (a reply whose
		// sender deleted the quote): a pass where the rules allow one,
		// else an error that says what is asked. Answering HELP instead
		// would leave the prompt open and the game waiting.
		return d.orders(ctx, j, r, j.game)
	}
	if !r.HasOrders && len(r.Commands) == 0 && len(r.Ignored) > 0 && j.game != nil {
		// Only chatter (or an out-of-office that kept our subject): no
		// pass is taken for it, and the player sees what was not read.
		// Anyone else gets what any stranger gets.
		p, ok, err := d.authenticate(ctx, j, j.game, r.Game, r.Secret)
		if !ok || err != nil {
			return err
		}
		data := d.mailer.data(j.game, p, d.svc.Rulesets())
		data.Errors = []engine.LineError{engine.LineErr(0, "", lang.M("I found no orders in your mail, so nothing was applied"),
			lang.M("write one order a line, as in the order language of your welcome mail (HELP %s)", j.game.Ruleset))}
		j.withIgnored(data)
		return d.say(j, templates.Rejected, data)
	}
	if r.Empty() || !r.HasOrders && len(r.Commands) == 0 {
		j.stranger = !j.isPlayer
		return d.help(j, j.game)
	}
	cmds, dropped := d.limitCommands(j, r)
	for _, c := range cmds {
		// A mail that sets its sender's language is answered in it
		// throughout: the parts above the SET LANG line, worded in the
		// old language, made one answer in two.
		if c.Name == command.Set && c.Verb == settings.Lang {
			if t, ok := lang.Parse(c.Text); ok {
				j.reader.lang = t
			}
		}
	}
	for _, c := range cmds {
		if err := d.command(ctx, j, r, c, byID); err != nil {
			return err
		}
	}
	j.commandsDone = true
	if j.showSettings {
		if err := d.settingsAnswer(ctx, j); err != nil {
			return err
		}
	}
	if t := aheadTurn(r); r.HasOrders && r.Game != "" && t != 0 && !previewsOrders(r) {
		// ORDERS game TURN n: held for that turn (ahead.go).
		if err := d.holdAhead(ctx, j, r, byID.get(r.Game), t); err != nil {
			return err
		}
	} else if r.HasOrders && r.Game != "" && !previewsOrders(r) {
		if err := d.orders(ctx, j, r, byID.get(r.Game)); err != nil {
			return err
		}
	}
	if len(dropped) > 0 {
		// Said last, so that it knows whether anything was applied.
		return d.refuse(j, j.game, game.Player{}, dropped...)
	}
	return nil
}

// maxOrderLines is the most lines of orders one mail may hold.
const maxOrderLines = 1000

// maxCommands is how many commands that change a game one mail may hold
// (the GM's aside): each is a transaction and may mail every player.
const maxCommands = 10

// limitCommands bounds the work one mail asks for: a command repeated
// word for word is done once; at most Config.ReadsPerMail commands of
// pbem/command's Reads class (HELP, LIST, RULES, STATUS, BOARD, HISTORY,
// RESEND: TestReadLimitNamesTheReads keeps the answer's list of them
// true) and at most maxCommands of its Changes class. RESEND × 500 in one mail held the daemon for minutes and made
// a 4.5 MB answer, and every other player's mail waited behind it. What
// is left out is listed in the answer, a line each. The GM's mail is not
// limited.
func (d *Daemon) limitCommands(j *job, r *route.Result) (kept []route.Command, dropped []engine.LineError) {
	if d.isGM(j, r.Secret) {
		return r.Commands, nil
	}
	reads, seen := map[string]bool{}, map[string]bool{}
	changes := 0
	for _, c := range r.Commands {
		same := c
		same.Line = 0
		if k := fmt.Sprintf("%+v", same); seen[k] {
			continue // the same command again: done once
		} else {
			seen[k] = true
		}
		switch desc := command.Of(c); desc.Limit {
		case command.Reads:
			name := c.Name
			if desc.Asks != "" {
				name = desc.Asks // BOARD asks what STATUS does
			}
			key := fmt.Sprint(name, c.Game, c.Ruleset, c.Turn, c.Page)
			if reads[key] {
				continue // the same question again: answered once
			}
			if len(reads) >= d.cfg.ReadsPerMail {
				dropped = append(dropped, engine.LineErr(c.Line, strings.TrimSpace(string(c.Name)+" "+c.Game),
					lang.MN("not answered: one mail gets at most %d answer to HELP, LIST, RULES, STATUS, BOARD, HISTORY and RESEND",
						"not answered: one mail gets at most %d answers to HELP, LIST, RULES, STATUS, BOARD, HISTORY and RESEND", d.cfg.ReadsPerMail),
					lang.M("ask for it in another mail")))
				continue
			}
			reads[key] = true
		case command.Unlimited:
		default: // command.Changes
			if changes >= maxCommands {
				dropped = append(dropped, engine.LineErr(c.Line, strings.TrimSpace(string(c.Name)+" "+c.Game),
					lang.M("not done: one mail may hold at most %d commands", maxCommands),
					lang.M("send the rest in another mail")))
				continue
			}
			changes++
		}
		kept = append(kept, c)
	}
	return kept, dropped
}

// authenticate checks that the sender may act for a seat of g. On failure
// it adds the answer (and any warning to the seat's owner) to j. It reads
// the owner's language with ctx, in the batch's transaction: a second
// transaction opened beside it would not see the batch's changes, and
// is refused once the store is closing.
func (d *Daemon) authenticate(ctx context.Context, j *job, g *game.Game, gameID, secret string) (game.Player, bool, error) {
	if g == nil {
		return game.Player{}, false, d.refuse(j, nil, game.Player{}, engine.LineErr(0, "",
			lang.M("there is no game %q here", gameID), lang.M("send LIST for the games you can join")))
	}
	a := policy.Authenticate(g, j.from, secret, d.relax(g.ID))
	if a.Kind != policy.Accepted && game.MayReturn(g, j.from, secret) {
		// The player the bot took the seat from writes again, with
		// their secret, within the return window: the seat is theirs
		// again (engine/game returns.go), and this mail counts.
		if _, _, err := d.svc.ReturnSeat(ctx, g.ID, j.from, secret); err != nil {
			return game.Player{}, false, err
		}
		fresh, err := d.svc.Get(ctx, g.ID)
		if err != nil {
			return game.Player{}, false, err
		}
		*g = *fresh
		a = policy.Authenticate(g, j.from, secret, d.relax(g.ID))
	}
	if a.Kind == policy.Accepted {
		return a.Player, true, nil
	}
	d.log.Warn("not authenticated", "game", g.ID, "from", j.from, "why", a.Kind)
	if a.Notify && a.Player.Email != "" && !game.SameAddress(a.Player.Email, j.from) {
		data := d.mailer.data(g, a.Player, d.svc.Rulesets())
		data.Attempt = &templates.Attempt{Date: j.m.Date, Reason: a.Kind.String()}
		d.mailer.speak(data, d.readerOf(ctx, a.Player.Email), nil)
		c, err := d.mailer.Render.Render(templates.OwnerWarning, data)
		if err != nil {
			return game.Player{}, false, err
		}
		j.extra = append(j.extra, d.mailer.gameMail(g, a.Player.Email, "warning", c))
	}
	anon := game.Player{}
	switch a.Kind {
	case policy.MissingSecret:
		return a.Player, false, d.say(j, templates.MissingSecret, d.mailer.data(g, anon, d.svc.Rulesets()))
	case policy.WrongSecret:
		data := d.mailer.data(g, anon, d.svc.Rulesets())
		data.Player = a.Player.Name
		data.Attempt = &templates.Attempt{Date: j.m.Date, Reason: a.Kind.String()}
		if j.route != nil && strings.HasPrefix(j.route.SecretFrom, "line") {
			data.Attempt.Said = secret // a line SECRET <word>, read as a secret: say so
		}
		return a.Player, false, d.say(j, templates.WrongSecret, data)
	default: // unknown sender, or someone's secret from a foreign address
		if seat, h, next, ok := game.FormerHolding(g, j.from); ok && a.Kind == policy.Unknown {
			// A player whose seat went to someone else: say so, when
			// and why (engine/game returns.go).
			return game.Player{}, false, d.refuse(j, g, game.Player{}, engine.LineErr(0, "", game.PassedMsg(g, seat, h, next),
				lang.M("write to the GM if you would like to play again")))
		}
		j.stranger = j.stranger || !j.isPlayer
		return game.Player{}, false, d.say(j, templates.UnknownSender, d.mailer.data(g, anon, d.svc.Rulesets()))
	}
}

// relax is how much sender authentication is loosened for game id.
func (d *Daemon) relax(id string) policy.Relax {
	relax := d.cfg.Relax
	if r, ok := d.cfg.RelaxGames[id]; ok {
		relax.NoSecret = relax.NoSecret || r.NoSecret
		relax.AnyAddress = relax.AnyAddress || r.AnyAddress
	}
	return relax
}

// orders submits the mail's orders, or holds them when the mail looks
// like a stale copy (stale.go); the answer is recorded in the same
// transaction as the orders.
func (d *Daemon) orders(ctx context.Context, j *job, r *route.Result, g *game.Game) error {
	if again, err := d.doneBefore(ctx, j); again || err != nil {
		return err
	}
	p, ok, err := d.authenticate(ctx, j, g, r.Game, r.Secret)
	if !ok || err != nil {
		return err
	}
	if n := len(r.OrderLines); n > maxOrderLines {
		// No ruleset's orders run to this many lines: not worth the
		// ruleset's time (80,000 bad lines took a third of a second of
		// CPU, twice, while every other mail waited), nor a log entry.
		return d.refuse(j, g, p, engine.LineErr(r.OrderLines[maxOrderLines].N, r.OrderLines[maxOrderLines].Text,
			lang.M("your mail holds %d lines of orders; I read at most %d in one mail, so I read none of them", n, maxOrderLines),
			lang.M("send only your orders for this turn, one a line")))
	}
	if r.HasOrders {
		reason, err := d.staleReason(ctx, j, g, p, r.Orders)
		if err != nil {
			return err
		}
		if reason != "" {
			// Held, the mail still says its player is there: the
			// step's defaults are then no miss (engine/game).
			if err := d.svc.SignOfLife(ctx, g.ID, p.Name); err != nil {
				return err
			}
			return d.hold(j, g, p, r, reason)
		}
	}
	lineOf := r.Line
	if r.OrdersFrom != "" {
		lineOf = nil
	}
	var shown *shownStep
	if e, s, ok := StepShown(j.m, g.ID, d.mailer.domain()); ok && r.HasOrders {
		shown = &shownStep{epoch: e, step: s}
	}
	text := r.Orders
	return d.submit(ctx, j, g, p, text, lineOf, func(tx store.Tx) error {
		if shown == nil {
			return nil
		}
		// A copy of these orders answering the same step is held.
		b, err := mailBucket(tx, BucketApplied)
		if err != nil {
			return err
		}
		return b.Put(appliedKey(g.ID, p.Name, shown.epoch, shown.step, ordersHash(text)), []byte(d.cfg.Now().UTC().Format(time.RFC3339)))
	})
}

// submit submits text as p's orders in g, as one recorded part of j's
// mail. lineOf maps a line of text to the line of the mail (nil: the
// same); onAccept runs in the submission's transaction when the orders
// are accepted.
func (d *Daemon) submit(ctx context.Context, j *job, g *game.Game, p game.Player, text string, lineOf func(int) int, onAccept func(tx store.Tx) error) error {
	n, done, err := d.newPart(ctx, j)
	if done {
		return err
	}
	// first makes the hook answer the submission only, not a bot's move
	// after it; committed says the submission's transaction committed.
	// A hook that ran is not enough: the commit can still fail (a full
	// disk), and then "Orders received" would go out for orders that are
	// not in the game.
	first, committed, accepted := true, false, false
	var answer section
	hook := func(tx store.Tx, c *game.Change) error {
		if !first || c.Submit == nil {
			return nil
		}
		first = false
		tx.OnCommit(func() { committed = true })
		res := c.Submit
		if res.Accepted {
			// A game's own language order (Burning's LANG) sets the
			// address's language too, before the answer is worded.
			if err := d.languageOrders(tx, j, c.Game, p, res.Orders); err != nil {
				return err
			}
		}
		data := d.mailer.data(c.Game, p, d.svc.Rulesets())
		data.Prompt = res.Prompt
		kind := templates.Ack
		if res.Accepted {
			accepted = true
			data.Orders, data.Replaced, data.Anytime = res.Orders, res.Replaced, res.Anytime
			data.Receipt = res.Receipt
			// These orders completed the step: the ack says so and goes
			// out now, in this transaction, before the step's report
			// that the mailer's hook queues after it.
			// Any-time orders resolve a step of their own, which
			// completes no one's turn: their ack says so instead.
			data.StepDone = len(c.Steps) > 0 && res.Prompt.Kind.Blocks()
			if onAccept != nil {
				if err := onAccept(tx); err != nil {
					return err
				}
			}
		} else {
			errs := append([]engine.LineError(nil), res.Errors...)
			for i := range errs {
				if lineOf != nil && errs[i].Line > 0 {
					errs[i].Line = lineOf(errs[i].Line)
				}
			}
			kind, data.Errors = templates.Rejected, capErrors(errs)
			data.Applied = j.applied > 0
			j.partial(data, errs, lineOf != nil)
		}
		j.withIgnored(data)
		if data.Subject == "" {
			data.Subject = j.m.Subject
		}
		d.mailer.speak(data, j.reader, nil)
		s, err := d.mailer.Render.Render(kind, data)
		if err != nil {
			return err
		}
		answer = s
		if err := j.putPart(tx, n, s); err != nil {
			return err
		}
		if !data.StepDone {
			return nil
		}
		j.answers = append(j.answers, s)
		if j.applied == 0 {
			j.applied = 1 // these orders are applied: the reply says so
		}
		if err := d.queueReply(tx, j, d.cfg.Now()); err != nil {
			return err
		}
		j.replied = true
		return j.putPart(tx, replyPart, section{Subject: "queued with the orders"})
	}
	in := game.Input{Game: g.ID, Player: p.Name, Text: text, Source: "mail", Ref: j.m.MessageID}
	if in.Prompt, err = d.anytimePrompt(ctx, g, in); err != nil {
		return err
	}
	_, err = d.svc.Submit(ctx, in, hook)
	switch {
	case err == nil:
	case committed:
		// The orders were applied; a bot's move after them failed.
		d.log.Error("after the submission", "game", g.ID, "err", err)
	case game.IsUserError(err):
		return d.refuse(j, g, p, userLineErr(0, "", err))
	default:
		return err
	}
	if accepted && committed {
		j.applied++
	}
	if !j.replied {
		j.answers = append(j.answers, answer)
	}
	return nil
}

// command runs one command line by its descriptor's runner (run.go).
func (d *Daemon) command(ctx context.Context, j *job, r *route.Result, c route.Command, byID *gameIndex) error {
	run, ok := runners[command.Of(c)]
	if !ok {
		return fmt.Errorf("command %s has no runner in pbem/daemon (run.go)", c.Name)
	}
	return run(d, ctx, j, r, c, byID)
}

func (d *Daemon) help(j *job, g *game.Game) error {
	data := d.helpData(j)
	if g != nil {
		if rs, err := engine.Find(d.svc.Rulesets(), g.Ruleset); err == nil {
			info := rs.Info()
			data.Info = &info
		}
	}
	return d.say(j, templates.Help, data)
}

// helpData is what every HELP reply starts from: the GM's commands are
// listed only to the GM (the GM address with the GM secret, as isGM
// decides for GM commands), so that a player's HELP lists what a player
// may send.
func (d *Daemon) helpData(j *job) *templates.Data {
	data := d.mailer.data(nil, game.Player{}, nil)
	data.GM = j.route != nil && d.isGM(j, j.route.Secret)
	return data
}

// change runs a command that changes a game, as one recorded part; what
// each does is its changer (run.go).
func (d *Daemon) change(ctx context.Context, j *job, r *route.Result, c route.Command, byID *gameIndex) error {
	ch, ok := changers[command.Of(c)]
	if !ok {
		return fmt.Errorf("command %s has no changer in pbem/daemon (run.go)", c.Name)
	}
	if ch.consentable != nil && j.consenting == nil {
		// Nobody's address is put on a game's list without its consent
		// (consent.go): asking changes nothing, so it is not a part.
		g := byID.get(c.Game)
		if g == nil {
			return d.refuse(j, nil, game.Player{}, engine.LineErr(c.Line, "",
				lang.M("there is no game %q here", c.Game), lang.M("send LIST for the games you can join")))
		}
		// A reply to an invitation is its consent (consent.go).
		if rec, err := d.invitedJoin(ctx, j, c); err != nil || rec != nil {
			if err != nil {
				return err
			}
			return d.joinInvited(ctx, j, r, c, *rec, byID)
		}
		return d.askConsent(j, c, g)
	}
	n, done, err := d.newPart(ctx, j)
	if done {
		return err
	}
	x := &changeCall{d: d, ctx: ctx, j: j, c: c, g: byID.get(c.Game)}
	g := x.g
	if ch.seat {
		var ok bool
		var err error
		if x.p, ok, err = d.authenticate(ctx, j, g, c.Game, r.Secret); !ok || err != nil {
			return err
		}
	} else if g == nil {
		return d.refuse(j, nil, game.Player{}, engine.LineErr(c.Line, "", lang.M("there is no game %q here", c.Game), ch.noGame))
	} else if ch.admit != nil {
		if msg, fix := ch.admit(g); !msg.IsZero() {
			return d.refuse(j, g, game.Player{}, engine.LineErr(c.Line, "", msg, fix))
		}
	}
	if ch.consentable != nil {
		if msg, fix := ch.consentable(d, g, j.consenting.Person); !msg.IsZero() {
			text := "CONFIRM"
			if j.consenting.Invited {
				text = "" // the JOIN line itself
			}
			return d.refuse(j, g, game.Player{}, engine.LineErr(c.Line, text, msg, fix))
		}
	}
	kind := ch.notice
	if kind == "" {
		kind = strings.ToLower(string(c.Name))
	}
	x.note = func(gg *game.Game, m lang.Msg) error {
		data := d.mailer.data(gg, x.p, d.svc.Rulesets())
		data.Notice = &game.Notice{Kind: kind}
		data.Notice.Tell(m)
		d.mailer.speak(data, j.reader, nil)
		s, err := d.mailer.Render.Render(templates.Notice, data)
		x.answer = &s
		return err
	}
	recorded := false
	consent := j.consenting
	x.hook = func(tx store.Tx, _ *game.Change) error {
		if recorded || x.answer == nil {
			return nil
		}
		recorded = true
		if consent != nil && !consent.Invited {
			// Confirmed once: the code is spent with the change (an
			// invitation is kept, for a retry: consent.go).
			if err := dropConsent(tx, *consent); err != nil {
				return err
			}
		}
		return j.putPart(tx, n, *x.answer)
	}
	err = ch.do(x)
	var over *pressOver
	if errors.As(err, &over) {
		return d.refuse(j, g, x.p, over.lineError(c.Line, g.ID))
	}
	if err != nil {
		if game.IsUserError(err) {
			return d.refuse(j, g, x.p, userLineErr(c.Line, "", err))
		}
		return err
	}
	j.applied++
	if x.answer.Text != "" {
		j.answers = append(j.answers, *x.answer)
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

// gameIndex reads games by id as a mail names them, once per mail.
type gameIndex struct {
	ctx  context.Context
	svc  *game.Service
	seen map[string]*game.Game
}

// get returns the game id, or nil if there is none.
func (x *gameIndex) get(id string) *game.Game {
	if id == "" {
		return nil
	}
	if g, ok := x.seen[id]; ok {
		return g
	}
	g, err := x.svc.Get(x.ctx, id)
	if err != nil {
		g = nil
	}
	x.seen[id] = g
	return g
}
