package daemon

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"time"

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
//     is text only and at most strangerMax bytes; one address gets at most
//     Config.StrangerDaily of them a day, and all strangers together
//     Config.StrangerGlobal.
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

// strangerBudget counts one reply to stranger addr against today's budget
// of that address and of every stranger together; false: none is left.
func (d *Daemon) strangerBudget(tx store.Tx, addr string, now time.Time) (bool, error) {
	b, err := mailBucket(tx, BucketBudget)
	if err != nil {
		return false, err
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
	one, all := read(addr), read("\x00all")
	if one.N >= d.cfg.StrangerDaily || all.N >= d.cfg.StrangerGlobal {
		return false, nil
	}
	one.N++
	all.N++
	for key, r := range map[string]budgetRecord{addr: one, "\x00all": all} {
		data, _ := json.Marshal(r)
		if err := b.Put(addrKey(key), data); err != nil {
			return false, err
		}
	}
	return true, nil
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
