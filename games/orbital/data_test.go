package orbital

import (
	"encoding/json"
	"testing"

	"orrery/engine"
)

// TestViewDataIsTheView: the view as data (report.json) holds the units
// the view shows and no other: what rides on an enemy booster stays out.
func TestViewDataIsTheView(t *testing.T) {
	s := &State{Units: []*Unit{
		{ID: "B1", Owner: "bob", Kind: Booster},
		{ID: "W2", Owner: "bob", Kind: Warhead, In: "B1"},
		{ID: "S3", Owner: "ann", Kind: Station},
	}}
	for player, want := range map[string]int{"ann": 2, "bob": 3} {
		data, err := json.Marshal(s.View(player).(engine.ViewData).Data())
		if err != nil {
			t.Fatal(err)
		}
		var got struct {
			Units []struct{ ID string } `json:"units"`
		}
		if err := json.Unmarshal(data, &got); err != nil {
			t.Fatal(err)
		}
		if len(got.Units) != want {
			t.Errorf("%s's data has %d units, want %d: %s", player, len(got.Units), want, data)
		}
	}
}
