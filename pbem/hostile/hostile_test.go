// Package hostile sends the mail daemon the mail an attacker, a broken
// client or a misconfigured robot sends, through the daemon's real loop
// (imapin reading, outbox sending), and checks that each gets its
// documented answer or silence and that nothing is applied to the game.
//
// Every case runs twice, as go-imap runs its client tests against Dovecot
// too (imapclient/dovecot_test.go). The in-process subtests always run,
// on the servers of pbem/pbemtest, in a few seconds, as part of the plain
// go test ./... of CI. The dovecot-postfix subtests run the same cases
// against the real Dovecot + Postfix on loopback when the ORRERY_E2E_*
// variables say where they are, and skip saying how otherwise:
//
//	scripts/mailstack.sh start && eval "$(scripts/mailstack.sh env)"
//	go test ./pbem/hostile/
//
// There, mail for the bot is handed to Dovecot over LMTP (with its
// envelope sender, so a bounce's <> becomes Dovecot's own Return-Path),
// the daemon sends through Postfix, what it sent is recorded on the way
// out and counts only once it is in the recipients' catch-all mailboxes,
// and the robots of the autoresponder case read and answer their real
// mailboxes. Each test uses fresh addresses, so runs repeat against one
// stack. Where the real servers answer differently, the test asserts their
// answer: Postfix refuses the 10 MB mails (552, message_size_limit) before
// the daemon sees them.
//
// pbem/soak (behind -tags soak) runs load, faults and a few hostile mails
// through Postfix from outside, with figures for the report.
package hostile

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"mime/quotedprintable"
	"net/mail"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/emersion/go-smtp"

	"orrery/engine"
	"orrery/engine/enginetest/toy"
	"orrery/engine/game"
	"orrery/engine/store"
	"orrery/engine/store/storetest"
	"orrery/pbem/daemon"
	"orrery/pbem/imapin"
	"orrery/pbem/inmail"
	"orrery/pbem/outbox"
	"orrery/pbem/pbemtest"
	"orrery/pbem/policy"
)

// authServ is the authserv-id our (pretend) receiving server writes.
const authServ = "mx.pbem.test"

// backend says which mail servers a test runs against: the in-process pair
// of pbemtest (always), or the real Dovecot + Postfix that
// scripts/mailstack.sh runs on loopback (when the ORRERY_E2E_* variables
// say where).
type backend struct {
	real  bool
	stack pbemtest.RealStack
}

// both runs f against each backend, as go-imap runs its client tests
// against its own server and against Dovecot: one case set, two servers,
// so a case cannot pass in-process only because the fake is kinder. The
// fast loop (-short) runs the in-process half only.
func both(t *testing.T, f func(*testing.T, backend)) {
	t.Run("in-process", func(t *testing.T) { f(t, backend{}) })
	t.Run("dovecot-postfix", func(t *testing.T) {
		if testing.Short() {
			t.Skip("through the real servers: runs without -short (in-process above is the same attack)")
		}
		s, ok := pbemtest.RealStackFromEnv()
		if !ok {
			t.Skip(pbemtest.RealStackHowTo)
		}
		f(t, backend{real: true, stack: s})
	})
}

// servers is what a test needs of the mail servers.
type servers interface {
	// deliver puts raw into rcpt's INBOX as the receiving MTA would,
	// with envelope sender from ("" for <>), and returns once it is there.
	deliver(from, rcpt string, raw []byte) error
	// count returns how many mails are in user's INBOX.
	count(user string) (int, error)
	// messages returns the mails in user's INBOX.
	messages(user string) ([][]byte, error)
	// sent returns every mail the SMTP server accepted from the daemon.
	sent() []pbemtest.Mail
	// inFlight tells whether a mail the SMTP server accepted has not
	// reached its recipient's mailbox yet.
	inFlight() (bool, error)
}

// inProcess is pbemtest's pair: its sink stores each mail it accepts into
// the recipients' mailboxes before it answers, so nothing is in flight.
type inProcess struct{ *pbemtest.Server }

func (s inProcess) deliver(_, rcpt string, raw []byte) error { return s.Append(rcpt, "INBOX", raw) }
func (s inProcess) count(user string) (int, error) {
	m, err := s.Messages(user, "INBOX")
	return len(m), err
}
func (s inProcess) messages(user string) ([][]byte, error) { return s.Messages(user, "INBOX") }
func (s inProcess) sent() []pbemtest.Mail                  { return s.Sent() }
func (s inProcess) inFlight() (bool, error)                { return false, nil }

// realServers is Dovecot + Postfix: mail to the bot comes in over LMTP,
// the daemon's mail goes out through Postfix (recorded on the way by rec)
// and lands in the recipients' catch-all mailboxes.
type realServers struct {
	s   pbemtest.RealStack
	rec *pbemtest.Recorder
}

func (r realServers) deliver(from, rcpt string, raw []byte) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return r.s.Deliver(ctx, from, rcpt, raw)
}
func (r realServers) count(user string) (int, error) { return r.s.Count(mailbox(user), "INBOX") }
func (r realServers) messages(user string) ([][]byte, error) {
	return r.s.Messages(mailbox(user), "INBOX")
}

// mailbox is the Dovecot user that mail to addr is delivered to: its
// +detail is not part of the name (recipient_delimiter).
func mailbox(addr string) string {
	local, domain, _ := strings.Cut(addr, "@")
	if i := strings.IndexByte(local, '+'); i > 0 {
		local = local[:i]
	}
	return local + "@" + domain
}
func (r realServers) sent() []pbemtest.Mail { return r.rec.Sent() }

// inFlight compares, for every recipient, the mails Postfix accepted for
// it with the mails in its mailbox. Addresses are fresh per test, so a
// mailbox holds only this test's mail.
func (r realServers) inFlight() (bool, error) {
	want := map[string]int{}
	for _, m := range r.rec.Sent() {
		for _, a := range m.To {
			if strings.ContainsFunc(a, func(c rune) bool { return c > 0x7e }) {
				continue // no IMAP login for a non-ASCII address: not looked at
			}
			want[mailbox(strings.ToLower(a))]++
		}
	}
	for a, n := range want {
		got, err := r.s.Count(a, "INBOX")
		if err != nil {
			return false, err
		}
		if got < n {
			return true, nil
		}
	}
	return false, nil
}

// nonce makes account names unique per test, so runs can repeat against
// one long-lived stack and never see each other's mail.
func nonce() string { return fmt.Sprintf("%x%04x", time.Now().UnixNano()&0xffffffff, rand.IntN(1<<16)) }

// env is a daemon running against one backend's servers, with one toy
// game "g1" for ann and bob that never ends by itself.
type env struct {
	t     testing.TB
	real  bool
	stack pbemtest.RealStack // when real
	srv   servers
	st    *store.Store
	d     *daemon.Daemon
	g     *game.Game
	seen  int // mails of srv.sent() already looked at
	n     int
	// The addresses of this test: fixed in-process, fresh (with a nonce)
	// on the real servers.
	bot, ann, bob string
	sfx           string        // the nonce part of the addresses, "" in-process
	poll          time.Duration // how often waits look at the servers
	settleIn      time.Duration // the deadline of settle
	// handed is the size of the largest mail the daemon was handed.
	handed atomic.Int64
}

type envOptions struct {
	policy         policy.Config
	repliesPerHour int
	dns            pbemtest.DNS // sender authentication's DNS; nil: none at all
	// daemon and reader, when set, change the daemon's and the IMAP
	// reader's configuration before they start.
	daemon func(*daemon.Config)
	reader func(*imapin.Config)
}

func start(t testing.TB, b backend, o envOptions) *env {
	t.Helper()
	e := &env{t: t, real: b.real, stack: b.stack, poll: 15 * time.Millisecond, settleIn: 15 * time.Second}
	domain, password := "pbem.test", "pw"
	if b.real {
		// Postfix → Dovecot and IMAP logins are slower than memory:
		// look less often, wait longer.
		e.sfx, domain, password = "-"+nonce(), b.stack.Domain, pbemtest.RealStackPassword
		e.poll, e.settleIn = 50*time.Millisecond, 45*time.Second
	}
	e.bot, e.ann, e.bob = "orrery"+e.sfx+"@"+domain, e.addr("ann", "example.org"), e.addr("bob", "example.org")
	var imapAddr string
	var sender outbox.Sender
	if b.real {
		rec := &pbemtest.Recorder{Sender: &outbox.SMTP{Addr: b.stack.SMTP, TLS: "none", Timeout: 10 * time.Second}}
		e.srv, imapAddr, sender = realServers{s: b.stack, rec: rec}, b.stack.IMAP, rec
	} else {
		srv := pbemtest.StartT(t, pbemtest.Options{Users: map[string]string{e.bot: password}})
		e.srv, imapAddr, sender = inProcess{srv}, srv.IMAPAddr, &outbox.SMTP{Addr: srv.SMTPAddr, TLS: "none", Timeout: 10 * time.Second}
	}
	// The store ORRERY_TEST_STORE names (bbolt by default): scripts/test
	// runs the bounce and budget cases again on PostgreSQL.
	st := storetest.Open(t, storetest.Default())
	e.st = st
	log := slog.New(slog.DiscardHandler)
	if os.Getenv("HOSTILE_LOG") != "" {
		log = slog.New(slog.NewTextHandler(os.Stderr, nil))
	}
	q := outbox.New(st, sender, outbox.Options{MinBackoff: 20 * time.Millisecond, MaxBackoff: 200 * time.Millisecond, Logger: log})
	cfg := daemon.Config{From: "Orrery <" + e.bot + ">", Logger: log,
		Policy: o.policy, Resolver: o.dns, RepliesPerHour: o.repliesPerHour, TickEvery: time.Hour}
	if o.daemon != nil {
		o.daemon(&cfg)
	}
	d, err := daemon.New(st, []engine.Ruleset{toy.Ruleset()}, q, cfg)
	if err != nil {
		t.Fatal(err)
	}
	e.d = d
	g, err := d.Service().Create(context.Background(), game.CreateRequest{ID: "g1", Ruleset: "toy",
		Players: []game.PlayerSpec{{Name: "ann", Email: e.ann}, {Name: "bob", Email: e.bob}},
		Options: map[string]string{"finish": "1000000"}})
	if err != nil {
		t.Fatal(err)
	}
	e.g = g
	rc := imapin.Config{Addr: imapAddr, TLS: "none", Poll: true, PollInterval: e.poll - 5*time.Millisecond,
		MinBackoff: 10 * time.Millisecond, MaxBackoff: 100 * time.Millisecond, Logger: log,
		Credentials: func(context.Context) (string, string, error) { return e.bot, password, nil }}
	if o.reader != nil {
		o.reader(&rc)
	}
	r := imapin.New(rc)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	// The daemon's own loop (Daemon.Run: the outbox's worker and the
	// reader), with the handler watched: the largest mail it was handed
	// shows whether a mail was fetched whole.
	go func() {
		qdone := make(chan struct{})
		go func() { q.Run(ctx); close(qdone) }()
		r.Run(ctx, func(ctx context.Context, m imapin.Message) (imapin.Disposition, error) {
			e.handed.Store(max(e.handed.Load(), int64(len(m.Raw))))
			return d.Handle(ctx, m)
		})
		<-qdone
		close(done)
	}()
	t.Cleanup(func() { cancel(); <-done }) // storetest closes st after this
	e.settle()
	e.take() // the welcome mails
	return e
}

// addr is an address of this test: local@domain, made fresh on the real
// servers.
func (e *env) addr(local, domain string) string { return local + e.sfx + "@" + domain }

// tagged is local+tag@domain, made fresh (the nonce before the tag).
func (e *env) tagged(local, tag, domain string) string {
	return local + e.sfx + "+" + tag + "@" + domain
}

func (e *env) secret(name string) string {
	p, _ := e.g.PlayerByName(name)
	return p.Secret
}

// msg builds a plain mail to the bot; hdr are extra header lines.
func (e *env) msg(from, subject, body string, hdr ...string) (id string, raw []byte) {
	e.n++
	id = fmt.Sprintf("h%d-%d@example.org", e.n, time.Now().UnixNano())
	h := strings.Join(hdr, "\r\n")
	if h != "" {
		h += "\r\n"
	}
	return id, fmt.Appendf(nil, "From: %s\r\nTo: %s\r\nSubject: %s\r\nMessage-ID: <%s>\r\nDate: %s\r\n%sContent-Type: text/plain; charset=utf-8\r\n\r\n%s\r\n",
		from, e.bot, subject, id, time.Now().Format(time.RFC1123Z), h, strings.ReplaceAll(body, "\n", "\r\n"))
}

// deliver puts raw into the bot's inbox, with the address of its From as
// the envelope sender.
func (e *env) deliver(raw []byte) {
	e.t.Helper()
	from := "player@example.org"
	if m, err := mail.ReadMessage(bytes.NewReader(raw)); err == nil {
		if a, err := mail.ParseAddress(m.Header.Get("From")); err == nil {
			from = a.Address
		}
	}
	e.deliverFrom(from, raw)
}

func (e *env) deliverFrom(from string, raw []byte) {
	e.t.Helper()
	if err := e.srv.deliver(from, e.bot, raw); err != nil {
		e.t.Fatalf("delivering a mail to the bot: %v", err)
	}
}

// settle waits until the bot's inbox is empty, its outbox has sent
// everything and the servers have delivered it: the daemon has handled all
// mail and said all it will say, and its recipients have it.
func (e *env) settle() {
	e.t.Helper()
	deadline := time.Now().Add(e.settleIn)
	quiet := 0
	var err error
	for time.Now().Before(deadline) {
		var in int
		var c outbox.Stats
		var flying bool
		in, err = e.srv.count(e.bot)
		if err == nil {
			c, err = outbox.Count(e.st)
		}
		if err == nil && in == 0 && c.Queued == 0 {
			flying, err = e.srv.inFlight()
		}
		if err == nil && in == 0 && c.Queued == 0 && !flying {
			if quiet++; quiet >= 3 {
				return
			}
		} else {
			quiet = 0
		}
		time.Sleep(e.poll)
	}
	e.t.Fatalf("the daemon did not settle within %v (last error: %v)", e.settleIn, err)
}

// out is a mail the daemon sent, parsed.
type out struct {
	to      []string
	head    mail.Header
	rawHead string
	raw     string // the body as sent, MIME parts and all
	body    string
	n       int // bytes of the whole mail
}

// take returns the mails sent since the last take.
func (e *env) take() []out {
	e.t.Helper()
	all := e.srv.sent()
	var res []out
	for _, m := range all[e.seen:] {
		pm, err := mail.ReadMessage(bytes.NewReader(m.Data))
		if err != nil {
			e.t.Fatalf("the daemon sent an unreadable mail: %v", err)
		}
		rawHead, rawBody, _ := strings.Cut(string(m.Data), "\r\n\r\n")
		body := ""
		if im, err := inmail.Parse(m.Data, inmail.Options{}); err == nil {
			body = im.Body
		}
		res = append(res, out{to: m.To, head: pm.Header, rawHead: rawHead, raw: rawBody, body: body, n: len(m.Data)})
	}
	e.seen = len(all)
	return res
}

func to(ms []out, addr string) []out {
	var res []out
	for _, m := range ms {
		for _, r := range m.to {
			if strings.EqualFold(r, addr) {
				res = append(res, m)
			}
		}
	}
	return res
}

func subjects(ms []out) []string {
	var s []string
	for _, m := range ms {
		s = append(s, m.head.Get("Subject"))
	}
	return s
}

// applied counts the accepted orders in the game log that came from the
// mail with this Message-ID (refused submissions are logged too, as kind
// "rejected", and do not count).
func (e *env) applied(id string) int {
	e.t.Helper()
	x, err := e.d.Service().Export(context.Background(), "g1")
	if err != nil {
		e.t.Fatal(err)
	}
	return pbemtest.Applied(x)[id]
}

// nothingApplied fails unless the game is as it was: no orders in, no step
// resolved, no log entry from id.
func (e *env) nothingApplied(id string) {
	e.t.Helper()
	if n := e.applied(id); id != "" && n != 0 {
		e.t.Errorf("mail %s is in the game log %d times", id, n)
	}
	g, err := e.d.Service().Get(context.Background(), "g1")
	if err != nil {
		e.t.Fatal(err)
	}
	if len(g.Answered) != 0 || g.Step != e.g.Step {
		e.t.Errorf("game changed: answered %v, step %d (was %d)", g.Answered, g.Step, e.g.Step)
	}
}

// expectOne checks that exactly one mail went out, to addr, with a subject
// containing want.
func expectOne(t testing.TB, ms []out, addr, want string) out {
	t.Helper()
	if len(ms) != 1 || len(to(ms, addr)) != 1 {
		t.Fatalf("want one mail to %s, got %d: %v to %v", addr, len(ms), subjects(ms), recipients(ms))
	}
	if s := ms[0].head.Get("Subject"); !strings.Contains(s, want) {
		t.Errorf("subject %q, want it to say %q", s, want)
	}
	return ms[0]
}

func recipients(ms []out) [][]string {
	var r [][]string
	for _, m := range ms {
		r = append(r, m.to)
	}
	return r
}

func TestForgedFromWithoutSecret(t *testing.T) { both(t, testForgedFromWithoutSecret) }

func testForgedFromWithoutSecret(t *testing.T, b backend) {
	e := start(t, b, envOptions{})
	id, raw := e.msg("Ann <"+e.ann+">", "[g1] my orders", "PUSH 3")
	e.deliver(raw)
	e.settle()
	// The answer goes to the registered address, which is the real ann:
	// she learns that a mail without her secret came in her name.
	expectOne(t, e.take(), e.ann, "secret is missing")
	e.nothingApplied(id)
}

// Whoever knows ann's address and secret can act for her unless the
// receiving server vouches for the sender: with sender_auth strict, a forged
// From (spf=fail, or no verdict of our server at all, a verdict the sender
// wrote himself below our server's, a pass for another domain) is silently
// dropped; the genuine mail is applied.
func TestForgedFromWithSecret(t *testing.T) { both(t, testForgedFromWithSecret) }

func testForgedFromWithSecret(t *testing.T, b backend) {
	e := start(t, b, envOptions{policy: policy.Config{AuthServID: authServ, SenderAuth: policy.AuthStrict}, dns: pbemtest.DNS{}})
	subj := "[g1 " + e.secret("ann") + "] orders"
	for _, c := range []struct{ name, hdr string }{
		{"spf fail", "Authentication-Results: " + authServ + "; spf=fail smtp.mailfrom=" + e.ann},
		{"no verdict", ""},
		{"verdict by another server", "Authentication-Results: mx.evil.example; spf=pass smtp.mailfrom=" + e.ann},
		{"a pass the sender wrote below our server's fail", "Authentication-Results: " + authServ + "; spf=fail smtp.mailfrom=" + e.ann +
			"\r\nAuthentication-Results: " + authServ + "; spf=pass smtp.mailfrom=" + e.ann},
		{"our server's pass for another domain", "Authentication-Results: " + authServ + "; spf=pass smtp.mailfrom=x@evil.example; dkim=pass header.d=evil.example"},
	} {
		var hdr []string
		if c.hdr != "" {
			hdr = append(hdr, c.hdr)
		}
		id, raw := e.msg("Ann <"+e.ann+">", subj, "PUSH 3", hdr...)
		e.deliver(raw)
		e.settle()
		if ms := e.take(); len(ms) != 0 {
			t.Errorf("%s: answered a forged mail: %v to %v", c.name, subjects(ms), recipients(ms))
		}
		e.nothingApplied(id)
	}
	// The control: the same mail vouched for by our server is applied, so
	// the silence above is the check at work, not a broken set-up.
	id, raw := e.msg("Ann <"+e.ann+">", subj, "PUSH 3", "Authentication-Results: "+authServ+"; spf=pass smtp.mailfrom="+e.ann)
	e.deliver(raw)
	e.settle()
	expectOne(t, e.take(), e.ann, "")
	if n := e.applied(id); n != 1 {
		t.Errorf("the genuine mail was applied %d times", n)
	}
}

// A mail seen before (the same Message-ID, delivered again, even much
// later and with another UID) is filed, not applied or answered again.
func TestReplayedOldMail(t *testing.T) { both(t, testReplayedOldMail) }

func testReplayedOldMail(t *testing.T, b backend) {
	e := start(t, b, envOptions{})
	id, raw := e.msg(e.ann, "[g1 "+e.secret("ann")+"] orders", "PUSH 2")
	e.deliver(raw)
	e.settle()
	expectOne(t, e.take(), e.ann, "")
	// Bob's orders resolve the turn; then ann's old mail comes again.
	_, rawBob := e.msg(e.bob, "[g1 "+e.secret("bob")+"] orders", "PUSH 1")
	e.deliver(rawBob)
	e.settle()
	e.take()
	for range 3 {
		e.deliver(raw)
	}
	e.settle()
	if ms := e.take(); len(ms) != 0 {
		t.Errorf("a replayed mail was answered: %v", subjects(ms))
	}
	if n := e.applied(id); n != 1 {
		t.Errorf("the mail is in the game log %d times, want 1", n)
	}
	g, _ := e.d.Service().Get(context.Background(), "g1")
	if len(g.Answered) != 0 {
		t.Errorf("the replay was taken as orders for the new turn: %v", g.Answered)
	}
}

func TestAnotherPlayersSecret(t *testing.T) { both(t, testAnotherPlayersSecret) }

func testAnotherPlayersSecret(t *testing.T, b backend) {
	e := start(t, b, envOptions{})
	mallory := e.addr("mallory", "evil.example")
	// Bob, registered, uses ann's secret: told it is wrong.
	id, raw := e.msg(e.bob, "[g1 "+e.secret("ann")+"] orders", "PUSH 3")
	e.deliver(raw)
	e.settle()
	expectOne(t, e.take(), e.bob, "Wrong secret")
	e.nothingApplied(id)
	// A stranger with ann's secret: told the address is not in the game,
	// and ann is warned that someone has her secret.
	id, raw = e.msg(mallory, "[g1 "+e.secret("ann")+"] orders", "PUSH 3")
	e.deliver(raw)
	e.settle()
	ms := e.take()
	if len(to(ms, mallory)) != 1 || len(to(ms, e.ann)) != 1 || len(ms) != 2 {
		t.Fatalf("want one reply to mallory and one warning to ann, got %v to %v", subjects(ms), recipients(ms))
	}
	if s := to(ms, e.ann)[0].head.Get("Subject"); !strings.Contains(s, "Warning") {
		t.Errorf("ann's warning: %q", s)
	}
	if w := to(ms, mallory)[0].body; strings.Contains(w, e.secret("bob")) {
		t.Errorf("the answer to a stranger shows bob's secret")
	}
	e.nothingApplied(id)
}

// converse plays an out-of-office robot at addr: each time the daemon has
// settled, the robot answers every mail the bot sent it since (its
// welcome mail aside), with hdr among the headers, and the daemon reads
// the answers. It stops when the bot has written nothing new, and returns
// how many answers the robot sent; after rounds rounds still talking it
// fails the test (a loop the bot does not end).
func (e *env) converse(addr string, hdr []string, rounds int) int {
	e.t.Helper()
	first, _ := e.srv.messages(addr)
	answered, sent := len(first), 0 // the welcome mail is not the robot's business
	for range rounds {
		e.settle()
		msgs, err := e.srv.messages(addr)
		if err != nil {
			e.t.Fatalf("the robot's mailbox: %v", err)
		}
		if len(msgs) <= answered {
			return sent
		}
		for _, m := range msgs[answered:] {
			pm, err := mail.ReadMessage(bytes.NewReader(m))
			if err != nil {
				continue
			}
			e.n++
			raw := fmt.Appendf(nil, "From: %s\r\nTo: %s\r\nSubject: Auto: %s\r\nMessage-ID: <auto%d-%d@example.org>\r\nIn-Reply-To: %s\r\n%sContent-Type: text/plain\r\n\r\nI am away until Monday.\r\n",
				addr, e.bot, pm.Header.Get("Subject"), e.n, time.Now().UnixNano(), pm.Header.Get("Message-Id"), strings.Join(append(hdr, ""), "\r\n"))
			if err := e.srv.deliver(addr, e.bot, raw); err != nil {
				e.t.Fatalf("the robot's answer: %v", err)
			}
			sent++
		}
		answered = len(msgs)
	}
	e.t.Fatalf("after %d rounds the bot still writes to the robot at %s: a mail loop", rounds, addr)
	return sent
}

func TestAutoresponderDoesNotLoop(t *testing.T) { both(t, testAutoresponderDoesNotLoop) }

func testAutoresponderDoesNotLoop(t *testing.T, b backend) {
	const cap = 6
	e := start(t, b, envOptions{repliesPerHour: cap})
	cases := []struct {
		name, addr string
		hdr        []string
		max        int // replies the bot may send to addr
	}{
		// RFC 3834 robots mark their mail: the bot never answers them.
		{"compliant, a player", e.ann, []string{"Auto-Submitted: auto-replied"}, 1},
		// An unmarked robot at a stranger's address gets the one
		// stranger's reply of the day, then silence.
		{"unmarked, a stranger", e.addr("away", "example.org"), nil, 1},
		// An unmarked robot at a player's address: the hourly cap ends it.
		{"unmarked, a player", e.bob, nil, cap},
	}
	for _, c := range cases {
		secret := ""
		if c.addr == e.ann {
			secret = " " + e.secret("ann")
		} else if c.addr == e.bob {
			secret = " " + e.secret("bob")
		}
		_, raw := e.msg(c.addr, "[g1"+secret+"] orders", "PUSH 9") // an error: the bot answers
		e.deliver(raw)
		robot := e.converse(c.addr, c.hdr, 3*cap)
		got := len(to(e.take(), c.addr))
		t.Logf("%s: the bot sent %d, the robot %d", c.name, got, robot)
		if got > c.max || got == 0 {
			t.Errorf("%s: the bot sent %d mails to the robot, want 1..%d", c.name, got, c.max)
		}
		if robot > got {
			t.Errorf("%s: the robot answered %d mails but got %d", c.name, robot, got)
		}
	}
	e.nothingApplied("")
}

// A storm of bounces (null sender, mailer-daemon, a DSN quoting ann's
// orders with her secret) gets no answer at all and applies nothing.
func TestBounceStorm(t *testing.T) { both(t, testBounceStorm) }

func testBounceStorm(t *testing.T, b backend) {
	e := start(t, b, envOptions{})
	const storm = 150
	var ids []string
	t0 := time.Now()
	for i := range storm {
		e.n++
		id := fmt.Sprintf("bounce%d-%d@mx.example.org", i, time.Now().UnixNano())
		ids = append(ids, id)
		from := "MAILER-DAEMON@mx.example.org (Mail Delivery System)"
		if i%2 == 1 {
			from = "postmaster@example.org"
		}
		// In-process, the mail carries the Return-Path: <> a receiving
		// server writes for the null sender; Dovecot writes it itself
		// from the envelope sender of the LMTP delivery.
		returnPath := "Return-Path: <>\r\n"
		if e.real {
			returnPath = ""
		}
		raw := fmt.Appendf(nil, "%sFrom: %s\r\nTo: %s\r\nSubject: Undelivered Mail Returned to Sender\r\nMessage-ID: <%s>\r\n"+
			"MIME-Version: 1.0\r\nContent-Type: multipart/report; report-type=delivery-status; boundary=\"b\"\r\n\r\n"+
			"--b\r\nContent-Type: text/plain\r\n\r\nThis is the mail system. Your mail could not be delivered.\r\n"+
			"--b\r\nContent-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; mx.example.org\r\n\r\nFinal-Recipient: rfc822; %s\r\nAction: failed\r\nStatus: 5.1.1\r\n"+
			"--b\r\nContent-Type: message/rfc822\r\n\r\nFrom: %s\r\nTo: %s\r\nSubject: [g1 %s] orders\r\n\r\nPUSH 3\r\n--b--\r\n",
			returnPath, from, e.bot, id, e.ann, e.bot, e.ann, e.secret("ann"))
		e.deliverFrom("", raw)
	}
	e.settle()
	t.Logf("%d bounces handled in %v", storm, time.Since(t0).Round(time.Millisecond))
	if ms := e.take(); len(ms) != 0 {
		t.Errorf("answered bounces: %d mails, %v", len(ms), subjects(ms[:min(3, len(ms))]))
	}
	for _, id := range ids[:3] {
		e.nothingApplied(id)
	}
	e.nothingApplied("")
}

// A copy of ann's orders that went through a mailing list (List-Id,
// Precedence: list) is not applied and not answered: the list would
// forward the answer to everyone, and ann's own copy is the one that
// counts.
func TestMailingListCopy(t *testing.T) { both(t, testMailingListCopy) }

func testMailingListCopy(t *testing.T, b backend) {
	e := start(t, b, envOptions{})
	subj := "[g1 " + e.secret("ann") + "] orders"
	for _, hdr := range [][]string{
		{"List-Id: Game players <players.lists.example.org>", "Sender: players-bounces@lists.example.org"},
		{"Precedence: list"},
	} {
		id, raw := e.msg("Ann via players <"+e.ann+">", subj, "PUSH 3", hdr...)
		e.deliver(raw)
		e.settle()
		if ms := e.take(); len(ms) != 0 {
			t.Errorf("%v: answered a list copy: %v", hdr, subjects(ms))
		}
		e.nothingApplied(id)
	}
}

func (e *env) multipart(from, subject, id string, parts ...string) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "From: %s\r\nTo: %s\r\nSubject: %s\r\nMessage-ID: <%s>\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"outer\"\r\n\r\n", from, e.bot, subject, id)
	for _, p := range parts {
		b.WriteString("--outer\r\n" + p + "\r\n")
	}
	b.WriteString("--outer--\r\n")
	return []byte(b.String())
}

func base64Lines(data []byte) string {
	enc := base64.StdEncoding.EncodeToString(data)
	var b strings.Builder
	for len(enc) > 76 {
		b.WriteString(enc[:76] + "\r\n")
		enc = enc[76:]
	}
	b.WriteString(enc)
	return b.String()
}

// A 10 MB binary attachment is ignored: the orders in the text are applied
// (issue 3: attachments are ignored unless they are text orders). A 10 MB
// text attachment is more text than the daemon reads: the oversize answer,
// nothing applied.
//
// On the real servers both mails are first offered to Postfix, as a remote
// MTA would: they are past its message_size_limit (10,240,000 bytes in
// scripts/mailstack.sh, a common provider limit), so Postfix refuses them
// with 552 and the daemon never sees them: no answer, nothing applied.
// Then they come in over LMTP, as from an MX with a larger limit, and get
// the in-process answers.
func TestTenMegabyteAttachments(t *testing.T) { both(t, testTenMegabyteAttachments) }

func testTenMegabyteAttachments(t *testing.T, b backend) {
	e := start(t, b, envOptions{})
	big := bytes.Repeat([]byte("0123456789abcdef"), 10<<20/16)
	id := fmt.Sprintf("big1-%d@example.org", time.Now().UnixNano())
	raw := e.multipart(e.ann, "[g1 "+e.secret("ann")+"] orders", id,
		"Content-Type: text/plain; charset=utf-8\r\n\r\nPUSH 2\r\n",
		"Content-Type: application/octet-stream; name=\"photo.bin\"\r\nContent-Disposition: attachment; filename=\"photo.bin\"\r\nContent-Transfer-Encoding: base64\r\n\r\n"+base64Lines(big))
	e.postfixRefusesTooBig(id, raw)
	e.deliver(raw)
	e.settle()
	expectOne(t, e.take(), e.ann, "")
	if n := e.applied(id); n != 1 {
		t.Errorf("orders beside a binary attachment applied %d times, want 1", n)
	}
	e2 := start(t, b, envOptions{})
	id = fmt.Sprintf("big2-%d@example.org", time.Now().UnixNano())
	text := strings.Repeat("# padding line of a huge orders file\r\n", 10<<20/38)
	raw = e2.multipart(e2.ann, "[g1 "+e2.secret("ann")+"] orders", id,
		"Content-Type: text/plain; charset=utf-8\r\n\r\nsee the attachment\r\n",
		"Content-Type: text/plain; name=\"orders.txt\"\r\nContent-Disposition: attachment; filename=\"orders.txt\"\r\n\r\nPUSH 2\r\n"+text)
	e2.postfixRefusesTooBig(id, raw)
	e2.deliver(raw)
	e2.settle()
	expectOne(t, e2.take(), e2.ann, "too large")
	e2.nothingApplied(id)
}

// postfixRefusesTooBig offers raw to Postfix, on the real servers only,
// and checks that Postfix refuses it for its size (552, RFC 5321's
// "exceeded storage allocation") and that the daemon neither answers nor
// applies anything.
func (e *env) postfixRefusesTooBig(id string, raw []byte) {
	e.t.Helper()
	if !e.real {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	err := e.stack.Submit(ctx, e.ann, e.bot, raw)
	var se *smtp.SMTPError
	if !errors.As(err, &se) || se.Code != 552 {
		e.t.Errorf("Postfix's answer to a %d-byte mail: %v; want 552 (message_size_limit)", len(raw), err)
	} else {
		e.t.Logf("Postfix refused the %d-byte mail: %v", len(raw), err)
	}
	e.settle()
	if ms := e.take(); len(ms) != 0 {
		e.t.Errorf("a mail Postfix refused was answered: %v to %v", subjects(ms), recipients(ms))
	}
	e.nothingApplied(id)
}

func TestBrokenMIME(t *testing.T) { both(t, testBrokenMIME) }

func testBrokenMIME(t *testing.T, b backend) {
	cases := []struct{ name, head, body string }{
		{"no closing boundary", "Content-Type: multipart/mixed; boundary=\"x\"", "--x\r\nContent-Type: text/plain\r\n\r\nPUSH 3\r\n"},
		{"boundary never used", "Content-Type: multipart/mixed; boundary=\"nowhere\"", "PUSH 3\r\n"},
		{"no boundary parameter", "Content-Type: multipart/mixed", "--x\r\n\r\nPUSH 3\r\n--x--\r\n"},
		{"bad base64", "Content-Type: text/plain\r\nContent-Transfer-Encoding: base64", "UFVTSCAz!!!!%%%%\r\n****\r\n"},
		{"bad quoted-printable", "Content-Type: text/plain\r\nContent-Transfer-Encoding: quoted-printable", "PUSH =ZZ3=\r\n=4"},
		{"garbage content type", "Content-Type: ;;;===///", "PUSH 3\r\n"},
		{"unknown encoding", "Content-Type: text/plain\r\nContent-Transfer-Encoding: x-rot13", "CHFU 3\r\n"},
	}
	e := start(t, b, envOptions{})
	for _, c := range cases {
		id := e.deliverMIME("broken", c.head, c.body)
		e.settle()
		ms := e.take()
		// Exactly one answer, to ann (bad input gets a clear answer);
		// whatever the daemon made of the mail, a game step must not
		// have come of it.
		if len(ms) != 1 || len(to(ms, e.ann)) != 1 {
			t.Errorf("%s: %d mails: %v to %v", c.name, len(ms), subjects(ms), recipients(ms))
		}
		n := e.applied(id)
		t.Logf("%s: answer %v, applied %d", c.name, subjects(ms), n)
		if s := subjects(ms); len(s) == 1 && !strings.HasPrefix(s[0], "[g1") {
			t.Errorf("%s: the answer %q lost the game's tag, so it does not thread with the game", c.name, s[0])
		}
		if n > 0 {
			// Applied means read as orders and accepted; then ann's
			// seat is answered and the next case starts a new turn.
			// Only PUSH 3 may have been read.
			g, _ := e.d.Service().Get(context.Background(), "g1")
			if len(g.Answered) > 1 {
				t.Errorf("%s: answered %v", c.name, g.Answered)
			}
			e.deliver(e.msg2(e.bob, "[g1 "+e.secret("bob")+"] orders", "PUSH 1"))
			e.settle()
			e.take()
			e.g, _ = e.d.Service().Get(context.Background(), "g1")
		}
	}
}

// deliverMIME delivers to the bot ann's orders mail with the MIME
// headers head (after MIME-Version: 1.0) and the raw body, and returns its
// Message-ID, which starts with prefix.
func (e *env) deliverMIME(prefix, head, body string) (id string) {
	e.n++
	id = fmt.Sprintf("%s%d-%d@example.org", prefix, e.n, time.Now().UnixNano())
	e.deliver(fmt.Appendf(nil, "From: %s\r\nTo: %s\r\nSubject: [g1 %s] orders\r\nMessage-ID: <%s>\r\nMIME-Version: 1.0\r\n%s\r\n\r\n%s", e.ann, e.bot, e.secret("ann"), id, head, body))
	return id
}

func (e *env) msg2(from, subject, body string) []byte {
	_, raw := e.msg(from, subject, body)
	return raw
}

// Multiparts nested far deeper than any client writes: the daemon neither
// crashes nor hangs, reads no orders from below its depth limit, and
// answers once.
func TestDeeplyNestedMultiparts(t *testing.T) { both(t, testDeeplyNestedMultiparts) }

func testDeeplyNestedMultiparts(t *testing.T, b backend) {
	e := start(t, b, envOptions{})
	for _, depth := range []int{20, 1000} {
		var m strings.Builder
		for i := 1; i < depth; i++ {
			fmt.Fprintf(&m, "--b%d\r\nContent-Type: multipart/mixed; boundary=\"b%d\"\r\n\r\n", i-1, i)
		}
		fmt.Fprintf(&m, "--b%d\r\nContent-Type: text/plain\r\n\r\nPUSH 3\r\n--b%d--\r\n", depth-1, depth-1)
		for i := depth - 2; i >= 0; i-- {
			fmt.Fprintf(&m, "--b%d--\r\n", i)
		}
		t0 := time.Now()
		id := e.deliverMIME(fmt.Sprintf("nest%d-", depth), "Content-Type: multipart/mixed; boundary=\"b0\"", m.String())
		e.settle()
		ms := e.take()
		t.Logf("depth %d: %v in %v", depth, subjects(ms), time.Since(t0).Round(time.Millisecond))
		if len(ms) != 1 || len(to(ms, e.ann)) != 1 {
			t.Errorf("depth %d: want one answer to ann, got %v to %v", depth, subjects(ms), recipients(ms))
		}
		e.nothingApplied(id)
	}
}

// Invalid or unknown charsets: the mail is either read (as UTF-8 or
// Latin-1, and then its orders count) or refused with an answer; never
// silently lost, never more than one answer.
func TestInvalidCharsets(t *testing.T) { both(t, testInvalidCharsets) }

func testInvalidCharsets(t *testing.T, b backend) {
	cases := []struct{ name, ct, body string }{
		{"unknown charset", "text/plain; charset=x-no-such-charset", "PUSH 9\r\n"},
		{"invalid utf-8 bytes", "text/plain; charset=utf-8", "PUSH 9 \xff\xfe\xc3\x28\r\n"},
		{"utf-7", "text/plain; charset=utf-7", "PUSH 9 +AGEAYgBj-\r\n"},
		{"charset with quotes and junk", "text/plain; charset=\"utf-8\\\"; x=\"", "PUSH 9\r\n"},
	}
	e := start(t, b, envOptions{})
	for _, c := range cases {
		// PUSH 9 is out of range: accepted orders would be a bug of the
		// ruleset; an answer is expected either way.
		id := e.deliverMIME("cs", "Content-Type: "+c.ct, c.body)
		e.settle()
		ms := e.take()
		t.Logf("%s: %v", c.name, subjects(ms))
		if len(ms) != 1 || len(to(ms, e.ann)) != 1 {
			t.Errorf("%s: want one answer to ann, got %v to %v", c.name, subjects(ms), recipients(ms))
		}
		e.nothingApplied(id)
	}
}

// Header injection: names and subjects carrying encoded line breaks and
// header lines. The daemon's answers (which quote the subject, and the
// From in ann's warning) must not grow extra headers or recipients.
func TestHeaderInjection(t *testing.T) { both(t, testHeaderInjection) }

func testHeaderInjection(t *testing.T, b backend) {
	e := start(t, b, envOptions{})
	mallory := e.addr("mallory", "evil.example")
	inject := "=?utf-8?q?x=0D=0ABcc:_victim@evil.example=0D=0AX-Injected:_yes?="
	injectB := "=?utf-8?b?" + base64.StdEncoding.EncodeToString([]byte("y\r\nBcc: victim@evil.example\nX-Injected: yes")) + "?="
	var qp bytes.Buffer
	w := quotedprintable.NewWriter(&qp)
	io.WriteString(w, "z\r\nX-Injected: yes")
	w.Close()
	cases := []struct{ name, from, subject string }{
		{"subject, q-encoded", e.ann, "[g1 " + e.secret("ann") + "] " + inject},
		{"subject, b-encoded, orders refused", e.ann, "[g1 " + e.secret("ann") + "] " + injectB},
		{"display name, wrong secret", "\"" + inject + "\" <" + e.ann + ">", "[g1 nosuchsecret] hi " + injectB},
		{"stranger with ann's secret (warning quotes From)", injectB + " <" + mallory + ">", "[g1 " + e.secret("ann") + "] " + inject},
		{"raw CR in subject", e.ann, "[g1] a\rBcc: victim@evil.example"},
	}
	// The victim's address is the attacker's, not fresh: count what its
	// mailbox holds before.
	victims, err := e.srv.count("victim@evil.example")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		id, raw := e.msg(c.from, c.subject, "PUSH 9\nMOTTO "+inject)
		e.deliver(raw)
		e.settle()
		ms := e.take()
		if len(ms) == 0 {
			t.Errorf("%s: no answer", c.name)
		}
		for _, m := range ms {
			for _, r := range m.to {
				if strings.Contains(r, "victim") {
					t.Errorf("%s: mail sent to %s", c.name, r)
				}
			}
			for _, line := range strings.Split(m.rawHead, "\n") {
				l := strings.ToLower(strings.TrimSpace(line))
				if strings.HasPrefix(l, "bcc:") || strings.HasPrefix(l, "x-injected:") {
					t.Errorf("%s: injected header line %q in a mail to %v", c.name, line, m.to)
				}
			}
			if strings.Contains(m.rawHead, "\r\r") || strings.Contains(strings.ReplaceAll(m.rawHead, "\r\n", ""), "\r") || strings.Contains(strings.ReplaceAll(m.rawHead, "\r\n", ""), "\n") {
				t.Errorf("%s: a bare CR or LF in the header of a mail to %v", c.name, m.to)
			}
		}
		e.nothingApplied(id)
	}
	if e.real {
		// What the recipients' mailboxes hold is what Postfix made of
		// the answers: no injected line there either, and nothing for
		// the victim.
		for _, a := range []string{e.ann, mallory} {
			msgs, err := e.srv.messages(a)
			if err != nil {
				t.Fatal(err)
			}
			for _, raw := range msgs {
				head, _, _ := strings.Cut(string(raw), "\r\n\r\n")
				for _, line := range strings.Split(head, "\n") {
					l := strings.ToLower(strings.TrimSpace(line))
					if strings.HasPrefix(l, "bcc:") || strings.HasPrefix(l, "x-injected:") {
						t.Errorf("injected header line %q in a mail delivered to %s", line, a)
					}
				}
			}
		}
		if n, err := e.srv.count("victim@evil.example"); err != nil || n != victims {
			t.Errorf("victim@evil.example's mailbox went from %d to %d mails (%v)", victims, n, err)
		}
	}
}

// Orders of 10,000 lines: one answer, of bounded size, saying that no
// more than 1,000 lines are read; nothing applied. (The time it takes is logged; speed is measured by the
// benchmarks, not asserted here.)
func TestTenThousandLines(t *testing.T) { both(t, testTenThousandLines) }

func testTenThousandLines(t *testing.T, b backend) {
	e := start(t, b, envOptions{})
	var lines strings.Builder
	for i := range 10000 {
		fmt.Fprintf(&lines, "PUSH %d\n", 1+i%3)
	}
	id, raw := e.msg(e.ann, "[g1 "+e.secret("ann")+"] orders", lines.String())
	t0 := time.Now()
	e.deliver(raw)
	e.settle()
	took := time.Since(t0)
	m := expectOne(t, e.take(), e.ann, "")
	t.Logf("10,000 lines (%d bytes) answered in %v; the answer's text has %d bytes", len(raw), took.Round(time.Millisecond), len(m.body))
	if !strings.Contains(m.body, "holds 10000 lines of orders; I read at most 1000") {
		t.Errorf("the answer does not say that the mail is too long:\n%s", m.body)
	}
	e.nothingApplied(id)
}
