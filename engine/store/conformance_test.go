package store_test

import (
	"testing"

	"orrery/engine/store/storetest"
)

// TestConformance runs the store conformance suite on every backend; the
// PostgreSQL one skips, saying how to run it, without ORRERY_TEST_PG.
func TestConformance(t *testing.T) {
	for _, k := range []storetest.Kind{storetest.Bolt, storetest.Postgres} {
		t.Run(k.Name, func(t *testing.T) { storetest.Run(t, k) })
	}
}
