package pbemtest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
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
	return hand(ctx, s.LMTP, true, from, rcpt, 1, func(int) []byte { return raw })
}

// DeliverMany is Deliver for the n mails mail(0) ... mail(n-1), over one
// LMTP connection: a backlog of thousands is stored in seconds.
func (s RealStack) DeliverMany(ctx context.Context, from, rcpt string, n int, mail func(i int) []byte) error {
	return hand(ctx, s.LMTP, true, from, rcpt, n, mail)
}

// Submit hands raw to Postfix over plain SMTP, as a remote MTA would, and
// returns Postfix's answer (a *smtp.SMTPError when it refuses). An accepted
// mail reaches rcpt's INBOX a little later.
func (s RealStack) Submit(ctx context.Context, from, rcpt string, raw []byte) error {
	return hand(ctx, s.SMTP, false, from, rcpt, 1, func(int) []byte { return raw })
}

// hand sends the n mails mail(i) from from to rcpt over one connection to
// addr, LMTP or SMTP, and says goodbye.
func hand(ctx context.Context, addr string, lmtp bool, from, rcpt string, n int, mail func(i int) []byte) error {
	d := net.Dialer{Timeout: 5 * time.Second}
	conn, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return err
	}
	// A server that accepts and never answers must not hang a test: each
	// mail has a minute (or what is left of ctx).
	extend := func() {
		deadline := time.Now().Add(time.Minute)
		if dl, ok := ctx.Deadline(); ok && dl.Before(deadline) {
			deadline = dl
		}
		conn.SetDeadline(deadline)
	}
	extend()
	var c *smtp.Client
	if lmtp {
		c = smtp.NewClientLMTP(conn)
	} else {
		c = smtp.NewClient(conn)
	}
	defer c.Close()
	if err := c.Hello("localhost"); err != nil {
		return fmt.Errorf("%s: %w", addr, err)
	}
	for i := range n {
		extend()
		if err := c.SendMail(from, []string{rcpt}, bytes.NewReader(mail(i))); err != nil {
			if n == 1 {
				return err
			}
			return fmt.Errorf("mail %d: %w", i, err)
		}
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

// FetchBatches reads the first n mails of user's INBOX in batches of
// size, with one IMAP connection, and hands each batch's raw mails to
// each with the number of the batch's first mail (1 for the first batch):
// a raw limit for a benchmark to set beside the daemon's reading.
func (s RealStack) FetchBatches(user string, n, size int, each func(first int, raws [][]byte) error) error {
	c, err := imapclient.DialInsecure(s.IMAP, nil)
	if err != nil {
		return err
	}
	defer c.Close()
	if err := c.Login(user, RealStackPassword).Wait(); err != nil {
		return err
	}
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		return err
	}
	section := &imap.FetchItemBodySection{Peek: true}
	for start := 1; start <= n; start += size {
		set := imap.SeqSet{{Start: uint32(start), Stop: uint32(min(start+size-1, n))}}
		msgs, err := c.Fetch(set, &imap.FetchOptions{UID: true, BodySection: []*imap.FetchItemBodySection{section}}).Collect()
		if err != nil {
			return err
		}
		raws := make([][]byte, len(msgs))
		for k, m := range msgs {
			raws[k] = m.FindBodySection(section)
		}
		if err := each(start, raws); err != nil {
			return err
		}
	}
	return nil
}

// MailStack runs scripts/mailstack.sh with args on the stack s, and skips
// t when the script's ports (the MAILSTACK_* variables) are not those of
// s: stopping or reconfiguring another stack's servers would disturb
// whoever uses it. The script is found in the first directory above the
// test's that has scripts/mailstack.sh.
func (s RealStack) MailStack(t TB, args ...string) {
	t.Helper()
	port := os.Getenv("MAILSTACK_IMAP_PORT")
	if port == "" {
		port = "1143"
	}
	if s.IMAP != "127.0.0.1:"+port {
		t.Skipf("the stack at %s is not the one scripts/mailstack.sh controls with these variables (IMAP port %s): set the MAILSTACK_* variables the stack was started with", s.IMAP, port)
	}
	script, err := findUp(filepath.Join("scripts", "mailstack.sh"))
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(script, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("mailstack.sh %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// findUp is the path of rel in the working directory or the nearest
// directory above it that has it.
func findUp(rel string) (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		p := filepath.Join(dir, rel)
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("pbemtest: no %s in the working directory or above it", rel)
		}
		dir = parent
	}
}
