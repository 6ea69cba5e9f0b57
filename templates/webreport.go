package templates

import (
	"time"

	"orrery/engine"
	"orrery/engine/game"
	"orrery/engine/lang"
)

// LocalReport is r worded for a reader of tag in zone, as a mail's report
// is (see localized): its events, prompts, phase, dice and end written
// from their messages, or translated by the ruleset rs; its board drawn
// in tag where rs can. The web pages (pbem/web) show a private page's
// report through it. r itself is left as it was.
func (s *Set) LocalReport(r *game.Report, rs engine.Ruleset, tag lang.Tag, zone *time.Location) *game.Report {
	if r == nil {
		return nil
	}
	d := &Data{Report: r, Ruleset: rs, Lang: tag, Zone: zone}
	if tr, ok := rs.(engine.Translator); ok {
		d.Translator = tr
	}
	return s.localized(d, tag).Report
}
