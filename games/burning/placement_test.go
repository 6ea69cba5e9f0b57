package burning

import (
	"fmt"
	"strings"
	"testing"

	"orrery/engine"
	"orrery/engine/dice"
	enlang "orrery/engine/lang"
)

// placingGame is a 3-player game with home_placement=player, still in its
// setup step.
func placingGame(t testing.TB, lang string) *State {
	t.Helper()
	s := newGame(t, []string{"ann", "bob", "cy"}, map[string]string{"home_placement": "player", "lang": lang}, "placing")
	if s.Placing == nil {
		t.Fatal("home_placement=player did not open the setup step")
	}
	return s
}

func homeOf(s *State, p string) *Planet { return s.planet(s.Placing[p].Planet) }

// ring lists the cells of pl at distance k from its centre.
func ring(pl *Planet, k int) []Cell {
	var out []Cell
	for _, c := range hexCells(pl.Centre, k) {
		if dist(c, pl.Centre) == k {
			out = append(out, c)
		}
	}
	return out
}

// The setup step asks every player at once, with the dice as the default;
// the home planets are bare and the banks empty until it is answered.
func TestHomePlacementPrompts(t *testing.T) {
	s := placingGame(t, langEN)
	ps := stepPrompts(s)
	if len(ps) != 3 || s.Turn() != 0 || s.Phase() != "home placement" {
		t.Fatalf("prompts %v, turn %d, phase %q", ps, s.Turn(), s.Phase())
	}
	for _, p := range ps {
		h := s.Placing[p.Player]
		pl := s.planet(h.Planet)
		if p.Kind != engine.KindTurn || p.Default != "AUTO" || !strings.HasPrefix(p.ID, "place:") || pl.HomeOf != p.Player {
			t.Errorf("prompt %+v for %+v", p, h)
		}
		if len(pl.Sites) != 0 || !s.Bank[p.Player].zero() || h.Forests+h.Mountains != 5 {
			t.Errorf("%s's home before placement: sites %v, bank %v, %+v", p.Player, pl.Sites, s.Bank[p.Player], h)
		}
		if !strings.Contains(p.Ask, enlang.Count(enlang.English, h.Forests, "forest", "forests")+" and "+enlang.Count(enlang.English, h.Mountains, "mountain", "mountains")) {
			t.Errorf("prompt does not say what to place: %q", p.Ask)
		}
	}
	if st := s.View("ann").Status(); !strings.HasPrefix(st, "Setup:") {
		t.Errorf("status during setup:\n%s", st)
	}
}

// Each placement rule, at its edge, in both languages.
func TestHomePlacementErrors(t *testing.T) {
	for _, lang := range []string{langEN, langRU} {
		s := placingGame(t, lang)
		var p string
		for _, q := range s.Seats {
			if s.Placing[q].Forests > 0 && s.Placing[q].Mountains > 0 {
				p = q // a Fair home: both kinds to place
			}
		}
		if p == "" {
			t.Fatal("no Fair home planet in this game")
		}
		pl, h := homeOf(s, p), s.Placing[p]
		in, border := ring(pl, 1), ring(pl, pl.radius())
		other := homeOf(s, s.Seats[0])
		if other == pl {
			other = homeOf(s, s.Seats[1])
		}
		var tooMany []string
		for i := 0; i <= h.Forests; i++ {
			tooMany = append(tooMany, "TILE FOREST AT "+in[i].String())
		}
		prompt := engine.Prompt{ID: "place:" + p, Player: p, Kind: engine.KindTurn}
		for _, c := range []struct {
			text, en, ru string
		}{
			{"TILE FOREST AT " + pl.Centre.String(), "is for the monolith only", "только для монолита"},
			{"TILE FOREST AT " + ring(other, 1)[0].String(), "is not on your home planet", "не на вашей родной планете"},
			{"TILE FOREST AT " + in[0].String() + "\nTILE MOUNTAIN AT " + in[0].String(), "is taken already", "уже занята"},
			{strings.Join(tooMany, "\n"), "no forest is left to place", "не осталось неразмещённых: лес"},
			{"TILE MOUNTAIN AT " + border[0].String(), "tiles go on interior cells while any is free", "на внутренние клетки"},
			{"BUILD CANNON AT " + in[0].String(), "only on the outer border", "только на внешней границе"},
			{"BUILD CANNON AT " + border[0].String() + "\nBUILD CANNON AT " + border[1].String(), "one starting cannon", "стартовая пушка у вас одна"},
			{"BUILD FURNACE AT " + in[0].String(), "only your starting cannon is built now", "сейчас строится только стартовая пушка"},
			{"SHIP 1 MOVE A1", "now only TILE, BUILD CANNON and AUTO", "сейчас только РЕСУРС"},
			{"TILE SPACEPORT AT " + in[0].String(), "a tile: FOREST or MOUNTAIN", "ресурс: ЛЕС или ГОРА"},
		} {
			_, errs := s.View(p).Parse(prompt, c.text)
			want := c.en
			if lang == langRU {
				want = c.ru
			}
			if len(errs) != 1 || !strings.Contains(readErr(lang, errs[0]), want) {
				t.Errorf("%s: %q: got %v, want one error with %q", lang, c.text, errs, want)
			}
		}
		// The same lines, right, are accepted; Russian words too.
		ok := "РЕСУРС ЛЕС В " + in[0].String() + "\nTILE MOUNTAIN AT " + in[1].String() + "\nСТРОИТЬ ПУШКА В " + border[0].String() + "\nAUTO"
		if o, errs := s.View(p).Parse(prompt, ok); len(errs) > 0 || len(o.Lines()) != 4 || o.Lines()[0] != "TILE FOREST AT "+in[0].String() {
			t.Errorf("%s: good placement: %v %v", lang, o, errs)
		}
	}
}

// ann places everything herself, bob part, cy nothing (the default): the
// dice place the rest by the default rules, every bank gets ten turns of
// production, and the first turn opens.
func TestHomePlacementResolve(t *testing.T) {
	s := placingGame(t, langEN)
	texts := map[string]string{}
	placed := map[string][]Site{}
	for i, p := range s.Seats {
		pl, h := homeOf(s, p), s.Placing[p]
		cells := append(ring(pl, 1), ring(pl, 2)...)
		if pl.radius() == 2 {
			cells = ring(pl, 1)
		}
		var lines []string
		n := h.Forests + h.Mountains
		if i == 1 {
			n = 2
		}
		if i == 2 {
			n = 0
		}
		for k := 0; k < n; k++ {
			kind := Forest
			if k >= h.Forests {
				kind = Mountain
			}
			lines = append(lines, fmt.Sprintf("TILE %s AT %s", kind, cells[len(cells)-1-k]))
			placed[p] = append(placed[p], Site{Cell: cells[len(cells)-1-k], Kind: kind})
		}
		if i == 0 {
			b := ring(pl, pl.radius())[3]
			lines = append(lines, "BUILD CANNON AT "+b.String())
			placed[p] = append(placed[p], Site{Cell: b, Kind: CannonS})
		}
		if i == 2 {
			lines = []string{"AUTO"}
		}
		texts[p] = strings.Join(lines, "\n")
	}
	var answers []engine.Answer
	for _, pr := range stepPrompts(s) {
		o, errs := s.View(pr.Player).Parse(pr, texts[pr.Player])
		if len(errs) > 0 {
			t.Fatalf("%s: %v", pr.Player, errs)
		}
		answers = append(answers, engine.Answer{Prompt: pr, Orders: o, Default: pr.Player == s.Seats[2]})
	}
	want := map[string]HomeSetup{} // copies: the setup is consumed
	for _, p := range s.Seats {
		want[p] = *s.Placing[p]
	}
	d := dice.New("resolve")
	events, err := s.Resolve(answers, d)
	if err != nil {
		t.Fatal(err)
	}
	if s.Placing != nil || s.Turn() != 1 || s.Prompts()[0].ID != "turn:"+s.Seats[0] {
		t.Fatalf("after placement: placing %v, turn %d, prompts %v", s.Placing, s.Turn(), s.Prompts())
	}
	for i, p := range s.Seats {
		pl := s.planet(want[p].Planet)
		if pl.count(Forest) != want[p].Forests || pl.count(Mountain) != want[p].Mountains || pl.count(CannonS) != 1 || len(pl.Sites) != 6 {
			t.Errorf("%s's home: %v, want %+v and a cannon", p, pl.Sites, want[p])
		}
		for _, st := range placed[p] {
			if j := pl.site(st.Cell); j < 0 || pl.Sites[j].Kind != st.Kind {
				t.Errorf("%s placed %v, the planet has %v", p, st, pl.Sites)
			}
		}
		for _, st := range pl.Sites {
			if st.Kind == CannonS && dist(st.Cell, pl.Centre) != pl.radius() {
				t.Errorf("%s's cannon at %s is not on the border", p, st.Cell)
			}
		}
		bank := homeBank(pl)
		if i == 0 {
			bank = bank.add(s.income(p)) // the first turn's income is collected
		}
		if s.Bank[p] != bank {
			t.Errorf("%s's bank %v, want %v", p, s.Bank[p], bank)
		}
	}
	text := eventTexts(events)
	for _, w := range []string{s.Seats[0] + " places the tiles and the starting cannon of", s.Seats[1] + " places 2 of the tiles and the cannon of",
		"the dice place the other 4", "The dice place the tiles and the starting cannon of " + want[s.Seats[2]].Planet} {
		if !strings.Contains(text, w) {
			t.Errorf("no event %q in:\n%s", w, text)
		}
	}
	// Every die the placement rolled is recorded with its purpose.
	rolls := 0
	for _, r := range d.Rolls() {
		if strings.Contains(r.Purpose, "cell of") {
			rolls++
		}
	}
	if rolls != 4+6 {
		t.Errorf("%d placement dice, want 4 for bob's tiles and 6 for cy's home (5 tiles and the cannon): %v", rolls, d.Rolls())
	}
}

// The default mode is unchanged: no setup step, the first turn at once.
func TestHomePlacementOffByDefault(t *testing.T) {
	s := newGame(t, []string{"ann", "bob"}, nil, "placing")
	if s.Placing != nil || s.Turn() != 1 || len(s.Prompts()) == 0 || !strings.HasPrefix(s.Prompts()[0].ID, "turn:") {
		t.Fatalf("default game: placing %v, prompts %v", s.Placing, s.Prompts())
	}
}

// FuzzPlacement: whatever a player sends in the setup step, Parse does not
// panic, and what it accepts parses again to itself and resolves (with the
// others' defaults) into a game whose homes have five tiles and a cannon.
func FuzzPlacement(f *testing.F) {
	for _, seed := range []string{"AUTO", "TILE FOREST AT Q7\nBUILD CANNON AT O6", "РЕСУРС ГОРА В Q7", "TILE MOUNTAIN AT A1", ""} {
		f.Add(seed)
	}
	// The galaxy is generated once and decoded afresh for each input:
	// decoding costs a fifth of generating, and the fuzzer gets five times
	// the inputs in the same time.
	data, err := placingGame(f, langEN).Marshal()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, text string) {
		st, err := Ruleset().LoadState(data)
		if err != nil {
			t.Fatal(err)
		}
		s := st.(*State)
		ps := stepPrompts(s)
		o, errs := s.View(ps[0].Player).Parse(ps[0], text)
		if len(errs) > 0 {
			return
		}
		canon := engine.OrdersText(o)
		again, errs := s.View(ps[0].Player).Parse(ps[0], canon)
		if len(errs) > 0 || engine.OrdersText(again) != canon {
			t.Fatalf("round trip of %q: %v %q", canon, errs, engine.OrdersText(again))
		}
		answers := []engine.Answer{{Prompt: ps[0], Orders: o}}
		for _, p := range ps[1:] {
			d, _ := s.View(p.Player).Parse(p, p.Default)
			answers = append(answers, engine.Answer{Prompt: p, Orders: d, Default: true})
		}
		if _, err := s.Resolve(answers, dice.New("fuzz")); err != nil {
			t.Fatalf("resolving %q: %v", canon, err)
		}
		for _, pl := range s.Planets {
			if pl.HomeOf != "" && (len(pl.Sites) != 6 || pl.count(CannonS) != 1) {
				t.Fatalf("%s after %q: %v", pl.Name, canon, pl.Sites)
			}
		}
	})
}

// With asteroid_placement=player each asteroid's section is rolled and the
// player to the roller's left picks its cell (or leaves it to the die);
// every rule of the default mode holds at its edges; then the home
// placement step (also on here) and the first turn follow.
func TestAsteroidPlacement(t *testing.T) {
	for _, lang := range []string{langEN, langRU} {
		s := newGame(t, []string{"ann", "bob", "cy"}, map[string]string{"asteroid_placement": "player", "home_placement": "player", "lang": lang}, "asteroids")
		if s.AstPick == nil || s.Turn() != 0 || s.Phase() != "asteroid placement" || len(s.Asteroids) != 0 {
			t.Fatalf("no asteroid step: %+v, turn %d, phase %q", s.AstPick, s.Turn(), s.Phase())
		}
		chosen, dropped, probedClose := map[Cell]bool{}, 0, false
		for step := 0; s.AstPick != nil; step++ {
			a := *s.AstPick
			ps := stepPrompts(s)
			if len(ps) != 1 || ps[0].Player != a.Chooser || ps[0].Default != "AUTO" || ps[0].Kind != engine.KindStep {
				t.Fatalf("asteroid %d: prompts %v", a.N, ps)
			}
			if i := indexOf(s.Seats, a.Roller); s.Seats[(i+1)%3] != a.Chooser || s.Seats[(a.N-1)%3] != a.Roller {
				t.Fatalf("asteroid %d rolled by %s, chosen by %s", a.N, a.Roller, a.Chooser)
			}
			v := s.View(a.Chooser)
			legal := s.asteroidCells(a.Section)
			for _, c := range s.Grid.sectionCells(a.Section) {
				if !s.asteroidRoom(c) && !probedClose {
					probedClose = true
					if _, errs := v.Parse(ps[0], "ASTEROID "+c.String()); len(errs) != 1 || !strings.Contains(errs[0].Msg, c.String()) {
						t.Errorf("too close %s accepted: %v", c, errs)
					}
				}
			}
			outside := s.Grid.sectionCells(a.Section%s.Grid.Sections() + 1)[0]
			other := s.Seats[(indexOf(s.Seats, a.Chooser)+1)%3]
			for _, bad := range []struct {
				who, text string
			}{
				{a.Chooser, "ASTEROID " + outside.String()},
				{a.Chooser, "ASTEROID " + legal[0].String() + "\nAUTO"},
				{a.Chooser, "SHIP 1 MOVE A1"},
				{other, "AUTO"},
			} {
				if _, errs := s.View(bad.who).Parse(engine.Prompt{ID: ps[0].ID, Player: bad.who, Kind: engine.KindStep}, bad.text); len(errs) != 1 {
					t.Errorf("asteroid %d: %s's %q: %v", a.N, bad.who, bad.text, errs)
				}
			}
			text, def := "AUTO", true
			if step%2 == 0 {
				text, def = "АСТЕРОИД "+legal[len(legal)-1].String(), false
				chosen[legal[len(legal)-1]] = true
			}
			o, errs := v.Parse(ps[0], text)
			if len(errs) > 0 {
				t.Fatalf("asteroid %d: %q: %v", a.N, text, errs)
			}
			d := dice.New(fmt.Sprint("ast", step))
			events, err := s.Resolve([]engine.Answer{{Prompt: ps[0], Orders: o, Default: def}}, d)
			if err != nil {
				t.Fatal(err)
			}
			dieCell := false
			for _, r := range d.Rolls() {
				dieCell = dieCell || strings.HasPrefix(r.Purpose, fmt.Sprintf("cell of asteroid %d ", a.N))
			}
			if dieCell != def || len(eventTexts(events)) == 0 {
				t.Errorf("asteroid %d (%q): a die picked the cell: %v; events %s", a.N, text, dieCell, eventTexts(events))
			}
			// The setup dice record the section rolls and who or what chose the cell.
			rec := ""
			for _, l := range s.SetupDice {
				if strings.HasPrefix(l, fmt.Sprintf("asteroid %d: ", a.N)) {
					rec = l
				}
			}
			want := ", cell chosen by " + a.Chooser + " = "
			if def {
				want = ", cell d"
			}
			if !strings.Contains(rec, fmt.Sprintf("section d%d=%d", s.Grid.Sections(), a.Section)) || !strings.Contains(rec, want) {
				t.Errorf("asteroid %d: setup dice %q, want the section %d and %q", a.N, rec, a.Section, want)
			}
			if !def && lang == langRU && !strings.Contains(s.View(a.Chooser).Status(), "клетку выбрал "+a.Chooser) {
				t.Errorf("asteroid %d: the Russian status does not say who chose the cell:\n%s", a.N, s.View(a.Chooser).Status())
			}
			dropped += strings.Count(eventTexts(events), "dropped") + strings.Count(eventTexts(events), "не размещён")
		}
		if len(s.Asteroids)+dropped != s.AstCount || len(chosen) == 0 {
			t.Errorf("%d asteroids and %d dropped of %d", len(s.Asteroids), dropped, s.AstCount)
		}
		for c := range chosen {
			if !s.asteroidAt(c) {
				t.Errorf("chosen asteroid %s missing", c)
			}
		}
		if !probedClose {
			t.Error("no cell too close to probe")
		}
		// Then the home placement step; then turn 1.
		ps := stepPrompts(s)
		if len(ps) != 3 || !strings.HasPrefix(ps[0].ID, "place:") {
			t.Fatalf("after the asteroids: %v", ps)
		}
		var answers []engine.Answer
		for _, p := range ps {
			o, _ := s.View(p.Player).Parse(p, p.Default)
			answers = append(answers, engine.Answer{Prompt: p, Orders: o, Default: true})
		}
		if _, err := s.Resolve(answers, dice.New("homes")); err != nil || s.Turn() != 1 {
			t.Fatalf("home placement: %v, turn %d", err, s.Turn())
		}
	}
}

func indexOf(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}

// stepPrompts are the setup step's prompts, without the any-time ones.
func stepPrompts(s *State) []engine.Prompt {
	var out []engine.Prompt
	for _, p := range s.Prompts() {
		if p.Kind != engine.KindAnytime {
			out = append(out, p)
		}
	}
	return out
}

// During the setup steps a player may already choose their language (the
// setup prompt is then asked in it) and declare alliances; other any-time
// orders are refused until turn 1, in the player's language.
func TestSetupAnytime(t *testing.T) {
	s := newGame(t, []string{"ann", "bob", "cy"}, map[string]string{"asteroid_placement": "player", "home_placement": "player"}, "setupany")
	any := func(p string) engine.Prompt {
		for _, pr := range s.Prompts() {
			if pr.Player == p && pr.Kind == engine.KindAnytime {
				return pr
			}
		}
		t.Fatalf("no any-time prompt for %s during the setup: %v", p, s.Prompts())
		return engine.Prompt{}
	}
	chooser := s.AstPick.Chooser
	o, errs := s.View(chooser).Parse(any(chooser), "ЯЗЫК RU\nALLY "+s.Seats[0])
	if len(errs) > 0 {
		t.Fatalf("LANG and ALLY during the setup: %v", errs)
	}
	n := s.AstPick.N
	events, err := s.Resolve([]engine.Answer{{Prompt: any(chooser), Orders: o}}, dice.New("any"))
	if err != nil {
		t.Fatal(err)
	}
	if s.Lang[chooser] != langRU || s.AstPick == nil || s.AstPick.N != n || len(events) == 0 {
		t.Fatalf("after LANG RU: lang %s, asteroid step %+v (was %d), events %v", s.Lang[chooser], s.AstPick, n, eventTexts(events))
	}
	if chooser != s.Seats[0] && !contains(s.Allies[chooser], s.Seats[0]) {
		t.Errorf("the alliance was not declared: %v", s.Allies)
	}
	if ask := readAsk(langRU, stepPrompts(s)[0]); !strings.Contains(ask, "астероид") {
		t.Errorf("the setup prompt is not asked in Russian after LANG RU: %q", ask)
	}
	for _, text := range []string{"RESIGN", "OFFER ann SHIP 1 GIVE 1B", "BUILD CANNON AT A1", "ASTEROID A1"} {
		_, errs := s.View(chooser).Parse(any(chooser), text)
		if len(errs) != 1 || !strings.Contains(readErr(langRU, errs[0]), "во время подготовки только ЯЗЫК") {
			t.Errorf("%q during the setup: %v", text, errs)
		}
	}
}
