package daemon

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"orrery/engine"
	"orrery/engine/lang"
	"orrery/engine/store"
	"orrery/pbem/inmail"
	"orrery/pbem/outbox"
	"orrery/pbem/policy"
	"orrery/templates"
)

// # No amplification
//
// The bot must never send more than it is sent, nor keep a conversation
// with a machine going:
//   - A reply to a stranger (an address in none of our games, not the GM)
//     is text only and at most strangerMax bytes; one person (an address,
//     its +tags aside) gets at most Config.StrangerDaily of them a day,
//     one sending domain (its organisational domain: a.evil.example and
//     b.evil.example are evil.example) at most Config.StrangerDomain, and
//     all strangers together Config.StrangerGlobal. Config.StrangerReserve
//     of the global budget is kept for JOIN: the answer that asks a
//     newcomer to confirm a JOIN may draw on it once the rest is spent
//     (the answer to the confirmation is a player's), nothing else may,
//     and one domain takes at most its share of it too. 600 OBSERVE mails
//     from 600 addresses of one catch-all domain spent every stranger's
//     day (issue 39); now they spend that domain's, and a newcomer's JOIN
//     is answered still.
//   - NEW and INVITE by mail count against their sender's day
//     (Config.NewPerDay games opened, Config.InvitesPerDay addresses
//     invited, in any 24 hours), and NEW needs the secret of a seat the
//     sender holds or a mail DMARC vouches for (selfservice.go).
//   - An address that gets Config.PingPong answers within an hour to
//     mails with the same subject and the same text (quotes aside), none
//     of which changed anything, gets no more: an out-of-office without
//     the headers that say so stops after three. A person who tries
//     again writes something else, and is answered.
//   - Everyone's answers are capped by Config.RepliesPerHour.

// strangerMax is the largest reply a stranger gets, in bytes of text.
const strangerMax = 4096

type budgetRecord struct {
	Day string `json:"day"` // UTC date, 2006-01-02
	N   int    `json:"n"`
}

// The keys of BucketBudget besides a person's own: what all strangers
// and what each domain spent of the general budget, and of the reserve
// (budgetRecord); the times of a person's NEW and INVITE (a JSON list).
const (
	budgetAll        = "\x00all"
	budgetReserve    = "\x00reserve"
	budgetDomain     = "\x00d\x00"
	budgetDomainRsv  = "\x00r\x00"
	budgetNewGames   = "\x00new\x00"
	budgetInvitation = "\x00invite\x00"
)

// orgDomain is the organisational domain of addr's domain (its public
// suffix and one label more): the unit one owner controls, so that a
// catch-all domain's thousand addresses, or its thousand subdomains,
// share one budget: policy.OrgDomain, as DMARC alignment reads it.
func orgDomain(addr string) string {
	d := addr[strings.LastIndexByte(addr, '@')+1:]
	d = strings.TrimSuffix(strings.ToLower(d), ".")
	return policy.OrgDomain(d)
}

// reserveShare is how much of the reserve one domain may take: the share
// of the whole that it may take of the rest, and at least one.
func (d *Daemon) reserveShare() int {
	return max(1, d.cfg.StrangerReserve*d.cfg.StrangerDomain/d.cfg.StrangerGlobal)
}

// strangerBudget counts one reply to stranger person against today's
// budgets of that person, of their domain and of every stranger together;
// join marks an answer about a JOIN, which may draw on the reserve. It
// returns why not ("" when the reply may go), for the log.
func (d *Daemon) strangerBudget(tx store.Tx, person string, join bool, now time.Time) (string, error) {
	b, err := mailBucket(tx, BucketBudget)
	if err != nil {
		return "", err
	}
	day := now.UTC().Format("2006-01-02")
	read := func(key string) budgetRecord {
		var r budgetRecord
		if v := b.Get(addrKey(key)); v != nil {
			json.Unmarshal(v, &r)
		}
		if r.Day != day {
			r = budgetRecord{Day: day}
		}
		return r
	}
	dom := orgDomain(person)
	if read(person).N >= d.cfg.StrangerDaily {
		return "this address's daily budget of replies to strangers is spent", nil
	}
	var spend []string
	general := d.cfg.StrangerGlobal - d.cfg.StrangerReserve
	switch all, share := read(budgetAll), read(budgetDomain+dom); {
	case all.N < general && share.N < d.cfg.StrangerDomain:
		spend = []string{budgetAll, budgetDomain + dom}
	case !join && all.N >= general:
		return "the daily budget of replies to all strangers is spent (what is left is kept for JOIN)", nil
	case !join:
		return "the daily budget of replies to strangers of " + dom + " is spent", nil
	case read(budgetReserve).N >= d.cfg.StrangerReserve:
		return "the daily budget of replies to strangers is spent, the part kept for JOIN too", nil
	case read(budgetDomainRsv+dom).N >= d.reserveShare():
		return "the daily budget of replies to strangers of " + dom + " is spent, its share of the part kept for JOIN too", nil
	default:
		spend = []string{budgetReserve, budgetDomainRsv + dom}
	}
	for _, key := range append(spend, person) {
		r := read(key)
		r.N++
		data, _ := json.Marshal(r)
		if err := b.Put(addrKey(key), data); err != nil {
			return "", err
		}
	}
	return "", nil
}

// creatorOver is the refusal of a NEW or an INVITE over its sender's
// daily budget: what the limit is, and when there is room again (zero:
// never, the request alone being over the limit).
type creatorOver struct {
	kind  string // "new" or "invite"
	limit int
	next  time.Time
}

func (e *creatorOver) Error() string {
	return fmt.Sprintf("%s budget of %d a day spent until %s", e.kind, e.limit, e.next.Format(time.RFC3339))
}

// lineError words the refusal for the sender.
func (e *creatorOver) lineError(line int, text string) engine.LineError {
	var msg lang.Msg
	switch {
	case e.kind == "new":
		msg = lang.MN("you have opened %d game by mail within a day, the most one player may here",
			"you have opened %d games by mail within a day, the most one player may here", e.limit)
	case e.next.IsZero():
		return engine.LineErr(line, text, lang.MN(
			"one player may invite at most %d address a day, and this INVITE names more new ones",
			"one player may invite at most %d addresses a day, and this INVITE names more new ones", e.limit),
			lang.M("invite fewer at once"))
	default:
		msg = lang.MN("one player may invite at most %d address within a day, and this INVITE would pass that",
			"one player may invite at most %d addresses within a day, and this INVITE would pass that", e.limit)
	}
	return engine.LineErr(line, text, msg, lang.M("you can try again after %s", e.next.UTC()))
}

// creatorBudget counts n more of kind (games opened, addresses invited)
// against person's budget of limit in any 24 hours, in the transaction
// that does them, as a hook: over it, it fails with *creatorOver and the
// transaction, game and mails with it, is undone. (In a batch's shared
// transaction that spoils the batch, which is then done again with this
// mail alone: creatorRoom asks first, so that only a race gets here.)
func (d *Daemon) creatorBudget(tx store.Tx, kind, person string, n, limit int) error {
	b, err := mailBucket(tx, BucketBudget)
	if err != nil {
		return err
	}
	kept, err := d.creatorCount(b, kind, person, n, limit)
	if err != nil {
		return err
	}
	for range n {
		kept = append(kept, d.cfg.Now().UTC())
	}
	data, err := json.Marshal(kept)
	if err != nil {
		return err
	}
	return b.Put(creatorKey(kind, person), data)
}

// creatorRoom says whether person's budget of kind has room for n more
// (nil), before anything is written.
func (d *Daemon) creatorRoom(ctx context.Context, kind, person string, n, limit int) (*creatorOver, error) {
	var err error
	verr := d.st.View(ctx, func(tx store.Tx) error {
		if b := mailBucketRO(tx, BucketBudget); b != nil {
			_, err = d.creatorCount(b, kind, person, n, limit)
		} else if n > limit {
			err = &creatorOver{kind: kind, limit: limit}
		}
		return nil
	})
	var over *creatorOver
	if errors.As(err, &over) {
		return over, verr
	}
	if verr != nil {
		return nil, verr
	}
	return nil, err
}

func creatorKey(kind, person string) []byte {
	return addrKey(map[string]string{"new": budgetNewGames, "invite": budgetInvitation}[kind] + person)
}

// creatorCount returns the times of person's kind within the last 24
// hours, or *creatorOver when n more would not fit in limit.
func (d *Daemon) creatorCount(b store.Bucket, kind, person string, n, limit int) ([]time.Time, error) {
	now := d.cfg.Now().UTC()
	var times []time.Time
	if v := b.Get(creatorKey(kind, person)); v != nil {
		if err := json.Unmarshal(v, &times); err != nil {
			return nil, fmt.Errorf("%s budget of %s: %w", kind, person, err)
		}
	}
	var kept []time.Time
	for _, t := range times {
		if now.Sub(t) < 24*time.Hour {
			kept = append(kept, t)
		}
	}
	if n > limit {
		return nil, &creatorOver{kind: kind, limit: limit}
	}
	if len(kept)+n > limit {
		// Room for n once the oldest that fill it turn a day old.
		return nil, &creatorOver{kind: kind, limit: limit, next: kept[len(kept)+n-limit-1].Add(24 * time.Hour)}
	}
	return kept, nil
}

// replyPrefix is what clients put before a subject they answer or forward.
var replyPrefix = regexp.MustCompile(`(?i)^\s*((re|fw|fwd|aw|wg|sv|vs|tr|antw|odp|r|отв|ответ|пересл|fw)\s*(\[\d+\])?\s*:\s*)+`)

// subjectKey is a subject without reply prefixes, case or spacing: the
// same conversation whatever the client added.
func subjectKey(s string) string {
	s = replyPrefix.ReplaceAllString(s, "")
	return strings.ToLower(strings.Join(strings.Fields(s), " "))
}

// pingPong counts an answer that changed nothing to addr's mail with this
// subject and text; false: the limit of such answers within an hour is
// reached, and this one is not sent.
func (d *Daemon) pingPong(tx store.Tx, addr, subject, text string, now time.Time) (bool, error) {
	b, err := mailBucket(tx, BucketPing)
	if err != nil {
		return false, err
	}
	// The subject is kept by its hash: it is the sender's, of any length.
	key := []byte(string(addrKey(addr)) + "\x00" + ordersHash(subjectKey(subject)) + "\x00" + ordersHash(text))
	times := withinHour(rateTimes(b.Get(key)), now)
	if len(times) >= d.cfg.PingPong {
		return false, nil
	}
	return true, b.Put(key, rateRecord(append(times, now)))
}

// capStranger makes out fit for a stranger: text only, at most strangerMax
// bytes, cut at a line with a note that says so.
func (d *Daemon) capStranger(out outbox.Mail) outbox.Mail {
	out.HTML = ""
	return d.cutText(out, strangerMax, "cut-text")
}

// capReply keeps any answer within Config.MaxReply bytes: its HTML part
// goes first, then its text is cut at a line, with a note that says so.
func (d *Daemon) capReply(out outbox.Mail) outbox.Mail {
	if len(out.Text)+len(out.HTML) <= d.cfg.MaxReply {
		return out
	}
	out.HTML = ""
	return d.cutText(out, d.cfg.MaxReply, "reply-cut-text")
}

// cutText cuts out's text to max bytes at a line, ending it with the
// template part note (a define of _common.tmpl, given the limit).
func (d *Daemon) cutText(out outbox.Mail, max int, note string) outbox.Mail {
	if len(out.Text) <= max {
		return out
	}
	text := "\n[...]\n"
	if p, ok := d.mailer.Render.(interface {
		Part(string, any) (string, error)
	}); ok {
		if s, err := p.Part(note, &templates.Data{Limit: max}); err == nil {
			text = "\n" + s
		}
	}
	note = text
	limit := max - len(note)
	cut := strings.LastIndexByte(out.Text[:limit], '\n') + 1
	if cut == 0 {
		cut = limit
		for cut > 0 && out.Text[cut]&0xC0 == 0x80 { // not inside a UTF-8 sequence
			cut--
		}
	}
	out.Text = out.Text[:cut] + note
	return out
}

// checkSender authenticates the sender (policy.CheckSender). While DNS
// fails for the domain it returns an error, so the mail stays in the inbox
// for a later try; after Config.DNSGrace the domain counts as having no
// DMARC record. The time DNS first failed is kept in the database, so a
// restart neither resets nor forgets it.
func (d *Daemon) checkSender(ctx context.Context, raw []byte, m *inmail.Message) (policy.Verdict, error) {
	v, ok := checkedSender(ctx, raw) // asked before the batch's transaction (batch.go)
	if !ok {
		v = policy.CheckSender(ctx, raw, m, d.cfg.Policy, d.cfg.Resolver, false)
	}
	if v.Domain == "" {
		return v, nil
	}
	now := d.cfg.Now()
	var since time.Time
	key := addrKey(v.Domain)
	err := d.st.View(ctx, func(tx store.Tx) error {
		if b := mailBucketRO(tx, BucketDNSFail); b != nil {
			since, _ = time.Parse(time.RFC3339, string(b.Get(key)))
		}
		return nil
	})
	// Written only when it changes: most mails find nothing to write.
	if err == nil && v.TempFail == since.IsZero() {
		err = d.st.Update(ctx, func(tx store.Tx) error {
			b, err := mailBucket(tx, BucketDNSFail)
			if err != nil {
				return err
			}
			if !v.TempFail {
				return b.Delete(key)
			}
			since = now
			return b.Put(key, []byte(now.UTC().Format(time.RFC3339)))
		})
	}
	if err != nil || !v.TempFail {
		return v, err
	}
	if now.Sub(since) < d.cfg.DNSGrace {
		return v, fmt.Errorf("cannot authenticate %s yet: %s", m.From, v.Why)
	}
	return policy.CheckSender(ctx, raw, m, d.cfg.Policy, d.cfg.Resolver, true), nil
}
