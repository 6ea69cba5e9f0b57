package daemon_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"orrery/engine"
	"orrery/engine/enginetest/toy"
	"orrery/engine/game"
	"orrery/engine/store"
	"orrery/engine/store/storetest"
	"orrery/pbem/daemon"
	"orrery/pbem/imapin"
	"orrery/pbem/outbox"
	"orrery/pbem/pbemtest"
	"orrery/pbem/policy"
)

const botAddr = "orrery@pbem.test"

type harness struct {
	t   testing.TB
	srv *pbemtest.Server
	st  *store.Store
	d   *daemon.Daemon
	q   *outbox.Queue
	g   *game.Game
	n   int
}

// newHarness is a daemon on the store ORRERY_TEST_STORE names (bbolt by
// default; storetest.Default), with game g1 of ann and bob.
func newHarness(t testing.TB, tune ...func(*daemon.Config)) *harness {
	t.Helper()
	return rig{}.tuned(tune).start(t)
}

// newHarnessAt is newHarness with a bbolt database at db.
func newHarnessAt(t *testing.T, db string, tune ...func(*daemon.Config)) *harness {
	t.Helper()
	st, err := store.Open(db, store.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return newHarnessOn(t, st, tune...)
}

// newHarnessOn is newHarness on the store st.
func newHarnessOn(t testing.TB, st *store.Store, tune ...func(*daemon.Config)) *harness {
	t.Helper()
	return rig{store: st}.tuned(tune).start(t)
}

// rig is how a test's daemon differs from newHarness's; each zero field
// keeps newHarness's choice, so a test names only what it is about.
type rig struct {
	store    *store.Store                      // storetest.Default()
	server   *pbemtest.Server                  // a new in-process server; an earlier harness's for a restart
	rulesets []engine.Ruleset                  // toy
	send     func(outbox.Sender) outbox.Sender // wraps the SMTP sender (refusals, counts)
	pictures bool                              // the SMTP sender draws board pictures with Daemon.Picture, as orrery serve does
	queue    *outbox.Options                   // MinBackoff 50 ms
	config   daemon.Config                     // From is the bot's address when empty
	tune     []func(*daemon.Config)            // applied to config, in order
	opts     []game.Option                     // the game service's hooks
	game     *game.CreateRequest               // g1 of ann and bob to step 8
	noGame   bool                              // no game at all
}

func (r rig) tuned(tune []func(*daemon.Config)) rig {
	r.tune = append(r.tune, tune...)
	return r
}

// start opens the store, the in-process mail server, the outbox and the
// daemon, and creates the game.
func (r rig) start(t testing.TB) *harness {
	t.Helper()
	st := r.store
	if st == nil {
		st = storetest.Open(t, storetest.Default())
	}
	srv := r.server
	if srv == nil {
		srv = pbemtest.StartT(t, pbemtest.Options{Users: map[string]string{botAddr: "pw"}})
	}
	var d *daemon.Daemon
	smtp := &outbox.SMTP{Addr: srv.SMTPAddr, TLS: "none"}
	if r.pictures {
		smtp.Pictures = func(ctx context.Context, p outbox.Picture) ([]byte, error) { return d.Picture(ctx, p) }
	}
	var sender outbox.Sender = smtp
	if r.send != nil {
		sender = r.send(sender)
	}
	qo := outbox.Options{MinBackoff: 50 * time.Millisecond}
	if r.queue != nil {
		qo = *r.queue
	}
	q := outbox.New(st, sender, qo)
	cfg := r.config
	if cfg.From == "" {
		cfg.From = "Orrery <" + botAddr + ">"
	}
	for _, f := range r.tune {
		f(&cfg)
	}
	rulesets := r.rulesets
	if rulesets == nil {
		rulesets = []engine.Ruleset{toy.Ruleset()}
	}
	var err error
	d, err = daemon.New(st, rulesets, q, cfg, r.opts...)
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{t: t, srv: srv, st: st, d: d, q: q}
	if r.noGame {
		return h
	}
	req := r.game
	if req == nil {
		req = g1("8")
	}
	if h.g, err = d.Service().Create(context.Background(), *req); err != nil {
		t.Fatal(err)
	}
	return h
}

// g1 is newHarness's game of ann and bob, ending after finish steps.
func g1(finish string) *game.CreateRequest {
	return &game.CreateRequest{ID: "g1", Ruleset: "toy",
		Players: []game.PlayerSpec{{Name: "ann", Email: "ann@example.org"}, {Name: "bob", Email: "bob@example.org"}},
		Options: map[string]string{"finish": finish}}
}

func (h *harness) secret(name string) string {
	p, _ := h.g.PlayerByName(name)
	return p.Secret
}

func (h *harness) mail(from, subject, body string, extra ...string) imapin.Message {
	h.n++
	hdr := strings.Join(extra, "\r\n")
	if hdr != "" {
		hdr += "\r\n"
	}
	raw := fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: %s\r\nMessage-ID: <m%d@example.org>\r\nDate: Sun, 22 Nov 2026 12:00:00 +0000\r\n%sContent-Type: text/plain; charset=utf-8\r\n\r\n%s\r\n",
		from, botAddr, subject, h.n, hdr, strings.ReplaceAll(body, "\n", "\r\n"))
	return imapin.Message{Mailbox: "INBOX", UIDValidity: 1, UID: uint32(h.n), Raw: []byte(raw)}
}

func (h *harness) handle(m imapin.Message) imapin.Disposition {
	h.t.Helper()
	disp, err := h.d.Handle(context.Background(), m)
	if err != nil {
		h.t.Fatal(err)
	}
	return disp
}

// say handles a mail (h.mail's arguments) and returns the mails it sent.
func (h *harness) say(from, subject, body string, extra ...string) []pbemtest.Mail {
	h.t.Helper()
	h.handle(h.mail(from, subject, body, extra...))
	return h.flush()
}

// flush sends the queue and returns the new mails to addr.
func (h *harness) flush() []pbemtest.Mail {
	h.t.Helper()
	before := len(h.srv.Sent())
	if _, err := h.q.RunOnce(context.Background()); err != nil {
		h.t.Fatal(err)
	}
	sent := h.srv.Sent()[before:]
	for _, m := range sent {
		// Every notice the engine or the daemon sends has a subject of
		// its own (templates.NoticeTitles), not the fallback.
		if subject := header(m.Data, "Subject"); strings.Contains(subject, "Game news:") {
			h.t.Errorf("a mail to %s has the fallback subject %q: add its kind to templates.NoticeTitles", m.To, subject)
		}
	}
	return sent
}

// header is the first header called name of a raw mail.
func header(raw []byte, name string) string {
	head, _, _ := strings.Cut(string(raw), "\r\n\r\n")
	for _, l := range strings.Split(head, "\r\n") {
		if k, v, ok := strings.Cut(l, ":"); ok && strings.EqualFold(k, name) {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// to returns the mails to addr, each as its headers followed by its
// decoded text part, so tests can look for phrases.
func to(mails []pbemtest.Mail, addr string) []string {
	var out []string
	for _, m := range mails {
		for _, r := range m.To {
			if r == addr {
				raw := string(m.Data)
				head, _, _ := strings.Cut(raw, "\r\n\r\n")
				// The text/plain part itself: inmail, reading a mail as a
				// player's, may prefer the HTML part of a mail whose text
				// is filled to 78 columns.
				text, ok := pbemtest.PlainText(m.Data)
				if !ok {
					panic("no text part in " + raw)
				}
				out = append(out, head+"\n\n"+text)
			}
		}
	}
	return out
}

func TestWelcomeOrdersAndReports(t *testing.T) {
	h := newHarness(t)
	sent := h.flush()
	if w := to(sent, "ann@example.org"); len(w) != 1 || !strings.Contains(w[0], "Your secret is: "+h.secret("ann")) || !strings.Contains(w[0], "Toy Race") || !strings.Contains(w[0], "Auto-Submitted: auto-generated") {
		t.Fatalf("ann's welcome: %q", w)
	}
	// Orders with an error: every error, with its line; a line that is
	// plainly not an order is listed as not read.
	if d := h.handle(h.mail("Ann <ann@example.org>", "[g1 "+h.secret("ann")+"] my orders", "push 9\nfly away")); d != imapin.Processed {
		t.Errorf("disposition %v", d)
	}
	acks := to(h.flush(), "ann@example.org")
	if len(acks) != 1 || !strings.Contains(acks[0], "Not accepted") || !strings.Contains(acks[0], "line 1, you wrote: push 9") ||
		!strings.Contains(acks[0], "Not read as orders") || !strings.Contains(acks[0], "line 2: fly away") {
		t.Fatalf("ann's ack: %q", acks)
	}
	for _, want := range []string{"In-Reply-To: <m1@example.org>", "Auto-Submitted: auto-replied", "[g1 " + h.secret("ann") + "]", "multipart/alternative"} {
		if !strings.Contains(acks[0], want) {
			t.Errorf("ack lacks %q", want)
		}
	}
	h.handle(h.mail("ann@example.org", "Re: [g1 "+h.secret("ann")+"] my orders", "PUSH 2\n\n-- \nAnn"))
	acks = to(h.flush(), "ann@example.org")
	if len(acks) != 1 || !strings.Contains(acks[0], "Orders received") || !strings.Contains(acks[0], "PUSH 2") || !strings.Contains(acks[0], "Still to send: bob") {
		t.Fatalf("ann's second ack should list bob as still to send: %q", acks)
	}
	// Bob's orders resolve the turn: bob gets an ack, both get a report.
	h.handle(h.mail("bob@example.org", "orders", "GAME g1\nSECRET "+h.secret("bob")+"\npush 3"))
	sent = h.flush()
	if a, b := to(sent, "ann@example.org"), to(sent, "bob@example.org"); len(a) != 1 || len(b) != 2 {
		t.Fatalf("after the turn: %d mails to ann, %d to bob", len(a), len(b))
	}
	if r := to(sent, "ann@example.org")[0]; !strings.Contains(r, "DICE") || !strings.Contains(r, "Seed of this step") || !strings.Contains(r, "X-Orrery-Kind: report") {
		t.Errorf("ann's report lacks the dice:\n%s", r)
	}
}

// A message handled again (the daemon died after the commit, before the
// move) is filed, not applied or answered twice.
func TestExactlyOnce(t *testing.T) {
	h := newHarness(t)
	h.flush()
	m := h.mail("ann@example.org", "[g1 "+h.secret("ann")+"]", "push 1")
	h.handle(m)
	h.handle(m)
	m.UIDValidity, m.UID = 7, 99 // the mailbox was recreated
	h.handle(m)
	if acks := to(h.flush(), "ann@example.org"); len(acks) != 1 {
		t.Errorf("%d acks, want 1", len(acks))
	}
	x, err := h.d.Service().Export(context.Background(), "g1")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range x.Log {
		if e.Ref == "m1@example.org" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("the message is in the game log %d times", n)
	}
}

func TestNoLoopsNoBackscatter(t *testing.T) {
	h := newHarness(t)
	h.flush()
	s := "[g1 " + h.secret("ann") + "]"
	cases := []imapin.Message{
		h.mail("ann@example.org", s, "push 1", "Auto-Submitted: auto-replied"),
		h.mail("ann@example.org", s, "push 1", "Precedence: bulk"),
		h.mail("ann@example.org", s, "push 1", "List-Id: <games.example.org>"),
		h.mail("MAILER-DAEMON@example.org", "Undelivered", "bounce"),
		h.mail(botAddr, s, "push 1"),
	}
	for i, m := range cases {
		if d := h.handle(m); d != imapin.Rejected {
			t.Errorf("case %d: disposition %v, want rejected", i, d)
		}
	}
	if sent := h.flush(); len(sent) != 0 {
		t.Errorf("answered %d robot mails", len(sent))
	}
	if g, _ := h.d.Service().Get(context.Background(), "g1"); len(g.Answered) != 0 {
		t.Errorf("a robot's orders were applied: %v", g.Answered)
	}
}

func TestAuthentication(t *testing.T) {
	h := newHarness(t)
	h.flush()
	h.handle(h.mail("ann@example.org", "[g1 wrongsecret]", "push 1"))
	h.handle(h.mail("ann@example.org", "[g1]", "push 1"))
	h.handle(h.mail("eve@example.org", "[g1 "+h.secret("ann")+"]", "push 1"))
	sent := h.flush()
	// Ann is told of the wrong and the missing secret, and warned that
	// someone used her secret from another address: without a word that
	// sender wrote, not even the address.
	if a := to(sent, "ann@example.org"); len(a) != 3 || !strings.Contains(a[0], "Wrong secret") || !strings.Contains(a[1], "secret is missing") ||
		!strings.Contains(a[2], "someone tried to act for you") || strings.Contains(a[2], "eve@example.org") {
		t.Errorf("ann: %q", a)
	}
	if e := to(sent, "eve@example.org"); len(e) != 1 || !strings.Contains(e[0], "not in this game") || strings.Contains(e[0], h.secret("ann")) {
		t.Errorf("eve: %q", e)
	}
	// A stranger who asks nothing we can do gets one answer a day; a
	// command they send is answered.
	if e := to(h.say("eve@example.org", "hello", "how are you?"), "eve@example.org"); len(e) != 0 {
		t.Errorf("stranger answered twice in a day: %q", e)
	}
	h.handle(h.mail("eve@example.org", "hello", "LIST"))
	if e := to(h.flush(), "eve@example.org"); len(e) != 1 || strings.Contains(e[0], "g1") || !strings.Contains(e[0], "no game is open to join") {
		t.Errorf("a stranger's LIST shows only games open to JOIN: %q", e)
	}
	if g, _ := h.d.Service().Get(context.Background(), "g1"); len(g.Answered) != 0 {
		t.Errorf("unauthenticated orders applied: %v", g.Answered)
	}
}

func TestCommandsAndHelp(t *testing.T) {
	h := newHarness(t)
	h.flush()
	const ann = "ann@example.org"
	one(t, to(h.say(ann, "hi", "HELP\nLIST\nRULES toy"), ann), ann, "JOIN", "Toy Race", "PUSH")
	one(t, to(h.say(ann, "[g1 "+h.secret("ann")+"]", "STATUS g1"), ann), ann, "Still to send: ann and bob")
	one(t, to(h.say(ann, "empty", ""), ann), ann, "HELP") // an empty mail gets help
}

// TestEmptyGameMailIsEmptyOrders: a reply to a game mail with nothing but a
// signature is empty orders (a pass where the rules allow it), not a request
// for HELP that would leave the game waiting for that player for ever.
func TestEmptyGameMailIsEmptyOrders(t *testing.T) {
	h := newHarness(t)
	h.flush()
	sent := h.say("ann@example.org", "Re: [g1 "+h.secret("ann")+"] report", "\n\n-- \nAnn")
	ack := one(t, to(sent, "ann@example.org"), "ann", "Orders received")
	if strings.Contains(ack, "commands you can send") {
		t.Fatalf("ann's empty reply got help:\n%s", ack)
	}
	g, err := h.d.Service().Get(t.Context(), "g1")
	if err != nil {
		t.Fatal(err)
	}
	if w := g.Waiting(); len(w) != 1 || w[0] != "bob" {
		t.Fatalf("after ann's empty orders the game waits for %v, want bob only", w)
	}
}

// HELP <ruleset> answers the general help with that ruleset's order help
// (as HELP in a game's mail does); a ruleset it does not know is refused
// by name (issue 19: it used to ignore the ruleset named).
func TestHelpRuleset(t *testing.T) {
	h := newHarness(t)
	h.flush()
	const ann = "ann@example.org"
	one(t, to(h.say(ann, "help", "HELP toy"), ann), ann, "JOIN", "Toy Race (toy)", "PUSH <1-3>")
	one(t, to(h.say(ann, "help", "HELP chess"), ann), ann, `no ruleset named "chess"`)
}

func TestRateLimit(t *testing.T) {
	h := newHarness(t)
	h.flush()
	for i := range 35 {
		h.handle(h.mail("ann@example.org", fmt.Sprintf("question %d", i), "HELP"))
	}
	if a := to(h.flush(), "ann@example.org"); len(a) != 30 {
		t.Errorf("%d answers in an hour, want 30", len(a))
	}
}

// The whole loop over in-process servers: players' mails go through IMAP,
// answers through SMTP into their mailboxes.
func TestRunOverServers(t *testing.T) {
	h := newHarness(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r := imapin.New(imapin.Config{Addr: h.srv.IMAPAddr, TLS: "none", IdleRestart: 500 * time.Millisecond,
		Credentials: func(context.Context) (string, string, error) { return botAddr, "pw", nil }})
	done := h.run(ctx, r)
	for _, p := range []string{"ann", "bob"} {
		raw := h.mail(p+"@example.org", "[g1 "+h.secret(p)+"] orders", "push 3").Raw
		if err := h.srv.Append(botAddr, "INBOX", raw); err != nil {
			t.Fatal(err)
		}
	}
	wctx, wcancel := context.WithTimeout(ctx, 10*time.Second)
	defer wcancel()
	// welcome + ack + report
	msgs, err := h.srv.WaitMessages(wctx, "bob@example.org", "INBOX", 3)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(msgs[2]), "report") && !strings.Contains(string(msgs[1]), "report") {
		t.Errorf("no report among bob's mails")
	}
	if _, err := h.srv.WaitMessages(wctx, botAddr, "Orrery/Processed", 2); err != nil {
		t.Fatal(err)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Run: %v", err)
	}
}

// run starts the daemon's Run with ctx and returns what it returns. Run
// never outlives the test, whatever path ends it (a t.Fatal too): the
// clean-up stops it and waits before the store is closed, so no tick is
// left committing into a closed store, nor lingers into the next test.
func (h *harness) run(ctx context.Context, r *imapin.Reader) <-chan error {
	ctx, stop := context.WithCancel(ctx)
	done, out := make(chan error, 1), make(chan error, 1)
	go func() { err := h.d.Run(ctx, r); done <- err; out <- err }()
	h.t.Cleanup(func() { stop(); <-done })
	return out
}

// confirm answers the mail in sent that asks addr to confirm a JOIN or an
// OBSERVE, as its owner would: a reply that says CONFIRM.
func (h *harness) confirm(sent []pbemtest.Mail, addr string) {
	h.t.Helper()
	for _, m := range sent {
		if len(m.To) == 1 && m.To[0] == addr && strings.Contains(header(m.Data, "Subject"), "Please confirm") {
			h.handle(h.mail(addr, "Re: "+header(m.Data, "Subject"), "CONFIRM", "In-Reply-To: "+header(m.Data, "Message-ID")))
			return
		}
	}
	h.t.Fatalf("no mail asks %s to confirm", addr)
}

func TestJoinStartsAGame(t *testing.T) {
	h := newHarness(t)
	h.flush()
	if _, err := h.d.Service().Create(context.Background(), game.CreateRequest{ID: "open", Ruleset: "toy", Seats: 2}); err != nil {
		t.Fatal(err)
	}
	h.handle(h.mail("Cy <cy@example.org>", "join", "JOIN open"))
	h.handle(h.mail("di@example.org", "join", "JOIN open dora"))
	// Nobody takes a seat before confirming from the address.
	asked := h.flush()
	if g, _ := h.d.Service().Get(context.Background(), "open"); len(g.Players) != 0 {
		t.Fatalf("seated before confirming: %v", g.Players)
	}
	h.confirm(asked, "cy@example.org")
	h.confirm(asked, "di@example.org")
	sent := h.flush()
	cy, di := to(sent, "cy@example.org"), to(sent, "di@example.org")
	if len(cy) != 2 || !strings.Contains(cy[0], "joined open as cy") || !strings.Contains(cy[1], "Your secret is") {
		t.Errorf("cy: %q", cy)
	}
	if len(di) != 1 || !strings.Contains(di[0], "Welcome to Toy Race, dora") {
		t.Errorf("di: %q", di)
	}
}

func TestOversizeAndUnreadable(t *testing.T) {
	h := newHarness(t)
	h.flush()
	big := h.mail("ann@example.org", "[g1 "+h.secret("ann")+"]", strings.Repeat("push 1\n", 50000))
	if d := h.handle(big); d != imapin.Rejected {
		t.Errorf("oversize: %v", d)
	}
	junk := imapin.Message{UIDValidity: 1, UID: 999, Raw: []byte("this is not a mail at all\x00\x01")}
	if d := h.handle(junk); d != imapin.Rejected {
		t.Errorf("junk: %v", d)
	}
	a := to(h.flush(), "ann@example.org")
	if len(a) != 1 || !strings.Contains(strings.ToLower(a[0]), "too") {
		t.Errorf("oversize reply: %q", a)
	}
	if g, _ := h.d.Service().Get(context.Background(), "g1"); len(g.Answered) != 0 {
		t.Errorf("oversize orders applied")
	}
}

// RelaxGames lets a registered address act without its secret in the games
// named only; elsewhere the secret is still needed, and a wrong secret or
// a stranger is still refused.
func TestRelaxOneGame(t *testing.T) {
	h := newHarness(t, func(c *daemon.Config) { c.RelaxGames = map[string]policy.Relax{"g1": {NoSecret: true}} })
	if _, err := h.d.Service().Create(context.Background(), game.CreateRequest{ID: "strict", Ruleset: "toy",
		Players: []game.PlayerSpec{{Name: "ann", Email: "ann@example.org"}, {Name: "bob", Email: "bob@example.org"}}}); err != nil {
		t.Fatal(err)
	}
	h.flush()
	h.handle(h.mail("ann@example.org", "[g1]", "push 1"))
	h.handle(h.mail("ann@example.org", "[strict]", "push 1"))
	h.handle(h.mail("bob@example.org", "[g1 wrongsecret]", "push 1"))
	h.handle(h.mail("eve@example.org", "[g1]", "push 1"))
	sent := h.flush()
	ann := to(sent, "ann@example.org")
	if len(ann) != 2 || !strings.Contains(ann[0], "are accepted") || !strings.Contains(ann[1], "secret is missing") {
		t.Errorf("ann: %q", ann)
	}
	if b := to(sent, "bob@example.org"); len(b) != 1 || !strings.Contains(b[0], "Wrong secret") {
		t.Errorf("bob: %q", b)
	}
	for id, want := range map[string]int{"g1": 1, "strict": 0} {
		if g, _ := h.d.Service().Get(context.Background(), id); len(g.Answered) != want {
			t.Errorf("%s: answered %v, want %d", id, g.Answered, want)
		}
	}
}
