package game

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"reflect"

	bolt "go.etcd.io/bbolt"

	"orrery/engine/dice"
	"orrery/engine/store"
)

// VerifyResult is the outcome of a full replay.
type VerifyResult struct {
	Game     string
	Steps    uint64 // steps replayed, setup included
	Rolls    int    // rolls re-derived
	Problems []string
}

// OK reports whether the replay matched every snapshot and roll.
func (v *VerifyResult) OK() bool { return len(v.Problems) == 0 }

// Verify replays a game from its create entry through every resolve entry in
// its log, with dice re-derived from the seeds, and checks that each state is
// byte for byte the stored snapshot, that every roll and event is the
// recorded one, that every revealed seed matches its commitment, and that
// each resolution used the latest accepted orders of its step.
func (s *Service) Verify(ctx context.Context, id string) (*VerifyResult, error) {
	res := &VerifyResult{Game: id}
	err := s.st.View(ctx, func(tx *bolt.Tx) error {
		b, err := gameBucket(tx, id)
		if err != nil {
			return err
		}
		g, err := readGame(b)
		if err != nil {
			return err
		}
		return s.verifyTx(ctx, b, g, res)
	})
	return res, err
}

func (s *Service) verifyTx(ctx context.Context, b *bolt.Bucket, g *Game, res *VerifyResult) error {
	rs, err := s.ruleset(g)
	if err != nil {
		return err
	}
	problem := func(format string, a ...any) { res.Problems = append(res.Problems, fmt.Sprintf(format, a...)) }
	latest := map[string]string{} // prompt id → latest accepted text in the current step
	c := b.Bucket(store.BucketLog).Cursor()
	var step uint64
	created := false
	live := newReplay(rs)
	for k, v := c.First(); k != nil; k, v = c.Next() {
		if err := ctx.Err(); err != nil {
			return err
		}
		e, err := decodeEntry(v)
		if err != nil {
			return err
		}
		switch e.Kind {
		case "create":
			if created || e.Setup == nil {
				problem("log entry %d: a second or empty create entry", e.Seq)
				continue
			}
			created = true
			seed := g.seed(0)
			d := dice.New(seed)
			if err := live.start(*e.Setup, d); err != nil {
				problem("setup does not replay: %v", err)
				return nil
			}
			s.checkStep(b, g, live, 0, seed, d, nil, problem)
			res.Rolls += len(d.Rolls())
			res.Steps++
		case "orders":
			if e.Step != step+1 {
				problem("log entry %d: orders for step %d logged during step %d", e.Seq, e.Step, step+1)
			}
			latest[e.Prompt] = e.Text
		case "rejected":
		case "resolve":
			if !created {
				problem("log entry %d: a resolve before the create entry", e.Seq)
				return nil
			}
			if e.Step != step+1 {
				problem("log entry %d: resolve of step %d after step %d", e.Seq, e.Step, step)
			}
			step = e.Step
			for _, a := range e.Answers {
				want, sent := latest[a.Prompt.ID]
				switch {
				case a.Default && sent:
					problem("step %d: %s sent orders for %s but the default was used", step, a.Prompt.Player, a.Prompt.ID)
				case !a.Default && !sent:
					problem("step %d: orders of %s for %s were used but never logged", step, a.Prompt.Player, a.Prompt.ID)
				case !a.Default && want != a.Text:
					problem("step %d: the orders used for %s are not the latest accepted ones", step, a.Prompt.ID)
				}
				delete(latest, a.Prompt.ID)
			}
			seed := g.seed(step)
			d := dice.New(seed)
			events, err := live.resolve(e.Answers, d)
			if err != nil {
				problem("step %d does not replay: %v", step, err)
				return nil
			}
			s.checkStep(b, g, live, step, seed, d, events, problem)
			res.Rolls += len(d.Rolls())
			res.Steps++
			// Orders for prompts that are no longer open were dropped.
			open := map[string]bool{}
			for _, p := range live.st.Prompts() {
				open[p.ID] = true
			}
			for id := range latest {
				if !open[id] {
					delete(latest, id)
				}
			}
		default:
			problem("log entry %d has an unknown kind %q", e.Seq, e.Kind)
		}
	}
	if step != g.Step {
		problem("the log replays to step %d but the game is at step %d", step, g.Step)
	}
	if live.st != nil {
		data, err := live.st.Marshal()
		if err == nil && !bytes.Equal(data, b.Get(store.KeyState)) {
			problem("the replayed final state differs from the current state")
		}
	}
	return nil
}

func (s *Service) checkStep(b *bolt.Bucket, g *Game, live *replay, n uint64, seed string, d *dice.Dice, events any, problem func(string, ...any)) {
	data, err := live.st.Marshal()
	if err != nil {
		problem("step %d: encode replayed state: %v", n, err)
		return
	}
	if snap := b.Bucket(store.BucketSnaps).Get(store.Key(n)); !bytes.Equal(data, snap) {
		problem("step %d: the replayed state differs from the snapshot (%d bytes vs %d)", n, len(data), len(snap))
	}
	rec, err := readStep(b, n)
	if err != nil {
		problem("%v", err)
		return
	}
	if rec.Seed != seed {
		problem("step %d: the recorded seed is not the one the game's secret gives", n)
	}
	if err := dice.Check(rec.Seed, rec.Commitment, rec.Rolls); err != nil {
		problem("step %d: %v", n, err)
	}
	if !reflect.DeepEqual(normRolls(rec.Rolls), normRolls(d.Rolls())) {
		problem("step %d: the replay rolled %d dice, the record has %d, or they differ", n, len(d.Rolls()), len(rec.Rolls))
	}
	if events != nil {
		a, _ := json.Marshal(events)
		r, _ := json.Marshal(rec.Events)
		if !bytes.Equal(a, r) && !(string(a) == "null" && string(r) == "null") {
			problem("step %d: the replayed events differ from the recorded ones", n)
		}
	}
}

func normRolls(r []dice.Roll) []dice.Roll {
	out := make([]dice.Roll, len(r))
	for i, x := range r {
		if len(x.To) == 0 {
			x.To = nil
		}
		out[i] = x
	}
	return out
}
