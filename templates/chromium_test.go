package templates

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"orrery/engine"
	"orrery/engine/draw"
	"orrery/engine/game"
	"orrery/engine/lang"
	"orrery/engine/store"
	"orrery/games"
)

// chromium is the browser the HTML tests drive; CI installs it
// (.ci/run), and the tests skip, saying why, where it is missing.
const chromium = "/usr/bin/chromium"

var screenshots = flag.String("screenshots", "", "write a screenshot of one report per ruleset to this directory (docs/screenshots)")

var (
	browserOnce sync.Once
	browserCtx  context.Context
	browserErr  error
)

// browser starts one headless Chromium for the test binary: a tab per case
// is cheap, a browser per case is not.
func browser(t *testing.T) context.Context {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: the reports are rendered in Chromium by the full run (scripts/test)")
	}
	if _, err := os.Stat(chromium); err != nil {
		t.Skipf("SKIP: %s is missing (apt-get install -y chromium): the report HTML is not rendered", chromium)
	}
	browserOnce.Do(func() {
		alloc, _ := chromedp.NewExecAllocator(context.Background(), chromedp.ExecPath(chromium), chromedp.NoSandbox, chromedp.Headless)
		browserCtx, _ = chromedp.NewContext(alloc)
		browserErr = chromedp.Do(browserCtx) // start it, outside any timeout
	})
	if browserErr != nil {
		t.Fatalf("start %s: %v", chromium, browserErr)
	}
	return browserCtx
}

// page is one report's HTML, with its picture inlined as a data: URL (a
// mail client resolves cid: from the mail itself).
type page struct {
	name string
	html string
}

// reportPages renders one report per ruleset, from a bot game a few steps
// in, with the board picture the mail would carry; Burning and Prosper
// also in Russian.
func reportPages(t *testing.T) []page {
	t.Helper()
	set, err := New("")
	if err != nil {
		t.Fatal(err)
	}
	var out []page
	for _, rs := range games.All() {
		info := rs.Info()
		rep, v := botReport(t, rs, 8)
		langs := []lang.Tag{lang.English}
		if info.Name == "burning" || info.Name == "prosper" {
			langs = append(langs, lang.Russian)
		}
		for _, tag := range langs {
			rep, v := rep, v
			if tag == lang.Russian {
				rep, v = botReport(t, rs, 8, "ru")
			}
			d := &Data{Bot: "orrery@example.org", Game: rep.Game, Title: rep.Title, Player: rep.Player, Secret: "k7f3q",
				Report: rep, Lang: tag, Deadline: time.Date(2026, 11, 26, 18, 0, 0, 0, time.UTC)}
			d.Translator, _ = rs.(engine.Translator)
			if tag == lang.Russian {
				d.Zone, _ = time.LoadLocation("Europe/Moscow")
			}
			html := ""
			if dr, ok := v.(engine.Drawer); ok {
				pic := dr.Picture().Mail() // as the mailer sends it
				png, err := pic.Scaled(draw.MailScale).PNG()
				if err != nil {
					t.Fatal(err)
				}
				d.Picture = &Picture{CID: "board@orrery", Alt: pic.Alt(), Width: min(pic.W, 860)}
				m, err := set.Render(Report, d)
				if err != nil {
					t.Fatal(err)
				}
				html = strings.ReplaceAll(m.HTML, "cid:board@orrery", "data:image/png;base64,"+base64.StdEncoding.EncodeToString(png))
			} else {
				m, err := set.Render(Report, d)
				if err != nil {
					t.Fatal(err)
				}
				html = m.HTML
			}
			out = append(out, page{name: info.Name + "-" + string(tag), html: html})
		}
	}
	return out
}

// botReport plays rs with bots and returns the first player's report of
// step n (or the last, in a shorter game) and the view it was drawn from.
func botReport(t testing.TB, rs engine.Ruleset, n int, language ...string) (*game.Report, engine.View) {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "g.db"), store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	now := time.Date(2026, 11, 22, 20, 0, 0, 0, time.UTC)
	svc := game.New(st, []engine.Ruleset{rs}, game.WithClock(func() time.Time { return now }))
	var steps []game.Step
	hook := func(tx store.Tx, c *game.Change) error {
		if len(steps) <= n {
			steps = append(steps, c.Steps...)
		}
		return nil
	}
	info := rs.Info()
	players := min(max(3, info.MinPlayers), info.MaxPlayers)
	var specs []game.PlayerSpec
	for _, p := range []string{"ann", "bob", "cyd"}[:players] {
		spec := game.PlayerSpec{Name: p, Bot: true}
		if len(language) > 0 {
			spec.Lang = language[0]
		}
		specs = append(specs, spec)
	}
	if _, err := svc.Create(context.Background(), game.CreateRequest{ID: "demo", Ruleset: info.Name, DiceSecret: "screens", Players: specs}, hook); err != nil {
		t.Fatal(err)
	}
	step := steps[min(n, len(steps)-1)]
	rep, err := step.Report("ann")
	if err != nil {
		t.Fatal(err)
	}
	return rep, rep.View
}

// layout is what the page looks like to the test: overflow, and each
// table's columns.
type layout struct {
	ScrollWidth, ClientWidth int
	ContentWidth             float64
	Tables                   []struct {
		Rows, Cols int
		Misaligned string // "" when every column's cells line up
		// Tallest is the most lines of text one row takes (its height
		// over the line height): a phone that wraps a long cell a word a
		// line makes rows ten lines tall.
		Tallest float64
	}
	Overflowing []string // elements wider than the page, by tag
	TextColor   string
	Backgrounds []string // elements with a background colour
}

const measure = `(() => {
  const out = {ScrollWidth: document.documentElement.scrollWidth, ClientWidth: document.documentElement.clientWidth,
    ContentWidth: document.body.firstElementChild.getBoundingClientRect().width, Tables: [], Overflowing: [], Backgrounds: []};
  for (const t of document.querySelectorAll('table')) {
    const rows = [...t.rows];
    let misaligned = '';
    const cols = Math.max(...rows.map(r => r.cells.length));
    for (let c = 0; c < cols && !misaligned; c++) {
      const lefts = rows.filter(r => r.cells[c]).map(r => r.cells[c].getBoundingClientRect());
      const min = Math.min(...lefts.map(b => b.left)), max = Math.max(...lefts.map(b => b.left));
      if (max - min > 0.5) misaligned = 'column ' + (c+1) + ' starts between ' + min + ' and ' + max + ' px';
      for (const r of rows) {
        if (r.cells[c] && r.cells[c+1] && r.cells[c].getBoundingClientRect().right > r.cells[c+1].getBoundingClientRect().left + 0.5)
          misaligned = 'column ' + (c+1) + ' runs into column ' + (c+2);
      }
    }
    const cs = getComputedStyle(rows[0].cells[0]);
    const line = parseFloat(cs.lineHeight) || 1.2 * parseFloat(cs.fontSize);
    const tallest = Math.max(...rows.map(r => r.getBoundingClientRect().height)) / line;
    out.Tables.push({Rows: rows.length, Cols: cols, Misaligned: misaligned, Tallest: tallest});
  }
  const w = document.documentElement.clientWidth;
  for (const e of document.body.querySelectorAll('*')) {
    const b = e.getBoundingClientRect();
    if (b.right > w + 0.5 && !e.closest('pre,table')) out.Overflowing.push(e.tagName + ' ' + Math.round(b.right));
    const bg = getComputedStyle(e).backgroundColor;
    if (bg !== 'rgba(0, 0, 0, 0)' && bg !== 'transparent') out.Backgrounds.push(e.tagName + ' ' + bg);
  }
  out.TextColor = getComputedStyle(document.querySelector('p')).color;
  return JSON.stringify(out);
})()`

// TestHTMLInChromium renders one report of every ruleset (and a Russian
// one) in headless Chromium at a phone's 360 px and a desktop's 1000 px:
// nothing may make the page wider than the screen (a board too wide
// scrolls inside its own box), the columns of every table line up, and in
// dark mode the text turns light on the client's dark page, with no
// background of ours left light.
func TestHTMLInChromium(t *testing.T) {
	ctx := browser(t)
	pages := reportPages(t)
	tables := 0
	defer func() {
		if tables < 2*len(pages) {
			t.Errorf("only %d tables measured in %d pages at 2 widths and 2 schemes: the reports lost their tables", tables, len(pages))
		}
	}()
	for _, p := range pages {
		t.Run(p.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				fmt.Fprint(w, p.html)
			}))
			defer srv.Close()
			tab, cancel := chromedp.NewContext(ctx)
			defer cancel()
			for _, width := range []int64{360, 1000} {
				for _, scheme := range []string{"light", "dark"} {
					err := chromedp.Do(tab, chromedp.EmulateViewport(width, 900),
						chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
							_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
								Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}})
							return err
						}),
						chromedp.Navigate(srv.URL))
					if err != nil {
						t.Fatal(err)
					}
					js, err := chromedp.Run(tab, chromedp.Evaluate[string](measure))
					if err != nil {
						t.Fatal(err)
					}
					var l layout
					if err := json.Unmarshal([]byte(js), &l); err != nil {
						t.Fatal(err)
					}
					where := fmt.Sprintf("%d px, %s", width, scheme)
					if l.ScrollWidth > l.ClientWidth {
						t.Errorf("%s: the page is %d px wide on a %d px screen (%v)", where, l.ScrollWidth, l.ClientWidth, l.Overflowing)
					}
					if len(l.Overflowing) > 0 {
						t.Errorf("%s: wider than the screen: %v", where, l.Overflowing)
					}
					if l.ContentWidth > 860+2*14 {
						t.Errorf("%s: the text runs %v px wide", where, l.ContentWidth)
					}
					tables += len(l.Tables)
					for i, tb := range l.Tables {
						if tb.Misaligned != "" {
							t.Errorf("%s: table %d (%d×%d): %s", where, i+1, tb.Rows, tb.Cols, tb.Misaligned)
						}
						if tb.Tallest > 4 {
							t.Errorf("%s: table %d (%d×%d) has a row %.1f lines tall: a long cell wraps a word a line", where, i+1, tb.Rows, tb.Cols, tb.Tallest)
						}
					}
					if len(l.Backgrounds) > 0 {
						t.Errorf("%s: backgrounds that a dark mode would not turn: %v", where, l.Backgrounds)
					}
					light := luminance(l.TextColor) > 0.5
					if light != (scheme == "dark") {
						t.Errorf("%s: the text colour is %s", where, l.TextColor)
					}
				}
			}
			if *screenshots != "" && p.name == "prosper-ru" {
				// On a phone's 360 px, as a Russian player would most
				// often read it.
				shoot(t, tab, srv.URL, filepath.Join(*screenshots, "report-"+p.name+".png"), 360)
			}
			if *screenshots != "" && (strings.HasSuffix(p.name, "-en") || p.name == "burning-ru") {
				shoot(t, tab, srv.URL, filepath.Join(*screenshots, "report-"+p.name+".png"), 900)
				if p.name == "burning-ru" {
					shoot(t, tab, srv.URL, filepath.Join(*screenshots, "report-"+p.name+"-phone.png"), 360)
				}
			}
		})
	}
}

// shoot writes a screenshot of the top of the page at width: what a
// player sees on opening the mail.
func shoot(t *testing.T, tab context.Context, url, path string, width int64) {
	t.Helper()
	err := chromedp.Do(tab, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "light"}}})
		return err
	}), chromedp.EmulateViewport(width, 1500), chromedp.Navigate(url))
	if err != nil {
		t.Fatal(err)
	}
	png, err := chromedp.Run(tab, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// luminance is the relative luminance of a CSS rgb()/rgba() colour.
func luminance(css string) float64 {
	var r, g, b float64
	if _, err := fmt.Sscanf(strings.Replace(css, "rgba", "rgb", 1), "rgb(%f, %f, %f", &r, &g, &b); err != nil {
		return -1
	}
	return (0.2126*r + 0.7152*g + 0.0722*b) / 255
}
