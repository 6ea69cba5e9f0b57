package burning

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"

	"orrery/engine"
	"orrery/engine/dice"
	"orrery/engine/lang"
)

// TestTranslateEverythingRecorded plays bot games with every placement
// option and asks for the Russian of every die's purpose, every phase and
// the end of the game: a purpose added without its Russian fails here,
// naming it. The phase, the end and every die but an attack's and a
// defence's are messages: each is written in Russian from the catalog
// too, and its English is the recorded text; the English is still
// translated as a game recorded before messages has it.
func TestTranslateEverythingRecorded(t *testing.T) {
	rs := Ruleset().(engine.Translator)
	seen := map[string]bool{}
	check := func(what, en string) {
		if seen[en] {
			return
		}
		seen[en] = true
		got, ok := rs.Translate(langRU, en)
		if !ok || got == en {
			t.Errorf("%s %q has no Russian", what, en)
			return
		}
		if latin := latinWords(got); len(latin) > 0 {
			t.Errorf("%s %q in Russian still has English words %v: %q", what, en, latin, got)
		}
	}
	// A shuffle's die is worded by the engine, its Russian in the
	// templates' catalog, which the mail side adds after the game's.
	engineRU := lang.NewCatalog()
	engineRU.Add(lang.Russian, "%s (position %d of %d)", "%s (место %d из %d)")
	env := lang.Env{Tag: lang.Russian, Catalogs: []*lang.Catalog{catalog, engineRU}}
	msgs := 0
	checkMsg := func(what, en string, m *lang.Msg) {
		if m == nil {
			t.Errorf("%s %q is not a message", what, en)
			return
		}
		msgs++
		if m.English() != en {
			t.Errorf("%s %q: its message's English is %q", what, en, m.English())
		}
		if got := lang.Render(env, *m); got == en || len(latinWords(got)) > 0 {
			t.Errorf("%s %q is not Russian from its message: %q", what, en, got)
		}
	}
	check("summary", Ruleset().Info().Summary)
	check("order help", Ruleset().Info().OrderHelp)
	for _, placement := range []string{"dice", "player"} {
		for seed := 1; seed <= 3; seed++ {
			o, err := engine.ResolveOptions(Ruleset().Info(), map[string]string{"turns": "6",
				"home_placement": placement, "asteroid_placement": placement})
			if err != nil {
				t.Fatal(err)
			}
			names := []string{"ann", "bob", "cy", "dee"}
			d := dice.New(fmt.Sprint("tr", seed))
			st, err := Ruleset().NewState(engine.Setup{GameID: "g", Players: names, Options: o}, d)
			if err != nil {
				t.Fatal(err)
			}
			s := st.(*State)
			rolls := d.Rolls()
			r := rand.New(rand.NewPCG(uint64(seed), 9))
			for step := 0; step < 80 && !s.Done; step++ {
				check("phase", s.Phase())
				p := s.Prompts()[0]
				text := Ruleset().Bot(s.View(p.Player), p, r)
				orders, errs := s.View(p.Player).Parse(p, text)
				if len(errs) > 0 {
					t.Fatalf("bot orders: %v", errs)
				}
				d := dice.New(fmt.Sprint("tr", seed, step))
				if _, err := s.Resolve([]engine.Answer{{Prompt: p, Orders: orders}}, d); err != nil {
					t.Fatal(err)
				}
				rolls = append(rolls, d.Rolls()...)
			}
			check("phase", s.Phase())
			pm := s.PhaseMsg()
			checkMsg("phase", s.Phase(), &pm)
			if s.Done {
				check("end", s.Outcome().Text)
				checkMsg("end", s.Outcome().Text, s.Outcome().Msg)
			}
			for _, roll := range rolls {
				check("die", roll.Purpose)
				checkMsg("die", roll.Purpose, roll.Msg)
			}
		}
	}
	t.Logf("%d texts translated, %d messages written", len(seen), msgs)
	if len(seen) < 20 {
		t.Errorf("only %d texts seen: the games were too short to test much", len(seen))
	}
	if got, ok := rs.Translate(langEN, "size of Arda"); ok || got != "size of Arda" {
		t.Errorf("English is not translated: %q", got)
	}
}

// latinWords lists the words of s in Latin letters that are not names of
// the game (planets, players, cells, units, order words).
func latinWords(s string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && r != '_' && r != '=' }) {
		if strings.ContainsAny(w, "_=") {
			continue // an option: asteroid_placement=player
		}
		if w == strings.ToUpper(w) || !isLatin(w) {
			continue // K6, B, LANG: cells and order words
		}
		if contains(planetNames, w) || contains([]string{"ann", "bob", "cy", "dee"}, w) || unitName(w) {
			continue
		}
		out = append(out, w)
	}
	return out
}

func isLatin(w string) bool {
	for _, r := range w {
		if r > unicode.MaxASCII {
			return false
		}
	}
	return true
}

func unitName(w string) bool {
	for _, f := range factions {
		for _, u := range f.Builds {
			if u.Name == w {
				return true
			}
		}
	}
	return false
}

func TestLanguages(t *testing.T) {
	var rs engine.Languages = Ruleset().(engine.Languages)
	if o, ok := rs.LanguageOrder("ru"); !ok || o != "LANG RU" {
		t.Errorf("LanguageOrder(ru) = %q, %v", o, ok)
	}
	if _, ok := rs.LanguageOrder("fr"); ok {
		t.Error("no French")
	}
	for line, want := range map[string]string{"LANG RU": "ru", "LANG EN": "en", "ALLY bob": "", "LANG": ""} {
		got, ok := rs.OrderLanguage(line)
		if got != want || ok != (want != "") {
			t.Errorf("OrderLanguage(%q) = %q, %v", line, got, ok)
		}
	}
	o, _ := engine.ResolveOptions(Ruleset().Info(), nil)
	st, err := Ruleset().NewState(engine.Setup{GameID: "g", Players: []string{"ann", "bob"}, Options: o,
		Languages: map[string]string{"bob": "ru"}}, dice.New("langs"))
	if err != nil {
		t.Fatal(err)
	}
	if got := rs.ViewLanguage(st.View("bob")); got != "ru" {
		t.Errorf("bob chose Russian before the game, reads %q", got)
	}
	if got := rs.ViewLanguage(st.View("ann")); got != "en" {
		t.Errorf("ann chose nothing, reads %q", got)
	}
	// The prompts of bob are in Russian from the start.
	for _, p := range st.Prompts() {
		if ask := readAsk(rs.ViewLanguage(st.View(p.Player)), p); p.Player == "bob" && isLatin(strings.ReplaceAll(ask, " ", "")) {
			t.Errorf("bob's prompt is not Russian: %q", ask)
		}
	}
}

// TestRussianErrors: a Russian-speaking player's errors read Russian,
// fix included, when the mail side writes their messages for them.
func TestRussianErrors(t *testing.T) {
	s := buildCase(t, mixedSetup)
	p := s.Prompts()[0]
	_, errs := s.View("ann").Parse(p, "СТРОИТЬ ДОМНА В F6\nПРИВЕТ")
	want := []string{"центральная клетка F6 только для монолита", `это не приказ: "ПРИВЕТ" — напишите одно из: BUILD`}
	if len(errs) != len(want) {
		t.Fatalf("errors %v, want %d", errs, len(want))
	}
	for i, e := range errs {
		if got := readErr(langRU, e); !strings.Contains(got, want[i]) {
			t.Errorf("line %d reads %q in Russian, want %q", e.Line, got, want[i])
		}
	}
}

// TestLocalizedPublicView: a reader with no seat (an observer, the public
// page) reads the board and status in their own language
// (engine.ViewLocalizer), and a player's view follows the reader's
// language too.
func TestLocalizedPublicView(t *testing.T) {
	s := buildCase(t, mixedSetup)
	pub := s.PublicView()
	if st := pub.Status(); !strings.Contains(st, "Players") {
		t.Fatalf("the public status is not English by default:\n%s", st)
	}
	ru := Ruleset().(engine.ViewLocalizer).Localize(pub, langRU)
	if st := ru.Status(); !strings.Contains(st, "Игроки") || strings.Contains(st, "Players") {
		t.Errorf("the public status for a Russian reader:\n%s", st)
	}
	if b := ru.Board(); !strings.Contains(b, "космос") || !strings.Contains(b, "Места: 1 ann") {
		t.Errorf("the public board for a Russian reader:\n%s", b)
	}
	if ru.Player() != engine.Observer {
		t.Errorf("the localized public view belongs to %q", ru.Player())
	}
	if st := Ruleset().(engine.ViewLocalizer).Localize(s.View("bob"), langEN).Status(); !strings.Contains(st, "Players") {
		t.Errorf("bob's view for an English reader:\n%s", st)
	}
}
