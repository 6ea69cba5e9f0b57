package burning

import (
	"strings"
	"testing"

	"orrery/engine"
	"orrery/engine/dice"
)

// TestAnytimePrompt: a player who is not active changes language and offers
// a contract at any time; the answer is resolved alone, rolls no die, and
// the turn stays where it was. Turn orders are refused there.
func TestAnytimePrompt(t *testing.T) {
	s := buildCase(t, secretSetup+"ship 9 cy small AA20\n")
	var any engine.Prompt
	for _, p := range s.Prompts() {
		if p.ID == "any:bob" {
			any = p
		}
	}
	if any.Kind != engine.KindAnytime {
		t.Fatalf("no anytime prompt for bob: %v", s.Prompts())
	}
	if _, errs := s.View("bob").Parse(any, "BUILD TOWER AT R6"); len(errs) != 1 || !strings.Contains(errs[0].Msg, "any time") {
		t.Errorf("a building order at any time: %v", errs)
	}
	orders, errs := s.View("bob").Parse(any, "язык ру\nOFFER ann SHIP 4 GIVE 5B GET 5M")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	d := dice.FromSource(dice.Scripted{})
	events, err := s.Resolve([]engine.Answer{{Prompt: any, Orders: orders}}, d)
	if err != nil || d.Err() != nil {
		t.Fatal(err, d.Err())
	}
	if s.Lang["bob"] != langRU || s.active() != "ann" || len(d.Rolls()) != 0 {
		t.Errorf("lang %q, active %s, rolls %v", s.Lang["bob"], s.active(), d.Rolls())
	}
	if c := s.contract(2); c == nil || c.From != "bob" || c.To != "ann" || c.Accepted {
		t.Fatalf("contract 2: %+v", c)
	}
	for _, e := range events {
		if e.VisibleTo("cy") {
			t.Errorf("cy reads %q", e.Text)
		}
	}
	if !strings.Contains(s.View("bob").Status(), "Договор 2 с ann") {
		t.Errorf("bob's status in Russian lacks the contract:\n%s", s.View("bob").Status())
	}
}
