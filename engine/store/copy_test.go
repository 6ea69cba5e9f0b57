package store_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"orrery/engine/store"
	"orrery/engine/store/storetest"
)

// fillForCopy writes games with nested buckets, sequences, empty values
// and binary keys, and mail-side records.
func fillForCopy(t *testing.T, s *store.Store) {
	err := s.Update(context.Background(), func(tx store.Tx) error {
		for i := range 5 {
			g, err := tx.Bucket(store.BucketGames).CreateBucket([]byte(fmt.Sprintf("g%d", i)))
			if err != nil {
				return err
			}
			if err := g.Put(store.KeyInfo, []byte(`{"id":"g`+fmt.Sprint(i)+`"}`)); err != nil {
				return err
			}
			log, err := g.CreateBucket(store.BucketLog)
			if err != nil {
				return err
			}
			for j := range i + 1 {
				seq, _ := log.NextSequence()
				if err := log.Put(store.Key(seq), []byte(fmt.Sprintf("entry %d", j))); err != nil {
					return err
				}
			}
			if err := tx.Bucket(store.BucketWake).Put(append(store.Key(uint64(i)), g.Get(store.KeyInfo)[:3]...), nil); err != nil {
				return err
			}
		}
		out, err := tx.Bucket(store.BucketMail).CreateBucket(store.BucketMailOutbox)
		if err != nil {
			return err
		}
		if err := out.SetSequence(41); err != nil {
			return err
		}
		return out.Put([]byte{0, 0xff, 7}, []byte("a mail"))
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestCopyAll copies a store into one of every kind (bbolt into
// PostgreSQL, PostgreSQL into bbolt, …): the copy holds the same data, and
// a second copy into it is refused.
func TestCopyAll(t *testing.T) {
	kinds := []storetest.Kind{storetest.Bolt, storetest.Postgres}
	for _, from := range kinds {
		for _, to := range kinds {
			t.Run(from.Name+"-to-"+to.Name, func(t *testing.T) {
				src := storetest.Open(t, from)
				dst := storetest.Open(t, to)
				fillForCopy(t, src)
				n, err := store.CopyAll(context.Background(), dst, src)
				if err != nil {
					t.Fatal(err)
				}
				if n.Games != 5 || n.Keys < 20 {
					t.Errorf("copied %+v", n)
				}
				want, got := storetest.Dump(t, src), storetest.Dump(t, dst)
				if got != want {
					t.Errorf("the copy differs:\n%s\nwant\n%s", got, want)
				}
				if !strings.Contains(got, `seq=41`) || !strings.Contains(got, `"g4"/"log" seq=5`) {
					t.Errorf("sequences were not copied:\n%s", got)
				}
				if _, err := store.CopyAll(context.Background(), dst, src); err == nil || !strings.Contains(err.Error(), "not empty") {
					t.Errorf("a copy into a store that holds data gave %v", err)
				}
			})
		}
	}
}
