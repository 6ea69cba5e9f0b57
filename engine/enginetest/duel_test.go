package enginetest_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"orrery/engine"
	"orrery/engine/enginetest"
	"orrery/engine/enginetest/toy"
)

// TestDuelToy plays the toy race: the bot pushes 1 to 3 a turn, the
// passive player its default of 1, both plus a d6. The bot must win more
// often than it loses from either seat, every game must end, and the same
// seed must play the same game.
func TestDuelToy(t *testing.T) {
	first, second, fails := enginetest.DuelSeries(toy.Ruleset(), 60, nil, 500)
	if len(fails) > 0 {
		t.Fatalf("duels failed: %v", fails)
	}
	for _, c := range []struct {
		seat string
		d    enginetest.DuelTally
	}{{"first", first}, {"second", second}} {
		if c.d.Games != 30 || c.d.Won+c.d.Lost+c.d.Drawn+c.d.Unfinished != 30 {
			t.Errorf("bot %s: %v does not add up to 30 games", c.seat, c.d)
		}
		if c.d.Unfinished > 0 || c.d.Won <= c.d.Lost || c.d.MeanTurns() < 1 {
			t.Errorf("bot %s: %v", c.seat, c.d)
		}
	}
	a, err := enginetest.Duel(toy.Ruleset(), enginetest.DuelOptions{Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	b, err := enginetest.Duel(toy.Ruleset(), enginetest.DuelOptions{Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	if a != b {
		t.Errorf("seed 7 played twice: %+v, then %+v", a, b)
	}
}

// garbled is the toy with a bot whose orders its own rules refuse.
type garbled struct{ engine.Ruleset }

func (garbled) Bot(engine.View, engine.Prompt, *rand.Rand) string { return "FLY AWAY" }

// TestDuelRefusedBot: orders a bot's own rules refuse fail the duel, with
// the seed, the step and the text, rather than being dropped.
func TestDuelRefusedBot(t *testing.T) {
	_, err := enginetest.Duel(garbled{toy.Ruleset()}, enginetest.DuelOptions{Seed: 3})
	if err == nil || !strings.Contains(err.Error(), "seed 3 step 0") || !strings.Contains(err.Error(), "FLY AWAY") {
		t.Errorf("a bot with refused orders: %v", err)
	}
}
