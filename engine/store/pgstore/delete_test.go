package pgstore_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5"

	"orrery/engine/store"
)

// strays counts the keys whose bucket has no row: what deleting a bucket
// must never leave, now that orrery_kv.bucket has no foreign key
// (migrations/0003).
func strays(t *testing.T, dsn string) int {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var n int
	if err := conn.QueryRow(ctx, `SELECT count(*) FROM orrery_kv k WHERE NOT EXISTS (SELECT 1 FROM orrery_bucket b WHERE b.id = k.bucket)`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// Deleting a bucket deletes its keys and those of the buckets nested in
// it, at every depth, and nothing of the bucket beside it.
func TestDeleteBucketLeavesNoKeys(t *testing.T) {
	ctx := context.Background()
	s, dsn := openSchema(t)
	if err := s.Update(ctx, func(tx store.Tx) error {
		top, err := tx.CreateBucket([]byte("work"))
		if err != nil {
			return err
		}
		for _, name := range []string{"gone", "kept"} {
			b, err := top.CreateBucket([]byte(name))
			if err != nil {
				return err
			}
			// Three levels, each with keys of its own.
			for depth := range 3 {
				for i := range 5 {
					if err := b.Put(fmt.Appendf(nil, "k%d", i), []byte(name)); err != nil {
						return err
					}
				}
				if depth < 2 {
					if b, err = b.CreateBucket(fmt.Appendf(nil, "level%d", depth+1)); err != nil {
						return err
					}
				}
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if err := s.Update(ctx, func(tx store.Tx) error { return tx.Bucket([]byte("work")).DeleteBucket([]byte("gone")) }); err != nil {
		t.Fatal(err)
	}
	if n := strays(t, dsn); n != 0 {
		t.Errorf("%d keys left of the deleted bucket and the buckets in it", n)
	}
	if err := s.View(ctx, func(tx store.Tx) error {
		top := tx.Bucket([]byte("work"))
		if top.Bucket([]byte("gone")) != nil {
			t.Error("the deleted bucket is still there")
		}
		b := top.Bucket([]byte("kept"))
		for depth := range 3 {
			if b == nil {
				return fmt.Errorf("the bucket beside the deleted one lost its level %d", depth)
			}
			if n := b.KeyN(); n != 5+min(1, 2-depth) {
				t.Errorf("the bucket beside the deleted one, level %d: %d keys, want %d", depth, n, 5+min(1, 2-depth))
			}
			b = b.Bucket(fmt.Appendf(nil, "level%d", depth+1))
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}

// A transaction that writes into a bucket which another process deletes
// meanwhile does not commit a key into the deleted bucket: it is refused
// and run again, and then finds the bucket gone. The foreign key used to
// make sure of it; now SERIALIZABLE does (the writer read the bucket's
// row or the key that names it, the deleter every key of the bucket).
// Both ways of knowing the bucket: looked up in the transaction, and from
// the id cache of an earlier one.
func TestWriteIntoABucketDeletedMeanwhile(t *testing.T) {
	for _, cached := range []bool{false, true} {
		t.Run(fmt.Sprintf("cached=%v", cached), func(t *testing.T) {
			ctx := context.Background()
			s, dsn := openSchema(t)
			other := openSecond(t, dsn)
			if err := s.Update(ctx, func(tx store.Tx) error {
				top, err := tx.CreateBucket([]byte("work"))
				if err != nil {
					return err
				}
				if err := top.Put([]byte("x"), []byte("1")); err != nil {
					return err
				}
				q, err := top.CreateBucket([]byte("queue"))
				if err != nil {
					return err
				}
				return q.Put([]byte("first"), []byte("1"))
			}); err != nil {
				t.Fatal(err)
			}
			if cached {
				// The writer learns the bucket's id in a transaction
				// of its own first, and takes it from its cache.
				if err := s.View(ctx, func(tx store.Tx) error {
					if tx.Bucket([]byte("work")).Bucket([]byte("queue")) == nil {
						return errors.New("no queue")
					}
					return nil
				}); err != nil {
					t.Fatal(err)
				}
			}
			runs, gone := 0, false
			err := s.Update(ctx, func(tx store.Tx) error {
				runs++
				top := tx.Bucket([]byte("work"))
				// A read that reaches the server: the transaction's
				// snapshot is taken here, before the other deletes.
				top.Get([]byte("x"))
				q := top.Bucket([]byte("queue"))
				if runs == 1 {
					if err := other.Update(ctx, func(tx store.Tx) error {
						return tx.Bucket([]byte("work")).DeleteBucket([]byte("queue"))
					}); err != nil {
						return fmt.Errorf("the other process's delete: %w", err)
					}
				}
				if q == nil {
					gone = true
					return nil
				}
				return q.Put([]byte("second"), []byte("2"))
			})
			if err != nil {
				t.Fatal(err)
			}
			if runs < 2 || !gone {
				t.Errorf("the write into the deleted bucket ran %d times and then found it gone=%v; want it refused, run again, and the bucket gone", runs, gone)
			}
			if n := strays(t, dsn); n != 0 {
				t.Errorf("%d keys committed into the deleted bucket", n)
			}
		})
	}
}
