// This file holds no tests: it exports, to the outbox_test package only,
// what the tests there need of the package's insides.

package outbox

import "context"

// RenewLease writes the worker's lease, as Run does at its start.
func (q *Queue) RenewLease() error { return q.db.Update(context.Background(), q.renewLease) }

// DecodeBody reads a stored body (a queued mail or a dead letter), as the
// queue does: compressed or the JSON of an older Orrery.
func DecodeBody(v []byte, x any) error { return decodeBody(v, x) }

// EncodeBody stores x as the queue stores a body.
func EncodeBody(x any) ([]byte, error) { return encodeBody(x) }
