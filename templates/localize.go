package templates

import (
	"orrery/engine"
	"orrery/engine/lang"
)

// localized is d as its reader reads it when the game's ruleset records
// its own texts in English whatever its players read and words them for
// the reader only now (engine.Localizer, Prosper): the report's board and
// status are drawn again in the reader's language, and its events and
// questions are translated. The phase, the dice and the end go through
// the templates' phase and roll, as for every ruleset. d itself is left
// as it was; for any other ruleset, or an English reader, it is returned
// unchanged.
func localized(d *Data, tag lang.Tag) *Data {
	if d == nil || tag == lang.English {
		return d
	}
	lz, ok := d.Translator.(engine.Localizer)
	if !ok {
		return d
	}
	say := func(s string) string {
		if out, ok := lz.Translate(string(tag), s); ok {
			return out
		}
		return s
	}
	c := *d
	c.Prompt.Ask = say(c.Prompt.Ask)
	if d.Report != nil {
		r := *d.Report
		if r.View != nil {
			v := lz.Localize(r.View, string(tag))
			r.Board, r.Status = v.Board(), v.Status()
		}
		r.Events = make([]string, len(d.Report.Events))
		for i, e := range d.Report.Events {
			r.Events[i] = say(e)
		}
		r.Prompts = append([]engine.Prompt(nil), d.Report.Prompts...)
		for i := range r.Prompts {
			r.Prompts[i].Ask = say(r.Prompts[i].Ask)
		}
		c.Report = &r
	}
	return &c
}
