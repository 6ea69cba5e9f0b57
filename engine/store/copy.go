package store

import (
	"context"
	"errors"
	"fmt"
)

// CopyCounts says what CopyAll copied.
type CopyCounts struct {
	Buckets, Keys int
	Games         int // nested buckets of games
}

// CopyAll copies everything src holds into dst, which must hold nothing
// yet but what New makes (the top-level buckets and the schema version):
// every bucket, key and value, and every bucket's sequence, from one
// snapshot of src. It works through Tx, Bucket and Cursor alone, so it
// copies between any two backends (orrery db copy), and whatever a later
// change keeps in the store is copied with the rest.
//
// dst is written one game (or one other top-level bucket) per
// transaction, so that a copy of 100,000 games is not one huge
// transaction; a copy that fails half-way leaves dst partly filled, and
// the next CopyAll refuses it: empty it, or use a new one.
func CopyAll(ctx context.Context, dst, src *Store) (CopyCounts, error) {
	var n CopyCounts
	if err := dst.View(ctx, func(tx Tx) error {
		return tx.ForEach(func(name []byte, b Bucket) error {
			if string(name) == string(BucketMeta) {
				return nil
			}
			if k, _ := b.Cursor().First(); k != nil {
				return fmt.Errorf("the target %s is not empty (its bucket %s holds data): copy into a new database", dst.Name(), name)
			}
			return nil
		})
	}); err != nil {
		return n, err
	}
	err := src.View(ctx, func(stx Tx) error {
		return stx.ForEach(func(name []byte, sb Bucket) error {
			if string(name) == string(BucketGames) {
				// One transaction a game.
				if err := dst.Update(ctx, func(tx Tx) error {
					_, err := tx.CreateBucketIfNotExists(name)
					return err
				}); err != nil {
					return err
				}
				return sb.ForEach(func(k, v []byte) error {
					var c CopyCounts
					err := dst.Update(ctx, func(tx Tx) error {
						c = CopyCounts{}
						return copyKey(tx.Bucket(name), sb, k, v, &c)
					})
					n.Buckets += c.Buckets
					n.Keys += c.Keys
					if v == nil {
						n.Games++
					}
					return err
				})
			}
			var c CopyCounts
			err := dst.Update(ctx, func(tx Tx) error {
				c = CopyCounts{}
				db, err := tx.CreateBucketIfNotExists(name)
				if err != nil {
					return err
				}
				c.Buckets++
				if err := copyBucket(db, sb, &c); err != nil {
					return err
				}
				if string(name) == string(BucketMeta) && db.Get(keyMovedTo) != nil {
					// A copy of a store marked moved is where
					// its games are, not marked itself.
					c.Keys--
					return db.Delete(keyMovedTo)
				}
				return nil
			})
			n.Buckets += c.Buckets
			n.Keys += c.Keys
			return err
		})
	})
	if err != nil {
		return n, fmt.Errorf("copy %s to %s: %w", src.Name(), dst.Name(), err)
	}
	return n, nil
}

// copyBucket copies sb's keys, nested buckets and sequence into db.
func copyBucket(db, sb Bucket, c *CopyCounts) error {
	cur := sb.Cursor()
	for k, v := cur.First(); k != nil; k, v = cur.Next() {
		if err := copyKey(db, sb, k, v, c); err != nil {
			return err
		}
	}
	if seq := sb.Sequence(); seq != 0 {
		return db.SetSequence(seq)
	}
	return nil
}

// copyKey copies the key k of sb (its value v, or the nested bucket it
// names when v is nil) into db.
func copyKey(db, sb Bucket, k, v []byte, c *CopyCounts) error {
	if v != nil {
		c.Keys++
		return db.Put(k, v)
	}
	sub := sb.Bucket(k)
	if sub == nil {
		return errors.New("a nested bucket vanished during the copy")
	}
	nb, err := db.CreateBucket(k)
	if err != nil {
		return fmt.Errorf("bucket %q: %w", k, err)
	}
	c.Buckets++
	return copyBucket(nb, sub, c)
}
