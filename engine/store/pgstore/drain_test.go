package pgstore_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"orrery/engine/store"
	"orrery/engine/store/pgstore"
)

// Deleting many keys costs the server no more statements than deleting
// one: a transaction's deletes go as one statement a bucket (the outbox's
// settlement deletes a hundred queued mails of one bucket), and every key
// is gone after it, the others kept. A Delete of a key that names a
// nested bucket among them still fails the transaction whole.
func TestDeletesOneStatementABucket(t *testing.T) {
	ctx := context.Background()
	s, _ := openSchema(t)
	fill := func(n int) {
		t.Helper()
		if err := s.Update(ctx, func(tx store.Tx) error {
			mail := tx.Bucket(store.BucketMail)
			for _, name := range []string{"q", "r"} {
				b, err := mail.CreateBucketIfNotExists([]byte(name))
				if err != nil {
					return err
				}
				for i := range n {
					if err := b.Put(store.Key(uint64(i+1)), []byte(strings.Repeat("x", 100))); err != nil {
						return err
					}
				}
				if err := b.Put([]byte("keep"), []byte("kept")); err != nil {
					return err
				}
			}
			_, err := mail.Bucket([]byte("q")).CreateBucketIfNotExists([]byte("sub"))
			return err
		}); err != nil {
			t.Fatal(err)
		}
	}
	// del deletes keys 1..n of q and r (and, with sub, q's nested
	// bucket's name) in one transaction that knows none of them, and
	// returns the statements the server ran for it.
	del := func(n int, sub bool) (int64, error) {
		before := pgstore.Statements(s)
		err := s.Update(ctx, func(tx store.Tx) error {
			mail := tx.Bucket(store.BucketMail)
			for _, name := range []string{"q", "r"} {
				b := mail.Bucket([]byte(name))
				for i := range n {
					if err := b.Delete(store.Key(uint64(i + 1))); err != nil {
						return err
					}
				}
			}
			if sub {
				return mail.Bucket([]byte("q")).Delete([]byte("sub"))
			}
			return nil
		})
		return pgstore.Statements(s) - before, err
	}
	count := func(name string) int {
		t.Helper()
		n := 0
		if err := s.View(ctx, func(tx store.Tx) error {
			return tx.Bucket(store.BucketMail).Bucket([]byte(name)).ForEach(func(k, v []byte) error {
				n++
				return nil
			})
		}); err != nil {
			t.Fatal(err)
		}
		return n
	}

	fill(100)
	if _, err := del(1, false); err != nil { // the buckets' ids now cached
		t.Fatal(err)
	}
	fill(100)
	one, err := del(1, false)
	if err != nil {
		t.Fatal(err)
	}
	fill(100)
	many, err := del(100, false)
	if err != nil {
		t.Fatal(err)
	}
	if many != one {
		t.Errorf("deleting 100 keys of each of two buckets ran %d statements, deleting one of each %d: want as many", many, one)
	}
	if got := count("q"); got != 2 { // keep, sub
		t.Errorf("q holds %d keys after the deletes, want 2 (keep and the nested bucket)", got)
	}
	if got := count("r"); got != 1 {
		t.Errorf("r holds %d keys after the deletes, want 1 (keep)", got)
	}

	fill(50)
	if _, err := del(50, true); !errors.Is(err, store.ErrIncompatibleValue) {
		t.Errorf("deleting 50 keys and a nested bucket's name gave %v, want ErrIncompatibleValue", err)
	}
	if got := count("q"); got != 52 {
		t.Errorf("q holds %d keys after the refused deletes, want 52: nothing of the transaction commits", got)
	}
}

// Large values (a queued mail's 33 kB of JSON) are compressed with lz4
// where the server has it (migration 0002), and read back as written.
func TestLargeValuesCompressedWithLZ4(t *testing.T) {
	ctx := context.Background()
	s, dsn := openSchema(t)
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "CREATE TEMPORARY TABLE lz4_here (v bytea COMPRESSION lz4)"); err != nil {
		t.Skipf("the server has no lz4 (%v): values keep pglz", err)
	}
	v := queuedMail(1)
	if err := s.Update(ctx, func(tx store.Tx) error {
		return tx.Bucket(store.BucketMail).Put([]byte("big"), v)
	}); err != nil {
		t.Fatal(err)
	}
	var method *string
	var stored int
	if err := conn.QueryRow(ctx, `SELECT pg_column_compression(value), pg_column_size(value) FROM orrery_kv WHERE key = 'big'`).Scan(&method, &stored); err != nil {
		t.Fatal(err)
	}
	if method == nil || *method != "lz4" {
		got := "none"
		if method != nil {
			got = *method
		}
		t.Errorf("the value is stored with compression %s, want lz4", got)
	}
	if stored >= len(v)/2 {
		t.Errorf("the value of %d bytes takes %d stored: not compressed", len(v), stored)
	}
	if err := s.View(ctx, func(tx store.Tx) error {
		if got := tx.Bucket(store.BucketMail).Get([]byte("big")); string(got) != string(v) {
			t.Errorf("the value reads back as %d bytes, not as written (%d)", len(got), len(v))
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}

// queuedMail is a value like a queued outbox mail: about 33 kB of JSON
// holding a report's text, its HTML and report.json in base64.
func queuedMail(i int) []byte {
	var text, html, js strings.Builder
	for row := range 60 {
		fmt.Fprintf(&text, "%3d | %s | fleet %d of seat %d holds %d ships at %d,%d\n", row, strings.Repeat(". * ", 8), row*7%13, i%5, row*31%97, row%11, row%17)
		fmt.Fprintf(&html, "<tr><td class=\"n\">%d</td><td>%s</td><td>fleet %d holds %d ships</td></tr>\n", row, strings.Repeat("&middot; ", 6), row*7%13, row*31%97)
		fmt.Fprintf(&js, `{"row":%d,"fleet":%d,"ships":%d,"x":%d,"y":%d,"seat":%d},`, row, row*7%13, row*31%97, row%11, row%17, i%5)
	}
	b, _ := json.Marshal(map[string]any{
		"Seq": i, "Attempts": 0,
		"Mail": map[string]any{
			"To": []string{fmt.Sprintf("seat%d@players.example.org", i%5)}, "Subject": fmt.Sprintf("Turn %d report", i),
			"Text": text.String(), "HTML": html.String(),
			"Attachments": []map[string]any{{"Name": "report.json", "Data": base64.StdEncoding.EncodeToString([]byte("[" + js.String() + "{}]"))}},
		},
	})
	return b
}

// BenchmarkOutboxCycle puts six queued mails as an order mail's turn
// does (one transaction), rewrites them as the outbox's claim does (one),
// and deletes them, recording each as sent, as its settlement does (one):
// the store's share of a backlog's drain a mail, on the server. Run with
// each compression of orrery_kv.value, to compare:
//
//	eval "$(scripts/pgstack.sh env)"; go test -run '^$' -bench OutboxCycle -benchtime 200x ./engine/store/pgstore/
func BenchmarkOutboxCycle(b *testing.B) {
	for _, method := range []string{"pglz", "lz4"} {
		b.Run(method, func(b *testing.B) {
			ctx := context.Background()
			s, dsn := openSchemaTB(b)
			conn, err := pgx.Connect(ctx, dsn)
			if err != nil {
				b.Fatal(err)
			}
			defer conn.Close(ctx)
			if _, err := conn.Exec(ctx, "ALTER TABLE orrery_kv ALTER COLUMN value SET COMPRESSION "+method); err != nil {
				b.Skipf("no %s here: %v", method, err)
			}
			if err := s.Update(ctx, func(tx store.Tx) error {
				mail := tx.Bucket(store.BucketMail)
				for _, name := range []string{"outbox", "sent"} {
					if _, err := mail.CreateBucketIfNotExists([]byte(name)); err != nil {
						return err
					}
				}
				return nil
			}); err != nil {
				b.Fatal(err)
			}
			const mails = 6
			vals := make([][]byte, 16)
			for i := range vals {
				vals[i] = queuedMail(i)
			}
			claimed := make([][]byte, len(vals))
			for i, v := range vals {
				claimed[i] = append([]byte(strings.Replace(string(v), `"Attempts":0`, `"Attempts":1`, 1)), ' ')
			}
			trips0, stmts0 := s.Stats().RoundTrips, pgstore.Statements(s)
			b.ResetTimer()
			for i := range b.N {
				keys := make([][]byte, mails)
				if err := s.Update(ctx, func(tx store.Tx) error {
					out := tx.Bucket(store.BucketMail).Bucket([]byte("outbox"))
					for j := range keys {
						n, err := out.NextSequence()
						if err != nil {
							return err
						}
						keys[j] = store.Key(n)
						if err := out.Put(keys[j], vals[(i*mails+j)%len(vals)]); err != nil {
							return err
						}
					}
					return nil
				}); err != nil {
					b.Fatal(err)
				}
				if err := s.Update(ctx, func(tx store.Tx) error {
					out := tx.Bucket(store.BucketMail).Bucket([]byte("outbox"))
					for j, k := range keys {
						if out.Get(k) == nil {
							return errors.New("a queued mail is gone")
						}
						if err := out.Put(k, claimed[(i*mails+j)%len(vals)]); err != nil {
							return err
						}
					}
					return nil
				}); err != nil {
					b.Fatal(err)
				}
				if err := s.Update(ctx, func(tx store.Tx) error {
					mail := tx.Bucket(store.BucketMail)
					out, sent := mail.Bucket([]byte("outbox")), mail.Bucket([]byte("sent"))
					for _, k := range keys {
						if err := sent.Put(k, []byte(`{"sent":true}`)); err != nil {
							return err
						}
						if err := out.Delete(k); err != nil {
							return err
						}
					}
					return nil
				}); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			b.ReportMetric(float64(s.Stats().RoundTrips-trips0)/float64(b.N), "roundtrips/op")
			b.ReportMetric(float64(pgstore.Statements(s)-stmts0)/float64(b.N), "statements/op")
		})
	}
}
