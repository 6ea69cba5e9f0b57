package templates

import (
	"strings"

	"orrery/engine/lang"
)

// Words that travel to the templates as plain strings from a closed set
// (a step's reason, engine/game; a refusal's kind, pbem/policy), written
// in the reader's language by their id, as messages, rather than matched
// as English by tr. A word outside the set (a reason written by a newer
// engine) goes through tr as before.
var words = map[string]lang.Msg{
	// why a step resolved (engine/game's Step.Reason)
	"setup":            lang.M("setup"),
	"all orders in":    lang.M("all orders in"),
	"deadline":         lang.M("deadline"),
	"forced by the GM": lang.M("forced by the GM"),
	"anytime":          lang.M("anytime"),
	// why a mail was refused for a seat (pbem/policy's kinds)
	"unknown sender": lang.M("unknown sender"),
	"missing secret": lang.M("missing secret"),
	"wrong secret":   lang.M("wrong secret"),
	"your secret, from an address that is not yours": lang.M("your secret, from an address that is not yours"),
}

// word is w in tag when it is one of words, else what tr makes of it.
func (s *Set) word(tag lang.Tag, d *Data, w string) string {
	if m, ok := words[w]; ok {
		return lang.Render(lang.Env{Tag: tag, Catalogs: []*lang.Catalog{s.catalog}}, m)
	}
	return s.phrase(tag, d, w)
}

// redate is utcDate.ReplaceAllStringFunc(text, f), but for a date a
// message already wrote for the reader: one after a weekday of tag
// ("пн 2026-11-23 12:00 UTC", from a time argument of a lang.Msg that
// tr is then given) is left as it is, not given a second weekday.
func (s *Set) redate(tag lang.Tag, text string, f func(string) string) string {
	var b strings.Builder
	last := 0
	for _, loc := range utcDate.FindAllStringIndex(text, -1) {
		b.WriteString(text[last:loc[0]])
		m := text[loc[0]:loc[1]]
		if tag != lang.English && s.afterWeekday(tag, text[:loc[0]]) {
			b.WriteString(m)
		} else {
			b.WriteString(f(m))
		}
		last = loc[1]
	}
	b.WriteString(text[last:])
	return b.String()
}

// afterWeekday reports whether before ends in a weekday of tag and a
// space.
func (s *Set) afterWeekday(tag lang.Tag, before string) bool {
	for _, w := range weekdays {
		if strings.HasSuffix(before, s.catalog.Sprintf(tag, w)+" ") {
			return true
		}
	}
	return false
}
