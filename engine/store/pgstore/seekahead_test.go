package pgstore_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"orrery/engine/store"
)

// A Seek whose first page SeekAhead read costs no round trip of its own
// and gives what it gives without; a write to the bucket since, or one
// waiting when SeekAhead is asked, sends the Seek to the server again, so
// that it sees the write.
func TestSeekAheadAnswersSeeks(t *testing.T) {
	ctx := context.Background()
	s, _ := openSchema(t)
	idx := []byte("ahead")
	if err := s.Update(ctx, func(tx store.Tx) error {
		b, err := tx.CreateBucket(idx)
		if err != nil {
			return err
		}
		for _, k := range []string{"ann\x00g1", "ann\x00g2", "bob\x00g3"} {
			if err := b.Put([]byte(k), nil); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	// walk is what eachID does: the keys under prefix, from a Seek.
	walk := func(b store.Bucket, prefix string) string {
		var out []string
		c := b.Cursor()
		for k, _ := c.Seek([]byte(prefix)); k != nil && strings.HasPrefix(string(k), prefix); k, _ = c.Next() {
			out = append(out, strings.TrimPrefix(string(k), prefix))
		}
		return strings.Join(out, ",")
	}
	trips := func() int64 { return s.Stats().RoundTrips }
	for _, tc := range []struct {
		name      string
		before    func(b store.Bucket) error // a write before SeekAhead
		after     func(b store.Bucket) error // a write between SeekAhead and the Seeks
		want      map[string]string
		wantTrips int64 // round trips of the three walks
	}{
		{name: "read ahead", want: map[string]string{"ann\x00": "g1,g2", "bob\x00": "g3", "cat\x00": ""}, wantTrips: 0},
		{name: "written since", after: func(b store.Bucket) error { return b.Put([]byte("cat\x00g4"), nil) },
			want: map[string]string{"ann\x00": "g1,g2", "bob\x00": "g3", "cat\x00": "g4"}, wantTrips: 3},
		{name: "a write waiting", before: func(b store.Bucket) error { return b.Delete([]byte("ann\x00g1")) },
			want: map[string]string{"ann\x00": "g2", "bob\x00": "g3", "cat\x00": ""}, wantTrips: 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := s.Update(ctx, func(tx store.Tx) error {
				b := tx.Bucket(idx)
				b.Get([]byte("x")) // begin, and confirm the bucket's id
				if tc.before != nil {
					if err := tc.before(b); err != nil {
						return err
					}
				}
				store.SeekAhead(b, [][]byte{[]byte("ann\x00"), []byte("bob\x00"), []byte("cat\x00"), []byte("ann\x00")})
				if tc.after != nil {
					if err := tc.after(b); err != nil {
						return err
					}
				}
				n := trips()
				got := map[string]string{}
				for p := range tc.want {
					got[p] = walk(b, p)
				}
				if d := trips() - n; d != tc.wantTrips {
					t.Errorf("the walks made %d round trips, want %d", d, tc.wantTrips)
				}
				if fmt.Sprint(got) != fmt.Sprint(tc.want) {
					t.Errorf("the walks gave %q, want %q", got, tc.want)
				}
				return errRollback
			})
			if err != errRollback {
				t.Fatal(err)
			}
		})
	}
}

// errRollback ends a test's transaction without committing it.
var errRollback = errors.New("rolled back by the test")
