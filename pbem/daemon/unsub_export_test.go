package daemon

import (
	"context"

	"orrery/engine/store"
	"orrery/pbem/outbox"
)

// ListHeaders adds the List-* headers to out as enqueue would, for tests
// of a kind of mail hard to cause (a reminder).
func (d *Daemon) ListHeaders(ctx context.Context, out outbox.Mail) (outbox.Mail, error) {
	err := d.st.Update(ctx, func(tx store.Tx) error { return d.mailer.listHeaders(tx, &out) })
	return out, err
}
