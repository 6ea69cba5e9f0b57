package pgstore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"orrery/engine/store"
)

// LockApply is the advisory lock under which the daemons sharing a
// database take turns handling batches of queued mail (pbem/daemon's
// Config.Turn, set by orrery serve to Turn with this key).
const LockApply int64 = 0x6f72726572790003

// unlockPatience bounds the wait for a lock's release; past it the
// session is closed, which releases it too.
const unlockPatience = 10 * time.Second

// Turn runs fn while this process holds the advisory lock key, waiting
// for it as long as another process holds it, and releases it when fn
// returns. PostgreSQL grants a lock to its waiters in the order they
// asked, so processes that keep asking take turns: one that releases the
// lock and asks again at once goes behind the one already waiting.
//
// It is for work that two processes cannot do at once anyway: their
// SERIALIZABLE transactions would refuse each other (a row both write,
// such as a bucket's sequence), and the one refused would have done its
// work for nothing and, trying again later than the other, would lose
// again. The lock is taken on a connection of the pool apart from fn's
// transactions and before they begin, so a transaction of fn takes its
// snapshot after the previous holder committed. The lock is the
// schema's (key hashed with the schema's name): stores in other schemas
// of the database (another installation, a test's) do not wait for it.
// The lock is an economy,
// not a guarantee: a holder whose connection drops loses it while fn
// goes on, and what fn does must stay correct without it (SERIALIZABLE
// and row locks keep it so). The lock and its release are one round trip
// each. s must be a PostgreSQL store.
func Turn(ctx context.Context, s *store.Store, key int64, fn func(context.Context) error) error {
	pool := Pool(s)
	if pool == nil {
		return errors.New("pgstore.Turn: not a PostgreSQL store")
	}
	pc, err := pool.Acquire(ctx)
	if err != nil {
		return fmt.Errorf("wait for the turn lock: %w", err)
	}
	if _, err := pc.Exec(ctx, "SELECT pg_advisory_lock(hashtextextended(current_schema(), $1))", key); err != nil {
		// The lock may have been granted as the wait was cancelled:
		// end the session, and with it any lock it holds.
		pc.Hijack().Close(context.Background())
		return fmt.Errorf("wait for the turn lock: %w", err)
	}
	defer func() {
		uctx, cancel := context.WithTimeout(context.Background(), unlockPatience)
		defer cancel()
		var ok bool
		if err := pc.QueryRow(uctx, "SELECT pg_advisory_unlock(hashtextextended(current_schema(), $1))", key).Scan(&ok); err != nil || !ok {
			pc.Hijack().Close(context.Background())
			return
		}
		pc.Release()
	}()
	return fn(ctx)
}
