// Package hostile sends the mail daemon the mail an attacker, a broken
// client or a misconfigured robot sends, through the in-process servers of
// pbem/pbemtest and the daemon's real loop (imapin reading, outbox
// sending), and checks that each gets its documented answer or silence and
// that nothing is applied to the game. It is the fast part of the soak
// harness (issue 8); pbem/soak runs the rest against Dovecot and Postfix.
package hostile

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"log/slog"
	"mime/quotedprintable"
	"net/mail"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"orrery/engine"
	"orrery/engine/enginetest/toy"
	"orrery/engine/game"
	"orrery/engine/store"
	"orrery/pbem/daemon"
	"orrery/pbem/imapin"
	"orrery/pbem/inmail"
	"orrery/pbem/outbox"
	"orrery/pbem/pbemtest"
	"orrery/pbem/policy"
)

const (
	bot = "orrery@pbem.test"
	ann = "ann@example.org"
	bob = "bob@example.org"
	// authServ is the authserv-id our (pretend) receiving server writes.
	authServ = "mx.pbem.test"
)

// env is a daemon running against in-process servers, with one toy game
// "g1" for ann and bob that never ends by itself.
type env struct {
	t    *testing.T
	srv  *pbemtest.Server
	st   *store.Store
	d    *daemon.Daemon
	g    *game.Game
	seen int // mails of srv.Sent() already looked at
	n    int
}

type envOptions struct {
	policy         policy.Config
	repliesPerHour int
}

func start(t *testing.T, o envOptions) *env {
	t.Helper()
	srv := pbemtest.StartT(t, pbemtest.Options{Users: map[string]string{bot: "pw"}})
	st, err := store.Open(filepath.Join(t.TempDir(), "db"), store.Options{Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.DiscardHandler)
	q := outbox.New(st.DB(), &outbox.SMTP{Addr: srv.SMTPAddr, TLS: "none", Timeout: 10 * time.Second}, outbox.Options{MinBackoff: 20 * time.Millisecond, MaxBackoff: 200 * time.Millisecond, Logger: log})
	d, err := daemon.New(st, []engine.Ruleset{toy.Ruleset()}, q, daemon.Config{From: "Orrery <" + bot + ">", Logger: log,
		Policy: o.policy, RepliesPerHour: o.repliesPerHour, TickEvery: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	g, err := d.Service().Create(context.Background(), game.CreateRequest{ID: "g1", Ruleset: "toy",
		Players: []game.PlayerSpec{{Name: "ann", Email: ann}, {Name: "bob", Email: bob}},
		Options: map[string]string{"finish": "1000000"}})
	if err != nil {
		t.Fatal(err)
	}
	r := imapin.New(imapin.Config{Addr: srv.IMAPAddr, TLS: "none", Poll: true, PollInterval: 10 * time.Millisecond,
		MinBackoff: 10 * time.Millisecond, MaxBackoff: 100 * time.Millisecond, Logger: log,
		Credentials: func(context.Context) (string, string, error) { return bot, "pw", nil }})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { d.Run(ctx, r); close(done) }()
	t.Cleanup(func() { cancel(); <-done; st.Close() })
	e := &env{t: t, srv: srv, st: st, d: d, g: g}
	e.settle()
	e.take() // the welcome mails
	return e
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
		from, bot, subject, id, time.Now().Format(time.RFC1123Z), h, strings.ReplaceAll(body, "\n", "\r\n"))
}

func (e *env) deliver(raw []byte) {
	e.t.Helper()
	if err := e.srv.Append(bot, "INBOX", raw); err != nil {
		e.t.Fatal(err)
	}
}

// settle waits until the bot's inbox is empty and its outbox has sent
// everything: the daemon has handled all mail and said all it will say.
func (e *env) settle() {
	e.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	quiet := 0
	for time.Now().Before(deadline) {
		in, err := e.srv.Messages(bot, "INBOX")
		c, cerr := outbox.Count(e.st.DB())
		if err == nil && cerr == nil && len(in) == 0 && c.Queued == 0 {
			if quiet++; quiet >= 3 {
				return
			}
		} else {
			quiet = 0
		}
		time.Sleep(15 * time.Millisecond)
	}
	e.t.Fatalf("the daemon did not settle within 15 s")
}

// out is a mail the daemon sent, parsed.
type out struct {
	to      []string
	head    mail.Header
	rawHead string
	body    string
}

// take returns the mails sent since the last take.
func (e *env) take() []out {
	e.t.Helper()
	all := e.srv.Sent()
	var res []out
	for _, m := range all[e.seen:] {
		pm, err := mail.ReadMessage(bytes.NewReader(m.Data))
		if err != nil {
			e.t.Fatalf("the daemon sent an unreadable mail: %v", err)
		}
		rawHead, _, _ := strings.Cut(string(m.Data), "\r\n\r\n")
		body := ""
		if im, err := inmail.Parse(m.Data, inmail.Options{}); err == nil {
			body = im.Body
		}
		res = append(res, out{to: m.To, head: pm.Header, rawHead: rawHead, body: body})
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
	n := 0
	for _, l := range x.Log {
		if l.Ref == id && l.Kind == "orders" {
			n++
		}
	}
	return n
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
func expectOne(t *testing.T, ms []out, addr, want string) out {
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

func TestForgedFromWithoutSecret(t *testing.T) {
	e := start(t, envOptions{})
	id, raw := e.msg("Ann <"+ann+">", "[g1] my orders", "PUSH 3")
	e.deliver(raw)
	e.settle()
	// The answer goes to the registered address, which is the real ann:
	// she learns that a mail without her secret came in her name.
	expectOne(t, e.take(), ann, "secret is missing")
	e.nothingApplied(id)
}

// Whoever knows ann's address and secret can act for her unless the
// receiving server vouches for the sender: with SPF required, a forged
// From (spf=fail, or no verdict of our server at all, or a verdict the
// sender wrote himself) is silently dropped; the genuine mail is applied.
func TestForgedFromWithSecret(t *testing.T) {
	e := start(t, envOptions{policy: policy.Config{AuthServID: authServ, RequireSPF: true}})
	subj := "[g1 " + e.secret("ann") + "] orders"
	for _, c := range []struct{ name, hdr string }{
		{"spf fail", "Authentication-Results: " + authServ + "; spf=fail smtp.mailfrom=" + ann},
		{"no verdict", ""},
		{"verdict by another server", "Authentication-Results: mx.evil.example; spf=pass smtp.mailfrom=" + ann},
	} {
		var hdr []string
		if c.hdr != "" {
			hdr = append(hdr, c.hdr)
		}
		id, raw := e.msg("Ann <"+ann+">", subj, "PUSH 3", hdr...)
		e.deliver(raw)
		e.settle()
		if ms := e.take(); len(ms) != 0 {
			t.Errorf("%s: answered a forged mail: %v to %v", c.name, subjects(ms), recipients(ms))
		}
		e.nothingApplied(id)
	}
	// The control: the same mail vouched for by our server is applied, so
	// the silence above is the check at work, not a broken set-up.
	id, raw := e.msg("Ann <"+ann+">", subj, "PUSH 3", "Authentication-Results: "+authServ+"; spf=pass smtp.mailfrom="+ann)
	e.deliver(raw)
	e.settle()
	expectOne(t, e.take(), ann, "")
	if n := e.applied(id); n != 1 {
		t.Errorf("the genuine mail was applied %d times", n)
	}
}

// A mail seen before (the same Message-ID, delivered again, even much
// later and with another UID) is filed, not applied or answered again.
func TestReplayedOldMail(t *testing.T) {
	e := start(t, envOptions{})
	id, raw := e.msg(ann, "[g1 "+e.secret("ann")+"] orders", "PUSH 2")
	e.deliver(raw)
	e.settle()
	expectOne(t, e.take(), ann, "")
	// Bob's orders resolve the turn; then ann's old mail comes again.
	_, rawBob := e.msg(bob, "[g1 "+e.secret("bob")+"] orders", "PUSH 1")
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

func TestAnotherPlayersSecret(t *testing.T) {
	e := start(t, envOptions{})
	// Bob, registered, uses ann's secret: told it is wrong.
	id, raw := e.msg(bob, "[g1 "+e.secret("ann")+"] orders", "PUSH 3")
	e.deliver(raw)
	e.settle()
	expectOne(t, e.take(), bob, "Wrong secret")
	e.nothingApplied(id)
	// A stranger with ann's secret: told the address is not in the game,
	// and ann is warned that someone has her secret.
	id, raw = e.msg("mallory@evil.example", "[g1 "+e.secret("ann")+"] orders", "PUSH 3")
	e.deliver(raw)
	e.settle()
	ms := e.take()
	if len(to(ms, "mallory@evil.example")) != 1 || len(to(ms, ann)) != 1 || len(ms) != 2 {
		t.Fatalf("want one reply to mallory and one warning to ann, got %v to %v", subjects(ms), recipients(ms))
	}
	if s := to(ms, ann)[0].head.Get("Subject"); !strings.Contains(s, "Warning") {
		t.Errorf("ann's warning: %q", s)
	}
	if w := to(ms, "mallory@evil.example")[0].body; strings.Contains(w, e.secret("bob")) {
		t.Errorf("the answer to a stranger shows bob's secret")
	}
	e.nothingApplied(id)
}

// autoresponder answers every mail the bot sends to addr with one more
// mail, as a badly configured vacation robot does, until stop; it returns
// how many it sent.
func (e *env) autoresponder(addr string, hdr []string, stop <-chan struct{}) <-chan int {
	res := make(chan int, 1)
	go func() {
		sent := 0
		defer func() { res <- sent }()
		first, _ := e.srv.Messages(addr, "INBOX")
		answered := len(first) // the welcome mail is not the robot's business
		for {
			select {
			case <-stop:
				return
			case <-time.After(10 * time.Millisecond):
			}
			msgs, _ := e.srv.Messages(addr, "INBOX")
			for _, m := range msgs[min(answered, len(msgs)):] {
				pm, err := mail.ReadMessage(bytes.NewReader(m))
				if err != nil {
					continue
				}
				e.n++
				raw := fmt.Appendf(nil, "From: %s\r\nTo: %s\r\nSubject: Auto: %s\r\nMessage-ID: <auto%d-%d@example.org>\r\nIn-Reply-To: %s\r\n%sContent-Type: text/plain\r\n\r\nI am away until Monday.\r\n",
					addr, bot, pm.Header.Get("Subject"), e.n, time.Now().UnixNano(), pm.Header.Get("Message-Id"), strings.Join(append(hdr, ""), "\r\n"))
				e.srv.Append(bot, "INBOX", raw)
				sent++
			}
			answered = len(msgs)
		}
	}()
	return res
}

func TestAutoresponderDoesNotLoop(t *testing.T) {
	const cap = 6
	e := start(t, envOptions{repliesPerHour: cap})
	cases := []struct {
		name, addr string
		hdr        []string
		max        int // replies the bot may send to addr
	}{
		// RFC 3834 robots mark their mail: the bot never answers them.
		{"compliant, a player", ann, []string{"Auto-Submitted: auto-replied"}, 1},
		// An unmarked robot at a stranger's address gets the one
		// stranger's reply of the day, then silence.
		{"unmarked, a stranger", "away@example.org", nil, 1},
		// An unmarked robot at a player's address: the hourly cap ends it.
		{"unmarked, a player", bob, nil, cap},
	}
	for _, c := range cases {
		secret := ""
		if c.addr == ann {
			secret = " " + e.secret("ann")
		} else if c.addr == bob {
			secret = " " + e.secret("bob")
		}
		stop := make(chan struct{})
		sent := e.autoresponder(c.addr, c.hdr, stop)
		_, raw := e.msg(c.addr, "[g1"+secret+"] orders", "PUSH 9") // an error: the bot answers
		e.deliver(raw)
		time.Sleep(1500 * time.Millisecond)
		e.settle()
		close(stop)
		robot := <-sent
		e.settle()
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
func TestBounceStorm(t *testing.T) {
	e := start(t, envOptions{})
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
		raw := fmt.Appendf(nil, "Return-Path: <>\r\nFrom: %s\r\nTo: %s\r\nSubject: Undelivered Mail Returned to Sender\r\nMessage-ID: <%s>\r\n"+
			"MIME-Version: 1.0\r\nContent-Type: multipart/report; report-type=delivery-status; boundary=\"b\"\r\n\r\n"+
			"--b\r\nContent-Type: text/plain\r\n\r\nThis is the mail system. Your mail could not be delivered.\r\n"+
			"--b\r\nContent-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; mx.example.org\r\n\r\nFinal-Recipient: rfc822; %s\r\nAction: failed\r\nStatus: 5.1.1\r\n"+
			"--b\r\nContent-Type: message/rfc822\r\n\r\nFrom: %s\r\nTo: %s\r\nSubject: [g1 %s] orders\r\n\r\nPUSH 3\r\n--b--\r\n",
			from, bot, id, ann, bot, ann, e.secret("ann"))
		e.deliver(raw)
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
func TestMailingListCopy(t *testing.T) {
	e := start(t, envOptions{})
	subj := "[g1 " + e.secret("ann") + "] orders"
	for _, hdr := range [][]string{
		{"List-Id: Game players <players.lists.example.org>", "Sender: players-bounces@lists.example.org"},
		{"Precedence: list"},
	} {
		id, raw := e.msg("Ann via players <"+ann+">", subj, "PUSH 3", hdr...)
		e.deliver(raw)
		e.settle()
		if ms := e.take(); len(ms) != 0 {
			t.Errorf("%v: answered a list copy: %v", hdr, subjects(ms))
		}
		e.nothingApplied(id)
	}
}

func multipart(from, subject, id string, parts ...string) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "From: %s\r\nTo: %s\r\nSubject: %s\r\nMessage-ID: <%s>\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"outer\"\r\n\r\n", from, bot, subject, id)
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
func TestTenMegabyteAttachments(t *testing.T) {
	e := start(t, envOptions{})
	big := bytes.Repeat([]byte("0123456789abcdef"), 10<<20/16)
	id := fmt.Sprintf("big1-%d@example.org", time.Now().UnixNano())
	e.deliver(multipart(ann, "[g1 "+e.secret("ann")+"] orders", id,
		"Content-Type: text/plain; charset=utf-8\r\n\r\nPUSH 2\r\n",
		"Content-Type: application/octet-stream; name=\"photo.bin\"\r\nContent-Disposition: attachment; filename=\"photo.bin\"\r\nContent-Transfer-Encoding: base64\r\n\r\n"+base64Lines(big)))
	e.settle()
	expectOne(t, e.take(), ann, "")
	if n := e.applied(id); n != 1 {
		t.Errorf("orders beside a binary attachment applied %d times, want 1", n)
	}
	e2 := start(t, envOptions{})
	id = fmt.Sprintf("big2-%d@example.org", time.Now().UnixNano())
	text := strings.Repeat("# padding line of a huge orders file\r\n", 10<<20/38)
	e2.deliver(multipart(ann, "[g1 "+e2.secret("ann")+"] orders", id,
		"Content-Type: text/plain; charset=utf-8\r\n\r\nsee the attachment\r\n",
		"Content-Type: text/plain; name=\"orders.txt\"\r\nContent-Disposition: attachment; filename=\"orders.txt\"\r\n\r\nPUSH 2\r\n"+text))
	e2.settle()
	expectOne(t, e2.take(), ann, "too large")
	e2.nothingApplied(id)
}

func TestBrokenMIME(t *testing.T) {
	cases := []struct{ name, head, body string }{
		{"no closing boundary", "Content-Type: multipart/mixed; boundary=\"x\"", "--x\r\nContent-Type: text/plain\r\n\r\nPUSH 3\r\n"},
		{"boundary never used", "Content-Type: multipart/mixed; boundary=\"nowhere\"", "PUSH 3\r\n"},
		{"no boundary parameter", "Content-Type: multipart/mixed", "--x\r\n\r\nPUSH 3\r\n--x--\r\n"},
		{"bad base64", "Content-Type: text/plain\r\nContent-Transfer-Encoding: base64", "UFVTSCAz!!!!%%%%\r\n****\r\n"},
		{"bad quoted-printable", "Content-Type: text/plain\r\nContent-Transfer-Encoding: quoted-printable", "PUSH =ZZ3=\r\n=4"},
		{"garbage content type", "Content-Type: ;;;===///", "PUSH 3\r\n"},
		{"unknown encoding", "Content-Type: text/plain\r\nContent-Transfer-Encoding: x-rot13", "CHFU 3\r\n"},
	}
	e := start(t, envOptions{})
	for _, c := range cases {
		e.n++
		id := fmt.Sprintf("broken%d-%d@example.org", e.n, time.Now().UnixNano())
		e.deliver(fmt.Appendf(nil, "From: %s\r\nTo: %s\r\nSubject: [g1 %s] orders\r\nMessage-ID: <%s>\r\nMIME-Version: 1.0\r\n%s\r\n\r\n%s", ann, bot, e.secret("ann"), id, c.head, c.body))
		e.settle()
		ms := e.take()
		// Exactly one answer, to ann (bad input gets a clear answer);
		// whatever the daemon made of the mail, a game step must not
		// have come of it.
		if len(ms) != 1 || len(to(ms, ann)) != 1 {
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
			e.deliver(e.msg2(bob, "[g1 "+e.secret("bob")+"] orders", "PUSH 1"))
			e.settle()
			e.take()
			e.g, _ = e.d.Service().Get(context.Background(), "g1")
		}
	}
}

func (e *env) msg2(from, subject, body string) []byte {
	_, raw := e.msg(from, subject, body)
	return raw
}

// Multiparts nested far deeper than any client writes: the daemon neither
// crashes nor hangs, reads no orders from below its depth limit, and
// answers once.
func TestDeeplyNestedMultiparts(t *testing.T) {
	e := start(t, envOptions{})
	for _, depth := range []int{20, 1000} {
		var b strings.Builder
		e.n++
		id := fmt.Sprintf("nest%d-%d@example.org", depth, time.Now().UnixNano())
		fmt.Fprintf(&b, "From: %s\r\nTo: %s\r\nSubject: [g1 %s] orders\r\nMessage-ID: <%s>\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"b0\"\r\n\r\n", ann, bot, e.secret("ann"), id)
		for i := 1; i < depth; i++ {
			fmt.Fprintf(&b, "--b%d\r\nContent-Type: multipart/mixed; boundary=\"b%d\"\r\n\r\n", i-1, i)
		}
		fmt.Fprintf(&b, "--b%d\r\nContent-Type: text/plain\r\n\r\nPUSH 3\r\n--b%d--\r\n", depth-1, depth-1)
		for i := depth - 2; i >= 0; i-- {
			fmt.Fprintf(&b, "--b%d--\r\n", i)
		}
		t0 := time.Now()
		e.deliver([]byte(b.String()))
		e.settle()
		ms := e.take()
		t.Logf("depth %d: %v in %v", depth, subjects(ms), time.Since(t0).Round(time.Millisecond))
		if len(ms) != 1 || len(to(ms, ann)) != 1 {
			t.Errorf("depth %d: want one answer to ann, got %v to %v", depth, subjects(ms), recipients(ms))
		}
		e.nothingApplied(id)
	}
}

// Invalid or unknown charsets: the mail is either read (as UTF-8 or
// Latin-1, and then its orders count) or refused with an answer; never
// silently lost, never more than one answer.
func TestInvalidCharsets(t *testing.T) {
	cases := []struct{ name, ct, body string }{
		{"unknown charset", "text/plain; charset=x-no-such-charset", "PUSH 9\r\n"},
		{"invalid utf-8 bytes", "text/plain; charset=utf-8", "PUSH 9 \xff\xfe\xc3\x28\r\n"},
		{"utf-7", "text/plain; charset=utf-7", "PUSH 9 +AGEAYgBj-\r\n"},
		{"charset with quotes and junk", "text/plain; charset=\"utf-8\\\"; x=\"", "PUSH 9\r\n"},
	}
	e := start(t, envOptions{})
	for _, c := range cases {
		e.n++
		id := fmt.Sprintf("cs%d-%d@example.org", e.n, time.Now().UnixNano())
		// PUSH 9 is out of range: accepted orders would be a bug of the
		// ruleset; an answer is expected either way.
		e.deliver(fmt.Appendf(nil, "From: %s\r\nTo: %s\r\nSubject: [g1 %s] orders\r\nMessage-ID: <%s>\r\nMIME-Version: 1.0\r\nContent-Type: %s\r\n\r\n%s", ann, bot, e.secret("ann"), id, c.ct, c.body))
		e.settle()
		ms := e.take()
		t.Logf("%s: %v", c.name, subjects(ms))
		if len(ms) != 1 || len(to(ms, ann)) != 1 {
			t.Errorf("%s: want one answer to ann, got %v to %v", c.name, subjects(ms), recipients(ms))
		}
		e.nothingApplied(id)
	}
}

// Header injection: names and subjects carrying encoded line breaks and
// header lines. The daemon's answers (which quote the subject, and the
// From in ann's warning) must not grow extra headers or recipients.
func TestHeaderInjection(t *testing.T) {
	e := start(t, envOptions{})
	inject := "=?utf-8?q?x=0D=0ABcc:_victim@evil.example=0D=0AX-Injected:_yes?="
	injectB := "=?utf-8?b?" + base64.StdEncoding.EncodeToString([]byte("y\r\nBcc: victim@evil.example\nX-Injected: yes")) + "?="
	var qp bytes.Buffer
	w := quotedprintable.NewWriter(&qp)
	io.WriteString(w, "z\r\nX-Injected: yes")
	w.Close()
	cases := []struct{ name, from, subject string }{
		{"subject, q-encoded", ann, "[g1 " + e.secret("ann") + "] " + inject},
		{"subject, b-encoded, orders refused", ann, "[g1 " + e.secret("ann") + "] " + injectB},
		{"display name, wrong secret", "\"" + inject + "\" <" + ann + ">", "[g1 nosuchsecret] hi " + injectB},
		{"stranger with ann's secret (warning quotes From)", injectB + " <mallory@evil.example>", "[g1 " + e.secret("ann") + "] " + inject},
		{"raw CR in subject", ann, "[g1] a\rBcc: victim@evil.example"},
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
}

// Orders of 10,000 lines: one answer, of bounded size, listing the errors;
// nothing applied. (The time it takes is logged; speed is measured by the
// benchmarks, not asserted here.)
func TestTenThousandLines(t *testing.T) {
	e := start(t, envOptions{})
	var b strings.Builder
	for i := range 10000 {
		fmt.Fprintf(&b, "PUSH %d\n", 1+i%3)
	}
	id, raw := e.msg(ann, "[g1 "+e.secret("ann")+"] orders", b.String())
	t0 := time.Now()
	e.deliver(raw)
	e.settle()
	took := time.Since(t0)
	m := expectOne(t, e.take(), ann, "")
	t.Logf("10,000 lines (%d bytes) answered in %v; the answer's text has %d bytes", len(raw), took.Round(time.Millisecond), len(m.body))
	if !strings.Contains(m.body, "only one PUSH") {
		t.Errorf("the answer does not list the errors")
	}
	e.nothingApplied(id)
}
