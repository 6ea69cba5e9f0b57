package outbox

import (
	"encoding/json"
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
