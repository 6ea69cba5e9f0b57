package templates

import (
	"time"

	"orrery/engine"
	"orrery/engine/dice"
	"orrery/engine/game"
	"orrery/engine/lang"
)

// localized is d as its reader reads it. Every text that came as a
// message (lang.Msg: a notice, an event, a prompt, a phase, a die's
// purpose, the end) is written now in the reader's language and zone,
// from the game's catalog (engine.Cataloger) and then the templates'
// own; a ruleset that draws its board in several languages
// (engine.ViewLocalizer) draws it again for the reader. What was
// recorded without a message (a game from before messages) is put into
// the reader's language as before, by the ruleset's Translator. d itself
// is left as it was; the result shares what did not change.
func (s *Set) localized(d *Data, tag lang.Tag) *Data {
	if d == nil {
		return d
	}
	c := *d
	env := s.env(d, tag, catalogOf(d, d.Report))
	if d.Notice != nil && d.Notice.Msg != nil {
		n := *d.Notice
		n.Text, n.Msg = lang.Render(env, *n.Msg), nil
		c.Notice = &n
	}
	if d.Prompt.Msg != nil {
		c.Prompt.Ask, c.Prompt.Msg = lang.Render(env, *d.Prompt.Msg), nil
	}
	if len(d.Errors) > 0 {
		c.Errors = append([]engine.LineError(nil), d.Errors...)
		for i, e := range c.Errors {
			if e.Why != nil {
				c.Errors[i].Msg = lang.Render(env, *e.Why)
			}
			if e.Hint != nil {
				c.Errors[i].Fix = lang.Render(env, *e.Hint)
			}
		}
	}
	lz, legacy := localizerOf(d, d.Report)
	if tag != lang.English && legacy && d.Prompt.Msg == nil {
		c.Prompt.Ask = translate(lz, tag, c.Prompt.Ask)
	}
	c.Report = s.localReport(d.Report, env, lz, legacy, viewLocalizerOf(d, d.Report), tag)
	if len(d.Digest) > 0 {
		c.Digest = append([]DigestGame(nil), d.Digest...)
		for i, g := range c.Digest {
			// A digest is about several games: each is worded by its own
			// ruleset, found through its report's view.
			var gd *Data
			if g.Ruleset != nil {
				gd = &Data{Ruleset: g.Ruleset}
			}
			genv := s.env(d, tag, catalogOf(gd, g.Report))
			lz, legacy := localizerOf(gd, g.Report)
			c.Digest[i].Report = s.localReport(g.Report, genv, lz, legacy, viewLocalizerOf(gd, g.Report), tag)
			c.Digest[i].News = append([]DigestNews(nil), g.News...)
			for k, n := range c.Digest[i].News {
				c.Digest[i].News[k].Phase = say(genv, n.PhaseMsg, n.Phase)
				c.Digest[i].News[k].Events = sayAll(genv, n.EventMsgs, n.Events)
				if n.TextMsg != nil {
					c.Digest[i].News[k].Text = lang.Render(genv, *n.TextMsg)
				}
				if tag != lang.English && legacy {
					c.Digest[i].News[k].Phase = translate(lz, tag, c.Digest[i].News[k].Phase)
					c.Digest[i].News[k].Events = translateAll(lz, tag, c.Digest[i].News[k].Events)
				}
			}
		}
	}
	return &c
}

// env is how messages are written for d's reader in tag, looked up in
// the game's catalog first.
func (s *Set) env(d *Data, tag lang.Tag, game *lang.Catalog) lang.Env {
	zone := zoneOf(d)
	return lang.Env{Tag: tag, Zone: zone, Catalogs: []*lang.Catalog{game, s.catalog},
		Date: func(t time.Time) string { return s.date(tag, zone, t) }}
}

// localReport is a copy of r worded for the reader: its messages written
// by env, the rest (recorded without messages) translated by a legacy
// Localizer, and its board and status drawn again by vl.
func (s *Set) localReport(r *game.Report, env lang.Env, lz engine.Localizer, legacy bool, vl engine.ViewLocalizer, tag lang.Tag) *game.Report {
	if r == nil {
		return nil
	}
	c := *r
	if c.View != nil && vl != nil && tag != lang.English {
		v := vl.Localize(c.View, string(tag))
		c.Board, c.Status = v.Board(), v.Status()
	}
	c.Phase = say(env, r.PhaseMsg, r.Phase)
	if r.Outcome.Msg != nil {
		c.Outcome.Text = lang.Render(env, *r.Outcome.Msg)
	}
	c.Events = sayAll(env, r.EventMsgs, r.Events)
	c.Prompts = append([]engine.Prompt(nil), r.Prompts...)
	for i, p := range c.Prompts {
		if p.Msg != nil {
			c.Prompts[i].Ask = lang.Render(env, *p.Msg)
		}
	}
	if len(r.Rolls) > 0 {
		c.Rolls = append([]dice.Roll(nil), r.Rolls...)
		for i, x := range c.Rolls {
			if x.Msg != nil {
				c.Rolls[i].Purpose = lang.Render(env, *x.Msg)
			}
		}
	}
	if tag != lang.English && legacy {
		if r.PhaseMsg == nil {
			c.Phase = translate(lz, tag, c.Phase)
		}
		if r.Outcome.Msg == nil {
			c.Outcome.Text = translate(lz, tag, c.Outcome.Text)
		}
		for i := range c.Events {
			if i >= len(r.EventMsgs) || r.EventMsgs[i] == nil {
				c.Events[i] = translate(lz, tag, c.Events[i])
			}
		}
		for i, p := range r.Prompts {
			if p.Msg == nil {
				c.Prompts[i].Ask = translate(lz, tag, c.Prompts[i].Ask)
			}
		}
	}
	return &c
}

// say is m written by env, or text when there is no message.
func say(env lang.Env, m *lang.Msg, text string) string {
	if m == nil {
		return text
	}
	return lang.Render(env, *m)
}

// sayAll is say over a list of texts and their messages.
func sayAll(env lang.Env, msgs []*lang.Msg, texts []string) []string {
	if texts == nil {
		return nil
	}
	out := make([]string, len(texts))
	for i, t := range texts {
		var m *lang.Msg
		if i < len(msgs) {
			m = msgs[i]
		}
		out[i] = say(env, m, t)
	}
	return out
}

// catalogOf is the catalog of d's ruleset, or of the ruleset r's view
// belongs to; nil for a ruleset without one.
func catalogOf(d *Data, r *game.Report) *lang.Catalog {
	for _, x := range candidates(d, r) {
		if c, ok := x.(engine.Cataloger); ok {
			return c.Catalog()
		}
	}
	return nil
}

// viewLocalizerOf is what draws the board of d's game, or of r's, in
// another language.
func viewLocalizerOf(d *Data, r *game.Report) engine.ViewLocalizer {
	for _, x := range candidates(d, r) {
		if vl, ok := x.(engine.ViewLocalizer); ok {
			return vl
		}
	}
	return nil
}

// localizerOf is the legacy Localizer of d's ruleset, or of the ruleset
// r's view belongs to (a view that can word itself for a reader): one
// that translates texts recorded in English.
func localizerOf(d *Data, r *game.Report) (engine.Localizer, bool) {
	for _, x := range candidates(d, r) {
		if lz, ok := x.(engine.Localizer); ok {
			return lz, true
		}
	}
	return nil, false
}

func candidates(d *Data, r *game.Report) []any {
	var out []any
	if d != nil {
		if d.Ruleset != nil {
			out = append(out, d.Ruleset)
		}
		if d.Translator != nil {
			out = append(out, d.Translator)
		}
	}
	if r != nil && r.View != nil {
		out = append(out, r.View)
	}
	return out
}

func translate(lz engine.Localizer, tag lang.Tag, s string) string {
	if out, ok := lz.Translate(string(tag), s); ok {
		return out
	}
	return s
}

func translateAll(lz engine.Localizer, tag lang.Tag, list []string) []string {
	if list == nil {
		return nil
	}
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = translate(lz, tag, s)
	}
	return out
}
