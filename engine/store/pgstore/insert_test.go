package pgstore_test

import (
	"context"
	"errors"
	"testing"

	"orrery/engine/store"
)

// Insert writes a key that must be new: one the transaction knows is
// there is refused at once; one another transaction wrote is refused by
// the server, the transaction fails with an error Store runs again (the
// next try takes new keys), and nothing of it commits. A new key is
// written.
func TestInsert(t *testing.T) {
	ctx := context.Background()
	s, _ := openSchema(t)
	put := func(k, v string) {
		t.Helper()
		if err := s.Update(ctx, func(tx store.Tx) error {
			b, err := tx.Bucket(store.BucketMail).CreateBucketIfNotExists([]byte("q"))
			if err != nil {
				return err
			}
			return b.Put([]byte(k), []byte(v))
		}); err != nil {
			t.Fatal(err)
		}
	}
	put("old", "1")
	get := func(k string) string {
		t.Helper()
		var v string
		if err := s.View(ctx, func(tx store.Tx) error {
			v = string(tx.Bucket(store.BucketMail).Bucket([]byte("q")).Get([]byte(k)))
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		return v
	}
	tries := 0
	err := s.Update(ctx, func(tx store.Tx) error {
		tries++
		b := tx.Bucket(store.BucketMail).Bucket([]byte("q")).(store.Inserter)
		key := "old" // taken, but this transaction does not know it
		if tries > 1 {
			key = "new"
		}
		if err := b.Insert([]byte("other"), []byte("x")); err != nil {
			return err
		}
		return b.Insert([]byte(key), []byte("2"))
	})
	if err != nil {
		t.Fatalf("the insert was not run again with a new key: %v", err)
	}
	if tries != 2 {
		t.Errorf("the transaction ran %d times, want 2: refused once, then committed", tries)
	}
	if get("old") != "1" || get("new") != "2" || get("other") != "x" {
		t.Errorf("old=%q new=%q other=%q, want the old record kept and the new ones written", get("old"), get("new"), get("other"))
	}
	if got := s.Stats().Retries; got != 1 {
		t.Errorf("Stats().Retries = %d, want 1", got)
	}
	err = s.Update(ctx, func(tx store.Tx) error {
		b := tx.Bucket(store.BucketMail).Bucket([]byte("q"))
		if b.Get([]byte("old")) == nil {
			return errors.New("old is gone")
		}
		return b.(store.Inserter).Insert([]byte("old"), []byte("3"))
	})
	if !errors.Is(err, store.ErrKeyExists) {
		t.Errorf("Insert of a key the transaction read: %v, want ErrKeyExists", err)
	}
	if get("old") != "1" {
		t.Errorf("old=%q after a refused insert, want 1", get("old"))
	}
}
