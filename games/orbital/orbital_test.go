package orbital

import (
	"testing"

	"orrery/engine"
	"orrery/engine/dice"
	"orrery/engine/enginetest"
)

func TestConformance(t *testing.T) { enginetest.Conformance(t, Ruleset(), 30) }

func TestBotGames(t *testing.T) {
	n := 100
	if testing.Short() {
		n = 10
	}
	for seed := 1; seed <= n; seed++ {
		opts := map[string]string{"turn-limit": "12"}
		switch seed % 4 {
		case 1:
			opts["scenario"] = "fast"
			opts["moons"] = "random"
			opts["moon-count"] = "4"
		case 2:
			opts["scenario"] = "refinery"
			opts["refinery-goal"] = "10"
			opts["station-ring"] = "2"
			opts["hit-location"] = "sheet"
		case 3:
			opts["moon-count"] = "3"
			opts["hidden-cargo"] = "on"
			opts["opening"] = "off"
		}
		// Odd seeds: the random exerciser, which wanders over the rules;
		// even seeds: the ruleset's own bot, which plays to win.
		rs := Ruleset()
		if seed%2 == 1 {
			rs = exercised{}
		}
		enginetest.PlayBots(t, rs, enginetest.Options{Players: []string{"ann", "bob"}, Seed: uint64(seed),
			MaxSteps: 40, Options: opts})
	}
}

// A game set up before the options placement and min-distance (rules
// version 1: its options have neither) keeps the sealed placement of the
// opening turn and no minimum distance, so it replays as it was played;
// a game set up now places in seat order.
func TestPlacementOfOlderGames(t *testing.T) {
	opts, _ := engine.ResolveOptions(Ruleset().Info(), nil)
	delete(opts, "placement")
	delete(opts, "min-distance")
	st, err := Ruleset().NewState(engine.Setup{Players: []string{"ann", "bob"}, Options: opts}, dice.New("old"))
	if err != nil {
		t.Fatal(err)
	}
	s := st.(*State)
	if len(s.Placing) != 0 || len(s.Prompts()) != 2 || s.Prompts()[0].ID != "turn:ann" {
		t.Errorf("an older game's first prompts: %v", s.Prompts())
	}
	if _, ok := s.Opts["placement"]; ok {
		t.Errorf("an older game's options gained placement: %v", s.Opts)
	}
	if o, errs := s.View("ann").Parse(s.Prompts()[0], "PLACE S1 4A1"); len(errs) > 0 {
		t.Errorf("PLACE in an older game's opening: %v %v", o, errs)
	}
	now, _ := engine.ResolveOptions(Ruleset().Info(), nil)
	st, _ = Ruleset().NewState(engine.Setup{Players: []string{"ann", "bob"}, Options: now}, dice.New("new"))
	if p := st.Prompts(); len(p) != 1 || p[0].ID != "place:ann" {
		t.Errorf("a new game's first prompts: %v", p)
	}
}
