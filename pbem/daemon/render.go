package daemon

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"orrery/engine"
	"orrery/engine/game"
	"orrery/engine/lang"
	"orrery/engine/store"
	"orrery/pbem/outbox"
	"orrery/pbem/settings"
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
	out.HTML = "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">\n" +
		"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n" +
		"<meta name=\"color-scheme\" content=\"light dark\">\n<meta name=\"supported-color-schemes\" content=\"light dark\">\n" +
		"</head>\n<body style=\"margin:0;padding:0\">\n" +
		strings.Join(bodies, "\n<hr style=\"border:0;border-top:1px solid rgba(128,128,128,.4);margin:16px 0\">\n") + "\n</body></html>\n"
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
			d.Translator, _ = rs.(engine.Translator)
			d.Ruleset = rs
		}
	}
	d.Player, d.Secret = p.Name, p.Secret
	if own := p.OwnName(); own != p.Name {
		d.Name = own
	}
	return d
}

// reader is who a mail is for, as far as its wording goes: the language
// and the time zone of their settings (pbem/settings), and whether they
// want the board's picture. An empty lang means they chose none.
type reader struct {
	lang lang.Tag
	zone *time.Location
	// noPictures: they said SET PICTURES off.
	noPictures bool
}

// readerOf reads addr's settings in tx; an unreadable record is the
// defaults (a mail in English beats no mail).
func readerOf(tx store.Tx, addr string) reader {
	s, err := settings.Get(tx, addr)
	if err != nil {
		return reader{zone: time.UTC}
	}
	return reader{lang: s.Lang(), zone: s.Zone(), noPictures: s.PicturesOff()}
}

// renderNotice renders the mail of notice n with d (m.data for its game and
// reader), worded for r (readerOf the address it goes to).
func (m *Mailer) renderNotice(d *templates.Data, r reader, n game.Notice) (templates.Mail, error) {
	d.Notice = &n
	m.speak(d, r, nil)
	return m.Render.Render(templates.Notice, d)
}

// speak words d for r: their language, or else, for a game that writes in
// each player's own language (engine.Languages), the language view is
// written in, or else English; their time zone; and the ruleset's
// translator for its recorded texts.
func (m *Mailer) speak(d *templates.Data, r reader, view engine.View) {
	var rs engine.Ruleset
	switch {
	case d.Report != nil:
		rs, _ = engine.Find(m.Rulesets, d.Report.Ruleset)
	case d.Info != nil:
		rs, _ = engine.Find(m.Rulesets, d.Info.Name)
	}
	if d.Translator == nil && rs != nil {
		d.Translator, _ = rs.(engine.Translator)
	}
	if d.Ruleset == nil && rs != nil {
		d.Ruleset = rs
	}
	d.Lang, d.Zone = r.lang, r.zone
	if d.Lang == "" {
		d.Lang = lang.Default
		if ls, ok := rs.(engine.Languages); ok && view != nil {
			if t, ok := lang.Parse(ls.ViewLanguage(view)); ok {
				d.Lang = t
			}
		}
	}
}

// PicturesDrawn says how many board pictures this daemon has drawn whole
// and how many from another just drawn (NewViewPictures' painter); and
// how many it drew from the view it kept when it queued the mail, and how
// many from the step read again (a view pushed out by newer ones, or a
// mail another process queued).
func (d *Daemon) PicturesDrawn() (whole, fromAnother, keptView, readAgain int64) {
	if c, ok := d.mailer.Pictures.(interface{ Counts() (int64, int64) }); ok {
		whole, fromAnother = c.Counts()
	}
	keptView, readAgain = d.mailer.views.counts()
	return whole, fromAnother, keptView, readAgain
}

// Picture draws the board picture a mail asks for (outbox.SMTP.Pictures),
// when the mail is sent, as its reader sees the step: the view this
// process kept when it queued the mail, or else the step's state read
// again. A step rolled back since is drawn no more.
func (d *Daemon) Picture(ctx context.Context, p outbox.Picture) ([]byte, error) {
	if d.mailer.Pictures == nil {
		return nil, errors.New("no pictures")
	}
	g, err := d.svc.Get(ctx, p.Game)
	if err != nil {
		return nil, err
	}
	if g.Epoch != p.Epoch {
		return nil, fmt.Errorf("game %s was rolled back since the report of step %d", p.Game, p.Step)
	}
	if view, ok := d.mailer.views.take(keyOf(p)); ok {
		return d.mailer.Pictures.PNG(engine.NotedView(view, p.Notes))
	}
	rep, err := d.svc.StepReport(ctx, p.Game, p.Step, p.Player)
	if err != nil {
		return nil, err
	}
	if rep.View == nil {
		return nil, fmt.Errorf("step %d of %s has no view for %q", p.Step, p.Game, p.Player)
	}
	view := rep.View
	if lz, ok := view.(engine.ViewLocalizer); ok && p.Lang != "" {
		view = lz.Localize(view, p.Lang)
	}
	return d.mailer.Pictures.PNG(engine.NotedView(view, p.Notes))
}
