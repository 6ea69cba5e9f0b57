package store_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"orrery/engine/store/storetest"
)

// TestRetryable: PostgreSQL refusing a transaction for a conflict with
// concurrent ones (40001, 40P01) is Retryable, wrapped or not; other
// errors are not, and bbolt (one writer at a time) refuses nothing.
func TestRetryable(t *testing.T) {
	serialization := &pgconn.PgError{Code: "40001", Message: "could not serialize access due to read/write dependencies among transactions"}
	deadlock := &pgconn.PgError{Code: "40P01", Message: "deadlock detected"}
	unique := &pgconn.PgError{Code: "23505", Message: "duplicate key value violates unique constraint"}
	storetest.Each(t, func(t *testing.T, k storetest.Kind) {
		s := storetest.Open(t, k)
		onPG := !s.Locks()
		for _, c := range []struct {
			err  error
			want bool
		}{
			{nil, false},
			{errors.New("disk full"), false},
			{serialization, onPG},
			{fmt.Errorf("handle mail 7: %w", serialization), onPG},
			{fmt.Errorf("group: %w", fmt.Errorf("commit: %w", deadlock)), onPG},
			{unique, false},
		} {
			if got := s.Retryable(c.err); got != c.want {
				t.Errorf("Retryable(%v) = %v, want %v", c.err, got, c.want)
			}
		}
	})
}
