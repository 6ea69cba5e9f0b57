package pgstore_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"orrery/engine/store"
)

// A cursor sees the transaction's own waiting writes, laid over the
// pages it reads (they are not sent with the read): puts between and
// after the server's keys, deletes of server keys (a whole first page of
// them, so the cursor must read on), a key put and deleted again, in
// both directions and from a Seek.
func TestCursorSeesWaitingWrites(t *testing.T) {
	ctx := context.Background()
	s, _ := openSchema(t)
	key := func(i int) []byte { return fmt.Appendf(nil, "k%03d", i) }
	if err := s.Update(ctx, func(tx store.Tx) error {
		b, err := tx.Bucket(store.BucketMail).CreateBucket([]byte("b"))
		if err != nil {
			return err
		}
		for i := 0; i < 100; i += 2 {
			if err := b.Put(key(i), []byte("server")); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	for i := 0; i < 100; i += 2 {
		want[string(key(i))] = "server"
	}
	err := s.Update(ctx, func(tx store.Tx) error {
		b := tx.Bucket(store.BucketMail).Bucket([]byte("b"))
		for i := 0; i < 40; i += 2 { // more than a first page
			if err := b.Delete(key(i)); err != nil {
				return err
			}
			delete(want, string(key(i)))
		}
		for _, i := range []int{1, 41, 57, 99, 150} {
			if err := b.Put(key(i), []byte("here")); err != nil {
				return err
			}
			want[string(key(i))] = "here"
		}
		if err := b.Put(key(60), []byte("changed")); err != nil {
			return err
		}
		want[string(key(60))] = "changed"
		if b.Get(key(3)) != nil {
			return fmt.Errorf("k003 is there")
		}
		if err := b.Put(key(3), []byte("gone")); err != nil {
			return err
		}
		if err := b.Delete(key(3)); err != nil {
			return err
		}
		var keys []string
		for k := range want {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		walk := func(first func() ([]byte, []byte), next func() ([]byte, []byte)) []string {
			var got []string
			for k, v := first(); k != nil; k, v = next() {
				if string(v) != want[string(k)] {
					t.Errorf("%s = %q, want %q", k, v, want[string(k)])
				}
				got = append(got, string(k))
			}
			return got
		}
		c := b.Cursor()
		if got := walk(c.First, c.Next); !slices.Equal(got, keys) {
			t.Errorf("forward:\n%v\nwant\n%v", got, keys)
		}
		c = b.Cursor()
		rev := slices.Clone(keys)
		slices.Reverse(rev)
		if got := walk(c.Last, c.Prev); !slices.Equal(got, rev) {
			t.Errorf("backward:\n%v\nwant\n%v", got, rev)
		}
		c = b.Cursor()
		from := slices.Index(keys, string(key(40)))
		if got := walk(func() ([]byte, []byte) { return c.Seek(key(39)) }, c.Next); !slices.Equal(got, keys[from:]) {
			t.Errorf("from a Seek:\n%v\nwant\n%v", got, keys[from:])
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var n int
	if err := s.View(ctx, func(tx store.Tx) error {
		b := tx.Bucket(store.BucketMail).Bucket([]byte("b"))
		n = b.KeyN()
		if b.Get(key(3)) != nil || string(b.Get(key(150))) != "here" || b.Get(key(10)) != nil {
			t.Error("the committed bucket is not what the transaction wrote")
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if n != len(want) {
		t.Errorf("%d keys committed, want %d", n, len(want))
	}
}
