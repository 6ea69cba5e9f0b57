//go:build soak

package soak

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"orrery/engine/store"
	"orrery/engine/store/pgstore"
)

// pgSide is what the PostgreSQL server did during a drain: the WAL it
// wrote and flushed (pg_stat_wal and the WAL position, the whole
// server's), the transactions of the drain's database, and, when the
// server preloads pg_stat_statements (and the extension is made in the
// database -scale.pg names), the statements that took the server's time.
// The daemon's side (round trips, commits) is in store.Stats.
type pgSide struct {
	conn   *pgx.Conn // to -scale.pg, for pg_stat_statements
	st     *store.Store
	before pgCounters
	stmts  bool
}

type pgCounters struct {
	lsn                                int64
	records, fpi, bytes, writes, syncs int64
	commits, rollbacks, ins, upd, del  int64
	datname                            string
	taken                              time.Time
}

// startPGSide takes the counters before a drain on st, or returns nil
// when st is not on PostgreSQL.
func startPGSide(t *testing.T, st *store.Store) *pgSide {
	pool := pgstore.Pool(st)
	if pool == nil {
		return nil
	}
	ps := &pgSide{st: st}
	ctx := context.Background()
	if *flagScalePG != "" {
		if conn, err := pgx.Connect(ctx, *flagScalePG); err == nil {
			ps.conn = conn
			if _, err := conn.Exec(ctx, "SELECT pg_stat_statements_reset()"); err == nil {
				ps.stmts = true
			}
		}
	}
	var err error
	if ps.before, err = readPGCounters(ctx, st); err != nil {
		t.Logf("PostgreSQL's counters: %v", err)
		return nil
	}
	return ps
}

func readPGCounters(ctx context.Context, st *store.Store) (pgCounters, error) {
	var c pgCounters
	err := pgstore.Pool(st).QueryRow(ctx, `SELECT pg_current_wal_lsn() - '0/0'::pg_lsn, w.wal_records, w.wal_fpi, w.wal_bytes::bigint, w.wal_write, w.wal_sync,
			d.xact_commit, d.xact_rollback, d.tup_inserted, d.tup_updated, d.tup_deleted, d.datname
		FROM pg_stat_wal w, pg_stat_database d WHERE d.datname = current_database()`).
		Scan(&c.lsn, &c.records, &c.fpi, &c.bytes, &c.writes, &c.syncs, &c.commits, &c.rollbacks, &c.ins, &c.upd, &c.del, &c.datname)
	c.taken = time.Now()
	return c, err
}

// stop logs what the server did since start, per order mail (m) and per
// mail sent (sent).
func (ps *pgSide) stop(t *testing.T, m, sent int) {
	if ps == nil {
		return
	}
	ctx := context.Background()
	defer func() {
		if ps.conn != nil {
			ps.conn.Close(ctx)
		}
	}()
	// pg_stat_database is reported by the backends when they go idle,
	// at most every 0.5 s (PGSTAT_MIN_INTERVAL): wait that out.
	time.Sleep(time.Second)
	a, err := readPGCounters(ctx, ps.st)
	if err != nil {
		t.Logf("PostgreSQL's counters: %v", err)
		return
	}
	b := ps.before
	per := func(v int64) string {
		return fmt.Sprintf("%d (%.1f an order mail, %.1f a mail sent)", v, float64(v)/float64(m), float64(v)/float64(max(sent, 1)))
	}
	t.Logf("PostgreSQL during the drain (%v): WAL %.1f MB (%.1f kB an order mail, %.1f kB a mail sent); WAL records %s; full-page images %s; WAL writes %s, WAL fsyncs %s",
		a.taken.Sub(b.taken).Round(time.Millisecond), float64(a.lsn-b.lsn)/1e6, float64(a.lsn-b.lsn)/1e3/float64(m), float64(a.lsn-b.lsn)/1e3/float64(max(sent, 1)),
		per(a.records-b.records), per(a.fpi-b.fpi), per(a.writes-b.writes), per(a.syncs-b.syncs))
	t.Logf("PostgreSQL during the drain, database %s: commits %s, rollbacks %s; rows inserted %s, updated %s, deleted %s",
		a.datname, per(a.commits-b.commits), per(a.rollbacks-b.rollbacks), per(a.ins-b.ins), per(a.upd-b.upd), per(a.del-b.del))
	if !ps.stmts {
		t.Log("pg_stat_statements is not there (shared_preload_libraries, CREATE EXTENSION in -scale.pg's database): no statement figures")
		return
	}
	rows, err := ps.conn.Query(ctx, `SELECT calls, total_exec_time, rows, wal_bytes::bigint, shared_blks_hit + shared_blks_read, shared_blks_dirtied, shared_blks_written, jit_functions, jit_generation_time + jit_inlining_time + jit_optimization_time + jit_emission_time, left(regexp_replace(query, '\s+', ' ', 'g'), 140)
		FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid WHERE d.datname = $1 ORDER BY total_exec_time DESC LIMIT 20`, a.datname)
	if err != nil {
		t.Logf("pg_stat_statements: %v", err)
		return
	}
	defer rows.Close()
	var out strings.Builder
	fmt.Fprintf(&out, "the server's statements during the drain, by time (calls an order mail; ms in all; rows; WAL kB an order mail; blocks touched, dirtied, written by the backend; JIT functions and time):\n")
	for rows.Next() {
		var calls, nrows, wal, blks, dirt, wrt, jitf int64
		var ms, jitms float64
		var q string
		if err := rows.Scan(&calls, &ms, &nrows, &wal, &blks, &dirt, &wrt, &jitf, &jitms, &q); err != nil {
			t.Logf("pg_stat_statements: %v", err)
			return
		}
		fmt.Fprintf(&out, "  %6.2f  %8.0f ms  %8d  %7.2f kB  %9d %7d %7d  jit %d, %.0f ms  %s\n", float64(calls)/float64(m), ms, nrows, float64(wal)/1e3/float64(m), blks, dirt, wrt, jitf, jitms, q)
	}
	t.Log(out.String())
}
