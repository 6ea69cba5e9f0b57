package store

// Getter is what a backend's bucket offers when it can read many keys at
// once cheaper than one by one: PostgreSQL reads them in one statement
// where Get costs a round trip each (pgstore).
type Getter interface {
	// GetMany returns the values of keys, in their order, as Get would.
	GetMany(keys [][]byte) [][]byte
}

// GetMany returns the values of keys in b, in their order, as Get would:
// in one read where the backend can (Getter), one Get a key otherwise
// (bbolt, whose Get is a lookup in memory). The outbox reads the bodies
// of the mails a claim takes so.
func GetMany(b Bucket, keys [][]byte) [][]byte {
	if g, ok := b.(Getter); ok {
		return g.GetMany(keys)
	}
	out := make([][]byte, len(keys))
	for i, k := range keys {
		out[i] = b.Get(k)
	}
	return out
}
