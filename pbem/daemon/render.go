package daemon

import (
	"strings"

	"orrery/engine"
	"orrery/engine/game"
	"orrery/templates"
)

// Renderer renders one kind of mail (templates.Kinds) for a *templates.Data;
// *templates.Set is the one the daemon uses.
type Renderer interface {
	Render(kind string, data any) (templates.Mail, error)
}

// section is one rendered answer; a mail that asked several things gets
// one reply holding every section.
type section = templates.Mail

// merge joins sections into one mail: the first section's subject, the
// texts one after the other, the HTML bodies likewise in one document.
func merge(secs []section) section {
	if len(secs) == 1 {
		return secs[0]
	}
	out := section{Subject: secs[0].Subject}
	var texts, bodies []string
	for _, s := range secs {
		texts = append(texts, strings.TrimRight(s.Text, "\n"))
		bodies = append(bodies, htmlBody(s.HTML))
	}
	out.Text = strings.Join(texts, "\n\n"+strings.Repeat("-", 72)+"\n\n") + "\n"
	out.HTML = "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"></head>\n<body style=\"font-family:sans-serif\">\n" +
		strings.Join(bodies, "\n<hr>\n") + "\n</body></html>\n"
	return out
}

// htmlBody is what lies between <body ...> and </body>.
func htmlBody(h string) string {
	if i := strings.Index(h, "<body"); i >= 0 {
		if j := strings.IndexByte(h[i:], '>'); j >= 0 {
			h = h[i+j+1:]
		}
	}
	if i := strings.LastIndex(h, "</body>"); i >= 0 {
		h = h[:i]
	}
	return strings.TrimSpace(h)
}

// data starts a template's data for player p of game g (either may be zero).
func (m *Mailer) data(g *game.Game, p game.Player, rulesets []engine.Ruleset) *templates.Data {
	d := &templates.Data{Bot: bareAddress(m.From)}
	if g != nil {
		d.Game = g.ID
		d.Deadline = g.Deadline
		d.Waiting = g.Waiting()
		if rs, err := engine.Find(rulesets, g.Ruleset); err == nil {
			info := rs.Info()
			d.Title = info.Title
		}
	}
	d.Player, d.Secret = p.Name, p.Secret
	return d
}
