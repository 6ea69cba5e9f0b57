package store

import (
	"context"
	"errors"
	"fmt"
)

// ErrGroupAborted is what Update and View return inside a group after an
// earlier Update of the same group failed, and what Group's error wraps
// then: bbolt cannot undo one change inside a transaction, so the whole
// group is rolled back and its work must be redone in smaller parts.
var ErrGroupAborted = errors.New("an earlier change in the same transaction group failed, so the group was rolled back")

// Unchanged marks err as returned by an Update's function before it wrote
// anything in its transaction: a refusal decided on what it read (a game
// that is over, orders no one asked for). Inside a group such a failure
// does not spoil the group, for there is nothing to undo, and the changes
// before and after it commit together as if it had not been tried;
// outside a group it is an Update's error like any other. A function
// must mark only what it returns before its first write: a wrong mark
// would commit half a change with the group. errors.Is and errors.As see
// through the mark; its message is err's.
func Unchanged(err error) error {
	if err == nil {
		return nil
	}
	return unchangedError{err}
}

type unchangedError struct{ error }

func (e unchangedError) Unwrap() error { return e.error }

type groupKey struct{}

// group is one read-write transaction shared by every Update and View made
// with its context.
type group struct {
	st     *Store
	tx     BackendTx
	failed error // the first failure; the group is then spoiled
}

func (s *Store) groupOf(ctx context.Context) *group {
	g, _ := ctx.Value(groupKey{}).(*group)
	if g == nil || g.st != s {
		return nil
	}
	return g
}

// InGroup reports whether ctx carries a transaction group of this store.
func (s *Store) InGroup(ctx context.Context) bool { return s.groupOf(ctx) != nil }

// GroupFailed reports whether ctx's group is spoiled: an Update in it
// failed, so it will roll back. Code that runs many steps in one group
// asks it after each, to learn which step spoiled it.
func (s *Store) GroupFailed(ctx context.Context) bool {
	g := s.groupOf(ctx)
	return g != nil && g.failed != nil
}

// Group runs fn with a context under which every Update and View of this
// store works in one shared read-write transaction, committed once when fn
// returns nil: many changes, one fsync. The daemon handles a batch of
// mails so (group commit), and Tick a batch of due games; each change still
// commits with everything it causes (its mails, its seen-record), because
// they share its transaction. Code called with that context needs no
// change: it calls Update and View as always, and sees what earlier
// changes in the group wrote.
//
// An Update whose function fails inside a group cannot be undone alone
// (unless it failed before writing anything, and says so: Unchanged).
// It spoils the group: it returns its error as usual, later Updates and
// Views in the group return ErrGroupAborted at once, and Group rolls
// everything back and returns an error that wraps both ErrGroupAborted and
// the first failure. The caller then redoes the work in smaller parts, the
// failing one alone (outside any group, where a failed Update rolls back
// only itself). OnCommit callbacks run only when the group commits.
//
// A Group inside a group joins it. The context must not be shared with
// other goroutines: a transaction belongs to one.
//
// On a backend that can fail to serialise (PostgreSQL), a group that
// fails so is rolled back and fn run again whole, as Update runs its fn
// again: fn must reset what it hands out (the daemon's batch and Tick do).
func (s *Store) Group(ctx context.Context, fn func(ctx context.Context) error) (err error) {
	if err := ctx.Err(); err != nil {
		return err
	}
	if g := s.groupOf(ctx); g != nil {
		if g.failed != nil {
			return g.aborted()
		}
		if err := fn(ctx); err != nil {
			g.fail(err)
			return err
		}
		return nil
	}
	if err := s.enter(); err != nil {
		return err
	}
	defer s.leave()
	return s.retry(ctx, func() error { return s.group(ctx, fn) })
}

// group runs fn in one new group.
func (s *Store) group(ctx context.Context, fn func(ctx context.Context) error) (err error) {
	tx, err := s.be.Begin(ctx, true)
	if err != nil {
		return fmt.Errorf("begin a transaction on %s: %w", s.name, err)
	}
	g := &group{st: s, tx: tx}
	done := false
	defer func() {
		if !done {
			tx.Rollback() // fn panicked
		}
	}()
	err = fn(context.WithValue(ctx, groupKey{}, g))
	done = true
	if e := tx.Err(); e != nil && g.failed == nil {
		g.failed = e
	}
	if err == nil && g.failed != nil {
		err = g.failed
	}
	if err != nil {
		tx.Rollback()
		if g.failed != nil {
			return fmt.Errorf("%w: %w", ErrGroupAborted, g.failed)
		}
		return err
	}
	return s.commit(tx)
}

func (g *group) fail(err error) {
	if g.failed == nil {
		g.failed = err
	}
}

func (g *group) aborted() error {
	return fmt.Errorf("%w (first: %v)", ErrGroupAborted, g.failed)
}

// update runs fn in the group's transaction; a failure spoils the group.
func (g *group) update(ctx context.Context, fn func(tx Tx) error) error {
	if g.failed != nil {
		return g.aborted()
	}
	if err := ctx.Err(); err != nil {
		g.fail(err)
		return err
	}
	err := fn(g.tx)
	if e := g.tx.Err(); e != nil {
		err = e
	}
	if err != nil {
		if !errors.As(err, new(unchangedError)) {
			g.fail(err)
		}
		return err
	}
	return nil
}

// view runs fn in the group's transaction. A read changes nothing, so its
// failure does not spoil the group.
func (g *group) view(ctx context.Context, fn func(tx Tx) error) error {
	if g.failed != nil {
		return g.aborted()
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	err := fn(g.tx)
	if e := g.tx.Err(); e != nil {
		g.fail(e) // the backend's transaction is spoiled
		return e
	}
	return err
}
