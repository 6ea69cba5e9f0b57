package pgstore_test

import (
	"context"
	"crypto/rand"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"orrery/engine/store"
	"orrery/engine/store/pgstore"
	"orrery/engine/store/storetest"
)

// A writable transaction that opens a game locks that game's row: a second
// change to the same game waits for it (PostgreSQL shows its lock wait),
// while a change to another game goes through meanwhile; and both changes
// to the one game land.
func TestGameRowLock(t *testing.T) {
	ctx := context.Background()
	s, dsn := openSchema(t)
	bump := func(tx store.Tx, id string) error {
		g := tx.Bucket(store.BucketGames).Bucket([]byte(id))
		n := store.KeyN(g.Get([]byte("n")))
		return g.Put([]byte("n"), store.Key(n+1))
	}
	if err := s.Update(ctx, func(tx store.Tx) error {
		for _, id := range []string{"g1", "g2"} {
			if _, err := tx.Bucket(store.BucketGames).CreateBucket([]byte(id)); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	holding, release := make(chan struct{}), make(chan struct{})
	var released sync.Once
	letGo := func() { released.Do(func() { close(release) }) }
	defer letGo() // a failing test must not leave the first change hanging
	first := make(chan error, 1)
	go func() {
		once := false
		first <- s.Update(ctx, func(tx store.Tx) error {
			if err := bump(tx, "g1"); err != nil {
				return err
			}
			if !once {
				once = true
				close(holding)
				<-release
			}
			return nil
		})
	}()
	<-holding
	second := make(chan error, 1)
	go func() { second <- s.Update(ctx, func(tx store.Tx) error { return bump(tx, "g1") }) }()
	// Another game is not held up.
	if err := s.Update(ctx, func(tx store.Tx) error { return bump(tx, "g2") }); err != nil {
		t.Fatal(err)
	}
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	waiting := 0
	for range 100 {
		if err := conn.QueryRow(ctx, `SELECT count(*) FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
			WHERE NOT l.granted AND a.query LIKE '%FOR UPDATE%'`).Scan(&waiting); err != nil {
			t.Fatal(err)
		}
		if waiting > 0 {
			break
		}
		select {
		case err := <-second:
			t.Fatalf("the second change to g1 finished (%v) while the first held the game", err)
		case <-time.After(20 * time.Millisecond):
		}
	}
	if waiting == 0 {
		t.Fatal("no transaction waits for g1's row lock")
	}
	letGo()
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	if err := <-second; err != nil {
		t.Fatal(err)
	}
	if err := s.View(ctx, func(tx store.Tx) error {
		if n := store.KeyN(tx.Bucket(store.BucketGames).Bucket([]byte("g1")).Get([]byte("n"))); n != 2 {
			t.Errorf("g1 was bumped %d times, want 2", n)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}

// Once a transaction has failed, the buckets it hands out are not nil (a
// game's code written for bbolt dereferences them without a check, and
// panicked here under a serialization failure): reads find nothing,
// writes return the failure, and Update returns it; nothing commits.
func TestFailedTransactionHandsOutFailedBuckets(t *testing.T) {
	ctx := context.Background()
	s, _ := openSchema(t)
	if err := s.Update(ctx, func(tx store.Tx) error {
		g, err := tx.Bucket(store.BucketGames).CreateBucket([]byte("g1"))
		if err != nil {
			return err
		}
		_, err = g.CreateBucket(store.BucketPending)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	var putErr error
	err := s.Update(ctx, func(tx store.Tx) error {
		g := tx.Bucket(store.BucketGames).Bucket([]byte("g1"))
		// A key longer than PostgreSQL's index rows allow fails the
		// SQL transaction, as a serialization failure would: when the
		// write reaches the server, with the next statement.
		long := make([]byte, 10000)
		rand.Read(long) // incompressible
		g.Put(long, []byte("v"))
		g.KeyN()
		if err := g.Put([]byte("after"), []byte("v")); err == nil {
			t.Fatal("a 10,000-byte key did not fail the transaction")
		}
		pb := g.Bucket(store.BucketPending)
		if pb == nil {
			t.Fatal("a failed transaction's nested bucket is nil")
		}
		if v := pb.Get([]byte("x")); v != nil {
			t.Errorf("a failed bucket's Get gave %q", v)
		}
		if k, _ := pb.Cursor().First(); k != nil {
			t.Errorf("a failed bucket's cursor gave %q", k)
		}
		putErr = pb.Put([]byte("x"), []byte("y"))
		return nil
	})
	if err == nil || putErr == nil {
		t.Fatalf("Update gave %v and the failed bucket's Put %v: want both to fail", err, putErr)
	}
	if err := s.View(ctx, func(tx store.Tx) error {
		if v := tx.Bucket(store.BucketGames).Bucket([]byte("g1")).Bucket(store.BucketPending).Get([]byte("x")); v != nil {
			t.Errorf("the failed transaction committed %q", v)
		}
		if tx.Bucket(store.BucketGames).Bucket([]byte("nope")) != nil {
			t.Error("a bucket that is not there is not nil in a good transaction")
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}

// openSchema opens a store on a new schema of the ORRERY_TEST_PG server,
// closed when t ends, and the DSN that names it.
func openSchema(t *testing.T) (*store.Store, string) { return openSchemaTB(t) }

func openSchemaTB(t testing.TB) (*store.Store, string) {
	t.Helper()
	dsn := storetest.NewSchema(t)
	s, err := pgstore.Open(context.Background(), dsn, pgstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, dsn
}

// openSecond opens the database at dsn again, as another process would:
// a store with its own connections and its own cache of bucket ids,
// closed when the test ends.
func openSecond(t *testing.T, dsn string) *store.Store {
	t.Helper()
	s, err := pgstore.Open(context.Background(), dsn, pgstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}
