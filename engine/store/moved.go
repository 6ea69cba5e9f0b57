package store

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// keyMovedTo is the meta key that says a store's games were copied to
// another store (orrery db copy), which is where they live now. CopyAll
// does not copy it: the copy is where the games are.
var keyMovedTo = []byte("moved-to")

// Moved says where a store's games went, and when.
type Moved struct {
	To string    `json:"to"` // the other store's name, passwords redacted (Store.Name)
	At time.Time `json:"at"`
}

// MarkMoved records in s that its games were copied to the store named
// to at at, so that a command given s later says where they went instead
// of changing games nobody reads any more.
func MarkMoved(ctx context.Context, s *Store, to string, at time.Time) error {
	data, err := json.Marshal(Moved{To: to, At: at.UTC()})
	if err != nil {
		return err
	}
	return s.Update(ctx, func(tx Tx) error {
		m, err := tx.CreateBucketIfNotExists(BucketMeta)
		if err != nil {
			return err
		}
		return m.Put(keyMovedTo, data)
	})
}

// MovedTo reads the mark MarkMoved left in s, if any.
func MovedTo(ctx context.Context, s *Store) (Moved, bool, error) {
	var mv Moved
	found := false
	err := s.View(ctx, func(tx Tx) error {
		m := tx.Bucket(BucketMeta)
		if m == nil {
			return nil
		}
		v := m.Get(keyMovedTo)
		if v == nil {
			return nil
		}
		found = true
		if err := json.Unmarshal(v, &mv); err != nil {
			return fmt.Errorf("the mark of where %s's games went: %w", s.Name(), err)
		}
		return nil
	})
	return mv, found, err
}

// ClearMoved takes the mark away: s is in use again.
func ClearMoved(ctx context.Context, s *Store) (bool, error) {
	found := false
	err := s.Update(ctx, func(tx Tx) error {
		m := tx.Bucket(BucketMeta)
		if m == nil || m.Get(keyMovedTo) == nil {
			return nil
		}
		found = true
		return m.Delete(keyMovedTo)
	})
	return found, err
}
