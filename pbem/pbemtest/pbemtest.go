// Package pbemtest runs mail servers in-process for tests and for the
// embedded demo, as net/http/httptest does for HTTP: go-imap's in-memory
// IMAP server and a go-smtp sink on 127.0.0.1, both on free ports.
//
// The SMTP sink records every mail it accepts and, unless told otherwise,
// delivers it into each recipient's INBOX on the IMAP server (creating the
// account on first delivery), so a bot's reply lands where a test or a
// person with Thunderbird can read it. Either server can be stopped and
// started again on the same port to test reconnection and retries.
//
// The mailboxes live in memory unless Options.Dir names a directory to
// keep them in (keep.go), as `orrery serve --embedded` does beside its
// database: a Server started again on it finds every account, mailbox and
// message under the same UIDs and UIDVALIDITY, so a mail client's cache
// stays valid across restarts.
package pbemtest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"strings"
	"sync"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-imap/v2/imapserver"
	"github.com/emersion/go-imap/v2/imapserver/imapmemserver"
	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// DefaultPassword is the password of accounts created by delivery.
const DefaultPassword = "password"

// Options configure a Server.
type Options struct {
	// Users maps account names (mail addresses) to passwords.
	Users map[string]string
	// NoMove leaves MOVE and UIDPLUS out of the IMAP capabilities, to test
	// the COPY fallback.
	NoMove bool
	// NoDeliver keeps SMTP mails in the sink only.
	NoDeliver bool
	// OAuth makes both servers offer XOAUTH2 and OAUTHBEARER, as Gmail
	// and Outlook do, accepting only the bearer tokens last given to
	// AcceptTokens; the SMTP sink then refuses mail from a client that
	// has not logged in. IMAP LOGIN with a password still works.
	OAuth bool
	// SMTPLatency delays every reply of the SMTP sink, as the round trip
	// to a provider across the internet does (a reply per command, so a
	// mail costs several); for benchmarks of sending over a slow link.
	SMTPLatency time.Duration
	// Logger receives the servers' error logs; nil discards them.
	Logger *log.Logger
	// IMAPAddr and SMTPAddr are where the servers listen (host:port);
	// "" is a free loopback port.
	IMAPAddr, SMTPAddr string
	// Dir keeps the accounts and mailboxes in this directory (created if
	// need be), and Start puts back what it holds, under the same UIDs
	// and UIDVALIDITY (see keep.go); "" keeps them in memory only. Not
	// with OAuth.
	Dir string
}

// ListenError says which server could not listen where.
type ListenError struct {
	Server string // "IMAP" or "SMTP"
	Addr   string
	Err    error
}

func (e *ListenError) Error() string {
	return fmt.Sprintf("%s server: listen on %s: %v", e.Server, e.Addr, e.Err)
}

func (e *ListenError) Unwrap() error { return e.Err }

// Mail is one message the SMTP sink accepted.
type Mail struct {
	From string
	To   []string
	Data []byte
	At   time.Time
	// Login is how the client logged in ("XOAUTH2 user token"); "" when
	// it did not.
	Login string
}

// Server is a running pair of in-process mail servers.
type Server struct {
	IMAPAddr string // host:port
	SMTPAddr string // host:port

	opts Options
	mem  *imapmemserver.Server

	mu      sync.Mutex
	users   map[string]*imapmemserver.User
	sent    []Mail
	changed chan struct{} // closed and replaced on every new mail or append
	smtpErr error         // when set, the sink refuses every mail with it
	// dropOn are the recipients at whose RCPT TO the sink drops the
	// connection (DropConnectionOn).
	dropOn map[string]bool
	// imap and smtp are the two servers while they run (nil when
	// stopped).
	imap, smtp *serving
	// passwords of the accounts, for OAuth sessions' password LOGIN;
	// tokens accepted with Options.OAuth; logins made, in order.
	passwords map[string]string
	tokens    map[string]bool
	logins    []string
	// smtpOpened counts the SMTP connections accepted, smtpOpen those
	// not yet closed (SMTPConnections).
	smtpOpened, smtpOpen int
	// keep saves the mailboxes (Options.Dir); keepMu orders the changes
	// it saves, before mu.
	keep   *keeper
	keepMu sync.Mutex
}

// serving is one of a Server's two servers while it runs.
type serving struct {
	srv server
	// ln is closed by stop too: a server closed before its Serve
	// goroutine registered the listener would leave it open.
	ln net.Listener
	// done closes when the Serve goroutine returns. stop waits for it
	// before closing the server: go-imap's Close waits on a WaitGroup
	// that Serve adds to, and a Close racing the goroutine's start is a
	// data race (the race detector caught it in CI).
	done chan struct{}
}

// server is go-imap's or go-smtp's server.
type server interface {
	Serve(net.Listener) error
	Close() error
}

// serve runs srv on ln (through serveLn, which may wrap it) as the
// server in slot, whose address is then *addr.
func (s *Server) serve(slot **serving, addr *string, srv server, ln, serveLn net.Listener) {
	x := &serving{srv: srv, ln: ln, done: make(chan struct{})}
	s.mu.Lock()
	*slot = x
	*addr = ln.Addr().String()
	s.mu.Unlock()
	go func() {
		defer close(x.done)
		srv.Serve(serveLn)
	}()
}

// stop stops the server in slot, if it runs: it closes the listener and
// waits until the Serve goroutine has returned (Accept fails on a closed
// listener), so that the server's Close never runs beside Serve's start.
func (s *Server) stop(slot **serving) {
	s.mu.Lock()
	x := *slot
	*slot = nil
	s.mu.Unlock()
	if x == nil {
		return
	}
	x.ln.Close()
	<-x.done
	x.srv.Close()
}

// Start starts both servers on free loopback ports.
func Start(opts Options) (*Server, error) {
	s := &Server{opts: opts, mem: imapmemserver.New(), users: map[string]*imapmemserver.User{}, changed: make(chan struct{}),
		passwords: map[string]string{}, tokens: map[string]bool{}}
	if s.opts.Logger == nil {
		s.opts.Logger = log.New(io.Discard, "", 0)
	}
	s.IMAPAddr, s.SMTPAddr = opts.IMAPAddr, opts.SMTPAddr
	if opts.Dir != "" {
		if err := s.openKeeper(opts.Dir); err != nil {
			return nil, err
		}
	}
	for u, p := range opts.Users {
		s.AddUser(u, p)
	}
	if err := s.StartIMAP(); err != nil {
		return nil, err
	}
	if err := s.StartSMTP(); err != nil {
		s.StopIMAP()
		return nil, err
	}
	return s, nil
}

// TB is the part of testing.TB that the helpers here use. The package
// does not import testing: orrery's own binary runs these servers (demo,
// serve --embedded), and a test framework has no place in it.
type TB interface {
	Helper()
	Errorf(format string, args ...any)
	Fatal(args ...any)
	Fatalf(format string, args ...any)
	Skip(args ...any)
	Skipf(format string, args ...any)
	Cleanup(func())
	TempDir() string
}

// StartT starts a Server for a test and closes it when the test ends.
func StartT(t TB, opts Options) *Server {
	t.Helper()
	s, err := Start(opts)
	if err != nil {
		t.Fatalf("pbemtest: %v", err)
	}
	t.Cleanup(s.Close)
	return s
}

// Close stops both servers.
func (s *Server) Close() {
	s.StopIMAP()
	s.StopSMTP()
}

// AddUser creates an account with an INBOX (no-op if it exists).
func (s *Server) AddUser(name, password string) {
	s.mu.Lock()
	_, had := s.users[strings.ToLower(name)]
	s.addUserLocked(name, password)
	s.mu.Unlock()
	if s.keeping() && !had {
		if err := s.keepBox(strings.ToLower(name), "INBOX", func(*imapmemserver.User) error { return nil }); err != nil {
			s.opts.Logger.Printf("pbemtest: keeping account %s: %v", name, err)
		}
	}
}

func (s *Server) addUserLocked(name, password string) *imapmemserver.User {
	name = strings.ToLower(name)
	if u, ok := s.users[name]; ok {
		return u
	}
	u := imapmemserver.NewUser(name, password)
	u.Create("INBOX", nil)
	s.mem.AddUser(u)
	s.users[name] = u
	s.passwords[name] = password
	return u
}

func (s *Server) user(name string) (*imapmemserver.User, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	u, ok := s.users[strings.ToLower(name)]
	if !ok {
		return nil, fmt.Errorf("pbemtest: no account %q", name)
	}
	return u, nil
}

// StartIMAP starts (or restarts, on the same port) the IMAP server.
func (s *Server) StartIMAP() error {
	ln, err := listen("IMAP", s.IMAPAddr)
	if err != nil {
		return err
	}
	caps := imap.CapSet{imap.CapIMAP4rev1: {}}
	if !s.opts.NoMove {
		caps[imap.CapMove] = struct{}{}
		caps[imap.CapUIDPlus] = struct{}{}
	}
	srv := imapserver.New(&imapserver.Options{
		NewSession: func(*imapserver.Conn) (imapserver.Session, *imapserver.GreetingData, error) {
			if s.keeping() {
				return &keptSession{s: s}, nil, nil
			}
			if s.opts.OAuth {
				return &oauthSession{s: s}, nil, nil
			}
			return s.mem.NewSession(), nil, nil
		},
		Caps:         caps,
		InsecureAuth: true,
		Logger:       s.opts.Logger,
	})
	s.serve(&s.imap, &s.IMAPAddr, srv, ln, ln)
	return nil
}

// StopIMAP stops the IMAP server and drops every connection; the mailboxes
// stay, for StartIMAP.
func (s *Server) StopIMAP() {
	s.stop(&s.imap)
}

// StartSMTP starts (or restarts, on the same port) the SMTP sink.
func (s *Server) StartSMTP() error {
	ln, err := listen("SMTP", s.SMTPAddr)
	if err != nil {
		return err
	}
	srv := smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) {
		s.mu.Lock()
		s.smtpOpened++
		s.smtpOpen++
		s.mu.Unlock()
		return &session{s: s, conn: c.Conn()}, nil
	}))
	srv.Domain = "localhost"
	srv.AllowInsecureAuth = true
	srv.MaxMessageBytes = 10 << 20
	srv.ErrorLog = s.opts.Logger
	var serveLn net.Listener = ln
	if s.opts.SMTPLatency > 0 {
		serveLn = slowListener{ln, s.opts.SMTPLatency}
	}
	s.serve(&s.smtp, &s.SMTPAddr, srv, ln, serveLn)
	return nil
}

// slowListener's connections wait before each write: the server's replies
// arrive one latency late, as over a long link.
type slowListener struct {
	net.Listener
	latency time.Duration
}

func (l slowListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return slowConn{c, l.latency}, nil
}

type slowConn struct {
	net.Conn
	latency time.Duration
}

func (c slowConn) Write(p []byte) (int, error) {
	time.Sleep(c.latency)
	return c.Conn.Write(p)
}

// StopSMTP stops the SMTP sink.
func (s *Server) StopSMTP() {
	s.stop(&s.smtp)
}

// FailSMTP makes the sink refuse every mail with a temporary error until
// called with nil.
func (s *Server) FailSMTP(err error) {
	s.mu.Lock()
	s.smtpErr = err
	s.mu.Unlock()
}

// DropConnectionOn makes the sink close the connection, without a reply,
// when a mail is addressed to addr (RCPT TO), as a server that crashes on
// one mail, or a proxy that cuts it, does; every other recipient is taken
// as usual. Called with on false, addr is taken again.
func (s *Server) DropConnectionOn(addr string, on bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.dropOn == nil {
		s.dropOn = map[string]bool{}
	}
	if on {
		s.dropOn[strings.ToLower(addr)] = true
	} else {
		delete(s.dropOn, strings.ToLower(addr))
	}
}

// listen listens at addr, a free loopback port when addr is "", for
// server (IMAP, SMTP), which a *ListenError names when it cannot. It
// tries for a second: a restarted server's port may still be held by the
// listener just closed.
func listen(server, addr string) (net.Listener, error) {
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	var err error
	for range 50 {
		var ln net.Listener
		if ln, err = net.Listen("tcp", addr); err == nil {
			return ln, nil
		}
		time.Sleep(20 * time.Millisecond)
	}
	return nil, &ListenError{Server: server, Addr: addr, Err: err}
}

type literal struct {
	*bytes.Reader
	n int64
}

func (l literal) Size() int64 { return l.n }

// Append puts a raw message into user's mailbox, creating the account (with
// DefaultPassword) and the mailbox if needed.
func (s *Server) Append(user, mailbox string, raw []byte) error {
	s.mu.Lock()
	u := s.addUserLocked(user, DefaultPassword)
	s.mu.Unlock()
	if mailbox == "" {
		mailbox = "INBOX"
	}
	if s.keeping() {
		return s.appendKeptCreating(strings.ToLower(user), u, mailbox, raw)
	}
	_, err := u.Append(mailbox, literal{bytes.NewReader(raw), int64(len(raw))}, &imap.AppendOptions{})
	if err != nil {
		if err := u.Create(mailbox, nil); err != nil {
			return err
		}
		_, err = u.Append(mailbox, literal{bytes.NewReader(raw), int64(len(raw))}, &imap.AppendOptions{})
	}
	if err == nil {
		s.signal()
	}
	return err
}

// Recreate deletes user's mailbox and creates it again empty, which gives it
// a new UIDVALIDITY.
func (s *Server) Recreate(user, mailbox string) error {
	u, err := s.user(user)
	if err != nil {
		return err
	}
	if s.keeping() {
		return s.keepBox(strings.ToLower(user), mailbox, func(u *imapmemserver.User) error {
			if err := u.Delete(mailbox); err != nil {
				return err
			}
			return u.Create(mailbox, nil)
		})
	}
	if err := u.Delete(mailbox); err != nil {
		return err
	}
	return u.Create(mailbox, nil)
}

func (s *Server) signal() {
	s.mu.Lock()
	close(s.changed)
	s.changed = make(chan struct{})
	s.mu.Unlock()
}

// Sent returns a copy of every mail the SMTP sink accepted, in order.
func (s *Server) Sent() []Mail {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Mail(nil), s.sent...)
}

// WaitSent waits until the sink has accepted at least n mails.
func (s *Server) WaitSent(ctx context.Context, n int) ([]Mail, error) {
	for {
		s.mu.Lock()
		got, ch := len(s.sent), s.changed
		s.mu.Unlock()
		if got >= n {
			return s.Sent(), nil
		}
		select {
		case <-ctx.Done():
			return s.Sent(), fmt.Errorf("pbemtest: %d of %d mails sent: %w", got, n, ctx.Err())
		case <-ch:
		}
	}
}

// Messages returns the raw messages in user's mailbox, in UID order. It
// reads them over IMAP, as a mail client would.
func (s *Server) Messages(user, mailbox string) ([][]byte, error) {
	s.mu.Lock()
	u, ok := s.users[strings.ToLower(user)]
	s.mu.Unlock()
	if !ok {
		return nil, nil
	}
	_ = u
	pass := s.opts.Users[user]
	if pass == "" {
		pass = DefaultPassword
	}
	return FetchAll(s.IMAPAddr, strings.ToLower(user), pass, mailbox)
}

// WaitMessages waits until user's mailbox holds at least n messages.
func (s *Server) WaitMessages(ctx context.Context, user, mailbox string, n int) ([][]byte, error) {
	for {
		s.mu.Lock()
		ch := s.changed
		s.mu.Unlock()
		msgs, err := s.Messages(user, mailbox)
		if err == nil && len(msgs) >= n {
			return msgs, nil
		}
		select {
		case <-ctx.Done():
			if err == nil {
				err = ctx.Err()
			}
			return msgs, fmt.Errorf("pbemtest: %d of %d messages in %s/%s: %w", len(msgs), n, user, mailbox, err)
		case <-ch:
		case <-time.After(50 * time.Millisecond): // moves by the daemon do not signal
		}
	}
}

// FetchAll logs in to any IMAP server and returns every message of mailbox
// (nil if it does not exist). Tests use it against real servers too.
func FetchAll(addr, user, password, mailbox string) ([][]byte, error) {
	conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		return nil, err
	}
	// A server that accepts but never answers must not hang a test.
	conn.SetDeadline(time.Now().Add(30 * time.Second))
	c := imapclient.New(conn, nil)
	defer c.Close()
	if err := c.Login(user, password).Wait(); err != nil {
		return nil, err
	}
	sel, err := c.Select(mailbox, &imap.SelectOptions{ReadOnly: true}).Wait()
	if err != nil {
		var ie *imap.Error
		if errors.As(err, &ie) {
			return nil, nil // no such mailbox: nothing in it
		}
		return nil, err
	}
	if sel.NumMessages == 0 {
		return nil, nil
	}
	section := &imap.FetchItemBodySection{Peek: true}
	msgs, err := c.Fetch(imap.SeqSet{{Start: 1, Stop: 0}}, &imap.FetchOptions{UID: true, BodySection: []*imap.FetchItemBodySection{section}}).Collect()
	if err != nil {
		return nil, err
	}
	out := make([][]byte, 0, len(msgs))
	for _, m := range msgs {
		out = append(out, m.FindBodySection(section))
	}
	c.Logout().Wait()
	return out, nil
}

type session struct {
	s     *Server
	conn  net.Conn
	from  string
	to    []string
	login string
}

func (x *session) AuthMechanisms() []string {
	if x.s.opts.OAuth {
		return []string{sasl.Plain, mechXOAuth2, sasl.OAuthBearer}
	}
	return []string{sasl.Plain}
}

// Auth accepts any password: the sink is for tests on loopback. Bearer
// tokens (Options.OAuth) must be ones given to AcceptTokens.
func (x *session) Auth(mech string) (sasl.Server, error) {
	refused := &smtp.SMTPError{Code: 535, EnhancedCode: smtp.EnhancedCode{5, 7, 8}, Message: "Username and Password not accepted"}
	ok := func(user, token string) error {
		if !x.s.tokenOK("SMTP", mech, user, token) {
			return refused
		}
		x.login = mech + " " + user + " " + token
		return nil
	}
	switch {
	case mech == sasl.Plain:
		return sasl.NewPlainServer(func(identity, username, password string) error {
			x.s.logLogin("SMTP PLAIN " + username)
			x.login = "PLAIN " + username
			return nil
		}), nil
	case x.s.opts.OAuth && mech == mechXOAuth2:
		return &xoauth2Server{check: ok}, nil
	case x.s.opts.OAuth && mech == sasl.OAuthBearer:
		return oauthBearerServer(ok), nil
	}
	return nil, smtp.ErrAuthUnknownMechanism
}

func (x *session) Mail(from string, _ *smtp.MailOptions) error {
	x.s.mu.Lock()
	err := x.s.smtpErr
	x.s.mu.Unlock()
	if err != nil {
		return &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: err.Error()}
	}
	if x.s.opts.OAuth && x.login == "" {
		return smtp.ErrAuthRequired
	}
	x.from = from
	return nil
}

func (x *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	x.s.mu.Lock()
	drop := x.s.dropOn[strings.ToLower(to)]
	x.s.mu.Unlock()
	if drop {
		x.conn.Close()
		return &smtp.SMTPError{Code: 421, EnhancedCode: smtp.EnhancedCode{4, 4, 2}, Message: "connection dropped"}
	}
	x.to = append(x.to, to)
	return nil
}

func (x *session) Data(r io.Reader) error {
	data, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	m := Mail{From: x.from, To: x.to, Data: data, At: time.Now(), Login: x.login}
	if !x.s.opts.NoDeliver {
		for _, rcpt := range x.to {
			if err := x.s.Append(rcpt, "INBOX", data); err != nil {
				return err
			}
		}
	}
	x.s.mu.Lock()
	x.s.sent = append(x.s.sent, m)
	x.s.mu.Unlock()
	x.s.signal()
	return nil
}

func (x *session) Reset() { x.from, x.to = "", nil }
func (x *session) Logout() error {
	x.s.mu.Lock()
	x.s.smtpOpen--
	x.s.mu.Unlock()
	return nil
}

// SMTPConnections says how many SMTP connections the sink has accepted
// since it started, and how many of them are still open.
func (s *Server) SMTPConnections() (opened, open int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.smtpOpened, s.smtpOpen
}
