package outbox_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"orrery/pbem/outbox"
	"orrery/pbem/pbemtest"
)

// Both bearer mechanisms send through a server that takes tokens; a
// refused token fails the batch with a temporary error (the outbox tries
// again) and tells Refused, so that a token source drops it.
func TestSMTPOAuth(t *testing.T) {
	for _, l := range pbemtest.OAuthLogins() {
		t.Run(l.Name, func(t *testing.T) {
			srv := pbemtest.StartT(t, pbemtest.Options{OAuth: true, NoDeliver: true})
			srv.AcceptTokens(pbemtest.GoodToken)
			var refused atomic.Int32
			s := &outbox.SMTP{Addr: srv.SMTPAddr, TLS: "none", Auth: l.Mech, Timeout: 2 * time.Second,
				Credentials: func(context.Context) (string, string, error) { return "bot@pbem.test", l.Token, nil },
				Refused:     func() { refused.Add(1) }}
			m := mail(1)
			m.MessageID, m.Date = "m1@pbem.test", time.Now()
			err := s.Send(context.Background(), []outbox.Mail{m})[0]
			sent := srv.Sent()
			wantLogin := l.Logged + " bot@pbem.test " + pbemtest.GoodToken
			if l.OK {
				if err != nil || len(sent) != 1 || sent[0].Login != wantLogin || refused.Load() != 0 {
					t.Errorf("send: %v; sink %+v; refused %d times", err, sent, refused.Load())
				}
				return
			}
			var perm *outbox.Permanent
			if err == nil || len(sent) != 0 || refused.Load() != 1 {
				t.Errorf("send with a refused token: %v; %d sent; refused %d times", err, len(sent), refused.Load())
			}
			if errors.As(err, &perm) {
				t.Errorf("a refused login must be retried, not given up: %v", err)
			}
		})
	}
}
