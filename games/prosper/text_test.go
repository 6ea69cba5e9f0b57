package prosper

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"orrery/engine"
	"orrery/engine/dice"
	"orrery/engine/lang"
)

// latinWords lists the words of s in Latin letters that are not names
// (planets, players), order words and board marks (SETTLE, S, B25, n12).
func latinWords(s string) []string {
	var out []string
	s = quoted.ReplaceAllString(s, "") // the player's own words: "x" is not a number
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if !isLatin(w) || w == strings.ToUpper(w) || strings.IndexFunc(w, unicode.IsDigit) >= 0 || planetName(w) || optionValues[w] {
			continue
		}
		switch w {
		case "ann", "bob", "cat", "cy", "dan", "eve", "fay", "n":
			continue
		}
		out = append(out, w)
	}
	return out
}

var quoted = regexp.MustCompile(`"[^"]*"|'[^']*'`)

func isLatin(w string) bool {
	for _, r := range w {
		if r > unicode.MaxASCII {
			return false
		}
	}
	return true
}

var planetNames = func() map[string]bool {
	m := map[string]bool{}
	for _, b := range offlineBoards() {
		for _, p := range b.Planets {
			m[p.Name] = true
		}
	}
	return m
}()

// optionValues are the values an option's help names, to be typed as
// they are (map=generated), and the maps' name Hex-19.
var optionValues = func() map[string]bool {
	m := map[string]bool{"Hex": true}
	for _, o := range Ruleset().Info().Options {
		for _, c := range o.Choices {
			m[c] = true
		}
	}
	return m
}()

func planetName(w string) bool { return planetNames[w] }

// TestTranslateEverythingRecorded writes in Russian every message the
// rule cases and bot games of every option record — events, prompts,
// phases, dice purposes, ends, order errors and fixes — and draws every
// board and status in Russian: each must be a message (its English the
// recorded text), and come out whole, with no English word left. The
// same English, as a game recorded before messages has it, must still
// come out whole through the legacy Translate. A text added without its
// message or its Russian fails here, named.
func TestTranslateEverythingRecorded(t *testing.T) {
	rs := Ruleset().(engine.Localizer)
	seen := map[string]bool{}
	// A shuffle's die is worded by the engine, its Russian in the
	// templates' catalog, which the mail side adds after the game's.
	engineRU := lang.NewCatalog()
	engineRU.Add(lang.Russian, "%s (position %d of %d)", "%s (место %d из %d)")
	ruEnv := lang.Env{Tag: lang.Russian, Catalogs: []*lang.Catalog{catalog, engineRU}}
	check := func(what, en string, m *lang.Msg) {
		if en == "" || seen[en] {
			return
		}
		seen[en] = true
		if m == nil {
			t.Errorf("%s %q is not a message", what, en)
			return
		}
		if got := m.English(); got != en {
			t.Errorf("%s %q: its message's English is %q", what, en, got)
		}
		got := lang.Render(ruEnv, *m)
		if got == en {
			t.Errorf("%s %q has no Russian", what, en)
		} else if latin := latinWords(got); len(latin) > 0 {
			t.Errorf("%s %q in Russian still has English words %v: %q", what, en, latin, got)
		}
		// LEGACY: the same text recorded without its message.
		old, ok := rs.Translate(langRU, en)
		if !ok || old == en {
			t.Errorf("%s %q recorded in English has no Russian", what, en)
		} else if latin := latinWords(old); len(latin) > 0 {
			t.Errorf("%s %q recorded in English still has English words in Russian %v: %q", what, en, latin, old)
		}
	}
	rules := func(what, en string) {
		got, ok := rs.Translate(langRU, en)
		if !ok || got == en {
			t.Errorf("%s %q has no Russian", what, en)
		} else if latin := latinWords(got); len(latin) > 0 {
			t.Errorf("%s %q in Russian still has English words %v: %q", what, en, latin, got)
		}
	}
	errMsgs := func(e engine.LineError) {
		check("error", e.Msg, e.Why)
		if e.Fix != "" || e.Hint != nil {
			check("fix", e.Fix, e.Hint)
		}
	}
	drawn := 0
	look := func(s *State) {
		pm := s.PhaseMsg()
		check("phase", s.Phase(), &pm)
		for _, p := range s.Prompts() {
			check("prompt", p.Ask, p.Msg)
		}
		if s.Phase_ == phaseOver {
			o := s.Outcome()
			if o.Text != s.Result {
				t.Errorf("the end %q, recorded as %q", o.Text, s.Result)
			}
			check("end", o.Text, o.Msg)
		}
		// The GM's view and one seat's (in turn), and every seat's at the
		// end: all drawn, without drawing every seat at every step.
		who := []string{"", s.Seats[drawn%len(s.Seats)]}
		if s.Phase_ == phaseOver {
			who = append(who, s.Seats...)
		}
		for _, who := range who {
			v := rs.Localize(s.View(who), langRU)
			text := v.Board() + v.Status()
			if latin := latinWords(text); len(latin) > 0 {
				t.Errorf("the Russian board and status of %q still have English words %v:\n%s", who, latin, text)
			}
			for _, l := range strings.Split(text, "\n") {
				if n := engine.Width(l); n > reportWidth {
					t.Errorf("a Russian board or status line of %d columns: %q", n, l)
				}
			}
			drawn++
		}
	}
	rules("summary", Ruleset().Info().Summary)
	rules("order help", Ruleset().Info().OrderHelp)
	for _, o := range Ruleset().Info().Options {
		rules("option help", o.Help)
	}

	// The rule cases: every event and every error they make.
	cases, err := filepath.Glob("testdata/cases/*.txt")
	if err != nil {
		t.Fatal(err)
	}
	errorsSeen := 0
	for _, file := range cases {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var s *State
		for _, sec := range strings.Split(string(src), "-- ")[1:] {
			name, body, _ := strings.Cut(sec, " --\n")
			switch name {
			case "board":
				if s, err = buildCase(body); err != nil {
					t.Fatalf("%s: %v", file, err)
				}
				look(s)
			case "orders":
				first, text, _ := strings.Cut(body, "\n")
				p, ok := casePrompt(s, strings.TrimPrefix(strings.TrimSpace(first), "as "))
				if !ok {
					t.Fatalf("%s: nothing asked", file)
				}
				if strings.TrimSpace(text) == "DEFAULT" {
					text = p.Default
				}
				orders, errs := s.View(p.Player).Parse(p, text)
				for _, e := range errs {
					errorsSeen++
					errMsgs(e)
				}
				if len(errs) > 0 {
					continue
				}
				events, err := s.Resolve([]engine.Answer{{Prompt: p, Orders: orders}}, dice.New("cases"))
				if err != nil {
					t.Fatalf("%s: %v", file, err)
				}
				for _, e := range events {
					check("event", e.Text, e.Msg)
				}
				look(s)
			}
		}
	}
	if errorsSeen < 20 {
		t.Errorf("the rule cases gave only %d errors: the reading is broken", errorsSeen)
	}
	// More refusals than the cases give, through the mail's own check.
	for _, text := range []string{"FLY 3 Sol", "SETTLE", "SETTLE Rigle 3", "SETTLE Vega x", "SETTLE Vega 3 OR Sol 7",
		"SETTLE Vega 0", "MOVE 3 Sol", "MOVE x FROM Sol TO Vega", "MOVE 0 Sol Vega", "DONE now", "PLAN ALL", "SETL Vega 3",
		"SETTLE Ca 3", "MOVE 3 FROM Ca TO Sol", "xyzzy 4"} {
		_, errs := parseLines(text, offlineBoards()[1])
		for _, e := range errs {
			errMsgs(e)
		}
	}
	for _, e := range (ruleset{}).CheckSyntax("SETTLE Rigle 3\nMOVE 5 FROM Sol TO Vegas") {
		errMsgs(e)
	}

	// Bot games of every option, two to six players.
	optionSets := []map[string]string{
		{}, {"map": "generated"}, {"setup-losses": "reserve", "failed-attack": "strict"},
		{"turn-limit": "2"}, {"settle-minimum": "literal", "ships": "12"},
	}
	for k, o := range optionSets {
		for n := 2; n <= 6; n += 2 {
			opts, err := engine.ResolveOptions(Ruleset().Info(), o)
			if err != nil {
				t.Fatal(err)
			}
			d := dice.New(fmt.Sprint("ru", k, n))
			st, err := Ruleset().NewState(engine.Setup{GameID: "g", Players: players(n), Options: opts}, d)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range d.Rolls() {
				check("die", r.Purpose, r.Msg)
			}
			s := st.(*State)
			r := rand.New(rand.NewPCG(uint64(k), uint64(n)))
			for step := 0; step < 400 && s.Phase_ != phaseOver; step++ {
				look(s)
				p := s.Prompts()[0]
				v := s.View(p.Player)
				orders, errs := v.Parse(p, Ruleset().Bot(v, p, r))
				if len(errs) > 0 {
					t.Fatalf("bot orders: %v", errs)
				}
				events, err := s.Resolve([]engine.Answer{{Prompt: p, Orders: orders}}, dice.New("x"))
				if err != nil {
					t.Fatal(err)
				}
				for _, e := range events {
					check("event", e.Text, e.Msg)
				}
			}
			look(s)
		}
	}
	t.Logf("%d texts translated, %d boards and statuses drawn", len(seen), drawn)
	if len(seen) < 100 {
		t.Errorf("only %d texts seen: the games were too short to test much", len(seen))
	}
	if got, ok := rs.Translate("en", "Colonisation is over."); ok || got != "Colonisation is over." {
		t.Errorf("English is translated: %q", got)
	}
}

// TestLanguageChangesNoState plays the same bot game twice, once with
// every player reading Russian (chosen before the game, and every view
// drawn and every event translated in Russian as it goes) and once in
// English: the states are the same byte for byte at every step, and so
// are the recorded events. Only the rendering depends on the language.
func TestLanguageChangesNoState(t *testing.T) {
	rs := Ruleset().(engine.Localizer)
	run := func(language string) (states []string, events []string) {
		langs := map[string]string{}
		for _, p := range players(4) {
			langs[p] = language
		}
		opts, err := engine.ResolveOptions(Ruleset().Info(), map[string]string{"map": "generated", "turn-limit": "4"})
		if err != nil {
			t.Fatal(err)
		}
		st, err := Ruleset().NewState(engine.Setup{GameID: "g", Players: players(4), Options: opts, Languages: langs}, dice.New("lang"))
		if err != nil {
			t.Fatal(err)
		}
		s := st.(*State)
		r := rand.New(rand.NewPCG(5, 5))
		for step := 0; step < 300 && s.Phase_ != phaseOver; step++ {
			if language == langRU {
				for _, p := range s.Seats {
					v := rs.Localize(s.View(p), language)
					_ = v.Board() + v.Status()
				}
			}
			data, err := s.Marshal()
			if err != nil {
				t.Fatal(err)
			}
			states = append(states, string(data))
			p := s.Prompts()[0]
			v := s.View(p.Player)
			orders, errs := v.Parse(p, Ruleset().Bot(v, p, r))
			if len(errs) > 0 {
				t.Fatalf("bot orders: %v", errs)
			}
			ev, err := s.Resolve([]engine.Answer{{Prompt: p, Orders: orders}}, dice.New(fmt.Sprint("lang", step)))
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range ev {
				events = append(events, e.Text)
				if language == langRU && e.Msg != nil {
					lang.Render(lang.Env{Tag: lang.Russian, Catalogs: []*lang.Catalog{catalog}}, *e.Msg)
				}
			}
		}
		data, err := s.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		return append(states, string(data)), events
	}
	ruStates, ruEvents := run(langRU)
	enStates, enEvents := run("en")
	if len(ruStates) < 20 {
		t.Fatalf("only %d steps played", len(ruStates))
	}
	if len(ruStates) != len(enStates) {
		t.Fatalf("%d steps in Russian, %d in English", len(ruStates), len(enStates))
	}
	for i := range ruStates {
		if ruStates[i] != enStates[i] {
			t.Fatalf("step %d: the state differs by language:\nru %s\nen %s", i, ruStates[i], enStates[i])
		}
	}
	if strings.Join(ruEvents, "\n") != strings.Join(enEvents, "\n") {
		t.Error("the recorded events differ by language")
	}
}

// TestRussianViewShowsOnlyOwnPlan: drawn in Russian, a player's status
// shows their own settling plan and nobody else's, and the public view
// none, as in English (a plan is its writer's alone).
func TestRussianViewShowsOnlyOwnPlan(t *testing.T) {
	rs := Ruleset().(engine.Localizer)
	s := play(t, 3, 2, 4)
	s.Plans["ann"] = []string{"SETTLE Vega 3", "SETTLE Castor 3"}
	own := rs.Localize(s.View("ann"), langRU).Status()
	if !strings.Contains(own, "Ваш план заселения: SETTLE Vega 3; SETTLE Castor 3") {
		t.Errorf("ann's Russian status lacks her plan:\n%s", own)
	}
	for _, v := range []engine.View{s.View("bob"), s.View("cat"), s.PublicView(), s.View("")} {
		l := rs.Localize(v, langRU)
		if text := l.Board() + l.Status(); strings.Contains(text, "SETTLE Castor") || strings.Contains(text, "план заселения") {
			t.Errorf("%q's Russian view shows ann's plan:\n%s", v.Player(), text)
		}
		if l.Player() != v.Player() {
			t.Errorf("Localize changed whose view it is: %q, not %q", l.Player(), v.Player())
		}
	}
}
