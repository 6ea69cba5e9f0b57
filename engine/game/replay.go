package game

import (
	"fmt"

	"orrery/engine"
	"orrery/engine/dice"
)

// replay rebuilds states from the log, outside any store.
type replay struct {
	rs engine.Ruleset
	st engine.State
}

func newReplay(rs engine.Ruleset) *replay { return &replay{rs: rs} }

func (r *replay) start(setup engine.Setup, d *dice.Dice) error {
	st, err := r.rs.NewState(setup, d)
	if err != nil {
		return err
	}
	if err := d.Err(); err != nil {
		return err
	}
	r.st = st
	return nil
}

func (r *replay) resolve(recs []AnswerRecord, d *dice.Dice) ([]engine.Event, error) {
	var answers []engine.Answer
	for _, rec := range recs {
		orders, errs := r.st.View(rec.Prompt.Player).Parse(rec.Prompt, rec.Text)
		if len(errs) > 0 {
			return nil, fmt.Errorf("the orders of %s for %s no longer parse: %v", rec.Prompt.Player, rec.Prompt.ID, errs[0])
		}
		answers = append(answers, engine.Answer{Prompt: rec.Prompt, Orders: orders, Default: rec.Default})
	}
	events, err := r.st.Resolve(answers, d)
	if err != nil {
		return nil, err
	}
	return events, d.Err()
}
