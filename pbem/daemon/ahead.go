package daemon

import (
	"context"
	"fmt"
	"strings"

	"orrery/engine"
	"orrery/engine/game"
	"orrery/engine/lang"
	"orrery/engine/store"
	"orrery/pbem/command"
	"orrery/pbem/route"
	"orrery/templates"
)

// aheadTurn is the turn r's orders are held for (ORDERS game TURN n, or
// command.NextTurn), or 0 when they are for the current step.
func aheadTurn(r *route.Result) int {
	for _, c := range r.Commands {
		if c.Name == command.Orders && c.Turn != 0 && (c.Game == "" || c.Game == r.Game) {
			return c.Turn
		}
	}
	return 0
}

// runOrders runs an ORDERS line. With orders below it, it only marks
// where they start (the mail's orders are submitted, or held by
// holdAhead); alone, with a game, it lists the orders the sender holds
// for later turns.
func (d *Daemon) runOrders(ctx context.Context, j *job, r *route.Result, c route.Command, byID *gameIndex) error {
	if r.HasOrders || c.Game == "" {
		return nil
	}
	g := byID.get(c.Game)
	p, ok, err := d.authenticate(ctx, j, g, c.Game, r.Secret)
	if !ok || err != nil {
		return err
	}
	held, err := d.svc.HeldAhead(ctx, g.ID, p.Name)
	if err != nil {
		return err
	}
	var b strings.Builder
	m := lang.M("You hold no orders for later turns in game %s; to send some, write ORDERS %s TURN and the turn, then the orders below it.", g.ID, g.ID)
	if len(held) > 0 {
		for _, a := range held {
			fmt.Fprintf(&b, "TURN %d\n", a.Turn)
			for _, l := range engine.OrderLines(a.Text) {
				b.WriteString("  " + l + "\n")
			}
		}
		m = lang.M("The orders you hold for later turns in game %s, each applied when its turn asks you for orders:", g.ID)
	}
	s, err := d.noticeSection(g, p, j, "ahead-held", m, strings.TrimRight(b.String(), "\n"))
	if err != nil {
		return err
	}
	j.answers = append(j.answers, s)
	return nil
}

// holdAhead keeps the mail's orders for a later turn (game.Service.Hold),
// its answer recorded in the same transaction: a crash loses neither or
// applies both.
func (d *Daemon) holdAhead(ctx context.Context, j *job, r *route.Result, g *game.Game, turn int) error {
	if again, err := d.doneBefore(ctx, j); again || err != nil {
		return err
	}
	p, ok, err := d.authenticate(ctx, j, g, r.Game, r.Secret)
	if !ok || err != nil {
		return err
	}
	n, done, err := d.newPart(ctx, j)
	if done {
		return err
	}
	var answer section
	committed := false
	hook := func(tx store.Tx, c *game.Change) error {
		tx.OnCommit(func() { committed = true })
		t := turn
		if t == command.NextTurn {
			t = c.Game.Turn + 1
		}
		lines := strings.Join(engine.OrderLines(r.Orders), "\n")
		m := lang.M("Your orders for turn %d of game %s are held. They apply when that turn asks you for orders, checked then against the position as it stands: if a line no longer fits, I tell you at once, while there is still time. Orders you send for that turn again replace them; ORDERS %s lists what you hold. As held:", t, c.Game.ID, c.Game.ID)
		s, err := d.noticeSection(c.Game, p, j, "ahead-held", m, lines)
		if err != nil {
			return err
		}
		answer = s
		return j.putPart(tx, n, s)
	}
	_, err = d.svc.Hold(ctx, game.Input{Game: g.ID, Player: p.Name, Text: r.Orders, Source: "mail", Ref: j.m.MessageID}, turn, hook)
	switch {
	case err == nil:
	case game.IsUserError(err):
		return d.refuse(j, g, p, userLineErr(0, "", err))
	default:
		return err
	}
	if committed {
		j.applied++
	}
	j.answers = append(j.answers, answer)
	return nil
}

// noticeSection renders a notice of kind, worded as m, to p in j's
// reader's language, with said (the player's own orders) shown as theirs.
func (d *Daemon) noticeSection(g *game.Game, p game.Player, j *job, kind string, m lang.Msg, said string) (section, error) {
	data := d.mailer.data(g, p, d.svc.Rulesets())
	data.Notice = &game.Notice{Kind: kind, Said: said}
	data.Notice.Tell(m)
	d.mailer.speak(data, j.reader, nil)
	return d.mailer.Render.Render(templates.Notice, data)
}

// ordersFor is Verdict.OrdersFor: what r's orders would be used for, as
// handle does (PREVIEW first, then ORDERS … TURN).
func ordersFor(r *route.Result) string {
	if !r.HasOrders {
		return ""
	}
	switch t := aheadTurn(r); {
	case previewsOrders(r):
		return "preview"
	case t == command.NextTurn:
		return "the next turn"
	case t > 0:
		return fmt.Sprintf("turn %d", t)
	}
	return ""
}
