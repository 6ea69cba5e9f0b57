package orbital

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"orrery/engine"
	"orrery/engine/dice"
	"orrery/engine/lang"
)

// englishWord is a word of English in a Russian text: lower-case Latin
// letters (order words are upper case, unit IDs and hexes carry digits,
// "v3" is a velocity on the board).
var englishWord = regexp.MustCompile(`\b[A-Za-z]*[a-z][a-z]+\b`)

// quoted is what a player wrote, quoted back in an error.
var quoted = regexp.MustCompile(`"[^"]*"`)

func ru(m lang.Msg) string {
	return lang.Render(lang.Env{Tag: lang.Russian, Catalogs: []*lang.Catalog{catalog}}, m)
}

// Every order error and its fix, for a Russian reader, is Russian: the
// order words and the player's own text stay as written.
func TestRussianOrderErrors(t *testing.T) {
	v := parseState(t).View("ann").(*view)
	s0 := parseState(t)
	s0.TurnN = 0
	v0 := s0.View("ann").(*view)
	lines := []string{"THRUST B2 +1 TURN 1", "THRUST R3 +2 TURN 2", "THRUST B2 +1 FACE SW", "THRUST S7 +1",
		"THRUST B22 +1", "THRUST C4 +1", "THURST B2 +1", "LAUNCH B2", "DROP W5 AT 8", "FIRE B2", "STRIKE W5 AT P9",
		"BUY GUNSHP AT S1", "BUY ENGINE AT S1", "BUY CORE AT S1 INTO SPACE", "REPAIR S1 CORE 5", "EXIT B2",
		"EXIT K11 1A0", "STRIKE W5 AT STATION SHOTS 1", "FIRE S1 AT ANY SHOTS 1 FROM 8", "PLACE S1 4A0",
		"CANCEL W5", "BUY BUS AT S1 INTO B2", "DROP W5 WHEN MOON", "LAUNCH", "THRUST B2", "THRUST B2 +1 TURN",
		"DEPLOY B2 AT 1", "PICKUP B2", "HOLD S1 NOW", "REPAIR S1 SHIELD 1", "BUY BOOSTER BUS AT S1", "BUY BUS",
		"BUY ENGINE AT S1 INTO BAY", "THRUST B2 +1\nTHRUST B2 -1"}
	n := 0
	check := func(line string, errs []engine.LineError) {
		for _, e := range errs {
			n++
			if e.Why == nil {
				t.Errorf("%q: the error %q is no message", line, e.Msg)
				continue
			}
			for _, m := range []*lang.Msg{e.Why, e.Hint} {
				if m == nil {
					continue
				}
				r := ru(*m)
				if w := englishWord.FindAllString(quoted.ReplaceAllString(r, ""), -1); len(w) > 0 {
					t.Errorf("%q: %q has English words %v", line, r, w)
				}
			}
		}
	}
	for _, line := range lines {
		_, errs := v.parse(line)
		check(line, errs)
		check(line, ruleset{}.CheckSyntax(line))
	}
	_, errs := v0.parse("THRUST S1 +1")
	check("THRUST S1 +1 (opening)", errs)
	if n < len(lines) {
		t.Errorf("only %d errors from %d bad lines", n, len(lines))
	}
}

// The board and the status, localized, are drawn in Russian within 78
// columns (golden file), and the English view is untouched by Localize.
func TestRussianBoard(t *testing.T) {
	opts, err := engine.ResolveOptions(Ruleset().Info(), map[string]string{"scenario": "refinery"})
	if err != nil {
		t.Fatal(err)
	}
	st, err := Ruleset().NewState(engine.Setup{GameID: "g", Players: []string{"ann", "bob"}, Options: opts}, dice.New("golden"))
	if err != nil {
		t.Fatal(err)
	}
	en := st.View("bob")
	before := en.Board() + en.Status()
	v := ruleset{}.Localize(en, "ru")
	got := v.Board() + "\n" + v.Status() + "\n" + v.(*view).Picture().Summary + "\n"
	if en.Board()+en.Status() != before {
		t.Error("Localize changed the English view")
	}
	for i, l := range strings.Split(got, "\n") {
		if w := engine.Width(l); w > 78 {
			t.Errorf("line %d is %d columns: %q", i+1, w, l)
		}
		if w := englishWord.FindAllString(strings.NewReplacer("Orbital", "", "ann", "", "bob", "").Replace(l), -1); len(w) > 0 {
			t.Errorf("line %d has English words %v: %q", i+1, w, l)
		}
	}
	file := filepath.Join("testdata", "refinery-ru.golden")
	if *update {
		if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (run with -update)", err)
	}
	if got != string(want) {
		t.Errorf("board differs from %s:\n%s", file, got)
	}
}

// HELP and RULES in Russian: the summary, the order help and every
// option's help come from the catalog.
func TestRussianRules(t *testing.T) {
	info := Ruleset().Info()
	texts := []string{info.Summary, info.OrderHelp}
	for _, o := range info.Options {
		texts = append(texts, o.Help)
	}
	for _, text := range texts {
		out, ok := ruleset{}.Translate("ru", text)
		if !ok || out == text {
			t.Errorf("no Russian for %q", text)
		}
	}
	if _, ok := (ruleset{}).Translate("ru", "not a text of the game"); ok {
		t.Error("Translate made up a translation")
	}
}
