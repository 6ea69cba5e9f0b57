package prosper

import (
	"encoding/json"
	"strings"
	"testing"

	"orrery/engine"
	"orrery/engine/dice"
)

// TestViewDataHidesOthersPlans: the view as data (report.json) has the
// whole board and the reader's own plan, never another player's.
func TestViewDataHidesOthersPlans(t *testing.T) {
	o, _ := engine.ResolveOptions(Ruleset().Info(), nil)
	st, err := Ruleset().NewState(engine.Setup{GameID: "g", Players: []string{"ann", "bob"}, Options: o}, dice.New("data"))
	if err != nil {
		t.Fatal(err)
	}
	s := st.(*State)
	s.Plans = map[string][]string{"ann": {"SETTLE Vega 3"}, "bob": {"SETTLE Sirius 9"}}
	data, err := json.Marshal(s.View("ann").(engine.ViewData).Data())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "SETTLE Vega 3") || strings.Contains(string(data), "Sirius 9") {
		t.Errorf("ann's view as data: %s", data)
	}
	if !strings.Contains(string(data), `"planets"`) {
		t.Errorf("the board is missing: %s", data)
	}
	pub, _ := json.Marshal(s.PublicView().(engine.ViewData).Data())
	if strings.Contains(string(pub), "SETTLE") {
		t.Errorf("an observer's data holds a plan: %s", pub)
	}
}
