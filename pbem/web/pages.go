package web

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	htmltemplate "html/template"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"orrery/engine"
	"orrery/engine/dice"
	"orrery/engine/game"
	"orrery/engine/lang"
)

// common is what the layout of every page reads.
type common struct {
	Title   string
	L       links
	Private string // the seat of a private page
	Listed  bool   // the game has public pages (a private page links to them)
	Bot     string // where players write
	DiceJS  bool   // the page loads the dice check
	Lang    string // the page's language, for <html lang>
	// Langs are the links to this page in the other languages (none in
	// an archive, written in one language).
	Langs []langLink
	// how the page is worded: its reader's language and zone (viewer)
	tag     lang.Tag
	zone    *time.Location
	catalog *lang.Catalog
}

// gameInfo is what a page may say of a game's record: never an address or
// a secret (a template is handed this, not the record, so that no change to
// a template can print them).
type gameInfo struct {
	ID, Ruleset, Title string
	Step               uint64
	Turn               int
	Phase              string
	Deadline           time.Time
	Waiting            []string
	Seats              []string
	Bots               []string
	Paused, Over       bool
	Signup             bool
	Taken, Total       int
	Outcome            engine.Outcome
	Link               string
}

func (s *Site) info(g *game.Game, link string) gameInfo {
	gi := gameInfo{ID: g.ID, Ruleset: g.Ruleset, Title: g.Ruleset, Step: g.Step, Turn: g.Turn, Phase: g.Phase,
		Deadline: g.Deadline, Waiting: g.Waiting(), Paused: g.Paused, Over: g.Over(), Signup: g.Signup,
		Taken: len(g.Players), Total: g.Seats, Outcome: g.Outcome, Link: link}
	if rs, err := engine.Find(s.cfg.Service.Rulesets(), g.Ruleset); err == nil {
		gi.Title = rs.Info().Title
	}
	for _, p := range g.Players {
		gi.Seats = append(gi.Seats, p.Name)
		if p.Bot {
			gi.Bots = append(gi.Bots, p.Name)
		}
	}
	if g.Over() || g.Signup {
		gi.Waiting = nil
	}
	return gi
}

type indexPage struct {
	common
	Games []gameInfo
	Next  string // the next page's address, "" on the last
	First bool
}

type errorPage struct {
	common
	Status  int
	Message string
}

// reportPage is a game's page (the latest step) or one step's page.
type reportPage struct {
	common
	Game     gameInfo
	Report   *game.Report
	Current  bool       // the latest step: deadline, who is awaited, prompts
	StepPage bool       // a step's own page, not the game's
	Time     time.Time  // when the step resolved
	Picture  *picture   // nil: text board only
	Turns    []turnRefs // the game page's links to every step, latest first
	Prev     *uint64
	Next     *uint64
}

type picture struct{ URL, Alt string }

// turnRefs are the steps of one turn, for the list of every step.
type turnRefs struct {
	Turn   int
	Phases string // the phases of its steps, each once
	Steps  []game.StepInfo
}

type dicePage struct {
	common
	Game   gameInfo
	Steps  []game.StepFacts
	Rolls  int
	Secret string // the dice secret, once the game is over
	Epoch  int    // rollbacks so far: a seed is HMAC(secret, "ID:E:N") for some E up to it
	Scheme string
	// Under scheme 2: the parts of every step, those the reader cannot
	// read yet (sealed: head and hash only), and the hidden streams the
	// page shows.
	Parts, Sealed, Streams int
	// Words are the check's verdicts in the page's language, as JSON
	// in an attribute (dice.js reads it; an inline script block would be
	// one more thing the pages' policy must allow).
	Words string
}

func (s *Site) render(name string, data any) ([]byte, error) {
	var b bytes.Buffer
	tag := lang.English
	if c, ok := data.(interface{ pageTag() lang.Tag }); ok && s.speaks(c.pageTag()) {
		tag = c.pageTag()
	}
	if err := s.pages[tag][name].ExecuteTemplate(&b, "layout", data); err != nil {
		return nil, fmt.Errorf("render %s: %w", name, err)
	}
	return b.Bytes(), nil
}

func (s *Site) common(title string, g *game.Game, v viewer, l links) common {
	tag := v.tag
	if tag == "" || !s.speaks(tag) {
		tag = lang.English
	}
	c := common{Title: title, L: l.withBuild(s.build), Private: v.seat, Listed: g == nil || Listed(g), Bot: s.cfg.Bot,
		Lang: string(tag), tag: tag, zone: v.zone, catalog: s.cfg.Catalog}
	for _, t := range lang.Supported {
		if t != tag && s.speaks(t) && l.In(string(t)) != "" {
			c.Langs = append(c.Langs, langLink{Code: string(t), Name: nativeNames[t], Href: l.In(string(t))})
		}
	}
	return c
}

// langLink is a link to the same page in another language.
type langLink struct{ Code, Name, Href string }

// nativeNames are the languages as their readers write them: the link to
// a language is worded in it.
var nativeNames = map[lang.Tag]string{lang.English: "English", lang.Russian: "Русский"}

// pageTag is the language the page is worded in.
func (c common) pageTag() lang.Tag { return c.tag }

// index is / : the server's games, a page at a time, in id order.
func (s *Site) index(w http.ResponseWriter, r *http.Request) {
	after := r.URL.Query().Get("after")
	list, next, err := s.cfg.Service.GamesPage(r.Context(), after, s.cfg.PageSize, Listed)
	if err != nil {
		s.gameError(w, r, s.askerTag(w, r, nil), err)
		return
	}
	l := links{home: "/", assets: "/assets/", self: "/"}
	v := viewer{}
	var varies bool
	v.tag, varies = s.publicTag(r, nil)
	if varies {
		w.Header().Add("Vary", "Accept-Language")
	}
	if _, ok := s.linkTag(r); ok {
		l.query = "?lang=" + string(v.tag)
	}
	p := indexPage{common: s.common(s.say(v, lang.M("Games on this server")), nil, v, l), First: after == ""}
	for _, g := range list {
		gl := liveLinks(g.ID, "")
		gl.query = l.query
		p.Games = append(p.Games, s.info(g, gl.Game()))
	}
	if next != "" {
		p.Next = "/?after=" + url.QueryEscape(next)
		if l.query != "" {
			p.Next += "&lang=" + string(v.tag)
		}
	}
	body, err := s.render("index.html", p)
	if err != nil {
		s.gameError(w, r, v.tag, err)
		return
	}
	s.write(w, r, "text/html; charset=utf-8", "", body, "no-cache")
}

func pageGame(ctx context.Context, s *Site, g *game.Game, v viewer, l links, _ uint64, _ string) ([]byte, string, error) {
	p, err := s.reportPage(ctx, g, v, l, g.Step, true)
	if err != nil {
		return nil, "", err
	}
	body, err := s.render("report.html", p)
	return body, "text/html; charset=utf-8", err
}

func pageStep(ctx context.Context, s *Site, g *game.Game, v viewer, l links, n uint64, _ string) ([]byte, string, error) {
	p, err := s.reportPage(ctx, g, v, l, n, false)
	if err != nil {
		return nil, "", err
	}
	body, err := s.render("report.html", p)
	return body, "text/html; charset=utf-8", err
}

// reportPage builds the page of step n as v sees it: the game page when
// gamePage (with links to every step), else the step's own page with
// previous and next.
func (s *Site) reportPage(ctx context.Context, g *game.Game, v viewer, l links, n uint64, gamePage bool) (*reportPage, error) {
	p := &reportPage{Game: s.info(g, l.Game()), Current: n == g.Step && !g.Signup}
	title := fmt.Sprintf("%s — %s", g.ID, p.Game.Title)
	if v.seat != "" {
		title = v.seat + " " + s.say(v, lang.M("in")) + " " + title
	}
	if g.Signup {
		p.common = s.common(title, g, v, l)
		return p, nil
	}
	rep, err := s.cfg.Service.StepReport(ctx, g.ID, n, v.player())
	if err != nil {
		return nil, err
	}
	if v.seat == "" {
		rep.Press = nil // public pages: never anyone's press
	}
	if s.cfg.Localize != nil && v.tag != "" && v.tag != lang.English {
		rs, _ := engine.Find(s.cfg.Service.Rulesets(), g.Ruleset)
		zone := v.zone
		if zone == nil {
			zone = time.UTC
		}
		rep = s.cfg.Localize(rep, rs, v.tag, zone)
	}
	p.Report = rep
	if !gamePage {
		p.StepPage = true
		title = s.say(v, lang.M("Step %d of %s", int(n), title))
		if n > 0 {
			prev := n - 1
			p.Prev = &prev
		}
		if n < g.Step {
			next := n + 1
			p.Next = &next
		}
	}
	p.common = s.common(title, g, v, l)
	_, steps, err := s.cfg.Service.Steps(ctx, g.ID)
	if err != nil {
		return nil, err
	}
	p.Time = stepTime(steps, n)
	if gamePage {
		p.Turns = groupByTurn(steps)
	}
	if pic, err := s.picture(ctx, g, v, n); err != nil {
		return nil, err
	} else if pic != nil {
		p.Picture = &picture{URL: l.StepSVG(n), Alt: pic.alt}
	}
	return p, nil
}

// groupByTurn lists steps by turn, latest first.
func groupByTurn(steps []game.StepInfo) []turnRefs {
	var out []turnRefs
	for i := len(steps) - 1; i >= 0; i-- {
		si := steps[i]
		if len(out) == 0 || out[len(out)-1].Turn != si.Turn {
			out = append(out, turnRefs{Turn: si.Turn})
		}
		t := &out[len(out)-1]
		t.Steps = append(t.Steps, si)
	}
	for i := range out {
		sort.Slice(out[i].Steps, func(a, b int) bool { return out[i].Steps[a].N < out[i].Steps[b].N })
		var phases []string
		for _, si := range out[i].Steps {
			if si.Phase != "" && !slices.Contains(phases, si.Phase) {
				phases = append(phases, si.Phase)
			}
		}
		out[i].Phases = strings.Join(phases, ", ")
	}
	return out
}

type drawn struct {
	svg []byte
	alt string
}

// picture draws the board of step n as v sees it; nil when there is no
// drawing (no Picture configured, the ruleset draws none, or an observer
// of a ruleset without a public view).
func (s *Site) picture(ctx context.Context, g *game.Game, v viewer, n uint64) (*drawn, error) {
	if s.cfg.Picture == nil {
		return nil, nil
	}
	view, err := s.cfg.Service.StepView(ctx, g.ID, n, v.player())
	if err != nil || view == nil {
		return nil, err
	}
	view = engine.NotedView(s.localView(g, view, v.tag), s.handNotes(g, v, n))
	svg, alt, err := s.cfg.Picture(view)
	if err != nil {
		return nil, fmt.Errorf("draw step %d of %s: %w", n, g.ID, err)
	}
	if svg == nil {
		return nil, nil
	}
	return &drawn{svg: svg, alt: alt}, nil
}

// handNotes are the notes under the picture of step n saying who played
// the seats that had changed hands then ("bob: played by eve"), in the
// page's language, as the mails write them.
func (s *Site) handNotes(g *game.Game, v viewer, n uint64) []string {
	hs := g.HandsAt(n)
	if v.seat == "" {
		hs = g.PublicHandsAt(n)
	}
	var out []string
	for _, m := range game.HandNotes(hs) {
		out = append(out, s.say(v, m))
	}
	return out
}

// localView is view drawn in tag, as the mails draw it: by the view's or
// its ruleset's engine.ViewLocalizer; as it is without one.
func (s *Site) localView(g *game.Game, view engine.View, tag lang.Tag) engine.View {
	if tag == "" || tag == lang.English {
		return view
	}
	if vl, ok := view.(engine.ViewLocalizer); ok {
		return vl.Localize(view, string(tag))
	}
	if rs, err := engine.Find(s.cfg.Service.Rulesets(), g.Ruleset); err == nil {
		if vl, ok := rs.(engine.ViewLocalizer); ok {
			return vl.Localize(view, string(tag))
		}
	}
	return view
}

func pageSVG(ctx context.Context, s *Site, g *game.Game, v viewer, _ links, n uint64, _ string) ([]byte, string, error) {
	pic, err := s.picture(ctx, g, v, n)
	if err != nil || pic == nil {
		return nil, "", err
	}
	return pic.svg, "image/svg+xml; charset=utf-8", nil
}

func pageDice(ctx context.Context, s *Site, g *game.Game, v viewer, l links, _ uint64, _ string) ([]byte, string, error) {
	p, err := s.dicePage(ctx, g, v, l)
	if err != nil {
		return nil, "", err
	}
	body, err := s.render("dice.html", p)
	return body, "text/html; charset=utf-8", err
}

func (s *Site) dicePage(ctx context.Context, g *game.Game, v viewer, l links) (*dicePage, error) {
	_, steps, err := s.cfg.Service.Facts(ctx, g.ID, v.player())
	if err != nil {
		return nil, err
	}
	title := s.say(v, lang.M("Dice of %s", g.ID))
	if v.seat != "" {
		title = s.say(v, lang.M("%s's dice of %s", v.seat, g.ID))
	}
	p := &dicePage{common: s.common(title, g, v, l), Game: s.info(g, l.Game()), Steps: steps, Epoch: g.Epoch, Scheme: SchemeOf(g)}
	p.DiceJS = true
	words, err := json.Marshal(s.diceWords(p.tag))
	if err != nil {
		return nil, err
	}
	p.Words = string(words)
	if s.cfg.Localize != nil && p.tag != lang.English {
		// Each roll's purpose and each step's phase as the reader's
		// reports word them (the messages they were recorded with).
		rs, _ := engine.Find(s.cfg.Service.Rulesets(), g.Ruleset)
		zone := v.zone
		if zone == nil {
			zone = time.UTC
		}
		steps = slices.Clone(steps)
		for i, st := range steps {
			rep := s.cfg.Localize(&game.Report{Phase: st.Phase, Rolls: st.Rolls}, rs, p.tag, zone)
			steps[i].Phase, steps[i].Rolls = rep.Phase, rep.Rolls
		}
		p.Steps = steps
	}
	for _, st := range steps {
		p.Rolls += len(st.Rolls)
		p.Parts += len(st.Inputs)
		p.Sealed += sealed(st.Inputs)
		p.Streams += len(st.Streams)
	}
	if g.Over() {
		p.Secret = g.DiceSecret
	}
	return p, nil
}

// Drawn is the Picture of the boards engine/draw draws: a view that is an
// engine.Drawer (players' views and the public view of every ruleset) gives
// its picture as SVG, with the picture's own short text alternative; the
// page puts the board's text form beside it.
func Drawn(v engine.View) ([]byte, string, error) {
	d, ok := v.(engine.Drawer)
	if !ok {
		return nil, "", nil
	}
	p := d.Picture()
	if p == nil {
		return nil, "", nil
	}
	svg, err := p.SVG()
	if err != nil {
		return nil, "", err
	}
	return svg, p.Alt(), nil
}

// SchemeOf names the dice scheme a game's rolls were made with (the one
// the game recorded at setup, engine/game's Scheme), which the dice page's
// check follows: under "1" a step's seed is HMAC-SHA256(secret,
// "ID:EPOCH:STEP") and every roll comes from it; under "2" that is the
// hidden seed H, the seed is SHA-256(H), and the rolls come from
// SHA-256("SEED:DIGEST") and the streams SHA-256("H:DIGEST:KEY") (see
// engine/dice). A new scheme is one more entry in dice.js and its words on
// the dice page.
func SchemeOf(g *game.Game) string { return strconv.Itoa(g.Scheme()) }

// readable reports whether a part's salt and lines are on the page: a
// public part, or a secret one its reader may read (which then has its
// salt); a sealed part has its head and hash only.
func readable(p dice.Part) bool { return !p.Hidden || p.Salt != "" }

// sealed counts the parts whose text the reader may not read yet.
func sealed(parts []dice.Part) int {
	n := 0
	for _, p := range parts {
		if !readable(p) {
			n++
		}
	}
	return n
}

// funcs are the templates' helpers.
var funcs = htmltemplate.FuncMap{
	"iso": func(t time.Time) string { return t.UTC().Format(time.RFC3339) },
	"utc": func(t time.Time) string { return t.UTC().Format("Mon 2 Jan 2006 15:04 UTC") },
	"names": func(list []string) string {
		return strings.Join(list, ", ")
	},
	"trimnl": func(s string) string { return strings.Trim(s, "\n") },
	"roll":   func(r dice.Roll) string { return r.String() },
	// lines is a part's lines as JSON, for the dice check to read exactly
	// (an empty line, or none, is not lost as it would be in text).
	"lines": func(l []string) (string, error) {
		if l == nil {
			l = []string{}
		}
		b, err := json.Marshal(l)
		return string(b), err
	},
	"readable": readable,
	"sealed":   sealed,
	"plural": func(n int, one, many string) string {
		if n == 1 {
			return fmt.Sprintf("%d %s", n, one)
		}
		return fmt.Sprintf("%d %s", n, many)
	},
	"blocking": func(p engine.Prompt) bool { return p.Kind.Blocks() },
	"short": func(h string) string {
		if len(h) > 16 {
			return h[:16] + "…"
		}
		return h
	},
	"deref": func(n *uint64) uint64 { return *n },
}

// stepTime is when step n of steps resolved (zero when it is not among
// them).
func stepTime(steps []game.StepInfo, n uint64) time.Time {
	for _, si := range steps {
		if si.N == n {
			return si.Time
		}
	}
	return time.Time{}
}
