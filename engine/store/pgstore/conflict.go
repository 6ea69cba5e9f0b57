package pgstore

import (
	"context"
	"log/slog"
	"maps"
	"strings"
	"sync"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"orrery/engine/store"
)

// Conflicts. Several processes on one database refuse each other's
// transactions (40001, 40P01) where they touch the same rows or the same
// index pages; each refusal costs a try of the work (store.Stats counts
// the retries). To find which records two daemons fight over, every
// refusal is logged at debug level with the statement the server refused
// (a write, a read, or COMMIT: then the refusal fell on the transaction
// that committed last) and the buckets it touched, and counted by that
// label (Conflicts).

// failKey carries, in the context of a batch, where the tracer writes the
// statement the server refused.
type failKey struct{}

// refused is the first statement of a batch the server refused.
type refused struct {
	sql  string
	args []any
}

// TraceBatchQuery counts a statement of a batch, and notes the first
// one that failed.
func (c *tripCounter) TraceBatchQuery(ctx context.Context, _ *pgx.Conn, d pgx.TraceBatchQueryData) {
	c.stmts.Add(1)
	if d.Err == nil {
		return
	}
	if f, ok := ctx.Value(failKey{}).(*refused); ok && f.sql == "" {
		f.sql, f.args = d.SQL, d.Args
	}
}

// conflicts counts the refusals by label.
type conflicts struct {
	sync.Mutex
	m map[string]int64
}

// maxConflicts bounds the labels counted; later ones count as "other".
const maxConflicts = 256

func (c *conflicts) add(label string) {
	c.Lock()
	defer c.Unlock()
	if c.m == nil {
		c.m = map[string]int64{}
	}
	if _, ok := c.m[label]; !ok && len(c.m) >= maxConflicts {
		label = "other"
	}
	c.m[label]++
}

// Conflicts returns how many transactions the server refused as not
// serialisable (or deadlocked) since s was opened, by what was refused
// ("rw at commit", "ww at sequence of mail/outbox"…); nil for a store
// that is not PostgreSQL's. For measurements: store.Stats has the total.
func Conflicts(s *store.Store) map[string]int64 {
	b, ok := s.Backend().(*backend)
	if !ok {
		return nil
	}
	b.conflicts.Lock()
	defer b.conflicts.Unlock()
	return maps.Clone(b.conflicts.m)
}

// conflict counts and logs a refusal pe of the statement f.
func (t *pgTx) conflict(pe *pgconn.PgError, f *refused) {
	kind := "deadlock"
	switch {
	case pe.Code != "40001":
	case strings.Contains(pe.Message, "read/write dependencies"):
		kind = "rw"
	case strings.Contains(pe.Message, "concurrent update"), strings.Contains(pe.Message, "concurrent delete"):
		kind = "ww"
	default:
		kind = "serialization"
	}
	stmt, buckets := statementOf(f.sql), t.bucketsOf(f.args)
	label := kind + " at " + stmt
	if len(buckets) > 0 {
		label += " of " + strings.Join(buckets, ",")
	}
	t.be.conflicts.add(label)
	t.be.log.Debug("postgres: transaction refused, to be run again", "conflict", label,
		"reason", strings.TrimPrefix(pe.Detail, "Reason code: "), "code", pe.Code)
}

// statementOf names a statement of tx.go and claim.go.
func statementOf(sql string) string {
	sql = strings.Join(strings.Fields(sql), " ")
	for _, s := range []struct{ prefix, name string }{
		{"COMMIT", "commit"},
		{"INSERT INTO orrery_kv", "put"},
		{"WITH f AS (SELECT u.key, k.ctid", "delete"},
		{"SELECT u.key, k.value", "get many"},
		{"UPDATE orrery_bucket SET seq = $2", "sequence"},
		{"UPDATE orrery_bucket SET seq = seq + 1", "next sequence"},
		{"SELECT 1 / (NOT EXISTS", "bucket id check"},
		{"WITH c AS ( SELECT id FROM orrery_bucket", "claim"},
		{"WITH n AS ( INSERT INTO orrery_bucket", "create bucket"},
		{"DELETE FROM orrery_bucket", "delete bucket"},
		{"DELETE FROM orrery_kv WHERE bucket IN", "delete bucket's keys"},
		{"SELECT value, child", "get"},
		{"SELECT key, value", "cursor"},
		{"SELECT count(*)", "key count"},
		{"SELECT seq", "sequence read"},
		{"", "lookup"},
	} {
		if strings.HasPrefix(sql, s.prefix) {
			if sql == "" {
				return "an unknown statement"
			}
			return s.name
		}
	}
	return "lookup"
}

// bucketsOf names the buckets a statement's first argument holds (a
// bucket id, or an array of them), as far as the transaction knows them.
func (t *pgTx) bucketsOf(args []any) []string {
	if len(args) == 0 {
		return nil
	}
	var ids []int64
	switch a := args[0].(type) {
	case int64:
		ids = []int64{a}
	case []int64:
		ids = a
	}
	var out []string
	seen := map[int64]bool{}
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			out = append(out, t.bucketName(id))
		}
	}
	return out
}

// bucketName is the path of bucket id (mail/outbox), from what the
// transaction looked up; a game's buckets are named by their place in
// it (games/*/log), not by the game, and the buckets of one kind under
// mail alike (mail/inbox-queue/*), so that the labels stay few.
func (t *pgTx) bucketName(id int64) string {
	if id == 0 {
		return "the root"
	}
	var path []string
	for depth := 0; id != 0 && depth < 8; depth++ {
		found := false
		for k, v := range t.names {
			if v == id {
				name := k.name
				if k.parent == t.gamesID && t.gamesID != 0 {
					name = "*"
				}
				path = append([]string{name}, path...)
				id, found = k.parent, true
				break
			}
		}
		if !found {
			path = append([]string{"?"}, path...)
			break
		}
	}
	// One label for every bucket of a kind (a sender's queue, a
	// player's digest): mail/inbox-queue/*.
	if len(path) > 2 && path[0] == string(store.BucketMail) {
		path[2] = "*"
	}
	return strings.Join(path, "/")
}

// discard is the logger of a store opened without one.
var discard = slog.New(slog.DiscardHandler)
