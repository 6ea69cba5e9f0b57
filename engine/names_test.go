package engine

import "testing"

func TestEditDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"", "abc", 3}, {"rigel", "rigel", 0}, {"rigle", "rigel", 2},
		{"kitten", "sitting", 3}, {"Марс", "Маре", 1}, {"ab", "ba", 2},
	} {
		if got := EditDistance(c.a, c.b); got != c.want {
			t.Errorf("EditDistance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
		if got := EditDistance(c.b, c.a); got != c.want {
			t.Errorf("EditDistance(%q, %q) = %d, want %d (not symmetric)", c.b, c.a, got, c.want)
		}
	}
}

func TestClosest(t *testing.T) {
	names := []string{"Rigel", "Sirius", "Vega", "Io"}
	for _, c := range []struct{ in, want string }{
		{"rigle", "Rigel"}, {"SIRUS", "Sirius"}, {"vega", "Vega"},
		{"Xy", ""},         // 2 edits from Io; 1 + 2/3 = 1 allowed
		{"Vegaaa", "Vega"}, // 2 edits; 1 + 6/3 = 3 allowed
		{"Vegaaaaaa", ""},  // 5 edits; 1 + 9/3 = 4 allowed
	} {
		if got := Closest(c.in, names); got != c.want {
			t.Errorf("Closest(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	if got := Closest("anything", nil); got != "" {
		t.Errorf("Closest with no candidates = %q", got)
	}
}
