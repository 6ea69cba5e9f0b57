package web

import (
	"context"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"orrery/engine/game"
)

const wantCSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// Every page and every refusal answers with its status and type, and with
// the security headers: a policy that runs no inline script and lets no
// other site frame the page, no referrer (a private link must not leave
// with a click), no sniffing. Nothing lists a folder.
func TestPages(t *testing.T) {
	svc, _ := toyGame(t)
	s := newSite(t, Config{Service: svc, Bot: "orrery@example.org"})
	tok := tokenOf(t, svc, "g1", "ann")
	p := "/g/g1/p/" + tok
	cases := []struct {
		path   string
		status int
		ctype  string
		want   string // in the body
		cache  string
	}{
		{"/", 200, "text/html", `href="/g/g1"`, "no-cache"},
		{"/g/g1", 200, "text/html", "Every step", "public, no-cache"},
		{"/g/g1/step/0", 200, "text/html", "the setup", "public, no-cache"},
		{"/g/g1/step/2", 200, "text/html", `rel="prev"`, "public, no-cache"},
		{"/g/g1/step/2.json", 200, "application/json", `"format": "orrery-web-report/1"`, "public, no-cache"},
		{"/g/g1/report.json", 200, "application/json", `"latest": true`, "public, no-cache"},
		{"/g/g1/dice", 200, "text/html", `id="check-button"`, "public, no-cache"},
		{"/g/g1/feed.atom", 200, "application/atom+xml", "<feed", "public, no-cache"},
		{"/assets/style.css", 200, "text/css", "prefers-color-scheme", "public, max-age=31536000, immutable"},
		{"/assets/dice.js", 200, "text/javascript", "sha256js", "public, max-age=31536000, immutable"},
		{"/robots.txt", 200, "text/plain", "Disallow: /g/*/p/", "public, max-age=86400"},
		{p, 200, "text/html", "ann's private page", "private, no-cache"},
		{p + "/step/1", 200, "text/html", "never surrender the plan", "private, no-cache"},
		{p + "/step/1.json", 200, "application/json", `"player": "ann"`, "private, no-cache"},
		{p + "/report.json", 200, "application/json", `"prompts"`, "private, no-cache"},
		{p + "/dice", 200, "text/html", "ann's dice", "private, no-cache"},
		// Refusals.
		{p + "/feed.atom", 404, "text/html", "no page at this address", "no-store"},
		{"/g/g1/p/" + strings.Repeat("A", 22), 404, "text/html", "private link is not valid", "no-store"},
		{"/g/g1/p/" + tok[:21], 404, "text/html", "private link is not valid", "no-store"},
		{"/g/g1/p/", 404, "text/html", "", "no-store"},
		{"/g/g1/p", 404, "text/html", "", "no-store"},
		{"/g/nosuch", 404, "text/html", "no game named", "no-store"},
		{"/g/g1/", 404, "text/html", "", "no-store"},
		{"/g/g1/step/", 404, "text/html", "no step", "no-store"},
		{"/g/g1/step/99", 404, "text/html", "no step 99", "no-store"},
		{"/g/g1/step/01", 404, "text/html", "no step 01", "no-store"},
		{"/g/g1/step/-1", 404, "text/html", "", "no-store"},
		{"/g/g1/step/1.svg", 404, "text/html", "no picture", "no-store"},
		{"/g/g1/step/1.html", 404, "text/html", "", "no-store"},
		{"/g/", 404, "text/html", "", "no-store"},
		{"/g", 404, "text/html", "", "no-store"},
		{"/assets/", 404, "text/html", "", "no-store"},
		{"/assets", 404, "text/html", "", "no-store"},
		{"/assets/web.go", 404, "text/html", "", "no-store"},
		{"/assets/../web.go", 404, "text/html", "", "no-store"},
		{"/templates/web/", 404, "text/html", "", "no-store"},
		{"/favicon.ico", 404, "text/html", "", "no-store"},
	}
	for _, c := range cases {
		t.Run(c.path, func(t *testing.T) {
			w := get(s, "GET", c.path)
			if w.Code != c.status {
				t.Fatalf("status %d, want %d:\n%s", w.Code, c.status, w.Body)
			}
			h := w.Header()
			if !strings.HasPrefix(h.Get("Content-Type"), c.ctype) {
				t.Errorf("Content-Type %q, want %s", h.Get("Content-Type"), c.ctype)
			}
			if !strings.Contains(w.Body.String(), c.want) {
				t.Errorf("the body lacks %q:\n%s", c.want, w.Body)
			}
			if h.Get("Cache-Control") != c.cache {
				t.Errorf("Cache-Control %q, want %q", h.Get("Cache-Control"), c.cache)
			}
			for k, v := range map[string]string{"Content-Security-Policy": wantCSP, "Referrer-Policy": "no-referrer",
				"X-Content-Type-Options": "nosniff", "X-Frame-Options": "DENY"} {
				if h.Get(k) != v {
					t.Errorf("%s: %q, want %q", k, h.Get(k), v)
				}
			}
			private := strings.HasPrefix(c.path, p)
			if private != (h.Get("X-Robots-Tag") == "noindex, nofollow") {
				t.Errorf("X-Robots-Tag %q on a page that is private: %v", h.Get("X-Robots-Tag"), private)
			}
			if strings.HasPrefix(c.ctype, "text/html") && c.status == 200 {
				checkHTML(t, w.Body.String())
			}
		})
	}
}

var inlineScript = regexp.MustCompile(`(?i)<script(?:\s[^>]*)?>\s*[^<\s]|\son[a-z]+\s*=|style\s*=|javascript:`)

// checkHTML holds what every page must: nothing inline that the policy
// would block (so nothing silently breaks), a language, a viewport for
// phones, and a main landmark.
func checkHTML(t *testing.T, body string) {
	t.Helper()
	if m := inlineScript.FindString(body); m != "" {
		t.Errorf("the page has inline script or style, which its policy blocks: %q", m)
	}
	for _, want := range []string{`<html lang="en">`, `name="viewport" content="width=device-width, initial-scale=1"`, `<main id="main">`, `<h1>`} {
		if !strings.Contains(body, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
}

// Only GET and HEAD: nothing here changes a game. A request with a body,
// or an address longer than any page's, is refused before any work.
func TestRequestLimits(t *testing.T) {
	svc, _ := toyGame(t)
	s := newSite(t, Config{Service: svc})
	for _, m := range []string{"POST", "PUT", "DELETE", "PATCH", "OPTIONS"} {
		w := get(s, m, "/g/g1")
		if w.Code != http.StatusMethodNotAllowed || w.Header().Get("Allow") != "GET, HEAD" || w.Header().Get("Content-Security-Policy") != wantCSP {
			t.Errorf("%s: %d, Allow %q", m, w.Code, w.Header().Get("Allow"))
		}
	}
	w := get(s, "HEAD", "/g/g1")
	if w.Code != 200 || w.Body.Len() != 0 || w.Header().Get("Content-Length") == "" {
		t.Errorf("HEAD: %d, %d bytes, Content-Length %q", w.Code, w.Body.Len(), w.Header().Get("Content-Length"))
	}
	r := strings.NewReader("x=1")
	req, _ := http.NewRequest("GET", "/g/g1", r)
	rec := &recorder{header: http.Header{}}
	s.ServeHTTP(rec, req)
	if rec.code != http.StatusRequestEntityTooLarge {
		t.Errorf("GET with a body: %d", rec.code)
	}
	if w := get(s, "GET", "/g/g1/"+strings.Repeat("x", MaxPath)); w.Code != http.StatusRequestURITooLong {
		t.Errorf("a long path: %d", w.Code)
	}
	if w := get(s, "GET", "/?after="+strings.Repeat("x", MaxPath+1)); w.Code != http.StatusRequestURITooLong {
		t.Errorf("a long query: %d", w.Code)
	}
}

type recorder struct {
	header http.Header
	code   int
}

func (r *recorder) Header() http.Header         { return r.header }
func (r *recorder) Write(b []byte) (int, error) { return len(b), nil }
func (r *recorder) WriteHeader(c int)           { r.code = c }

// A page is cacheable: the same ETag until something it shows changes,
// then another. A past step's page keeps its ETag while the game goes on;
// the game's page and the current step's change with every input, even
// press, which leaves the game's record as it was.
func TestETag(t *testing.T) {
	svc, c := toyGame(t)
	s := newSite(t, Config{Service: svc})
	ctx := context.Background()
	tag := func(path string) string {
		w := get(s, "GET", path)
		if w.Code != 200 || w.Header().Get("ETag") == "" {
			t.Fatalf("%s: %d, ETag %q", path, w.Code, w.Header().Get("ETag"))
		}
		if again := get(s, "GET", path, "If-None-Match", w.Header().Get("ETag")); again.Code != http.StatusNotModified || again.Body.Len() != 0 {
			t.Fatalf("%s with its ETag: %d, %d bytes", path, again.Code, again.Body.Len())
		}
		if other := get(s, "GET", path, "If-None-Match", `"other", W/`+w.Header().Get("ETag")); other.Code != http.StatusNotModified {
			t.Errorf("%s: a weak match in a list: %d", path, other.Code)
		}
		return w.Header().Get("ETag")
	}
	g, _ := svc.Get(ctx, "g1")
	pages := []string{"/g/g1", "/g/g1/step/1", "/g/g1/step/1.json", "/g/g1/report.json", "/g/g1/dice", "/g/g1/feed.atom"}
	before := map[string]string{}
	seen := map[string]string{}
	for _, p := range pages {
		before[p] = tag(p)
		if other, dup := seen[before[p]]; dup {
			t.Errorf("%s and %s share an ETag", p, other)
		}
		seen[before[p]] = p
	}
	ann := tag("/g/g1/p/" + tokenOf(t, svc, "g1", "ann") + "/step/1")
	if ann == before["/g/g1/step/1"] {
		t.Errorf("ann's page of step 1 has the public page's ETag")
	}
	// Press changes what ann's current page shows, not the record.
	c.t = c.t.Add(time.Minute)
	if _, _, err := svc.Press(ctx, "g1", "bob", []string{"ann"}, "truce?"); err != nil {
		t.Fatal(err)
	}
	if now := tag("/g/g1/p/" + tokenOf(t, svc, "g1", "ann")); now == "" {
		t.Fatal("no tag")
	}
	if tag("/g/g1") == before["/g/g1"] {
		t.Errorf("the game page's ETag stayed after an input")
	}
	before["/g/g1"] = tag("/g/g1")
	for _, in := range []game.Input{{Game: "g1", Player: "ann", Text: "PUSH 1"}, {Game: "g1", Player: "bob", Text: "PUSH 1"}} {
		if _, err := svc.Submit(ctx, in); err != nil {
			t.Fatal(err)
		}
	}
	if g2, _ := svc.Get(ctx, "g1"); g2.Step == g.Step {
		t.Fatalf("no new step")
	}
	for _, p := range pages {
		after := tag(p)
		past := strings.HasPrefix(p, "/g/g1/step/1")
		if past && after != before[p] {
			t.Errorf("%s: the ETag of a past step changed", p)
		}
		if !past && after == before[p] {
			t.Errorf("%s: the ETag stayed after a new step", p)
		}
	}
	// A rollback replays steps with new seeds: a past step's page changes.
	if _, _, err := svc.Rollback(ctx, "g1", 0, "test"); err != nil {
		t.Fatal(err)
	}
	if w := get(s, "GET", "/g/g1/step/0", "If-None-Match", before["/g/g1/step/1"]); w.Code != 200 {
		t.Errorf("after a rollback: %d", w.Code)
	}
}

// The list of games is read a page at a time in id order, with a link to
// the next page; games whose GM keeps them among their players have no
// public page and are not listed; a game open for players says how to
// join, by mail.
func TestIndex(t *testing.T) {
	svc, _ := toyGame(t)
	ctx := context.Background()
	for _, id := range []string{"a1", "b2", "c3", "d4"} {
		if _, err := svc.Create(ctx, game.CreateRequest{ID: id, Ruleset: "toy", Players: []game.PlayerSpec{{Name: "ann"}}}); err != nil {
			t.Fatal(err)
		}
	}
	private := game.DefaultSettings()
	private.Observers = "gm"
	if _, err := svc.Create(ctx, game.CreateRequest{ID: "b3-secret", Ruleset: "toy", Settings: &private, Players: []game.PlayerSpec{{Name: "ann", Email: "ann@example.org"}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Create(ctx, game.CreateRequest{ID: "e5", Ruleset: "toy", Seats: 3, Players: []game.PlayerSpec{{Name: "ann"}}}); err != nil {
		t.Fatal(err)
	}
	s := newSite(t, Config{Service: svc, Bot: "orrery@example.org", PageSize: 2})
	var listed []string
	next := "/"
	ids := regexp.MustCompile(`<h2><a href="/g/([a-z0-9-]+)">`)
	for pages := 0; next != ""; pages++ {
		if pages > 5 {
			t.Fatal("the pages do not end")
		}
		w := get(s, "GET", next)
		if w.Code != 200 {
			t.Fatalf("%s: %d", next, w.Code)
		}
		body := w.Body.String()
		found := ids.FindAllStringSubmatch(body, -1)
		if len(found) > 2 {
			t.Errorf("%s lists %d games, more than a page", next, len(found))
		}
		for _, m := range found {
			listed = append(listed, m[1])
		}
		next = ""
		if m := regexp.MustCompile(`<a href="(/\?after=[a-z0-9-]+)" rel="next">`).FindStringSubmatch(body); m != nil {
			next = unamp(m[1])
		}
		if strings.Contains(body, `href="/g/e5"`) && !strings.Contains(body, "<code>JOIN e5</code>") {
			t.Errorf("the open game e5 does not say how to join:\n%s", body)
		}
	}
	if got := strings.Join(listed, " "); got != "a1 b2 c3 d4 e5 g1" {
		t.Errorf("listed %s", got)
	}
	if w := get(s, "GET", "/g/b3-secret"); w.Code != 404 {
		t.Errorf("the page of a game kept among its players: %d", w.Code)
	}
	if w := get(s, "GET", "/g/b3-secret/p/"+tokenOf(t, svc, "b3-secret", "ann")); w.Code != 200 || strings.Contains(w.Body.String(), "The public page") {
		t.Errorf("its player's private page: %d, or it links to a public page that is not there", w.Code)
	}
	if w := get(s, "GET", "/g/e5"); w.Code != 200 || !strings.Contains(w.Body.String(), "1 of 3 seats taken") {
		t.Errorf("a game in signup: %d\n%s", w.Code, w.Body)
	}
	if w := get(s, "GET", "/g/e5/report.json"); w.Code != 404 {
		t.Errorf("the report of a game in signup: %d", w.Code)
	}
}

func unamp(s string) string { return strings.ReplaceAll(s, "&amp;", "&") }

// report.json is the reader's report, field by field, and the Atom feed
// has an entry per step, latest first, with absolute links.
func TestJSONAndFeed(t *testing.T) {
	svc, _ := toyGame(t)
	s := newSite(t, Config{Service: svc, URL: "https://games.example.org/"})
	ctx := context.Background()
	g, _ := svc.Get(ctx, "g1")
	for _, who := range []string{"", "ann", "bob"} {
		path := "/g/g1/report.json"
		player := game.Observer
		if who != "" {
			path = "/g/g1/p/" + tokenOf(t, svc, "g1", who) + "/report.json"
			player = who
		}
		w := get(s, "GET", path)
		var d ReportDoc
		if err := json.Unmarshal(w.Body.Bytes(), &d); err != nil {
			t.Fatal(err)
		}
		rep, err := svc.Report(ctx, "g1", player)
		if err != nil {
			t.Fatal(err)
		}
		if d.Format != ReportFormat || d.Game != "g1" || d.Player != who || d.Public != (who == "") || d.Step != g.Step || d.Turn != rep.Turn ||
			d.Board != rep.Board || d.Status != rep.Status || strings.Join(d.Events, "|") != strings.Join(rep.Events, "|") ||
			len(d.Rolls) != len(rep.Rolls) || d.Dice.Seed != rep.RevealedSeed || d.Dice.Commitment != rep.RevealedCommitment ||
			d.Dice.NextCommitment != rep.NextCommitment || !d.Latest || d.Time.IsZero() || d.Dice.Scheme != "2" || d.Dice.Digest != rep.Digest || d.Dice.RollSeed != rep.RollSeed {
			t.Errorf("%q: report.json %+v\ndoes not match the report %+v", who, d, rep)
		}
		if (who != "") != (len(d.Prompts) > 0) {
			t.Errorf("%q: prompts %v (only a seat's own report has them)", who, d.Prompts)
		}
		if strings.Contains(w.Body.String(), "never surrender") != (who == "ann") {
			t.Errorf("%q: ann's motto shown: %v", who, strings.Contains(w.Body.String(), "never surrender"))
		}
	}
	w := get(s, "GET", "/g/g1/feed.atom")
	var f struct {
		ID      string `xml:"id"`
		Entries []struct {
			ID   string `xml:"id"`
			Link struct {
				Href string `xml:"href,attr"`
			} `xml:"link"`
			Content string `xml:"content"`
		} `xml:"entry"`
	}
	if err := xml.Unmarshal(w.Body.Bytes(), &f); err != nil {
		t.Fatal(err)
	}
	if len(f.Entries) != int(g.Step)+1 || f.Entries[0].Link.Href != fmt.Sprintf("https://games.example.org/g/g1/step/%d", g.Step) ||
		!strings.HasPrefix(f.ID, "tag:games.example.org,2026-11-01:g1") || !strings.Contains(f.Entries[0].Content, "pushes") {
		t.Errorf("feed: %+v", f)
	}
	if strings.Contains(w.Body.String(), "never surrender") {
		t.Errorf("the feed shows ann's motto")
	}
}
