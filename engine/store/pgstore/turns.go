package pgstore

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"

	"orrery/engine/store"
)

// LockApply is the advisory lock under which the daemons sharing a
// database take turns handling batches of queued mail (pbem/daemon's
// Config.Turn, set by orrery serve to a Turns with this key).
const LockApply int64 = 0x6f72726572790003

// unlockPatience bounds the wait for a lock's release; past it the
// session is closed, which releases it too.
const unlockPatience = 10 * time.Second

// Turns runs work while this process holds an advisory lock, waiting for
// it as long as another process holds it, and releases it when the work
// returns. PostgreSQL grants a lock to its waiters in the order they
// asked, so processes that keep asking take turns: one that releases the
// lock and asks again at once goes behind the one already waiting.
//
// It is for work that two processes cannot do at once anyway: their
// SERIALIZABLE transactions would refuse each other (a row both write,
// such as a bucket's sequence), and the one refused would have done its
// work for nothing and, trying again later than the other, would lose
// again. The lock is taken on a connection of its own, outside the
// store's pool (whose connections the work and the rest of the process
// need meanwhile), and before the work's transactions begin, so each of
// them takes its snapshot after the previous holder committed. The lock
// is the schema's (the key hashed with the schema's name): stores in
// other schemas of the database (another installation, a test's) do not
// wait for it.
//
// The lock is an economy, not a guarantee: a holder whose connection
// drops loses it while its work goes on, and what the work does must
// stay correct without it (SERIALIZABLE and row locks keep it so). Taking
// the lock and releasing it are one round trip each.
type Turns struct {
	s   *store.Store
	key int64
	mu  sync.Mutex // one turn at a time in this process
	c   *pgx.Conn  // the lock's connection; nil until the first turn, or after a failure
}

// NewTurns returns the turns of lock key on s, a PostgreSQL store.
func NewTurns(s *store.Store, key int64) *Turns { return &Turns{s: s, key: key} }

// Run runs fn in this process's turn.
func (t *Turns) Run(ctx context.Context, fn func(context.Context) error) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.c == nil {
		pool := Pool(t.s)
		if pool == nil {
			return errors.New("pgstore.Turns: not a PostgreSQL store")
		}
		c, err := pgx.ConnectConfig(ctx, pool.Config().ConnConfig.Copy())
		if err != nil {
			return fmt.Errorf("wait for the turn lock: connect: %w", err)
		}
		t.c = c
		// The connection lasts as long as the context of the turn
		// that made it (a daemon's worker's: while it runs).
		context.AfterFunc(ctx, t.Close)
	}
	if _, err := t.c.Exec(ctx, "SELECT pg_advisory_lock(hashtextextended(current_schema(), $1))", t.key); err != nil {
		// The lock may have been granted as the wait was cancelled:
		// end the session, and with it any lock it holds.
		t.drop()
		return fmt.Errorf("wait for the turn lock: %w", err)
	}
	defer func() {
		uctx, cancel := context.WithTimeout(context.Background(), unlockPatience)
		defer cancel()
		var ok bool
		if err := t.c.QueryRow(uctx, "SELECT pg_advisory_unlock(hashtextextended(current_schema(), $1))", t.key).Scan(&ok); err != nil || !ok {
			t.drop()
		}
	}()
	return fn(ctx)
}

// drop closes the lock's connection; the next turn connects again.
func (t *Turns) drop() {
	t.c.Close(context.Background())
	t.c = nil
}

// Close closes the lock's connection (waiting for a turn under way); the
// next turn connects again. The connection closes by itself when the
// context of the turn that made it ends.
func (t *Turns) Close() {
	if t == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.c != nil {
		t.drop()
	}
}
