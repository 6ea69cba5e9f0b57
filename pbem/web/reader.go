package web

import (
	"context"
	"fmt"
	htmltemplate "html/template"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"

	"orrery/engine/game"
	"orrery/engine/lang"
	"orrery/engine/store"
	"orrery/pbem/settings"
)

// The pages are worded in the reader's language: a private page in its
// seat's (the language of the address's settings, as its mails are, or
// the one chosen when the seat was taken), with dates in the zone of
// those settings, written here rather than by the browser, so that they
// read as the reader's mails do. A public page has no known reader (see
// publicTag below): its dates are in UTC, and local.js puts them in the
// browser's zone.
// The pages' words are messages of templates/lang/<code>-web.po (see
// templates.WebCatalog), found by t in templates/web/*.html.

// readerOf is the language and zone of seat's player in g.
func (s *Site) readerOf(ctx context.Context, g *game.Game, seat string) (lang.Tag, *time.Location) {
	tag, zone := lang.English, time.UTC
	p, ok := g.PlayerByName(seat)
	if !ok {
		return tag, zone
	}
	if t, ok := lang.Parse(p.Lang); ok {
		tag = t
	}
	if p.Email == "" {
		return tag, zone
	}
	_ = s.cfg.Service.Store().View(ctx, func(tx store.Tx) error {
		set, err := settings.Get(tx, p.Email)
		if err != nil {
			return err
		}
		if t := set.Lang(); t != "" {
			tag = t
		}
		zone = set.Zone()
		return nil
	})
	if !s.speaks(tag) {
		tag = lang.English
	}
	return tag, zone
}

// speaks reports whether the pages can be worded in tag.
func (s *Site) speaks(tag lang.Tag) bool {
	if tag == lang.English {
		return true
	}
	_, ok := s.pages[tag]
	return ok
}

// funcsFor are the templates' helpers for pages in tag: t translates a
// page's own words (an English fmt format, as the mail templates' t).
func funcsFor(c *lang.Catalog, tag lang.Tag) htmltemplate.FuncMap {
	fm := htmltemplate.FuncMap{}
	for k, v := range funcs {
		fm[k] = v
	}
	// t's result is escaped here, not by html/template, which would
	// also write an apostrophe as &#39; ("ann&#39;s private page"),
	// unlike the words of the templates themselves.
	fm["t"] = func(format string, args ...any) htmltemplate.HTML {
		out := fmt.Sprintf(format, args...)
		if tag != lang.English && c != nil {
			out = c.Sprintf(tag, format, args...)
		}
		return htmltemplate.HTML(textEscaper.Replace(out))
	}
	// th is t for a sentence with markup of its own (<b>, <code>, <i>,
	// <sup>): its format and translation are trusted as the template
	// itself is (they come from it and from our PO files), and only its
	// arguments are escaped.
	fm["th"] = func(format string, args ...any) htmltemplate.HTML {
		esc := make([]any, len(args))
		for i, a := range args {
			if s, ok := a.(string); ok {
				a = textEscaper.Replace(s)
			}
			esc[i] = a
		}
		if tag == lang.English {
			return htmltemplate.HTML((*lang.Catalog)(nil).Sprintf(tag, format, esc...))
		}
		return htmltemplate.HTML(c.Sprintf(tag, format, esc...))
	}
	// tn is t for a message chosen by a count: one and other are its
	// English forms ("%d part", "%d parts").
	fm["tn"] = func(n int, one, other string) htmltemplate.HTML {
		out := lang.Noun(lang.English, n, one, other)
		if tag != lang.English && c != nil {
			out = c.Nprintf(tag, n, one, other)
		} else {
			out = fmt.Sprintf(out, n)
		}
		return htmltemplate.HTML(textEscaper.Replace(out))
	}
	return fm
}

// stamp is a time as a page shows it: ISO for the machine, Text for the
// reader; Zoned when the server wrote it in the reader's own zone (the
// browser then leaves it alone).
type stamp struct {
	ISO, Text string
	Zoned     bool
}

// Stamp is t for the page's reader.
func (c common) Stamp(t time.Time) stamp {
	st := stamp{ISO: t.UTC().Format(time.RFC3339)}
	if c.tag == "" || c.tag == lang.English && (c.zone == nil || c.zone == time.UTC) {
		st.Text = t.UTC().Format("Mon 2 Jan 2006 15:04 UTC")
		return st
	}
	if c.zone == nil {
		// A public page: its reader's zone is the browser's (local.js).
		st.Text = dateIn(c.catalog, c.tag, time.UTC, t)
		return st
	}
	st.Zoned, st.Text = true, dateIn(c.catalog, c.tag, c.zone, t)
	return st
}

// dateIn writes t as the mails do: "Thu 2026-11-26 21:00 MSK (18:00
// UTC)", with the weekday in the reader's language.
func dateIn(c *lang.Catalog, tag lang.Tag, zone *time.Location, t time.Time) string {
	wd := func(x time.Time) string { return c.Sprintf(tag, x.Weekday().String()[:3]) }
	u := t.UTC()
	if zone == nil || zone == time.UTC || zone.String() == "UTC" {
		return fmt.Sprintf("%s %s UTC", wd(u), u.Format("2006-01-02 15:04"))
	}
	l := t.In(zone)
	abbr := l.Format("MST")
	if strings.HasPrefix(abbr, "+") || strings.HasPrefix(abbr, "-") {
		abbr = "UTC" + abbr
	}
	utc := u.Format("15:04") + " UTC"
	if u.Format("2006-01-02") != l.Format("2006-01-02") {
		utc = wd(u) + " " + utc
	}
	return fmt.Sprintf("%s %s %s (%s)", wd(l), l.Format("2006-01-02 15:04"), abbr, utc)
}

// textEscaper escapes what may not stand as itself in an element's text
// or a double-quoted attribute.
var textEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;")

// say is m in v's language: a page's title.
func (s *Site) say(v viewer, m lang.Msg) string {
	return lang.Render(lang.Env{Tag: v.tag, Catalogs: []*lang.Catalog{s.cfg.Catalog}}, m)
}

// A public page's reader is unknown, so its language is chosen, in this
// order, by the link (?lang=ru, which the other-language link of every
// page carries), by the browser's Accept-Language, by the game's own
// language (gameLang), else English. Its dates are written in UTC and
// local.js rewrites them in the browser's zone, in the page's language.

// publicTag is the language of a public page for r; varies reports that
// the Accept-Language header was read to choose it (the answer then
// varies by it: Vary).
func (s *Site) publicTag(r *http.Request, g *game.Game) (tag lang.Tag, varies bool) {
	if t, ok := s.linkTag(r); ok {
		return t, false
	}
	if t, ok := s.accepted(r.Header.Get("Accept-Language")); ok {
		return t, true
	}
	if g != nil {
		if t := gameLang(g); t != "" && s.speaks(t) {
			return t, true
		}
	}
	return lang.English, true
}

// accepted is the first language of an Accept-Language header (RFC 9110
// 12.5.4: by weight, then by order) that the pages speak.
func (s *Site) accepted(header string) (lang.Tag, bool) {
	type choice struct {
		tag lang.Tag
		q   float64
		i   int
	}
	var list []choice
	for i, item := range strings.Split(header, ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(item), ";")
		q := 1.0
		for _, p := range strings.Split(params, ";") {
			if k, v, ok := strings.Cut(strings.TrimSpace(p), "="); ok && strings.EqualFold(k, "q") {
				if f, err := strconv.ParseFloat(v, 64); err == nil {
					q = f
				}
			}
		}
		if q <= 0 {
			continue
		}
		// Only codes: Parse also takes "russian", which no browser sends.
		code := strings.ToLower(name)
		if i := strings.IndexAny(code, "-_"); i > 0 {
			code = code[:i]
		}
		if len(code) != 2 {
			continue
		}
		if t, ok := lang.Parse(code); ok && s.speaks(t) {
			list = append(list, choice{t, q, i})
		}
	}
	if len(list) == 0 {
		return "", false
	}
	sort.SliceStable(list, func(a, b int) bool { return list[a].q > list[b].q })
	return list[0].tag, true
}

// gameLang is a game's own language: the one every seated player who
// chose a language chose, "" when none did or they differ (a game record
// has no language of its own).
func gameLang(g *game.Game) lang.Tag {
	var tag lang.Tag
	for _, p := range g.Players {
		t, ok := lang.Parse(p.Lang)
		if !ok {
			continue
		}
		if tag != "" && t != tag {
			return ""
		}
		tag = t
	}
	return tag
}

// linkTag is the language the link asks for (?lang=ru), if the pages
// speak it.
func (s *Site) linkTag(r *http.Request) (lang.Tag, bool) {
	q := r.URL.Query().Get("lang")
	if q == "" {
		return "", false
	}
	t, ok := lang.Parse(q)
	return t, ok && s.speaks(t)
}
