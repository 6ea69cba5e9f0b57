package outbox

import "context"

// RenewLease writes the worker's lease, as Run does at its start.
func (q *Queue) RenewLease() error { return q.db.Update(context.Background(), q.renewLease) }
