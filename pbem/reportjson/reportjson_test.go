package reportjson

import (
	"encoding/json"
	"strings"
	"testing"

	"orrery/engine"
	"orrery/engine/dice"
	"orrery/engine/game"
)

type dataView struct{ engine.View }

func (dataView) Data() any { return map[string]int{"ships": 12} }

func TestBuild(t *testing.T) {
	r := &game.Report{Game: "g1", Ruleset: "prosper", Title: "Prosper or Perish", Player: "ann", Step: 3, Turn: 2,
		Phase: "production", Reason: "all orders in", Board: "BOARD", Status: "STATUS", Events: []string{"bob moves"},
		Rolls:        []dice.Roll{{N: 1, Sides: 6, Value: 4, Purpose: "bob attacks"}},
		RevealedSeed: "seed", RevealedCommitment: "commit", NextCommitment: "next",
		Prompts: []engine.Prompt{{ID: "turn:ann", Player: "ann", Kind: engine.KindTurn, Ask: "Your orders?", Default: "HOLD"}},
		Waiting: []string{"ann"}, Deadline: "2026-11-26 18:00 UTC", View: dataView{},
		Hands: []game.Hand{{Seat: "bob", By: "eve"}, {Seat: "cyd", Bot: true}}}
	b, err := Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"version": float64(1), "game": "g1", "player": "ann", "turn": float64(2), "phase": "production",
		"deadline": "2026-11-26T18:00:00Z", "seed": "seed", "next_commitment": "next"}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %v, want %v", k, got[k], v)
		}
	}
	for _, s := range []string{`"view": {`, `"ships": 12`, `"purpose": "bob attacks"`, `"kind": "turn"`, `"blocks": true`, `"default": "HOLD"`,
		`"seat": "bob",`, `"by": "eve"`, `"seat": "cyd",`, `"bot": true`} {
		if !strings.Contains(string(b), s) {
			t.Errorf("report.json lacks %s:\n%s", s, b)
		}
	}
	// Over: no next commitment, the winners and the secret.
	r.Outcome, r.DiceSecret, r.Prompts = engine.Outcome{Over: true, Winners: []string{"ann"}, Text: "ann won"}, "s3cret", nil
	x := Build(r)
	if !x.Over || x.Next != "" || x.DiceSecret != "s3cret" || len(x.Prompts) != 0 || x.Prompts == nil {
		t.Errorf("the end: %+v", x)
	}
}

// TestNewsFirst (issue 44): report.json reads in the mail's order: the
// reader's own news, then what is asked and by when, then the rest.
func TestNewsFirst(t *testing.T) {
	r := &game.Report{Game: "g1", Player: "ann", Events: []string{"ann's fleet is lost", "bob moves"}, News: 1,
		Prompts:  []engine.Prompt{{ID: "turn:ann", Player: "ann", Kind: engine.KindTurn, Ask: "Your orders?"}},
		Deadline: "2026-11-26 18:00 UTC", Board: "BOARD"}
	b, err := Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	if x := Build(r); len(x.News) != 1 || x.News[0] != "ann's fleet is lost" || len(x.Events) != 2 {
		t.Errorf("news %q, events %q", x.News, x.Events)
	}
	order := []string{`"news"`, `"prompts"`, `"deadline"`, `"board"`, `"events"`}
	for i := 1; i < len(order); i++ {
		if a, b := strings.Index(s, order[i-1]), strings.Index(s, order[i]); a < 0 || b < 0 || a > b {
			t.Errorf("%s is not before %s:\n%s", order[i-1], order[i], s)
		}
	}
}
