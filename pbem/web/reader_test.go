package web

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"orrery/pbem/settings"
	"orrery/templates"
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
	cat, err := templates.WebCatalog()
	if err != nil {
		t.Fatal(err)
	}
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
