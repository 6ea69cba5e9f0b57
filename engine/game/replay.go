package game

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"orrery/engine"
	"orrery/engine/dice"
)

// replayed is what a game's log rebuilds: the snapshot and step record of
// every step of the current line of play, and the final state.
type replayed struct {
	snaps    map[uint64][]byte
	steps    map[uint64]*StepRecord
	state    engine.State
	step     uint64
	epoch    int
	rolls    int
	replays  uint64
	problems []string
	// subs are the submissions not yet resolved at the end of the log.
	subs map[string]sent
}

func (r *replayed) problem(format string, a ...any) {
	r.problems = append(r.problems, fmt.Sprintf(format, a...))
}

// replayLog rebuilds a game from its log alone. Rollbacks restore an earlier
// state of the same replay and start a new epoch of seeds; GM edits replace
// the state at their step. Orders are parsed again from their canonical text
// against the view of the moment, exactly as when they were first resolved.
func replayLog(ctx context.Context, rs engine.Ruleset, g *Game, entries []*Entry) (*replayed, error) {
	r := &replayed{snaps: map[uint64][]byte{}, steps: map[uint64]*StepRecord{}}
	// at is g as it was in the current epoch of the replay.
	at := func() *Game {
		gg := *g
		gg.Epoch = r.epoch
		return &gg
	}
	seed := func(step uint64) string { return at().seed(step) }
	latest := map[string]string{} // prompt id → latest accepted text this step
	subs := map[string]sent{}     // prompt id → its latest submission and their count
	created := false
	for _, e := range entries {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if !created && e.Kind != "create" && e.Kind != "gm" {
			r.problem("log entry %d (%s) comes before the create entry", e.Seq, e.Kind)
			return r, nil
		}
		switch e.Kind {
		case "create":
			if created || e.Setup == nil {
				r.problem("log entry %d: a second or empty create entry", e.Seq)
				continue
			}
			created = true
			gg := at()
			d, rec := gg.stepDice(0, gg.setupParts(*e.Setup))
			st, err := rs.NewState(*e.Setup, d)
			if err == nil {
				err = d.Err()
			}
			if err != nil {
				r.problem("the setup does not replay: %v", err)
				return r, nil
			}
			r.state = st
			rec.Turn, rec.Phase, rec.Reason, rec.Time, rec.LogSeq = st.Turn(), st.Phase(), "setup", e.Time, e.Seq
			rec.Rolls, rec.Streams, rec.NextCommitment = d.Rolls(), d.Streams(), dice.Commitment(seed(1))
			if err := r.keep(0, rec); err != nil {
				return nil, err
			}
		case "orders":
			if e.Step != r.step+1 {
				r.problem("log entry %d: orders for step %d logged during step %d", e.Seq, e.Step, r.step+1)
			}
			latest[e.Prompt] = e.Text
			subs[e.Prompt] = sent{seq: e.Seq, count: subs[e.Prompt].count + 1}
		case "rejected", "gm", "notice", "press":
			// For the record only.
		case "resolve":
			if e.Step != r.step+1 {
				r.problem("log entry %d: resolve of step %d after step %d", e.Seq, e.Step, r.step)
			}
			for _, a := range e.Answers {
				want, sent := latest[a.Prompt.ID]
				switch {
				case a.Default && sent:
					r.problem("step %d: %s sent orders for %s but the default was used", e.Step, a.Prompt.Player, a.Prompt.ID)
				case !a.Default && !sent:
					r.problem("step %d: orders of %s for %s were used but never logged", e.Step, a.Prompt.Player, a.Prompt.ID)
				case !a.Default && want != a.Text:
					r.problem("step %d: the orders used for %s are not the latest accepted ones", e.Step, a.Prompt.ID)
				}
				delete(latest, a.Prompt.ID)
			}
			if msg := checkAnswered(r.state.Prompts(), e); msg != "" {
				r.problem("step %d: %s", e.Step, msg)
				return r, nil
			}
			r.step = e.Step
			var answers []engine.Answer
			for _, rec := range e.Answers {
				orders, errs := r.state.View(rec.Prompt.Player).Parse(rec.Prompt, rec.Text)
				if len(errs) > 0 {
					r.problem("step %d: the orders of %s for %s no longer parse: %v", r.step, rec.Prompt.Player, rec.Prompt.ID, errs[0])
					return r, nil
				}
				answers = append(answers, engine.Answer{Prompt: rec.Prompt, Orders: orders, Default: rec.Default})
			}
			gg := at()
			d, rec := gg.stepDice(r.step, gg.answerParts(r.state, r.step, answers, e.Answers))
			rec.LastOrders, rec.LastResent = lastOrders(e.Answers, subs)
			for _, a := range e.Answers {
				delete(subs, a.Prompt.ID)
			}
			events, err := r.state.Resolve(answers, d)
			if err == nil {
				err = d.Err()
			}
			if err != nil {
				r.problem("step %d does not replay: %v", r.step, err)
				return r, nil
			}
			rec.Turn, rec.Phase, rec.Reason, rec.Time, rec.Answers, rec.Events = r.state.Turn(), r.state.Phase(), e.Reason, e.Time, e.Answers, events
			rec.LogSeq = e.Seq
			rec.Rolls, rec.Streams, rec.NextCommitment = d.Rolls(), d.Streams(), dice.Commitment(seed(r.step+1))
			if err := r.keep(r.step, rec); err != nil {
				return nil, err
			}
			open := map[string]bool{}
			for _, p := range r.state.Prompts() {
				open[p.ID] = true
			}
			for id := range latest {
				if !open[id] {
					delete(latest, id)
				}
			}
			for id := range subs {
				if !open[id] {
					delete(subs, id)
				}
			}
		case "rollback":
			data, ok := r.snaps[e.Step]
			if !ok || e.Step > r.step {
				r.problem("log entry %d: rollback to step %d, which this line of play never reached", e.Seq, e.Step)
				return r, nil
			}
			st, err := rs.LoadState(append([]byte(nil), data...))
			if err != nil {
				return nil, fmt.Errorf("rollback to step %d: %w", e.Step, err)
			}
			r.state, r.step = st, e.Step
			r.epoch++
			for s := range r.snaps {
				if s > e.Step {
					delete(r.snaps, s)
					delete(r.steps, s)
				}
			}
			// The step played again has a new seed: publish its commitment.
			r.steps[e.Step].NextCommitment = dice.Commitment(seed(e.Step + 1))
			clear(latest)
			clear(subs)
		case "edit":
			st, err := rs.LoadState([]byte(e.Text))
			if err != nil {
				r.problem("log entry %d: the GM's edited state does not load: %v", e.Seq, err)
				return r, nil
			}
			r.state = st
			data, err := st.Marshal()
			if err != nil {
				return nil, err
			}
			r.snaps[r.step] = data
			clear(latest)
			clear(subs)
		default:
			r.problem("log entry %d has an unknown kind %q", e.Seq, e.Kind)
		}
	}
	if !created {
		r.problem("the log has no create entry")
	}
	r.subs = subs
	return r, nil
}

func (r *replayed) keep(step uint64, rec *StepRecord) error {
	data, err := r.state.Marshal()
	if err != nil {
		return fmt.Errorf("encode replayed state of step %d: %w", step, err)
	}
	r.snaps[step] = data
	r.steps[step] = rec
	r.rolls += len(rec.Rolls)
	r.replays++
	return nil
}

// compareStep reports how a stored step record differs from a replayed one.
// Under scheme 2 the inputs, their digest, the roll seed, the hidden
// streams' seeds and who sent the last orders must match too.
func compareStep(n uint64, scheme int, stored, want *StepRecord, problem func(string, ...any)) {
	if stored.Seed != want.Seed {
		problem("step %d: the recorded seed is not the one the game's secret gives", n)
	}
	if scheme < dice.Scheme2 {
		if err := dice.Check(stored.Seed, stored.Commitment, stored.Rolls); err != nil {
			problem("step %d: %v", n, err)
		}
	} else {
		if dice.Commitment(stored.Seed) != stored.Commitment {
			problem("step %d: seed %s does not match commitment %s", n, stored.Seed, stored.Commitment)
		}
		if d := dice.Digest(stored.Inputs); d != stored.Digest || dice.RollSeed(stored.Seed, d) != stored.RollSeed {
			problem("step %d: the recorded digest or roll seed is not the one its inputs give", n)
		}
		for _, p := range stored.Inputs {
			if p.Sealed().Hash != p.Hash {
				problem("step %d: the hash of input %q is not the SHA-256 of the part", n, p.Head)
			}
		}
		if err := dice.CheckStreams(stored.RollSeed, stored.Streams, stored.Rolls); err != nil {
			problem("step %d: %v", n, err)
		}
		a, _ := json.Marshal(stored.Inputs)
		b, _ := json.Marshal(want.Inputs)
		if !bytes.Equal(a, b) {
			problem("step %d: the recorded inputs of the dice are not the orders the log gives", n)
		}
		a, _ = json.Marshal(stored.Streams)
		b, _ = json.Marshal(want.Streams)
		if !bytes.Equal(a, b) {
			problem("step %d: the seeds of the hidden dice are not the ones the game's secret gives", n)
		}
		if stored.LastOrders != want.LastOrders || stored.LastResent != want.LastResent {
			problem("step %d: the record says the last orders came from %q (sent again: %v), the log says %q (%v)",
				n, stored.LastOrders, stored.LastResent, want.LastOrders, want.LastResent)
		}
	}
	a, _ := json.Marshal(normRolls(stored.Rolls))
	b, _ := json.Marshal(normRolls(want.Rolls))
	if !bytes.Equal(a, b) {
		problem("step %d: the replay rolled %d dice, the record has %d, or they differ", n, len(want.Rolls), len(stored.Rolls))
	}
	a, _ = json.Marshal(stored.Events)
	b, _ = json.Marshal(eventsLike(want.Events, stored.Events))
	if !bytes.Equal(a, b) {
		problem("step %d: the replayed events differ from the recorded ones", n)
	}
}

// eventsLike is want without the messages of the events that were
// recorded without one (by a build from before events had messages,
// lang.Msg), so that such a game still verifies on what it recorded:
// the English text.
func eventsLike(want, stored []engine.Event) []engine.Event {
	if len(want) != len(stored) {
		return want
	}
	out := append([]engine.Event(nil), want...)
	for i := range out {
		if stored[i].Msg == nil {
			out[i].Msg = nil
		}
		if stored[i].About == nil {
			// Recorded before events said whom they were about.
			out[i].About = nil
		}
	}
	return out
}

// normRolls is r as verify compares it: audiences empty as nil, and the
// purposes by their English alone (a roll recorded before purposes had
// messages has none).
func normRolls(r []dice.Roll) []dice.Roll {
	out := make([]dice.Roll, len(r))
	for i, x := range r {
		x.Msg = nil
		if len(x.To) == 0 {
			x.To = nil
		}
		out[i] = x
	}
	return out
}

// checkAnswered says what is wrong, if anything, with the prompts a resolve
// entry answers: exactly the open blocking prompts, or one open anytime
// prompt for an anytime step, each as it was asked.
func checkAnswered(open []engine.Prompt, e *Entry) string {
	byID := map[string]engine.Prompt{}
	for _, p := range open {
		byID[p.ID] = p
	}
	seen := map[string]bool{}
	for _, a := range e.Answers {
		p, ok := byID[a.Prompt.ID]
		if !ok {
			return fmt.Sprintf("it answers %q, which was not asked", a.Prompt.ID)
		}
		// The question's wording (Ask) may change between releases, as a
		// count comes to agree with its noun; who was asked what, and what
		// applied by default, may not.
		if p.Player != a.Prompt.Player || p.Kind != a.Prompt.Kind || p.Default != a.Prompt.Default {
			return fmt.Sprintf("the prompt %q it answers is not the one asked", a.Prompt.ID)
		}
		if seen[p.ID] {
			return fmt.Sprintf("it answers %q twice", p.ID)
		}
		seen[p.ID] = true
	}
	if e.Reason == "anytime" {
		if len(e.Answers) != 1 || e.Answers[0].Prompt.Kind != engine.KindAnytime {
			return "an anytime step must answer exactly one anytime prompt"
		}
		return ""
	}
	for _, p := range open {
		if p.Kind.Blocks() && !seen[p.ID] {
			return fmt.Sprintf("nothing answers %q (%s)", p.ID, p.Player)
		}
		if !p.Kind.Blocks() && seen[p.ID] {
			return fmt.Sprintf("the turn answers the anytime prompt %q", p.ID)
		}
	}
	return ""
}
