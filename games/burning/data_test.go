package burning

import (
	"encoding/json"
	"testing"

	"orrery/engine"
)

// TestViewDataKeepsSecrets: the view as data (report.json) holds what the
// view shows and no more: bob's manifests and bank reach only bob (and the
// GM), his contract with cy only the two of them.
func TestViewDataKeepsSecrets(t *testing.T) {
	s := buildCase(t, secretSetup)
	s.Advance = map[string][]string{"bob": {"SHIP 2 MOVE O6"}}
	type data struct {
		Bank  map[string]Res `json:"bank"`
		Ships []struct {
			ID    int    `json:"id"`
			At    string `json:"at"`
			Cargo *Res   `json:"cargo"`
			Load  string `json:"load"`
		} `json:"ships"`
		Contracts []Contract `json:"contracts"`
		Advance   []string   `json:"advance"`
		Planets   []Planet   `json:"planets"`
	}
	read := func(v engine.View) data {
		raw, err := json.Marshal(v.(engine.ViewData).Data())
		if err != nil {
			t.Fatal(err)
		}
		var d data
		if err := json.Unmarshal(raw, &d); err != nil {
			t.Fatal(err)
		}
		return d
	}
	for _, c := range []struct {
		who                    string
		v                      engine.View
		manifest, bank, treaty bool
	}{
		{"ann", s.View("ann"), false, false, false},
		{"cy", s.View("cy"), false, false, true},
		{"an observer", s.PublicView(), false, false, false},
		{"bob", s.View("bob"), true, true, true},
		{"the GM", s.View(""), true, true, true},
	} {
		d := read(c.v)
		if len(d.Ships) != 3 || len(d.Planets) == 0 {
			t.Fatalf("%s's data lacks the board: %+v", c.who, d)
		}
		for _, sh := range d.Ships {
			if sh.ID == 2 {
				if got := sh.Cargo != nil && sh.Cargo.B == 777 && sh.Load == "station"; got != c.manifest {
					t.Errorf("%s sees bob's manifest: %v, want %v (%+v)", c.who, got, c.manifest, sh)
				}
				if sh.At != "N6" {
					t.Errorf("ship 2 is at %q, want N6", sh.At)
				}
			}
		}
		if _, got := d.Bank["bob"]; got != c.bank {
			t.Errorf("%s sees bob's bank: %v, want %v", c.who, got, c.bank)
		}
		if got := len(d.Contracts) == 1 && d.Contracts[0].Get.F == 999; got != c.treaty {
			t.Errorf("%s sees bob's contract with cy: %v, want %v", c.who, got, c.treaty)
		}
		if got := len(d.Advance) > 0; got != (c.who == "bob") {
			t.Errorf("%s sees advance orders: %v", c.who, d.Advance)
		}
	}
}
