package storetest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"orrery/engine/store"
)

// Run is the conformance suite: every store operation the code above
// engine/store uses, with the bbolt meaning (store.Tx documents it), run
// against a new store of kind k. Every backend must pass it.
func Run(t *testing.T, k Kind) {
	cases := []struct {
		name string
		fn   func(t *testing.T, s *store.Store)
	}{
		{"TopLevelBuckets", topLevelBuckets},
		{"Values", values},
		{"GetMany", getMany},
		{"NestedBuckets", nestedBuckets},
		{"KeyOrder", keyOrder},
		{"CursorWalks", cursorWalks},
		{"CursorDeletes", cursorDeletes},
		{"Sequences", sequences},
		{"Rollback", rollback},
		{"ReadOnly", readOnly},
		{"ConcurrentIncrements", concurrentIncrements},
		{"Group", group},
		{"CloseWaitsForGroup", closeWaitsForGroup},
		{"Claim", claim},
		{"ClaimNamed", claimNamed},
		{"ClaimNamedGames", claimNamedGames},
	}
	if k.Name != "bbolt" {
		// bbolt's View is a snapshot too, but a writer that grows the
		// file waits for open readers: this case, which commits inside
		// an open View of the same goroutine, would wait on itself.
		cases = append(cases, struct {
			name string
			fn   func(t *testing.T, s *store.Store)
		}{"ViewIsASnapshot", viewIsASnapshot}, struct {
			name string
			fn   func(t *testing.T, s *store.Store)
		}{"ClaimsAreDisjoint", claimsAreDisjoint}, struct {
			name string
			fn   func(t *testing.T, s *store.Store)
		}{"ClaimNamedSkipsHeld", claimNamedSkipsHeld})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := Open(t, k)
			c.fn(t, s)
		})
	}
	t.Run("SchemaVersionChecked", func(t *testing.T) {
		open := k.New(t)
		s, err := open()
		if err != nil {
			t.Fatal(err)
		}
		must(t, s.Update(context.Background(), func(tx store.Tx) error {
			return tx.Bucket(store.BucketMeta).Put(store.KeySchema, []byte("99"))
		}))
		s.Close()
		s, err = open()
		if err == nil {
			s.Close()
			t.Fatal("a store of schema version 99 opened")
		}
		if !bytes.Contains([]byte(err.Error()), []byte("schema version 99")) {
			t.Errorf("the error does not name the version: %v", err)
		}
	})
	t.Run("ReopenKeepsData", func(t *testing.T) {
		open := k.New(t)
		s, err := open()
		if err != nil {
			t.Fatal(err)
		}
		must(t, update(s, func(tx store.Tx) error {
			b, err := tx.Bucket(store.BucketGames).CreateBucket([]byte("g1"))
			if err != nil {
				return err
			}
			return b.Put([]byte("info"), []byte("kept"))
		}))
		s.Close()
		s, err = open()
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		must(t, view(s, func(tx store.Tx) error {
			if got := tx.Bucket(store.BucketGames).Bucket([]byte("g1")).Get([]byte("info")); string(got) != "kept" {
				t.Errorf("after reopening, info = %q", got)
			}
			return nil
		}))
	})
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func update(s *store.Store, fn func(tx store.Tx) error) error {
	return s.Update(context.Background(), fn)
}

func view(s *store.Store, fn func(tx store.Tx) error) error {
	return s.View(context.Background(), fn)
}

func topLevelBuckets(t *testing.T, s *store.Store) {
	must(t, view(s, func(tx store.Tx) error {
		for _, name := range store.TopLevel {
			if tx.Bucket(name) == nil {
				t.Errorf("top-level bucket %s missing", name)
			}
		}
		if b := tx.Bucket([]byte("nope")); b != nil { // a typed nil is != nil
			t.Errorf("a missing bucket is %#v, want a nil interface", b)
		}
		return nil
	}))
	must(t, update(s, func(tx store.Tx) error {
		if _, err := tx.CreateBucket([]byte("extra")); err != nil {
			return err
		}
		if _, err := tx.CreateBucket([]byte("extra")); !errors.Is(err, store.ErrBucketExists) {
			t.Errorf("creating a bucket twice gave %v, want ErrBucketExists", err)
		}
		b, err := tx.CreateBucketIfNotExists([]byte("extra"))
		if err != nil || b == nil {
			t.Errorf("CreateBucketIfNotExists of an existing bucket gave %v, %v", b, err)
		}
		must(t, b.Put([]byte("k"), []byte("v")))
		if b2, _ := tx.CreateBucketIfNotExists([]byte("extra")); string(b2.Get([]byte("k"))) != "v" {
			t.Error("CreateBucketIfNotExists did not return the existing bucket")
		}
		var names []string
		must(t, tx.ForEach(func(name []byte, b store.Bucket) error {
			if b == nil {
				t.Errorf("ForEach gave no bucket for %s", name)
			}
			names = append(names, string(name))
			return nil
		}))
		for i := 1; i < len(names); i++ {
			if names[i-1] >= names[i] {
				t.Errorf("ForEach is not in name order: %q", names)
			}
		}
		if len(names) != len(store.TopLevel)+1 {
			t.Errorf("ForEach gave %q", names)
		}
		if err := tx.DeleteBucket([]byte("nope")); !errors.Is(err, store.ErrBucketNotFound) {
			t.Errorf("deleting a missing bucket gave %v, want ErrBucketNotFound", err)
		}
		return tx.DeleteBucket([]byte("extra"))
	}))
	must(t, view(s, func(tx store.Tx) error {
		if tx.Bucket([]byte("extra")) != nil {
			t.Error("a deleted bucket is still there")
		}
		return nil
	}))
}

func values(t *testing.T, s *store.Store) {
	must(t, update(s, func(tx store.Tx) error {
		b := tx.Bucket(store.BucketMail)
		must(t, b.Put([]byte("a"), []byte("1")))
		must(t, b.Put([]byte("empty"), nil))
		must(t, b.Put([]byte("empty2"), []byte{}))
		must(t, b.Put([]byte("a"), []byte("2"))) // replaces
		if _, err := b.CreateBucket([]byte("sub")); err != nil {
			return err
		}
		if err := b.Put(nil, []byte("x")); !errors.Is(err, store.ErrKeyRequired) {
			t.Errorf("Put with no key gave %v, want ErrKeyRequired", err)
		}
		if err := b.Put([]byte("sub"), []byte("x")); !errors.Is(err, store.ErrIncompatibleValue) {
			t.Errorf("Put over a nested bucket gave %v, want ErrIncompatibleValue", err)
		}
		if err := b.Delete([]byte("sub")); !errors.Is(err, store.ErrIncompatibleValue) {
			t.Errorf("Delete of a nested bucket gave %v, want ErrIncompatibleValue", err)
		}
		if err := b.DeleteBucket([]byte("a")); !errors.Is(err, store.ErrIncompatibleValue) {
			t.Errorf("DeleteBucket of a value gave %v, want ErrIncompatibleValue", err)
		}
		if _, err := b.CreateBucket([]byte("a")); !errors.Is(err, store.ErrIncompatibleValue) {
			t.Errorf("CreateBucket over a value gave %v, want ErrIncompatibleValue", err)
		}
		if _, err := b.CreateBucketIfNotExists([]byte("a")); !errors.Is(err, store.ErrIncompatibleValue) {
			t.Errorf("CreateBucketIfNotExists over a value gave %v, want ErrIncompatibleValue", err)
		}
		if b.Bucket([]byte("a")) != nil {
			t.Error("Bucket of a value's key is not nil")
		}
		must(t, b.Delete([]byte("missing"))) // no error, as bbolt
		return nil
	}))
	must(t, view(s, func(tx store.Tx) error {
		b := tx.Bucket(store.BucketMail)
		if got := b.Get([]byte("a")); string(got) != "2" {
			t.Errorf("a = %q, want 2", got)
		}
		for _, k := range []string{"empty", "empty2"} {
			if got := b.Get([]byte(k)); got == nil || len(got) != 0 {
				t.Errorf("%s = %#v, want a non-nil empty value", k, got)
			}
		}
		if got := b.Get([]byte("missing")); got != nil {
			t.Errorf("a missing key = %#v, want nil", got)
		}
		if got := b.Get([]byte("sub")); got != nil {
			t.Errorf("Get of a nested bucket's name = %#v, want nil", got)
		}
		if n := b.KeyN(); n != 4 {
			t.Errorf("KeyN = %d, want 4 (a, empty, empty2, sub)", n)
		}
		return nil
	}))
	must(t, update(s, func(tx store.Tx) error {
		b := tx.Bucket(store.BucketMail)
		must(t, b.Delete([]byte("a")))
		if b.Get([]byte("a")) != nil {
			t.Error("a deleted key is still read in its transaction")
		}
		return nil
	}))
}

// getMany: store.GetMany answers as Get would, key by key, for keys on
// the server, written or deleted in the transaction, missing, empty,
// repeated, and a nested bucket's name.
func getMany(t *testing.T, s *store.Store) {
	must(t, update(s, func(tx store.Tx) error {
		b := tx.Bucket(store.BucketMail)
		must(t, b.Put([]byte("a"), []byte("1")))
		must(t, b.Put([]byte("b"), []byte("2")))
		must(t, b.Put([]byte("empty"), nil))
		_, err := b.CreateBucket([]byte("sub"))
		return err
	}))
	keys := [][]byte{[]byte("a"), []byte("b"), []byte("c"), []byte("empty"), []byte("sub"), []byte("missing"), []byte("a"), nil}
	read := func(b store.Bucket) string {
		var out []string
		for i, v := range store.GetMany(b, keys) {
			if g := b.Get(keys[i]); string(g) != string(v) || (g == nil) != (v == nil) {
				t.Errorf("GetMany(%q) = %q, Get = %q", keys[i], v, g)
			}
			if v == nil {
				out = append(out, "nil")
				continue
			}
			out = append(out, fmt.Sprintf("%q", v))
		}
		return strings.Join(out, " ")
	}
	must(t, view(s, func(tx store.Tx) error {
		if got, want := read(tx.Bucket(store.BucketMail)), `"1" "2" nil "" nil nil "1" nil`; got != want {
			t.Errorf("GetMany = %s, want %s", got, want)
		}
		return nil
	}))
	must(t, update(s, func(tx store.Tx) error {
		b := tx.Bucket(store.BucketMail)
		must(t, b.Delete([]byte("a")))
		must(t, b.Put([]byte("c"), []byte("3")))
		if got, want := read(b), `nil "2" "3" "" nil nil nil nil`; got != want {
			t.Errorf("GetMany after writes in the transaction = %s, want %s", got, want)
		}
		return nil
	}))
}

func nestedBuckets(t *testing.T, s *store.Store) {
	must(t, update(s, func(tx store.Tx) error {
		g, err := tx.Bucket(store.BucketGames).CreateBucket([]byte("g1"))
		if err != nil {
			return err
		}
		must(t, g.Put(store.KeyInfo, []byte("info")))
		log, err := g.CreateBucketIfNotExists(store.BucketLog)
		if err != nil {
			return err
		}
		deep, err := log.CreateBucket([]byte("deep"))
		if err != nil {
			return err
		}
		must(t, deep.Put([]byte("x"), []byte("y")))
		if deep.Tx() == nil || !deep.Writable() {
			t.Error("a bucket does not know its writable transaction")
		}
		if _, err := g.CreateBucket([]byte("other")); err != nil {
			return err
		}
		var subs []string
		must(t, g.ForEachBucket(func(k []byte) error { subs = append(subs, string(k)); return nil }))
		if fmt.Sprint(subs) != "[log other]" {
			t.Errorf("ForEachBucket gave %q", subs)
		}
		return nil
	}))
	must(t, update(s, func(tx store.Tx) error {
		games := tx.Bucket(store.BucketGames)
		if got := games.Bucket([]byte("g1")).Bucket(store.BucketLog).Bucket([]byte("deep")).Get([]byte("x")); string(got) != "y" {
			t.Errorf("deep/x = %q", got)
		}
		return games.DeleteBucket([]byte("g1"))
	}))
	must(t, update(s, func(tx store.Tx) error {
		games := tx.Bucket(store.BucketGames)
		if games.Bucket([]byte("g1")) != nil {
			t.Fatal("a deleted game bucket is still there")
		}
		g, err := games.CreateBucket([]byte("g1"))
		if err != nil {
			return err
		}
		if g.Bucket(store.BucketLog) != nil || g.Get(store.KeyInfo) != nil {
			t.Error("a bucket made again under a deleted one's name holds its old contents")
		}
		return nil
	}))
}

func keyOrder(t *testing.T, s *store.Store) {
	keys := [][]byte{{0}, {0, 0}, {0, 1}, {1}, []byte("A"), []byte("a"), []byte("a\x00b"), []byte("ab"), {0x7f}, {0x80}, {0xff}, {0xff, 0}, store.Key(9), store.Key(10), store.Key(256)}
	must(t, update(s, func(tx store.Tx) error {
		b := tx.Bucket(store.BucketMail)
		for i := len(keys) - 1; i >= 0; i-- {
			must(t, b.Put(keys[i], []byte{byte(i)}))
		}
		return nil
	}))
	must(t, view(s, func(tx store.Tx) error {
		var got [][]byte
		must(t, tx.Bucket(store.BucketMail).ForEach(func(k, v []byte) error {
			got = append(got, store.Copy(k))
			return nil
		}))
		for i := 1; i < len(got); i++ {
			if bytes.Compare(got[i-1], got[i]) >= 0 {
				t.Errorf("keys out of byte order: %x before %x", got[i-1], got[i])
			}
		}
		if len(got) != len(keys) {
			t.Errorf("ForEach gave %d keys, want %d", len(got), len(keys))
		}
		return nil
	}))
}

// fill puts n keys k0000… into a new bucket "walk" of mail, with a nested
// bucket "k0005x" among them; it returns the keys in order.
func fill(t *testing.T, s *store.Store, n int) []string {
	var keys []string
	must(t, update(s, func(tx store.Tx) error {
		b, err := tx.Bucket(store.BucketMail).CreateBucket([]byte("walk"))
		if err != nil {
			return err
		}
		keys = keys[:0]
		for i := 0; i < n; i++ {
			k := fmt.Sprintf("k%04d", i)
			must(t, b.Put([]byte(k), []byte("v"+k)))
			keys = append(keys, k)
			if i == 5 {
				if _, err := b.CreateBucket([]byte("k0005x")); err != nil {
					return err
				}
				keys = append(keys, "k0005x")
			}
		}
		return nil
	}))
	return keys
}

func walk(tx store.Tx) store.Bucket { return tx.Bucket(store.BucketMail).Bucket([]byte("walk")) }

func cursorWalks(t *testing.T, s *store.Store) {
	keys := fill(t, s, 600) // pages of every size
	must(t, view(s, func(tx store.Tx) error {
		c := walk(tx).Cursor()
		var fwd []string
		for k, v := c.First(); k != nil; k, v = c.Next() {
			fwd = append(fwd, string(k))
			if string(k) == "k0005x" {
				if v != nil {
					t.Errorf("the cursor gave a nested bucket the value %q, want nil", v)
				}
			} else if string(v) != "v"+string(k) {
				t.Errorf("%s = %q", k, v)
			}
		}
		if fmt.Sprint(fwd) != fmt.Sprint(keys) {
			t.Errorf("First/Next gave %d keys, want %d in order", len(fwd), len(keys))
		}
		if k, _ := c.Next(); k != nil {
			t.Errorf("Next past the end gave %s", k)
		}
		var back []string
		for k, _ := c.Last(); k != nil; k, _ = c.Prev() {
			back = append(back, string(k))
		}
		for i := range back {
			if i >= len(keys) || back[i] != keys[len(keys)-1-i] {
				t.Fatalf("Last/Prev gave %d keys, not the reverse of the %d", len(back), len(keys))
			}
		}
		if k, _ := c.Seek([]byte("k0300")); string(k) != "k0300" {
			t.Errorf("Seek(k0300) = %s", k)
		}
		if k, _ := c.Prev(); string(k) != "k0299" {
			t.Errorf("Prev after Seek = %s", k)
		}
		if k, _ := c.Next(); string(k) != "k0300" {
			t.Errorf("Next after Prev = %s", k)
		}
		if k, _ := c.Seek([]byte("k02995")); string(k) != "k0300" {
			t.Errorf("Seek between keys = %s, want the next key k0300", k)
		}
		if k, _ := c.Seek([]byte("zzz")); k != nil {
			t.Errorf("Seek past the end = %s", k)
		}
		if k, _ := c.Seek(nil); string(k) != "k0000" {
			t.Errorf("Seek(nil) = %s", k)
		}
		if k, _ := c.Prev(); k != nil {
			t.Errorf("Prev before the first key = %s", k)
		}
		if c.Bucket() == nil {
			t.Error("the cursor has no bucket")
		}
		return nil
	}))
	must(t, view(s, func(tx store.Tx) error {
		// An empty bucket.
		c := tx.Bucket(store.BucketWake).Cursor()
		if k, v := c.First(); k != nil || v != nil {
			t.Errorf("First of an empty bucket = %s %s", k, v)
		}
		if k, _ := c.Last(); k != nil {
			t.Errorf("Last of an empty bucket = %s", k)
		}
		return nil
	}))
}

func cursorDeletes(t *testing.T, s *store.Store) {
	fill(t, s, 300)
	must(t, update(s, func(tx store.Tx) error {
		c := walk(tx).Cursor()
		n := 0
		for k, v := c.First(); k != nil; k, v = c.Next() {
			if v == nil {
				if err := c.Delete(); !errors.Is(err, store.ErrIncompatibleValue) {
					t.Errorf("Cursor.Delete of a nested bucket gave %v", err)
				}
				continue
			}
			if n%2 == 0 {
				must(t, c.Delete())
			}
			n++
		}
		if n != 300 {
			t.Errorf("deleting while walking visited %d keys, want 300", n)
		}
		return nil
	}))
	must(t, view(s, func(tx store.Tx) error {
		if n := walk(tx).KeyN(); n != 151 {
			t.Errorf("%d keys left, want 150 and the nested bucket", n)
		}
		if walk(tx).Get([]byte("k0000")) != nil || walk(tx).Get([]byte("k0001")) == nil {
			t.Error("the wrong keys were deleted")
		}
		return nil
	}))
}

func sequences(t *testing.T, s *store.Store) {
	must(t, update(s, func(tx store.Tx) error {
		b := tx.Bucket(store.BucketMail)
		for want := uint64(1); want <= 3; want++ {
			if n, err := b.NextSequence(); err != nil || n != want {
				t.Errorf("NextSequence = %d, %v; want %d", n, err, want)
			}
		}
		if n := b.Sequence(); n != 3 {
			t.Errorf("Sequence = %d", n)
		}
		must(t, b.SetSequence(10))
		return nil
	}))
	err := update(s, func(tx store.Tx) error {
		tx.Bucket(store.BucketMail).NextSequence()
		return errors.New("roll back")
	})
	if err == nil {
		t.Fatal("the failing update did not fail")
	}
	must(t, update(s, func(tx store.Tx) error {
		if n, _ := tx.Bucket(store.BucketMail).NextSequence(); n != 11 {
			t.Errorf("after SetSequence(10) and a rolled back NextSequence, NextSequence = %d, want 11", n)
		}
		if n := tx.Bucket(store.BucketWake).Sequence(); n != 0 {
			t.Errorf("another bucket's Sequence = %d", n)
		}
		return nil
	}))
}

func rollback(t *testing.T, s *store.Store) {
	committed := 0
	err := update(s, func(tx store.Tx) error {
		tx.OnCommit(func() { committed++ })
		must(t, tx.Bucket(store.BucketMail).Put([]byte("x"), []byte("1")))
		if _, err := tx.Bucket(store.BucketGames).CreateBucket([]byte("g")); err != nil {
			return err
		}
		return errors.New("refused")
	})
	if err == nil || err.Error() != "refused" {
		t.Fatalf("Update gave %v, want fn's error", err)
	}
	must(t, view(s, func(tx store.Tx) error {
		if tx.Bucket(store.BucketMail).Get([]byte("x")) != nil || tx.Bucket(store.BucketGames).Bucket([]byte("g")) != nil {
			t.Error("a failed update left changes")
		}
		return nil
	}))
	if committed != 0 {
		t.Error("OnCommit ran for a rolled back update")
	}
	must(t, update(s, func(tx store.Tx) error {
		tx.OnCommit(func() { committed++ })
		return tx.Bucket(store.BucketMail).Put([]byte("x"), []byte("1"))
	}))
	if committed != 1 {
		t.Errorf("OnCommit ran %d times for one commit", committed)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := s.Update(ctx, func(tx store.Tx) error { return nil }); !errors.Is(err, context.Canceled) {
		t.Errorf("Update with a done context gave %v", err)
	}
}

func readOnly(t *testing.T, s *store.Store) {
	must(t, view(s, func(tx store.Tx) error {
		if tx.Writable() || tx.Bucket(store.BucketMail).Writable() {
			t.Error("a View's transaction says it is writable")
		}
		if err := tx.Bucket(store.BucketMail).Put([]byte("x"), []byte("1")); !errors.Is(err, store.ErrTxNotWritable) {
			t.Errorf("Put in a View gave %v, want ErrTxNotWritable", err)
		}
		if _, err := tx.CreateBucket([]byte("new")); !errors.Is(err, store.ErrTxNotWritable) {
			t.Errorf("CreateBucket in a View gave %v, want ErrTxNotWritable", err)
		}
		return nil
	}))
}

// concurrentIncrements reads, adds one and writes back a counter from
// several goroutines at once: no increment may be lost (bbolt serialises
// writers; PostgreSQL fails some at SERIALIZABLE and Store runs them again).
func concurrentIncrements(t *testing.T, s *store.Store) {
	const workers, each = 4, 15
	var wg sync.WaitGroup
	errs := make(chan error, workers*each)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < each; i++ {
				errs <- update(s, func(tx store.Tx) error {
					b := tx.Bucket(store.BucketMeta)
					n := store.KeyN(b.Get([]byte("counter")))
					return b.Put([]byte("counter"), store.Key(n+1))
				})
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		must(t, err)
	}
	must(t, view(s, func(tx store.Tx) error {
		if n := store.KeyN(tx.Bucket(store.BucketMeta).Get([]byte("counter"))); n != workers*each {
			t.Errorf("counter = %d after %d increments", n, workers*each)
		}
		return nil
	}))
}

func viewIsASnapshot(t *testing.T, s *store.Store) {
	must(t, update(s, func(tx store.Tx) error { return tx.Bucket(store.BucketMail).Put([]byte("x"), []byte("old")) }))
	must(t, view(s, func(tx store.Tx) error {
		b := tx.Bucket(store.BucketMail)
		if string(b.Get([]byte("x"))) != "old" {
			t.Fatal("x is not old")
		}
		must(t, update(s, func(tx store.Tx) error { return tx.Bucket(store.BucketMail).Put([]byte("x"), []byte("new")) }))
		if got := b.Get([]byte("x")); string(got) != "old" {
			t.Errorf("a View read %q after a concurrent commit, want its snapshot's old", got)
		}
		return nil
	}))
}

func group(t *testing.T, s *store.Store) {
	ctx := context.Background()
	before := s.Stats().Commits
	err := s.Group(ctx, func(ctx context.Context) error {
		for _, k := range []string{"a", "b"} {
			must(t, s.Update(ctx, func(tx store.Tx) error { return tx.Bucket(store.BucketMail).Put([]byte(k), []byte(k)) }))
		}
		return s.View(ctx, func(tx store.Tx) error {
			if tx.Bucket(store.BucketMail).Get([]byte("a")) == nil {
				t.Error("a View in a group does not see the group's changes")
			}
			return nil
		})
	})
	must(t, err)
	if n := s.Stats().Commits - before; n != 1 {
		t.Errorf("a group committed %d times", n)
	}
	err = s.Group(ctx, func(ctx context.Context) error {
		must(t, s.Update(ctx, func(tx store.Tx) error { return tx.Bucket(store.BucketMail).Put([]byte("c"), []byte("c")) }))
		s.Update(ctx, func(tx store.Tx) error { return errors.New("refused") })
		return nil
	})
	if !errors.Is(err, store.ErrGroupAborted) {
		t.Errorf("a spoiled group gave %v", err)
	}
	must(t, view(s, func(tx store.Tx) error {
		if tx.Bucket(store.BucketMail).Get([]byte("c")) != nil {
			t.Error("a spoiled group kept a change")
		}
		return nil
	}))
}

// closeWaitsForGroup: Close while a group is under way (a daemon stopping,
// or a test's clean-up, while a tick commits its batch) refuses new work
// at once with ErrClosed, and waits for the group, whose changes then
// commit together: a batch is never cut off half done by its store
// closing under it, nor does a late call reach a closed backend.
func closeWaitsForGroup(t *testing.T, s *store.Store) {
	ctx := context.Background()
	put := func(ctx context.Context, k string) error {
		return s.Update(ctx, func(tx store.Tx) error { return tx.Bucket(store.BucketMail).Put([]byte(k), []byte(k)) })
	}
	noop := func(store.Tx) error { return nil }
	inside, release := make(chan struct{}), make(chan struct{})
	var nested error
	grouped := make(chan error, 1)
	go func() {
		grouped <- s.Group(ctx, func(ctx context.Context) error {
			if err := put(ctx, "a"); err != nil {
				return err
			}
			close(inside)
			<-release
			// A transaction of its own, opened inside the group once
			// Close has begun, is refused rather than waited for (Close
			// waits for the group, which would wait for it).
			nested = s.View(context.Background(), noop)
			return put(ctx, "b")
		})
	}()
	<-inside
	closed := make(chan error, 1)
	go func() { closed <- s.Close() }()
	// Close begins by refusing new work; a View does not wait for the
	// group's writer, so it tells when that has happened.
	for deadline := time.Now().Add(10 * time.Second); ; {
		err := s.View(ctx, noop)
		if errors.Is(err, store.ErrClosed) {
			break
		}
		if err != nil || time.Now().After(deadline) {
			close(release)
			t.Fatalf("a View while Close waits for a group gave %v, want ErrClosed", err)
		}
		time.Sleep(time.Millisecond)
	}
	select {
	case err := <-closed:
		t.Errorf("Close returned (%v) while a group was under way", err)
	default:
	}
	close(release)
	if err := <-grouped; err != nil {
		t.Errorf("the group under way when Close began failed: %v", err)
	}
	if !errors.Is(nested, store.ErrClosed) {
		t.Errorf("a transaction opened inside the group after Close began gave %v, want ErrClosed", nested)
	}
	if err := <-closed; err != nil {
		t.Errorf("Close: %v", err)
	}
	for name, err := range map[string]error{
		"Update": put(ctx, "c"),
		"View":   s.View(ctx, noop),
		"Group":  s.Group(ctx, func(ctx context.Context) error { return put(ctx, "d") }),
	} {
		if !errors.Is(err, store.ErrClosed) || !strings.Contains(err.Error(), s.Name()) {
			t.Errorf("%s after Close gave %v, want ErrClosed naming the store", name, err)
		}
	}
	if err := s.Close(); err != nil {
		t.Errorf("a second Close: %v", err)
	}
}

// queue makes mail/queue with the nested buckets names (each holding one
// key) and a plain key, which Claim never gives.
func queue(t *testing.T, s *store.Store, names ...string) {
	must(t, update(s, func(tx store.Tx) error {
		q, err := tx.Bucket(store.BucketMail).CreateBucketIfNotExists([]byte("queue"))
		if err != nil {
			return err
		}
		if err := q.Put([]byte("a-value"), []byte("not a bucket")); err != nil {
			return err
		}
		for _, n := range names {
			b, err := q.CreateBucket([]byte(n))
			if err != nil {
				return err
			}
			if err := b.Put([]byte("k"), []byte(n)); err != nil {
				return err
			}
		}
		return nil
	}))
}

func queueOf(tx store.Tx) store.Bucket { return tx.Bucket(store.BucketMail).Bucket([]byte("queue")) }

// claimAll claims every nested bucket of mail/queue in one transaction
// and returns their names, sorted.
func claimAll(t *testing.T, s *store.Store) []string {
	var got []string
	must(t, update(s, func(tx store.Tx) error {
		names, err := queueOf(tx).Claim(100)
		got = got[:0]
		for _, n := range names {
			got = append(got, string(n))
		}
		return err
	}))
	slices.Sort(got)
	return got
}

// claim: Claim gives nested buckets only, at most n, none in a View;
// a claimed bucket deleted and committed is gone, a claim rolled back
// is claimable again.
func claim(t *testing.T, s *store.Store) {
	queue(t, s, "m1", "m2", "m3")
	must(t, view(s, func(tx store.Tx) error {
		if _, err := queueOf(tx).Claim(1); !errors.Is(err, store.ErrTxNotWritable) {
			t.Errorf("Claim in a View gave %v, want ErrTxNotWritable", err)
		}
		return nil
	}))
	must(t, update(s, func(tx store.Tx) error {
		if names, err := queueOf(tx).Claim(0); err != nil || len(names) != 0 {
			t.Errorf("Claim(0) gave %q, %v; want nothing", names, err)
		}
		first, err := queueOf(tx).Claim(1)
		if err != nil {
			return err
		}
		names, err := queueOf(tx).Claim(2)
		if err != nil {
			return err
		}
		if len(names) != 2 || bytes.Equal(names[0], names[1]) {
			t.Errorf("Claim(2) of 3 gave %q, want two names", names)
		}
		if len(first) != 1 || !slices.ContainsFunc(names, func(n []byte) bool { return bytes.Equal(n, first[0]) }) {
			t.Errorf("Claim(1) gave %q, then Claim(2) %q: want the bucket this transaction holds among them", first, names)
		}
		for _, n := range names {
			if b := queueOf(tx).Bucket(n); b == nil || string(b.Get([]byte("k"))) != string(n) {
				t.Errorf("Claim gave %q, which is not one of the nested buckets", n)
			}
		}
		return nil
	}))
	err := update(s, func(tx store.Tx) error {
		names, err := queueOf(tx).Claim(3)
		if err != nil {
			return err
		}
		if len(names) != 3 {
			t.Errorf("Claim(3) gave %q, want all three", names)
		}
		return errors.New("rolled back")
	})
	if err == nil {
		t.Fatal("the update did not fail")
	}
	if got := claimAll(t, s); !slices.Equal(got, []string{"m1", "m2", "m3"}) {
		t.Fatalf("after a claim rolled back, Claim gave %q, want m1 m2 m3", got)
	}
	must(t, update(s, func(tx store.Tx) error {
		names, err := queueOf(tx).Claim(1)
		if err != nil || len(names) != 1 {
			return fmt.Errorf("Claim(1) gave %q, %v", names, err)
		}
		return queueOf(tx).DeleteBucket(names[0])
	}))
	if got := claimAll(t, s); len(got) != 2 {
		t.Errorf("after a claimed bucket was deleted, Claim gave %q, want the two others", got)
	}
}

// claimsAreDisjoint: two transactions open at once, claiming from one
// parent, get disjoint sets, and the second does not wait for the first.
func claimsAreDisjoint(t *testing.T, s *store.Store) {
	queue(t, s, "m1", "m2", "m3", "m4", "m5")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	claimed, release := make(chan []string, 1), make(chan struct{})
	firstDone := make(chan error, 1)
	go func() {
		firstDone <- s.Update(ctx, func(tx store.Tx) error {
			names, err := queueOf(tx).Claim(3)
			if err != nil {
				return err
			}
			var got []string
			for _, n := range names {
				got = append(got, string(n))
			}
			select {
			case claimed <- got:
			default: // a retried try: the test has its answer
			}
			select {
			case <-release:
			case <-ctx.Done():
			}
			return nil
		})
	}()
	var first []string
	select {
	case first = <-claimed:
	case <-ctx.Done():
		t.Fatal("the first claim did not come")
	}
	second := claimAll(t, s) // while the first is open
	close(release)
	must(t, <-firstDone)
	if len(first) != 3 || len(second) != 2 {
		t.Errorf("the first claimed %q, the second %q; want 3 and the other 2", first, second)
	}
	for _, n := range first {
		if slices.Contains(second, n) {
			t.Errorf("%s was claimed by two open transactions", n)
		}
	}
	if got := claimAll(t, s); len(got) != 5 {
		t.Errorf("once both ended, Claim gave %q, want all five", got)
	}
}

// names turns byte names into strings, for comparing.
func names(bs [][]byte) []string {
	out := []string{}
	for _, b := range bs {
		out = append(out, string(b))
	}
	return out
}

// claimNamed: ClaimNamed gives, in name order, those of the names asked
// for that are nested buckets (not plain keys, not missing ones), none
// in a View; it claims what Claim would too.
func claimNamed(t *testing.T, s *store.Store) {
	queue(t, s, "m1", "m2", "m3")
	must(t, view(s, func(tx store.Tx) error {
		if _, err := queueOf(tx).ClaimNamed([][]byte{[]byte("m1")}); !errors.Is(err, store.ErrTxNotWritable) {
			t.Errorf("ClaimNamed in a View gave %v, want ErrTxNotWritable", err)
		}
		return nil
	}))
	must(t, update(s, func(tx store.Tx) error {
		if got, err := queueOf(tx).ClaimNamed(nil); err != nil || len(got) != 0 {
			t.Errorf("ClaimNamed(nil) gave %q, %v; want nothing", got, err)
		}
		got, err := queueOf(tx).ClaimNamed([][]byte{[]byte("m3"), []byte("a-value"), []byte("nope"), []byte("m1")})
		if err != nil {
			return err
		}
		if !slices.Equal(names(got), []string{"m1", "m3"}) {
			t.Errorf("ClaimNamed(m3 a-value nope m1) gave %q, want m1 m3", got)
		}
		again, err := queueOf(tx).ClaimNamed([][]byte{[]byte("m1"), []byte("m2")})
		if err != nil {
			return err
		}
		if !slices.Equal(names(again), []string{"m1", "m2"}) {
			t.Errorf("ClaimNamed(m1 m2) after m1 was claimed in the same transaction gave %q, want both", again)
		}
		return nil
	}))
}

// claimNamedSkipsHeld: while one transaction holds some buckets (claimed
// by name, by Claim, or a game opened for a change), ClaimNamed in
// another skips them at once instead of waiting, and gets the rest; once
// the first ends, they are free again.
func claimNamedSkipsHeld(t *testing.T, s *store.Store) {
	queue(t, s, "m1", "m2", "m3", "m4")
	must(t, update(s, func(tx store.Tx) error {
		for _, id := range []string{"g1", "g2"} {
			g, err := tx.Bucket(store.BucketGames).CreateBucket([]byte(id))
			if err != nil {
				return err
			}
			if err := g.Put(store.KeyInfo, []byte("{}")); err != nil {
				return err
			}
		}
		return nil
	}))
	all := [][]byte{[]byte("m1"), []byte("m2"), []byte("m3"), []byte("m4")}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	holding, release := make(chan struct{}, 1), make(chan struct{})
	firstDone := make(chan error, 1)
	go func() {
		firstDone <- s.Update(ctx, func(tx store.Tx) error {
			if _, err := queueOf(tx).ClaimNamed([][]byte{[]byte("m2")}); err != nil {
				return err
			}
			if _, err := queueOf(tx).Claim(1); err != nil { // m1, the oldest
				return err
			}
			// A change of g1 opens it: its row is locked.
			if g := tx.Bucket(store.BucketGames).Bucket([]byte("g1")); g == nil || g.Get(store.KeyInfo) == nil {
				return errors.New("g1 is missing")
			}
			select {
			case holding <- struct{}{}:
			default:
			}
			select {
			case <-release:
			case <-ctx.Done():
			}
			return nil
		})
	}()
	select {
	case <-holding:
	case <-ctx.Done():
		t.Fatal("the first transaction did not claim")
	}
	var got, games []string
	must(t, update(s, func(tx store.Tx) error {
		q, err := queueOf(tx).ClaimNamed(all)
		if err != nil {
			return err
		}
		g, err := tx.Bucket(store.BucketGames).ClaimNamed([][]byte{[]byte("g1"), []byte("g2")})
		got, games = names(q), names(g)
		return err
	}))
	close(release)
	must(t, <-firstDone)
	if !slices.Equal(got, []string{"m3", "m4"}) || !slices.Equal(games, []string{"g2"}) {
		t.Errorf("while m1, m2 and g1 were held, ClaimNamed gave %q and %q; want m3 m4 and g2", got, games)
	}
	must(t, update(s, func(tx store.Tx) error {
		q, err := queueOf(tx).ClaimNamed(all)
		got = names(q)
		return err
	}))
	if len(got) != 4 {
		t.Errorf("once the first ended, ClaimNamed gave %q, want all four", got)
	}
}

// claimNamedGames: games claimed by name read as any game does, in the
// claiming transaction (PostgreSQL reads them with the claim), with what
// the transaction wrote to one before the claim, and their changes commit.
func claimNamedGames(t *testing.T, s *store.Store) {
	must(t, update(s, func(tx store.Tx) error {
		games := tx.Bucket(store.BucketGames)
		for _, id := range []string{"g1", "g2"} {
			g, err := games.CreateBucket([]byte(id))
			if err != nil {
				return err
			}
			for _, kv := range [][2]string{{"info", "i-" + id}, {"state", "s-" + id}, {"empty", ""}} {
				if err := g.Put([]byte(kv[0]), []byte(kv[1])); err != nil {
					return err
				}
			}
			log, err := g.CreateBucket([]byte("log"))
			if err != nil {
				return err
			}
			if err := log.SetSequence(5); err != nil {
				return err
			}
			if err := log.Put([]byte("k"), []byte("v-"+id)); err != nil {
				return err
			}
		}
		return nil
	}))
	must(t, update(s, func(tx store.Tx) error {
		games := tx.Bucket(store.BucketGames)
		if err := games.Bucket([]byte("g2")).Put([]byte("info"), []byte("i-g2 changed")); err != nil {
			return err
		}
		got, err := games.ClaimNamed([][]byte{[]byte("g2"), []byte("g3"), []byte("g1"), []byte("g1")})
		if err != nil {
			return err
		}
		if !slices.Equal(names(got), []string{"g1", "g2"}) {
			t.Errorf("ClaimNamed(g2 g3 g1 g1) gave %q, want g1 g2", got)
		}
		// Reading g1 now takes nothing more from a server: the claim
		// read it.
		trips := s.Stats().RoundTrips
		g1 := games.Bucket([]byte("g1"))
		if string(g1.Get([]byte("info"))) != "i-g1" || string(g1.Get([]byte("state"))) != "s-g1" || g1.Bucket([]byte("log")).Sequence() != 5 {
			t.Errorf("claimed g1 reads %q, %q, sequence %d", g1.Get([]byte("info")), g1.Get([]byte("state")), g1.Bucket([]byte("log")).Sequence())
		}
		if n := s.Stats().RoundTrips - trips; n != 0 {
			t.Errorf("reading a claimed game's keys made %d round trips, want 0", n)
		}
		var keys []string
		c := g1.Cursor()
		for k, _ := c.First(); k != nil; k, _ = c.Next() {
			keys = append(keys, string(k))
		}
		if !slices.Equal(keys, []string{"empty", "info", "log", "state"}) {
			t.Errorf("claimed g1 holds %q, want empty info log state", keys)
		}
		if v := g1.Get([]byte("empty")); v == nil || len(v) != 0 {
			t.Errorf("claimed g1's empty value reads %q, want an empty value", v)
		}
		if g1.Get([]byte("nope")) != nil || g1.Get([]byte("log")) != nil {
			t.Error("claimed g1 has a value for a missing key or for its nested bucket")
		}
		log := g1.Bucket([]byte("log"))
		if log == nil || log.Sequence() != 5 || string(log.Get([]byte("k"))) != "v-g1" {
			t.Fatalf("claimed g1's log reads wrong")
		}
		if n, err := log.NextSequence(); err != nil || n != 6 {
			t.Errorf("claimed g1's log's next sequence is %d, %v; want 6", n, err)
		}
		if v := string(games.Bucket([]byte("g2")).Get([]byte("info"))); v != "i-g2 changed" {
			t.Errorf("g2, changed before it was claimed, reads %q after the claim", v)
		}
		return g1.Put([]byte("info"), []byte("i-g1 changed"))
	}))
	must(t, view(s, func(tx store.Tx) error {
		games := tx.Bucket(store.BucketGames)
		for id, want := range map[string]string{"g1": "i-g1 changed", "g2": "i-g2 changed"} {
			if v := string(games.Bucket([]byte(id)).Get([]byte("info"))); v != want {
				t.Errorf("after the commit %s's info is %q, want %q", id, v, want)
			}
		}
		if n := games.Bucket([]byte("g1")).Bucket([]byte("log")).Sequence(); n != 6 {
			t.Errorf("after the commit g1's log's sequence is %d, want 6", n)
		}
		return nil
	}))
}
