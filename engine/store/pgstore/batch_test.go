package pgstore_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"orrery/engine/store"
	"orrery/engine/store/pgstore"
)

// An order mail's transaction, in outline (pbem/daemon: the seen-record,
// the game, its log, the outbox), costs four round trips once the store
// knows its long-lived buckets: the seen-record's read (with BEGIN and
// the confirmation of the cached bucket ids), the game's row lock (with
// the game's own keys), the outbox's sequence, and COMMIT with every
// write. Each Put, Get and bucket lookup was a round trip of its own
// before (28 for this sequence).
func TestRoundTripsOfAnOrderMail(t *testing.T) {
	ctx := context.Background()
	s, _ := openSchema(t)
	if err := s.Update(ctx, func(tx store.Tx) error {
		g, err := tx.Bucket(store.BucketGames).CreateBucket([]byte("g1"))
		if err != nil {
			return err
		}
		for _, k := range [][]byte{store.KeyInfo, store.KeyState} {
			if err := g.Put(k, []byte("{}")); err != nil {
				return err
			}
		}
		for _, name := range [][]byte{store.BucketLog, store.BucketPending} {
			if _, err := g.CreateBucket(name); err != nil {
				return err
			}
		}
		mail := tx.Bucket(store.BucketMail)
		for _, name := range []string{"inbox-seen", "outbox"} {
			if _, err := mail.CreateBucket([]byte(name)); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	mailTx := func(i int) func(tx store.Tx) error {
		return func(tx store.Tx) error {
			mail := tx.Bucket(store.BucketMail)
			seen := mail.Bucket([]byte("inbox-seen"))
			key := store.Key(uint64(i))
			if seen.Get(key) != nil {
				return errors.New("seen twice")
			}
			g := tx.Bucket(store.BucketGames).Bucket([]byte("g1"))
			if g.Get(store.KeyInfo) == nil || g.Get(store.KeyState) == nil {
				return errors.New("the game has no info or state")
			}
			if err := g.Put(store.KeyState, []byte(`{"step":1}`)); err != nil {
				return err
			}
			log := g.Bucket(store.BucketLog)
			n, err := log.NextSequence()
			if err != nil {
				return err
			}
			if err := log.Put(store.Key(n), []byte("entry")); err != nil {
				return err
			}
			if err := g.Bucket(store.BucketPending).Put([]byte("turn:ann"), []byte("orders")); err != nil {
				return err
			}
			out := mail.Bucket([]byte("outbox"))
			for range 5 { // a report to every seat
				n, err := out.NextSequence()
				if err != nil {
					return err
				}
				if err := out.Put(store.Key(n), []byte("mail")); err != nil {
					return err
				}
			}
			return seen.Put(key, []byte("seen"))
		}
	}
	if err := s.Update(ctx, mailTx(1)); err != nil { // learns the buckets
		t.Fatal(err)
	}
	before := s.Stats()
	if err := s.Update(ctx, mailTx(2)); err != nil {
		t.Fatal(err)
	}
	if n := s.Stats().Sub(before).RoundTrips; n != 4 {
		t.Errorf("the order mail's transaction made %d round trips, want 4", n)
	}
	if err := s.View(ctx, func(tx store.Tx) error {
		g := tx.Bucket(store.BucketGames).Bucket([]byte("g1"))
		if got := g.Bucket(store.BucketLog).KeyN(); got != 2 {
			t.Errorf("the log holds %d entries, want 2", got)
		}
		if got := tx.Bucket(store.BucketMail).Bucket([]byte("outbox")).Sequence(); got != 10 {
			t.Errorf("the outbox's sequence is %d, want 10", got)
		}
		if got := string(g.Get(store.KeyState)); got != `{"step":1}` {
			t.Errorf("state = %q", got)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}

// A bucket id a store caches across transactions goes stale when another
// process deletes the bucket and makes it again (an index rebuild does):
// the next View and Update find the new bucket, whether they read from it
// or only write to it, and one deleted for good is nil.
func TestCachedBucketMadeAgainByAnotherProcess(t *testing.T) {
	ctx := context.Background()
	s1, dsn := openSchema(t)
	s2 := openSecond(t, dsn)
	get := func(s *store.Store, key string) (got string, there bool) {
		t.Helper()
		if err := s.View(ctx, func(tx store.Tx) error {
			b := tx.Bucket(store.BucketMail).Bucket([]byte("box"))
			got, there = "", b != nil
			if b != nil {
				got = string(b.Get([]byte(key)))
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		return got, there
	}
	remake := func(v string) {
		t.Helper()
		if err := s2.Update(ctx, func(tx store.Tx) error {
			mail := tx.Bucket(store.BucketMail)
			if err := mail.DeleteBucket([]byte("box")); err != nil {
				return err
			}
			b, err := mail.CreateBucket([]byte("box"))
			if err != nil {
				return err
			}
			return b.Put([]byte("k"), []byte(v))
		}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s1.Update(ctx, func(tx store.Tx) error {
		b, err := tx.Bucket(store.BucketMail).CreateBucket([]byte("box"))
		if err != nil {
			return err
		}
		return b.Put([]byte("k"), []byte("v1"))
	}); err != nil {
		t.Fatal(err)
	}
	if got, _ := get(s1, "k"); got != "v1" {
		t.Fatalf("k = %q, want v1", got)
	}
	remake("v2")
	if got, _ := get(s1, "k"); got != "v2" {
		t.Errorf("after the bucket was made again elsewhere, a View read k = %q, want v2", got)
	}
	remake("v3")
	// Only writes: the stale id is caught at commit.
	if err := s1.Update(ctx, func(tx store.Tx) error {
		return tx.Bucket(store.BucketMail).Bucket([]byte("box")).Put([]byte("k2"), []byte("w"))
	}); err != nil {
		t.Fatal(err)
	}
	if got, _ := get(s2, "k2"); got != "w" {
		t.Errorf("a write through a stale bucket id landed as %q, want w in the bucket made again", got)
	}
	if got, _ := get(s2, "k"); got != "v3" {
		t.Errorf("k = %q, want v3", got)
	}
	if err := s2.Update(ctx, func(tx store.Tx) error {
		return tx.Bucket(store.BucketMail).DeleteBucket([]byte("box"))
	}); err != nil {
		t.Fatal(err)
	}
	if _, there := get(s1, "k"); there {
		t.Error("a bucket deleted by another process is still there")
	}
}

// A Put or Delete of a key that names a nested bucket is refused: at
// once when the transaction knows the key for a bucket (it made it,
// looked it up or read it), else when the write reaches the server,
// which fails the transaction; nothing of it commits.
func TestWriteOverANestedBucket(t *testing.T) {
	ctx := context.Background()
	s, _ := openSchema(t)
	if err := s.Update(ctx, func(tx store.Tx) error {
		_, err := tx.Bucket(store.BucketMail).CreateBucket([]byte("sub"))
		return err
	}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		write func(b store.Bucket) error
	}{
		{"Put", func(b store.Bucket) error { return b.Put([]byte("sub"), []byte("x")) }},
		{"Delete", func(b store.Bucket) error { return b.Delete([]byte("sub")) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := s.Update(ctx, func(tx store.Tx) error {
				mail := tx.Bucket(store.BucketMail)
				if err := mail.Put([]byte("other"), []byte("y")); err != nil {
					return err
				}
				return tc.write(mail) // not known here: refused when sent
			})
			if !errors.Is(err, store.ErrIncompatibleValue) {
				t.Errorf("the update gave %v, want ErrIncompatibleValue", err)
			}
			var known error
			if err := s.Update(ctx, func(tx store.Tx) error {
				mail := tx.Bucket(store.BucketMail)
				mail.Get([]byte("sub"))
				known = tc.write(mail)
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			if !errors.Is(known, store.ErrIncompatibleValue) {
				t.Errorf("after a read of the key, the write gave %v, want ErrIncompatibleValue", known)
			}
			if err := s.View(ctx, func(tx store.Tx) error {
				mail := tx.Bucket(store.BucketMail)
				if mail.Get([]byte("other")) != nil {
					t.Error("the failed update committed another key")
				}
				if mail.Bucket([]byte("sub")) == nil {
					t.Error("the nested bucket is gone")
				}
				return nil
			}); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// Opening a game reads its keys with it, but a read-only transaction
// leaves out values too large (the state) and a game with many keys is
// read in part: every key still reads as written, and one that is not
// there reads nil.
func TestGameReadWithItsKeys(t *testing.T) {
	s, _ := openSchema(t)
	big := bytes.Repeat([]byte("s"), 10000)
	for _, many := range []int{3, 40} {
		testGameRead(t, s, big, many)
	}
}

func testGameRead(t *testing.T, s *store.Store, big []byte, many int) {
	ctx := context.Background()
	id := []byte(fmt.Sprintf("g%d", many))
	if err := s.Update(ctx, func(tx store.Tx) error {
		g, err := tx.Bucket(store.BucketGames).CreateBucket(id)
		if err != nil {
			return err
		}
		if err := g.Put(store.KeyState, big); err != nil {
			return err
		}
		for i := range many {
			if err := g.Put([]byte(fmt.Sprintf("k%02d", i)), []byte(fmt.Sprint(i))); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	check := func(tx store.Tx) error {
		g := tx.Bucket(store.BucketGames).Bucket(id)
		if got := g.Get(store.KeyState); !bytes.Equal(got, big) {
			t.Errorf("%s, writable=%v: the state read %d bytes, want %d", id, tx.Writable(), len(got), len(big))
		}
		for i := range many {
			if got := string(g.Get([]byte(fmt.Sprintf("k%02d", i)))); got != fmt.Sprint(i) {
				t.Errorf("%s, writable=%v: k%02d = %q", id, tx.Writable(), i, got)
			}
		}
		if g.Get([]byte("zz")) != nil || g.Bucket([]byte("zz")) != nil {
			t.Errorf("%s, writable=%v: a key that is not there reads as there", id, tx.Writable())
		}
		return nil
	}
	if err := s.View(ctx, check); err != nil {
		t.Fatal(err)
	}
	if err := s.Update(ctx, check); err != nil {
		t.Fatal(err)
	}
}

// bigBucket makes mail/big, of 6,000 keys and a nested bucket, on a fresh
// schema (no statistics yet), and returns a connection of the store's
// pool (released when the test ends) and the bucket's id.
func bigBucket(t *testing.T) (*pgxpool.Conn, int64) {
	t.Helper()
	ctx := context.Background()
	s, _ := openSchema(t)
	if err := s.Update(ctx, func(tx store.Tx) error {
		b, err := tx.Bucket(store.BucketMail).CreateBucket([]byte("big"))
		if err != nil {
			return err
		}
		for i := range 6000 {
			if err := b.Put(fmt.Appendf(nil, "k%05d", i), []byte("v")); err != nil {
				return err
			}
		}
		_, err = b.CreateBucket([]byte("nested"))
		return err
	}); err != nil {
		t.Fatal(err)
	}
	conn, err := pgstore.Pool(s).Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(conn.Release)
	var big int64
	if err := conn.QueryRow(ctx, `SELECT k.child FROM orrery_kv k JOIN orrery_kv m ON k.bucket = m.child
		WHERE m.bucket = 0 AND m.key = $1 AND k.key = 'big'`, store.BucketMail).Scan(&big); err != nil {
		t.Fatal(err)
	}
	return conn, big
}

// explain runs query under EXPLAIN ANALYZE and returns its plan.
func explain(t *testing.T, conn *pgxpool.Conn, query string) string {
	t.Helper()
	rows, err := conn.Query(context.Background(), "EXPLAIN (ANALYZE, COSTS OFF) "+query, pgx.QueryExecModeSimpleProtocol)
	if err != nil {
		t.Fatal(err)
	}
	lines, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(lines, "\n")
}

// The check of a transaction's cached bucket ids probes the primary keys,
// whatever the planner believes of the tables' sizes: on a young schema
// (no statistics yet, 6,000 keys in one bucket) the generic plan of the
// EXISTS form scanned and hashed all of orrery_kv for every check, 2 ms
// an order mail at 10 games, and took a predicate lock on the whole table.
func TestBucketCheckProbesTheIndex(t *testing.T) {
	ctx := context.Background()
	conn, big := bigBucket(t)
	for _, q := range []string{
		"SET plan_cache_mode = force_generic_plan",
		"PREPARE check_ids (bigint[], bytea[], bigint[]) AS " + pgstore.BucketCheck,
	} {
		if _, err := conn.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	// A name with no key under the big bucket (0), and the big bucket's
	// own row (its id): the check passes, and says how it looked.
	plan := explain(t, conn, fmt.Sprintf(`EXECUTE check_ids('{%d,%d}', '{"\\x6e6f6e65","\\x626967"}', '{0,%d}')`, big, big, big))
	for _, bad := range []string{"hashed", "Seq Scan", "Bitmap"} {
		if strings.Contains(plan, bad) {
			t.Errorf("the bucket check's plan has a %s scan, not a probe of the index:\n%s", bad, plan)
		}
	}
	if !strings.Contains(plan, "orrery_kv_pkey") {
		t.Errorf("the bucket check's plan does not probe orrery_kv's primary key:\n%s", plan)
	}
}

// The statements that read and delete the keys named in an array probe
// the primary key once a key, under the generic plan that a prepared
// statement gets after its first runs, in a bucket of 6,000 keys: no
// scan of the whole bucket (which bucket = $1 AND key = ANY($2) was
// planned as, and which SERIALIZABLE then locked whole).
func TestKeyArraysProbeTheIndex(t *testing.T) {
	ctx := context.Background()
	conn, big := bigBucket(t)
	for _, q := range []string{
		"ANALYZE orrery_kv",
		"SET plan_cache_mode = force_generic_plan",
		"PREPARE get_keys (bigint, bytea[]) AS " + pgstore.GetKeys,
		"PREPARE delete_keys (bigint, bytea[]) AS " + pgstore.DeleteKeys,
		"BEGIN", // the delete is run, and rolled back
	} {
		if _, err := conn.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	defer conn.Exec(ctx, "ROLLBACK")
	for _, stmt := range []string{"get_keys", "delete_keys"} {
		plan := explain(t, conn, fmt.Sprintf(`EXECUTE %s(%d, '{"\\x6b3030303031","\\x6b3035393939","\\x6e6f6e65"}')`, stmt, big))
		for _, bad := range []string{"Seq Scan", "Bitmap", "Hash", "Filter: (key = ANY"} {
			if strings.Contains(plan, bad) {
				t.Errorf("%s's plan has a %q, not a probe of the index a key:\n%s", stmt, bad, plan)
			}
		}
		if !strings.Contains(plan, "Index Cond: ((bucket = $1) AND (key = u.key))") {
			t.Errorf("%s's plan does not probe orrery_kv's primary key a key:\n%s", stmt, plan)
		}
	}
	// And they do what they say: two of the three keys are there; the
	// delete (in the same transaction) removed them.
	var n int
	if err := conn.QueryRow(ctx, `SELECT count(*) FROM orrery_kv WHERE bucket = $1 AND key IN ('k00001', 'k05999')`, big).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Errorf("%d of the two keys deleted are still there", n)
	}
}
