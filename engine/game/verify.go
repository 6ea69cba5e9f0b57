package game

import (
	"bytes"
	"context"
	"fmt"
	"sort"

	"orrery/engine"
	"orrery/engine/store"
)

// VerifyResult is the outcome of a full replay.
type VerifyResult struct {
	Game     string
	Steps    uint64 // states replayed, setup included
	Rolls    int    // rolls re-derived
	Problems []string
}

// OK reports whether the replay matched every snapshot and roll.
func (v *VerifyResult) OK() bool { return len(v.Problems) == 0 }

// Verify replays a game from its create entry through every later entry of
// its log, with dice re-derived from the seeds, and checks that each state is
// byte for byte the stored snapshot, that every roll and event is the
// recorded one, that every revealed seed matches its commitment, and that
// each resolution used the latest accepted orders of its step.
func (s *Service) Verify(ctx context.Context, id string) (*VerifyResult, error) {
	res := &VerifyResult{Game: id}
	err := s.st.View(ctx, func(tx store.Tx) error {
		b, err := gameBucket(tx, id)
		if err != nil {
			return err
		}
		g, err := readGame(b)
		if err != nil {
			return err
		}
		if g.Signup {
			return nil // nothing has happened yet
		}
		if err := s.verifyTx(ctx, b, g, res); err != nil {
			return err
		}
		if rs, err := s.ruleset(g); err == nil && len(res.Problems) > 0 && rs.Info().Version != g.RulesVersion {
			res.Problems = append([]string{rulesChanged(g, rs.Info())}, res.Problems...)
		}
		return nil
	})
	return res, err
}

// rulesChanged explains a failed replay of a game set up under other rules
// than the server's: what was played stands (the stored states and the
// reports the players got); the replay shows what today's rules would do.
func rulesChanged(g *Game, info engine.Info) string {
	then := fmt.Sprintf("version %d of the %s rules", g.RulesVersion, info.Name)
	if g.RulesVersion == 0 {
		then = fmt.Sprintf("%s rules older than their versions", info.Name)
	}
	return fmt.Sprintf("game %s was set up under %s and this server has version %d: the replay below uses the newer rules, "+
		"so it may differ from what was played, which stands as stored; verify the game with the release it was set up under", g.ID, then, info.Version)
}

func readLog(b store.Bucket) ([]*Entry, error) {
	var out []*Entry
	err := b.Bucket(store.BucketLog).ForEach(func(k, v []byte) error {
		e, err := decodeEntry(v)
		if err != nil {
			return err
		}
		out = append(out, e)
		return nil
	})
	return out, err
}

func (s *Service) verifyTx(ctx context.Context, b store.Bucket, g *Game, res *VerifyResult) error {
	rs, err := s.ruleset(g)
	if err != nil {
		return err
	}
	entries, err := readLog(b)
	if err != nil {
		return err
	}
	r, err := replayLog(ctx, rs, g, entries)
	if err != nil {
		return err
	}
	problem := func(format string, a ...any) { res.Problems = append(res.Problems, fmt.Sprintf(format, a...)) }
	res.Problems = append(res.Problems, r.problems...)
	res.Steps, res.Rolls = r.replays, r.rolls
	if len(r.problems) > 0 {
		return nil
	}
	if r.step != g.Step {
		problem("the log replays to step %d but the game is at step %d", r.step, g.Step)
	}
	if r.epoch != g.Epoch {
		problem("the log holds %d rollbacks but the game is in epoch %d", r.epoch, g.Epoch)
	}
	var steps []uint64
	for n := range r.snaps {
		steps = append(steps, n)
	}
	sort.Slice(steps, func(i, j int) bool { return steps[i] < steps[j] })
	for _, n := range steps {
		snap := b.Bucket(store.BucketSnaps).Get(store.Key(n))
		if !bytes.Equal(r.snaps[n], snap) {
			problem("step %d: the replayed state differs from the snapshot (%d bytes vs %d)", n, len(r.snaps[n]), len(snap))
		}
		stored, err := readStep(b, n)
		if err != nil {
			problem("%v", err)
			continue
		}
		compareStep(n, g.Scheme(), stored, r.steps[n], problem)
	}
	kept := 0
	c := b.Bucket(store.BucketSnaps).Cursor()
	for k, _ := c.First(); k != nil; k, _ = c.Next() {
		kept++
	}
	if kept != len(steps) {
		problem("the store keeps %d snapshots but the log makes %d", kept, len(steps))
	}
	if r.state != nil {
		data, err := r.state.Marshal()
		if err == nil && !bytes.Equal(data, b.Get(store.KeyState)) {
			problem("the replayed final state differs from the current state")
		}
	}
	return nil
}
