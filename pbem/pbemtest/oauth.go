package pbemtest

import (
	"bytes"
	"errors"
	"strings"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapserver"
	"github.com/emersion/go-imap/v2/imapserver/imapmemserver"
	"github.com/emersion/go-sasl"
)

// mechXOAUTH2 is Google's and Microsoft's bearer-token mechanism, which
// go-sasl does not name.
const mechXOAuth2 = "XOAUTH2"

// OAuthLogin is one login a bearer-token test tries against a server
// with Options.OAuth: a mechanism as configs name it, and a token the
// server takes (GoodToken) or refuses.
type OAuthLogin struct {
	Name  string
	Mech  string // "xoauth2" or "oauthbearer"
	Token string
	OK    bool // the server takes Token
	// Logged is the mechanism as Server.Logins and Sent's Login write
	// it ("XOAUTH2", "OAUTHBEARER").
	Logged string
}

// GoodToken is the token OAuthLogins' accepted logins carry; a test calls
// AcceptTokens(GoodToken) on its server.
const GoodToken = "tok1"

// OAuthLogins are both mechanisms, each with an accepted and a refused
// token, what a client's bearer-token support is tested with; Name names
// a subtest ("xoauth2/good token").
func OAuthLogins() []OAuthLogin {
	var out []OAuthLogin
	for _, mech := range []string{"xoauth2", "oauthbearer"} {
		out = append(out, OAuthLogin{Name: mech + "/good token", Mech: mech, Token: GoodToken, OK: true, Logged: strings.ToUpper(mech)},
			OAuthLogin{Name: mech + "/refused token", Mech: mech, Token: "stale", Logged: strings.ToUpper(mech)})
	}
	return out
}

// AcceptTokens replaces the bearer tokens the servers accept (with
// Options.OAuth). A test makes a token expire, as a provider does, by
// leaving it out; connections already logged in stay so, as they do at
// Gmail until the server drops them (StopIMAP, StartIMAP).
func (s *Server) AcceptTokens(tokens ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tokens = map[string]bool{}
	for _, t := range tokens {
		s.tokens[t] = true
	}
}

// Logins lists every login the servers saw, in order: "IMAP XOAUTH2 bot
// tok1", "SMTP OAUTHBEARER bot tok2 refused", "IMAP LOGIN bot".
func (s *Server) Logins() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.logins...)
}

func (s *Server) logLogin(l string) {
	s.mu.Lock()
	s.logins = append(s.logins, l)
	s.mu.Unlock()
}

// tokenOK reports whether token is accepted for user, and logs the try.
func (s *Server) tokenOK(proto, mech, user, token string) bool {
	s.mu.Lock()
	ok := s.tokens[token]
	_, known := s.users[strings.ToLower(user)]
	if proto == "IMAP" && !known {
		ok = false
	}
	l := proto + " " + mech + " " + user + " " + token
	if !ok {
		l += " refused"
	}
	s.logins = append(s.logins, l)
	s.mu.Unlock()
	return ok
}

// oauthSession is an imapmemserver session that also logs in with bearer
// tokens (Options.OAuth).
type oauthSession struct {
	*imapmemserver.UserSession // nil until logged in
	s                          *Server
}

var (
	_ imapserver.SessionSASL      = (*oauthSession)(nil)
	_ imapserver.SessionIMAP4rev2 = (*oauthSession)(nil)
)

func (x *oauthSession) Login(username, password string) error {
	x.s.mu.Lock()
	u := x.s.users[strings.ToLower(username)]
	x.s.mu.Unlock()
	if u == nil {
		return imapserver.ErrAuthFailed
	}
	if err := u.Login(strings.ToLower(username), password); err != nil {
		return err
	}
	x.s.logLogin("IMAP LOGIN " + username)
	x.UserSession = imapmemserver.NewUserSession(u)
	return nil
}

func (x *oauthSession) AuthenticateMechanisms() []string {
	return []string{sasl.Plain, mechXOAuth2, sasl.OAuthBearer}
}

func (x *oauthSession) Authenticate(mech string) (sasl.Server, error) {
	refused := &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeAuthenticationFailed,
		Text: "Invalid credentials (Failure)"}
	ok := func(user, token string) error {
		if !x.s.tokenOK("IMAP", mech, user, token) {
			return refused
		}
		x.s.mu.Lock()
		u := x.s.users[strings.ToLower(user)]
		x.s.mu.Unlock()
		x.UserSession = imapmemserver.NewUserSession(u)
		return nil
	}
	switch mech {
	case sasl.Plain:
		return sasl.NewPlainServer(func(identity, username, password string) error {
			return x.Login(username, password)
		}), nil
	case mechXOAuth2:
		return &xoauth2Server{check: ok}, nil
	case sasl.OAuthBearer:
		return oauthBearerServer(ok), nil
	}
	return nil, &imap.Error{Type: imap.StatusResponseTypeNo, Text: "SASL mechanism not supported"}
}

// xoauth2Server is the server side of XOAUTH2: the initial response is
// "user=" {user} ^A "auth=Bearer " {token} ^A ^A. A refused token gets a
// JSON challenge, the client answers it with an empty line, and the
// exchange fails with check's error.
type xoauth2Server struct {
	check  func(user, token string) error
	failed error
}

func (x *xoauth2Server) Next(resp []byte) ([]byte, bool, error) {
	if x.failed != nil {
		return nil, true, x.failed
	}
	if resp == nil {
		return []byte{}, false, nil // ask for the initial response
	}
	var user, token string
	for _, f := range bytes.Split(resp, []byte{1}) {
		k, v, _ := strings.Cut(string(f), "=")
		switch k {
		case "user":
			user = v
		case "auth":
			if len(v) > 7 && strings.EqualFold(v[:7], "bearer ") {
				token = v[7:]
			}
		}
	}
	if user == "" || token == "" {
		return nil, true, errors.New("malformed XOAUTH2 response")
	}
	if err := x.check(user, token); err != nil {
		x.failed = err
		return []byte(`{"status":"401","schemes":"bearer","scope":"https://mail.google.com/"}`), false, nil
	}
	return nil, true, nil
}

// oauthBearerServer is go-sasl's OAUTHBEARER server, whose final error is
// replaced by refused's protocol error (NO for IMAP, 535 for SMTP), as
// real servers answer.
func oauthBearerServer(check func(user, token string) error) sasl.Server {
	var refused error
	srv := sasl.NewOAuthBearerServer(func(o sasl.OAuthBearerOptions) *sasl.OAuthBearerError {
		if err := check(o.Username, o.Token); err != nil {
			refused = err
			return &sasl.OAuthBearerError{Status: "invalid_token", Schemes: "bearer"}
		}
		return nil
	})
	return saslFunc(func(resp []byte) ([]byte, bool, error) {
		c, done, err := srv.Next(resp)
		if err != nil && refused != nil {
			err = refused
		}
		return c, done, err
	})
}

type saslFunc func([]byte) ([]byte, bool, error)

func (f saslFunc) Next(resp []byte) ([]byte, bool, error) { return f(resp) }
