// This file holds no tests: it is the export_test.go idiom (as net/http
// has), compiled only with the tests, which opens a few of the package's
// insides to the external test package daemon_test. The assertions that
// use them are in gmguard_test.go (GMGuardTick) and batch_test.go
// (RecordPart and PartsLeft: TestBatchHonoursThePartsOfAHandlingCutShort).
package daemon

import (
	"context"

	"orrery/engine/store"
	"orrery/pbem/inmail"
)

// GMGuardTick runs the daily report of refused GM commands, as the tick does.
func (d *Daemon) GMGuardTick(ctx context.Context) error { return d.gmGuardTick(ctx) }

// RecordPart records part n of the mail with this Message-ID as done,
// answered with text, as a handling cut short leaves it (handleAlone
// commits the parts one by one).
func RecordPart(ctx context.Context, st *store.Store, messageID string, n int, text string) error {
	return st.Update(ctx, func(tx store.Tx) error {
		return putPart(tx, messageKey(&inmail.Message{MessageID: messageID}, nil), n, section{Subject: "done before", Text: text})
	})
}

// PartsLeft counts the parts recorded for mails not yet recorded as seen.
func PartsLeft(ctx context.Context, st *store.Store) (int, error) {
	n := 0
	err := st.View(ctx, func(tx store.Tx) error {
		if mail := tx.Bucket(store.BucketMail); mail != nil && mail.Bucket(BucketParts) != nil {
			return mail.Bucket(BucketParts).ForEach(func(k, v []byte) error { n++; return nil })
		}
		return nil
	})
	return n, err
}
