package lang

import "testing"

func TestPluralRussian(t *testing.T) {
	cases := map[int]Category{
		0: Many, 1: One, 2: Few, 4: Few, 5: Many, 11: Many, 12: Many, 14: Many,
		21: One, 22: Few, 25: Many, 101: One, 111: Many, 112: Many, 122: Few, 1000: Many,
	}
	for n, want := range cases {
		if got := Plural(Russian, n); got != want {
			t.Errorf("Plural(ru, %d) = %d, want %d", n, got, want)
		}
	}
}

func TestCount(t *testing.T) {
	cases := []struct {
		t     Tag
		n     int
		forms []string
		want  string
	}{
		{English, 0, []string{"roll", "rolls"}, "0 rolls"},
		{English, 1, []string{"roll", "rolls"}, "1 roll"},
		{English, 2, []string{"victory", "victories"}, "2 victories"},
		{English, 1, []string{"sheep"}, "1 sheep"},
		{Russian, 1, []string{"лес", "леса", "лесов"}, "1 лес"},
		{Russian, 3, []string{"лес", "леса", "лесов"}, "3 леса"},
		{Russian, 5, []string{"лес", "леса", "лесов"}, "5 лесов"},
		{Russian, 8, []string{"гора", "горы", "гор"}, "8 гор"},
		{Russian, 21, []string{"гора", "горы", "гор"}, "21 гора"},
		{Russian, 12, []string{"гора", "горы"}, "12 горы"}, // a missing form falls back to the last given
	}
	for _, c := range cases {
		if got := Count(c.t, c.n, c.forms...); got != c.want {
			t.Errorf("Count(%s, %d, %v) = %q, want %q", c.t, c.n, c.forms, got, c.want)
		}
	}
	if got := N(1, "error", "errors"); got != "1 error" {
		t.Errorf("N(1) = %q", got)
	}
	if got := Noun(English, 3); got != "" {
		t.Errorf("Noun with no forms = %q", got)
	}
}

func TestArticle(t *testing.T) {
	cases := map[string]string{
		"victory":            "a victory",
		"engine module":      "an engine module",
		"hour":               "an hour",
		"unit":               "a unit",
		"uninhabited planet": "an uninhabited planet",
		"one-way link":       "a one-way link",
		"X-ray":              "an X-ray",
		"8":                  "an 8",
		"11":                 "an 11",
		"7":                  "a 7",
		"Orbital game":       "an Orbital game",
		"UN fleet":           "a UN fleet",
		"HQ":                 "an HQ",
		"AI level":           "an AI level",
		"GM":                 "a GM",
		"European":           "a European",
		"\"ELSE\" line":      "an \"ELSE\" line",
	}
	for in, want := range cases {
		if got := A(in); got != want {
			t.Errorf("A(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestParse(t *testing.T) {
	for in, want := range map[string]Tag{"ru": Russian, "RU": Russian, "ru-RU": Russian, "русский": Russian, "en_GB": English, "English": English} {
		if got, ok := Parse(in); !ok || got != want {
			t.Errorf("Parse(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	if _, ok := Parse("fr"); ok {
		t.Error("Parse(fr) is not a language the server writes")
	}
}

func TestCheck(t *testing.T) {
	for text, n := range map[string]int{
		"1 victory, 2 victories, 1 of 5, 11 rolls, 1.5 rolls":          0,
		"an engine module, a unit, a UN fleet, an 8, a 6, an hour ago": 0,
		"with 1 fleets":                             1,
		"1 dice":                                    1,
		"3 fleet(s) and 2 pass(es)":                 2,
		"a engine module":                           1,
		"an unit":                                   1,
		"rolled a 8":                                1,
		"1 bus, 1 gas load, class a":                0,
		"Mars-a1 region, d'a":                       0,
		"A apple":                                   1,
		"(1 rolls)":                                 1,
		"-1 fleets, +1 dice, x1 ships":              0,
		"1 turns, an AI, an hour, a one":            1,
		"In IF, A is the group's size":              0,
		"group 1 adds a development, 1 remains":     0,
		"impulse 1 moves: B8 1D0→1E0; with 1 moves": 1,
		"A 1 ends your turn; the 1 scores nothing":  0,
		"Rolling a 1 loses it all, 1 dice":          1,
	} {
		if got := Check(text); len(got) != n {
			t.Errorf("Check(%q) = %q, want %d slips", text, got, n)
		}
	}
}
