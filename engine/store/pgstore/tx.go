package pgstore

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"orrery/engine/store"
)

// pgTx is one SQL transaction, on a connection of its own from the pool.
//
// A round trip to the server costs far more than the work of most
// statements, so the transaction sends as few as it can (see the package
// comment, "Round trips"): BEGIN goes with its first statement, writes
// (Put, Delete, SetSequence, NextSequence after the first) wait in memory
// and go with the next statement that must reach the server, or with
// COMMIT, all in one batch (round); what it read or wrote is answered
// again from memory (its snapshot does not move). Bucket lookups are
// cached by (parent, name) for its life; a bucket id is never reused (a
// sequence makes them).
type pgTx struct {
	ctx      context.Context
	be       *backend
	conn     *pgxpool.Conn // nil once committed or rolled back
	begun    bool          // BEGIN has been sent
	writable bool
	err      error // the first failure; the SQL transaction is then aborted
	// committing is set while COMMIT is under way, for fail's message.
	committing bool
	root       *pgBucket
	names      map[nameKey]int64 // bucket lookups: id, or -1 for a value, 0 for none
	onCommit   []func()
	gamesID    int64 // the id of the top-level games bucket, 0 until known

	// vals holds every key read or written in the transaction: its
	// value (nil: none, or a nested bucket), and whether it is a write
	// the server has not had yet.
	vals   map[nameKey]*val
	dirty  []nameKey            // the keys of vals whose write waits
	held   []nameKey            // the waiting writes a batch held back (batchBut)
	kept   int                  // bytes of the values read and kept in vals (see keepReads)
	seqs   map[int64]*seq       // bucket sequences read or set in the transaction
	full   map[int64]bool       // buckets whose every key the transaction knows (made in it, or a game read whole)
	gens   map[int64]uint64     // counts changes to each bucket, so cursors know when their page is stale
	seeks  map[seekKey]seekPage // Seeks' first pages read ahead (SeekAhead)
	checks []check              // bucket ids taken from the backend's cache, not yet confirmed by the server
	learnt map[nameKey]int64    // bucket ids looked up or made, to offer the backend's cache when the transaction ends well
	forget []nameKey            // buckets deleted, for the backend's cache to drop when the transaction commits
}

type nameKey struct {
	parent int64
	name   string
}

// val is one key as the transaction knows it.
type val struct {
	v      []byte // nil: no value there
	bucket bool   // the key names a nested bucket (v is nil)
	dirty  bool   // a Put (v != nil) or Delete (v == nil) not yet sent
	// absent: the server has no such key, as far as this transaction
	// knows (a read found none, and no write of it was sent since), so
	// a Delete of a waiting Put needs no statement: the key was made and
	// dropped in the transaction (a mail's part answers, dropped once
	// the mail is seen), and the server never hears of it.
	absent bool
	held   bool // a batch being sent holds the write back (batchBut)
}

// seq is one bucket's sequence as the transaction knows it.
type seq struct {
	n     uint64
	dirty bool // set here and not yet sent
}

// check is a lookup answered from the backend's cache of bucket ids: the
// server must confirm it before anything read through it is used.
type check struct {
	nameKey
	id int64
}

// fail records the first failure of the transaction and returns it.
func (t *pgTx) fail(err error) error {
	if t.err == nil {
		t.err = fmt.Errorf("postgres: %w", err)
		if t.committing {
			t.err = fmt.Errorf("postgres: commit: %w", err)
		}
	}
	return t.err
}

// Err returns the first failure. A read-only transaction first has the
// server confirm the bucket ids it took from the backend's cache, if any
// are unconfirmed: what it read is about to be handed out. A writable
// one confirms them with its next statement or at commit, where a stale
// id fails the transaction (and Store runs it again) before it commits.
func (t *pgTx) Err() error {
	if t.err == nil && !t.writable && len(t.checks) > 0 && t.conn != nil {
		t.round(nil)
	}
	return t.err
}

func (t *pgTx) Commit() error {
	defer t.release()
	if t.err != nil {
		return t.err
	}
	if !t.begun && len(t.dirty) == 0 && len(t.checks) == 0 && !t.seqsDirty() {
		// Nothing reached the server nor waits for it.
		t.endWell()
		return nil
	}
	b := t.batch()
	b.Queue("COMMIT")
	t.committing = true
	if err := t.send(b); err != nil {
		return err
	}
	t.endWell()
	return nil
}

func (t *pgTx) Rollback() error {
	if !t.writable && t.err == nil {
		t.endWell() // what it looked up was confirmed, or is not offered
	}
	t.release()
	return nil
}

// endWell runs the OnCommit callbacks and offers the backend's cache the
// bucket ids the transaction looked up.
func (t *pgTx) endWell() {
	if len(t.checks) == 0 {
		t.be.ids.learn(t.learnt)
	}
	if t.writable {
		t.be.ids.forget(t.forget)
		for _, fn := range t.onCommit {
			fn()
		}
	}
}

// release ends the SQL transaction if it is still open (a rollback must
// reach the server even when ctx is done, or the connection would go back
// to the pool inside a transaction; the pool closes one that does) and
// gives the connection back.
func (t *pgTx) release() {
	if t.conn == nil {
		return
	}
	if t.conn.Conn().PgConn().TxStatus() != 'I' {
		t.conn.Exec(context.WithoutCancel(t.ctx), "ROLLBACK")
	}
	t.conn.Release()
	t.conn = nil
}

func (t *pgTx) seqsDirty() bool {
	for _, s := range t.seqs {
		if s.dirty {
			return true
		}
	}
	return false
}

// batch is a new batch holding what must precede the next statement:
// BEGIN if not yet sent, the confirmation of cached bucket ids, and the
// writes not yet sent.
func (t *pgTx) batch() *pgx.Batch { return t.batchBut(-1, false) }

// bucketCheck fails (division by zero) unless every cached bucket id
// ($3, one a name $2 under the bucket $1) is still what the name holds: a
// row of orrery_bucket for an id, no key by that name for 0 (see batchBut).
//
// Each test is a scalar subquery on a primary key, not EXISTS: PostgreSQL
// may plan a correlated EXISTS as a hashed subplan, a scan of the whole
// table hashed once, and does so for a prepared statement's generic plan
// when its statistics say the table is small. On a young database whose
// statistics predate most of its rows (10 games, the daemon's benchmark) that
// scan grew with the table, to 2 ms a check and half an order mail's time,
// and under SERIALIZABLE its predicate lock covered the whole table, where
// any other daemon's write conflicted with it. A scalar subquery cannot be
// hashed: it is always a probe of the index.
const bucketCheck = `SELECT 1 / (NOT EXISTS (SELECT 1 FROM unnest($1::bigint[], $2::bytea[], $3::bigint[]) AS c(parent, key, child)
	WHERE CASE WHEN c.child = 0 THEN (SELECT true FROM orrery_kv k WHERE k.bucket = c.parent AND k.key = c.key) IS NOT NULL
		ELSE (SELECT true FROM orrery_bucket b WHERE b.id = c.child) IS NULL END))::int`

// The keys of bucket $1 named in the array $2 are found one by one, each
// by a probe of the primary key on (bucket, key): the array is unnested
// and each key looked up in a LATERAL subquery that OFFSET 0 keeps from
// being merged into a join. The plain form, bucket = $1 AND key = ANY($2),
// is prepared once and then run with a generic plan, which PostgreSQL
// (15) may choose to be a scan of the whole bucket filtered by the keys,
// since a bucket holds five keys on average; the outbox's and the seen
// mails' hold thousands. That plan cost half a millisecond a statement
// instead of a twentieth, and under SERIALIZABLE locked the whole bucket,
// where every other transaction's new key conflicted with it. Which plan
// a connection got depended on its first statements, so it came and went
// between runs (docs/benchmarks.md, "PostgreSQL: one probe a key").
const (
	// getKeys reads them (GetMany).
	getKeys = `SELECT u.key, k.value, k.child IS NOT NULL FROM unnest($2::bytea[]) AS u(key)
	CROSS JOIN LATERAL (SELECT value, child FROM orrery_kv WHERE bucket = $1 AND key = u.key OFFSET 0) k`
	// deleteKeys deletes those that hold values (by the rows' ctids,
	// which the probes found) and inserts, for one that names a bucket,
	// a row the table's CHECK refuses (batchBut).
	deleteKeys = `WITH f AS (SELECT u.key, k.ctid AS at, k.child FROM unnest($2::bytea[]) AS u(key)
		CROSS JOIN LATERAL (SELECT ctid, child FROM orrery_kv WHERE bucket = $1 AND key = u.key OFFSET 0) k),
	d AS (DELETE FROM orrery_kv WHERE ctid = ANY (ARRAY(SELECT at FROM f WHERE child IS NULL)))
	INSERT INTO orrery_kv (bucket, key) SELECT $1, key FROM f WHERE child IS NOT NULL`
)

// batchBut is batch holding back, to stay waiting, the writes to bucket
// hold (a cursor's: see pgCursor.load) and, with fresh, the Puts of keys
// the server has not got (val.absent). No statement but a cursor on their
// bucket (which lays them over what it reads), a count of its keys, a
// bucket made or deleted and COMMIT needs those: a key made and deleted
// again in the transaction (a mail's part answers, dropped once the mail
// is seen) then never reaches the server, where it would touch index
// pages other processes' SERIALIZABLE reads hold.
func (t *pgTx) batchBut(hold int64, fresh bool) *pgx.Batch {
	b := &pgx.Batch{}
	t.held = t.held[:0]
	if !t.begun {
		if t.writable {
			b.Queue("BEGIN ISOLATION LEVEL SERIALIZABLE READ WRITE")
		} else {
			b.Queue("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
		}
	}
	if len(t.checks) > 0 {
		// Every cached id must still be what the name holds (0: no
		// key by that name), or the division fails the statement
		// (22012, which send turns into errStaleBucket): an assertion
		// the server makes, so that it also stops a COMMIT queued
		// after it. A bucket keeps its name and its id for life, and
		// an id is never used again, so a bucket whose row is there
		// is still under its name: that row is what is read, not the
		// name's key, whose index page holds the keys of the buckets
		// made next to it (wake, seats…) that every change writes,
		// where the read's predicate lock made two daemons conflict.
		parents, keys, ids := make([]int64, len(t.checks)), make([][]byte, len(t.checks)), make([]int64, len(t.checks))
		for i, c := range t.checks {
			parents[i], keys[i], ids[i] = c.parent, []byte(c.name), c.id
		}
		b.Queue(bucketCheck, parents, keys, ids)
	}
	if len(t.dirty) > 0 {
		var put, del []nameKey
		for _, k := range t.dirty {
			switch w := t.vals[k]; {
			case k.parent == hold, fresh && w.absent && w.v != nil:
				w.held = true
				t.held = append(t.held, k)
			case w.v != nil:
				put = append(put, k)
			default:
				del = append(del, k)
			}
		}
		// In key order, so that two transactions writing the same
		// keys take their row locks in the same order.
		byKey := func(a, b nameKey) int { return cmp.Or(cmp.Compare(a.parent, b.parent), cmp.Compare(a.name, b.name)) }
		slices.SortFunc(put, byKey)
		slices.SortFunc(del, byKey)
		if len(put) > 0 {
			bs, ks, vs := make([]int64, len(put)), make([][]byte, len(put)), make([][]byte, len(put))
			for i, k := range put {
				bs[i], ks[i], vs[i] = k.parent, []byte(k.name), t.vals[k].v
			}
			// A key that names a nested bucket gets a value too, which
			// the table's CHECK refuses (23514): ErrIncompatibleValue.
			b.Queue(`INSERT INTO orrery_kv (bucket, key, value) SELECT * FROM unnest($1::bigint[], $2::bytea[], $3::bytea[])
				ON CONFLICT (bucket, key) DO UPDATE SET value = excluded.value`, bs, ks, vs)
		}
		// One statement a bucket, its keys an array, each found by a
		// probe of the primary key (deleteKeys). A settlement of the
		// outbox deletes a hundred queued mails of one bucket: one
		// statement instead of a hundred for the server to run. A key
		// that names a nested bucket is not deleted; a row with
		// neither value nor bucket is inserted for it, which the CHECK
		// refuses: ErrIncompatibleValue.
		for len(del) > 0 {
			n := 1
			for n < len(del) && del[n].parent == del[0].parent {
				n++
			}
			ks := make([][]byte, n)
			for i, k := range del[:n] {
				ks[i] = []byte(k.name)
			}
			b.Queue(deleteKeys, del[0].parent, ks)
			del = del[n:]
		}
	}
	for id, s := range t.seqs {
		if s.dirty {
			b.Queue(`UPDATE orrery_bucket SET seq = $2 WHERE id = $1`, id, int64(s.n))
		}
	}
	return b
}

// send sends b and reads its answers (running the callbacks queued with
// its statements); once the server has them, the writes and checks b
// carried are no longer waiting. A failure fails the transaction.
func (t *pgTx) send(b *pgx.Batch) error {
	if t.err != nil {
		return t.err
	}
	if t.conn == nil {
		return t.fail(errors.New("the transaction is over"))
	}
	t.begun = true
	var f refused
	if err := t.conn.SendBatch(context.WithValue(t.ctx, failKey{}, &f), b).Close(); err != nil {
		return t.fail(t.explain(err, &f))
	}
	t.checks = t.checks[:0]
	for _, k := range t.dirty {
		if w := t.vals[k]; w.held {
			w.held = false
		} else {
			w.dirty, w.absent = false, false
		}
	}
	t.dirty = append(t.dirty[:0], t.held...)
	t.held = t.held[:0]
	for _, s := range t.seqs {
		s.dirty = false
	}
	return nil
}

// round sends what waits (see batch) and the statements queue adds, in
// one round trip, but for the Puts of keys the server has not got
// (batchBut); roundAll sends those too.
func (t *pgTx) round(queue func(b *pgx.Batch)) error { return t.roundBut(-1, true, queue) }

func (t *pgTx) roundAll(queue func(b *pgx.Batch)) error { return t.roundBut(-1, false, queue) }

// roundBut is round holding back the waiting writes to bucket hold too.
func (t *pgTx) roundBut(hold int64, fresh bool, queue func(b *pgx.Batch)) error {
	if t.err != nil {
		return t.err
	}
	b := t.batchBut(hold, fresh)
	if queue != nil {
		queue(b)
	}
	if b.Len() == 0 {
		return nil
	}
	return t.send(b)
}

// errStaleBucket is a transaction's failure when a bucket id it took from
// the backend's cache was no longer what the name held (another process
// deleted the bucket, or made it again): Retryable says so, and the
// cache is emptied, so the next try looks every name up.
var errStaleBucket = errors.New("a bucket was deleted or made again by another process meanwhile (retried)")

// explain turns the server's refusals of the batched statements into the
// store's errors.
func (t *pgTx) explain(err error, f *refused) error {
	var pe *pgconn.PgError
	if !errors.As(err, &pe) {
		return err
	}
	switch {
	case pe.Code == "40001" || pe.Code == "40P01":
		t.conflict(pe, f)
	case pe.Code == "22012":
		t.be.ids.clear()
		return errStaleBucket
	case pe.Code == "23514" && pe.TableName == "orrery_kv":
		return fmt.Errorf("%w: a Put or Delete of a key that names a nested bucket (%v)", store.ErrIncompatibleValue, err)
	}
	return err
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

// changed marks a change to bucket id's keys: its cursors read again.
func (t *pgTx) changed(id int64) { t.gens[id]++ }

// lookup finds the nested bucket name: its id, or -1 when name is a value,
// or 0 when it is not there (0 is the root, never a nested bucket).
func (b *pgBucket) lookup(name []byte) (int64, error) {
	t := b.tx
	k := nameKey{b.id, string(name)}
	if id, ok := t.names[k]; ok {
		return id, nil
	}
	if v, ok := t.vals[k]; ok && !v.bucket {
		if v.v != nil {
			return -1, nil
		}
		return 0, nil // deleted here, or read and not there
	}
	if t.full[b.id] {
		return 0, nil // every key of b is known, and name is not one
	}
	locks := t.writable && b.isGames()
	if !locks {
		if id, ok := t.be.ids.get(k); ok {
			t.checks = append(t.checks, check{k, id})
			t.names[k] = id
			return id, nil
		}
	}
	var id int64
	var sq *int64 // the bucket's sequence, read with it
	found := false
	scan := func(row pgx.Row) error {
		var child *int64
		err := row.Scan(&child, &sq)
		switch {
		case errors.Is(err, pgx.ErrNoRows):
			return nil
		case err != nil:
			return err
		case child == nil:
			id = -1
		default:
			id = *child
		}
		found = true
		return nil
	}
	// A game's own keys (info, state and its nested buckets' names)
	// are read with it: every use of a game reads most of them.
	var game []row
	whole := true // every value of the game was read
	readGame := func(q *pgx.Batch) {
		if !b.isGames() || t.kept >= keepReads {
			return
		}
		most := int64(1 << 30) // a change reads the state too: it rewrites it
		if !t.writable {
			most = bigValue
		}
		q.Queue(`SELECT k.key, CASE WHEN octet_length(k.value) <= $3 THEN k.value END, k.value IS NULL, k.child,
				(SELECT n.seq FROM orrery_bucket n WHERE n.id = k.child)
			FROM orrery_kv k
			WHERE k.bucket = (SELECT child FROM orrery_kv WHERE bucket = $1 AND key = $2 AND child IS NOT NULL)
			ORDER BY k.key LIMIT `+fmt.Sprint(gameKeys+1), b.id, name, most).Query(func(rs pgx.Rows) error {
			for rs.Next() {
				var r row
				var child, sq *int64
				var none bool
				if err := rs.Scan(&r.k, &r.v, &none, &child, &sq); err != nil {
					return err
				}
				switch {
				case child != nil:
					r.isBucket, r.child = true, *child
					if sq != nil {
						r.seq = *sq
					}
				case !none && r.v == nil:
					whole = false // too large to read here
					continue
				case r.v == nil:
					r.v = []byte{}
				}
				game = append(game, r)
			}
			return rs.Err()
		})
	}
	if locks {
		// A writable transaction opening a game locks its row (see the
		// package comment), in the statement that finds it, before it
		// reads the game.
		if err := t.round(func(q *pgx.Batch) {
			q.Queue(`SELECT k.child, g.seq FROM orrery_kv k JOIN orrery_bucket g ON g.id = k.child
				WHERE k.bucket = $1 AND k.key = $2 FOR UPDATE OF g`, b.id, name).QueryRow(scan)
			readGame(q)
		}); err != nil {
			return 0, err
		}
	}
	if !found {
		// Not a game (or no game by that name).
		if err := t.round(func(q *pgx.Batch) {
			q.Queue(`SELECT k.child, (SELECT n.seq FROM orrery_bucket n WHERE n.id = k.child)
				FROM orrery_kv k WHERE k.bucket = $1 AND k.key = $2`, b.id, name).QueryRow(scan)
			if !locks {
				readGame(q)
			}
		}); err != nil {
			return 0, err
		}
	}
	if id > 0 && len(game) > 0 {
		for _, r := range game {
			gk := nameKey{id, string(r.k)}
			if r.isBucket {
				t.names[gk] = r.child
				t.vals[gk] = &val{bucket: true}
				if _, ok := t.seqs[r.child]; !ok {
					t.seqs[r.child] = &seq{n: uint64(r.seq)}
				}
			} else {
				t.vals[gk] = &val{v: r.v}
				t.kept += len(r.v)
			}
		}
		t.full[id] = whole && len(game) <= gameKeys
	}
	t.names[k] = id
	if _, ok := t.seqs[id]; !ok && id > 0 && sq != nil {
		t.seqs[id] = &seq{n: uint64(*sq)}
	}
	if id >= 0 && !locks && t.be.ids.takes(k) {
		t.learnt[k] = id
	}
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
	t := b.tx
	var id int64
	if err := t.roundAll(func(q *pgx.Batch) {
		q.Queue(`WITH n AS (
				INSERT INTO orrery_bucket (id, parent) VALUES (nextval('orrery_bucket_id'), $1) RETURNING id)
			INSERT INTO orrery_kv (bucket, key, child) SELECT $1, $2, id FROM n RETURNING child`, b.id, name).
			QueryRow(func(row pgx.Row) error { return row.Scan(&id) })
	}); err != nil {
		return nil, err
	}
	k := nameKey{b.id, string(name)}
	t.changed(b.id)
	t.names[k] = id
	t.vals[k] = &val{bucket: true}
	t.full[id] = true
	t.seqs[id] = &seq{}
	if t.be.ids.takes(k) {
		t.learnt[k] = id
	}
	if b.id == 0 && bytes.Equal(name, store.BucketGames) {
		t.gamesID = id
	}
	return &pgBucket{tx: t, id: id}, nil
}

// deleteBucketKeys deletes the keys of bucket $1 and of the buckets nested
// in it, at any depth. Reading every key of those buckets, it also makes
// SERIALIZABLE refuse it or a concurrent transaction that writes a key
// into one of them.
//
// Written so that every row is found by probing an index: the nested
// buckets' ids are gathered first, each level by a scalar subquery on
// orrery_bucket.parent's index, into the array the keys' primary key is
// probed with. Written as joins, it was planned as hash joins that read
// all of orrery_kv's primary key, and so locked it whole for SERIALIZABLE.
const deleteBucketKeys = `DELETE FROM orrery_kv WHERE bucket = ANY (ARRAY(
	WITH RECURSIVE sub(id) AS (
		SELECT $1::bigint
		UNION ALL
		SELECT unnest(ARRAY(SELECT b.id FROM orrery_bucket b WHERE b.parent = sub.id)) FROM sub)
	SELECT id FROM sub))`

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
	// The keys of the bucket and of every bucket nested in it go first
	// (orrery_kv.bucket has no foreign key: migrations/0003), then its
	// row, whose cascades delete its nested buckets' rows and the key
	// that names it here. What the transaction knows of them stays in
	// its maps, under ids that are never used again.
	if err := b.tx.roundAll(func(q *pgx.Batch) {
		q.Queue(deleteBucketKeys, id)
		q.Queue(`DELETE FROM orrery_bucket WHERE id = $1`, id)
	}); err != nil {
		return err
	}
	k := nameKey{b.id, string(name)}
	b.tx.changed(b.id)
	b.tx.names[k] = 0
	b.tx.vals[k] = &val{}
	delete(b.tx.learnt, k)
	b.tx.forget = append(b.tx.forget, k)
	return nil
}

func (b *pgBucket) Get(key []byte) []byte {
	if b.check(false) != nil || len(key) == 0 {
		return nil
	}
	t := b.tx
	k := nameKey{b.id, string(key)}
	if v, ok := t.vals[k]; ok {
		return v.v
	}
	if id, ok := t.names[k]; ok && id > 0 {
		return nil // a nested bucket
	}
	if t.full[b.id] {
		return nil // every key of b is known, and key is not one
	}
	v := &val{absent: true}
	if err := t.round(func(q *pgx.Batch) {
		q.Queue(`SELECT value, child IS NOT NULL FROM orrery_kv WHERE bucket = $1 AND key = $2`, b.id, key).
			QueryRow(func(row pgx.Row) error {
				err := row.Scan(&v.v, &v.bucket)
				if errors.Is(err, pgx.ErrNoRows) {
					return nil
				}
				v.absent = false
				if err == nil && !v.bucket && v.v == nil {
					v.v = []byte{}
				}
				return err
			})
	}); err != nil {
		return nil
	}
	if t.kept+len(v.v) <= keepReads {
		t.vals[k] = v
		t.kept += len(v.v)
	}
	return v.v
}

// write records a Put (v non-nil) or Delete (v nil) of key, to be sent
// with the next round trip. A key the transaction knows to name a nested
// bucket is refused here; one it does not know is refused by the server
// when the write is sent, and the transaction then fails with
// ErrIncompatibleValue.
func (b *pgBucket) write(key, v []byte) error {
	t := b.tx
	k := nameKey{b.id, string(key)}
	if id, ok := t.names[k]; ok && id > 0 {
		return store.ErrIncompatibleValue
	}
	w, ok := t.vals[k]
	switch {
	case ok && w.bucket:
		return store.ErrIncompatibleValue
	case ok && v == nil && w.v == nil:
		return nil // known not to be there: nothing to delete
	case ok && v == nil && w.dirty && w.absent:
		// Made in this transaction and never sent: drop the write.
		t.dirty = slices.DeleteFunc(t.dirty, func(d nameKey) bool { return d == k })
		w.v, w.dirty = nil, false
		t.changed(b.id)
		return nil
	case !ok:
		w = &val{absent: t.full[b.id]}
		t.vals[k] = w
	}
	if !w.dirty {
		t.dirty = append(t.dirty, k)
	}
	w.v, w.dirty = v, true
	if _, ok := t.names[k]; ok {
		t.names[k] = 0
		if v != nil {
			t.names[k] = -1
		}
	}
	t.changed(b.id)
	return nil
}

func (b *pgBucket) Put(key, value []byte) error {
	if err := b.check(true); err != nil {
		return err
	}
	if len(key) == 0 {
		return store.ErrKeyRequired
	}
	// Not a copy: the value goes to the server later, and, as with
	// bbolt (which keeps it until commit too), it must stay as it is for
	// the life of the transaction.
	if value == nil {
		value = []byte{}
	}
	return b.write(key, value)
}

func (b *pgBucket) Delete(key []byte) error {
	if err := b.check(true); err != nil {
		return err
	}
	if len(key) == 0 {
		return nil // no such key: nothing to delete, as bbolt
	}
	return b.write(key, nil)
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

// NextSequence counts on in memory from the sequence the transaction
// read with the bucket (or reads it now, taking its row's lock), and
// sends the new value with the next round trip: a concurrent
// transaction that takes the same number fails to serialise with this
// one, as it would had the row been updated at once.
func (b *pgBucket) NextSequence() (uint64, error) {
	if err := b.check(true); err != nil {
		return 0, err
	}
	t := b.tx
	if s, ok := t.seqs[b.id]; ok {
		s.n++
		s.dirty = true
		return s.n, nil
	}
	var n int64
	if err := t.round(func(q *pgx.Batch) {
		q.Queue(`UPDATE orrery_bucket SET seq = seq + 1 WHERE id = $1 RETURNING seq`, b.id).
			QueryRow(func(row pgx.Row) error { return row.Scan(&n) })
	}); err != nil {
		return 0, err
	}
	t.seqs[b.id] = &seq{n: uint64(n)}
	return uint64(n), nil
}

func (b *pgBucket) Sequence() uint64 {
	if b.check(false) != nil {
		return 0
	}
	t := b.tx
	if s, ok := t.seqs[b.id]; ok {
		return s.n
	}
	var n int64
	if err := t.round(func(q *pgx.Batch) {
		q.Queue(`SELECT seq FROM orrery_bucket WHERE id = $1`, b.id).
			QueryRow(func(row pgx.Row) error { return row.Scan(&n) })
	}); err != nil {
		return 0
	}
	t.seqs[b.id] = &seq{n: uint64(n)}
	return uint64(n)
}

func (b *pgBucket) SetSequence(v uint64) error {
	if err := b.check(true); err != nil {
		return err
	}
	b.tx.seqs[b.id] = &seq{n: v, dirty: true}
	return nil
}

func (b *pgBucket) KeyN() int {
	if b.check(false) != nil {
		return 0
	}
	var n int
	if err := b.tx.roundAll(func(q *pgx.Batch) {
		q.Queue(`SELECT count(*) FROM orrery_kv WHERE bucket = $1`, b.id).
			QueryRow(func(row pgx.Row) error { return row.Scan(&n) })
	}); err != nil {
		return 0
	}
	return n
}

// pgCursor walks a bucket a page of rows at a time (keyset paging on the
// primary key, so each page is an index range scan). The first page is
// small, as most walks stop after a few keys (a Seek to a prefix); later
// pages are larger. A change to the bucket in the transaction makes the
// page stale: the next move reads again from the current key (sending
// the transaction's waiting writes first), so a cursor sees the bucket as
// it is. Changes to other buckets leave the page alone.
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
	child    int64 // the nested bucket's id and sequence, when read
	seq      int64
}

// keepReads bounds the bytes of values read that a transaction keeps to
// answer again: a long View (game list --limit 0, a count over every
// game) reads every game's record once and must not hold them all.
// Writes are always kept. bigValue is the largest value a read-only
// transaction reads with a game it opens (its record, not its state).
const (
	keepReads = 8 << 20
	bigValue  = 4096
)

// gameKeys bounds the keys read with a game (a game has a handful: info,
// state and its nested buckets); a game with more is read key by key.
const gameKeys = 32

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
	// A Seek's first page read ahead (SeekAhead), while nothing in the
	// bucket changed since: the rows the statement below would give.
	var ahead []row
	if op == ">=" && !desc && !c.onlyBuckets && n == firstPage {
		if p, ok := t.seeks[seekKey{c.b.id, string(from)}]; ok && p.gen == t.gens[c.b.id] {
			ahead = slices.Clone(p.rows)
			if ahead == nil {
				ahead = []row{}
			}
		}
	}
	// The bucket's own waiting writes are not sent with the read but
	// laid over the page (overlay): a key made and dropped in the
	// transaction (a mail's part answers) then never reaches the server,
	// where other processes' predicate locks would see it.
	for {
		page := ahead
		ahead = nil
		if page == nil {
			err := t.roundBut(c.b.id, true, func(q *pgx.Batch) { queuePage(q, where, order, n, args, &page) })
			if err != nil {
				c.rows = c.rows[:0]
				return
			}
		}
		c.whole = len(page) < n
		c.rows = c.overlay(page, op, from, desc)
		if len(c.rows) > 0 || c.whole {
			break
		}
		// Every row of a full page was deleted here: read on from
		// its last (overlay put the page in ascending order).
		from, op = page[len(page)-1].k, ">"
		if desc {
			from, op = page[0].k, "<"
		}
		where = "bucket = $1 AND key " + op + " $2"
		if c.onlyBuckets {
			where += " AND child IS NOT NULL"
		}
		args = []any{c.b.id, from}
	}
	if desc {
		c.i = len(c.rows) - 1
	}
	c.gen = t.gens[c.b.id]
}

// queuePage queues the statement that reads a cursor's page: at most n
// rows of the bucket (args[0]) where where holds, in order, into page.
func queuePage(q *pgx.Batch, where, order string, n int, args []any, page *[]row) {
	q.Queue("SELECT key, value, child IS NOT NULL FROM orrery_kv WHERE "+where+
		" ORDER BY key "+order+fmt.Sprintf(" LIMIT %d", n), args...).Query(func(rs pgx.Rows) error {
		for rs.Next() {
			var r row
			if err := rs.Scan(&r.k, &r.v, &r.isBucket); err != nil {
				return err
			}
			if r.isBucket {
				r.v = nil
			} else if r.v == nil {
				r.v = []byte{}
			}
			*page = append(*page, r)
		}
		return rs.Err()
	})
}

// seekKey and seekPage are a Seek's first page read ahead: the bucket
// and the key sought; the rows, and the bucket's generation when read.
type seekKey struct {
	bucket int64
	from   string
}

type seekPage struct {
	gen  uint64
	rows []row
}

// SeekAhead reads the first page of a Seek to each of keys, all in one
// round trip, for the cursors of this transaction that will Seek there
// (store.SeekAhead). A page is used only while the transaction has
// written nothing to the bucket (its generation), and none is read when
// writes to it wait: the page then says exactly what the server would
// answer the cursor, and the cursor lays the bucket's waiting writes over
// it as over any page (there are none). The statement is the cursor's
// own, so it takes the same predicate locks, only sooner.
func (b *pgBucket) SeekAhead(keys [][]byte) {
	if b.check(false) != nil {
		return
	}
	t := b.tx
	for _, k := range t.dirty {
		if k.parent == b.id {
			return
		}
	}
	gen := t.gens[b.id]
	var ask [][]byte
	seen := map[string]bool{}
	for _, k := range keys {
		if p, ok := t.seeks[seekKey{b.id, string(k)}]; (ok && p.gen == gen) || seen[string(k)] {
			continue
		}
		seen[string(k)] = true
		ask = append(ask, k)
	}
	if len(ask) == 0 {
		return
	}
	pages := make([][]row, len(ask))
	if err := t.roundBut(b.id, true, func(q *pgx.Batch) {
		for i, k := range ask {
			queuePage(q, "bucket = $1 AND key >= $2", "ASC", firstPage, []any{b.id, k}, &pages[i])
		}
	}); err != nil || t.gens[b.id] != gen {
		return
	}
	if t.seeks == nil {
		t.seeks = map[seekKey]seekPage{}
	}
	for i, k := range ask {
		t.seeks[seekKey{b.id, string(k)}] = seekPage{gen, pages[i]}
	}
}

// overlay returns page (server rows in the order read: descending when
// desc) with the bucket's waiting writes laid over it, in ascending
// order: a waiting Delete hides its row, a waiting Put replaces its
// value or adds its key, if the key lies in the range the page covers
// (from, by op, up to its last row; to the end when the page is short).
func (c *pgCursor) overlay(page []row, op string, from []byte, desc bool) []row {
	t := c.b.tx
	if desc {
		slices.Reverse(page)
	}
	if c.onlyBuckets {
		return page
	}
	var w []nameKey
	for _, k := range t.dirty {
		if k.parent == c.b.id {
			w = append(w, k)
		}
	}
	if len(w) == 0 {
		return page
	}
	full := !c.whole
	in := func(key []byte) bool {
		if from != nil {
			switch cmp := bytes.Compare(key, from); op {
			case ">=":
				if cmp < 0 {
					return false
				}
			case ">":
				if cmp <= 0 {
					return false
				}
			case "<":
				if cmp >= 0 {
					return false
				}
			}
		}
		if full && len(page) > 0 {
			if desc {
				return bytes.Compare(key, page[0].k) >= 0
			}
			return bytes.Compare(key, page[len(page)-1].k) <= 0
		}
		return true
	}
	byKey := map[string]*val{}
	for _, k := range w {
		byKey[k.name] = t.vals[k]
	}
	out := make([]row, 0, len(page)+len(w))
	for _, r := range page {
		if v, ok := byKey[string(r.k)]; ok {
			delete(byKey, string(r.k))
			if v.v == nil {
				continue
			}
			r.v, r.isBucket = v.v, false
		}
		out = append(out, r)
	}
	for name, v := range byKey {
		if v.v != nil && in([]byte(name)) {
			out = append(out, row{k: []byte(name), v: v.v})
		}
	}
	slices.SortFunc(out, func(a, b row) int { return bytes.Compare(a.k, b.k) })
	return out
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

// fresh reports whether no change to the bucket came since the page was
// read.
func (c *pgCursor) fresh() bool { return c.gen == c.b.tx.gens[c.b.id] }

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
	if c.fresh() && c.i+1 < len(c.rows) {
		c.i++
		return c.at()
	}
	if c.fresh() && c.whole && !c.desc {
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
	if c.fresh() && c.i > 0 {
		c.i--
		return c.at()
	}
	if c.fresh() && c.whole && c.desc {
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
	fresh := c.fresh()
	if err := c.b.Delete(k); err != nil {
		return err
	}
	// Only the current row went: the page still holds the rest.
	if fresh {
		c.gen = c.b.tx.gens[c.b.id]
	}
	return nil
}
