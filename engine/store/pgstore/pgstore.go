// Package pgstore keeps the store's key-value space (engine/store) in
// PostgreSQL, so that several processes on several machines can share one
// database, back it up while it runs and fail over to a replica.
//
// The space is two tables (migrations/0001_kv.sql): orrery_bucket, one row
// per bucket with its sequence, and orrery_kv, one row per key with its
// bucket, key and value, or the nested bucket it names. A Store.Update is
// one SQL transaction, so a mail's effect, its seen-record and the mails it
// causes commit together, as on bbolt.
//
// Isolation. Writable transactions run at SERIALIZABLE: every Update
// reads, decides and writes in Go (a key-value space has no SQL to push
// the decision into), so only SERIALIZABLE makes concurrent read-modify-
// write cycles of several processes (two daemons, a daemon and a GM's CLI)
// behave as if run one at a time; READ COMMITTED would lose updates to
// the shared buckets (rate limits, budgets, indexes) and REPEATABLE READ
// would allow write skew between them. PostgreSQL then refuses some
// transactions with 40001 (serialization failure) or 40P01 (deadlock):
// Retryable says so, and engine/store runs the work again in a new
// transaction (Store.Update documents what that asks of its fn). Read-only
// transactions (Store.View) run at REPEATABLE READ READ ONLY: one
// snapshot, as bbolt's View, and never refused.
//
// Conflicts between processes. PostgreSQL's SERIALIZABLE checks lock
// what a transaction read an index page at a time (a sequential scan: the
// whole table; more than max_pred_locks_per_relation pages: the whole
// table too), and refuse one of two transactions that each wrote where
// the other read, though never the same record. So the transactions
// here read as little of what others write as they can: no sequential
// scans (Open), keys made and dropped in a transaction kept off the
// server (above), and cached bucket ids confirmed by their bucket's row.
// conflict.go names each refusal (Conflicts; store.Stats counts them).
//
// Per-game serialisation: when a writable transaction opens a game's
// bucket (games/<id>), it locks that bucket's row (SELECT … FOR UPDATE,
// in the statement that finds the game, before any of the game is read),
// so two processes that change one game queue on its row instead of both
// doing the work and one failing at commit; changes to different games
// do not wait for each other. There is no process-wide lock.
//
// Round trips. A statement's wait for the server costs more than its
// work (an order mail made 59 to 88 of them, one per Put, Get and bucket
// lookup), so a transaction (tx.go) sends as few as it can:
//   - BEGIN goes with the first statement, COMMIT with the last writes;
//   - Put, Delete and sequence changes wait in memory and go, as one
//     multi-row statement each, in the same batch as the next statement
//     that must reach the server (a read of a key it has not seen, a
//     cursor, KeyN, a bucket made or deleted) or with COMMIT: reads in
//     the transaction see its writes, cursors included (a cursor lays
//     its bucket's waiting writes over the rows it reads);
//   - a Put of a key a read found absent waits for COMMIT (or KeyN, a
//     bucket made or deleted), and a Delete of it then drops it: a key
//     made and dropped in the transaction never reaches the server;
//   - a key read or written is answered again from memory (the
//     transaction's snapshot does not move), and so is a key of a
//     bucket whose every key it knows (made in it, or a game);
//   - opening a game reads its own keys (info, state, its nested buckets
//     and their sequences) with the row lock, in the same round trip;
//   - the ids of the top-level buckets and of those in them (mail/…, not
//     a game) are cached across transactions (idCache). Another process
//     may delete such a bucket and make it again, so an id from the cache
//     is confirmed by the server in the transaction's next batch, by a
//     statement that fails when it is stale: the transaction then fails
//     with a retryable error, the cache is emptied and Store runs it
//     again. A read-only transaction confirms its ids before Err returns.
//
// One difference from bbolt follows: a Put or Delete of a key that names
// a nested bucket the transaction did not know of returns nil, and the
// server refuses the write when it is sent (the table's CHECK), failing
// the transaction with ErrIncompatibleValue at its next statement or
// commit; nothing of it commits. A key the transaction knows for a
// bucket is refused at once, as bbolt does. Store.Stats().RoundTrips
// counts the round trips (BenchmarkOrderMail in pbem/daemon reports them
// a mail; TestRoundTripsOfAnOrderMail pins a mail's count).
//
// Reads that fail (the connection drops) spoil the transaction: Tx.Err
// returns the first failure and Store turns it into the transaction's
// error, so nothing decided on a missing read commits. A write the server
// refuses spoils it the same way, when it is sent.
package pgstore

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"orrery/engine/store"
)

// Options tunes Open.
type Options struct {
	// ReadOnly refuses writable transactions, and skips migrations: the
	// schema must then be current.
	ReadOnly bool
	// MaxConns bounds the connection pool; zero means pgxpool's default
	// (the larger of 4 and the number of CPUs).
	MaxConns int32
	// NoMigrate checks the schema version without applying migrations;
	// Open then fails on a database that is behind (orrery db migrate).
	NoMigrate bool
	// Logger hears, at debug level, of each transaction the server
	// refused as not serialisable with another (conflict.go); nil: no
	// log.
	Logger *slog.Logger
}

// Open connects to the database named by dsn (a postgres:// URL or a
// key=value string), applies the migrations it lacks, and opens the store
// in it. Errors never show the DSN's password.
func Open(ctx context.Context, dsn string, opt Options) (*store.Store, error) {
	name := Redact(dsn)
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		return nil, fmt.Errorf("postgres DSN %s: %s", name, redactErr(err, dsn))
	}
	if opt.MaxConns > 0 {
		cfg.MaxConns = opt.MaxConns
	}
	// Every statement here finds its rows by an index. A sequential
	// scan, which the planner prefers while the tables are small (a
	// new database, a test's), would take a SERIALIZABLE predicate lock
	// on the whole table, and conflict with every write of every other
	// process: keep the planner to the indexes.
	cfg.ConnConfig.RuntimeParams["enable_seqscan"] = "off"
	trips := &tripCounter{}
	cfg.ConnConfig.Tracer = trips
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("connect to %s: %s", name, redactErr(err, dsn))
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("connect to %s: %s", name, redactErr(err, dsn))
	}
	if opt.ReadOnly || opt.NoMigrate {
		err = checkVersion(ctx, pool, name)
	} else {
		_, err = migrate(ctx, pool)
	}
	if err != nil {
		pool.Close()
		return nil, err
	}
	be := &backend{pool: pool, readOnly: opt.ReadOnly, trips: trips, ids: &idCache{m: map[nameKey]int64{}}, log: opt.Logger}
	if be.log == nil {
		be.log = discard
	}
	s, err := store.New(be, "postgres", "", name, opt.ReadOnly)
	if err != nil {
		pool.Close()
		return nil, err
	}
	return s, nil
}

// Redact returns dsn without its password, for messages and logs.
func Redact(dsn string) string {
	if u, err := url.Parse(dsn); err == nil && (u.Scheme == "postgres" || u.Scheme == "postgresql") {
		if _, ok := u.User.Password(); ok {
			u.User = url.UserPassword(u.User.Username(), "xxxxx")
		}
		q := u.Query()
		if q.Has("password") {
			q.Set("password", "xxxxx")
			u.RawQuery = q.Encode()
		}
		return u.String()
	}
	// key=value form: hide password=…
	f := strings.Fields(dsn)
	for i, kv := range f {
		if strings.HasPrefix(strings.ToLower(kv), "password=") {
			f[i] = "password=xxxxx"
		}
	}
	return strings.Join(f, " ")
}

// redactErr is err's text without the password of dsn, should a driver
// ever quote it.
func redactErr(err error, dsn string) string {
	msg := err.Error()
	if cfg, e := pgconn.ParseConfig(dsn); e == nil && cfg.Password != "" {
		msg = strings.ReplaceAll(msg, cfg.Password, "xxxxx")
	}
	return msg
}

type backend struct {
	pool     *pgxpool.Pool
	readOnly bool
	trips    *tripCounter
	ids      *idCache
	log      *slog.Logger
	// conflicts counts the transactions refused as not serialisable,
	// by what was refused (conflict.go).
	conflicts conflicts
}

// RoundTrips counts the statements and batches sent through the pool
// since Open (store.Stats): what a transaction costs in waits on the
// server, which the benchmarks and a test keep an eye on.
func (b *backend) RoundTrips() int64 { return b.trips.n.Load() }

// tripCounter is a pgx tracer that counts each statement (Exec, Query,
// QueryRow; begin and commit are statements too) and each batch (sent in
// one go, answered in one go) as one round trip; and, apart, every
// statement the server runs, a batch's each (what the server parses,
// plans and runs one by one: the tests count them).
type tripCounter struct{ n, stmts atomic.Int64 }

func (c *tripCounter) TraceQueryStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceQueryStartData) context.Context {
	c.n.Add(1)
	c.stmts.Add(1)
	return ctx
}
func (c *tripCounter) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}
func (c *tripCounter) TraceBatchStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceBatchStartData) context.Context {
	c.n.Add(1)
	return ctx
}
func (c *tripCounter) TraceBatchEnd(context.Context, *pgx.Conn, pgx.TraceBatchEndData) {}

func (b *backend) Begin(ctx context.Context, writable bool) (store.BackendTx, error) {
	if writable && b.readOnly {
		return nil, fmt.Errorf("begin a change: %w (the store was opened read-only)", store.ErrTxNotWritable)
	}
	// BEGIN itself waits for the transaction's first statement (pgTx).
	conn, err := b.pool.Acquire(ctx)
	if err != nil {
		return nil, fmt.Errorf("postgres: begin: %w", err)
	}
	t := &pgTx{ctx: ctx, be: b, conn: conn, writable: writable,
		names: map[nameKey]int64{}, vals: map[nameKey]*val{}, seqs: map[int64]*seq{},
		full: map[int64]bool{}, gens: map[int64]uint64{}, learnt: map[nameKey]int64{}}
	t.root = &pgBucket{tx: t, id: 0}
	return t, nil
}

// idCache keeps, across transactions, the ids of the top-level buckets
// and of the buckets nested in them (mail/outbox, mail/inbox-seen…) but
// not in games, or that there is none by a name: most transactions look
// the same few up, and a lookup is a round trip. Another process may delete such a bucket and make it
// again (an index rebuild does), so an id taken from here is only a
// guess until the server confirms it, which it does in the transaction's
// next batch of statements (pgTx.batch); a wrong guess fails the
// transaction with a retryable error and empties the cache.
type idCache struct {
	sync.Mutex
	m     map[nameKey]int64
	top   map[int64]bool // ids of top-level buckets but games
	games int64
}

// maxIDs bounds the cache; the buckets it takes are a few dozen.
const maxIDs = 1024

// get returns the id of the bucket k names, or 0 when there is none,
// and whether the cache knows.
func (c *idCache) get(k nameKey) (int64, bool) {
	c.Lock()
	defer c.Unlock()
	id, ok := c.m[k]
	return id, ok
}

// takes reports whether the cache keeps the bucket k names.
func (c *idCache) takes(k nameKey) bool {
	if k.parent == 0 {
		return true
	}
	c.Lock()
	defer c.Unlock()
	return c.top[k.parent]
}

func (c *idCache) learn(ids map[nameKey]int64) {
	if len(ids) == 0 {
		return
	}
	c.Lock()
	defer c.Unlock()
	for k, id := range ids {
		if len(c.m) >= maxIDs {
			return
		}
		c.m[k] = id
		if k.parent == 0 && id > 0 {
			if c.top == nil {
				c.top = map[int64]bool{}
			}
			if k.name == string(store.BucketGames) {
				c.games = id
			} else {
				c.top[id] = true
			}
		}
	}
}

func (c *idCache) forget(ks []nameKey) {
	if len(ks) == 0 {
		return
	}
	c.Lock()
	defer c.Unlock()
	for _, k := range ks {
		delete(c.m, k)
	}
}

func (c *idCache) clear() {
	c.Lock()
	defer c.Unlock()
	c.m, c.top = map[nameKey]int64{}, nil
}

// Retryable reports a serialization failure or a deadlock: the
// transaction was rolled back and may be run again.
func (b *backend) Retryable(err error) bool {
	if errors.Is(err, errStaleBucket) {
		return true
	}
	var pe *pgconn.PgError
	return errors.As(err, &pe) && (pe.Code == "40001" || pe.Code == "40P01")
}

func (b *backend) Locks() bool  { return false }
func (b *backend) Close() error { b.pool.Close(); return nil }

// Pool is the connection pool of a store Open made, for code under
// engine/store and for the daemon's leader election; nil for another
// store.
func Pool(s *store.Store) *pgxpool.Pool {
	if b, ok := s.Backend().(*backend); ok {
		return b.pool
	}
	return nil
}
