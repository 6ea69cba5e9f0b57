package store_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"orrery/engine/store"
	"orrery/engine/store/storetest"
)

// A backup taken while another goroutine commits is one transaction's
// view: two keys every commit writes together are equal in the copy, and
// the copy opens as a database of this schema. It refuses to overwrite a
// file, leaves nothing behind when it is stopped, and on PostgreSQL says
// to use PostgreSQL's tools.
func TestBackupWhileWriting(t *testing.T) {
	storetest.Each(t, func(t *testing.T, k storetest.Kind) {
		ctx := context.Background()
		st := storetest.Open(t, k)
		dir := t.TempDir()
		if st.Kind() == "postgres" {
			_, err := st.Backup(ctx, filepath.Join(dir, "copy.db"))
			assert.ErrorIs(t, err, store.ErrNoBackup)
			return
		}
		put := func(i int) error {
			return st.Update(ctx, func(tx store.Tx) error {
				b, err := tx.CreateBucketIfNotExists([]byte("pairs"))
				if err != nil {
					return err
				}
				v := []byte(strconv.Itoa(i))
				if err := b.Put([]byte("a"), v); err != nil {
					return err
				}
				// Something to copy: the file grows past a few pages.
				if err := b.Put([]byte("pad"+strconv.Itoa(i%500)), make([]byte, 2000)); err != nil {
					return err
				}
				return b.Put([]byte("b"), v)
			})
		}
		require.NoError(t, put(0))
		var stop atomic.Bool
		var wg sync.WaitGroup
		var commits atomic.Int64
		wg.Go(func() {
			for i := 1; !stop.Load(); i++ {
				if err := put(i); err != nil {
					t.Error(err)
					return
				}
				commits.Add(1)
			}
		})
		for commits.Load() < 20 { // let the writer get going
			time.Sleep(time.Millisecond)
		}
		path := filepath.Join(dir, "copy.db")
		info, err := st.Backup(ctx, path)
		stop.Store(true)
		wg.Wait()
		require.NoError(t, err)
		assert.Equal(t, path, info.Path)
		fi, err := os.Stat(path)
		require.NoError(t, err)
		assert.Equal(t, info.Bytes, fi.Size())
		assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm(), "owner-only, as the database is")

		c, err := store.Open(path, store.Options{ReadOnly: true})
		require.NoError(t, err)
		require.NoError(t, c.View(ctx, func(tx store.Tx) error {
			b := tx.Bucket([]byte("pairs"))
			require.NotNil(t, b)
			a, bv := string(b.Get([]byte("a"))), string(b.Get([]byte("b")))
			assert.Equal(t, a, bv, "both keys of one commit, or neither")
			n, _ := strconv.Atoi(a)
			assert.Positive(t, n, "the commits before the backup are in it")
			return nil
		}))
		c.Close()

		_, err = st.Backup(ctx, path)
		assert.ErrorContains(t, err, "exists already")
		cancelled, cancel := context.WithCancel(ctx)
		cancel()
		_, err = st.Backup(cancelled, filepath.Join(dir, "stopped.db"))
		assert.True(t, errors.Is(err, context.Canceled), "%v", err)
		left, _ := os.ReadDir(dir)
		var names []string
		for _, e := range left {
			names = append(names, e.Name())
		}
		assert.Equal(t, []string{"copy.db"}, names, "no half copy left behind")
	})
}

// BenchmarkBackup copies a 64 MB database (reported as MB/s); the command
// line figures for the scale databases are in README.md.
func BenchmarkBackup(b *testing.B) {
	ctx := context.Background()
	dir := b.TempDir()
	st, err := store.Open(filepath.Join(dir, "live.db"), store.Options{NoSync: true})
	require.NoError(b, err)
	defer st.Close()
	val := make([]byte, 4000)
	for i := range 16 {
		require.NoError(b, st.Update(ctx, func(tx store.Tx) error {
			bk, err := tx.CreateBucketIfNotExists([]byte("games"))
			if err != nil {
				return err
			}
			for j := range 1000 {
				if err := bk.Put([]byte(strconv.Itoa(i*1000+j)), val); err != nil {
					return err
				}
			}
			return nil
		}))
	}
	var n int64
	for i := 0; b.Loop(); i++ {
		info, err := st.Backup(ctx, filepath.Join(dir, "copy"+strconv.Itoa(i)+".db"))
		if err != nil {
			b.Fatal(err)
		}
		n = info.Bytes
		os.Remove(info.Path)
	}
	b.SetBytes(n)
}
