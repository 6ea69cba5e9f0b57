package engine

import (
	"slices"
	"testing"

	"orrery/engine/lang"
)

// TestEventConcerns (issue 44): an event is the reader's own news when it
// says it is about their seat, or, saying nothing, is addressed to them
// alone; never the GM's or an observer's.
func TestEventConcerns(t *testing.T) {
	for _, c := range []struct {
		name   string
		e      Event
		player string
		want   bool
	}{
		{"about the reader", Event{}.Concerning("ann"), "ann", true},
		{"about another", Event{}.Concerning("bob"), "ann", false},
		{"about both", Event{}.Concerning("bob", "ann"), "ann", true},
		{"private, says nothing", Event{To: []string{"ann"}}, "ann", true},
		{"private to two", Event{To: []string{"ann", "bob"}}, "ann", false},
		{"private but about another", Event{To: []string{"ann"}, About: []string{"bob"}}, "ann", false},
		{"public, says nothing", Event{}, "ann", false},
		{"the GM", Event{}.Concerning("ann"), "", false},
		{"an observer", Event{}.Concerning(Observer), Observer, false},
	} {
		if got := c.e.Concerns(c.player); got != c.want {
			t.Errorf("%s: Concerns(%q) = %v, want %v", c.name, c.player, got, c.want)
		}
	}
}

func TestSeatsNamed(t *testing.T) {
	units := map[string]string{"ann": "ann", "bob": "bob", "B1": "bob"}
	m := lang.M("%s attacks %s: %s", "ann", "B1", lang.M("%s is lost with %s", "B1", lang.And("ann", "Luna")))
	got := SeatsNamed(m, func(n string) string { return units[n] })
	if !slices.Equal(got, []string{"ann", "bob"}) {
		t.Errorf("SeatsNamed = %q, want ann, bob", got)
	}
	if got := SeatsNamed(lang.M("Turn %d", 3), func(n string) string { return units[n] }); got != nil {
		t.Errorf("a message naming nobody: %q", got)
	}
}
