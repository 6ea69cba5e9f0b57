package e2e

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"orrery/engine"
	"orrery/engine/game"
	"orrery/engine/store"
	"orrery/pbem/daemon"
)

// e2eRun is one test's daemon on the real servers. newRun gives the names
// of the run first (a nonce, and the bot's address with it), so that a
// test can name its GM and players before the daemon starts; start opens
// the database and runs the daemon until the test ends.
type e2eRun struct {
	stack
	n   string // the run's nonce: in every address, so no earlier run's mail counts
	bot string // the daemon's address, orrery-NONCE@domain
	st  *store.Store
	d   *daemon.Daemon
}

// newRun skips t without the real servers (getStack).
func newRun(t testing.TB) *e2eRun {
	t.Helper()
	s := getStack(t)
	n := nonce()
	return &e2eRun{stack: s, n: n, bot: "orrery-" + n + "@" + s.Domain}
}

// addr is player name's address in this run: name-NONCE@example.org.
func (e *e2eRun) addr(name string) string { return name + "-" + e.n + "@example.org" }

// players are the seats of names, each at its addr.
func (e *e2eRun) players(names ...string) []game.PlayerSpec {
	var specs []game.PlayerSpec
	for _, p := range names {
		specs = append(specs, game.PlayerSpec{Name: p, Email: e.addr(p)})
	}
	return specs
}

// start opens the database file db in t.TempDir() and runs a daemon of the
// rulesets on it (reading the mailbox by IDLE when idle, else by polling)
// until t ends, then stops it and closes the store. The context it
// returns ends after timeout, and with the test.
func (e *e2eRun) start(t *testing.T, db string, rulesets []engine.Ruleset, idle bool, timeout time.Duration, tune ...func(*daemon.Config)) context.Context {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), db), store.Options{Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	return e.startOn(t, st, rulesets, idle, timeout, tune...)
}

// startOn is start on an open store st (of any backend), which it closes
// when t ends.
func (e *e2eRun) startOn(t *testing.T, st *store.Store, rulesets []engine.Ruleset, idle bool, timeout time.Duration, tune ...func(*daemon.Config)) context.Context {
	t.Helper()
	d, r := e.newDaemonOn(t, st, e.bot, rulesets, idle, nil, tune...)
	e.st, e.d = st, d
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- d.Run(runCtx, r) }()
	t.Cleanup(func() {
		stop()
		<-done
		cancel()
		st.Close()
	})
	return ctx
}
