package outbox

import (
	"context"
	"time"

	"orrery/engine/store"
)

// Depth returns how many mails are queued and when the oldest of them was
// queued (zero when none is): the outbox's metrics. The queue is kept in
// the order mails were queued, so the oldest is its first item; only that
// one is decoded.
func Depth(db *store.Store) (n int, oldest time.Time, err error) {
	err = db.View(context.Background(), func(tx store.Tx) error {
		mail := tx.Bucket(store.BucketMail)
		if mail == nil || mail.Bucket(BucketQueue) == nil {
			return nil
		}
		b := mail.Bucket(BucketQueue)
		n = b.KeyN()
		if _, v := b.Cursor().First(); v != nil {
			var it Item
			if err := decodeBody(v, &it); err != nil {
				return err
			}
			oldest = it.Queued
		}
		return nil
	})
	return n, oldest, err
}
