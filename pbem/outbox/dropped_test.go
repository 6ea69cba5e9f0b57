package outbox_test

import (
	"context"
	"testing"
	"time"

	"orrery/pbem/outbox"
	"orrery/pbem/pbemtest"
)

// TestOneBadRecipientHoldsUpNoOne: a recipient at whose mail the SMTP
// server drops the connection does not hold back the mails queued behind
// it: they go in the same run, and only the bad one waits for its backoff
// (with its attempt and error recorded), to go once the server takes it.
func TestOneBadRecipientHoldsUpNoOne(t *testing.T) {
	srv := pbemtest.StartT(t, pbemtest.Options{NoDeliver: true})
	st := openStore(t)
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	q := outbox.New(st, sender(srv), outbox.Options{Now: func() time.Time { return now }, MinBackoff: time.Minute})
	bad := mail(2).To[0]
	srv.DropConnectionOn(bad, true)
	for i := range 6 {
		enqueue(t, st, q, mail(i))
	}
	next, err := q.RunOnce(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for _, m := range srv.Sent() {
		got[m.To[0]]++
	}
	for i := range 6 {
		to, want := mail(i).To[0], 1
		if to == bad {
			want = 0
		}
		if got[to] != want {
			t.Errorf("%s got %d mails in the first run, want %d (all sent: %v)", to, got[to], want, got)
		}
	}
	items, err := outbox.Pending(st)
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != 1 || items[0].Mail.To[0] != bad || items[0].Attempts != 1 || items[0].LastError == "" {
		t.Fatalf("left in the queue: %+v, want only the mail to %s, tried once, with its error", items, bad)
	}
	if !next.After(now) || next.After(now.Add(2*time.Minute)) {
		t.Errorf("the bad mail is due again at %v, want its backoff (about a minute after %v)", next, now)
	}
	// Nothing more goes before its backoff; once the server takes it
	// and the time has come, it goes, once.
	srv.DropConnectionOn(bad, false)
	if _, err := q.RunOnce(context.Background()); err != nil || len(srv.Sent()) != 5 {
		t.Fatalf("before the backoff: %d mails sent, err %v", len(srv.Sent()), err)
	}
	now = next
	if _, err := q.RunOnce(context.Background()); err != nil {
		t.Fatal(err)
	}
	if s := srv.Sent(); len(s) != 6 || s[5].To[0] != bad {
		t.Errorf("after the backoff: %d mails sent, the last to %v", len(s), s[len(s)-1].To)
	}
}
