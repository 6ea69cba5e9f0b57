package outbox

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"orrery/engine/store"
)

// FindSent looks for the delivered mail whose Message-ID is id (without
// angle brackets) among those sent since since, newest first: a bounce
// must answer a mail we really sent, to the address it names. It reads
// back from the newest record and stops at the first one older than
// since, so its cost is the mail of that window, not the whole history.
func FindSent(tx store.Tx, id string, since time.Time) (*Record, bool, error) {
	mail := tx.Bucket(store.BucketMail)
	if mail == nil || mail.Bucket(BucketSent) == nil {
		return nil, false, nil
	}
	id = strings.ToLower(strings.Trim(strings.TrimSpace(id), "<>"))
	c := mail.Bucket(BucketSent).Cursor()
	for k, v := c.Last(); k != nil; k, v = c.Prev() {
		var r Record
		if err := json.Unmarshal(v, &r); err != nil {
			return nil, false, err
		}
		if strings.ToLower(r.MessageID) == id {
			return &r, true, nil
		}
		if !r.Sent.IsZero() && r.Sent.Before(since) {
			break
		}
	}
	return nil, false, nil
}

// SentRecord returns the record of the delivered mail numbered seq, while
// it is kept (false once retention compacted it, or for a mail never
// sent): a DSN addressed to a mail's VERP token finds it in one read.
func SentRecord(tx store.Tx, seq uint64) (*Record, bool, error) {
	mail := tx.Bucket(store.BucketMail)
	if mail == nil || mail.Bucket(BucketSent) == nil {
		return nil, false, nil
	}
	v := mail.Bucket(BucketSent).Get(store.Key(seq))
	if v == nil {
		return nil, false, nil
	}
	var r Record
	if err := json.Unmarshal(v, &r); err != nil {
		return nil, false, fmt.Errorf("record of sent mail %d: %w", seq, err)
	}
	return &r, true, nil
}

// MarkBounced records on r (a record SentRecord or FindSent returned) that
// a bounce of kind ("soft" or "hard") was counted, inside tx, and says
// whether it is news: false when one at least as bad was counted already,
// so that one bounced mail counts once however many DSNs cite it (a hard
// bounce after a soft one still counts: the mail was delayed, then given
// up on).
func MarkBounced(tx store.Tx, r *Record, kind string) (bool, error) {
	rank := func(k string) int { return map[string]int{"soft": 1, "hard": 2}[k] }
	if rank(kind) <= rank(r.Bounced) {
		return false, nil
	}
	r.Bounced = kind
	data, err := json.Marshal(r)
	if err != nil {
		return false, err
	}
	return true, tx.Bucket(store.BucketMail).Bucket(BucketSent).Put(store.Key(r.Seq), data)
}
