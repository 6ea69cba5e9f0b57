package orderline_test

import (
	"testing"

	"orrery/engine/orderline"
)

// TestOrder: the rule reads a language's own lines as orders and chatter
// as chatter, knows no mail command unless given it (the mail side adds
// its own), and reads short codes and typos as orders.
func TestOrder(t *testing.T) {
	c := orderline.New([]string{"MOVE", "DONE", "P"}, []string{"FROM", "TO"})
	for line, want := range map[string]bool{
		"MOVE 5 FROM Sol TO Vega": true,
		"p":                       true,
		"  - done":                true,
		"MOEV 5 FROM Sol TO Vega": true,
		"5 FROM Sol TO Vega":      true,
		"Hi!":                     false,
		"Thanks, see you":         false,
		"HELP":                    false,
		"q":                       false,
		". * . *":                 false,
	} {
		if got := c.Order(line); got != want {
			t.Errorf("Order(%q) = %v, want %v", line, got, want)
		}
	}
	if !c.StartsWithVerb("move 1 FROM a TO b") || c.StartsWithVerb("moev 1") {
		t.Error("StartsWithVerb")
	}
}
