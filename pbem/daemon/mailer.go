package daemon

import (
	"fmt"
	"strings"

	"orrery/engine"
	"orrery/engine/draw"
	"orrery/engine/game"
	"orrery/engine/lang"
	"orrery/engine/store"
	"orrery/pbem/bounce"
	"orrery/pbem/outbox"
	"orrery/pbem/reportjson"
	"orrery/templates"
)

// Mailer turns game changes into queued mail. Its Hook runs inside the
// transaction of every change made through a game.Service that has it
// (game.WithHooks), whether the change came from a mail, a deadline or the
// GM's command line, so every report and notice is queued exactly when the
// change commits.
type Mailer struct {
	From string // "Orrery <orrery@example.org>"
	// GM receives notices addressed to the game master ("" = none).
	GM string
	// Enqueue queues a mail inside tx: outbox.Enqueue, or a Queue's
	// Enqueue to wake its worker on commit.
	Enqueue  func(tx store.Tx, m outbox.Mail) error
	Render   Renderer
	Rulesets []engine.Ruleset
	// WebLink, if set, puts each player's private page in their report
	// and welcome mails.
	WebLink WebLink
	// Pictures draws boards (ViewPictures by default); nil sends reports
	// without a picture.
	Pictures Pictures
	// UnsubURL is the web pages' address when they run: List-Unsubscribe
	// then names an https: URI beside the mailto: (unsubscribe.go).
	UnsubURL string
	// views are the views of the pictures lately asked for, kept for the
	// drawing (NewMailer makes it; nil keeps none).
	views *views
}

// WebLink returns the address of seat p's private web page. It runs in the
// transaction that queues the mail (a first link makes the key of links).
type WebLink func(tx store.Tx, g *game.Game, p game.Player) (string, error)

// webLink is p's private page, or "" when the daemon serves no pages.
func (m *Mailer) webLink(tx store.Tx, g *game.Game, p game.Player) (string, error) {
	if m.WebLink == nil {
		return "", nil
	}
	link, err := m.WebLink(tx, g, p)
	if err != nil {
		return "", fmt.Errorf("private page of %s in %s: %w", p.Name, g.ID, err)
	}
	return link, nil
}

// Pictures draws the picture of a board for the mail, from the same view
// as the ASCII board (never a second source of truth). The outbox draws a
// batch's pictures several at once (outbox.SMTP.Drawers), so PNG must be
// safe to call from several goroutines.
type Pictures interface {
	// Describe says whether v has a picture, what it shows (its alt text,
	// for readers who cannot see it) and its width in pixels.
	Describe(v engine.View) (alt string, width int, ok bool)
	// PNG draws it.
	PNG(v engine.View) ([]byte, error)
}

// ViewPictures draws the pictures views draw of themselves (engine.Drawer,
// with engine/draw): the mailer's default. The zero value draws each
// picture whole; NewViewPictures draws with a painter.
type ViewPictures struct {
	painter *draw.Painter
}

// picturesKept is how many pictures a daemon's painter keeps to draw the
// next from (about 4 MB each): the seats of a step are queued together,
// and the outbox draws a batch's pictures a core at a time.
const picturesKept = 4

// NewViewPictures returns ViewPictures drawing with a draw.Painter: each
// seat's picture of a step from another seat's just drawn, repainted only
// where the two differ (their "(you)", their own pieces). The bytes are
// those the picture gives drawn whole; the CPU is about half.
func NewViewPictures() ViewPictures { return ViewPictures{painter: draw.NewPainter(picturesKept)} }

// Counts says how many pictures were drawn whole and how many from another
// (zeros for the zero ViewPictures).
func (vp ViewPictures) Counts() (fresh, reused int64) {
	if vp.painter == nil {
		return 0, 0
	}
	return vp.painter.Counts()
}

// Describe builds v's drawing model for its alt text and width.
func (ViewPictures) Describe(v engine.View) (string, int, bool) {
	d, ok := v.(engine.Drawer)
	if !ok {
		return "", 0, false
	}
	p := d.Picture()
	if p == nil {
		return "", 0, false
	}
	// The mail shows the picture laid out for a phone, this wide in CSS
	// px; the PNG has MailScale times its pixels.
	return p.Alt(), p.Mail().W, true
}

// PNG draws v's mail picture (Mail), at MailScale times its CSS size.
func (vp ViewPictures) PNG(v engine.View) ([]byte, error) {
	d, ok := v.(engine.Drawer)
	if !ok {
		return nil, fmt.Errorf("this view draws no picture")
	}
	p := d.Picture()
	if p == nil {
		return nil, fmt.Errorf("this view draws no picture")
	}
	p = p.Mail().Scaled(draw.MailScale)
	if vp.painter != nil {
		return vp.painter.PNG(p)
	}
	return p.PNG()
}

// PictureFunc adapts a drawing function to Pictures: draw returns the
// PNG (at MailScale: its CSS width is half its pixels) and its alt text,
// ok false for a view with no picture. It draws
// twice per mail (once to describe, once to send); a Pictures that builds
// its drawing model apart from the PNG does better.
type PictureFunc func(v engine.View) (png []byte, alt string, ok bool)

// Describe draws v and keeps the alt text.
func (f PictureFunc) Describe(v engine.View) (string, int, bool) {
	png, alt, ok := f(v)
	if !ok || len(png) < 24 {
		return "", 0, false
	}
	return alt, pngWidth(png) / draw.MailScale, true
}

// PNG draws v.
func (f PictureFunc) PNG(v engine.View) ([]byte, error) {
	png, _, ok := f(v)
	if !ok {
		return nil, fmt.Errorf("this view has no picture")
	}
	return png, nil
}

// pngWidth reads the width from a PNG's header (0 if it is not one).
func pngWidth(b []byte) int {
	if len(b) < 24 || string(b[1:4]) != "PNG" {
		return 0
	}
	return int(b[16])<<24 | int(b[17])<<16 | int(b[18])<<8 | int(b[19])
}

// reportMail builds the mail of report rep to addr: the rendered kind,
// the board picture (drawn when the mail is sent; none for a reader who
// said SET PICTURES off) and report.json.
func (m *Mailer) reportMail(tx store.Tx, g *game.Game, addr, kind, mailKind string, d *templates.Data) (outbox.Mail, error) {
	rep := d.Report
	r := readerOf(tx, addr)
	m.speak(d, r, rep.View)
	var pic *outbox.Picture
	if m.Pictures != nil && rep.View != nil && !r.noPictures {
		view, pictureLang := localView(rep.View, d.Lang)
		notes := m.handNotes(rep.Hands, d.Lang)
		if alt, width, ok := m.Pictures.Describe(engine.NotedView(view, notes)); ok {
			who := rep.Player
			if rep.Public {
				who = game.Observer
			}
			cid := fmt.Sprintf("board.%s.%d.%d@%s", g.ID, g.Epoch, rep.Step, m.domain())
			d.Picture = &templates.Picture{CID: cid, Alt: alt, Width: min(width, 860)}
			pic = &outbox.Picture{Game: g.ID, Epoch: g.Epoch, Step: rep.Step, Player: who, ContentID: cid,
				Name: fmt.Sprintf("%s-turn%d.png", g.ID, rep.Turn), Lang: pictureLang, Notes: notes}
			// Kept once the mail is queued for good, for the drawing.
			k := keyOf(*pic)
			tx.OnCommit(func() { m.views.put(k, view) })
		}
	}
	c, err := m.Render.Render(kind, d)
	if err != nil {
		return outbox.Mail{}, err
	}
	out := m.gameMail(g, addr, mailKind, c)
	out.Picture = pic
	if js, err := reportjson.Marshal(rep); err == nil {
		out.Files = append(out.Files, outbox.File{Name: reportjson.Name, ContentType: "application/json", Data: js})
	}
	out.Headers["X-Orrery-Step"] = fmt.Sprint(rep.Step)
	return out, nil
}

// localView is v worded for a reader of tag when its ruleset words its
// views only when they are shown (engine.Localizer), and the language to
// draw its picture in then; otherwise v itself and "".
func localView(v engine.View, tag lang.Tag) (engine.View, string) {
	lz, ok := v.(engine.Localizer)
	if !ok || tag == "" || tag == lang.Default {
		return v, ""
	}
	return lz.Localize(v, string(tag)), string(tag)
}

// NewMailer returns a mailer with the embedded templates, or those of
// templateDir overriding them.
func NewMailer(from, gm, templateDir string, rulesets []engine.Ruleset) (*Mailer, error) {
	set, err := templates.New(templateDir)
	if err != nil {
		return nil, err
	}
	return &Mailer{From: from, GM: gm, Render: set, Rulesets: rulesets, Pictures: NewViewPictures(), views: newViews(viewsKept)}, nil
}

func (m *Mailer) domain() string { return outbox.Domain(m.From) }

// RootID is the Message-ID every mail of a game refers to, so that mail
// clients thread a whole game together.
func (m *Mailer) RootID(gameID string) string { return "game-" + gameID + ".orrery@" + m.domain() }

// NewMessageID returns a Message-ID of ours: policy recognises its suffix
// when our own mail comes back.
func (m *Mailer) NewMessageID() string { return outbox.NewMessageID(m.domain()) }

// StepMessageID returns a Message-ID of ours that says which step of which
// game the mail was written at: "<random>.<game>.e<epoch>s<step>.orrery@
// <domain>". A player's reply carries it in In-Reply-To and References,
// so the daemon knows the step the reply was written against (StepShown)
// without keeping a table of every mail it sent.
func (m *Mailer) StepMessageID(gameID string, epoch int, step uint64) string {
	id := outbox.NewMessageID(m.domain())
	rnd, _, _ := strings.Cut(id, ".")
	return fmt.Sprintf("%s.%s.e%ds%d%s", rnd, gameID, epoch, step, m.OwnSuffix())
}

// OwnSuffix ends every Message-ID this mailer makes.
func (m *Mailer) OwnSuffix() string { return ".orrery@" + m.domain() }

func (m *Mailer) enqueue(tx store.Tx, out outbox.Mail) error {
	if len(out.To) == 1 && bounce.Unreachable(tx, bareAddress(out.To[0])) {
		return nil // its mail bounces: the GM and the players were told
	}
	if len(out.To) == 1 && (out.Kind == "observer" || out.Kind == "digest") && bounce.Complained(tx, bareAddress(out.To[0])) {
		return nil // it marked our mail as spam: only what it asks for goes (complaint.go)
	}
	if out.From == "" {
		out.From = m.From
	}
	if out.MessageID == "" {
		out.MessageID = m.NewMessageID()
	}
	if err := m.listHeaders(tx, &out); err != nil {
		return err
	}
	if m.Enqueue == nil {
		return outbox.Enqueue(tx, out)
	}
	return m.Enqueue(tx, out)
}

// gameMail is a mail about game g to one address, threaded under the game.
func (m *Mailer) gameMail(g *game.Game, to, kind string, c section) outbox.Mail {
	root := m.RootID(g.ID)
	return outbox.Mail{
		MessageID:  m.StepMessageID(g.ID, g.Epoch, g.Step),
		To:         []string{to},
		Subject:    c.Subject,
		Text:       c.Text,
		HTML:       c.HTML,
		InReplyTo:  root,
		References: []string{root},
		Auto:       "auto-generated",
		Headers:    map[string]string{"X-Orrery-Game": g.ID},
		Kind:       kind,
		Game:       g.ID,
	}
}

// Hook queues the mails a change causes: the welcome mail with the setup
// report when a game starts, each player's report of every step, and
// notices.
func (m *Mailer) Hook(tx store.Tx, c *game.Change) error {
	g := c.Game
	if g == nil {
		return nil
	}
	for _, st := range c.Steps {
		for _, p := range g.Players {
			if p.Email == "" || p.Bot {
				continue
			}
			rep, err := st.Report(p.Name)
			if err != nil {
				return fmt.Errorf("report of step %d for %s: %w", st.N, p.Name, err)
			}
			d := m.data(g, p, m.Rulesets)
			d.Report = rep
			if d.Web, err = m.webLink(tx, g, p); err != nil {
				return err
			}
			kind := templates.Report
			if st.N == 0 && !rolledBack(c) {
				// The setup step: the game has just started (a rollback
				// to it sends the report again, not a second welcome).
				kind = templates.Welcome
				d.Players = g.Players
				if rs, err := engine.Find(m.Rulesets, g.Ruleset); err == nil {
					info := rs.Info()
					d.Info = &info
				}
			}
			// X-Orrery-Step names the step the report shows: the demo's
			// players answer the report of the current step, as people
			// would, and a reply names it by the Message-ID.
			out, err := m.reportMail(tx, g, p.Email, kind, kind, d)
			if err != nil {
				return err
			}
			out.MessageID = m.StepMessageID(g.ID, g.Epoch, st.N)
			news := &digestNews{Game: g.ID, Seat: p.Name, Time: st.Time, Kind: "report", Step: st.N, Turn: rep.Turn, Phase: rep.Phase, Events: rep.Events, PhaseMsg: rep.PhaseMsg, EventMsgs: rep.EventMsgs}
			if kind == templates.Welcome {
				news = nil // the secret and the rules go at once
			}
			if err := m.post(tx, out, news); err != nil {
				return err
			}
		}
	}
	for _, st := range c.Steps {
		if st.N == 0 || len(g.Observers) == 0 {
			continue
		}
		rep, err := publicReport(st)
		if err != nil {
			return err
		}
		for _, addr := range g.Observers {
			d := m.data(g, game.Player{}, m.Rulesets)
			d.Report = rep
			out, err := m.reportMail(tx, g, addr, templates.Report, "observer", d)
			if err != nil {
				return err
			}
			news := &digestNews{Game: g.ID, Time: st.Time, Kind: "report", Step: st.N, Turn: rep.Turn, Phase: rep.Phase, Events: rep.Events, PhaseMsg: rep.PhaseMsg, EventMsgs: rep.EventMsgs}
			if err := m.post(tx, out, news); err != nil {
				return err
			}
		}
	}
	for _, n := range c.Notices {
		if n.Kind == "resend" {
			if err := m.resendReports(tx, g, n); err != nil {
				return err
			}
			continue
		}
		if n.Kind == "replaced" {
			if err := m.welcomeReplacement(tx, c.Service, g, n); err != nil {
				return err
			}
		}
		if err := m.noticeToAddresses(tx, g, n); err != nil {
			return err
		}
		var news *digestNews
		if digestKinds[n.Kind] {
			news = &digestNews{Game: g.ID, Time: g.Updated, Kind: n.Kind, Text: n.Text, TextMsg: n.Msg}
		}
		if publicNotice[n.Kind] {
			for _, addr := range g.Observers {
				c, err := m.renderNotice(m.data(g, game.Player{}, m.Rulesets), readerOf(tx, addr), n)
				if err != nil {
					return err
				}
				if err := m.post(tx, m.gameMail(g, addr, "observer", c), news); err != nil {
					return err
				}
			}
		}
		for _, to := range n.To {
			p, ok := g.PlayerByName(to)
			addr := p.Email
			if to == game.GM {
				p, ok, addr = game.Player{}, m.GM != "", m.GM
			}
			if !ok || addr == "" || p.Bot {
				continue
			}
			if (n.Kind == "reminder" || n.Kind == "late") && remindersOff(tx, addr) {
				continue // SET REMINDERS off
			}
			d := m.data(g, p, m.Rulesets)
			if (n.Kind == "reminder" || n.Kind == "late") && to != game.GM {
				// Where to look before sending them: the private page.
				var err error
				if d.Web, err = m.webLink(tx, g, p); err != nil {
					return err
				}
			}
			c, err := m.renderNotice(d, readerOf(tx, addr), n)
			if err != nil {
				return err
			}
			hold := news
			if n.Seat != "" && n.Seat == p.Name {
				hold = nil // about the reader's own seat: at once
			}
			out := m.gameMail(g, addr, "notice", c)
			out.Headers[noticeHeader] = n.Kind
			if err := m.post(tx, out, hold); err != nil {
				return err
			}
		}
	}
	return nil
}

// resendReports mails the reports a "resend" notice carries, each to its
// player, as report mails of that step (bots and seats without an address
// get none).
func (m *Mailer) resendReports(tx store.Tx, g *game.Game, n game.Notice) error {
	for _, name := range n.To {
		p, ok := g.PlayerByName(name)
		rep := n.Reports[name]
		if !ok || p.Email == "" || p.Bot || rep == nil {
			continue
		}
		d := m.data(g, p, m.Rulesets)
		d.Report = rep
		var err error
		if d.Web, err = m.webLink(tx, g, p); err != nil {
			return err
		}
		out, err := m.reportMail(tx, g, p.Email, templates.Report, templates.Report, d)
		if err != nil {
			return err
		}
		out.MessageID = m.StepMessageID(g.ID, g.Epoch, rep.Step)
		if err := m.enqueue(tx, out); err != nil {
			return err
		}
	}
	return nil
}

// publicReport is what an observer gets of a step: the events and rolls
// every player sees, who played by defaults, and the public board where the
// ruleset draws one (engine.PublicViewer). The GM's report (player "")
// would show private events, hidden rolls and, in games with hidden
// information, a board no player may see.
func publicReport(st game.Step) (*game.Report, error) {
	rep, err := st.Report(game.Observer)
	if err != nil {
		return nil, fmt.Errorf("report of step %d for observers: %w", st.N, err)
	}
	return rep, nil
}

// welcomeReplacement sends the new player of a replaced seat a welcome
// with the seat's new secret and its current report (the notice names the
// seat): they take over what the seat knows.
func (m *Mailer) welcomeReplacement(tx store.Tx, svc *game.Service, g *game.Game, n game.Notice) error {
	p, ok := g.PlayerByName(n.Seat)
	if !ok || p.Email == "" || p.Bot {
		return nil
	}
	d := m.data(g, p, m.Rulesets)
	d.Players = g.Players
	d.Replacement = true
	if svc != nil && !g.Signup {
		rep, err := svc.ReportTx(tx, g.ID, p.Name)
		if err != nil {
			return fmt.Errorf("report of %s for its new player: %w", p.Name, err)
		}
		d.Report = rep
	}
	if rs, err := engine.Find(m.Rulesets, g.Ruleset); err == nil {
		info := rs.Info()
		d.Info = &info
	}
	var err error
	if d.Web, err = m.webLink(tx, g, p); err != nil {
		return err
	}
	var view engine.View
	if d.Report != nil {
		view = d.Report.View
	}
	m.speak(d, readerOf(tx, p.Email), view)
	c, err := m.Render.Render(templates.Welcome, d)
	if err != nil {
		return err
	}
	return m.enqueue(tx, m.gameMail(g, p.Email, templates.Welcome, c))
}

// rolledBack reports whether c is a rollback: its step is one seen before.
func rolledBack(c *game.Change) bool {
	for _, n := range c.Notices {
		if n.Kind == "rollback" {
			return true
		}
	}
	return false
}

// publicNotice names the notices every player gets alike, which observers
// get too. Reminders, late notices, press and vacations are about one
// player and stay private.
var publicNotice = map[string]bool{"deadline": true, "paused": true, "resumed": true, "rollback": true,
	"replaced": true, "kicked": true, "resigned": true, "message": true}
