package orbital

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"orrery/engine"
	"orrery/engine/dice"
)

// The movement chart, row by row (1.3, 002-G2): each speed moves exactly
// its number of hexes in impulses 1–7.
func TestImpulseRows(t *testing.T) {
	want := map[int]string{1: "[6]", 2: "[3 6]", 3: "[2 4 6]", 4: "[2 4 5 6]", 5: "[2 3 4 5 6]",
		6: "[1 2 3 4 5 6]", 8: "[1 2 3 4 5 6 7 7]", 0: "[]"}
	for v, w := range want {
		var got []int
		for imp := 1; imp <= 7; imp++ {
			for n := movesIn(v, imp); n > 0; n-- {
				got = append(got, imp)
			}
		}
		if fmt.Sprint(got) != w {
			t.Errorf("speed %d moves in impulses %v, want %s", v, got, w)
		}
	}
}

func TestHexNames(t *testing.T) {
	for _, h := range allHexes() {
		back, err := parseHex(h.Name())
		if err != nil || back != h {
			t.Fatalf("%v named %s parses to %v, %v", h, h.Name(), back, err)
		}
	}
	if n := len(allHexes()); n != 331 {
		t.Errorf("the map has %d hexes, want 331", n)
	}
	for _, bad := range []string{"0A0", "5G1", "5A5", "11A0", "A", "5A"} {
		if _, err := parseHex(bad); err == nil {
			t.Errorf("%q parsed as a hex", bad)
		}
	}
}

func TestLineOfSight(t *testing.T) {
	cases := []struct {
		a, b    string
		blocked bool
	}{
		{"5A0", "5D0", true},  // through the centre
		{"5A0", "5B0", false}, // a chord well clear
		{"1A0", "1D0", true},
		{"1A0", "1C0", false}, // along the planet's edge: clear unless both sides are planet
		{"5A0", "5A0", false},
		{"3A0", "3C2", false},
	}
	for _, c := range cases {
		a, _ := parseHex(c.a)
		b, _ := parseHex(c.b)
		if got := blocked(a, b); got != c.blocked {
			t.Errorf("blocked(%s, %s) = %v, want %v", c.a, c.b, got, c.blocked)
		}
	}
}

func parseState(t *testing.T) *State {
	t.Helper()
	return buildState(t, `
player ann 8
player bob 8
unit ann station S1 5A0 v3 NW core:0,engine:0
unit ann bus B2 5A0 v2 NW
unit ann booster R3 5A0 v1 NW
unit ann comsat C4 in:R3
unit ann warhead W5 in:S1
unit ann bus B6 4B2 v0 E
unit ann scoopship K10 P v0 E atmo gas
unit ann scoopship K11 1A0 v5 NW
unit bob station S7 5D0 v3 SE
unit bob booster R8 5D0 v3 SE
unit bob pulse P9 in:R8
`)
}

// Orders are checked against the player's view; thrust costs |dv| plus
// facings × velocity (1.2, 002-G4).
func TestParseErrors(t *testing.T) {
	v := parseState(t).View("ann").(*view)
	cases := []struct {
		line, msg string
	}{
		{"THRUST B2 +1 TURN 1", "needs 3 thrust"},
		{"THRUST B2 0 TURN 1", ""},
		{"THRUST R3 +1 TURN 2", "needs 3 thrust"[:0] + ""},
		{"THRUST R3 +2 TURN 2", "needs 4 thrust"},
		{"THRUST B6 +2 FACE SW", ""},
		{"THRUST B2 +1 FACE SW", "FACE only chooses"},
		{"THRUST S1 +1", ""},
		{"THRUST S7 +1", "is not yours"},
		{"THRUST B22 +1", "did you mean B2?"},
		{"THRUST C4 +1", "has no thrust"},
		{"THURST B2 +1", "did you mean THRUST?"},
		{"LAUNCH W5 LEFT", ""},
		{"LAUNCH B2", "not in a Station's bay"},
		{"DROP W5 AT 3", ""},
		{"DROP W5 AT 8", "not 1 to 7"},
		{"DEPLOY C4 AT 2", ""},
		{"FIRE B2", "has no laser"},
		{"STRIKE W5 AT STATION R8", ""},
		{"STRIKE W5 AT P9", "no enemy unit or type"},
		{"BUY GUNSHP AT S1", "did you mean GUNSHIP?"},
		{"BUY ENGINE AT S1", "already has an engine"},
		{"BUY BOOSTER ECMSAT AT S1 INTO SPACE", ""},
		{"BUY CORE AT S1 INTO SPACE", "founded by dropping"},
		{"REPAIR S1 CORE 5", "not 1 to 4"},
		{"EXIT B2", "not a scoopship"},
		{"EXIT K11 1A0", "not in the atmosphere"},
		{"EXIT K10 1B0 CW", ""},
		{"STRIKE W5 AT STATION FROM 3", ""},
		{"STRIKE W5 AT STATION SHOTS 1", "not understood"},
		{"FIRE S1 AT ANY SHOTS 1 FROM 8", "FROM must be an impulse"},
		{"FIRE S1", "has no laser"[:0]},
		{"PLACE S1 4A0", "opening turn"},
		{"CANCEL W5", "has no standing trigger"},
		{"BUY BUS AT S1 INTO B2", "cannot be built onto B2"},
		{"BUY BOOSTER WARHEAD AT S1 INTO B2", "cannot be built onto B2"},
		{"BUY WARHEAD AT S1 INTO B2", ""},
		{"BUY CORE AT S1 INTO B2", ""},
		{"DROP W5 WHEN GUNSHIP", ""},
		{"DEPLOY C4 WHEN ANY", ""},
		{"DROP W5 WHEN MOON", "not a unit type"},
	}
	for _, c := range cases {
		_, errs := v.parse(c.line)
		switch {
		case c.msg == "" && len(errs) > 0:
			t.Errorf("%q: %v", c.line, errs)
		case c.msg != "" && (len(errs) != 1 || !strings.Contains(errs[0].Error(), c.msg)):
			t.Errorf("%q: got %v, want an error containing %q", c.line, errs, c.msg)
		}
	}
	s0 := parseState(t)
	s0.TurnN = 0
	s0.Opts["placement"] = "simultaneous"
	v0 := s0.View("ann").(*view)
	for line, msg := range map[string]string{"PLACE S1 5C3": "", "PLACE S1 4C3": "not a hex of ring 5",
		"THRUST S1 +1": "waits for turn 1", "PLACE B2 5A1": "needs one of your Stations"} {
		_, errs := v0.parse(line)
		if (msg == "") != (len(errs) == 0) || (msg != "" && !strings.Contains(errs[0].Msg, msg)) {
			t.Errorf("opening %q: %v, want %q", line, errs, msg)
		}
	}
	// Placed one after the other, the Stations are placed before the
	// opening turn, which takes no PLACE.
	s0.Opts["placement"] = "sequential"
	if _, errs := s0.View("ann").(*view).parse("PLACE S1 5C3"); len(errs) != 1 || !strings.Contains(errs[0].Msg, "placed already") {
		t.Errorf("PLACE in the opening after a sequential placement: %v", errs)
	}
	for _, text := range []string{"STRIKE W5\nHOLD W5", "FIRE S1\nHOLD S1"} {
		if _, errs := v.parse(text); len(errs) != 1 || errs[0].Line != 2 {
			t.Errorf("%q: want line 2 refused, got %v", text, errs)
		}
	}
	_, errs := v.parse("THRUST B2 +1\n# note\n\nTHRUST B2 -1\nnonsense")
	if len(errs) != 2 || errs[0].Line != 4 || errs[1].Line != 5 {
		t.Errorf("want errors on lines 4 and 5, got %v", errs)
	}
}

// A standing trigger (002-C3) is shown to its owner, sealed from the
// opponent and the public, and is what CANCEL needs; a unit takes one
// DROP, DEPLOY, LAND or CANCEL a turn.
func TestStandingTriggerSealed(t *testing.T) {
	s := parseState(t)
	s.unit("C4").Trigger = &Trigger{Verb: "DEPLOY", When: "STATION"}
	ann := s.View("ann").(*view)
	if !strings.Contains(strings.Join(strings.Fields(ann.Status()), " "), "standing trigger DEPLOY C4 WHEN STATION") {
		t.Errorf("ann's status does not show her trigger:\n%s", ann.Status())
	}
	if _, errs := ann.parse("CANCEL C4"); len(errs) != 0 {
		t.Errorf("CANCEL C4 refused: %v", errs)
	}
	if _, errs := ann.parse("CANCEL C4\nDEPLOY C4 AT 2"); len(errs) != 1 || errs[0].Line != 2 {
		t.Errorf("CANCEL and DEPLOY for one unit in one turn: %v", errs)
	}
	s.unit("W5").Trigger = &Trigger{Verb: "DROP", When: "ANY"}
	for _, v := range []engine.View{s.View("bob"), s.PublicView()} {
		vw := v.(*view)
		if w := vw.s.unit("W5"); w == nil || w.Trigger != nil || strings.Contains(vw.Status(), "trigger") {
			t.Errorf("ann's trigger is not sealed from %q:\n%s", vw.player, vw.Status())
		}
	}
}

// A Booster's payload is hidden from the opponent (002-E), so nothing about
// it can leak through a parse error either.
func TestBoosterPayloadHidden(t *testing.T) {
	s := parseState(t)
	bob := s.View("bob").(*view)
	if bob.s.unit("C4") != nil || strings.Contains(bob.Board()+bob.Status(), "C4") {
		t.Error("bob sees ann's ComSat on its booster")
	}
	if !strings.Contains(bob.Status(), "R3: ann's booster") {
		t.Errorf("bob does not see the booster:\n%s", bob.Status())
	}
	if _, errs := bob.parse("STRIKE P9 AT C4"); len(errs) != 1 || !strings.Contains(errs[0].Msg, "no enemy unit") {
		t.Errorf("a hidden payload was accepted as a target: %v", errs)
	}
	if ann := s.View("ann").(*view); !strings.Contains(ann.Status(), "C4: ann's comsat aboard R3") {
		t.Errorf("ann does not see her own payload:\n%s", ann.Status())
	}
	// An observer sees what an opponent sees: the booster, not its payload.
	pub := s.PublicView()
	if pub.Player() != engine.Observer || strings.Contains(pub.Board()+pub.Status(), "C4") || !strings.Contains(pub.Status(), "R3: ann's booster") {
		t.Errorf("public view (player %q):\n%s\n%s", pub.Player(), pub.Board(), pub.Status())
	}
}

func TestRoundTrip(t *testing.T) {
	v := parseState(t).View("ann").(*view)
	text := "launch w5 left contra\nthrust b2 +0 turn 1\nthrust b6 2 face sw\nfire s1 at r8 station shots 2 min 2\n" +
		"strike w5 at pulse\nhold b2\nbuy booster warhead at s1 into bay\nbuy warhead at s1 into b2\nbuy pd at s1\nrepair s1 core 2\n" +
		"deploy c4 when station\npickup b2 w5 at 7"
	if _, errs := v.parse(text); len(errs) > 0 {
		t.Fatalf("the round-trip orders do not parse: %v", errs) // checkRoundTrip would skip them
	}
	checkRoundTrip(t, v, text)
}

func checkRoundTrip(t *testing.T, v *view, text string) {
	t.Helper()
	o, errs := v.Parse(engine.Prompt{}, text)
	if len(errs) > 0 {
		return
	}
	canon := engine.OrdersText(o)
	again, errs := v.Parse(engine.Prompt{}, canon)
	if len(errs) > 0 || engine.OrdersText(again) != canon {
		t.Fatalf("canonical orders do not parse to themselves: %v\n%s\n---\n%s", errs, canon, engine.OrdersText(again))
	}
}

func FuzzOrders(f *testing.F) {
	files, _ := filepath.Glob("testdata/fuzz-seeds/*.txt")
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err == nil {
			f.Add(string(b))
		}
	}
	f.Add("THRUST B2 +1 TURN -1\nFIRE S1 AT ANY SHOTS 1")
	f.Fuzz(func(t *testing.T, text string) {
		s := buildState(t, `
player ann 8
player bob 8
unit ann station S1 5A0 v3 NW core:0,engine:0,pd:0
unit ann bus B2 5A0 v2 NW
unit ann warhead W5 in:S1
unit bob station S7 5D0 v3 SE
`)
		checkRoundTrip(t, s.View("ann").(*view), text)
	})
}

// The starting board of each scenario, as players see it.
func TestGoldenBoards(t *testing.T) {
	for _, sc := range []struct {
		name string
		opts map[string]string
	}{
		{"slow", map[string]string{}},
		{"fast-random-moons", map[string]string{"scenario": "fast", "moons": "random", "moon-count": "3"}},
	} {
		t.Run(sc.name, func(t *testing.T) {
			opts, err := engine.ResolveOptions(Ruleset().Info(), sc.opts)
			if err != nil {
				t.Fatal(err)
			}
			st, err := Ruleset().NewState(engine.Setup{GameID: "g", Players: []string{"ann", "bob"}, Options: opts},
				dice.New("golden"))
			if err != nil {
				t.Fatal(err)
			}
			v := st.View("bob")
			got := v.Board() + "\n" + v.Status()
			for i, l := range strings.Split(got, "\n") {
				if len([]rune(l)) > 78 {
					t.Errorf("line %d is %d columns: %q", i+1, len([]rune(l)), l)
				}
			}
			file := filepath.Join("testdata", sc.name+".golden")
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
		})
	}
}

func TestAgreedMoons(t *testing.T) {
	opts, _ := engine.ResolveOptions(Ruleset().Info(), map[string]string{"moons": "agreed", "moon-spots": "3B 6E",
		"moon-sense": "cw"})
	st, err := Ruleset().NewState(engine.Setup{Players: []string{"ann", "bob"}, Options: opts}, dice.New("m"))
	if err != nil {
		t.Fatal(err)
	}
	s := st.(*State)
	if len(s.Moons) != 2 || s.Moons[0].Hex.Name() != "3B0" || s.Moons[1].Hex.Name() != "6E0" ||
		s.Moons[0].F != tangent(s.Moons[0].Hex, false) {
		t.Errorf("moons: %+v", s.Moons)
	}
	opts["moon-spots"] = "1A 2B 3C 9D" // the general setup allows four; X goes on 1, 1, 2 … 5 outward
	st, err = Ruleset().NewState(engine.Setup{Players: []string{"ann", "bob"}, Options: opts}, dice.New("m"))
	if err != nil {
		t.Fatal(err)
	}
	if m := st.(*State).Moons; len(m) != 4 || m[3].Hex.Name() != "9D0" || m[3].X != 5 || m[2].X != 2 {
		t.Errorf("four agreed moons: %+v", m)
	}
	for _, spots := range []string{"3B 3E", "3X", "1A 2A 3A 4A 5A"} {
		opts["moon-spots"] = spots
		if _, err := Ruleset().NewState(engine.Setup{Players: []string{"ann", "bob"}, Options: opts}, dice.New("m")); err == nil {
			t.Errorf("moon-spots %q accepted", spots)
		}
	}
}

// With hidden-cargo on, bays and payloads are hidden too (002-E option).
func TestHiddenCargo(t *testing.T) {
	s := parseState(t)
	if bob := s.View("bob").(*view); bob.s.unit("W5") == nil {
		t.Error("by default bob sees what is in ann's bay")
	}
	s.Opts["hidden-cargo"] = "on"
	bob := s.View("bob").(*view)
	if bob.s.unit("W5") != nil || strings.Contains(bob.Status(), "W5") {
		t.Error("with hidden-cargo on bob sees ann's bay")
	}
	if ann := s.View("ann").(*view); ann.s.unit("W5") == nil {
		t.Error("ann does not see her own bay")
	}
}

// A short game as bob reads it: opening, then two turns with fire, from a
// fixed seed; the golden file pins the report's wording impulse by impulse.
func TestGoldenReport(t *testing.T) {
	opts, _ := engine.ResolveOptions(Ruleset().Info(), map[string]string{"scenario": "fast", "placement": "simultaneous"})
	st, err := Ruleset().NewState(engine.Setup{Players: []string{"ann", "bob"}, Options: opts}, dice.New("report"))
	if err != nil {
		t.Fatal(err)
	}
	turns := []map[string]string{
		{"ann": "BUY PD AT S1\nBUY BOOSTER WARHEAD AT S1", "bob": "PLACE S2 4A2\nBUY DEFSAT AT S2 INTO SPACE\nBUY ECMSAT AT S2 INTO SPACE"},
		{"ann": "LAUNCH R3 LEFT\nFIRE S1 AT DEFSAT STATION", "bob": "FIRE D5 AT STATION"},
		{"ann": "", "bob": ""},
	}
	var b strings.Builder
	for i, orders := range turns {
		var answers []engine.Answer
		for _, p := range st.Prompts() {
			o, errs := st.View(p.Player).Parse(p, orders[p.Player])
			if len(errs) > 0 {
				t.Fatalf("turn %d %s: %v", i, p.Player, errs)
			}
			answers = append(answers, engine.Answer{Prompt: p, Orders: o})
		}
		d := dice.New(fmt.Sprintf("report-%d", i))
		ev, err := st.Resolve(answers, d)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ev {
			if e.VisibleTo("bob") {
				b.WriteString(e.Text + "\n")
			}
		}
		for _, r := range d.Rolls() {
			b.WriteString(r.String() + "\n")
		}
	}
	v := st.View("bob")
	got := b.String() + "\n" + v.Board() + "\n" + v.Status()
	file := filepath.Join("testdata", "report.golden")
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
		t.Errorf("report differs from %s:\n%s", file, got)
	}
}

// Random moons (002-R1, 002-F4): two dice each, ring then sextant; a ring
// that already has a moon is rolled again. Four moons follow the general
// setup rule (moon-count 4).
func TestRandomMoons(t *testing.T) {
	opts, err := engine.ResolveOptions(Ruleset().Info(), map[string]string{"moons": "random", "moon-count": "4"})
	if err != nil {
		t.Fatal(err)
	}
	d := dice.FromSource(dice.Scripted{3, 2, 3, 5, 6, 1, 1, 6, 4})
	st, err := Ruleset().NewState(engine.Setup{Players: []string{"ann", "bob"}, Options: opts}, d)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range st.(*State).Moons {
		got = append(got, fmt.Sprintf("%s v%d X%d", m.Hex.Name(), m.V, m.X))
	}
	if want := "[3B0 v3 X2 5F0 v3 X3 1A0 v5 X1 6D0 v2 X3]"; fmt.Sprint(got) != want {
		t.Errorf("moons %v, want %s", got, want)
	}
	if n := len(d.Rolls()); n != 9 || d.Err() != nil {
		t.Errorf("rolled %d dice (%v), want 9", n, d.Err())
	}
}
