package templates

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	stddraw "image/draw"
	stdpng "image/png"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"orrery/engine"
	"orrery/engine/draw"
	"orrery/games"
	"orrery/pbem/outbox"
	"orrery/pbem/reportjson"
)

// The size budget of a report mail (issue 44): Gmail clips a message
// whose HTML passes 102 KB, and a mail of a few hundred KB is slow on a
// phone's connection.
const (
	mailBudget = 300 << 10
	htmlBudget = 100 << 10
)

// phoneStep is the step of a bot game whose report stands for the middle
// of a game: boards are full, and the event lists long (a game over by
// then gives an earlier step).
const phoneStep = 20

// phoneMail is ann's report of a mid-game step of rs as it is mailed: the
// HTML and text parts, the picture as the mailer draws it (laid out for a
// phone, at MailScale) and report.json, composed into one MIME message.
type phoneMail struct {
	name        string
	pic         *draw.Picture // the mail's picture, in CSS px
	png         []byte
	html        string // the HTML part, the picture by its cid:
	raw         []byte // the whole message
	textLen     int
	jsonLen     int
	htmlInlined string // the HTML with the picture as a data: URL, for a browser
}

func phoneMails(t *testing.T) []phoneMail {
	t.Helper()
	set, err := New("")
	if err != nil {
		t.Fatal(err)
	}
	var out []phoneMail
	for _, rs := range games.All() {
		info := rs.Info()
		// The middle of the game: step phoneStep, or earlier in a game
		// over by then.
		rep, v := botReport(t, rs, phoneStep)
		for n := phoneStep / 2; rep.Outcome.Over && n > 1; n /= 2 {
			rep, v = botReport(t, rs, n)
		}
		dr, ok := v.(engine.Drawer)
		if !ok {
			t.Fatalf("%s draws no picture", info.Name)
		}
		pic := dr.Picture().Mail()
		png, err := pic.Scaled(draw.MailScale).PNG()
		if err != nil {
			t.Fatal(err)
		}
		const cid = "board.demo.0.20@orrery.example.org"
		d := &Data{Bot: "orrery@example.org", Game: rep.Game, Title: rep.Title, Player: rep.Player, Secret: "k7f3q",
			Report: rep, Deadline: time.Date(2026, 11, 26, 18, 0, 0, 0, time.UTC),
			Picture: &Picture{CID: cid, Alt: pic.Alt(), Width: min(pic.W, 860)}, Web: phonePage}
		d.Translator, _ = rs.(engine.Translator)
		m, err := set.Render(Report, d)
		if err != nil {
			t.Fatal(err)
		}
		js, err := reportjson.Marshal(rep)
		if err != nil {
			t.Fatal(err)
		}
		msg, err := outbox.ComposeWith(outbox.Mail{From: "Orrery <orrery@orrery.example.org>", To: []string{"ann@example.org"},
			Subject: m.Subject, Text: m.Text, HTML: m.HTML, MessageID: "r1@orrery.example.org", Date: time.Date(2026, 11, 22, 20, 0, 0, 0, time.UTC),
			Picture: &outbox.Picture{ContentID: cid, Name: "demo-turn.png"},
			Files:   []outbox.File{{Name: reportjson.Name, ContentType: "application/json", Data: js}}}, png)
		if err != nil {
			t.Fatal(err)
		}
		var raw bytes.Buffer
		if _, err := msg.WriteTo(&raw); err != nil {
			t.Fatal(err)
		}
		out = append(out, phoneMail{name: info.Name, pic: pic, png: png, html: m.HTML, raw: raw.Bytes(), textLen: len(m.Text), jsonLen: len(js),
			htmlInlined: strings.ReplaceAll(m.HTML, "cid:"+cid, "data:image/png;base64,"+base64.StdEncoding.EncodeToString(png))})
	}
	return out
}

// phonePage is the reader's private page in phoneMails' reports.
const phonePage = "https://orrery.example.org/p/demo/k7f3qk7f3q"

// TestReportMailBudget composes a mid-game report mail of every ruleset,
// as the mailer does, and holds it to issue 44's budget: the whole mail at
// most 300 KB, its HTML part at most 100 KB. The picture is a link to the
// reader's private page, where the whole board is drawn to zoom into.
func TestReportMailBudget(t *testing.T) {
	for _, m := range phoneMails(t) {
		t.Logf("%s: mail %.1f KB (HTML %.1f KB, text %.1f KB, picture %.1f KB at %d×%d px, report.json %.1f KB)", m.name,
			kb(len(m.raw)), kb(len(m.html)), kb(m.textLen), kb(len(m.png)), m.pic.W*draw.MailScale, m.pic.H*draw.MailScale, kb(m.jsonLen))
		if len(m.raw) > mailBudget {
			t.Errorf("%s: the report mail is %.1f KB, over its budget of %d KB", m.name, kb(len(m.raw)), mailBudget>>10)
		}
		if len(m.html) > htmlBudget {
			t.Errorf("%s: the report's HTML part is %.1f KB, over its budget of %d KB (Gmail clips past 102 KB)", m.name, kb(len(m.html)), htmlBudget>>10)
		}
		if !regexp.MustCompile(`<a href="` + regexp.QuoteMeta(phonePage) + `"[^>]*><img src="cid:`).MatchString(m.html) {
			t.Errorf("%s: the report's picture is no link to the reader's private page", m.name)
		}
		if !bytes.Contains(m.raw, []byte("image/png")) {
			t.Errorf("%s: the mail carries no picture: the budget measured nothing", m.name)
		}
	}
}

func kb(n int) float64 { return float64(n) / 1024 }

// phoneLayout is what a phone shows of a report, measured in the page.
type phoneLayout struct {
	ScrollWidth, ClientWidth int
	ImgWidth, ImgNatural     float64
}

// TestReportOnPhoneInChromium opens a mid-game report mail's HTML of every
// ruleset in headless Chromium at a phone's 360 px, 2× device scale: the
// page does not scroll sideways, the picture is shown at most 360 px wide,
// sharp (twice as many pixels as CSS px), and at the width it is shown
// the picture model's smallest label is at least 11 CSS px high. With
// -update it writes the screenshots docs/screenshots/<ruleset>-360.png.
func TestReportOnPhoneInChromium(t *testing.T) {
	if testing.Short() {
		t.Skip("renders five reports in Chromium: runs without -short")
	}
	ctx := browser(t)
	for _, m := range phoneMails(t) {
		t.Run(m.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				fmt.Fprint(w, m.htmlInlined)
			}))
			defer srv.Close()
			tab, cancel := chromedp.NewContext(ctx)
			defer cancel()
			tctx, cancelT := context.WithTimeout(tab, time.Minute)
			defer cancelT()
			if err := chromedp.Do(tctx, chromedp.EmulateViewport(360, 1000, chromedp.EmulateScale(2)), chromedp.Navigate(srv.URL)); err != nil {
				t.Fatal(err)
			}
			js, err := chromedp.Run(tctx, chromedp.Evaluate[string](`(() => {
  const img = document.querySelector('img');
  return JSON.stringify({ScrollWidth: document.documentElement.scrollWidth, ClientWidth: document.documentElement.clientWidth,
    ImgWidth: img ? img.getBoundingClientRect().width : 0, ImgNatural: img ? img.naturalWidth : 0});
})()`))
			if err != nil {
				t.Fatal(err)
			}
			var l phoneLayout
			if err := json.Unmarshal([]byte(js), &l); err != nil {
				t.Fatal(err)
			}
			if l.ScrollWidth > l.ClientWidth {
				t.Errorf("the page is %d px wide on a %d px phone: it scrolls sideways", l.ScrollWidth, l.ClientWidth)
			}
			if l.ImgWidth <= 0 || l.ImgWidth > 360 {
				t.Fatalf("the picture is shown %.1f px wide on a 360 px phone", l.ImgWidth)
			}
			if l.ImgNatural < 2*l.ImgWidth {
				t.Errorf("the picture has %.0f px for its %.1f CSS px: not sharp at 2× device scale", l.ImgNatural, l.ImgWidth)
			}
			small := m.pic.MinFont() * l.ImgWidth / float64(m.pic.W)
			t.Logf("picture shown %.1f CSS px wide (%.0f px), smallest label %.1f CSS px", l.ImgWidth, l.ImgNatural, small)
			if small < 11 {
				t.Errorf("the smallest label of the picture is %.1f CSS px high where the phone shows it %.1f px wide, below 11", small, l.ImgWidth)
			}
			if *update {
				// What the phone shows from a little above the picture.
				if _, err := chromedp.Run(tctx, chromedp.Evaluate[bool](`(() => { const img = document.querySelector('img');
  window.scrollTo(0, Math.max(0, img.getBoundingClientRect().top + window.scrollY - 120)); return true })()`)); err != nil {
					t.Fatal(err)
				}
				shot, err := chromedp.Run(tctx, chromedp.CaptureScreenshot())
				if err != nil {
					t.Fatal(err)
				}
				png, err := palettePNG(shot)
				if err != nil {
					t.Fatal(err)
				}
				path := filepath.Join("..", "docs", "screenshots", m.name+"-360.png")
				if err := os.WriteFile(path, png, 0o644); err != nil {
					t.Fatal(err)
				}
				t.Logf("wrote %s (%.0f KB)", path, kb(len(png)))
			}
		})
	}
}

// palettePNG reduces a full-colour screenshot to a palette PNG, as the
// pictures are written: a third of the bytes in the repository.
func palettePNG(shot []byte) ([]byte, error) {
	img, err := stdpng.Decode(bytes.NewReader(shot))
	if err != nil {
		return nil, fmt.Errorf("the screenshot: %w", err)
	}
	rgba := image.NewRGBA(img.Bounds())
	stddraw.Draw(rgba, rgba.Rect, img, img.Bounds().Min, stddraw.Src)
	return draw.PalettePNG(rgba)
}
