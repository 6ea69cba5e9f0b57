package enginetest

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"orrery/engine"
	"orrery/engine/dice"
)

// Walk plays one bot game in memory (no store and no replay, so it is quick
// enough to visit many positions; PlayBots verifies whole games) and calls
// visit with the state before each step and once more at the end. Each
// step answers every open prompt that blocks with the bot's orders, as the
// game service does, and resolves them together. It stops when the game
// is over or after o.MaxSteps steps (0: 200).
func Walk(t testing.TB, rs engine.Ruleset, o Options, visit func(step int, st engine.State)) {
	t.Helper()
	opts, err := engine.ResolveOptions(rs.Info(), o.Options)
	if err != nil {
		t.Fatal(err)
	}
	st, err := rs.NewState(engine.Setup{GameID: fmt.Sprintf("walk-%d", o.Seed), Players: o.Players, Options: opts, Version: rs.Info().Version},
		dice.New(fmt.Sprintf("walk-%d", o.Seed)))
	if err != nil {
		t.Fatalf("seed %d: %v", o.Seed, err)
	}
	steps := o.MaxSteps
	if steps <= 0 {
		steps = 200
	}
	r := rand.New(rand.NewPCG(o.Seed, 0x3a1c))
	for step := 0; step < steps && !st.Outcome().Over; step++ {
		visit(step, st)
		var answers []engine.Answer
		for _, p := range st.Prompts() {
			if !p.Kind.Blocks() {
				continue
			}
			v := st.View(p.Player)
			text := rs.Bot(v, p, r)
			orders, errs := v.Parse(p, text)
			if len(errs) > 0 {
				t.Fatalf("seed %d, step %d: the bot's orders for %s are refused: %v\n%s", o.Seed, step, p.ID, errs, text)
			}
			answers = append(answers, engine.Answer{Prompt: p, Orders: orders})
		}
		if len(answers) == 0 {
			break
		}
		if _, err := st.Resolve(answers, dice.New(fmt.Sprintf("walk-%d-%d", o.Seed, step))); err != nil {
			t.Fatalf("seed %d, step %d: %v", o.Seed, step, err)
		}
	}
	visit(steps, st)
}
