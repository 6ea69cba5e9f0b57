package web

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"orrery/engine/game"
	"orrery/engine/lang"
	"orrery/games"
	"orrery/pbem/settings"
)

// TestRussianPrivatePage: a player who reads Russian gets their private
// page in Russian: lang="ru", no English heading left, dates written by
// the server in their zone and language; the English player's page of
// the same game stays English, and so does the public page.
func TestRussianPrivatePage(t *testing.T) {
	svc, c := toyGame(t)
	ctx := context.Background()
	if _, _, err := svc.SetDeadline(ctx, "g1", c.t.Add(48*time.Hour), "a test"); err != nil {
		t.Fatal(err)
	}
	for k, v := range map[string]string{settings.Lang: "ru", settings.TZ: "Europe/Moscow"} {
		if _, err := settings.Put(ctx, svc.Store(), "bob@example.org", k, v); err != nil {
			t.Fatal(err)
		}
	}
	cat := webCatalog(t)
	s := newSite(t, Config{Service: svc, Bot: "orrery@example.org", Catalog: cat})
	heading := regexp.MustCompile(`(?s)<(h[1-3]|summary|th|button)[^>]*>(.*?)</(h[1-3]|summary|th|button)>`)
	latin := regexp.MustCompile(`[A-Za-z]{3,}`)
	for _, path := range []string{"", "/dice"} {
		bob := get(s, "GET", "/g/g1/p/"+tokenOf(t, svc, "g1", "bob")+path)
		body := bob.Body.String()
		if bob.Code != 200 || !strings.Contains(body, `<html lang="ru">`) {
			t.Fatalf("bob's page%s: %d, not lang=ru:\n%s", path, bob.Code, body)
		}
		for _, m := range heading.FindAllStringSubmatch(body, -1) {
			// The game's own words (its title, its phases) are the
			// ruleset's, in a span of class sub.
			words := regexp.MustCompile(`<span class="sub">[^<]*</span>|<[^>]*>`).ReplaceAllString(m[2], "")
			for _, w := range latin.FindAllString(words, -1) {
				if w != "bob" && w != "SHA" {
					t.Errorf("bob's page%s has an English heading: %s", path, m[0])
					break
				}
			}
		}
		if path == "" {
			for _, want := range []string{"Сейчас", "Чего ждут от bob", "Это личная страница bob.", "вт 2026-11-03 20:00 MSK (17:00 UTC)", "data-zoned"} {
				if !strings.Contains(body, want) {
					t.Errorf("bob's page lacks %q:\n%s", want, body)
				}
			}
			if strings.Contains(body, "Nov 2026") {
				t.Errorf("bob's page has a date in English:\n%s", body)
			}
		}
	}
	ann := get(s, "GET", "/g/g1/p/"+tokenOf(t, svc, "g1", "ann")).Body.String()
	for _, want := range []string{`<html lang="en">`, "<h2 id=\"now-h\">Now</h2>", "What is expected of ann", "Nov 2026 "} {
		if !strings.Contains(ann, want) {
			t.Errorf("ann's page lacks %q:\n%s", want, ann)
		}
	}
	if pub := get(s, "GET", "/g/g1").Body.String(); !strings.Contains(pub, `<html lang="en">`) {
		t.Errorf("the public page is not English:\n%s", pub)
	}
}

// TestPublicPageLanguage: a public page's reader is unknown, so its
// language is the link's (?lang=), else the browser's Accept-Language,
// else the game's own (every seated player's), else English; each page
// links to itself in the other language and keeps ?lang in its links.
func TestPublicPageLanguage(t *testing.T) {
	svc, _ := toyGame(t)
	cat := webCatalog(t)
	s := newSite(t, Config{Service: svc, Bot: "orrery@example.org", Catalog: cat})
	for _, c := range []struct {
		name, path, accept, want string
	}{
		{"no hint", "/g/g1", "", "en"},
		{"Accept-Language", "/g/g1", "ru-RU,ru;q=0.9,en;q=0.8", "ru"},
		{"Accept-Language by weight", "/g/g1", "de;q=1, en;q=0.5, ru;q=0.7", "ru"},
		{"Accept-Language English first", "/g/g1", "en-GB, ru;q=0.5", "en"},
		{"a language the pages do not speak", "/g/g1", "de, fr", "en"},
		{"?lang=ru", "/g/g1?lang=ru", "", "ru"},
		{"?lang=en wins over the header", "/g/g1?lang=en", "ru", "en"},
		{"dice, Accept-Language", "/g/g1/dice", "ru", "ru"},
		{"a step, ?lang=ru", "/g/g1/step/1?lang=ru", "en", "ru"},
		{"the list of games", "/", "ru", "ru"},
		{"the list of games, ?lang=en", "/?lang=en", "ru", "en"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var w = get(s, "GET", c.path)
			if c.accept != "" {
				w = get(s, "GET", c.path, "Accept-Language", c.accept)
			}
			body := w.Body.String()
			if w.Code != 200 || !strings.Contains(body, `<html lang="`+c.want+`">`) {
				t.Fatalf("%s (Accept-Language %q): %d, not lang=%s:\n%s", c.path, c.accept, w.Code, c.want, body)
			}
			other, heading := "ru", "Games"
			if c.want == "ru" {
				other, heading = "en", "Игры"
			}
			path, _, _ := strings.Cut(c.path, "?")
			if !strings.Contains(body, `href="`+path+`?lang=`+other+`"`) {
				t.Errorf("%s has no link to itself in %s:\n%s", c.path, other, body)
			}
			if !strings.Contains(body, heading) {
				t.Errorf("%s lacks %q:\n%s", c.path, heading, body)
			}
			if strings.Contains(c.path, "?lang=") && strings.HasPrefix(c.path, "/g/") &&
				!strings.Contains(body, `href="/g/g1/dice?lang=`+c.want+`"`) {
				t.Errorf("%s does not keep ?lang in its links:\n%s", c.path, body)
			}
			if c.accept != "" && !strings.Contains(c.path, "?lang=") && w.Header().Get("Vary") != "Accept-Language" {
				t.Errorf("%s chosen by Accept-Language without Vary: %q", c.path, w.Header().Get("Vary"))
			}
		})
	}
	ru := get(s, "GET", "/g/g1", "Accept-Language", "ru").Body.String()
	for _, want := range []string{"Сейчас", "Поле", "События"} {
		if !strings.Contains(ru, want) {
			t.Errorf("the Russian public page lacks %q:\n%s", want, ru)
		}
	}
	// The dice page's explanation of the check is Russian too, markup
	// and all; the English one keeps its words.
	ruDice := get(s, "GET", "/g/g1/dice?lang=ru").Body.String()
	for _, want := range []string{"В этой игре кубики бросаются по схеме 2", "<dt>скрытое зерно <i>H</i></dt>", "HMAC-SHA256(секрет кубиков, <code>g1:EPOCH:STEP</code>)", "Ваша квитанция"} {
		if !strings.Contains(ruDice, want) {
			t.Errorf("the Russian dice page lacks %q:\n%s", want, ruDice)
		}
	}
	for _, bad := range []string{"rolls its dice", "What it cannot prove", "the first 48 bits"} {
		if strings.Contains(ruDice, bad) {
			t.Errorf("the Russian dice page has English: %q", bad)
		}
	}
	if en := get(s, "GET", "/g/g1/dice").Body.String(); !strings.Contains(en, "This game rolls its dice under scheme 2") || !strings.Contains(en, "<dt>hidden seed <i>H</i></dt>") {
		t.Errorf("the English dice page lost its explanation:\n%s", en)
	}
	// Two languages of one page are two ETags.
	en := get(s, "GET", "/g/g1").Header().Get("ETag")
	if r := get(s, "GET", "/g/g1", "Accept-Language", "ru").Header().Get("ETag"); r == en {
		t.Errorf("the English and Russian pages share the ETag %s", en)
	}
}

// TestGameLanguage: a game whose seated players all chose Russian has
// Russian public pages for a reader who says nothing.
func TestGameLanguage(t *testing.T) {
	for _, c := range []struct {
		langs []string
		want  lang.Tag
	}{
		{[]string{"", ""}, ""},
		{[]string{"ru", ""}, lang.Russian},
		{[]string{"ru", "ru"}, lang.Russian},
		{[]string{"ru", "en"}, ""},
	} {
		g := &game.Game{}
		for i, l := range c.langs {
			g.Players = append(g.Players, game.Player{Name: fmt.Sprint("p", i), Lang: l})
		}
		if got := gameLang(g); got != c.want {
			t.Errorf("players %q: game language %q, want %q", c.langs, got, c.want)
		}
	}
}

// TestBoardPictureInTheReadersLanguage: the board's picture of a public
// page is drawn in the page's language by the ruleset's ViewLocalizer
// (Orbital's legend and labels), as the mails draw it.
func TestBoardPictureInTheReadersLanguage(t *testing.T) {
	st := openStore(t)
	svc := game.New(st, games.All())
	ctx := context.Background()
	if _, err := svc.Create(ctx, game.CreateRequest{ID: "o", Ruleset: "orbital", DiceSecret: "svg",
		Players: []game.PlayerSpec{{Name: "ann"}, {Name: "bob"}}}); err != nil {
		t.Fatal(err)
	}
	cat := webCatalog(t)
	s := newSite(t, Config{Service: svc, Catalog: cat, Picture: Drawn})
	en := get(s, "GET", "/g/o/step/0.svg")
	ru := get(s, "GET", "/g/o/step/0.svg", "Accept-Language", "ru")
	if en.Code != 200 || ru.Code != 200 {
		t.Fatalf("the picture: %d, %d", en.Code, ru.Code)
	}
	cyrillic := regexp.MustCompile(`[А-Яа-яЁё]{3,}`)
	if cyrillic.MatchString(en.Body.String()) {
		t.Errorf("the English picture has Russian in it")
	}
	if !cyrillic.MatchString(ru.Body.String()) {
		t.Errorf("the Russian picture has no Russian word:\n%s", ru.Body.String())
	}
	if en.Header().Get("ETag") == ru.Header().Get("ETag") {
		t.Errorf("the two pictures share an ETag")
	}
	// The page's img points at the picture in its own language.
	if page := get(s, "GET", "/g/o?lang=ru").Body.String(); !strings.Contains(page, `src="/g/o/step/0.svg?lang=ru"`) {
		t.Errorf("the Russian page's picture is not the Russian one:\n%s", page)
	}
}
