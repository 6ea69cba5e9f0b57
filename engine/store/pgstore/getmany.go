package pgstore

import "github.com/jackc/pgx/v5"

// GetMany is Get for many keys (store.Getter), in one statement for those
// the transaction does not know yet, not a round trip each: the outbox
// reads the bodies of the mails a claim takes so (pbem/outbox).
func (b *pgBucket) GetMany(keys [][]byte) [][]byte {
	out := make([][]byte, len(keys))
	if b.check(false) != nil {
		return out
	}
	t := b.tx
	var ask [][]byte
	at := map[string][]int{}
	for i, key := range keys {
		if len(key) == 0 {
			continue
		}
		k := nameKey{b.id, string(key)}
		if v, ok := t.vals[k]; ok {
			out[i] = v.v
			continue
		}
		if id, ok := t.names[k]; (ok && id > 0) || t.full[b.id] {
			continue // a nested bucket, or known not to be there
		}
		if _, ok := at[string(key)]; !ok {
			ask = append(ask, key)
		}
		at[string(key)] = append(at[string(key)], i)
	}
	if len(ask) == 0 {
		return out
	}
	got := map[string]*val{}
	if err := t.round(func(q *pgx.Batch) {
		q.Queue(getKeys, b.id, ask).
			Query(func(rs pgx.Rows) error {
				for rs.Next() {
					var key []byte
					v := &val{}
					if err := rs.Scan(&key, &v.v, &v.bucket); err != nil {
						return err
					}
					if !v.bucket && v.v == nil {
						v.v = []byte{}
					}
					got[string(key)] = v
				}
				return rs.Err()
			})
	}); err != nil {
		return make([][]byte, len(keys))
	}
	for _, key := range ask {
		v, ok := got[string(key)]
		if !ok {
			v = &val{absent: true}
		}
		for _, i := range at[string(key)] {
			out[i] = v.v
		}
		if t.kept+len(v.v) <= keepReads {
			t.vals[nameKey{b.id, string(key)}] = v
			t.kept += len(v.v)
		}
	}
	return out
}
