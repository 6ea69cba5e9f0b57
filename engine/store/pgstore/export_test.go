// This file holds no tests: it is the export_test.go idiom, compiled only
// with the tests, which opens a few of the package's insides to the
// external test package pgstore_test. The assertions that use them:
// Statements in drain_test.go (TestDeletesOneStatementABucket counts the
// statements that reached the server), BucketCheck, GetKeys and DeleteKeys
// in batch_test.go (TestBucketCheckProbesTheIndex,
// TestKeyArraysProbeTheIndex read their plans).
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
