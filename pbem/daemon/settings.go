package daemon

import (
	"context"
	"errors"
	"strings"
	"time"

	"orrery/engine"
	"orrery/engine/game"
	"orrery/engine/store"
	"orrery/pbem/bounce"
	"orrery/pbem/route"
	"orrery/pbem/settings"
	"orrery/templates"
)

// set runs SET KEY VALUE: the sender's setting, kept for their address in
// every game. A language also goes into the games that write each
// player's texts in the player's language (engine.Languages), as the
// game's own language order, so that a mail never mixes two languages.
//
// SET needs no secret: it changes how mail to the sender's own address is
// worded, and the answer goes to that address.
func (d *Daemon) set(ctx context.Context, j *job, _ *route.Result, c route.Command, byID *gameIndex) error {
	value, err := settings.Put(ctx, d.st, j.from, c.Verb, c.Text)
	var bad *settings.Error
	if errors.As(err, &bad) {
		return d.refuse(j, nil, game.Player{}, engine.LineErr(c.Line, "SET "+c.Verb+" "+c.Text, bad.Why, bad.Hint))
	}
	if err != nil {
		return err
	}
	if c.Verb == settings.Reminders && value == "on" {
		// Asked for again, after a complaint (complaint.go).
		if err := d.st.Update(ctx, func(tx store.Tx) error { _, err := bounce.ClearComplaint(tx, j.from); return err }); err != nil {
			return err
		}
	}
	if c.Verb == settings.AutoVacation {
		if err := d.svc.SetAutoVacation(ctx, j.from, value != "off"); err != nil {
			return err
		}
	}
	if c.Verb == settings.TZ {
		// The games the address plays keep their quiet hours in it.
		if _, err := d.svc.SetZone(ctx, j.from, value); err != nil {
			return err
		}
	}
	j.reader = d.readerOf(ctx, j.from)
	if !contains(j.changed, c.Verb) {
		j.changed = append(j.changed, c.Verb)
	}
	j.showSettings = true
	if c.Verb == settings.Lang && value != "" {
		return d.gameLanguages(ctx, j, value, byID)
	}
	return nil
}

// gameLanguages sends the language order to each running game of the
// sender whose ruleset has one and writes to them in another language.
// Each is a part of the mail, so that a retry does not send it twice.
func (d *Daemon) gameLanguages(ctx context.Context, j *job, tag string, byID *gameIndex) error {
	ids, err := d.svc.GamesOf(ctx, j.from)
	if err != nil {
		return err
	}
	for _, id := range ids {
		g := byID.get(id)
		if g == nil || g.Signup || g.Over() {
			continue
		}
		rs, err := engine.Find(d.svc.Rulesets(), g.Ruleset)
		if err != nil {
			continue
		}
		ls, ok := rs.(engine.Languages)
		if !ok {
			continue
		}
		p, ok := g.PlayerByEmail(j.from)
		if !ok {
			continue
		}
		order, ok := ls.LanguageOrder(tag)
		if !ok {
			continue
		}
		v, err := d.svc.View(ctx, g.ID, p.Name)
		if err != nil || ls.ViewLanguage(v) == tag {
			continue
		}
		var prompt string
		for _, q := range g.PromptsFor(p.Name) {
			if q.Kind == engine.KindAnytime {
				prompt = q.ID
				break
			}
		}
		if prompt == "" {
			continue // nothing asked of this seat now: the next LANG will do
		}
		n := j.parts
		j.parts++
		if done, err := d.partOf(ctx, j, n); err != nil || done != nil {
			if err != nil {
				return err
			}
			continue
		}
		recorded := false
		hook := func(tx store.Tx, _ *game.Change) error {
			if recorded {
				return nil
			}
			recorded = true
			return j.putPart(tx, n, section{})
		}
		in := game.Input{Game: g.ID, Player: p.Name, Prompt: prompt, Text: order + "\n", Source: "mail", Ref: j.m.MessageID}
		if _, err := d.svc.Submit(ctx, in, hook); err != nil && !game.IsUserError(err) {
			return err
		} else if err != nil {
			d.log.Warn("language order refused", "game", g.ID, "player", p.Name, "err", err)
		}
	}
	return nil
}

// languageOrders keeps the address's LANG setting the same as a language
// the player chose inside a game by its own order (Burning's LANG RU),
// within the transaction that accepted the order.
func (d *Daemon) languageOrders(tx store.Tx, j *job, g *game.Game, p game.Player, lines []string) error {
	rs, err := engine.Find(d.svc.Rulesets(), g.Ruleset)
	if err != nil {
		return nil
	}
	ls, ok := rs.(engine.Languages)
	if !ok {
		return nil
	}
	addr := p.Email
	if addr == "" {
		addr = j.from
	}
	for _, l := range lines {
		if tag, ok := ls.OrderLanguage(strings.TrimSpace(l)); ok {
			if _, err := settings.Set(tx, addr, settings.Lang, tag); err != nil {
				return err
			}
			if game.SameAddress(addr, j.from) {
				j.reader = readerOf(tx, addr)
			}
		}
	}
	return nil
}

// settingsAnswer answers SET and SETTINGS: every setting of the sender.
func (d *Daemon) settingsAnswer(ctx context.Context, j *job) error {
	s, err := settings.Load(ctx, d.st, j.from)
	if err != nil {
		return err
	}
	data := d.mailer.data(nil, game.Player{}, nil)
	data.Changed = j.changed
	for _, k := range settings.Keys {
		example := k.Example
		if v := s[k.Name]; v != "" && example == "SET "+k.Name+" "+v {
			// Already as the example sets it: the way back instead.
			example = "SET " + k.Name + " " + k.Default
		}
		data.Settings = append(data.Settings, templates.Setting{Key: k.Name, Value: s[k.Name], Default: k.Default, Help: k.Help, Example: example})
	}
	return d.say(j, templates.Settings, data)
}

// zoneName is the name of a reader's zone for the games they join ("" for
// UTC, which is also what an address that chose none gets: the game's zone
// applies to it).
func zoneName(z *time.Location) string {
	if z == nil || z == time.UTC {
		return ""
	}
	return z.String()
}
