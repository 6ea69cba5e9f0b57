package store

// Seeker is what a backend's bucket offers when it can read, in one round
// trip, the first page each of several cursors would read at a Seek
// (pgstore); see SeekAhead.
type Seeker interface {
	SeekAhead(keys [][]byte)
}

// SeekAhead tells b that cursors of this transaction will Seek to each of
// keys: a backend whose reads are round trips (PostgreSQL) reads their
// first pages now, all in one, and answers those Seeks from them for as
// long as the transaction writes nothing to b; elsewhere (bbolt, whose
// cursors read memory) it does nothing. It changes no result, only when
// the reading is done. The daemon reads its batch's senders' seats so.
func SeekAhead(b Bucket, keys [][]byte) {
	if s, ok := b.(Seeker); ok && len(keys) > 0 {
		s.SeekAhead(keys)
	}
}
