// Package enginetest plays whole games with bots against a real store and
// checks them with the same replay `orrery game verify` runs, so that every
// ruleset's property test exercises the life cycle exactly as production does.
package enginetest

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"orrery/engine"
	"orrery/engine/game"
	"orrery/engine/store"
)

// Options describe one bot game.
type Options struct {
	Players []string          // seat names; all are bots
	Seed    uint64            // fixes the dice secret, so a failure can be replayed
	Options map[string]string // ruleset options
	// MaxSteps bounds the bot submissions of the game (0: 10,000). A game
	// that is not over by then is still verified.
	MaxSteps int
	// Hooks run on every change of the game (RecordReports keeps what
	// each reader was sent).
	Hooks []game.Hook
}

// Result is a finished (or capped) bot game.
type Result struct {
	Game    *game.Game
	Service *game.Service
	Verify  *game.VerifyResult
}

// PlayBots creates a game in a fresh store under t.TempDir, lets the
// ruleset's bot answer every prompt, then verifies the game by replay. It
// fails t on any error, on any verify problem, and on a board or status line
// wider than 78 columns in any player's view (what a mail reader shows).
func PlayBots(t testing.TB, rs engine.Ruleset, o Options) Result {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(filepath.Join(t.TempDir(), "bots.db"), store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	max := o.MaxSteps
	if max <= 0 {
		max = 10000
	}
	svc := game.New(st, []engine.Ruleset{rs}, game.WithBotStepLimit(max), game.WithHooks(o.Hooks...))
	req := game.CreateRequest{ID: fmt.Sprintf("bots-%d", o.Seed), Ruleset: rs.Info().Name, Options: o.Options,
		DiceSecret: fmt.Sprintf("enginetest-%d", o.Seed)}
	for _, p := range o.Players {
		req.Players = append(req.Players, game.PlayerSpec{Name: p, Bot: true})
	}
	g, err := svc.Create(ctx, req)
	if err != nil {
		t.Fatalf("seed %d: %v", o.Seed, err)
	}
	v, err := svc.Verify(ctx, g.ID)
	if err != nil {
		t.Fatalf("seed %d: verify: %v", o.Seed, err)
	}
	if !v.OK() {
		t.Fatalf("seed %d: verify found %d problems:\n%s", o.Seed, len(v.Problems), strings.Join(v.Problems, "\n"))
	}
	for _, p := range append([]string{""}, o.Players...) {
		r, err := svc.Report(ctx, g.ID, p)
		if err != nil {
			t.Fatalf("seed %d: report for %q: %v", o.Seed, p, err)
		}
		if line, n := widest(r.Board); n > 78 {
			t.Errorf("seed %d: the board as %q sees it has a line of %d columns (max 78): %q", o.Seed, p, n, line)
		}
		if line, n := widest(r.Status); n > 78 {
			t.Errorf("seed %d: the status as %q sees it has a line of %d columns (max 78; engine.Wrap wraps a sentence): %q", o.Seed, p, n, line)
		}
	}
	return Result{Game: g, Service: svc, Verify: v}
}

func widest(s string) (string, int) {
	var line string
	n := 0
	for _, l := range strings.Split(s, "\n") {
		if w := utf8.RuneCountInString(l); w > n {
			line, n = l, w
		}
	}
	return line, n
}

// Events returns every event of the game as the GM saw it, step by step,
// so a property test can check that bots reach the parts of the rules it
// cares about (combat, say). It reads the stored steps, so call it only
// when needed.
func (r Result) Events(t testing.TB) []string {
	t.Helper()
	var out []string
	for n := uint64(0); n <= r.Game.Step; n++ {
		rep, err := r.Service.StepReport(context.Background(), r.Game.ID, n, "")
		if err != nil {
			t.Fatalf("step %d: %v", n, err)
		}
		out = append(out, rep.Events...)
	}
	return out
}
