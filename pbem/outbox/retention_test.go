package outbox_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"orrery/engine/store"
	"orrery/pbem/outbox"
)

func eventLines(t *testing.T, st *store.Store, game string) string {
	t.Helper()
	var got []outbox.Event
	err := st.View(context.Background(), func(tx store.Tx) error {
		var err error
		got, err = outbox.OfGame(tx, game)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, e := range got {
		lines = append(lines, fmt.Sprintf("%s %s %s %s %s %d %s", e.Time.Format("01-02 15:04"), e.State, e.Kind, e.To[0], e.Subject, e.Attempts, e.Error))
	}
	return strings.Join(lines, "\n")
}

// Records older than the retention are compacted: a game's mails still
// show in its log, the same as before, while mails about no game are
// forgotten and every body is gone; younger records stay whole. On a
// database from before the game index, Compact builds it first, and the
// indexed OfGame answers as the scan did.
func TestCompactKeepsWhatGameLogShows(t *testing.T) {
	st := openStore(t)
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	clock := outbox.Options{Now: func() time.Time { return now }}
	send := func(s outbox.Sender, m outbox.Mail) {
		q := outbox.New(st, s, clock)
		enqueue(t, st, q, m)
		if _, err := q.RunOnce(context.Background()); err != nil {
			t.Fatal(err)
		}
		now = now.Add(24 * time.Hour)
	}
	of := func(i int, game string) outbox.Mail {
		m := mail(i)
		m.Game, m.Kind = game, fmt.Sprintf("k%d", i)
		return m
	}
	send(fakeSender{nil}, of(1, "g1"))
	send(fakeSender{nil}, of(2, ""))
	send(fakeSender{&outbox.Permanent{Err: errors.New("550 no such user")}}, of(3, "g1"))
	send(fakeSender{nil}, of(4, "g2"))
	now = now.Add(100 * 24 * time.Hour)
	send(fakeSender{nil}, of(5, "g1")) // young: kept whole
	send(fakeSender{errors.New("421 try later")}, of(6, "g1"))
	scanned := eventLines(t, st, "g1") // no index yet: every record read

	// The first Compact on this database builds the index.
	res, err := outbox.Compact(st, now, 90*24*time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if want := (outbox.CompactStats{Indexed: 5, Compacted: 3, Forgotten: 1}); res != want {
		t.Errorf("Compact did %+v, want %+v", res, want)
	}
	if got := eventLines(t, st, "g1"); got != scanned {
		t.Errorf("g1's mails after compaction:\n%s\nbefore:\n%s", got, scanned)
	}
	if !strings.Contains(scanned, "gave up k3") || !strings.Contains(scanned, "queued k6") {
		t.Errorf("g1's mails miss some states:\n%s", scanned)
	}
	if c, _ := outbox.Count(st); c != (outbox.Stats{Queued: 1, Sent: 1, Dead: 0}) {
		t.Errorf("after compaction the outbox holds %+v, want only the young sent mail and the queued one", c)
	}
	if res, _ := outbox.Compact(st, now, 90*24*time.Hour); res != (outbox.CompactStats{}) {
		t.Errorf("a second Compact did %+v", res)
	}
	// New mail goes straight into the index.
	send(fakeSender{nil}, of(7, "g2"))
	if got := eventLines(t, st, "g2"); !strings.Contains(got, "sent k4") || !strings.Contains(got, "sent k7") {
		t.Errorf("g2's mails:\n%s", got)
	}
}
