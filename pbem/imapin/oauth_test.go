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
	for _, mech := range []string{"xoauth2", "oauthbearer"} {
		for _, tc := range []struct {
			name, token string
			ok          bool
		}{{"good token", "tok1", true}, {"refused token", "stale", false}} {
			t.Run(mech+"/"+tc.name, func(t *testing.T) {
				srv := pbemtest.StartT(t, pbemtest.Options{OAuth: true, Users: map[string]string{bot: "pw"}})
				srv.AcceptTokens("tok1")
				srv.Append(bot, "INBOX", raw(1))
				var refused atomic.Int32
				r := imapin.New(imapin.Config{Addr: srv.IMAPAddr, TLS: "none", Auth: mech,
					Credentials: func(context.Context) (string, string, error) { return bot, tc.token, nil },
					Refused:     func() { refused.Add(1) }})
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				defer cancel()
				handled := make(chan imapin.Message, 1)
				err := r.Run(ctx, func(_ context.Context, m imapin.Message) (imapin.Disposition, error) {
					handled <- m
					cancel()
					return imapin.Keep, nil
				})
				if tc.ok {
					if err != nil || len(handled) != 1 || refused.Load() != 0 {
						t.Errorf("Run: %v, %d handled, refused %d times", err, len(handled), refused.Load())
					}
				} else if !errors.Is(err, imapin.ErrLogin) || refused.Load() != 1 || len(handled) != 0 {
					t.Errorf("Run: %v, %d handled, refused %d times; want ErrLogin, refused once", err, len(handled), refused.Load())
				}
				want := "IMAP " + map[string]string{"xoauth2": "XOAUTH2", "oauthbearer": "OAUTHBEARER"}[mech] + " " + bot + " " + tc.token
				if !tc.ok {
					want += " refused"
				}
				if logins := srv.Logins(); !slices.Contains(logins, want) {
					t.Errorf("server saw %q, want %q", logins, want)
				}
			})
		}
	}
}
