package web

import (
	"context"
	"strings"
	"testing"

	"orrery/engine/game"
	"orrery/engine/lang"
	"orrery/games"
	"orrery/pbem/settings"
	"orrery/templates"
)

// TestErrorPagesInTheReadersLanguage: an error page is worded as a public
// page would be, by ?lang=, then Accept-Language, then the language every
// player of the game chose, else English; a private page's own errors in
// its reader's language. No English sentence is left on a Russian one.
func TestErrorPagesInTheReadersLanguage(t *testing.T) {
	svc, _ := toyGame(t)
	ctx := context.Background()
	if _, err := settings.Put(ctx, svc.Store(), "bob@example.org", settings.Lang, "ru"); err != nil {
		t.Fatal(err)
	}
	// A game whose players all read Russian, and one still signing up.
	if _, err := svc.Create(ctx, game.CreateRequest{ID: "ru1", Ruleset: "toy", DiceSecret: "x",
		Players: []game.PlayerSpec{{Name: "ann", Email: "ann@example.org", Lang: "ru"}, {Name: "bob", Email: "bob@example.org", Lang: "ru"}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Create(ctx, game.CreateRequest{ID: "open1", Ruleset: "toy", DiceSecret: "x", Seats: 2}); err != nil {
		t.Fatal(err)
	}
	cat := webCatalog(t)
	s := newSite(t, Config{Service: svc, Catalog: cat})
	bob := "/g/g1/p/" + tokenOf(t, svc, "g1", "bob")
	for _, c := range []struct {
		method, path, accept string
		code                 int
		want                 []string
	}{
		{"GET", "/nowhere", "ru-RU,ru;q=0.9", 404, []string{"404: Не найдено", "По этому адресу страницы нет.", "Все игры этого сервера"}},
		{"GET", "/nowhere?lang=ru", "", 404, []string{"По этому адресу страницы нет."}},
		{"GET", "/nowhere", "", 404, []string{"404: Not Found", "There is no page at this address.", "Every game on this server"}},
		{"POST", "/", "ru", 405, []string{"405: Метод не разрешён", "Эти страницы можно только читать"}},
		{"GET", "/g/nosuch", "ru", 404, []string{`нет игры с именем "nosuch"`}},
		{"GET", "/g/ru1/p/bad-token", "", 404, []string{"Эта личная ссылка недействительна."}},
		{"GET", "/g/g1/p/bad-token", "ru", 404, []string{"Эта личная ссылка недействительна."}},
		{"GET", "/g/g1/p/bad-token", "", 404, []string{"This private link is not valid."}},
		{"GET", "/g/g1/step/99?lang=ru", "", 404, []string{"В игре g1 нет шага 99."}},
		{"GET", "/g/ru1/step/x", "", 404, []string{"В игре ru1 нет шага x."}},
		{"GET", bob + "/step/99", "", 404, []string{"В игре g1 нет шага 99."}},
		{"GET", "/g/open1/report.json", "ru", 404, []string{"игра open1 ещё не началась: занято мест — 0 из 2"}},
		{"GET", "/g/g1/" + strings.Repeat("x", MaxPath), "ru", 414, []string{"Слишком длинный адрес", "Этот адрес слишком длинный"}},
	} {
		t.Run(c.method+" "+c.path[:min(len(c.path), 40)]+" "+c.accept, func(t *testing.T) {
			r := get(s, c.method, c.path, "Accept-Language", c.accept)
			body := r.Body.String()
			if r.Code != c.code {
				t.Fatalf("%d, want %d:\n%s", r.Code, c.code, body)
			}
			ru := strings.ContainsAny(c.want[0], "абвгдеёжзийклмнопрстуфхцчшщыьэюя")
			wantLang := `<html lang="en">`
			if ru {
				wantLang = `<html lang="ru">`
			}
			if !strings.Contains(body, wantLang) {
				t.Errorf("not %s:\n%s", wantLang, body)
			}
			for _, w := range c.want {
				if !strings.Contains(text([]byte(body)), w) {
					t.Errorf("the page lacks %q:\n%s", w, body)
				}
			}
			if ru {
				for _, en := range []string{"Not Found", "no page", "Every game", "not valid", "has no step", "no game named", "has not started", "Games</a>"} {
					if strings.Contains(body, en) {
						t.Errorf("the Russian page has the English %q:\n%s", en, body)
					}
				}
			}
			if c.accept != "" && !strings.Contains(c.path, "lang=") && !strings.Contains(c.path, "/p/") {
				if !strings.Contains(strings.Join(r.Header().Values("Vary"), ","), "Accept-Language") {
					t.Errorf("chosen by Accept-Language without Vary: %q", r.Header().Values("Vary"))
				}
			}
		})
	}
}

// TestFeedInTheReadersLanguage: the Atom feed, a public page, is worded
// by the same rule: its entries' titles and texts in Russian for a
// Russian reader, marked xml:lang; English otherwise.
func TestFeedInTheReadersLanguage(t *testing.T) {
	svc, _ := toyGame(t)
	s := localSite(t, svc)
	for _, c := range []struct {
		path, accept string
		want, not    []string
	}{
		{"/g/g1/feed.atom", "ru", []string{`xml:lang="ru"`, "<title>Шаг 2: ход 2", "<title>Шаг 0: ход 1", "(публичных событий нет)"}, []string{"Step ", "no public events"}},
		{"/g/g1/feed.atom?lang=ru", "", []string{`xml:lang="ru"`, "Шаг 1: ход 1"}, []string{"Step "}},
		{"/g/g1/feed.atom", "", []string{`xml:lang="en"`, "<title>Step 2: turn 2", "(no public events)"}, []string{"Шаг"}},
	} {
		r := get(s, "GET", c.path, "Accept-Language", c.accept)
		body := text(r.Body.Bytes())
		if r.Code != 200 {
			t.Fatalf("%s: %d\n%s", c.path, r.Code, body)
		}
		for _, w := range c.want {
			if !strings.Contains(body, w) {
				t.Errorf("%s (Accept-Language %q) lacks %q:\n%s", c.path, c.accept, w, body)
			}
		}
		for _, w := range c.not {
			if strings.Contains(body, w) {
				t.Errorf("%s (Accept-Language %q) has %q:\n%s", c.path, c.accept, w, body)
			}
		}
	}
}

// TestStepSeedInTheReadersLanguage: a step's revealed seed and the
// feed's link are worded in the page's language, not left in English
// around the hashes.
func TestStepSeedInTheReadersLanguage(t *testing.T) {
	svc, _ := toyGame(t)
	cat := webCatalog(t)
	s := newSite(t, Config{Service: svc, Catalog: cat})
	ru := get(s, "GET", "/g/g1/step/1?lang=ru").Body.String()
	en := get(s, "GET", "/g/g1/step/1").Body.String()
	for _, c := range []struct {
		body      string
		want, not []string
	}{
		{ru, []string{"Зерно <code>", "обещанное до шага как <code>", `title="Все шаги этой игры"`}, []string{"promised before the step", "Every step of this game"}},
		{en, []string{"Seed <code>", ", promised before the step as <code>", `title="Every step of this game"`}, []string{"Зерно"}},
	} {
		for _, w := range c.want {
			if !strings.Contains(c.body, w) {
				t.Errorf("the step page lacks %q:\n%s", w, c.body)
			}
		}
		for _, w := range c.not {
			if strings.Contains(c.body, w) {
				t.Errorf("the step page has %q", w)
			}
		}
	}
}

// TestDiceInTheReadersLanguage: the dice page words each roll's purpose
// and each step's phase as the reader's reports do (Prosper's «порядок
// мест (место 1 из 2)»), not in the English they were recorded beside.
func TestDiceInTheReadersLanguage(t *testing.T) {
	st := openStore(t)
	svc := game.New(st, games.All())
	if _, err := svc.Create(context.Background(), game.CreateRequest{ID: "p", Ruleset: "prosper", DiceSecret: "dice-ru",
		Players: []game.PlayerSpec{{Name: "ann", Bot: true}, {Name: "bob", Bot: true}}}); err != nil {
		t.Fatal(err)
	}
	s := localSite(t, svc)
	ru := text(get(s, "GET", "/g/p/dice?lang=ru").Body.Bytes())
	if !strings.Contains(ru, "порядок мест (место 2 из 2)") || strings.Contains(ru, "seat order") {
		t.Errorf("the Russian dice page's purposes are not Russian:\n%s", ru)
	}
	if en := text(get(s, "GET", "/g/p/dice").Body.Bytes()); !strings.Contains(en, "seat order (position 2 of 2)") {
		t.Errorf("the English dice page lost its purposes:\n%s", en)
	}
}

// localSite is a site of svc's games with the templates' catalog and
// localizer: its pages and feed in the reader's language.
func localSite(t *testing.T, svc *game.Service) *Site {
	t.Helper()
	cat := webCatalog(t)
	set, err := templates.New("")
	if err != nil {
		t.Fatal(err)
	}
	return newSite(t, Config{Service: svc, Catalog: cat, Localize: set.LocalReport})
}

// webCatalog is the templates' catalog of the pages' words.
func webCatalog(t testing.TB) *lang.Catalog {
	t.Helper()
	cat, err := templates.WebCatalog()
	if err != nil {
		t.Fatal(err)
	}
	return cat
}
