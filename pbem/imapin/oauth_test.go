package imapin_test

import (
	"context"
	"errors"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"orrery/pbem/imapin"
	"orrery/pbem/pbemtest"
)

// Both bearer mechanisms log in to a server that takes tokens, and a
// refused token stops the first login with ErrLogin and tells Refused, so
// that a token source drops it.
func TestOAuthLogin(t *testing.T) {
	for _, l := range pbemtest.OAuthLogins() {
		t.Run(l.Name, func(t *testing.T) {
			srv := pbemtest.StartT(t, pbemtest.Options{OAuth: true, Users: map[string]string{bot: "pw"}})
			srv.AcceptTokens(pbemtest.GoodToken)
			srv.Append(bot, "INBOX", raw(1))
			var refused atomic.Int32
			r := imapin.New(imapin.Config{Addr: srv.IMAPAddr, TLS: "none", Auth: l.Mech,
				Credentials: func(context.Context) (string, string, error) { return bot, l.Token, nil },
				Refused:     func() { refused.Add(1) }})
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			handled := make(chan imapin.Message, 1)
			err := r.Run(ctx, func(_ context.Context, m imapin.Message) (imapin.Disposition, error) {
				handled <- m
				cancel()
				return imapin.Keep, nil
			})
			if l.OK {
				if err != nil || len(handled) != 1 || refused.Load() != 0 {
					t.Errorf("Run: %v, %d handled, refused %d times", err, len(handled), refused.Load())
				}
			} else if !errors.Is(err, imapin.ErrLogin) || refused.Load() != 1 || len(handled) != 0 {
				t.Errorf("Run: %v, %d handled, refused %d times; want ErrLogin, refused once", err, len(handled), refused.Load())
			}
			want := "IMAP " + l.Logged + " " + bot + " " + l.Token
			if !l.OK {
				want += " refused"
			}
			if logins := srv.Logins(); !slices.Contains(logins, want) {
				t.Errorf("server saw %q, want %q", logins, want)
			}
		})
	}
}
