package pgstore

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"

	"orrery/engine/store"
)

// Lock keys of the advisory locks orrery takes (pg_try_advisory_lock): one
// per job that only one process of a shared database may do at a time.
const (
	// LockIMAP is held by the daemon that reads the mailbox.
	LockIMAP int64 = 0x6f72726572790002
)

// LeadPoll is how often orrery serve's standby tries for the lock, and its
// leader checks it still holds it: a standby takes over within about this
// much of the leader dying. Named here so that the soak harness's failover
// figure is taken with the poll the daemon really uses.
const LeadPoll = 2 * time.Second

// Lead runs fn while this process holds the advisory lock key, and
// returns what fn returns. Until it gets the lock it tries again every
// poll, so a standby daemon takes over within about poll of the leader
// dying: PostgreSQL ends a dead process's session, and with it the lock,
// as soon as its connection closes (at once for a killed process, and
// within the TCP keepalive for a machine that vanished).
//
// The lock is held on a connection of its own, taken out of the pool, and
// checked every poll: when it fails (PostgreSQL restarted, the network
// cut), the leader may have lost the lock to another, so fn's context is
// cancelled, and Lead goes back to waiting for the lock once fn returns.
// Only fn's own failure, or ctx's end, ends Lead. s must be a PostgreSQL
// store. A leader whose session died learns of it at its next check, so
// an old and a new leader may overlap by up to poll: fn must be safe
// then (the IMAP reader is: each mail applies once, by its seen record).
func Lead(ctx context.Context, s *store.Store, key int64, poll time.Duration, log *slog.Logger, fn func(context.Context) error) error {
	pool := Pool(s)
	if pool == nil {
		return errors.New("pgstore.Lead: not a PostgreSQL store")
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	waiting := false
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		conn, err := acquire(ctx, s, key)
		if err != nil {
			if !waiting {
				log.Info("waiting to lead: another process holds the lock, or the database is away", "lock", fmt.Sprintf("%#x", key), "err", err)
				waiting = true
			}
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(poll):
			}
			continue
		}
		waiting = false
		log.Info("leading", "lock", fmt.Sprintf("%#x", key))
		lctx, cancel := context.WithCancel(ctx)
		lost := make(chan struct{})
		checked := make(chan struct{}) // closed when the checker has stopped using conn
		go func() {
			defer close(checked)
			t := time.NewTicker(poll)
			defer t.Stop()
			for {
				select {
				case <-lctx.Done():
					return
				case <-t.C:
					pctx, pcancel := context.WithTimeout(lctx, poll)
					_, err := conn.Exec(pctx, "SELECT 1")
					pcancel()
					if err != nil && lctx.Err() == nil {
						log.Warn("lost the connection that holds the lead: stepping down", "err", err)
						close(lost)
						cancel()
						return
					}
				}
			}
		}()
		err = fn(lctx)
		cancel()
		// A pgx.Conn is for one goroutine at a time: the checker may be
		// in the middle of its SELECT 1 (which the cancel ends), and a
		// Close beside it raced with its write (go test -race saw it).
		<-checked
		// Closing the session releases the lock.
		conn.Close(context.Background())
		select {
		case <-lost:
			if ctx.Err() == nil {
				// Wait for the lock again, after a poll: a standby
				// that saw the lock free should win it.
				select {
				case <-ctx.Done():
				case <-time.After(poll):
				}
				continue
			}
		default:
		}
		return err
	}
}

// errNotLeader means the lock is another's.
var errNotLeader = errors.New("the lock is held by another process")

// acquire takes a connection out of s's pool and the lock key on it.
func acquire(ctx context.Context, s *store.Store, key int64) (*pgx.Conn, error) {
	pc, err := Pool(s).Acquire(ctx)
	if err != nil {
		return nil, err
	}
	conn := pc.Hijack() // ours alone: the lock lives as long as it
	var ok bool
	if err := conn.QueryRow(ctx, "SELECT pg_try_advisory_lock($1)", key).Scan(&ok); err != nil {
		conn.Close(context.Background())
		return nil, err
	}
	if !ok {
		conn.Close(context.Background())
		return nil, errNotLeader
	}
	return conn, nil
}
