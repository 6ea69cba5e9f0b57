package templates

import "orrery/engine/lang"

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
