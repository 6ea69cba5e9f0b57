package game_test

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"orrery/engine"
	"orrery/engine/enginetest/toy"
	"orrery/engine/game"
	"orrery/engine/store"
)

// TestBotGamesCreatedWhileTicking: games of bots only are created while
// the daemon's tick plays bots too. Both read a bot's open prompt and then
// answer it in a transaction of their own, so the other may have answered
// it, or resolved the step, in between; the second answer must see that
// and move on, not fail the creation with "nothing called … is asked".
func TestBotGamesCreatedWhileTicking(t *testing.T) {
	st, err := store.Open(filepath.Join(t.TempDir(), "g.db"), store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	svc := game.New(st, []engine.Ruleset{toy.Ruleset()})
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for ctx.Err() == nil {
			if _, err := svc.Tick(ctx); err != nil && ctx.Err() == nil {
				t.Errorf("tick: %v", err)
			}
			time.Sleep(time.Millisecond)
		}
	}()
	const games = 30
	for i := range games {
		id := fmt.Sprintf("bots%d", i)
		_, err := svc.Create(ctx, game.CreateRequest{ID: id, Ruleset: "toy", DiceSecret: "race-" + id,
			Options:  map[string]string{"finish": "40"},
			Players:  []game.PlayerSpec{{Name: "ann", Bot: true}, {Name: "bob", Bot: true}, {Name: "cy", Bot: true}},
			Settings: &game.Settings{Early: true, TurnLength: time.Hour}})
		if err != nil {
			t.Errorf("creating %s while ticking: %v", id, err)
		}
	}
	cancel()
	wg.Wait()
	for i := range games {
		id := fmt.Sprintf("bots%d", i)
		if v, err := svc.Verify(context.Background(), id); err != nil || !v.OK() {
			t.Errorf("%s does not verify: %v %v", id, err, v)
		}
		if g, err := svc.Get(context.Background(), id); err != nil || !g.Over() {
			t.Errorf("%s is not over: %v", id, err)
		}
	}
}
