package pgstore

import (
	"github.com/jackc/pgx/v5"

	"orrery/engine/store"
)

// Claim locks up to n of the bucket's nested buckets that no other open
// transaction has locked, oldest first (bucket ids come from a sequence),
// and returns their names. The lock is FOR NO KEY UPDATE on the nested
// buckets' rows: it skips rows another claim or a game's FOR UPDATE (see
// the package comment) holds, yet lets other transactions add keys to a
// claimed bucket meanwhile (they do not lock its row: a key's bucket has
// no foreign key, migrations/0003, and a cached id's check only reads
// the row), so a process that queues work into a bucket never waits for
// the one that works it off. It is its own statement, sent with the
// writes that wait (round), and kept apart from the bucket lookups and
// their cache. The claimed buckets' ids come with their names, for this
// transaction only: the Bucket that opens one next is not a round trip
// of its own (it was one a claimed bucket for the daemon's queue).
func (b *pgBucket) Claim(n int) ([][]byte, error) {
	if err := b.check(true); err != nil {
		return nil, err
	}
	if n <= 0 {
		return nil, nil
	}
	var names [][]byte
	var ids []int64
	err := b.tx.round(func(q *pgx.Batch) {
		q.Queue(`WITH c AS (
			SELECT id FROM orrery_bucket WHERE parent = $1 ORDER BY id LIMIT $2 FOR NO KEY UPDATE SKIP LOCKED)
		SELECT k.key, c.id FROM c JOIN orrery_kv k ON k.child = c.id AND k.bucket = $1 ORDER BY c.id`, b.id, n).
			Query(func(rs pgx.Rows) error {
				for rs.Next() {
					var k []byte
					var id int64
					if err := rs.Scan(&k, &id); err != nil {
						return err
					}
					names, ids = append(names, k), append(ids, id)
				}
				return rs.Err()
			})
	})
	if err != nil {
		return nil, err
	}
	for i, name := range names {
		// Read and locked in this transaction: what the name holds
		// until the transaction itself changes it.
		if _, ok := b.tx.names[nameKey{b.id, string(name)}]; !ok {
			b.tx.names[nameKey{b.id, string(name)}] = ids[i]
		}
	}
	return names, nil
}

var _ store.Bucket = (*pgBucket)(nil)

// scanKeys reads rows of one bytea column into *dst, for Query.
func scanKeys(dst *[][]byte) func(pgx.Rows) error {
	return func(rs pgx.Rows) error {
		for rs.Next() {
			var k []byte
			if err := rs.Scan(&k); err != nil {
				return err
			}
			*dst = append(*dst, k)
		}
		return rs.Err()
	}
}
