package game_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"

	"orrery/engine"
	"orrery/engine/enginetest/toy"
	"orrery/engine/game"
	"orrery/engine/store"
)

// loadCounter is the toy, counting the states it decodes.
type loadCounter struct {
	engine.Ruleset
	loads *atomic.Int64
}

func (r loadCounter) LoadState(data []byte) (engine.State, error) {
	r.loads.Add(1)
	return r.Ruleset.LoadState(data)
}

// A step is reported to all its readers from one decoded state, decoded
// when the first report is asked for; the reports are the same as those
// built one state each (StepReport reads the step back from the store),
// and the same when built at once on several goroutines.
func TestStepReportsShareOneDecodedState(t *testing.T) {
	ctx := context.Background()
	loads := new(atomic.Int64)
	svc, _, _ := newServiceWith(t, []engine.Ruleset{loadCounter{toy.Ruleset(), loads}})
	mustCreate(t, svc, game.CreateRequest{ID: "g", Ruleset: "toy", DiceSecret: "share", Players: seats("ann@x.org", "bob@x.org", "cy@x.org")})
	var steps []game.Step
	hook := func(tx store.Tx, c *game.Change) error { steps = append(steps, c.Steps...); return nil }
	for _, p := range []string{"ann", "bob", "cy"} {
		if _, err := svc.Submit(ctx, game.Input{Game: "g", Player: p, Prompt: "push:" + p, Text: "PUSH 2", Source: "test"}, hook); err != nil {
			t.Fatal(err)
		}
	}
	if len(steps) != 1 {
		t.Fatalf("%d steps, want the one turn", len(steps))
	}
	readers := []string{"ann", "bob", "cy", "", game.Observer}
	before := loads.Load()
	for _, p := range readers {
		rep, err := steps[0].Report(p)
		if err != nil {
			t.Fatal(err)
		}
		want, err := svc.StepReport(ctx, "g", steps[0].N, p)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Board != want.Board || rep.Status != want.Status || rep.Player != want.Player {
			t.Errorf("%q's report from the shared state differs from the stored step's:\n%s%s\n---\n%s%s", p, rep.Board, rep.Status, want.Board, want.Status)
		}
	}
	// StepReport decodes one state per call; the step's own reports one
	// for all.
	if got := loads.Load() - before - int64(len(readers)); got != 1 {
		t.Errorf("the step's %d reports decoded %d states, want 1", len(readers), got)
	}
	var wg sync.WaitGroup
	boards := make([]string, 4*len(readers))
	for i := range boards {
		wg.Go(func() {
			rep, err := steps[0].Report(readers[i%len(readers)])
			if err != nil {
				t.Error(err)
				return
			}
			boards[i] = rep.Board + rep.Status
		})
	}
	wg.Wait()
	for i := len(readers); i < len(boards); i++ {
		if boards[i] != boards[i%len(readers)] {
			t.Errorf("reports built at once differ for %q", readers[i%len(readers)])
		}
	}
}
