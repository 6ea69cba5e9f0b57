package pgstore

import "orrery/engine/store"

// Statements counts the statements the server ran for s since Open, each
// statement of a batch apart (a round trip may carry many).
func Statements(s *store.Store) int64 { return s.Backend().(*backend).trips.stmts.Load() }

// BucketCheck is the statement that asserts a transaction's cached bucket
// ids (its plan is tested).
const BucketCheck = bucketCheck

// GetKeys and DeleteKeys are the statements that read and delete a
// bucket's keys named in an array (their plans are tested).
const (
	GetKeys    = getKeys
	DeleteKeys = deleteKeys
)
