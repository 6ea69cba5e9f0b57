package e2e

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/mail"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"orrery/engine"
	"orrery/engine/enginetest/toy"
	"orrery/engine/game"
	"orrery/engine/store"
	"orrery/games/burning"
	"orrery/games/earthman"
	"orrery/games/orbital"
	"orrery/games/prosper"
	"orrery/pbem/botplayer"
	"orrery/pbem/daemon"
	"orrery/pbem/imapin"
	"orrery/pbem/outbox"
	"orrery/pbem/pbemtest"
)

// stack is the real mail servers, from scripts/mailstack.sh env.
type stack struct {
	pbemtest.RealStack
}

func getStack(tb testing.TB) stack {
	tb.Helper()
	s, ok := pbemtest.RealStackFromEnv()
	if !ok {
		tb.Skip(pbemtest.RealStackHowTo)
	}
	return stack{s}
}

// nonce makes account names unique per run, so tests never see old mail.
func nonce() string { return fmt.Sprintf("%x%04x", time.Now().UnixNano()&0xffffffff, rand.IntN(1<<16)) }

func (s stack) fetch(addr string) ([][]byte, error) {
	return pbemtest.FetchAll(s.IMAP, addr, "any", "INBOX")
}

func (s stack) sender() *outbox.SMTP {
	return &outbox.SMTP{Addr: s.SMTP, TLS: "none", Timeout: 10 * time.Second}
}

// inject delivers raw straight into rcpt's mailbox over LMTP and returns
// when Dovecot has stored it.
func (s stack) inject(rcpt string, raw []byte) error {
	return s.injectMany(rcpt, 1, func(int) []byte { return raw })
}

// injectMany delivers n mails to rcpt over one LMTP connection.
func (s stack) injectMany(rcpt string, n int, mail func(i int) []byte) error {
	return s.DeliverMany(context.Background(), "player@example.org", rcpt, n, mail)
}

// newDaemon opens db and makes a daemon for bot on the real servers.
func (s stack) newDaemon(tb testing.TB, db, bot string, rulesets []engine.Ruleset, idle bool, onSent func(outbox.Record), tune ...func(*daemon.Config)) (*store.Store, *daemon.Daemon, *imapin.Reader) {
	tb.Helper()
	st, err := store.Open(db, store.Options{Timeout: 5 * time.Second})
	if err != nil {
		tb.Fatal(err)
	}
	d, r := s.newDaemonOn(tb, st, bot, rulesets, idle, onSent, tune...)
	return st, d, r
}

// newDaemonOn makes a daemon for bot on the real servers, on the open
// store st.
func (s stack) newDaemonOn(tb testing.TB, st *store.Store, bot string, rulesets []engine.Ruleset, idle bool, onSent func(outbox.Record), tune ...func(*daemon.Config)) (*daemon.Daemon, *imapin.Reader) {
	tb.Helper()
	log := slog.New(slog.DiscardHandler)
	if os.Getenv("ORRERY_E2E_LOG") != "" {
		log = slog.New(slog.NewTextHandler(os.Stderr, nil))
	}
	opts := outbox.Options{MinBackoff: 200 * time.Millisecond, MaxBackoff: 2 * time.Second, Logger: log, OnSent: onSent}
	if os.Getenv("ORRERY_E2E_CHILD_BACKOFF") == "default" {
		// The crash test's daemon backs off as in production (30 s), so
		// that a mail left waiting for its backoff after a restart shows.
		opts.MinBackoff, opts.MaxBackoff = 0, 0
	}
	q := outbox.New(st, s.sender(), opts)
	cfg := daemon.Config{From: "Orrery <" + bot + ">", TickEvery: time.Second, Logger: log, RepliesPerHour: 100000}
	for _, f := range tune {
		f(&cfg)
	}
	d, err := daemon.New(st, rulesets, q, cfg)
	if err != nil {
		tb.Fatal(err)
	}
	r := imapin.New(imapin.Config{Addr: s.IMAP, TLS: "none", Poll: !idle, PollInterval: 30 * time.Millisecond,
		MinBackoff: 50 * time.Millisecond, MaxBackoff: time.Second, Logger: log,
		Credentials: func(context.Context) (string, string, error) { return bot, "any", nil }})
	return d, r
}

// A whole game of Prosper by mail through Postfix and Dovecot: welcome
// mails, every player's orders as replies to their reports, acks, reports,
// to the end; the replay verifies.
func TestWholeGameByMail(t *testing.T) {
	if testing.Short() {
		t.Skip("whole game: runs without -short")
	}
	wholeGame(t, prosper.Ruleset(), []string{"ann", "bob", "cyd"}, 0)
}

// TestWholeGamesOfTheOtherRulesetsByMail plays both editions of The
// Earthman's Burden and Orbital to the end through the real servers too,
// and Burning Planets for 12 turns (its bots rarely finish a game).
func TestWholeGamesOfTheOtherRulesetsByMail(t *testing.T) {
	if testing.Short() {
		t.Skip("whole games: run without -short")
	}
	for _, rs := range []engine.Ruleset{earthman.Classic(), earthman.Full(), orbital.Ruleset()} {
		t.Run(rs.Info().Name, func(t *testing.T) { wholeGame(t, rs, []string{"ann", "bob"}, 0) })
	}
	t.Run("burning", func(t *testing.T) { wholeGame(t, burning.Ruleset(), []string{"ann", "bob"}, 12) })
}

// wholeGame plays a game of rs among bot players who read their reports
// and send their orders as real mail through Postfix and Dovecot, to the
// end (or past maxTurns, when not 0), then checks verify and, for a game
// that ended, that everyone got the final report.
func wholeGame(t *testing.T, rs engine.Ruleset, names []string, maxTurns int) {
	e := newRun(t)
	s, bot := e.stack, e.bot
	ctx := e.start(t, "game.db", []engine.Ruleset{rs}, false, 4*time.Minute)
	d := e.d

	specs := e.players(names...)
	g, err := d.Service().Create(ctx, game.CreateRequest{ID: "e2e", Ruleset: rs.Info().Name, Players: specs, DiceSecret: "e2e"})
	if err != nil {
		t.Fatal(err)
	}
	sender := s.sender()
	var sent atomic.Int64
	players := &botplayer.Players{Service: d.Service(), Game: g.ID, Bot: bot, Rand: rand.New(rand.NewPCG(7, 7)), Stall: time.Minute,
		Fetch: s.fetch,
		Send: func(ctx context.Context, m outbox.Mail) error {
			m.Kind = ""
			sent.Add(1)
			return sender.Send(ctx, []outbox.Mail{m})[0]
		}}
	start := time.Now()
	g, err = players.Play(ctx, maxTurns)
	if err != nil {
		t.Fatal(err)
	}
	if maxTurns > 0 {
		if g.Turn <= maxTurns && !g.Over() {
			t.Fatalf("stopped at turn %d of %d", g.Turn, maxTurns)
		}
		if v, err := d.Service().Verify(ctx, g.ID); err != nil || !v.OK() {
			t.Fatalf("verify: %v %v", err, v)
		}
		t.Logf("%s by mail: %d turns, %d steps, %d player mails, %v", rs.Info().Title, g.Turn, g.Step, sent.Load(), time.Since(start).Round(time.Millisecond))
		return
	}
	if !g.Over() {
		t.Fatalf("game not over: %+v", g.Outcome)
	}
	v, err := d.Service().Verify(ctx, g.ID)
	if err != nil || !v.OK() {
		t.Fatalf("verify: %v %v", err, v)
	}
	// Every player gets the final report through Postfix and Dovecot
	// (mail may arrive out of order: look at all of it).
	for _, p := range specs {
		var final *mail.Message
		for deadline := time.Now().Add(30 * time.Second); final == nil && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
			msgs, _ := s.fetch(p.Email)
			for _, raw := range msgs {
				if m, err := mail.ReadMessage(bytes.NewReader(raw)); err == nil && strings.Contains(m.Header.Get("Subject"), "Game over") {
					final = m
				}
			}
		}
		if final == nil {
			t.Errorf("%s did not get the final report", p.Name)
		} else if final.Header.Get("Auto-Submitted") != "auto-generated" || !strings.Contains(final.Header.Get("References"), "game-e2e") {
			t.Errorf("final report headers: %v", final.Header)
		}
	}
	t.Logf("%s by mail: %d turns, %d steps, %d player mails, %v; %s", rs.Info().Title, g.Turn, g.Step, sent.Load(), time.Since(start).Round(time.Millisecond), g.Outcome.Text)
}

// The crash test's daemon runs in a child process (this test binary, with
// ORRERY_E2E_CHILD set), so that it can be killed with SIGKILL.
func TestMain(m *testing.M) {
	if os.Getenv("ORRERY_E2E_CHILD") != "" {
		os.Exit(child())
	}
	os.Exit(m.Run())
}

func child() int {
	// SIGTERM is caught before anything else, and the parent hears
	// "ready" only after that: a burst that ends before the restarted
	// child has opened its store must still stop it cleanly.
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	fmt.Println(childReady)
	real, _ := pbemtest.RealStackFromEnv()
	s := stack{real}
	tb := &childTB{}
	st, d, r := s.newDaemon(tb, os.Getenv("ORRERY_E2E_CHILD_DB"), os.Getenv("ORRERY_E2E_CHILD"), []engine.Ruleset{toy.Ruleset()}, true, nil)
	defer st.Close()
	if err := d.Run(ctx, r); err != nil {
		fmt.Fprintln(os.Stderr, "child:", err)
		return 1
	}
	return 0
}

// childTB lets the child use the helpers written for tests.
type childTB struct{ testing.TB }

func (*childTB) Helper()                   {}
func (*childTB) Fatal(args ...any)         { fmt.Fprintln(os.Stderr, args...); os.Exit(2) }
func (*childTB) Fatalf(f string, a ...any) { fmt.Fprintf(os.Stderr, f+"\n", a...); os.Exit(2) }

func startChild(t *testing.T, db, bot string) *exec.Cmd {
	t.Helper()
	cmd, out := pbemtest.StartChild(t, "ORRERY_E2E_CHILD="+bot, "ORRERY_E2E_CHILD_DB="+db, "ORRERY_E2E_CHILD_BACKOFF=default")
	// Wait for the child to catch SIGTERM; the rest of its output is
	// drained so that it never blocks writing.
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || strings.TrimSpace(line) != childReady {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("the child daemon did not start: %q, %v", line, err)
	}
	go io.Copy(io.Discard, out)
	return cmd
}

// childReady is the line a child daemon prints once it catches SIGTERM.
const childReady = "orrery-e2e-child-ready"

// Kill -9 the daemon in the middle of a burst of mails, start it again,
// and check that every mail was applied exactly once and answered.
func TestCrashMidBurst(t *testing.T) {
	s := getStack(t)
	n := nonce()
	bot := "orrery-" + n + "@" + s.Domain
	ann := "ann-" + n + "@example.org"
	db := filepath.Join(t.TempDir(), "crash.db")
	st, d, _ := s.newDaemon(t, db, bot, []engine.Ruleset{toy.Ruleset()}, true, nil)
	g, err := d.Service().Create(context.Background(), game.CreateRequest{ID: "crash", Ruleset: "toy",
		Players: []game.PlayerSpec{{Name: "ann", Email: ann}}, Options: map[string]string{"finish": "1000000"}})
	if err != nil {
		t.Fatal(err)
	}
	p, _ := g.PlayerByName("ann")
	st.Close()

	// Ann plays alone: each of her mails resolves a turn, one step each.
	const burst = 300
	var burstMails []outbox.Mail
	for i := range burst {
		burstMails = append(burstMails, outbox.Mail{MessageID: fmt.Sprintf("burst-%d-%s@example.org", i, n), From: ann, To: []string{bot},
			Subject: fmt.Sprintf("[crash %s] turn %d", p.Secret, i), Text: fmt.Sprintf("PUSH %d\n", 1+i%3), Date: time.Now()})
	}
	child := startChild(t, db, bot)
	for i, err := range s.sender().Send(context.Background(), burstMails) {
		if err != nil {
			t.Fatalf("mail %d: %v", i, err)
		}
	}
	// mails counts ann's mails of a kind by their In-Reply-To, each
	// distinct Message-ID once: a mail the outbox sent again after the
	// crash is the same mail, not a second answer.
	mails := func(kind string) (map[string]int, int) {
		out := map[string]int{}
		ids := map[string]bool{}
		msgs, _ := s.fetch(ann)
		for _, raw := range msgs {
			m, err := mail.ReadMessage(bytes.NewReader(raw))
			if err != nil || m.Header.Get("X-Orrery-Kind") != kind {
				continue
			}
			id := m.Header.Get("Message-Id")
			if !ids[id] {
				ids[id] = true
				out[m.Header.Get("In-Reply-To")]++
			}
		}
		return out, len(ids)
	}
	acks := func() map[string]int { m, _ := mails("reply"); return m }
	waitUntil := func(what string, within time.Duration, f func() bool) {
		t.Helper()
		for deadline := time.Now().Add(within); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
			if f() {
				return
			}
		}
		t.Fatalf("timed out waiting for %s", what)
	}
	// The kill must come early in the burst: the daemon answers a mail in
	// a few milliseconds, so what decides it is polled with IMAP STATUS
	// (ann's mail count: an ack and a report a mail), not by fetching
	// every mail as acks() does.
	waitUntil("the first answers", time.Minute, func() bool { n, _ := s.Count(ann, "INBOX"); return n >= 20 })
	child.Process.Kill() // SIGKILL, mid-burst
	child.Wait()
	killedAt := len(acks())
	t.Logf("killed the daemon after %d of %d acks", killedAt, burst)
	if killedAt >= burst {
		t.Fatalf("the burst was over before the kill; nothing was tested")
	}
	// The mails the killed daemon had claimed and not settled: a restart
	// must send them at once, not after the 22-37 s backoff of their claim.
	st, err = store.Open(db, store.Options{Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	pending, _ := outbox.Pending(st)
	st.Close()
	inFlight := map[string]bool{}
	for _, it := range pending {
		if it.Owner != "" {
			inFlight["<"+it.Mail.MessageID+">"] = true
		}
	}
	child = startChild(t, db, bot)
	restarted := time.Now()
	if len(inFlight) > 0 {
		waitUntil(fmt.Sprintf("the %d mails in flight at the kill", len(inFlight)), 15*time.Second, func() bool {
			msgs, _ := s.fetch(ann)
			seen := 0
			for _, raw := range msgs {
				if m, err := mail.ReadMessage(bytes.NewReader(raw)); err == nil && inFlight[m.Header.Get("Message-Id")] {
					seen++
				}
			}
			return seen >= len(inFlight)
		})
		t.Logf("the %d mails in flight at the kill were delivered %v after the restart", len(inFlight), time.Since(restarted).Round(time.Millisecond))
	} else {
		t.Log("no mail was in flight at the kill")
	}
	waitUntil("every ack", 2*time.Minute, func() bool { return len(acks()) >= burst })
	// And a report of every turn.
	waitUntil("every report", time.Minute, func() bool { _, n := mails("report"); return n >= burst })
	child.Process.Signal(syscall.SIGTERM)
	if err := child.Wait(); err != nil {
		t.Errorf("daemon exit: %v", err)
	}
	for id, k := range acks() {
		if k != 1 {
			t.Errorf("mail %s got %d different acks", id, k)
		}
	}
	st, err = store.Open(db, store.Options{Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	svc := game.New(st, []engine.Ruleset{toy.Ruleset()})
	x, err := svc.Export(context.Background(), "crash")
	if err != nil {
		t.Fatal(err)
	}
	applied := map[string]int{}
	for _, e := range x.Log {
		if e.Ref != "" {
			applied[e.Ref]++
		}
	}
	for _, m := range burstMails {
		if applied[m.MessageID] != 1 {
			t.Errorf("mail %s applied %d times", m.MessageID, applied[m.MessageID])
		}
	}
	if x.Game.Step != burst {
		t.Errorf("%d steps resolved, want %d", x.Game.Step, burst)
	}
	if c, _ := outbox.Count(st); c.Queued != 0 || c.Dead != 0 {
		t.Errorf("outbox after the run: %+v", c)
	}
	if v, err := svc.Verify(context.Background(), "crash"); err != nil || !v.OK() {
		t.Errorf("verify: %v %v", err, v)
	}
	if left, _ := s.fetch(bot); len(left) != 0 {
		t.Errorf("%d mails left in the bot's inbox", len(left))
	}
}
