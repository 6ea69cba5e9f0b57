package game_test

import (
	"context"
	"strings"
	"testing"

	"orrery/engine"
	"orrery/engine/game"
)

// TestAnytimeOrdersKeepTheTurn (issue 19): orders the player's anytime
// prompt takes, sent with no prompt named while a turn is asked of them,
// are any-time orders: they are resolved at once and neither answer nor
// replace the turn. The result lists them as such; a turn's orders list
// none.
func TestAnytimeOrdersKeepTheTurn(t *testing.T) {
	svc, _ := newService(t)
	create(t, svc, "g", "ann", "bob")
	ctx := context.Background()
	turn := submit(t, svc, "g", "ann", "PUSH 2")
	if !turn.Accepted || turn.Prompt.ID != "push:ann" || len(turn.Anytime) != 0 {
		t.Fatalf("ann's turn: %+v", turn)
	}
	motto := submit(t, svc, "g", "ann", "motto onward")
	if !motto.Accepted || motto.Prompt.Kind != engine.KindAnytime || motto.Replaced {
		t.Fatalf("ann's motto went to %s (replaced %v)", motto.Prompt.ID, motto.Replaced)
	}
	if strings.Join(motto.Anytime, "|") != "MOTTO onward" || len(motto.Steps) != 1 {
		t.Errorf("anytime %q, %d steps", motto.Anytime, len(motto.Steps))
	}
	x, err := svc.Export(ctx, "g")
	if err != nil {
		t.Fatal(err)
	}
	if p, ok := x.Pending["push:ann"]; !ok || p.Text != "PUSH 2" {
		t.Fatalf("ann's turn after her motto: %+v", x.Pending)
	}
	// Checking orders chooses the same prompt as submitting them.
	if c, err := svc.Check(ctx, inputOf("g", "bob", "MOTTO hush")); err != nil || c.Prompt.ID != "motto:bob" {
		t.Errorf("check: %v %+v", err, c)
	}
	// Empty text is a turn (a pass), not an any-time order.
	if c, err := svc.Check(ctx, inputOf("g", "bob", "")); err != nil || c.Prompt.ID != "push:bob" {
		t.Errorf("check of nothing: %v %+v", err, c)
	}
	res := submit(t, svc, "g", "bob", "PUSH 1")
	var events []string
	for _, s := range res.Steps {
		for _, e := range s.Events {
			events = append(events, e.Text)
		}
	}
	if all := strings.Join(events, "\n"); !strings.Contains(all, "ann pushes 2+") {
		t.Errorf("ann's turn was not played as sent:\n%s", all)
	}
}

func inputOf(id, player, text string) game.Input {
	return game.Input{Game: id, Player: player, Text: text, Source: "test"}
}
