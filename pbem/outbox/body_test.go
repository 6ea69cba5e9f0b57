package outbox_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/klauspost/compress/s2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"orrery/engine/store"
	"orrery/pbem/outbox"
)

// testMail reads a mail the daemon queued (testdata: an Earthman's Burden
// turn report of 20 kB, a Prosper one of 63 kB with its board in HTML,
// and a short reply), as the queue's JSON holds it.
func testMail(t testing.TB, name string) outbox.Mail {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	require.NoError(t, err)
	var m outbox.Mail
	require.NoError(t, json.Unmarshal(data, &m))
	return m
}

// A report is stored compressed, several times smaller than its JSON, and
// comes out of the queue as it went in; a mail of a few hundred bytes
// stays JSON, where a frame's header would cost more than it saves. The
// dead letters are stored alike, and game log reads them.
func TestBodyStoredCompressed(t *testing.T) {
	for _, c := range []struct {
		file    string
		smaller float64 // times smaller at least; 0: stored as JSON
	}{
		{"report.json", 2},
		{"report-big.json", 3},
		{"reply.json", 1.5},
		{"", 0}, // mail(1): a subject and a line
	} {
		t.Run(c.file, func(t *testing.T) {
			st := openStore(t)
			m := mail(1)
			m.Game = "g1"
			if c.file != "" {
				m = testMail(t, c.file)
			}
			require.NoError(t, st.Update(context.Background(), func(tx store.Tx) error { return outbox.Enqueue(tx, m) }))
			bodies := records(t, st, outbox.BucketQueue)
			require.Len(t, bodies, 1)
			var raw string
			for _, v := range bodies {
				raw = v
			}
			asJSON, err := json.Marshal(outbox.Item{Mail: m})
			require.NoError(t, err)
			assert.Equal(t, c.smaller > 0, strings.HasPrefix(raw, "\xffB2"), "compressed")
			if c.smaller > 0 {
				assert.Less(t, float64(len(raw))*c.smaller, float64(len(asJSON)), "compressed %.1f times at least (%d of %d bytes)", c.smaller, len(raw), len(asJSON))
			} else {
				assert.True(t, json.Valid([]byte(raw)), "stored as JSON: %q", raw)
			}
			items, err := outbox.Pending(st)
			require.NoError(t, err)
			require.Len(t, items, 1)
			got := items[0].Mail
			assert.Equal(t, m.Text, got.Text)
			assert.Equal(t, m.HTML, got.HTML)
			assert.Equal(t, m.Files, got.Files)
			assert.Equal(t, m.Picture, got.Picture)
			assert.Equal(t, m.To, got.To)
			assert.Equal(t, m.Subject, got.Subject)

			// Given up on: the dead letter keeps the whole mail.
			now := time.Now().Add(time.Minute)
			q := outbox.New(st, fakeSender{&outbox.Permanent{Err: os.ErrPermission}}, outbox.Options{Now: func() time.Time { return now }})
			_, err = q.RunOnce(context.Background())
			require.NoError(t, err)
			dead := records(t, st, outbox.BucketDead)
			require.Len(t, dead, 1)
			for _, v := range dead {
				var it outbox.Item
				require.NoError(t, outbox.DecodeBody([]byte(v), &it))
				assert.Equal(t, m.HTML, it.Mail.HTML)
				assert.Equal(t, m.Files, it.Mail.Files)
				assert.Equal(t, 1, it.Attempts)
			}
			log, err := outboxLog(st, m.Game)
			require.NoError(t, err)
			require.Len(t, log, 1, "game log reads the dead letter")
			assert.Equal(t, "gave up", log[0].State)
		})
	}
}

// outboxLog is game log's view of the mails of a game.
func outboxLog(st *store.Store, game string) (evs []outbox.Event, err error) {
	err = st.View(context.Background(), func(tx store.Tx) error {
		evs, err = outbox.OfGame(tx, game)
		return err
	})
	return evs, err
}

// A body that claims to be compressed but is not whole holds up no other
// mail: the claim sends the rest, keeps the damaged body as it is, names
// it in the log and in its state's last error, and tries it again only
// after the longest backoff.
func TestCorruptBodyHoldsUpNothing(t *testing.T) {
	st := openStore(t)
	require.NoError(t, st.Update(context.Background(), func(tx store.Tx) error {
		if err := outbox.Enqueue(tx, testMail(t, "report.json")); err != nil {
			return err
		}
		return outbox.Enqueue(tx, testMail(t, "reply.json"))
	}))
	var damaged string
	require.NoError(t, st.Update(context.Background(), func(tx store.Tx) error {
		b := tx.Bucket(store.BucketMail).Bucket(outbox.BucketQueue)
		k, v := b.Cursor().First()
		damaged = string(v[:len(v)/2])
		return b.Put(store.Copy(k), []byte(damaged))
	}))
	var logged strings.Builder
	now := time.Now()
	s := &countSender{}
	q := outbox.New(st, s, outbox.Options{Now: func() time.Time { return now }, Logger: slog.New(slog.NewTextHandler(&logged, nil))})
	_, err := q.RunOnce(context.Background())
	require.NoError(t, err)
	require.Len(t, s.sent, 1, "the mail behind the damaged one is sent")
	assert.Equal(t, testMail(t, "reply.json").Subject, s.sent[0].Subject)
	assert.Contains(t, logged.String(), "cannot be read")
	assert.Contains(t, logged.String(), "seq=1")
	assert.Equal(t, map[uint64]string{1: damaged}, records(t, st, outbox.BucketQueue), "the damaged body is kept as it was")
	states := records(t, st, outbox.BucketState)
	require.Contains(t, states, uint64(1))
	assert.Contains(t, states[1], "decompressing the stored mail")
	assert.NotContains(t, states[1], `"owner"`, "not left claimed")

	// Not tried again before the longest backoff (an hour by default).
	now = now.Add(50 * time.Minute)
	_, err = q.RunOnce(context.Background())
	require.NoError(t, err)
	assert.Len(t, s.sent, 1)
	assert.Equal(t, 1, strings.Count(logged.String(), "cannot be read"))
	now = now.Add(20 * time.Minute)
	_, err = q.RunOnce(context.Background())
	require.NoError(t, err)
	assert.Equal(t, 2, strings.Count(logged.String(), "cannot be read"))
}

// BenchmarkBody encodes and decodes the queued bodies of testdata's
// mails as the queue stores them, and reports how much smaller they are;
// "json" is the encoding without the compression, for comparison.
func BenchmarkBody(b *testing.B) {
	for _, name := range []string{"report.json", "report-big.json", "reply.json"} {
		m := testMail(b, name)
		it := outbox.Item{Seq: 1, Mail: m, Queued: time.Now(), NextAttempt: time.Now()}
		asJSON, _ := json.Marshal(it)
		b.Run(name, func(b *testing.B) {
			b.Run("json", func(b *testing.B) {
				b.SetBytes(int64(len(asJSON)))
				for b.Loop() {
					if _, err := json.Marshal(it); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run("encode", func(b *testing.B) {
				var n int
				for b.Loop() {
					v, err := outbox.EncodeBody(it)
					if err != nil {
						b.Fatal(err)
					}
					n = len(v)
				}
				b.SetBytes(int64(len(asJSON)))
				b.ReportMetric(float64(len(asJSON))/float64(n), "x-smaller")
			})
			b.Run("decode", func(b *testing.B) {
				v, _ := outbox.EncodeBody(it)
				b.SetBytes(int64(len(asJSON)))
				for b.Loop() {
					var got outbox.Item
					if err := outbox.DecodeBody(v, &got); err != nil {
						b.Fatal(err)
					}
				}
			})
		})
	}
}

// The queue decodes its bodies with JSON v2; they are written by
// encoding/json, and must come back as encoding/json reads them: every
// field of a mail, odd text included (HTML's <>&, Cyrillic, invalid UTF-8,
// which encoding/json writes as U+FFFD), a body of an older Orrery (plain
// JSON) and a compressed one alike.
func TestBodyDecodedAsEncodingJSONDoes(t *testing.T) {
	full := mail(7)
	full.HTML = "<p>Ход 3 &amp; <b>\"bold\"</b></p>\u2028"
	full.Text = "invalid \xff\xfe UTF-8, a tab\t and a NUL \x00"
	full.InReplyTo, full.References = "a@b", []string{"x@y", "z@w"}
	full.Headers = map[string]string{"X-Orrery-Game": "g1"}
	full.Kind, full.Game = "report", "g1"
	full.Files = []outbox.File{{Name: "report.json", ContentType: "application/json", Data: []byte{0, 1, 2, 0xff}}}
	full.Picture = &outbox.Picture{Game: "g1", Epoch: 1, Step: 3, Player: "bob", ContentID: "board@x", Name: "board.png", Lang: "ru"}
	full.Received = time.Date(2026, 3, 1, 12, 0, 0, 123456789, time.FixedZone("X", 3600))
	mails := map[string]outbox.Mail{"full": full, "bare": {To: []string{"a@b"}, From: "c@d"}}
	for _, name := range []string{"report.json", "report-big.json", "reply.json"} {
		mails[name] = testMail(t, name)
	}
	for name, m := range mails {
		t.Run(name, func(t *testing.T) {
			it := outbox.Item{Seq: 9, Mail: m, Queued: time.Now(), Attempts: 2, NextAttempt: time.Now().Add(time.Hour), LastError: "451", Owner: "w1"}
			plain, err := json.Marshal(it)
			require.NoError(t, err)
			var want outbox.Item
			require.NoError(t, json.Unmarshal(plain, &want))
			body, err := outbox.EncodeBody(it)
			require.NoError(t, err)
			older := append([]byte("\xffS2"), s2.Encode(nil, plain)...)
			for kind, v := range map[string][]byte{"as queued": body, "older Orrery's JSON": plain, "older Orrery's compressed JSON": older} {
				var got outbox.Item
				require.NoError(t, outbox.DecodeBody(v, &got), kind)
				assert.Equal(t, want, got, kind)
			}
		})
	}
}
