package pbemtest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"sync"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-smtp"

	"orrery/pbem/outbox"
)

// RealStackHowTo says how to run tests that need the real servers; tests
// skip with it when the variables are not set.
const RealStackHowTo = "this test needs Dovecot and Postfix on loopback: run\n" +
	"  scripts/mailstack.sh install && scripts/mailstack.sh start && eval \"$(scripts/mailstack.sh env)\"\n" +
	"then go test again (the variables ORRERY_E2E_IMAP, ORRERY_E2E_SMTP, ORRERY_E2E_LMTP are not set)"

// RealStack is a running Dovecot + Postfix pair on loopback, as started by
// scripts/mailstack.sh: every address of every domain is a mailbox (a
// catch-all) that logs in with any password, so tests that use fresh
// addresses can run again and again against one stack.
type RealStack struct {
	IMAP, SMTP, LMTP string // host:port of Dovecot's IMAP, Postfix's SMTP, Dovecot's LMTP
	Domain           string // the bot's domain (ORRERY_E2E_DOMAIN, default pbem.test)
}

// RealStackFromEnv reads the stack from the ORRERY_E2E_* variables that
// `scripts/mailstack.sh env` prints; ok is false when they are not set.
func RealStackFromEnv() (s RealStack, ok bool) {
	s = RealStack{IMAP: os.Getenv("ORRERY_E2E_IMAP"), SMTP: os.Getenv("ORRERY_E2E_SMTP"),
		LMTP: os.Getenv("ORRERY_E2E_LMTP"), Domain: os.Getenv("ORRERY_E2E_DOMAIN")}
	if s.IMAP == "" || s.SMTP == "" || s.LMTP == "" {
		return s, false
	}
	if s.Domain == "" {
		s.Domain = "pbem.test"
	}
	return s, true
}

// RealStackPassword logs in to any mailbox of the stack (Dovecot's passdb
// takes every password).
const RealStackPassword = "any"

// Deliver hands raw to Dovecot over LMTP for rcpt, with envelope sender
// from ("" for the null sender of bounces, which Dovecot records as
// Return-Path: <>), and returns once Dovecot has stored it: the mail is in
// rcpt's INBOX, as if an MX had accepted it. Postfix is not involved, so
// its size limit does not apply.
func (s RealStack) Deliver(ctx context.Context, from, rcpt string, raw []byte) error {
	c, err := dial(ctx, s.LMTP, true)
	if err != nil {
		return err
	}
	defer c.Close()
	return send(c, from, rcpt, raw)
}

// Submit hands raw to Postfix over plain SMTP, as a remote MTA would, and
// returns Postfix's answer (a *smtp.SMTPError when it refuses). An accepted
// mail reaches rcpt's INBOX a little later.
func (s RealStack) Submit(ctx context.Context, from, rcpt string, raw []byte) error {
	c, err := dial(ctx, s.SMTP, false)
	if err != nil {
		return err
	}
	defer c.Close()
	return send(c, from, rcpt, raw)
}

func dial(ctx context.Context, addr string, lmtp bool) (*smtp.Client, error) {
	d := net.Dialer{Timeout: 5 * time.Second}
	conn, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, err
	}
	// A server that accepts and never answers must not hang a test.
	deadline := time.Now().Add(time.Minute)
	if dl, ok := ctx.Deadline(); ok && dl.Before(deadline) {
		deadline = dl
	}
	conn.SetDeadline(deadline)
	var c *smtp.Client
	if lmtp {
		c = smtp.NewClientLMTP(conn)
	} else {
		c = smtp.NewClient(conn)
	}
	if err := c.Hello("localhost"); err != nil {
		c.Close()
		return nil, fmt.Errorf("%s: %w", addr, err)
	}
	return c, nil
}

func send(c *smtp.Client, from, rcpt string, raw []byte) error {
	if err := c.SendMail(from, []string{rcpt}, bytes.NewReader(raw)); err != nil {
		return err
	}
	return c.Quit()
}

// Count returns how many messages user's mailbox holds (0 if it does not
// exist), with IMAP STATUS: cheap enough to poll.
func (s RealStack) Count(user, mailbox string) (int, error) {
	conn, err := net.DialTimeout("tcp", s.IMAP, 5*time.Second)
	if err != nil {
		return 0, err
	}
	conn.SetDeadline(time.Now().Add(30 * time.Second))
	c := imapclient.New(conn, nil)
	defer c.Close()
	if err := c.Login(user, RealStackPassword).Wait(); err != nil {
		return 0, err
	}
	st, err := c.Status(mailbox, &imap.StatusOptions{NumMessages: true}).Wait()
	if err != nil {
		var ie *imap.Error
		if errors.As(err, &ie) {
			return 0, nil // no such mailbox
		}
		return 0, err
	}
	c.Logout().Wait()
	if st.NumMessages == nil {
		return 0, fmt.Errorf("pbemtest: %s gave no message count for %s/%s", s.IMAP, user, mailbox)
	}
	return int(*st.NumMessages), nil
}

// Messages returns the raw messages of user's mailbox over IMAP.
func (s RealStack) Messages(user, mailbox string) ([][]byte, error) {
	return FetchAll(s.IMAP, user, RealStackPassword, mailbox)
}

// Recorder is an outbox.Sender that passes mail on to Sender and records
// each mail the server accepted, as the bytes Sender put on the wire
// (outbox.Compose), so a test against a real SMTP server can see what the
// daemon sent, as Server.Sent does for the in-process sink.
type Recorder struct {
	Sender outbox.Sender

	mu   sync.Mutex
	sent []Mail
}

// Send implements outbox.Sender.
func (r *Recorder) Send(ctx context.Context, mails []outbox.Mail) []error {
	errs := r.Sender.Send(ctx, mails)
	for i, m := range mails {
		if errs[i] != nil {
			continue
		}
		var data bytes.Buffer
		if msg, err := outbox.Compose(m); err == nil {
			msg.WriteTo(&data)
		}
		r.mu.Lock()
		r.sent = append(r.sent, Mail{From: m.From, To: append([]string(nil), m.To...), Data: data.Bytes(), At: time.Now()})
		r.mu.Unlock()
	}
	return errs
}

// Sent returns a copy of every mail recorded, in order.
func (r *Recorder) Sent() []Mail {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Mail(nil), r.sent...)
}
