// Package web serves every game as read-only web pages: the server's games,
// each game's public page and steps, a player's private page through a
// capability link mailed with each report, the dice with a check that runs
// in the reader's browser, JSON reports and an Atom feed. `orrery game
// archive` writes the same public pages as static files.
//
// The pages are rendered with html/template from the stored step records and
// snapshots (engine/game's Report, StepReport, StepView, Facts), never by
// replaying a log. What a page shows is exactly one reader's report: the
// public one (engine/game's Observer) on public pages, one seat's on its
// private page, never the GM's. Nothing here changes a game: the handler
// answers GET and HEAD only.
//
// The handler is a plain http.Handler, so that the daemon can mount it next
// to other handlers on one listener.
package web

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	htmltemplate "html/template"
	"io/fs"
	"log/slog"
	"net/http"
	"net/url"
	"path"
	"regexp"
	"strconv"
	"strings"
	"time"

	"orrery/engine"
	"orrery/engine/game"
	"orrery/engine/lang"
	"orrery/engine/store"
	tmpl "orrery/templates/web"
)

// Picture draws a view's board as SVG, with a short text alternative for
// the picture (the page shows the board's text form beside it). It returns
// nil SVG when the ruleset draws no picture. The daemon passes the drawing
// of engine/draw; without one, pages show the text board only.
type Picture func(v engine.View) (svg []byte, alt string, err error)

// Config is what a Site needs.
type Config struct {
	Service *game.Service
	// Bot is the address players write to (orrery@example.org): pages
	// name it for JOIN and for orders. "" leaves it out.
	Bot string
	// URL is the public address of the site ("https://games.example.org",
	// what a reverse proxy serves it as): the Atom feed's links are
	// absolute. "" takes the request's Host.
	URL string
	// Picture draws boards; nil shows the text board only.
	Picture Picture
	// PageSize is how many games / lists at a time (default 50).
	PageSize int
	Logger   *slog.Logger
	// Catalog words the pages in a private page's reader's language
	// (templates.WebCatalog); nil: English only.
	Catalog *lang.Catalog
	// Localize words a private page's report for its reader, as their
	// mails are (templates.Set.LocalReport); nil leaves it as recorded.
	Localize func(r *game.Report, rs engine.Ruleset, tag lang.Tag, zone *time.Location) *game.Report
}

// Site is the read-only web side of one database.
type Site struct {
	cfg    Config
	pages  map[lang.Tag]map[string]*htmltemplate.Template // by language, then page
	assets map[string]asset
	build  string // digest of templates and assets: part of every ETag
	log    *slog.Logger
}

type asset struct {
	data  []byte
	ctype string
}

// New parses the templates and prepares the static files.
func New(cfg Config) (*Site, error) {
	if cfg.Service == nil {
		return nil, errors.New("web: no game service")
	}
	if cfg.PageSize <= 0 {
		cfg.PageSize = 50
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	s := &Site{cfg: cfg, pages: map[lang.Tag]map[string]*htmltemplate.Template{}, assets: map[string]asset{}, log: cfg.Logger}
	h := sha256.New()
	for _, name := range tmpl.Assets {
		data, err := fs.ReadFile(tmpl.Files, name)
		if err != nil {
			return nil, fmt.Errorf("web: %w", err)
		}
		ctype := "text/css; charset=utf-8"
		if strings.HasSuffix(name, ".js") {
			ctype = "text/javascript; charset=utf-8"
		}
		s.assets[name] = asset{data: data, ctype: ctype}
		h.Write(data)
	}
	layout, err := fs.ReadFile(tmpl.Files, "layout.html")
	if err != nil {
		return nil, fmt.Errorf("web: %w", err)
	}
	h.Write(layout)
	tags := []lang.Tag{lang.English}
	if cfg.Catalog != nil {
		for _, t := range lang.Supported {
			if t != lang.English {
				tags = append(tags, t)
			}
		}
	}
	for _, name := range tmpl.Pages {
		text, err := fs.ReadFile(tmpl.Files, name)
		if err != nil {
			return nil, fmt.Errorf("web: %w", err)
		}
		h.Write(text)
		for _, tag := range tags {
			t, err := htmltemplate.New(name).Funcs(funcsFor(cfg.Catalog, tag)).Parse(string(layout))
			if err == nil {
				_, err = t.Parse(string(text))
			}
			if err != nil {
				return nil, fmt.Errorf("web: template %s: %w", name, err)
			}
			if s.pages[tag] == nil {
				s.pages[tag] = map[string]*htmltemplate.Template{}
			}
			s.pages[tag][name] = t
		}
	}
	s.build = hex.EncodeToString(h.Sum(nil))[:12]
	return s, nil
}

// headers every answer carries. The policy allows this server's own style
// and scripts and nothing inline, so an event text that slipped past
// escaping still could not run; no-referrer keeps a private page's address
// from leaving with a click on a link.
func securityHeaders(h http.Header) {
	h.Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Cross-Origin-Opener-Policy", "same-origin")
	h.Set("Cross-Origin-Resource-Policy", "same-origin")
}

// privatePath finds a private page's token in a path, to keep it out of logs.
var privatePath = regexp.MustCompile(`/p/[^/]+`)

// MaxPath bounds the request path read: no page has a longer one.
const MaxPath = 512

// ServeHTTP routes a request to its page.
func (s *Site) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	securityHeaders(w.Header())
	home := links{home: "/", assets: "/assets/"}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		s.failMsg(w, r, home, http.StatusMethodNotAllowed, s.askerTag(w, r, nil), lang.M("These pages can only be read: orders go by mail."))
		return
	}
	if r.ContentLength > 0 {
		s.failMsg(w, r, home, http.StatusRequestEntityTooLarge, s.askerTag(w, r, nil), lang.M("A request for a page carries no body."))
		return
	}
	p := r.URL.EscapedPath()
	if len(p) > MaxPath || len(r.URL.RawQuery) > MaxPath {
		// The query is not read: too long to be ours, it may hold anything.
		s.failMsg(w, r, home, http.StatusRequestURITooLong, s.acceptedTag(w, r), lang.M("That address is too long to be one of these pages."))
		return
	}
	seg := strings.Split(strings.TrimPrefix(r.URL.Path, "/"), "/")
	switch {
	case r.URL.Path == "/":
		s.index(w, r)
	case r.URL.Path == "/robots.txt":
		s.write(w, r, "text/plain; charset=utf-8", "", []byte("User-agent: *\nDisallow: /g/*/p/\n"), "public, max-age=86400")
	case len(seg) == 2 && seg[0] == "assets":
		s.asset(w, r, seg[1])
	case len(seg) >= 2 && seg[0] == "g" && seg[1] != "":
		s.game(w, r, seg[1], seg[2:])
	default:
		s.notFound(w, r, home, s.askerTag(w, r, nil))
	}
}

func (s *Site) asset(w http.ResponseWriter, r *http.Request, name string) {
	a, ok := s.assets[name]
	if !ok {
		s.notFound(w, r, links{home: "/", assets: "/assets/"}, s.askerTag(w, r, nil))
		return
	}
	// Pages ask for assets with ?v=build, so a new release is fetched at
	// once and an old one may be kept for a year.
	s.write(w, r, a.ctype, `"`+s.build+`"`, a.data, "public, max-age=31536000, immutable")
}

// game routes /g/ID/...: the public pages, and /g/ID/p/TOKEN/... for a seat.
func (s *Site) game(w http.ResponseWriter, r *http.Request, id string, rest []string) {
	ctx := r.Context()
	g, rev, err := s.cfg.Service.Revision(ctx, id)
	if err != nil {
		s.gameError(w, r, s.askerTag(w, r, nil), err)
		return
	}
	v := viewer{}
	l := liveLinks(g.ID, "")
	if len(rest) >= 2 && rest[0] == "p" {
		seat, ok := s.seatFor(ctx, g, rest[1])
		if !ok {
			// Whose link it was is unknown: the page speaks as the
			// game's public pages do.
			s.failMsg(w, r, l, http.StatusNotFound, s.askerTag(w, r, g), lang.M("This private link is not valid. Each report mail carries the newest link; "+
				"an older one stops working when the seat gets a new player or a new secret."))
			return
		}
		v = viewer{seat: seat}
		v.tag, v.zone = s.readerOf(ctx, g, seat)
		l = liveLinks(g.ID, rest[1])
		rest = rest[2:]
	} else if !Listed(g) {
		// Not even the language of its players: the game is not there.
		s.notFound(w, r, l, s.askerTag(w, r, nil))
		return
	} else {
		var varies bool
		v.tag, varies = s.publicTag(r, g)
		if varies {
			w.Header().Add("Vary", "Accept-Language")
		}
	}
	// An explicit ?lang= wins on every page, a private one too, and the
	// page's links keep it.
	if t, ok := s.linkTag(r); ok {
		v.tag, l.query = t, "?lang="+string(t)
	}
	l.self = r.URL.Path
	if v.seat != "" {
		w.Header().Set("X-Robots-Tag", "noindex, nofollow")
	}
	c := &call{site: s, w: w, r: r, g: g, rev: rev, v: v, l: l}
	switch {
	case len(rest) == 0:
		c.page("game", pageGame)
	case len(rest) == 1 && rest[0] == "report.json":
		c.page("report.json", pageReportJSON)
	case len(rest) == 1 && rest[0] == "dice":
		c.page("dice", pageDice)
	case len(rest) == 1 && rest[0] == "feed.atom" && v.seat == "":
		c.page("feed", pageFeed)
	case len(rest) == 2 && rest[0] == "step":
		name, ext := rest[1], ""
		if i := strings.LastIndexByte(name, '.'); i >= 0 {
			name, ext = name[:i], name[i:]
		}
		n, err := strconv.ParseUint(name, 10, 64)
		if err != nil || name != strconv.FormatUint(n, 10) || g.Signup || n > g.Step {
			s.failMsg(w, r, l, http.StatusNotFound, v.tag, lang.M("Game %s has no step %s.", g.ID, rest[1]))
			return
		}
		c.step = n
		switch ext {
		case "":
			c.page("step", pageStep)
		case ".json":
			c.page("step.json", pageStepJSON)
		case ".svg":
			c.page("step.svg", pageSVG)
		default:
			s.notFound(w, r, l, v.tag)
		}
	default:
		s.notFound(w, r, l, v.tag)
	}
}

// Listed reports whether a game has public pages: not when its GM keeps it
// among its players (observers "gm": only the GM subscribes observers, so
// its events stay private). Its players' private pages still work.
func Listed(g *game.Game) bool { return g.Settings.Observers != "gm" }

func (s *Site) seatFor(ctx context.Context, g *game.Game, tok string) (string, bool) {
	var key []byte
	err := s.cfg.Service.Store().View(ctx, func(tx store.Tx) error {
		key = readTokenKey(tx)
		return nil
	})
	if err != nil {
		return "", false
	}
	return seatOf(key, g, tok)
}

// call is one request for a page of one game.
type call struct {
	site *Site
	w    http.ResponseWriter
	r    *http.Request
	g    *game.Game
	rev  uint64
	v    viewer
	l    links
	step uint64
}

type pageFunc func(ctx context.Context, s *Site, g *game.Game, v viewer, l links, step uint64, absURL string) (body []byte, ctype string, err error)

// page answers with one page, or 304 when the reader has it already. The
// ETag is made from what the page is drawn from, before drawing it: the
// build, the reader, the game's epoch and step, and for pages of the
// present the record's revision; a past step's page changes only with a
// rollback (a new epoch).
func (c *call) page(kind string, f pageFunc) {
	g := c.g
	current := kind != "step" && kind != "step.json" && kind != "step.svg" || c.step == g.Step
	var tag string
	if current {
		tag = fmt.Sprintf("%s|%s|%s|%d|%d|%d|%s|%s", c.site.build, kind, c.v.key(), g.Epoch, g.Step, c.rev, g.Updated.Format(time.RFC3339Nano), g.Deadline.Format(time.RFC3339))
	} else {
		tag = fmt.Sprintf("%s|%s|%s|%d|%d|past", c.site.build, kind, c.v.key(), g.Epoch, c.step)
	}
	sum := sha256.Sum256([]byte(g.ID + "|" + tag))
	etag := `"` + hex.EncodeToString(sum[:12]) + `"`
	cache := "public, no-cache"
	if c.v.seat != "" {
		cache = "private, no-cache"
	}
	c.w.Header().Set("Cache-Control", cache)
	if match(c.r.Header.Get("If-None-Match"), etag) {
		c.w.Header().Set("ETag", etag)
		c.w.WriteHeader(http.StatusNotModified)
		return
	}
	body, ctype, err := f(c.r.Context(), c.site, g, c.v, c.l, c.step, c.site.absolute(c.r))
	if err != nil {
		c.site.gameError(c.w, c.r, c.v.tag, err)
		return
	}
	if body == nil {
		c.site.failMsg(c.w, c.r, c.l, http.StatusNotFound, c.v.tag, lang.M("This game has no picture of its board."))
		return
	}
	c.site.write(c.w, c.r, ctype, etag, body, cache)
}

// match reports whether an If-None-Match header names etag.
func match(header, etag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == etag || t == "*" {
			return true
		}
	}
	return false
}

func (s *Site) write(w http.ResponseWriter, r *http.Request, ctype, etag string, body []byte, cache string) {
	h := w.Header()
	h.Set("Content-Type", ctype)
	if strings.HasPrefix(ctype, "image/svg+xml") {
		// An SVG opened on its own is a document: no script, no links out.
		h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'")
	}
	if etag != "" {
		h.Set("ETag", etag)
		if match(r.Header.Get("If-None-Match"), etag) {
			w.WriteHeader(http.StatusNotModified)
			return
		}
	}
	if cache != "" {
		h.Set("Cache-Control", cache)
	}
	h.Set("Content-Length", strconv.Itoa(len(body)))
	if r.Method == http.MethodHead {
		return
	}
	w.Write(body)
}

// absolute is the site's public address: the configured URL, or one made
// from the request (behind a proxy, configure http.url).
func (s *Site) absolute(r *http.Request) string {
	if s.cfg.URL != "" {
		return trimBase(s.cfg.URL)
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

func trimBase(u string) string { return strings.TrimRight(u, "/") }

// gameError answers with the error page of err, worded in tag.
func (s *Site) gameError(w http.ResponseWriter, r *http.Request, tag lang.Tag, err error) {
	l := links{home: "/", assets: "/assets/"}
	if ue := (*game.UserError)(nil); errors.As(err, &ue) {
		// A refusal worded for anyone: no such game, or no such step;
		// in the reader's language where it was made as a message.
		msg := ue.Msg
		if ue.Why != nil {
			msg = s.in(tag, *ue.Why)
		}
		s.fail(w, r, l, http.StatusNotFound, tag, msg)
		return
	}
	if errors.Is(err, context.Canceled) {
		return
	}
	s.log.Error("web page", "path", privatePath.ReplaceAllString(r.URL.Path, "/p/(token)"), "err", err)
	s.failMsg(w, r, l, http.StatusInternalServerError, tag, lang.M("Something went wrong on the server while drawing this page; it has been logged."))
}

func (s *Site) notFound(w http.ResponseWriter, r *http.Request, l links, tag lang.Tag) {
	s.failMsg(w, r, l, http.StatusNotFound, tag, lang.M("There is no page at this address."))
}

// askerTag is the language of an error page for r, chosen as a public
// page's is (publicTag: ?lang=, Accept-Language, the players' shared
// language of g when there is one, English): an error page has no
// reader of its own.
func (s *Site) askerTag(w http.ResponseWriter, r *http.Request, g *game.Game) lang.Tag {
	tag, varies := s.publicTag(r, g)
	if varies {
		w.Header().Add("Vary", "Accept-Language")
	}
	return tag
}

// acceptedTag is askerTag read from Accept-Language alone, for a request
// whose address is not read.
func (s *Site) acceptedTag(w http.ResponseWriter, r *http.Request) lang.Tag {
	w.Header().Add("Vary", "Accept-Language")
	if t, ok := s.accepted(r.Header.Get("Accept-Language")); ok {
		return t
	}
	return lang.English
}

// in is m written in tag.
func (s *Site) in(tag lang.Tag, m lang.Msg) string { return s.say(viewer{tag: tag}, m) }

// failMsg answers with an error page saying m in tag.
func (s *Site) failMsg(w http.ResponseWriter, r *http.Request, l links, status int, tag lang.Tag, m lang.Msg) {
	s.fail(w, r, l, status, tag, s.in(tag, m))
}

// fail answers with an error page worded in tag, saying msg.
func (s *Site) fail(w http.ResponseWriter, r *http.Request, l links, status int, tag lang.Tag, msg string) {
	if !s.speaks(tag) {
		tag = lang.English
	}
	p := errorPage{common: s.common(s.in(tag, statusTitle(status)), nil, viewer{tag: tag}, l), Status: status, Message: msg}
	var b bytes.Buffer
	err := s.pages[tag]["error.html"].ExecuteTemplate(&b, "layout", p)
	if err != nil {
		http.Error(w, msg, status)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		w.Write(b.Bytes())
	}
}

// statusTitle is the title of an error page of status: the HTTP status
// text, in the reader's language.
func statusTitle(status int) lang.Msg {
	switch status {
	case http.StatusNotFound:
		return lang.M("Not Found")
	case http.StatusMethodNotAllowed:
		return lang.M("Method Not Allowed")
	case http.StatusRequestEntityTooLarge:
		return lang.M("Request Entity Too Large")
	case http.StatusRequestURITooLong:
		return lang.M("Request URI Too Long")
	case http.StatusInternalServerError:
		return lang.M("Internal Server Error")
	}
	return lang.M("Error %d", status)
}

// viewer is whom a page is for: the public (no seat) or one seat. It is
// never the GM: no page shows what only the GM sees.
type viewer struct {
	seat string
	// tag and zone are the language and time zone of the seat's reader
	// (readerOf); zero for a public page.
	tag  lang.Tag
	zone *time.Location
}

// player is the engine/game reader of the viewer's reports.
func (v viewer) player() string {
	if v.seat == "" {
		return game.Observer
	}
	return v.seat
}

func (v viewer) key() string {
	if v.seat == "" {
		return "public:" + string(v.tag)
	}
	if v.tag != "" && (v.tag != lang.English || v.zone != nil && v.zone != time.UTC) {
		return "seat:" + v.seat + ":" + string(v.tag) + ":" + v.zone.String()
	}
	return "seat:" + v.seat
}

// links makes the addresses a page links to: live ones (/g/ID/step/3), or
// relative file names in an archive (step-3.html).
type links struct {
	static bool
	home   string // "" in an archive
	base   string // "/g/ID" or "/g/ID/p/TOKEN"
	public string // the game's public page
	assets string // "/assets/" or "assets/"
	build  string
	// query is "?lang=ru" when the reader chose the page's language by
	// the link: the page's links keep it. self is the page's own path,
	// which the other-language link points to ("" in an archive).
	query, self string
}

func liveLinks(id, token string) links {
	l := links{home: "/", base: "/g/" + url.PathEscape(id), assets: "/assets/"}
	l.public = l.base
	if token != "" {
		l.base += "/p/" + token
	}
	return l
}

func staticLinks() links { return links{static: true, public: "index.html", assets: "assets/"} }

func (l links) withBuild(b string) links { l.build = b; return l }

// Home is the list of the server's games ("" in an archive).
func (l links) Home() string {
	if l.home == "" {
		return ""
	}
	return l.home + l.query
}

// In is this page in language code ("" in an archive, which is written in
// one language).
func (l links) In(code string) string {
	if l.self == "" {
		return ""
	}
	return l.self + "?lang=" + code
}

// Game is the game's page (for a seat, its private page).
func (l links) Game() string {
	if l.static {
		return "index.html"
	}
	return l.base + l.query
}

// Public is the game's public page.
func (l links) Public() string {
	if l.static {
		return l.public
	}
	return l.public + l.query
}

// Step is the page of step n.
func (l links) Step(n uint64) string {
	if l.static {
		return fmt.Sprintf("step-%d.html", n)
	}
	return fmt.Sprintf("%s/step/%d%s", l.base, n, l.query)
}

// StepSVG is the board picture of step n.
func (l links) StepSVG(n uint64) string {
	if l.static {
		return fmt.Sprintf("step-%d.svg", n)
	}
	return fmt.Sprintf("%s/step/%d.svg%s", l.base, n, l.query)
}

// StepJSON is step n's report as JSON.
func (l links) StepJSON(n uint64) string {
	if l.static {
		return fmt.Sprintf("step-%d.json", n)
	}
	return fmt.Sprintf("%s/step/%d.json", l.base, n)
}

// Report is the latest report as JSON.
func (l links) Report() string {
	if l.static {
		return "report.json"
	}
	return l.base + "/report.json"
}

// Dice is the dice page.
func (l links) Dice() string {
	if l.static {
		return "dice.html"
	}
	return l.base + "/dice" + l.query
}

// Feed is the game's Atom feed ("" on a private page: feed readers are
// shared too readily for a capability link).
func (l links) Feed() string {
	if l.static {
		return "feed.atom"
	}
	if l.base == "" || l.base != l.public {
		return ""
	}
	return l.base + "/feed.atom"
}

// Asset is a static file, with the build for cache busting.
func (l links) Asset(name string) string {
	if l.static || l.build == "" {
		return path.Join(strings.TrimSuffix(l.assets, "/"), name)
	}
	return l.assets + name + "?v=" + l.build
}
