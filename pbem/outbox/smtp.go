package outbox

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"net/textproto"

	"github.com/emersion/go-sasl"
	"github.com/wneessen/go-mail"
	gmsmtp "github.com/wneessen/go-mail/smtp"
)

// SMTP sends mail with go-mail.
type SMTP struct {
	Addr string // host:port
	// TLS is "implicit" (SMTPS), "starttls" (mandatory) or "none"
	// (loopback only; config refuses it elsewhere).
	TLS string
	// Auth is "plain", "login", "xoauth2", "oauthbearer" or "" (none).
	Auth string
	// Credentials returns the login and the password or bearer token;
	// it is called once per connection, so a token source can refresh.
	Credentials func(ctx context.Context) (user, secret string, err error)
	// Refused, if set, is called when the server refuses the login, so
	// that a token source drops a cached token the provider no longer
	// takes and the next attempt fetches a new one.
	Refused func()
	Timeout time.Duration
	HELO    string
	// Pictures draws the picture a mail asks for (Mail.Picture) as PNG,
	// when the mail is composed. Nil, or an error, sends the mail without
	// it (its <img> taken out of the HTML part).
	Pictures func(ctx context.Context, p Picture) ([]byte, error)
	// Drawers is how many of a batch's pictures are drawn at once, ahead
	// of the sending (drawahead.go; 0: one a core, GOMAXPROCS). Pictures
	// must then be safe to call from several goroutines.
	Drawers int
	// KeepAlive is how long a connection is kept open after a batch for
	// the next one (0: DefaultKeepAlive; negative: closed after each).
	KeepAlive time.Duration
	// DKIM, when set, signs every mail as it is composed (dkim: in the
	// config; pbem/dkim).
	DKIM Signer

	mu   sync.Mutex
	idle []*smtpConn // connections kept for the next batch, newest last
	// uncoalesced sends go-mail's writes as it makes them, for
	// BenchmarkSMTPSend's comparison.
	uncoalesced bool
}

// A connection is kept open after a batch, for the next one, for
// KeepAlive. A daemon that answers mail as it comes sends many small
// batches (an acknowledgement, a turn's reports: a 10-game backlog drain
// handed 595 batches to SMTP for 15,020 mails), and each connection
// costs both ends a greeting, EHLO, STARTTLS and its handshake, and a
// login, and counts against a provider's limits. (On the loopback Postfix
// of the soak harness, without TLS, it made no measurable difference:
// docs/benchmarks.md.) A connection taken again is checked
// with RSET first (a server may have closed it meanwhile: then a new one
// is dialled, and no mail fails for it), and none is used past
// maxConnAge or maxConnMails, limits some providers set.
const (
	// DefaultKeepAlive is how long an idle connection is kept (SMTP.KeepAlive).
	DefaultKeepAlive = 10 * time.Second
	maxConnAge       = 5 * time.Minute
	maxConnMails     = 1000
)

// smtpConn is one connection to the server.
type smtpConn struct {
	c     *mail.Client
	born  time.Time
	sent  int
	timer *time.Timer // closes it when it has been idle for KeepAlive
}

// take returns an idle connection that answers RSET, or nil.
func (s *SMTP) take() *smtpConn {
	for {
		s.mu.Lock()
		n := len(s.idle)
		if n == 0 {
			s.mu.Unlock()
			return nil
		}
		c := s.idle[n-1]
		s.idle = s.idle[:n-1]
		s.mu.Unlock()
		c.timer.Stop()
		if time.Since(c.born) < maxConnAge && c.sent < maxConnMails && c.c.Reset() == nil {
			return c
		}
		c.c.Close()
	}
}

// release keeps c for the next batch, or closes it.
func (s *SMTP) release(c *smtpConn, keep bool) {
	alive := s.KeepAlive
	if alive == 0 {
		alive = DefaultKeepAlive
	}
	if !keep || alive < 0 || time.Since(c.born) >= maxConnAge || c.sent >= maxConnMails {
		c.c.Close()
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	c.timer = time.AfterFunc(alive, func() {
		s.mu.Lock()
		i := slices.Index(s.idle, c)
		if i >= 0 {
			s.idle = slices.Delete(s.idle, i, i+1)
		}
		s.mu.Unlock()
		if i >= 0 {
			c.c.Close() // QUIT
		}
	})
	s.idle = append(s.idle, c)
}

// CloseIdle closes the connections kept for the next batch.
func (s *SMTP) CloseIdle() {
	s.mu.Lock()
	idle := s.idle
	s.idle = nil
	s.mu.Unlock()
	for _, c := range idle {
		c.timer.Stop()
		c.c.Close()
	}
}

// Send delivers mails over one connection: one kept from an earlier batch,
// or a new one.
func (s *SMTP) Send(ctx context.Context, mails []Mail) []error {
	errs := make([]error, len(mails))
	fail := func(err error) []error {
		for i := range errs {
			errs[i] = err
		}
		return errs
	}
	c := s.take()
	if c == nil {
		var err error
		if c, err = s.dial(ctx); err != nil {
			return fail(err)
		}
	}
	keep := true
	defer func() {
		if c != nil {
			s.release(c, keep && ctx.Err() == nil)
		}
	}()
	stop := make(chan struct{})
	defer close(stop)
	slots := s.drawAhead(ctx, mails, stop)
	failing := 0 // mails in a row that failed for now
	for i, m := range mails {
		msg, err := ComposeWith(m, picture(ctx, slots, i))
		if err == nil && s.DKIM != nil {
			err = Sign(msg, s.DKIM)
		}
		if err != nil {
			errs[i] = &Permanent{err}
			continue
		}
		err = c.c.Send(msg)
		c.sent++
		if errs[i] = classify(err); errs[i] == nil || isPermanent(errs[i]) {
			failing = 0
			continue
		}
		// A temporary failure may have taken the connection with it (a
		// server that drops it at one recipient): this mail waits for
		// its backoff, and the mails behind it go over a new
		// connection, unless the server seems to be failing them all.
		failing++
		if i == len(mails)-1 {
			break
		}
		if failing < maxFailingInARow && ctx.Err() == nil {
			c.c.Close()
			if c, err = s.dial(ctx); err == nil {
				continue
			}
		}
		for j := i + 1; j < len(mails); j++ {
			errs[j] = fmt.Errorf("not tried: %w", err)
		}
		return errs
	}
	// A connection whose last mail failed for now is not kept: the
	// failure may have been the connection's.
	keep = failing == 0
	return errs
}

// options is how go-mail is to reach the server: its host and port, the
// timeout (timeout when the config names none or one longer than
// maxTimeout, if that is not 0), TLS as configured and HELO. Plain SMTP,
// to the relay on this machine, has its writes coalesced (coalescingConn)
// when coalesce is set. Over TLS, go-mail dials itself (a dial function of
// ours would hide from it that the connection is encrypted, and it would
// then refuse to log in), and crypto/tls writes its records.
func (s *SMTP) options(timeout, maxTimeout time.Duration, coalesce bool) (host string, port int, opts []mail.Option, err error) {
	host, portStr, err := net.SplitHostPort(s.Addr)
	if err != nil {
		return "", 0, nil, fmt.Errorf("smtp address %q: %w", s.Addr, err)
	}
	port, _ = strconv.Atoi(portStr)
	if s.Timeout != 0 && (maxTimeout == 0 || s.Timeout <= maxTimeout) {
		timeout = s.Timeout
	}
	// No NOOP before every mail: go-mail sends one per Send call to check
	// the connection, a sixth round trip per mail; a dead connection shows
	// just as well at MAIL FROM, and the rest of the batch is retried.
	opts = []mail.Option{mail.WithPort(port), mail.WithTimeout(timeout), mail.WithoutNoop()}
	switch s.TLS {
	case "implicit":
		opts = append(opts, mail.WithSSL())
	case "starttls":
		opts = append(opts, mail.WithTLSPolicy(mail.TLSMandatory))
	default:
		opts = append(opts, mail.WithTLSPolicy(mail.NoTLS))
		if coalesce {
			opts = append(opts, mail.WithDialContextFunc(dialCoalescing))
		}
	}
	if s.HELO != "" {
		opts = append(opts, mail.WithHELO(s.HELO))
	}
	return host, port, opts, nil
}

// dial opens a new connection, logged in.
func (s *SMTP) dial(ctx context.Context) (*smtpConn, error) {
	host, port, opts, err := s.options(30*time.Second, 0, !s.uncoalesced)
	if err != nil {
		return nil, err
	}
	if s.Auth != "" && s.Auth != "none" && s.Credentials != nil {
		user, secret, err := s.Credentials(ctx)
		if err != nil {
			return nil, fmt.Errorf("smtp credentials: %w", err)
		}
		var t mail.SMTPAuthType
		switch s.Auth {
		case "oauthbearer":
			// go-mail has no OAUTHBEARER: go-sasl's client, adapted.
			opts = append(opts, mail.WithSMTPAuthCustom(&oauthBearerAuth{sasl.NewOAuthBearerClient(
				&sasl.OAuthBearerOptions{Username: user, Token: secret, Host: host, Port: port})}))
		case "plain":
			t = mail.SMTPAuthPlain
			if s.TLS == "none" {
				t = mail.SMTPAuthPlainNoEnc
			}
		case "login":
			t = mail.SMTPAuthLogin
			if s.TLS == "none" {
				t = mail.SMTPAuthLoginNoEnc
			}
		case "xoauth2":
			t = mail.SMTPAuthXOAUTH2
		default:
			return nil, fmt.Errorf("smtp auth %q not supported", s.Auth)
		}
		if t != "" {
			opts = append(opts, mail.WithSMTPAuth(t), mail.WithUsername(user), mail.WithPassword(secret))
		}
	}
	c, err := mail.NewClient(host, opts...)
	if err != nil {
		return nil, err
	}
	if err := c.DialWithContext(ctx); err != nil {
		if s.Refused != nil && loginRefused(err) {
			s.Refused()
		}
		return nil, fmt.Errorf("smtp %s: %w", s.Addr, err)
	}
	return &smtpConn{c: c, born: time.Now()}, nil
}

// maxFailingInARow is how many mails in a row may fail for now, each
// followed by a new connection, before Send gives up on the rest of its
// batch: one bad recipient must not hold back the others, but a server
// that fails every mail is not to be dialled once per mail.
const maxFailingInARow = 3

// loginRefused reports whether a dial failed because the server refused
// the credentials (535, or 534 and 530 for some providers' token errors),
// rather than for a network or TLS failure.
func loginRefused(err error) bool {
	var te *textproto.Error
	if errors.As(err, &te) {
		return te.Code == 535 || te.Code == 534 || te.Code == 530
	}
	return false
}

// oauthBearerAuth adapts go-sasl's OAUTHBEARER client to go-mail's smtp.Auth.
type oauthBearerAuth struct{ c sasl.Client }

func (a *oauthBearerAuth) Start(*gmsmtp.ServerInfo) (string, []byte, error) { return a.c.Start() }

// Next answers a challenge. OAUTHBEARER's only challenge is the server's
// JSON error, to which RFC 7628 (3.2.3) has the client send ^A; the server
// then fails the exchange with its 535, which loginRefused recognises.
func (a *oauthBearerAuth) Next(_ []byte, more bool) ([]byte, error) {
	if !more {
		return nil, nil
	}
	return []byte{1}, nil
}

func isPermanent(err error) bool {
	var p *Permanent
	return errors.As(err, &p)
}

func classify(err error) error {
	var se *mail.SendError
	if errors.As(err, &se) {
		if !se.IsTemp() && se.ErrorCode() >= 500 {
			return &Permanent{err}
		}
	}
	return err
}

// maxIDLength is the longest Message-ID we repeat: real ones have under
// a hundred characters.
const maxIDLength = 250

// CleanIDs keeps the Message-IDs (with or without angle brackets) that
// are safe to write back in a header: plain printable ASCII, no spaces or
// angle brackets inside, an @, at most maxIDLength characters; each once,
// in their first place. A player's client (or an attacker) writes what
// ids it likes, and an id echoed as written could carry control bytes or
// push a header line past RFC 5322's 998 characters, after which servers
// refuse the mail.
func CleanIDs(ids []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, id := range ids {
		id = strings.TrimSpace(id)
		if strings.HasPrefix(id, "<") && strings.HasSuffix(id, ">") {
			id = id[1 : len(id)-1]
		}
		if id == "" || len(id) > maxIDLength || !strings.Contains(id, "@") || seen[id] {
			continue
		}
		ok := true
		for i := 0; i < len(id); i++ {
			if c := id[i]; c < 0x21 || c > 0x7e || c == '<' || c == '>' {
				ok = false
				break
			}
		}
		if ok {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

// foldIDs writes ids for a References header, folded (RFC 5322 2.2.3)
// so that no line is longer than 78 characters where the ids allow.
func foldIDs(ids []string) string {
	var b strings.Builder
	n := len("References: ")
	for i, id := range ids {
		w := len(id) + 2
		if i > 0 {
			if n+1+w > 78 {
				b.WriteString("\r\n ")
				n = 1
			} else {
				b.WriteByte(' ')
				n++
			}
		}
		b.WriteString("<" + id + ">")
		n += w
	}
	return b.String()
}

// Compose builds the MIME message of m with no picture (see ComposeWith).
func Compose(m Mail) (*mail.Msg, error) { return ComposeWith(m, nil) }

// ComposeWith builds the MIME message of m: text/plain, or
// multipart/alternative with text/html when m.HTML is set; with the
// picture png, inside multipart/related so that the HTML part shows it by
// its Content-ID (Gmail, Outlook and Apple Mail show such a picture without
// asking to load images); with m.Files, inside multipart/mixed. Without
// png, the HTML part's <img> of m.Picture is taken out.
func ComposeWith(m Mail, png []byte) (*mail.Msg, error) {
	msg := mail.NewMsg(mail.WithNoDefaultUserAgent())
	if err := msg.From(m.From); err != nil {
		return nil, fmt.Errorf("from %q: %w", m.From, err)
	}
	if m.EnvelopeFrom != "" {
		if err := msg.EnvelopeFrom(m.EnvelopeFrom); err != nil {
			return nil, fmt.Errorf("envelope sender %q: %w", m.EnvelopeFrom, err)
		}
	}
	if err := msg.To(m.To...); err != nil {
		return nil, fmt.Errorf("to %q: %w", m.To, err)
	}
	msg.Subject(m.Subject)
	msg.SetMessageIDWithValue(m.MessageID)
	msg.SetDateWithValue(m.Date)
	msg.SetGenHeader("User-Agent", "Orrery")
	if m.Auto != "" {
		msg.SetGenHeader("Auto-Submitted", m.Auto)
		msg.SetGenHeader("X-Auto-Response-Suppress", "All")
	}
	if id := CleanIDs([]string{m.InReplyTo}); len(id) == 1 {
		msg.SetGenHeaderPreformatted(mail.HeaderInReplyTo, "<"+id[0]+">")
	}
	if refs := CleanIDs(m.References); len(refs) > 0 {
		msg.SetGenHeaderPreformatted(mail.HeaderReferences, foldIDs(refs))
	}
	if m.Kind != "" {
		msg.SetGenHeader("X-Orrery-Kind", m.Kind)
	}
	for k, v := range m.Headers {
		msg.SetGenHeader(mail.Header(k), v)
	}
	msg.SetBodyString(mail.TypeTextPlain, m.Text)
	html := m.HTML
	if m.Picture != nil && len(png) == 0 {
		html = dropImage(html, m.Picture.ContentID)
	}
	if html != "" {
		msg.AddAlternativeString(mail.TypeTextHTML, html)
	}
	if m.Picture != nil && len(png) > 0 && html != "" {
		name := m.Picture.Name
		if name == "" {
			name = "board.png"
		}
		if err := msg.EmbedReader(name, bytes.NewReader(png), mail.WithFileContentID("<"+m.Picture.ContentID+">"),
			mail.WithFileContentType("image/png")); err != nil {
			return nil, fmt.Errorf("picture: %w", err)
		}
	}
	for _, f := range m.Files {
		ct := mail.ContentType(f.ContentType)
		if ct == "" {
			ct = mail.TypeAppOctetStream
		}
		if err := msg.AttachReader(f.Name, bytes.NewReader(f.Data), mail.WithFileContentType(ct)); err != nil {
			return nil, fmt.Errorf("attachment %s: %w", f.Name, err)
		}
	}
	return msg, nil
}

// dropImage takes out of html the <img> that shows the part cid.
func dropImage(html, cid string) string {
	i := strings.Index(html, `src="cid:`+cid+`"`)
	if i < 0 {
		return html
	}
	start := strings.LastIndex(html[:i], "<img")
	end := strings.IndexByte(html[i:], '>')
	if start < 0 || end < 0 {
		return html
	}
	return html[:start] + html[i+end+1:]
}
