package game

import (
	"context"
	"fmt"

	"orrery/engine"
	"orrery/engine/dice"
	"orrery/engine/lang"
	"orrery/engine/store"
)

// PreviewResult is what a player's orders would do if the step resolved
// now (Preview).
type PreviewResult struct {
	Game   *Game
	Prompt engine.Prompt
	// Orders are the orders previewed, canonical; Held says they are the
	// ones the player has sent for the step (Preview with no text).
	Orders  []string
	Held    bool
	Default bool // no text, no orders sent: the prompt's default was tried
	// Errors are the lines that do not parse; there is no Report then.
	Errors []engine.LineError
	// Report is the would-be report of the step as the player would read
	// it: their view of the board after it, the events and rolls they
	// would see. It has no seeds, commitments or inputs: its dice are not
	// the game's.
	Report *Report
}

// Preview resolves, on a copy of the game that is never stored, the step
// with player's orders (text; with no text, the orders the player has sent
// for it, else its default) and every other prompt's default, never
// another player's pending orders, with dice from a fresh random stream
// that has nothing to do with the game's seeds. It reads in a read-only
// transaction: no roll, seed, commitment, log entry or pending order of
// the game changes, so a game plays the same with or without previews. The
// report is the player's own view (hidden information stays hidden). A
// budget is the caller's (the mail side counts previews per seat and step).
func (s *Service) Preview(ctx context.Context, in Input) (*PreviewResult, error) {
	res := &PreviewResult{}
	err := s.st.View(ctx, func(tx store.Tx) error {
		*res = PreviewResult{}
		b, err := gameBucket(tx, in.Game)
		if err != nil {
			return err
		}
		g, err := readGame(b)
		if err != nil {
			return err
		}
		res.Game = g
		if g.Over() {
			return userErr(lang.M("game %s is over: %s", g.ID, outcomeArg(g)))
		}
		if g.Signup {
			return userErr(lang.M("game %s has not started: %d of %d seats taken", g.ID, len(g.Players), g.Seats))
		}
		pl, ok := g.PlayerByName(in.Player)
		if !ok {
			return userErr(lang.M("there is no player %q in game %s", in.Player, g.ID))
		}
		prompt, err := pickPrompt(g, pl.Name, in.Prompt)
		if err != nil {
			return err
		}
		rs, st, err := s.loadState(b, g)
		if err != nil {
			return err
		}
		pend, err := readPending(b)
		if err != nil {
			return err
		}
		text := in.Text
		if text == "" {
			if pd, ok := pend[prompt.ID]; ok {
				text, res.Held = pd.Text, true
			} else {
				text, res.Default = prompt.Default, true
			}
		} else if in.Prompt == "" {
			prompt = anytimeFirst(g, st, pl.Name, prompt, text)
		}
		res.Prompt = prompt
		orders, errs := st.View(pl.Name).Parse(prompt, text)
		if len(errs) > 0 {
			res.Errors = errs
			return nil
		}
		res.Orders = append([]string(nil), orders.Lines()...)
		var answers []engine.Answer
		var records []AnswerRecord
		for _, p := range g.Prompts {
			switch {
			case prompt.Kind == engine.KindAnytime && p.ID != prompt.ID:
				continue // an any-time order resolves a step of its own
			case prompt.Kind != engine.KindAnytime && !p.Kind.Blocks():
				continue
			}
			t, def := p.Default, true
			if p.ID == prompt.ID {
				t, def = engine.OrdersText(orders), false
			} else if pd, ok := pend[p.ID]; ok && p.Player == pl.Name {
				t, def = pd.Text, false // the player's own other orders, as sent
			}
			a, rec, err := parseAnswer(st, p, t, def)
			if err != nil {
				return fmt.Errorf("preview of game %s: %w", g.ID, err)
			}
			answers = append(answers, a)
			records = append(records, rec)
		}
		// A fresh stream: its seed is drawn now and shown to nobody, so
		// the preview's rolls tell nothing of the game's.
		seed := randomHex(32)
		d := dice.NewStreams(seed, func(key string) string { return dice.RollSeed(seed, key) })
		events, err := st.Resolve(answers, d)
		if err != nil {
			return fmt.Errorf("preview of game %s: resolve: %w", g.ID, err)
		}
		if err := d.Err(); err != nil {
			return fmt.Errorf("preview of game %s: dice: %w", g.ID, err)
		}
		gc := *g
		gc.Prompts = nil
		gc.Answered = nil
		gc.Players = append([]Player(nil), g.Players...)
		gc.Step = g.Step + 1
		s.refresh(&gc, st)
		gc.DiceSecret = "" // never revealed by a preview, even of a last step
		rec := &StepRecord{N: gc.Step, Turn: gc.Turn, Phase: gc.Phase, Answers: records, Events: events, Rolls: d.Rolls()}
		r := buildReport(&gc, rs, st, rec, pl.Name, false)
		// A would-be last step must not reveal what the end reveals:
		// the report shows only what the player would see of it.
		// Everyone else plays their default by design: the report's
		// "played by default" would tell nothing.
		r.DiceSecret, r.Inputs, r.Streams, r.Rolls, r.Defaults = "", nil, nil, nil, nil
		for _, roll := range rec.Rolls {
			if roll.VisibleTo(pl.Name) {
				r.Rolls = append(r.Rolls, roll)
			}
		}
		res.Report = r
		return nil
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}
