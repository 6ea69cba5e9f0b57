package pgstore

import "orrery/engine/store"

// Claim locks up to n of the bucket's nested buckets that no other open
// transaction has locked, oldest first (bucket ids come from a sequence),
// and returns their names. The lock is FOR NO KEY UPDATE on the nested
// buckets' rows: it skips rows another claim or a game's FOR UPDATE (see
// the package comment) holds, yet lets other transactions add keys to a
// claimed bucket meanwhile (their foreign key check takes FOR KEY SHARE),
// so a process that queues work into a bucket never waits for the one
// that works it off. It is its own query, kept apart from the bucket
// lookups and their cache.
func (b *pgBucket) Claim(n int) ([][]byte, error) {
	if err := b.check(true); err != nil {
		return nil, err
	}
	if n <= 0 {
		return nil, nil
	}
	rs, err := b.tx.tx.Query(b.tx.ctx, `WITH c AS (
			SELECT id FROM orrery_bucket WHERE parent = $1 ORDER BY id LIMIT $2 FOR NO KEY UPDATE SKIP LOCKED)
		SELECT k.key FROM c JOIN orrery_kv k ON k.child = c.id AND k.bucket = $1 ORDER BY c.id`, b.id, n)
	if err != nil {
		return nil, b.tx.fail(err)
	}
	defer rs.Close()
	var names [][]byte
	for rs.Next() {
		var k []byte
		if err := rs.Scan(&k); err != nil {
			return nil, b.tx.fail(err)
		}
		names = append(names, k)
	}
	if err := rs.Err(); err != nil {
		return nil, b.tx.fail(err)
	}
	return names, nil
}

var _ store.Bucket = (*pgBucket)(nil)
