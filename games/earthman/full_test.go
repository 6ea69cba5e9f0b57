package earthman

import (
	"reflect"
	"testing"

	"orrery/engine/dice"
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
		ok, faces := rollAtLeast(d, c.need, "test")
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
