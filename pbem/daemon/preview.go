package daemon

import (
	"context"
	"encoding/json"
	"fmt"

	"orrery/engine"
	"orrery/engine/game"
	"orrery/engine/lang"
	"orrery/engine/store"
	"orrery/pbem/command"
	"orrery/pbem/route"
	"orrery/templates"
)

// previewsOrders says whether r's orders are a PREVIEW's to try: a mail
// with PREVIEW for its game has its orders previewed, never submitted.
func previewsOrders(r *route.Result) bool {
	for _, c := range r.Commands {
		if c.Name == command.Preview && c.Game == r.Game {
			return true
		}
	}
	return false
}

// previewCount is a seat's PREVIEWs answered in one step of a game.
type previewCount struct {
	Epoch int    `json:"epoch"`
	Step  uint64 `json:"step"`
	N     int    `json:"n"`
}

// runPreview answers PREVIEW: what the mail's orders (or, with none, the
// seat's orders for the step) would do if the step resolved now, to the
// sender alone (game.Service.Preview: nothing of the game is stored or
// read of the others' orders). Each seat has Config.PreviewsPerStep of
// them a step, counted in the mail side's store, never the game's.
func (d *Daemon) runPreview(ctx context.Context, j *job, r *route.Result, c route.Command, byID *gameIndex) error {
	g := byID.get(c.Game)
	p, ok, err := d.authenticate(ctx, j, g, c.Game, r.Secret)
	if !ok || err != nil {
		return err
	}
	left, err := d.spendPreview(ctx, g, p)
	if err != nil {
		return err
	}
	if left < 0 {
		return d.refuse(j, g, p, engine.LineErr(c.Line, "PREVIEW",
			lang.MN("you have had %d preview of this step of game %s, the most I answer", "you have had %d previews of this step of game %s, the most I answer", d.cfg.PreviewsPerStep, g.ID),
			lang.M("you may ask again once the step has resolved")))
	}
	text := ""
	if r.HasOrders && r.Game == g.ID {
		text = r.Orders
	}
	res, err := d.svc.Preview(ctx, game.Input{Game: g.ID, Player: p.Name, Text: text, Source: "mail", Ref: j.m.MessageID})
	if err != nil {
		if game.IsUserError(err) {
			return d.refuse(j, g, p, userLineErr(c.Line, "", err))
		}
		return err
	}
	if len(res.Errors) > 0 {
		errs := append([]engine.LineError(nil), res.Errors...)
		for i := range errs {
			if text != "" && r.OrdersFrom == "" && errs[i].Line > 0 {
				errs[i].Line = r.Line(errs[i].Line)
			}
		}
		data := d.mailer.data(g, p, d.svc.Rulesets())
		data.Prompt, data.Errors = res.Prompt, capErrors(errs)
		return d.say(j, templates.Rejected, data)
	}
	data := d.mailer.data(g, p, d.svc.Rulesets())
	data.Prompt, data.Orders, data.Report = res.Prompt, res.Orders, res.Report
	data.Preview = &templates.PreviewInfo{Held: res.Held, Default: res.Default, Left: left}
	return d.say(j, templates.Preview, data)
}

// spendPreview counts one PREVIEW of p's in g's current step and returns
// how many are left after it, or -1 (and counts nothing) when none was.
func (d *Daemon) spendPreview(ctx context.Context, g *game.Game, p game.Player) (int, error) {
	left := -1
	err := d.st.Update(ctx, func(tx store.Tx) error {
		left = -1
		b, err := mailBucket(tx, store.BucketMailPreview)
		if err != nil {
			return err
		}
		key := []byte(g.ID + "\x00" + p.Name)
		var n previewCount
		if v := b.Get(key); v != nil {
			if err := json.Unmarshal(v, &n); err != nil {
				return fmt.Errorf("preview count of %s in %s: %w", p.Name, g.ID, err)
			}
		}
		if n.Epoch != g.Epoch || n.Step != g.Step {
			n = previewCount{Epoch: g.Epoch, Step: g.Step}
		}
		if n.N >= d.cfg.PreviewsPerStep {
			return nil
		}
		n.N++
		data, err := json.Marshal(n)
		if err != nil {
			return err
		}
		left = d.cfg.PreviewsPerStep - n.N
		return b.Put(key, data)
	})
	return left, err
}
