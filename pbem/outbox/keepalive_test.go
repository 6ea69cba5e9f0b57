package outbox_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"orrery/pbem/outbox"
	"orrery/pbem/pbemtest"
)

// waitOpen waits until the sink has n connections open.
func waitOpen(t *testing.T, srv *pbemtest.Server, n int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		_, open := srv.SMTPConnections()
		if open == n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d SMTP connections open, want %d", open, n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Batches one after the other go over one connection; a kept connection
// the server closed meanwhile is replaced without failing a mail; one
// whose last mail failed for now is not kept; an idle one is closed after
// KeepAlive; with a negative KeepAlive each batch has its own.
func TestSMTPKeepsItsConnection(t *testing.T) {
	ctx := context.Background()
	srv := pbemtest.StartT(t, pbemtest.Options{})
	s := &outbox.SMTP{Addr: srv.SMTPAddr, TLS: "none", KeepAlive: time.Minute}
	defer s.CloseIdle()
	send := func(n int) {
		t.Helper()
		var batch []outbox.Mail
		for i := range n {
			m := mail(i)
			m.From = "bot@pbem.test"
			batch = append(batch, m)
		}
		for i, err := range s.Send(ctx, batch) {
			require.NoError(t, err, "mail %d", i)
		}
	}
	for _, n := range []int{2, 1, 3, 1} {
		send(n)
	}
	opened, open := srv.SMTPConnections()
	assert.Equal(t, 1, opened, "four batches, one connection")
	assert.Equal(t, 1, open, "kept for the next batch")
	assert.Len(t, srv.Sent(), 7)

	// The server goes away and comes back: the kept connection is dead,
	// found so by RSET, and the batch goes over a new one.
	srv.StopSMTP()
	require.NoError(t, srv.StartSMTP())
	send(2)
	opened, _ = srv.SMTPConnections()
	assert.Equal(t, 2, opened)
	assert.Len(t, srv.Sent(), 9)

	// A batch whose last mail failed for now leaves no connection kept.
	srv.FailSMTP(errors.New("try later"))
	errs := s.Send(ctx, []outbox.Mail{mail(1)})
	require.Error(t, errs[0])
	srv.FailSMTP(nil)
	waitOpen(t, srv, 0)
	send(1)
	opened, _ = srv.SMTPConnections()
	assert.Equal(t, 3, opened, "a new connection after the failure")

	// Idle for KeepAlive: closed.
	s.CloseIdle()
	waitOpen(t, srv, 0)
	s.KeepAlive = 50 * time.Millisecond
	send(1)
	waitOpen(t, srv, 0)

	// Negative: one connection a batch, closed after it.
	s.KeepAlive = -1
	before, _ := srv.SMTPConnections()
	send(1)
	send(1)
	after, _ := srv.SMTPConnections()
	assert.Equal(t, before+2, after)
	waitOpen(t, srv, 0)
}
