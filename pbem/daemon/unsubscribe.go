package daemon

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"orrery/engine/game"
	"orrery/engine/lang"
	"orrery/engine/store"
	"orrery/pbem/outbox"
	"orrery/pbem/settings"
	"orrery/pbem/unsub"
	"orrery/templates"
)

// This file is one-click unsubscribe (issue 41, pbem/unsub): the List-*
// headers of every mail that is not an answer to the reader's own, and
// what an unsubscribe does. It is never a silent stop for a seated
// player, whose game would wait on them: their reports go to the daily
// digest and one mail says so, with what else they can do (VACATION,
// RESIGN, a bot for the seat) and the command that undoes it.

// listKinds are the mails that carry List-Unsubscribe: those the reader
// did not ask for by writing. Answers to the reader's own mail (reply,
// and the mails a command sends: secret, warning) do not.
var listKinds = map[string]bool{templates.Report: true, templates.Welcome: true, "observer": true, "notice": true, "digest": true}

// noticeHeader names a notice's kind on its mail: a reminder's
// unsubscribe turns reminders off, and readers may filter on it.
const noticeHeader = "X-Orrery-Notice"

// listHeaders adds List-Id to per-game mail and the digest, and List-Unsubscribe (with
// List-Unsubscribe-Post when the web pages run) to the mails of
// listKinds, inside tx (which makes the key of tokens the first time).
func (m *Mailer) listHeaders(tx store.Tx, out *outbox.Mail) error {
	if listKinds[out.Kind] && (out.Game != "" || out.Kind == "digest") {
		if out.Headers == nil {
			out.Headers = map[string]string{}
		}
		out.Headers["List-Id"] = unsub.ListID(out.Game, m.domain())
		if out.Game == "" {
			// The digest is every game's: a list of its own to filter.
			out.Headers["List-Id"] = unsub.DigestListID(m.domain())
		}
	}
	if !listKinds[out.Kind] || len(out.To) != 1 {
		return nil
	}
	key, err := unsub.Key(tx)
	if err != nil {
		return fmt.Errorf("the unsubscribe key: %w", err)
	}
	if key == nil {
		return nil // a read-only transaction before any token was made
	}
	a := unsub.Ask{Addr: game.CanonAddress(bareAddress(out.To[0])), Game: out.Game, What: unsub.Reports}
	switch k := out.Headers[noticeHeader]; {
	case out.Kind == "observer":
		a.What = unsub.Observer
	case k == "reminder" || k == "late":
		a.What = unsub.Reminders
	}
	list, post := unsub.Headers(bareAddress(m.From), m.UnsubURL, unsub.Token(key, a))
	if out.Headers == nil {
		out.Headers = map[string]string{}
	}
	out.Headers["List-Unsubscribe"] = list
	if post != "" {
		out.Headers["List-Unsubscribe-Post"] = post
	}
	return nil
}

// Unsubscribe does what an unsubscribe token asks, at once (the web
// side's one-click POST, pbem/unsub.Handler), and says what it did.
func (d *Daemon) Unsubscribe(ctx context.Context, tok string) (lang.Msg, error) {
	a, err := d.parseUnsub(ctx, tok)
	if err != nil {
		return lang.Msg{}, err
	}
	return d.unsubscribe(ctx, a, true)
}

func (d *Daemon) parseUnsub(ctx context.Context, tok string) (unsub.Ask, error) {
	var key []byte
	if err := d.st.View(ctx, func(tx store.Tx) error { key = unsub.ReadKey(tx); return nil }); err != nil {
		return unsub.Ask{}, err
	}
	return unsub.Parse(key, tok)
}

// unsubscribe acts on a. The game is read as it is now, not as it was
// when the mail went: an observer who took a seat since is a player. With
// tell, a seated player is mailed what changed (a mail's unsubscribe
// answers by its reply instead).
func (d *Daemon) unsubscribe(ctx context.Context, a unsub.Ask, tell bool) (lang.Msg, error) {
	var g *game.Game
	if a.Game != "" {
		if got, err := d.svc.Get(ctx, a.Game); err == nil {
			g = got
		}
	}
	var seat game.Player
	seated, observer := false, false
	if g != nil {
		for _, p := range g.Players {
			if !p.Bot && p.Email != "" && game.SameAddress(p.Email, a.Addr) {
				seat, seated = p, true
			}
		}
		for _, o := range g.Observers {
			observer = observer || game.SameAddress(o, a.Addr)
		}
	} else if a.Game == "" {
		mine, err := d.svc.GamesOf(ctx, a.Addr)
		if err != nil {
			return lang.Msg{}, err
		}
		seated = len(mine) > 0
	}
	switch {
	case observer && (a.What == unsub.Observer || !seated):
		if _, _, err := d.svc.Observe(ctx, g.ID, a.Addr, false); err != nil {
			return lang.Msg{}, fmt.Errorf("unsubscribe %s from game %s: %w", a.Addr, g.ID, err)
		}
		d.log.Info("unsubscribed an observer", "addr", a.Addr, "game", g.ID)
		return lang.M("You no longer receive the reports of game %s. To receive them again, send OBSERVE %s.", g.ID, g.ID), nil
	case a.What == unsub.Reminders || !seated:
		if _, err := settings.Put(ctx, d.st, a.Addr, settings.Reminders, "off"); err != nil {
			return lang.Msg{}, err
		}
		d.log.Info("unsubscribed from reminders", "addr", a.Addr, "game", a.Game)
		return lang.M("You get no more reminders of missing orders, in any game. To have them again, send SET REMINDERS on."), nil
	}
	var said lang.Msg
	err := d.st.Update(ctx, func(tx store.Tx) error {
		s, err := settings.Get(tx, a.Addr)
		if err != nil {
			return err
		}
		if s.DigestOn() {
			// Already on the digest: the reminders go too.
			if _, err := settings.Set(tx, a.Addr, settings.Reminders, "off"); err != nil {
				return err
			}
			said = seatedMsg(g, seat, lang.M("Your reports already come once a day, in the digest; now the reminders of missing orders stop too (SET REMINDERS on undoes it)."))
		} else {
			if _, err := settings.Set(tx, a.Addr, settings.Digest, "on"); err != nil {
				return err
			}
			said = seatedMsg(g, seat, lang.M("Your reports now come once a day, in the digest, instead of one mail a step (SET DIGEST off undoes it)."))
		}
		if !tell {
			return nil
		}
		return d.mailer.tellUnsubscribed(tx, g, seat, a.Addr, said)
	})
	if err != nil {
		return lang.Msg{}, err
	}
	d.log.Info("unsubscribed a player to the digest", "addr", a.Addr, "game", a.Game)
	return said, nil
}

// seatedMsg is what a seated player is told: done, and what else they can
// do, since their seat still plays.
func seatedMsg(g *game.Game, p game.Player, done lang.Msg) lang.Msg {
	if g == nil {
		return lang.M("%s Your games go on: VACATION, a game and the days you are away (VACATION demo1 FROM 2026-12-20 TO 2027-01-03) plays your defaults meanwhile, RESIGN and a game leaves it, and the GM can give a seat to the computer.", done)
	}
	return lang.M("%s Game %s goes on with your seat %s: VACATION %s FROM first-day TO last-day plays your defaults while you are away, RESIGN %s leaves the game, and the GM can give your seat to the computer.",
		done, g.ID, p.Name, g.ID, g.ID)
}

// tellUnsubscribed mails addr, at once, what its unsubscribe did.
func (m *Mailer) tellUnsubscribed(tx store.Tx, g *game.Game, p game.Player, addr string, said lang.Msg) error {
	n := game.Notice{Kind: "unsubscribed", Text: said.English(), Msg: &said}
	c, err := m.renderNotice(m.data(g, p, m.Rulesets), readerOf(tx, addr), n)
	if err != nil {
		return err
	}
	var out outbox.Mail
	if g != nil {
		out = m.gameMail(g, addr, "unsubscribed", c)
	} else {
		out = outbox.Mail{To: []string{addr}, Subject: c.Subject, Text: c.Text, HTML: c.HTML, Auto: "auto-generated", Kind: "unsubscribed"}
	}
	return m.enqueue(tx, out)
}

// unsubSubject is the token of a mail whose subject is "UNSUBSCRIBE
// TOKEN" (what the mailto: of List-Unsubscribe writes), or "".
func unsubSubject(subject string) string {
	f := strings.Fields(subject)
	if len(f) == 2 && strings.EqualFold(f[0], unsub.Subject) && len(f[1]) <= unsub.MaxToken {
		return f[1]
	}
	return ""
}

// unsubscribeByMail answers a mail sent by List-Unsubscribe's mailto:.
func (d *Daemon) unsubscribeByMail(ctx context.Context, j *job, tok string) error {
	a, err := d.parseUnsub(ctx, tok)
	var said lang.Msg
	if err == nil {
		said, err = d.unsubscribe(ctx, a, false)
	}
	if err == unsub.ErrToken {
		said, err = lang.M("This unsubscribe request names no address of mine, or was cut short: nothing was changed. SET REMINDERS off, SET DIGEST on and UNOBSERVE and a game do it by hand."), nil
	}
	if err != nil {
		return err
	}
	data := d.mailer.data(nil, game.Player{}, nil)
	data.Notice = &game.Notice{Kind: "unsubscribed", Text: said.English(), Msg: &said}
	return d.say(j, templates.Notice, data)
}

// UnsubscribeHandler is the web side's one-click endpoint (unsub.Path),
// acting through d and wording its pages with the mail templates'
// catalog.
func (d *Daemon) UnsubscribeHandler() http.Handler {
	h := &unsub.Handler{Act: d, Logger: d.log}
	if s, ok := d.mailer.Render.(*templates.Set); ok {
		h.Catalog = s.Catalog()
	}
	return h
}
