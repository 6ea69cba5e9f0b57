package main

import (
	"context"
	"fmt"
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"orrery/engine/game"
	"orrery/engine/store"
	"orrery/games"
)

// TestDicePageFitsAPhone: the dice page, English and Russian, fits a
// 360 px phone at a phone's 2× scale after its check has run and written
// its verdicts (a long Russian verdict, a hash or a table that did not
// wrap made the Russian page 405 px wide: it scrolled sideways). A
// finished bot game (Burning Planets, whose dice page has every kind of
// row) is enough: no mail, a few seconds. With -web-screenshots DIR the
// pages are saved as dice-phone-LANG-360.png.
func TestDicePageFitsAPhone(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Chromium (a few seconds): not in -short")
	}
	if _, err := os.Stat(chromiumPath); err != nil {
		t.Skipf("Chromium is not at %s (apt-get install chromium; .ci/run installs it): the dice page was not checked at a phone's width", chromiumPath)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	st, err := store.Open(filepath.Join(t.TempDir(), "phone.db"), store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	svc := game.New(st, games.All())
	var bots []game.PlayerSpec
	for _, n := range []string{"ann", "bob", "cyd"} {
		bots = append(bots, game.PlayerSpec{Name: n, Bot: true})
	}
	for _, rs := range []string{"burning", "prosper"} {
		if g, err := svc.Create(ctx, game.CreateRequest{ID: rs, Ruleset: rs, DiceSecret: "phone-" + rs, Players: bots}); err != nil || !g.Over() {
			t.Fatalf("a bot game of %s that should have ended: %v", rs, err)
		}
	}
	site, err := newSite(svc, "orrery@example.org", "", slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(site)
	defer srv.Close()

	browser := startChromium(t, ctx, "Europe/Moscow")
	for _, id := range []string{"burning", "prosper"} {
		for _, lang := range []string{"en", "ru"} {
			url := srv.URL + "/g/" + id + "/dice?lang=" + lang
			if err := chromedp.Do(browser, chromedp.EmulateViewport(360, 800, chromedp.EmulateScale(2)), chromedp.Navigate(url)); err != nil {
				t.Fatalf("%s: %v", url, err)
			}
			if state, summary := checkDice(t, browser, false); state != "ok" {
				t.Errorf("%s: the check says %s: %s", url, state, summary)
			}
			// A reader opens the lists of parts too.
			if _, err := chromedp.Run(browser, chromedp.Evaluate[string](`document.querySelectorAll('details').forEach(function(d){d.open = true}); ''`)); err != nil {
				t.Fatal(err)
			}
			// The widest element, to name what does not wrap.
			wide, err := chromedp.Run(browser, chromedp.Evaluate[string](`(function(){
				var w = document.documentElement.scrollWidth, worst = '';
				document.querySelectorAll('main *').forEach(function(e){
					var r = e.getBoundingClientRect();
					if (r.right > 360 && r.width > 0 && !worst) worst = e.tagName.toLowerCase() + (e.className ? '.' + e.className : '') + ' ' + Math.round(r.right) + 'px: ' + e.textContent.slice(0, 60);
				});
				return w + '|' + worst;
			})()`))
			if err != nil {
				t.Fatal(err)
			}
			sw, worst, _ := strings.Cut(wide, "|")
			if sw != "360" {
				t.Errorf("%s at 360 px is %s px wide after the check: it scrolls sideways (first too wide: %s)", url, sw, worst)
			}
			phoneShot(t, browser, fmt.Sprintf("dice-phone-%s-%s-360.png", id, lang))
		}
	}
}

// phoneShot saves what the phone shows around the first table of rolls
// (a whole dice page at 2× is too large for one screenshot) as DIR/name,
// with -web-screenshots DIR.
func phoneShot(t *testing.T, browser context.Context, name string) {
	t.Helper()
	if *screenshots == "" {
		return
	}
	if _, err := chromedp.Run(browser, chromedp.Evaluate[string](`(function(){var t = document.querySelector('table.rolls'); if (t) t.scrollIntoView(); return ''})()`)); err != nil {
		t.Fatal(err)
	}
	png, err := chromedp.Run(browser, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(*screenshots, name), png, 0o644); err != nil {
		t.Fatal(err)
	}
}
