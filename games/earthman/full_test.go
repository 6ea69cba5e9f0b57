package earthman

import (
	"reflect"
	"testing"

	"orrery/engine"
	"orrery/engine/dice"
	"orrery/engine/lang"
)

// TestRollAtLeast tests the 7+/8+/9+ rule and its edges with scripted dice.
func TestRollAtLeast(t *testing.T) {
	for _, c := range []struct {
		need  int
		dice  []int
		ok    bool
		rolls int
	}{
		{0, nil, true, 0}, {1, nil, true, 0},
		{2, []int{2}, true, 1}, {2, []int{1}, false, 1},
		{6, []int{6}, true, 1}, {6, []int{5}, false, 1},
		{7, []int{5}, false, 1}, {7, []int{6, 4}, true, 2}, {7, []int{6, 3}, false, 2},
		{8, []int{6, 6}, true, 2}, {8, []int{6, 5}, false, 2}, {8, []int{5}, false, 1},
		{9, nil, false, 0}, {12, nil, false, 0},
	} {
		d := dice.FromSource(dice.Scripted(c.dice))
		ok, faces := rollAtLeast(d, c.need, lang.M("test"))
		if ok != c.ok || len(d.Rolls()) != c.rolls || d.Err() != nil {
			t.Errorf("need %d with %v: ok=%v after %d rolls (%v), want ok=%v after %d", c.need, c.dice, ok, len(d.Rolls()), d.Err(), c.ok, c.rolls)
		}
		if len(faces) != c.rolls {
			t.Errorf("need %d: faces %v", c.need, faces)
		}
	}
}

func TestPowerPoints(t *testing.T) {
	four := []string{"a", "b", "c", "d"}
	for _, c := range []struct {
		power   map[string]int
		players []string
		want    int
	}{
		{map[string]int{"a": 7, "b": 0}, []string{"a", "b"}, 0},              // below 8
		{map[string]int{"a": 8, "b": 0}, []string{"a", "b"}, 2},              // 2 players: both points
		{map[string]int{"a": 8, "b": 8}, []string{"a", "b"}, 0},              // a tie is not "strictly more"
		{map[string]int{"a": 9, "b": 8, "c": 20, "d": 20}, four, 0},          // beats 1 of 3: not half
		{map[string]int{"a": 9, "b": 8, "c": 8, "d": 20}, four, 1},           // beats 2 of 3: ⌈3/2⌉
		{map[string]int{"a": 9, "b": 8, "c": 8, "d": 8}, four, 2},            // beats all
		{map[string]int{"a": 9, "b": 8, "c": 9}, []string{"a", "b", "c"}, 1}, // beats 1 of 2: half
	} {
		if got := powerPoints(c.power, c.players, "a"); got != c.want {
			t.Errorf("%v: %d VP, want %d", c.power, got, c.want)
		}
	}
}

func TestEndTriggered(t *testing.T) {
	p := []string{"a", "b", "c"}
	for _, c := range []struct {
		vp     map[string]int
		strict bool
		want   bool
	}{
		{map[string]int{"a": 29, "b": 25, "c": 25}, false, false},
		{map[string]int{"a": 30, "b": 25, "c": 25}, false, true}, // 001-G4: inclusive
		{map[string]int{"a": 30, "b": 25, "c": 25}, true, false}, // the literal "more than 30"
		{map[string]int{"a": 31, "b": 25, "c": 25}, true, true},
		{map[string]int{"a": 11, "b": 0, "c": 0}, false, true},  // ahead of every other by more than 10
		{map[string]int{"a": 11, "b": 0, "c": 1}, false, false}, // 001-G5: ahead of c by only 10
		{map[string]int{"a": 10, "b": 0, "c": 0}, false, false},
	} {
		if got := endTriggered(c.vp, p, "a", c.strict); got != c.want {
			t.Errorf("%v strict=%v: %v, want %v", c.vp, c.strict, got, c.want)
		}
	}
	if !lastOfRound(0, 3, 4) || lastOfRound(0, 0, 4) || !lastOfRound(2, 1, 4) {
		t.Errorf("lastOfRound: the player to the right of the first is the seat before it")
	}
}

// TestInitialDevastation checks 001-F3's table: 20 counters in all.
func TestInitialDevastation(t *testing.T) {
	want := map[string][]int{
		"Mercury": {1, 0}, "Venus": {2, 2, 1, 1}, "Earth": {0, 0, 0, 0, 0, 0, 0}, "Luna": {1, 0, 0},
		"Mars": {1, 1, 0, 0, 0}, "Ceres": {1, 0}, "Io": {2, 1, 1}, "Europa": {1, 0, 0},
		"Ganymede": {1, 1, 0, 0}, "Titan": {1, 1, 0, 0, 0},
	}
	total := 0
	for _, w := range board.Worlds() {
		got := initialDevastation(w)
		if !reflect.DeepEqual(got, want[w.Name]) {
			t.Errorf("%s: %v, want %v", w.Name, got, want[w.Name])
		}
		for _, n := range got {
			total += n
		}
	}
	if total != 20 {
		t.Errorf("%d Devastation counters, want 20 (001-F3)", total)
	}
}

func TestFullSetup(t *testing.T) {
	s := newFullState([]string{"ann", "bob"})
	got := s.fullSummary()
	want := "ann: economy 3 discontent 0 power 0\nbob: economy 3 discontent 0 power 0\n" +
		"Earth ann fleets 3 ok 0 at risk\nEarth bob fleets 3 ok 0 at risk\n"
	if got != want {
		t.Errorf("setup:\n%s\nwant:\n%s", got, want)
	}
	for _, r := range s.Regions["Earth"] {
		if r.Owner != un || r.Devs != 1 {
			t.Errorf("Earth region %+v: want one UN development", r)
		}
	}
}

// TestAddUnits covers 3.1 and 3.2: resources first, then discontent (never
// for the UN's fleet of 2.6); +2 resources and +1 Power a development, +1
// more for the first in a region on Earth or under the player's PI.
func TestAddUnits(t *testing.T) {
	s := newFullState([]string{"ann", "bob"})
	s.P["ann"].Economy = 1
	s.addFleet("ann", "Mars", false)
	s.addFleet("ann", "Mars", false)
	if _, ok := s.addFleet("ann", "Earth", true); ok {
		t.Errorf("a UN-assisted fleet was taken on discontent")
	}
	if f := s.fleetsAt("ann", "Mars"); f.Ok != 2 || s.P["ann"].Economy != 0 || s.P["ann"].Discontent != 1 {
		t.Errorf("after two fleets: %+v economy %d discontent %d", f, s.P["ann"].Economy, s.P["ann"].Discontent)
	}
	s.addDev("ann", "Mars", 2, false) // first in region, no PI: +1
	s.addDev("ann", "Mars", 2, false) // second in region: +1
	s.PI["Mars"] = []string{"ann"}
	s.addDev("ann", "Mars", 3, false) // first in region with PI: +2
	if p := s.P["ann"]; p.Power != 4 || p.Economy != 6 {
		t.Errorf("after three developments: power %d economy %d, want 4 and 6", p.Power, p.Economy)
	}
}

// TestRemoveDev covers 3.4: pay from the pool, then the standing order
// (discontent with its roll, or scrapping a fleet); Power; Devastation on
// the last development of a region; losing the PI counter.
func TestRemoveDev(t *testing.T) {
	s := newFullState([]string{"ann", "bob"})
	s.addDev("ann", "Mars", 2, false)
	s.addDev("ann", "Mars", 2, false)
	s.PI["Mars"] = []string{"ann"}
	s.P["ann"].Economy = 1
	s.P["ann"].Power = 5
	d := dice.FromSource(dice.Scripted{1})
	told := s.removeDev(d, "Mars", 2, true) // one resource, then discontent rolls 1
	p := s.P["ann"]
	if p.Economy != 0 || p.Discontent != 1 || p.Power != 4 || s.fleetsAt("ann", "Earth").Risk != 1 {
		t.Errorf("first removal: %+v, fleets %+v; %v", p, s.fleetsAt("ann", "Earth"), told)
	}
	p.PayWith = "scrap"
	d = dice.FromSource(dice.Scripted{})
	told = s.removeDev(d, "Mars", 2, true) // two scrapped fleets (At Risk first); last in region with PI
	if p.Power != 2 || s.fleetsAt("ann", "Earth").Ok+s.fleetsAt("ann", "Earth").Risk != 1 || p.Economy != 0 {
		t.Errorf("second removal: %+v, fleets %+v; %v", p, s.fleetsAt("ann", "Earth"), told)
	}
	if r := s.Regions["Mars"][2]; r.Owner != "" || r.Devastation != 1 {
		t.Errorf("region after its last development: %+v, want empty with a Devastation counter", r)
	}
	if len(s.PI["Mars"]) != 0 {
		t.Errorf("the PI counter stayed after the last development on Mars")
	}
}

// TestSpreadRisk covers 2.2.1 at its edges: a roll of 3 does nothing, 2
// spreads to a healthy fleet, and with no healthy fleet left a 1 removes an
// At Risk fleet (back to the pool); a region with no healthy neighbour loses
// its developments.
func TestSpreadRisk(t *testing.T) {
	s := newFullState([]string{"ann", "bob"})
	f := s.fleetsAt("ann", "Earth")
	f.Ok, f.Risk = 1, 1
	s.addDev("ann", "Titan", 4, true)
	s.P["ann"].Economy = 0
	s.P["ann"].Power = 3
	// Fleet roll 2: spreads (now 0 ok, 2 at risk). Region roll 1: no other
	// region, so Titan 5 is lost: 3.4 pays with discontent, rolls 4 and 5.
	d := dice.FromSource(dice.Scripted{2, 1, 4, 5})
	told := s.spreadRisk(d, "ann")
	if f.Ok != 0 || f.Risk != 2 {
		t.Errorf("fleets %+v, want 0 ok 2 at risk; %v", f, told)
	}
	if r := s.Regions["Titan"][4]; r.Owner != "" || s.P["ann"].Discontent != 2 || s.P["ann"].Power != 2 {
		t.Errorf("Titan 5 %+v, player %+v; %v", r, s.P["ann"], told)
	}
	if d.Err() != nil || len(d.Rolls()) != 4 {
		t.Errorf("rolls: %v %d", d.Err(), len(d.Rolls()))
	}
	// Now both At Risk fleets roll: 3 (nothing), then 1: no healthy fleet
	// there, so one is removed and returns as a resource.
	d = dice.FromSource(dice.Scripted{3, 1})
	s.spreadRisk(d, "ann")
	if f.Risk != 1 || s.P["ann"].Economy != 1 || d.Err() != nil {
		t.Errorf("fleets %+v economy %d; %v", f, s.P["ann"].Economy, d.Err())
	}
}

// TestDiscontentAndMutiny covers 2.2.2: 3 does nothing; 2 sets a fleet At
// Risk and a second roll of 1 is a mutiny of an At Risk and a loyal fleet.
func TestDiscontentAndMutiny(t *testing.T) {
	s := newFullState([]string{"ann", "bob"})
	s.P["ann"].Discontent = 2
	s.P["ann"].Economy = 0
	d := dice.FromSource(dice.Scripted{3, 2, 1})
	told := s.discontent(d, "ann")
	f := s.fleetsAt("ann", "Earth")
	if f.Ok != 1 || f.Risk != 0 || s.P["ann"].Economy != 2 || d.Err() != nil || len(d.Rolls()) != 3 {
		t.Errorf("fleets %+v economy %d rolls %d %v; %v", f, s.P["ann"].Economy, len(d.Rolls()), d.Err(), told)
	}
}

// TestTechPrerequisites checks section 5's prerequisites and maximum levels.
func TestTechPrerequisites(t *testing.T) {
	tech := func(name string) tech { x, _ := techByName(name); return x }
	for _, c := range []struct {
		name string
		lv   map[string]int
		want bool
	}{
		{"Attack", nil, true},
		{"Attack", map[string]int{"Attack": 3}, false}, // maximum 3
		{"Launch", map[string]int{"Launch": 1}, false}, // maximum 1
		{"AI", map[string]int{"Attack": 1, "Durability": 1}, false},
		{"AI", map[string]int{"Attack": 1, "Durability": 1, "Unity": 1}, true},
		{"AI", map[string]int{"AI": 9, "Attack": 1, "Durability": 1, "Unity": 1}, true}, // unlimited
		{"Nanotechnology", nil, false},
		{"Nanotechnology", map[string]int{"Launch": 1}, true},
		{"VonNeumann", map[string]int{"Nanotechnology": 1}, true},
		{"VonNeumann", map[string]int{"Attack": 1, "Launch": 1}, false},
		{"VonNeumann", map[string]int{"Attack": 1, "Launch": 1, "Stability": 1}, true},
	} {
		if got := canResearch(tech(c.name), c.lv); got != c.want {
			t.Errorf("%s with %v: %v, want %v", c.name, c.lv, got, c.want)
		}
	}
	if len(techs) != 13 {
		t.Errorf("%d technologies, want the 13 of section 5", len(techs))
	}
}

// TestSkynetDeck: the 20 Unexpected AI Thoughts of 6.1 (001-F6), five
// each with 0, 1, 2 and 3 Rogue symbols, each with its own text; the
// setup shuffle by recorded rolls deals every card once.
func TestSkynetDeck(t *testing.T) {
	count := map[int]int{}
	texts := map[string]bool{}
	for _, c := range skynetCards {
		count[c.Rogue]++
		if c.Text.ID == "" || texts[c.Text.ID] {
			t.Errorf("card %q: empty or written twice", c.Text.ID)
		}
		texts[c.Text.ID] = true
	}
	if len(skynetCards) != 20 || count[0] != 5 || count[1] != 5 || count[2] != 5 || count[3] != 5 {
		t.Errorf("%d cards by Rogue symbols %v, want 20: five each of 0-3", len(skynetCards), count)
	}
	// The first player (a d2 of 1), then the shuffle's 19 rolls, of 20
	// down to 2 sides: each roll of 2 swaps a card with the second.
	script := dice.Scripted{1}
	for i := 19; i > 0; i-- {
		script = append(script, 2)
	}
	d := dice.FromSource(script)
	s, err := newFull(engine.Setup{Players: []string{"ann", "bob"}, Options: map[string]string{"skynet": "on"}}, d)
	if err != nil || d.Err() != nil || len(d.Rolls()) != 20 {
		t.Fatalf("setup: %v; dice %v after %d rolls", err, d.Err(), len(d.Rolls()))
	}
	seen := map[int]bool{}
	for _, c := range s.Deck {
		seen[c] = true
	}
	if len(s.Deck) != 20 || len(seen) != 20 {
		t.Errorf("deck after the shuffle %v: want each of the 20 cards once", s.Deck)
	}
}
