package daemon

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"orrery/engine/lang"
	"orrery/engine/store"
	"orrery/pbem/outbox"
	"orrery/templates"
)

// Refused GM commands (a wrong or missing GM secret, or a sender that is
// not the GM) are answered at most gmRefusalAnswers times an hour, all
// senders together: someone guessing the secret from a forged gm address
// would otherwise fill the GM's mailbox with refusals, and a guesser from
// elsewhere gets nothing to pace guesses by. The GM learns of the attempts
// at most once a day, in one mail that counts them by sender. Nothing here
// ever refuses the right secret: the check of the secret comes first and
// does not look at this record, so a forger cannot lock the GM out.
const (
	gmRefusalAnswers = 3
	gmReportEvery    = 24 * time.Hour
)

// BucketGMGuard holds the record of refused GM commands (one key, "state").
var BucketGMGuard = store.BucketMailGMGuard

type gmGuardRecord struct {
	Answers  []time.Time    `json:"answers,omitempty"` // refusals answered in the last hour
	Pending  int            `json:"pending,omitempty"` // attempts not yet reported to the GM
	From     map[string]int `json:"from,omitempty"`    // their senders
	Since    time.Time      `json:"since,omitzero"`    // the first of them
	Reported time.Time      `json:"reported,omitzero"` // when the GM was last told
}

var gmGuardKey = []byte("state")

func readGMGuard(tx store.Tx) (store.Bucket, *gmGuardRecord, error) {
	b, err := mailBucket(tx, BucketGMGuard)
	if err != nil {
		return nil, nil, err
	}
	r := &gmGuardRecord{}
	if v := b.Get(gmGuardKey); v != nil {
		if err := json.Unmarshal(v, r); err != nil {
			return nil, nil, fmt.Errorf("gm guard record: %w", err)
		}
	}
	return b, r, nil
}

func (r *gmGuardRecord) put(b store.Bucket) error {
	data, err := json.Marshal(r)
	if err != nil {
		return err
	}
	return b.Put(gmGuardKey, data)
}

// gmRefused records a refused GM command of j's mail and says whether the
// refusal may be answered. The lines of one mail count once and share one
// decision.
func (d *Daemon) gmRefused(ctx context.Context, j *job) (bool, error) {
	if d.gmRefusal.key == j.key {
		return d.gmRefusal.answer, nil
	}
	now := d.cfg.Now()
	answer := false
	err := d.st.Update(ctx, func(tx store.Tx) error {
		b, r, err := readGMGuard(tx)
		if err != nil {
			return err
		}
		kept := r.Answers[:0]
		for _, t := range r.Answers {
			if now.Sub(t) < time.Hour {
				kept = append(kept, t)
			}
		}
		r.Answers = kept
		if len(r.Answers) < gmRefusalAnswers {
			answer = true
			r.Answers = append(r.Answers, now)
		}
		if r.Pending == 0 {
			r.Since = now
		}
		r.Pending++
		if r.From == nil {
			r.From = map[string]int{}
		}
		if len(r.From) < 50 || r.From[j.from] > 0 {
			r.From[j.from]++
		}
		if err := d.reportGMAttempts(tx, r, now); err != nil {
			return err
		}
		return r.put(b)
	})
	if err != nil {
		return false, err
	}
	d.gmRefusal.key, d.gmRefusal.answer = j.key, answer
	if !answer {
		d.log.Warn("GM command refused; not answered (refusals are answered at most 3 times an hour)", "from", j.from)
	}
	return answer, nil
}

// gmGuardTick reports refused GM commands to the GM once the day since
// the last report has passed; the daemon's tick calls it.
func (d *Daemon) gmGuardTick(ctx context.Context) error {
	if d.cfg.GM == "" {
		return nil
	}
	now := d.cfg.Now()
	var r *gmGuardRecord
	err := d.st.View(ctx, func(tx store.Tx) error {
		mail := tx.Bucket(store.BucketMail)
		if mail == nil || mail.Bucket(BucketGMGuard) == nil {
			return nil
		}
		r = &gmGuardRecord{}
		if v := mail.Bucket(BucketGMGuard).Get(gmGuardKey); v != nil {
			return json.Unmarshal(v, r)
		}
		return nil
	})
	if err != nil || r == nil || r.Pending == 0 || now.Sub(r.Reported) < gmReportEvery {
		return err
	}
	return d.st.Update(ctx, func(tx store.Tx) error {
		b, r, err := readGMGuard(tx)
		if err != nil {
			return err
		}
		if err := d.reportGMAttempts(tx, r, now); err != nil {
			return err
		}
		return r.put(b)
	})
}

// reportGMAttempts queues the GM's report of the attempts in r if there
// are any and none was sent in the last day, and resets the count.
func (d *Daemon) reportGMAttempts(tx store.Tx, r *gmGuardRecord, now time.Time) error {
	gm := bareAddress(d.cfg.GM)
	if gm == "" || r.Pending == 0 || now.Sub(r.Reported) < gmReportEvery {
		return nil
	}
	froms := make([]string, 0, len(r.From))
	for a := range r.From {
		froms = append(froms, a)
	}
	sort.Slice(froms, func(i, j int) bool {
		if r.From[froms[i]] != r.From[froms[j]] {
			return r.From[froms[i]] > r.From[froms[j]]
		}
		return froms[i] < froms[j]
	})
	// In the GM's language and zone (SET LANG, SET TZ of the GM's
	// address): plain text of the daemon's own, worded with the
	// templates' catalog.
	rd := readerOf(tx, gm)
	env := lang.Env{Tag: rd.lang, Zone: rd.zone}
	if s, ok := d.mailer.Render.(*templates.Set); ok {
		env.Catalogs = []*lang.Catalog{s.Catalog()}
	}
	say := func(m lang.Msg) string { return lang.Render(env, m) }
	zone := rd.zone
	if zone == nil {
		zone = time.UTC
	}
	var lines []string
	for _, a := range froms {
		line := lang.M("%d from %s", r.From[a], a)
		if strings.EqualFold(a, gm) {
			line = lang.M("%d from %s (your address, perhaps forged)", r.From[a], a)
		}
		lines = append(lines, say(line))
	}
	text := fmt.Sprintf("%s\n\n%s\n\n  %s\n\n%s\n", say(lang.M("Hello,")),
		wrapText(say(lang.MN("%d GM command was refused since %s, for a missing or wrong GM secret, or a sender other than you:",
			"%d GM commands were refused since %s, for a missing or wrong GM secret, or a sender other than you:",
			r.Pending, r.Since.In(zone).Format("2006-01-02 15:04 MST"))), 72),
		strings.Join(lines, "\n  "),
		wrapText(say(lang.M("Nothing in them was applied, and at most %d refusals an hour were answered. If these were not yours, someone may be guessing your GM secret: one of 16 or more random characters cannot be guessed by mail, and your own mail with the right secret always works. This report comes at most once a day.", gmRefusalAnswers)), 72))
	// No game, so no tag, and nothing in it to reply to.
	if err := d.mailer.enqueue(tx, outbox.Mail{To: []string{gm}, Subject: say(lang.M("Refused GM commands")), Text: text,
		Auto: "auto-generated", Kind: "gm-alert"}); err != nil {
		return err
	}
	r.Pending, r.From, r.Since, r.Reported = 0, nil, time.Time{}, now
	return nil
}

// wrapText breaks s into lines of at most width columns at spaces.
func wrapText(s string, width int) string {
	var b strings.Builder
	n := 0
	for _, w := range strings.Fields(s) {
		switch {
		case n == 0:
		case n+1+len([]rune(w)) > width:
			b.WriteByte('\n')
			n = 0
		default:
			b.WriteByte(' ')
			n++
		}
		b.WriteString(w)
		n += len([]rune(w))
	}
	return b.String()
}
