package templates

import (
	"orrery/engine"
	"orrery/engine/game"
	"orrery/engine/lang"
)

// localized is d as its reader reads it when the game's ruleset records
// its own texts in English whatever its players read and words them for
// the reader only now (engine.Localizer, Prosper): a report's board and
// status are drawn again in the reader's language, and its events, phase,
// questions and end are translated; so are the news of a digest, game by
// game. d itself is left as it was; for any other ruleset, or an English
// reader, it is returned unchanged.
func localized(d *Data, tag lang.Tag) *Data {
	if d == nil || tag == lang.English {
		return d
	}
	c := *d
	changed := false
	if lz, ok := localizerOf(d, d.Report); ok {
		c.Prompt.Ask = translate(lz, tag, c.Prompt.Ask)
		c.Report = localReport(d.Report, lz, tag)
		changed = true
	}
	if len(d.Digest) > 0 {
		c.Digest = append([]DigestGame(nil), d.Digest...)
		for i, g := range c.Digest {
			// A digest is about several games: each is worded by its own
			// ruleset, found through its report's view.
			lz, ok := localizerOf(nil, g.Report)
			if !ok {
				continue
			}
			changed = true
			c.Digest[i].Report = localReport(g.Report, lz, tag)
			c.Digest[i].News = append([]DigestNews(nil), g.News...)
			for k, n := range c.Digest[i].News {
				c.Digest[i].News[k].Phase = translate(lz, tag, n.Phase)
				c.Digest[i].News[k].Events = translateAll(lz, tag, n.Events)
			}
		}
	}
	if !changed {
		return d
	}
	return &c
}

// localizerOf is the Localizer of d's ruleset, or of the ruleset r's view
// belongs to (a view that can word itself for a reader).
func localizerOf(d *Data, r *game.Report) (engine.Localizer, bool) {
	if d != nil {
		if lz, ok := d.Translator.(engine.Localizer); ok {
			return lz, true
		}
	}
	if r != nil && r.View != nil {
		if lz, ok := r.View.(engine.Localizer); ok {
			return lz, true
		}
	}
	return nil, false
}

// localReport is a copy of r worded in tag by lz.
func localReport(r *game.Report, lz engine.Localizer, tag lang.Tag) *game.Report {
	if r == nil {
		return nil
	}
	c := *r
	if c.View != nil {
		v := lz.Localize(c.View, string(tag))
		c.Board, c.Status = v.Board(), v.Status()
	}
	c.Phase = translate(lz, tag, c.Phase)
	c.Outcome.Text = translate(lz, tag, c.Outcome.Text)
	c.Events = translateAll(lz, tag, r.Events)
	c.Prompts = append([]engine.Prompt(nil), r.Prompts...)
	for i := range c.Prompts {
		c.Prompts[i].Ask = translate(lz, tag, c.Prompts[i].Ask)
	}
	return &c
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
