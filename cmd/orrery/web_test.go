package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"orrery/engine/enginetest/toy"
	"orrery/engine/game"
	"orrery/games"
	"orrery/pbem/botplayer"
	"orrery/pbem/inmail"
	"orrery/pbem/outbox"
)

var screenshots = flag.String("web-screenshots", "", "write screenshots of each kind of web page into this folder (docs/web)")

const chromiumPath = "/usr/bin/chromium"

// The web pages as a person sees them, in real Chromium: a short game
// played by bots by mail on the embedded servers, then the list of games,
// the game's page, a step, ann's private page opened from the link in her
// mail, and the dice page, whose check in the browser must verify every
// roll, with WebCrypto and with the page's own SHA-256, and must catch a
// roll changed on the page. Every page fits a 360 px phone without
// sideways scrolling, and reads without JavaScript.
func TestWebInChromium(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the pages are checked in Chromium by the full run (scripts/test)")
	}
	if raceOn {
		t.Skip("under the race detector: the browser checks the pages, not Go's concurrency; the main pass runs it")
	}
	if _, err := os.Stat(chromiumPath); err != nil {
		t.Skipf("Chromium is not at %s (apt-get install chromium; .ci/run installs it): the web pages were not checked in a browser", chromiumPath)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	log := slog.New(slog.DiscardHandler)
	e := &env{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard, rulesets: append(games.All(), spyRace{toy.Ruleset()})}
	x, err := startEmbedded(e, embeddedOptions{HTTP: "127.0.0.1:0"}, log)
	if err != nil {
		t.Fatal(err)
	}
	defer x.close()
	// A bot game played to its end, before the daemon runs: the daemon's
	// tick would play the same bots at once, and the two collide (a
	// refusal of a prompt already answered).
	over, err := x.d.Service().Create(ctx, game.CreateRequest{ID: "over", Ruleset: "prosper", DiceSecret: "web-over",
		Players: []game.PlayerSpec{{Name: "ann", Bot: true}, {Name: "bob", Bot: true}}})
	if err != nil || !over.Over() {
		t.Fatalf("a bot game that should have ended: %v %+v", err, over)
	}
	dg := setUpDiceGames(t, ctx, x.d.Service())
	runCtx, stop := context.WithCancel(ctx)
	defer stop()
	daemonDone := make(chan error, 1)
	go func() { daemonDone <- x.d.Run(runCtx, x.reader) }()
	defer func() { stop(); <-daemonDone }()
	site, err := newSite(x.d.Service(), x.bot, x.web.url, log)
	if err != nil {
		t.Fatal(err)
	}
	webDone := make(chan error, 1)
	go func() { webDone <- x.web.serve(runCtx, site, log) }()
	defer func() { stop(); <-webDone }()

	// A Burning Planets game by mail among three bot players, two turns long, with
	// a deadline so that the pages show one.
	svc := x.d.Service()
	settings := game.DefaultSettings()
	settings.TurnLength = 72 * time.Hour
	var specs []game.PlayerSpec
	for _, n := range []string{"ann", "bob", "cyd"} {
		specs = append(specs, game.PlayerSpec{Name: n, Email: n + "@example.org"})
	}
	g, err := svc.Create(ctx, game.CreateRequest{ID: "web", Ruleset: "burning", Players: specs, Settings: &settings, DiceSecret: "web-chromium"})
	if err != nil {
		t.Fatal(err)
	}
	sender := &outbox.SMTP{Addr: x.srv.SMTPAddr, TLS: "none"}
	bots := &botplayer.Players{Service: svc, Game: g.ID, Bot: x.bot, Rand: rand.New(rand.NewPCG(5, 99)),
		Fetch: func(addr string) ([][]byte, error) { return x.srv.Messages(addr, "INBOX") },
		Send: func(ctx context.Context, m outbox.Mail) error {
			m.Kind = ""
			return sender.Send(ctx, []outbox.Mail{m})[0]
		}}
	if g, err = bots.Play(ctx, 2); err != nil {
		t.Fatal(err)
	}
	annLink := privateLink(t, x.srv.Messages, "ann@example.org", x.web.url, g.ID)

	// Dates show in the reader's zone: this browser is in Tokyo.
	browser := startChromium(t, ctx, "Asia/Tokyo")
	base := x.web.url
	eval := func(js string) string {
		t.Helper()
		v, err := chromedp.Run(browser, chromedp.Evaluate[string](js))
		if err != nil {
			t.Fatalf("%s: %v", js, err)
		}
		return v
	}
	visit := func(url, shot string) {
		t.Helper()
		for _, w := range []int64{360, 1000} {
			if err := chromedp.Do(browser, viewport(w), chromedp.Navigate(url)); err != nil {
				t.Fatalf("%s: %v", url, err)
			}
			if sw := eval(`String(document.documentElement.scrollWidth)`); sw != fmt.Sprint(w) {
				t.Errorf("%s at %d px is %s px wide: it scrolls sideways", url, w, sw)
			}
			if shot != "" {
				screenshot(t, browser, shot, w)
			}
		}
	}

	// The list of games links to the game.
	visit(base+"/", "index")
	if got := eval(`Array.from(document.querySelectorAll('ul.games h2 a')).map(function(a){return a.textContent}).join(' ')`); got != "old-earthman old-orbital old-prosper over spy spy-over "+g.ID {
		t.Errorf("the list of games shows %q", got)
	}
	gameURL := eval(`document.querySelector('ul.games h2 a[href="/g/` + g.ID + `"]').href`)

	// The game's page: the board, the deadline in the reader's time,
	// and a link to every step.
	visit(gameURL, "game")
	if n := eval(`String(document.querySelectorAll('ul.turns a').length)`); n != fmt.Sprint(g.Step+1) {
		t.Errorf("the game page links to %s steps, the game has %d", n, g.Step+1)
	}
	if board := eval(`document.getElementById('board-text').textContent`); len(board) < 100 {
		t.Errorf("no board on the game page: %q", board)
	}
	deadline := eval(`(function(){var t=document.querySelector('.now time'); return t ? t.textContent + '|' + t.title : ''})()`)
	if local, utc, _ := strings.Cut(deadline, "|"); !strings.HasSuffix(utc, "UTC") || !strings.Contains(local, "GMT+9") {
		t.Errorf("the deadline is not shown in the reader's time (Tokyo): %q", deadline)
	}

	// The same page in Russian: its words, and its dates written by the
	// browser in the page's language (local.js), in the reader's zone.
	visit(gameURL+"?lang=ru", "game-ru")
	if got := eval(`document.documentElement.lang + '|' + document.getElementById('now-h').textContent`); got != "ru|Сейчас" {
		t.Errorf("the Russian game page: %q", got)
	}
	deadline = eval(`(function(){var t=document.querySelector('.now time'); return t ? t.textContent : ''})()`)
	if !regexp.MustCompile(`[а-я]{2}`).MatchString(deadline) || !strings.Contains(deadline, "GMT+9") {
		t.Errorf("the Russian page's deadline is not in Russian in the reader's time: %q", deadline)
	}
	if got := eval(`document.querySelector('header.site .langs a').getAttribute('href')`); !strings.HasSuffix(got, "?lang=en") {
		t.Errorf("the Russian page's link to English: %q", got)
	}

	// A step's page, with its way back and forth.
	stepURL := eval(`document.querySelectorAll('ul.turns a')[1].href`)
	visit(stepURL, "step")
	if nav := eval(`document.querySelector('nav.steps').textContent`); !strings.Contains(nav, "←") || !strings.Contains(nav, "→") {
		t.Errorf("the step page's navigation: %q", nav)
	}

	// ann's private page, from the link in her mail.
	visit(annLink, "private")
	if got := eval(`document.querySelector('.private').textContent`); !strings.Contains(got, "This is ann's private page") {
		t.Errorf("ann's private page: %q", got)
	}
	if got := eval(`document.querySelector('.now').textContent`); !strings.Contains(got, "What is expected of ann") {
		t.Errorf("ann's private page does not say what is expected of her: %q", got)
	}

	// The dice, checked in the browser: with WebCrypto (localhost is a
	// secure context), then with the page's own SHA-256.
	visit(base+"/g/"+g.ID+"/dice", "")
	rows := eval(`String(document.querySelectorAll('tr[data-n]').length)`)
	if rows == "0" {
		t.Fatal("the dice page lists no roll")
	}
	for _, pure := range []bool{true, false} {
		state, summary := checkDice(t, browser, pure)
		if state != "ok" || !strings.Contains(summary, "Every roll on this page is verified") || !strings.Contains(summary, rows+" rolls recomputed") {
			t.Errorf("pure JS %v: the check says %s: %s", pure, state, summary)
		}
		engine := "WebCrypto"
		if pure {
			engine = "this page's own SHA-256"
		}
		if !strings.Contains(summary, engine) {
			t.Errorf("the check did not use %s: %s", engine, summary)
		}
		if bad := eval(`String(Array.from(document.querySelectorAll('td.verdict')).filter(function(td){return td.textContent.indexOf('✓') !== 0}).length)`); bad != "0" {
			t.Errorf("%s rolls are not marked verified", bad)
		}
	}
	shootDice := func(name string) {
		t.Helper()
		for _, w := range []int64{360, 1000} {
			if err := chromedp.Do(browser, viewport(w)); err != nil {
				t.Fatal(err)
			}
			screenshot(t, browser, name, w)
		}
	}
	shootDice("dice")
	// In Russian, the check's verdicts too.
	visit(base+"/g/"+g.ID+"/dice?lang=ru", "")
	if state, summary := checkDice(t, browser, false); state != "ok" || !strings.Contains(summary, "Каждый бросок на этой странице проверен") {
		t.Errorf("the Russian dice page: %s: %s", state, summary)
	}
	shootDice("dice-ru")
	visit(base+"/g/"+g.ID+"/dice", "")
	// The page's own SHA-256 agrees with the standard and with WebCrypto
	// on every length around its block boundaries.
	known := eval(`orreryDice.hex(orreryDice.sha256js(new TextEncoder().encode('abc')))`)
	if known != "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" {
		t.Errorf("sha256js('abc') = %s", known)
	}
	agree, err := chromedp.Run(browser, chromedp.Evaluate[string](`(async function(){
		for (var n = 0; n < 200; n++) {
			var b = new Uint8Array(n); for (var i = 0; i < n; i++) b[i] = (i * 31 + n) & 255;
			var w = orreryDice.hex(new Uint8Array(await crypto.subtle.digest('SHA-256', b)));
			if (w !== orreryDice.hex(orreryDice.sha256js(b))) return 'SHA-256 of ' + n + ' bytes differs';
			var k = b.slice(0, n % 80);
			var key = await crypto.subtle.importKey('raw', k.length ? k : new Uint8Array([0]), {name: 'HMAC', hash: 'SHA-256'}, false, ['sign']);
			if (k.length && orreryDice.hex(new Uint8Array(await crypto.subtle.sign('HMAC', key, b))) !== orreryDice.hex(orreryDice.hmacjs(k, b))) return 'HMAC with a key of ' + k.length + ' bytes differs';
		}
		return 'agree';
	})()`, chromedp.EvalAwaitPromise))
	if err != nil || agree != "agree" {
		t.Errorf("the page's SHA-256 and WebCrypto: %s %v", agree, err)
	}
	// A roll whose shown number was changed on the page is caught (its
	// data- attributes still hold the true one: the check reads what a
	// person reads).
	eval(`(function(){var r = document.querySelector('tr[data-n]'); r.cells[3].textContent = String(Number(r.dataset.value) % Number(r.dataset.sides) + 1); return ''})()`)
	if state, summary := checkDice(t, browser, false); state != "failed" || !strings.Contains(summary, "1 problem") || !strings.Contains(summary, "the seed gives") {
		t.Errorf("a changed roll: the check says %s: %s", state, summary)
	}
	// ann's dice: her page lists the rolls she saw, and they check out.
	visit(annLink+"/dice", "")
	if state, summary := checkDice(t, browser, false); state != "ok" {
		t.Errorf("ann's dice: %s: %s", state, summary)
	}
	// A finished game's dice secret is revealed, and the check derives
	// every seed from it, with either SHA-256.
	visit(base+"/g/over/dice", "")
	for _, pure := range []bool{true, false} {
		state, summary := checkDice(t, browser, pure)
		if want := fmt.Sprintf("%d seeds derive from the dice secret", over.Step+1); state != "ok" || !strings.Contains(summary, want) {
			t.Errorf("the finished game's dice (pure JS %v): %s: %s (want %q)", pure, state, summary, want)
		}
	}

	// Every dice scheme, every kind of secret, the archive, tampering.
	checkDiceSchemes(t, ctx, browser, base, site, dg, visit, eval)

	// Without JavaScript every page still reads; the dice page says what
	// its check needs and how to check by hand.
	if _, err := chromedp.Call(browser, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true}); err != nil {
		t.Fatal(err)
	}
	for _, u := range []string{base + "/", gameURL, stepURL, annLink, base + "/g/" + g.ID + "/dice"} {
		if err := chromedp.Do(browser, chromedp.Navigate(u)); err != nil {
			t.Fatal(err)
		}
		html, err := chromedp.Run(browser, chromedp.OuterHTML("main"))
		if err != nil || !strings.Contains(html, "<h1>") {
			t.Errorf("%s without JavaScript: %v\n%s", u, err, html)
		}
	}
	hidden, err := chromedp.Run(browser, chromedp.Evaluate[bool](`document.getElementById('check-button').hidden`))
	if err != nil || !hidden {
		t.Errorf("without JavaScript the dice check's button shows (hidden: %v, %v)", hidden, err)
	}
}

// viewport is a phone's width (360 px, at a phone's 2× scale when
// screenshots are taken, so that they show what a phone shows) or a
// desktop's.
// startChromium starts a headless Chromium for t, its clock in zone (an
// IANA name), and stops it when t ends.
func startChromium(t *testing.T, ctx context.Context, zone string) context.Context {
	t.Helper()
	alloc, cancelAlloc := chromedp.NewExecAllocator(ctx, append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromiumPath), chromedp.NoSandbox, chromedp.DisableGPU)...)
	t.Cleanup(cancelAlloc)
	browser, cancelBrowser := chromedp.NewContext(alloc)
	t.Cleanup(cancelBrowser)
	if err := chromedp.Do(browser); err != nil {
		t.Fatalf("start Chromium: %v", err)
	}
	if _, err := chromedp.Call(browser, emulation.SetTimezoneOverride, emulation.SetTimezoneOverrideParams{TimezoneID: zone}); err != nil {
		t.Fatal(err)
	}
	return browser
}

func viewport(w int64) chromedp.Action[chromedp.Void] {
	if w < 600 && *screenshots != "" {
		return chromedp.EmulateViewport(w, 800, chromedp.EmulateScale(2))
	}
	return chromedp.EmulateViewport(w, 800)
}

// checkDice presses the dice page's button and waits for its verdict.
func checkDice(t *testing.T, browser context.Context, pureJS bool) (state, summary string) {
	t.Helper()
	js := fmt.Sprintf(`window.orreryDicePureJS = %v; document.getElementById('check-button').click(); ''`, pureJS)
	if _, err := chromedp.Run(browser, chromedp.Evaluate[string](js)); err != nil {
		t.Fatal(err)
	}
	state, err := chromedp.Run(browser, chromedp.Poll[string](`(function(){var s = document.getElementById('check-result').dataset.state; return s && s !== 'running' ? s : null})()`,
		chromedp.WithPollingTimeout(60*time.Second)))
	if err != nil {
		t.Fatalf("the dice check gave no verdict: %v", err)
	}
	summary, err = chromedp.Run(browser, chromedp.Evaluate[string](`document.getElementById('check-result').textContent`))
	if err != nil {
		t.Fatal(err)
	}
	return state, summary
}

// privateLink finds the link to the private page in the latest report mail
// an address got.
func privateLink(t *testing.T, messages func(user, box string) ([][]byte, error), addr, base, id string) string {
	t.Helper()
	msgs, err := messages(addr, "INBOX")
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(regexp.QuoteMeta(base+"/g/"+id+"/p/") + `[A-Za-z0-9_-]{22}`)
	link := ""
	for _, m := range msgs {
		pm, err := inmail.Parse(m, inmail.Options{})
		if err != nil {
			continue
		}
		if l := re.FindString(pm.Text); l != "" {
			link = l
		}
	}
	if link == "" {
		t.Fatalf("no mail of %s links to a private page", addr)
	}
	return link
}

// screenshot saves the whole page as docs/web/NAME-WIDTH.png when asked
// with -web-screenshots DIR.
func screenshot(t *testing.T, browser context.Context, name string, width int64) {
	t.Helper()
	if *screenshots == "" {
		return
	}
	png, err := chromedp.Run(browser, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(png, []byte("\x89PNG")) {
		t.Fatalf("the screenshot is not a PNG")
	}
	path := filepath.Join(*screenshots, fmt.Sprintf("%s-%d.png", name, width))
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
}
