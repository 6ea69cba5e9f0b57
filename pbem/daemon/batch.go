package daemon

import (
	"context"

	"orrery/pbem/imapin"
)

// Handle handles one message; it is the imapin.Handler. It is HandleBatch
// of one message: the message, the changes it makes and the mails they
// cause commit in one transaction (one fsync).
func (d *Daemon) Handle(ctx context.Context, msg imapin.Message) (imapin.Disposition, error) {
	o := d.HandleBatch(ctx, []imapin.Message{msg})[0]
	return o.Disposition, o.Err
}

// HandleBatch handles a fetched batch of messages in order; it is the
// imapin.BatchHandler of Run. The whole batch commits in one transaction
// (store.Group): each message's game changes, its seen-record and every
// mail it causes, for one fsync, which is what lets a backlog drain at
// the pace of the mail servers. Each message still sees what the ones
// before it did, and is recorded exactly once: a crash before the commit
// leaves the whole batch in the inbox, to be handled again; after it, the
// seen-records make a second look file the mails only.
//
// A failed change cannot be undone inside a shared transaction. When one
// message fails (a refused order is not a failure: it is answered; a
// store error, or a change the engine refuses after writing part of it,
// is), the batch is rolled back and done again: the messages before it as
// one group, the failing one alone, in transactions of its own as before
// group commit (where its parts are recorded one by one), then the rest as
// a group.
func (d *Daemon) HandleBatch(ctx context.Context, msgs []imapin.Message) []imapin.Outcome {
	d.mu.Lock()
	defer d.mu.Unlock()
	out := make([]imapin.Outcome, len(msgs))
	d.handleGroups(ctx, msgs, out)
	return out
}

// handleGroups fills out with the outcome of each of msgs, as HandleBatch
// says.
func (d *Daemon) handleGroups(ctx context.Context, msgs []imapin.Message, out []imapin.Outcome) {
	for len(msgs) > 0 {
		var disp []imapin.Disposition
		k := 0 // the message being handled when the group failed
		err := d.st.Group(ctx, func(ctx context.Context) error {
			disp = disp[:0]
			for k = 0; k < len(msgs); k++ {
				x, err := d.handle(ctx, msgs[k])
				if err == nil && d.st.GroupFailed(ctx) {
					err = errGroupSpoiled
				}
				if err != nil {
					return err
				}
				disp = append(disp, x)
			}
			return nil
		})
		if err == nil {
			for i, x := range disp {
				out[i] = imapin.Outcome{Disposition: x}
			}
			return
		}
		if ctx.Err() != nil || k == len(msgs) {
			// Cancelled, or the commit itself failed (a full disk):
			// nothing is recorded, every message stays in the inbox.
			for i := range out[:len(msgs)] {
				out[i] = imapin.Outcome{Err: err}
			}
			return
		}
		if k > 0 {
			d.handleGroups(ctx, msgs[:k], out[:k])
		}
		d.log.Info("mail handled in transactions of its own after its batch failed", "uid", msgs[k].UID, "err", err)
		out[k].Disposition, out[k].Err = d.handle(ctx, msgs[k])
		msgs, out = msgs[k+1:], out[k+1:]
	}
}

// errGroupSpoiled stands for a failure a message's handling met and
// answered (a refused change) inside a group that it spoiled.
var errGroupSpoiled = groupError("a change failed inside the batch's transaction")

type groupError string

func (e groupError) Error() string { return string(e) }
