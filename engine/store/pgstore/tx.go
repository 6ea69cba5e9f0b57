package pgstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"orrery/engine/store"
)

// pgTx is one SQL transaction. Bucket lookups are cached by (parent, name)
// for its life; a bucket id is never reused (a sequence makes them).
type pgTx struct {
	ctx      context.Context
	tx       pgx.Tx
	writable bool
	err      error // the first failure; the SQL transaction is then aborted
	root     *pgBucket
	names    map[nameKey]int64 // bucket lookups: id, or -1 for none
	onCommit []func()
	gen      uint64 // counts writes, so cursors know when their page is stale
	gamesID  int64  // the id of the top-level games bucket, 0 until known
}

type nameKey struct {
	parent int64
	name   string
}

// fail records the first failure of the transaction and returns it.
func (t *pgTx) fail(err error) error {
	if t.err == nil {
		t.err = fmt.Errorf("postgres: %w", err)
	}
	return t.err
}

func (t *pgTx) Err() error { return t.err }

func (t *pgTx) Commit() error {
	if t.err != nil {
		t.tx.Rollback(context.WithoutCancel(t.ctx))
		return t.err
	}
	if err := t.tx.Commit(t.ctx); err != nil {
		return fmt.Errorf("postgres: commit: %w", err)
	}
	for _, fn := range t.onCommit {
		fn()
	}
	return nil
}

func (t *pgTx) Rollback() error {
	// A rollback must reach the server even when ctx is done, or the
	// connection would go back to the pool inside a transaction.
	return t.tx.Rollback(context.WithoutCancel(t.ctx))
}

func (t *pgTx) Bucket(name []byte) store.Bucket { return t.root.Bucket(name) }
func (t *pgTx) CreateBucket(name []byte) (store.Bucket, error) {
	return t.root.CreateBucket(name)
}
func (t *pgTx) CreateBucketIfNotExists(name []byte) (store.Bucket, error) {
	return t.root.CreateBucketIfNotExists(name)
}
func (t *pgTx) DeleteBucket(name []byte) error { return t.root.DeleteBucket(name) }
func (t *pgTx) ForEach(fn func(name []byte, b store.Bucket) error) error {
	return t.root.ForEach(func(k, v []byte) error {
		if v != nil {
			return nil // the root holds only buckets
		}
		return fn(k, t.root.Bucket(k))
	})
}
func (t *pgTx) OnCommit(fn func()) { t.onCommit = append(t.onCommit, fn) }
func (t *pgTx) Writable() bool     { return t.writable }

// failed is a bucket of a transaction that has failed: every method
// checks the transaction first, so none reaches the server.
func (t *pgTx) failed() store.Bucket { return &pgBucket{tx: t, id: -1} }

// pgBucket is a bucket of the transaction tx.
type pgBucket struct {
	tx *pgTx
	id int64
}

func (b *pgBucket) Tx() store.Tx   { return b.tx }
func (b *pgBucket) Writable() bool { return b.tx.writable }
func (b *pgBucket) isGames() bool  { return b.tx.gamesID != 0 && b.id == b.tx.gamesID }
func (b *pgBucket) Cursor() store.Cursor {
	return &pgCursor{b: b}
}

func (b *pgBucket) check(write bool) error {
	if b.tx.err != nil {
		return b.tx.err
	}
	if write && !b.tx.writable {
		return store.ErrTxNotWritable
	}
	return nil
}

// lookup finds the nested bucket name: its id, or -1 when name is a value,
// or 0 when it is not there (0 is the root, never a nested bucket).
func (b *pgBucket) lookup(name []byte) (int64, error) {
	k := nameKey{b.id, string(name)}
	if id, ok := b.tx.names[k]; ok {
		return id, nil
	}
	var child *int64
	err := b.tx.tx.QueryRow(b.tx.ctx, `SELECT child FROM orrery_kv WHERE bucket = $1 AND key = $2`, b.id, name).Scan(&child)
	var id int64
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		id = 0
	case err != nil:
		return 0, b.tx.fail(err)
	case child == nil:
		id = -1
	default:
		id = *child
	}
	if id > 0 && b.tx.writable && b.isGames() {
		// A writable transaction opening a game locks its row: see
		// the package comment.
		if _, err := b.tx.tx.Exec(b.tx.ctx, `SELECT 1 FROM orrery_bucket WHERE id = $1 FOR UPDATE`, id); err != nil {
			return 0, b.tx.fail(err)
		}
	}
	b.tx.names[k] = id
	return id, nil
}

// Bucket returns the nested bucket name, or nil when there is none. Once
// the transaction has failed (a serialization failure, a dropped
// connection) it returns a failed bucket instead of nil, whose reads find
// nothing and whose writes return the failure: code written for bbolt,
// where a game's nested buckets never vanish inside a transaction, then
// runs on to the end of its fn instead of dereferencing nil, and the
// failure surfaces at commit, where Store retries it when it may.
func (b *pgBucket) Bucket(name []byte) store.Bucket {
	if len(name) == 0 {
		return nil
	}
	if b.check(false) != nil {
		return b.tx.failed()
	}
	id, err := b.lookup(name)
	if err != nil {
		return b.tx.failed()
	}
	if id <= 0 {
		return nil // a nil interface, not a typed nil
	}
	nb := &pgBucket{tx: b.tx, id: id}
	if b.id == 0 && bytes.Equal(name, store.BucketGames) {
		b.tx.gamesID = id
	}
	return nb
}

func (b *pgBucket) CreateBucket(name []byte) (store.Bucket, error) {
	return b.createBucket(name, false)
}

func (b *pgBucket) CreateBucketIfNotExists(name []byte) (store.Bucket, error) {
	return b.createBucket(name, true)
}

// createBucket makes the nested bucket name; when it is already there, it
// returns it if existing is true and ErrBucketExists otherwise.
func (b *pgBucket) createBucket(name []byte, existing bool) (store.Bucket, error) {
	if err := b.check(true); err != nil {
		return nil, err
	}
	if len(name) == 0 {
		return nil, store.ErrKeyRequired
	}
	id, err := b.lookup(name)
	switch {
	case err != nil:
		return nil, err
	case id > 0 && existing:
		return b.Bucket(name), nil
	case id > 0:
		return nil, store.ErrBucketExists
	case id < 0:
		return nil, store.ErrIncompatibleValue
	}
	return b.create(name)
}

func (b *pgBucket) create(name []byte) (store.Bucket, error) {
	var id int64
	err := b.tx.tx.QueryRow(b.tx.ctx, `WITH n AS (
			INSERT INTO orrery_bucket (id, parent) VALUES (nextval('orrery_bucket_id'), $1) RETURNING id)
		INSERT INTO orrery_kv (bucket, key, child) SELECT $1, $2, id FROM n RETURNING child`, b.id, name).Scan(&id)
	if err != nil {
		return nil, b.tx.fail(err)
	}
	b.tx.gen++
	b.tx.names[nameKey{b.id, string(name)}] = id
	if b.id == 0 && bytes.Equal(name, store.BucketGames) {
		b.tx.gamesID = id
	}
	return &pgBucket{tx: b.tx, id: id}, nil
}

func (b *pgBucket) DeleteBucket(name []byte) error {
	if err := b.check(true); err != nil {
		return err
	}
	id, err := b.lookup(name)
	switch {
	case err != nil:
		return err
	case id == 0:
		return store.ErrBucketNotFound
	case id < 0:
		return store.ErrIncompatibleValue
	}
	// The cascades delete its key row here, its nested buckets and all
	// their keys.
	if _, err := b.tx.tx.Exec(b.tx.ctx, `DELETE FROM orrery_bucket WHERE id = $1`, id); err != nil {
		return b.tx.fail(err)
	}
	b.tx.gen++
	b.tx.names[nameKey{b.id, string(name)}] = 0
	return nil
}

func (b *pgBucket) Get(key []byte) []byte {
	if b.check(false) != nil || len(key) == 0 {
		return nil
	}
	var v []byte
	var isBucket bool
	err := b.tx.tx.QueryRow(b.tx.ctx, `SELECT value, child IS NOT NULL FROM orrery_kv WHERE bucket = $1 AND key = $2`, b.id, key).Scan(&v, &isBucket)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil
	}
	if err != nil {
		b.tx.fail(err)
		return nil
	}
	if isBucket {
		return nil
	}
	if v == nil {
		v = []byte{}
	}
	return v
}

func (b *pgBucket) Put(key, value []byte) error {
	if err := b.check(true); err != nil {
		return err
	}
	if len(key) == 0 {
		return store.ErrKeyRequired
	}
	if value == nil {
		value = []byte{}
	}
	// The update is skipped when key names a nested bucket: no row
	// comes back then.
	var one int
	err := b.tx.tx.QueryRow(b.tx.ctx, `INSERT INTO orrery_kv (bucket, key, value) VALUES ($1, $2, $3)
		ON CONFLICT (bucket, key) DO UPDATE SET value = excluded.value WHERE orrery_kv.child IS NULL
		RETURNING 1`, b.id, key, value).Scan(&one)
	if errors.Is(err, pgx.ErrNoRows) {
		return store.ErrIncompatibleValue
	}
	if err != nil {
		return b.tx.fail(err)
	}
	b.tx.gen++
	return nil
}

func (b *pgBucket) Delete(key []byte) error {
	if err := b.check(true); err != nil {
		return err
	}
	var isBucket bool
	err := b.tx.tx.QueryRow(b.tx.ctx, `WITH d AS (DELETE FROM orrery_kv WHERE bucket = $1 AND key = $2 AND child IS NULL RETURNING 1)
		SELECT EXISTS (SELECT 1 FROM orrery_kv WHERE bucket = $1 AND key = $2 AND child IS NOT NULL)`, b.id, key).Scan(&isBucket)
	if err != nil {
		return b.tx.fail(err)
	}
	if isBucket {
		return store.ErrIncompatibleValue
	}
	b.tx.gen++
	return nil
}

func (b *pgBucket) ForEach(fn func(k, v []byte) error) error {
	if err := b.check(false); err != nil {
		return err
	}
	c := b.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		if err := fn(k, v); err != nil {
			return err
		}
	}
	return b.tx.err
}

func (b *pgBucket) ForEachBucket(fn func(k []byte) error) error {
	if err := b.check(false); err != nil {
		return err
	}
	c := &pgCursor{b: b, onlyBuckets: true}
	for k, _ := c.First(); k != nil; k, _ = c.Next() {
		if err := fn(k); err != nil {
			return err
		}
	}
	return b.tx.err
}

func (b *pgBucket) NextSequence() (uint64, error) {
	if err := b.check(true); err != nil {
		return 0, err
	}
	var n int64
	if err := b.tx.tx.QueryRow(b.tx.ctx, `UPDATE orrery_bucket SET seq = seq + 1 WHERE id = $1 RETURNING seq`, b.id).Scan(&n); err != nil {
		return 0, b.tx.fail(err)
	}
	return uint64(n), nil
}

func (b *pgBucket) Sequence() uint64 {
	if b.check(false) != nil {
		return 0
	}
	var n int64
	if err := b.tx.tx.QueryRow(b.tx.ctx, `SELECT seq FROM orrery_bucket WHERE id = $1`, b.id).Scan(&n); err != nil {
		b.tx.fail(err)
		return 0
	}
	return uint64(n)
}

func (b *pgBucket) SetSequence(v uint64) error {
	if err := b.check(true); err != nil {
		return err
	}
	if _, err := b.tx.tx.Exec(b.tx.ctx, `UPDATE orrery_bucket SET seq = $2 WHERE id = $1`, b.id, int64(v)); err != nil {
		return b.tx.fail(err)
	}
	return nil
}

func (b *pgBucket) KeyN() int {
	if b.check(false) != nil {
		return 0
	}
	var n int
	if err := b.tx.tx.QueryRow(b.tx.ctx, `SELECT count(*) FROM orrery_kv WHERE bucket = $1`, b.id).Scan(&n); err != nil {
		b.tx.fail(err)
		return 0
	}
	return n
}

// pgCursor walks a bucket a page of rows at a time (keyset paging on the
// primary key, so each page is an index range scan). The first page is
// small, as most walks stop after a few keys (a Seek to a prefix); later
// pages are larger. A write in the transaction makes the page stale: the
// next move reads again from the current key, so a cursor sees the
// bucket as it is.
type pgCursor struct {
	b           *pgBucket
	onlyBuckets bool
	rows        []row // the page, in key order
	i           int   // the current row in rows; -1 or len(rows) off the page
	gen         uint64
	pages       int
	// whole is set when the page was short: it holds every row from
	// where it started to the end in its direction (asc: the last key;
	// desc: the first).
	whole bool
	desc  bool
}

type row struct {
	k, v     []byte
	isBucket bool
}

const (
	firstPage = 16
	nextPage  = 256
)

func (c *pgCursor) Bucket() store.Bucket { return c.b }

// load reads a page of at most n rows after (or before, when desc) the key
// from, or from the first (last) key when from is nil; inclusive for Seek.
func (c *pgCursor) load(op string, from []byte, desc bool) {
	c.rows, c.i, c.whole, c.desc = c.rows[:0], 0, false, desc
	t := c.b.tx
	if t.err != nil {
		return
	}
	n := firstPage
	if c.pages > 0 {
		n = nextPage
	}
	c.pages++
	order := "ASC"
	if desc {
		order = "DESC"
	}
	where := "bucket = $1"
	args := []any{c.b.id}
	if from != nil {
		where += " AND key " + op + " $2"
		args = append(args, from)
	}
	if c.onlyBuckets {
		where += " AND child IS NOT NULL"
	}
	rs, err := t.tx.Query(t.ctx, "SELECT key, value, child IS NOT NULL FROM orrery_kv WHERE "+where+
		" ORDER BY key "+order+fmt.Sprintf(" LIMIT %d", n), args...)
	if err != nil {
		t.fail(err)
		return
	}
	for rs.Next() {
		var r row
		if err := rs.Scan(&r.k, &r.v, &r.isBucket); err != nil {
			rs.Close()
			t.fail(err)
			c.rows = c.rows[:0]
			return
		}
		if r.isBucket {
			r.v = nil
		} else if r.v == nil {
			r.v = []byte{}
		}
		c.rows = append(c.rows, r)
	}
	if err := rs.Err(); err != nil {
		t.fail(err)
		c.rows = c.rows[:0]
		return
	}
	c.whole = len(c.rows) < n
	if desc {
		for i, j := 0, len(c.rows)-1; i < j; i, j = i+1, j-1 {
			c.rows[i], c.rows[j] = c.rows[j], c.rows[i]
		}
		c.i = len(c.rows) - 1
	}
	c.gen = t.gen
}

func (c *pgCursor) at() ([]byte, []byte) {
	if c.i < 0 || c.i >= len(c.rows) {
		return nil, nil
	}
	r := c.rows[c.i]
	return r.k, r.v
}

// current is the key the cursor is on, or nil.
func (c *pgCursor) current() []byte {
	k, _ := c.at()
	return k
}

func (c *pgCursor) First() ([]byte, []byte) {
	c.pages = 0
	c.load("", nil, false)
	return c.at()
}

func (c *pgCursor) Last() ([]byte, []byte) {
	c.pages = 0
	c.load("", nil, true)
	return c.at()
}

func (c *pgCursor) Seek(seek []byte) ([]byte, []byte) {
	c.pages = 0
	if seek == nil {
		seek = []byte{}
	}
	c.load(">=", seek, false)
	return c.at()
}

func (c *pgCursor) Next() ([]byte, []byte) {
	cur := c.current()
	if cur == nil {
		return nil, nil
	}
	if c.gen == c.b.tx.gen && c.i+1 < len(c.rows) {
		c.i++
		return c.at()
	}
	if c.gen == c.b.tx.gen && c.whole && !c.desc {
		c.i = len(c.rows) // the page held all the rest
		return nil, nil
	}
	c.load(">", cur, false)
	return c.at()
}

func (c *pgCursor) Prev() ([]byte, []byte) {
	cur := c.current()
	if cur == nil {
		return nil, nil
	}
	if c.gen == c.b.tx.gen && c.i > 0 {
		c.i--
		return c.at()
	}
	if c.gen == c.b.tx.gen && c.whole && c.desc {
		c.i = -1
		return nil, nil
	}
	c.load("<", cur, true)
	return c.at()
}

func (c *pgCursor) Delete() error {
	if err := c.b.check(true); err != nil {
		return err
	}
	k, v := c.at()
	if k == nil {
		return nil
	}
	if v == nil {
		return store.ErrIncompatibleValue
	}
	if err := c.b.Delete(k); err != nil {
		return err
	}
	// Only the current row went: the page still holds the rest.
	if c.gen == c.b.tx.gen-1 {
		c.gen = c.b.tx.gen
	}
	return nil
}
