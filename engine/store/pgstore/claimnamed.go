package pgstore

import (
	"bytes"
	"slices"

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
func (b *pgBucket) ClaimNamed(names [][]byte) ([][]byte, error) {
	if err := b.check(true); err != nil {
		return nil, err
	}
	var want [][]byte
	for _, n := range names {
		if len(n) > 0 {
			want = append(want, n)
		}
	}
	if len(want) == 0 {
		return nil, nil
	}
	var got [][]byte
	err := b.tx.round(func(q *pgx.Batch) {
		q.Queue(`SELECT k.key FROM orrery_kv k JOIN orrery_bucket g ON g.id = k.child
			WHERE k.bucket = $1 AND k.key = ANY($2::bytea[])
			ORDER BY k.key FOR UPDATE OF g SKIP LOCKED`, b.id, want).
			Query(func(rs pgx.Rows) error {
				for rs.Next() {
					var k []byte
					if err := rs.Scan(&k); err != nil {
						return err
					}
					got = append(got, k)
				}
				return rs.Err()
			})
	})
	if err != nil {
		return nil, err
	}
	slices.SortFunc(got, bytes.Compare) // bytea's order, made sure of
	return got, nil
}
