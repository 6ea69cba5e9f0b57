package pgstore

import (
	"bytes"
	"slices"
	"strconv"

	"github.com/jackc/pgx/v5"
)

// ClaimNamed locks those of the named nested buckets that no other open
// transaction has locked, and returns their names in name order. The
// lock is FOR UPDATE on the nested buckets' rows, the one a writable
// transaction takes when it opens a game (see the package comment): a
// game another process is changing, or has claimed, is skipped rather
// than waited for, and opening a claimed game later in this transaction
// waits for no one. Tick claims each batch of due games so (engine/game
// schedule.go), in one statement sent with the writes that wait (round).
//
// Claimed games are read in the same statement, with their own keys, as
// opening one reads it (lookup): a batch of 256 due games then costs one
// round trip, not one a game.
func (b *pgBucket) ClaimNamed(names [][]byte) ([][]byte, error) {
	if err := b.check(true); err != nil {
		return nil, err
	}
	var want [][]byte
	seen := map[string]bool{}
	for _, n := range names {
		if len(n) > 0 && !seen[string(n)] {
			seen[string(n)] = true
			want = append(want, n)
		}
	}
	if len(want) == 0 {
		return nil, nil
	}
	games := b.isGames()
	var got [][]byte
	read := map[string]*claimedGame{}
	// Each name is found by the primary key and its bucket's row locked
	// alone (LATERAL … LIMIT keeps the planner from joining the whole
	// bucket or every nested bucket, as it would for a few hundred
	// names), so the statement costs the same at 100 games as at 100,000.
	const claimed = `SELECT k.key AS name, g.id, g.seq FROM unnest($2::bytea[]) AS n(key),
			LATERAL (SELECT key, child FROM orrery_kv WHERE bucket = $1 AND key = n.key AND child IS NOT NULL LIMIT 1) k,
			LATERAL (SELECT id, seq FROM orrery_bucket WHERE id = k.child FOR UPDATE SKIP LOCKED) g`
	err := b.tx.round(func(q *pgx.Batch) {
		// The planner's guess for the statement below, some 100,000,
		// would have it compiled (JIT) for longer than it runs (80 ms
		// against 7 for 256 games): not in this transaction.
		q.Queue(`SET LOCAL jit = off`)
		if !games {
			q.Queue(`SELECT name FROM (`+claimed+`) c ORDER BY name`, b.id, want).Query(scanKeys(&got))
			return
		}
		// A game's keys, up to gameKeys+1 of them, as lookup reads
		// them; a claimed game without keys comes as one row of NULLs.
		q.Queue(`WITH c AS MATERIALIZED (`+claimed+`)
			SELECT c.name, c.id, c.seq, kv.key, kv.value, kv.value IS NULL, kv.child,
				(SELECT s.seq FROM orrery_bucket s WHERE s.id = kv.child)
			FROM c LEFT JOIN LATERAL (
				SELECT key, value, child FROM orrery_kv WHERE bucket = c.id ORDER BY key LIMIT `+strconv.Itoa(gameKeys+1)+`) kv ON true
			ORDER BY c.name, kv.key`, b.id, want).Query(func(rs pgx.Rows) error {
			for rs.Next() {
				var r claimRow
				if err := r.scan(rs); err != nil {
					return err
				}
				cg := read[string(r.name)]
				if cg == nil {
					cg = &claimedGame{id: r.id, seq: r.seq}
					read[string(r.name)] = cg
					got = append(got, r.name)
				}
				if r.key != nil {
					cg.rows = append(cg.rows, r.row())
				}
			}
			return rs.Err()
		})
	})
	if err != nil {
		return nil, err
	}
	slices.SortFunc(got, bytes.Compare) // bytea's order, made sure of
	for _, name := range got {
		if cg := read[string(name)]; cg != nil {
			b.learnGame(name, cg)
		}
	}
	return got, nil
}

// claimRow is one row of ClaimNamed's statement: a claimed bucket, and
// one of its keys (a game's).
type claimRow struct {
	name, key, value []byte
	id, seq          int64
	none             bool // value IS NULL
	child, childSeq  *int64
}

func (r *claimRow) scan(rs pgx.Rows) error {
	return rs.Scan(&r.name, &r.id, &r.seq, &r.key, &r.value, &r.none, &r.child, &r.childSeq)
}

// row is the key as lookup's reading of a game has it.
func (r *claimRow) row() row {
	out := row{k: r.key, v: r.value}
	switch {
	case r.child != nil:
		out.isBucket, out.child, out.v = true, *r.child, nil
		if r.childSeq != nil {
			out.seq = *r.childSeq
		}
	case out.v == nil:
		out.v = []byte{}
	}
	return out
}

// claimedGame is what ClaimNamed read of one game.
type claimedGame struct {
	id, seq int64
	rows    []row
}

// learnGame records a claimed game as lookup does when it opens one, so
// that opening it later in the transaction is answered from memory: its
// id, its sequence, and its keys (every one of them, when it has no more
// than gameKeys). A game the transaction knew already is left as it
// knows it (it may have changed it), and so is every game once the
// values kept reach keepReads: those are read when opened.
func (b *pgBucket) learnGame(name []byte, cg *claimedGame) {
	t := b.tx
	k := nameKey{b.id, string(name)}
	if _, ok := t.names[k]; ok || t.kept >= keepReads {
		return
	}
	if _, ok := t.vals[k]; ok {
		return
	}
	for _, r := range cg.rows {
		gk := nameKey{cg.id, string(r.k)}
		if r.isBucket {
			t.names[gk] = r.child
			t.vals[gk] = &val{bucket: true}
			if _, ok := t.seqs[r.child]; !ok {
				t.seqs[r.child] = &seq{n: uint64(r.seq)}
			}
			continue
		}
		t.vals[gk] = &val{v: r.v}
		t.kept += len(r.v)
	}
	t.full[cg.id] = len(cg.rows) <= gameKeys
	t.names[k] = cg.id
	if _, ok := t.seqs[cg.id]; !ok {
		t.seqs[cg.id] = &seq{n: uint64(cg.seq)}
	}
}
