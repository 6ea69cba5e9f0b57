package earthman

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"orrery/engine"
	"orrery/engine/dice"
	"orrery/engine/enginetest"
)

func TestFullConforms(t *testing.T) {
	enginetest.Conformance(t, Full(), 60)
}

// TestFullBotGames plays seeded games of the random exerciser (every
// option, every standing order now and then) through the engine and
// verifies each by replay; the ruleset's own bot, which plays to win, is
// tested in fullbot_test.go.
func TestFullBotGames(t *testing.T) {
	n := 100
	if testing.Short() {
		n = 10
	}
	reached := map[string]int{}
	// The bots must send AI DEFEND MIN and OVERTHROWN ... ON. No bot game
	// spends an AI thought or meets an Overthrow pair against a player (the
	// bots rarely hold a thought or win an Overthrow), so the decisions are
	// covered by testdata/full/5.1-ai-defend-min.txtar and
	// 2.4.3-overthrown-per-world.txtar, not here.
	marks := map[string]string{
		"AI DEFEND MIN sent": "Your standing order is now: AI DEFEND MIN 2.",
		"OVERTHROWN ON sent": "Your standing order is now: OVERTHROWN YIELD ON Mars.",
	}
	for seed := 1; seed <= n; seed++ {
		players := []string{"ann", "bob", "cat", "dan", "eve", "fay"}[:2+seed%5]
		opts := map[string]string{}
		if seed%3 == 0 {
			opts["prelude"] = "on"
		}
		if seed%4 == 0 {
			opts["skynet"] = "on"
		}
		if seed%2 == 0 {
			opts["research-collaborations"] = "on"
			opts["territorial-agreements"] = "on"
		}
		res := enginetest.PlayBots(t, exercised{Full(), fullExerciser}, enginetest.Options{Players: players, Seed: uint64(seed), MaxSteps: 120, Options: opts})
		if testing.Short() {
			continue
		}
		for _, e := range res.Events(t) {
			for k, m := range marks {
				if strings.Contains(e, m) {
					reached[k]++
				}
			}
		}
	}
	if !testing.Short() {
		for k := range marks {
			if reached[k] == 0 {
				t.Errorf("no bot game reached %q", k)
			}
		}
		t.Logf("reached: %v", reached)
	}
}

// TestFullSetupAndPrelude: a random first player (a d3 of 2: bob); with
// Prelude on, prelude turns go from the first player's right,
// anticlockwise, three each (6.4).
func TestFullSetupAndPrelude(t *testing.T) {
	st, err := Full().NewState(engine.Setup{Players: []string{"ann", "bob", "cat"},
		Options: map[string]string{"prelude": "on", "skynet": "off", "victory": "30-or-more"}}, dice.FromSource(dice.Scripted{2}))
	if err != nil {
		t.Fatal(err)
	}
	s := st.(*FullState)
	var order []string
	for _, i := range s.Preludes {
		order = append(order, s.Players[i])
	}
	if got := strings.Join(order, " "); s.Players[s.First] != "bob" || got != "ann cat bob ann cat bob ann cat bob" {
		t.Errorf("first %s, preludes %s", s.Players[s.First], got)
	}
	for _, r := range s.Regions["Earth"] {
		if r.Owner != un {
			t.Errorf("an Earth region without its UN development: %+v", r)
		}
	}
	if p := s.P["cat"]; p.Economy != 3 || s.Fleets["Earth"]["cat"].Ok != 3 {
		t.Errorf("cat starts with %d resources and %+v fleets, want 3 and 3", p.Economy, s.Fleets["Earth"]["cat"])
	}
}

func TestFullParseErrors(t *testing.T) {
	s := buildFull(t, "players ann bob\nactive ann\nfleet Mercury ann 1\nfleet Hermean ann 1")
	turn := engine.Prompt{ID: "turn:ann", Player: "ann", Kind: engine.KindTurn}
	any := engine.Prompt{ID: "any:ann", Player: "ann", Kind: engine.KindAnytime}
	for _, c := range []struct {
		p    engine.Prompt
		text string
		want []string
	}{
		{turn, "LAUNCH 2 FROM Mercury TO Solar", []string{"you launch 2 fleets from Mercury but have 1 in orbit there"}},
		{turn, "PASSES 2", []string{"you may take 1 movement pass (Spaceflight level 0)"}},
		{turn, "ROUTE NONE FROM Hermean\nROUTE 1 Hermean TO Mercury", []string{"keep no destination between turns", "write it as: ROUTE <n> FROM <trajectory> TO <place worldward of it>"}},
		{turn, "PRELAUNCH 1 FROM Mercury TO Solar", []string{"needs the Launch technology"}},
		{turn, "BUILD Mars 1\nFIRE Mars 1 AT bob", []string{"sections are taken in order"}},
		{turn, "DEFEND Mars 1 AT UN\nINFLUENCE Mars 2\nUN FLEET\nUN RESEARCH", []string{"the UN has no fleets", "at least 3 fleets", "once a turn"}},
		{turn, "BUILD Mars 1\nINFLUENCE Mars 3\nINFLUENCE Venus 3\nRESEARCH Venus 1", []string{"Political Influence takes all", "Political Influence takes all"}},
		// 001-G15: one roll per target and world (and one Pacification a
		// world); another target, or another world, is a line of its own.
		{turn, "FIRE Mars 1 AT bob\nFIRE Mars 2 AT UN\nFIRE Venus 1 AT bob\nFIRE Mars 1 AT bob\nCOUP Mars 1 AT bob\nCOUP Mars 1 AT bob\nPACIFY Mars 1\nPACIFY Mars 1 FLEET",
			[]string{"a second FIRE Mars <n> AT bob line", "a second COUP Mars <n> AT bob line", "a second PACIFY Mars <n> line"}},
		{turn, "BUILD Mars 4\nEXPAND Mars 3x2", []string{`"4" is not a group`, `"3x2" is not a group`}},
		{any, "TECH Atack\nCONCEDE TO ann\nFIRE Mars 1 AT bob", []string{"did you mean Attack?", "cannot concede to yourself", "can only be given in your turn"}},
		{any, "AI OWN EXPNAD\nAI KEEP -1\nAI SHIELD ann\nAI DEFEND SOMETIMES\nAI OFF", []string{"did you mean EXPAND?", "must be a number", "leave yourself out of AI SHIELD", `"SOMETIMES" is not one of`, "AI order is malformed"}},
		{any, "OVERTHROWN GENERAL\nOVERTHROWN YIELD ON Pluto\nOVERTHROWN YIELD AT Mars\nOVERTHROWN MAYBE ON Mars", []string{`"GENERAL" is not one of`, "Pluto", "OVERTHROWN order is malformed", `"MAYBE" is not one of`}},
		{any, "AI DEFEND MIN\nAI DEFEND MIN 0\nAI DEFEND MIN two\nAI DEFEND LAST 2", []string{"AI DEFEND MIN needs a number", "must be a number, not \"0\"", "must be a number, not \"two\"", "AI order is malformed"}},
		{any, "TECH NEVER\nTECH NEVER Atack", []string{"TECH order is malformed", "did you mean Attack?"}},
		{any, "ACCEPT SHARES Atack\nACCEPT SHARES\nACCEPT GIFTS ALL", []string{"did you mean Attack?", "ACCEPT order is malformed", `expected TRANSFERS here, not "GIFTS"`}},
		{any, "LOSE MOST\nEXPOSE Marz\nEXPAND Mars 1 NEW\nPACIFY Mars 2 PEACE", []string{`"MOST" is not one of`, "Mars", "can only be given in your turn", "not a result of Pacification"}},
	} {
		_, errs := s.View("ann").Parse(c.p, c.text)
		if len(errs) != len(c.want) {
			t.Errorf("%q: %d errors %v, want %d", c.text, len(errs), errs, len(c.want))
			continue
		}
		for i, w := range c.want {
			if !strings.Contains(errs[i].Error(), w) {
				t.Errorf("%q: error %q does not say %q", c.text, errs[i].Error(), w)
			}
		}
	}
	// The movement shapes come from the classic parser, but a mistake is
	// answered with the full rules' shape (which has no ROUTE NONE).
	if _, errs := s.View("ann").Parse(turn, "ROUTE 1 Hermean TO Mercury"); len(errs) != 1 ||
		!strings.HasSuffix(errs[0].Error(), "write it as: "+fullGrammar["ROUTE"]) {
		t.Errorf("ROUTE shape: %v", errs)
	}
}

// TestFullStandingOrders: each standing order sent at any time is stored,
// confirmed to its sender, and shown in the status in canonical form; a
// later order replaces an earlier one, and NONE clears a list.
func TestFullStandingOrders(t *testing.T) {
	for _, c := range []struct {
		text string
		want []string // in the status line
		not  []string
	}{
		{"", []string{"LOSE FEWEST", "AI OWN ON", "AI DEFEND ON"}, []string{"EXPOSE", "AI KEEP", "AI SHIELD"}},
		{"ai own fire, coup\nai defend last\nai keep 2\nai shield bob\nexpose mars, earth\nlose atrisk",
			[]string{"AI OWN FIRE,COUP", "AI DEFEND LAST", "AI KEEP 2", "AI SHIELD bob", "EXPOSE Mars,Earth", "LOSE ATRISK"}, nil},
		{"AI OWN ALL\nAI DEFEND ALL", []string{"AI OWN ALL", "AI DEFEND ALL"}, nil},
		{"AI DEFEND MIN 3", []string{"AI DEFEND MIN 3"}, nil},
		{"OVERTHROWN YIELD\nOVERTHROWN RISK ON Mars\nOVERTHROWN YIELD ON Earth", []string{"OVERTHROWN YIELD", "OVERTHROWN YIELD ON Earth", "OVERTHROWN RISK ON Mars"}, nil},
		{"OVERTHROWN RISK ON Mars\nOVERTHROWN GENERAL ON Mars", []string{"OVERTHROWN RISK"}, []string{"ON Mars"}},
		{"AI DEFEND MIN 3\nAI DEFEND LAST", []string{"AI DEFEND LAST"}, []string{"MIN"}},
		{"AI OWN EXPAND\nAI OWN OFF\nAI DEFEND OFF", []string{"AI OWN OFF", "AI DEFEND OFF"}, []string{"EXPAND"}},
		{"ACCEPT SHARES research, attack", []string{"ACCEPT SHARES Research,Attack"}, nil},
		// 2.5.2's "may": TECH NONE (or an empty plan) declines, TECH NEVER
		// refuses; the latest order wins for a technology named in both.
		{"TECH NONE", []string{"TECH NONE"}, nil},
		{"TECH", []string{"TECH NONE"}, nil},
		{"TECH NONE\nTECH ANY", nil, []string{"TECH"}},
		{"tech never ai, launch\ntech attack, launch", []string{"TECH Attack,Launch", "TECH NEVER AI"}, []string{"NEVER AI,Launch"}},
		{"TECH Attack,AI\nTECH NEVER AI", []string{"TECH Attack", "TECH NEVER AI"}, []string{"Attack,AI"}},
		{"TECH NEVER AI\nTECH NEVER NONE", nil, []string{"NEVER"}},
		{"ACCEPT SHARES NONE", []string{"ACCEPT SHARES NONE"}, nil},
		{"ACCEPT SHARES NONE\nACCEPT SHARES ALL", []string{"ACCEPT SHARES ALL"}, []string{"NONE"}},
		{"AI SHIELD bob\nAI SHIELD NONE\nEXPOSE Mars\nEXPOSE NONE\nAI KEEP 3\nAI KEEP 0\nLOSE ATRISK\nLOSE FEWEST",
			[]string{"LOSE FEWEST"}, []string{"AI SHIELD", "EXPOSE", "AI KEEP", "ATRISK"}},
	} {
		s := buildFull(t, "players ann bob\nactive bob\nfleet Mars ann 1\nfleet Mars bob 1\noption collab")
		p := engine.Prompt{ID: "any:ann", Player: "ann", Kind: engine.KindAnytime}
		o, errs := s.View("ann").Parse(p, c.text)
		if len(errs) > 0 {
			t.Fatalf("%q: %v", c.text, errs)
		}
		ev, err := s.Resolve([]engine.Answer{{Prompt: p, Orders: o}}, dice.FromSource(dice.Scripted{}))
		if err != nil {
			t.Fatal(err)
		}
		if n := len(engine.OrdersText(o)); n > 0 && len(ev) == 0 {
			t.Errorf("%q: no confirmation", c.text)
		}
		status := strings.Join(strings.Fields(s.View("ann").Status()), " ")
		for _, w := range c.want {
			if !strings.Contains(status, w) {
				t.Errorf("%q: status does not say %q:\n%s", c.text, w, status)
			}
		}
		for _, w := range c.not {
			if strings.Contains(status, w) {
				t.Errorf("%q: status says %q:\n%s", c.text, w, status)
			}
		}
	}
}

func TestFullBoardGolden(t *testing.T) {
	s := buildFull(t, `players ann bob cat
active bob
first ann
region Earth 1 UN 1
region Earth 2 ann 2 risk
region Mars 1 bob 1
devastation Mars 2 2
pi Mars bob
fleet Mars ann 3 2
fleet Solar cat 1
ann vp 4
ann power 9
ann economy 2
ann sanctions 1
tech ann Attack 1
order ann DEFENSIVE FIRE AT bob
order ann TECH Research`)
	v := s.View("ann")
	got := v.Board() + "\n" + v.Status()
	for _, line := range strings.Split(got, "\n") {
		if len(line) > 78 {
			t.Errorf("line of %d columns: %q", len(line), line)
		}
	}
	const file = "testdata/full-board.golden"
	if *update {
		if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("board:\n%s\nwant:\n%s", got, want)
	}
}

func FuzzFullParseRoundTrip(f *testing.F) {
	f.Add("PASSES 1\nROUTE 1 FROM Solar TO Outer\nLAUNCH 1 FROM Mars TO Middle\nFIRE Mars 2 AT bob\nEXPAND Mars 2,1 clear\nCOUP Earth 1 AT UN\nPACIFY Mars 1\nBUILD Mars 1,3x2\nRESEARCH Mars 1\nDEFEND Mars 1 AT bob\nINFLUENCE Mars 3\nUN FLEET")
	f.Add("tech attack, research\ndefensive fire at bob\npay scrap\noverthrown yield\nconcede to bob\npeace yes")
	f.Add("ai own fire,coup\nAI OWN all\nai defend last\nai defend min 2\noverthrown yield on mars\noverthrown general on Ceres\nai keep 0\nai shield bob, UN\nai shield none\nexpose mars, Solar\nexpose none\nlose atrisk\npacify mars 2 region, fleet\nexpand ceres 1 new clear")
	f.Add("accept shares ai, research\naccept shares none\naccept shares ALL\naccept transfers none")
	s := &FullState{fullState: *newFullState([]string{"ann", "bob"}), Stage: "turns"}
	for _, p := range board.Places {
		s.Fleets[p.Name]["ann"] = &fullFleets{Ok: 50}
	}
	turn := engine.Prompt{ID: "turn:ann", Player: "ann", Kind: engine.KindTurn}
	f.Fuzz(func(t *testing.T, text string) {
		o, errs := s.View("ann").Parse(turn, text)
		if len(errs) > 0 {
			return
		}
		canon := engine.OrdersText(o)
		again, errs := s.View("ann").Parse(turn, canon)
		if len(errs) > 0 || engine.OrdersText(again) != canon {
			t.Fatalf("round trip: %q → %q → %v %v", text, canon, again, errs)
		}
	})
}

// TestFullBoardCrowded draws the most crowded board the rules allow on
// the longest lines: six players, every region of Earth stacked to its
// limit (2 + Nanotechnology 2) or held by the UN At Risk, every player's
// Political Influence there, and fleets everywhere. Every line stays
// within 78 columns, and every region's owner, stack, At Risk and the
// Political Influence still show.
func TestFullBoardCrowded(t *testing.T) {
	setup := "players ann bob cat dan eve fay\nactive ann\nfirst ann\n"
	owners := []string{"ann", "bob", "cat", "dan", "eve", "fay"}
	for i, p := range owners {
		setup += fmt.Sprintf("region Earth %d %s 4 risk\npi Earth %s\n", i+1, p, p)
	}
	setup += "region Earth 7 UN 1 risk\ndevastation Venus 1 12\nregion Titan 1 ann 3 risk\nregion Titan 2 bob 3 risk\n" +
		"region Titan 3 cat 3 risk\nregion Titan 4 dan 3 risk\nregion Titan 5 eve 3 risk\n"
	for _, pl := range board.Places {
		for _, p := range owners {
			setup += fmt.Sprintf("fleet %s %s 120 30\n", pl.Name, p)
		}
	}
	s := buildFull(t, setup)
	got := s.View("ann").Board()
	for _, line := range strings.Split(got, "\n") {
		if len(line) > 78 {
			t.Errorf("line of %d columns: %q", len(line), line)
		}
	}
	// A crowded row of the fleets list keeps its columns when it wraps.
	for _, want := range []string{"[A4B4C4D4E4F4U!]+abcdef", "[#12...]", "[A3B3C3D3E3]",
		"\n  Solar     Solar System    a150(30!) b150(30!)", "\n" + strings.Repeat(" ", 28) + "f150(30!)\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("the board does not show %s:\n%s", want, got)
		}
	}
	// A position no game reaches (Devastation 12 in every region of Earth
	// beside six PI counters) still fits: its regions go below the disc.
	freak := "players ann bob cat dan eve fay\nactive ann\nfirst ann\n"
	for i := 1; i <= 7; i++ {
		freak += fmt.Sprintf("devastation Earth %d 12\n", i)
	}
	for _, p := range owners {
		freak += "pi Earth " + p + "\n"
	}
	got = buildFull(t, freak).View("ann").Board()
	for _, line := range strings.Split(got, "\n") {
		if len(line) > 78 {
			t.Errorf("line of %d columns: %q", len(line), line)
		}
	}
	if !strings.Contains(got, "Earth      (regions below)") || !strings.Contains(got, "  Earth [#12#12#12#12#12#12#12]+abcdef") {
		t.Errorf("the crowded Earth is not drawn below the disc:\n%s", got)
	}
}

// TestFullEmptyTurnIsExplicit: the full rules' empty turn is the first
// branch for every fleet in a trajectory, written as ROUTE orders.
func TestFullEmptyTurnIsExplicit(t *testing.T) {
	s := buildFull(t, "players ann bob\nactive ann\nfleet Solar ann 2 1\nfleet Jovian ann 1\nfleet Mars ann 4")
	p := engine.Prompt{ID: "turn:ann", Player: "ann", Kind: engine.KindTurn}
	o, errs := s.View("ann").Parse(p, "")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if got, want := engine.OrdersText(o), "ROUTE 3 FROM Solar TO Inner\nROUTE 1 FROM Jovian TO Io"; got != want {
		t.Errorf("an empty turn is\n%s\nwant\n%s", got, want)
	}
}
