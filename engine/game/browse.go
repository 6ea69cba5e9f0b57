package game

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"time"

	"orrery/engine"
	"orrery/engine/dice"
	"orrery/engine/lang"
	"orrery/engine/store"
)

// This file gives read-only pages (pbem/web) what they need of stored games
// without replaying a log: a page of game records at a time, the public facts
// of every step, one step's view, and the dice as one reader may see them.
// Everything here reads the stored records and snapshots in one read
// transaction; nothing filters less than Report does.

// GamesPage reads up to limit game records in id order, starting after the
// id after ("" from the first), keeping those keep accepts (nil keeps all).
// next is the id to pass as after for the following page, "" when there is
// none. It walks the games bucket's cursor, so a page costs limit records
// (plus those keep refuses), however many games the database holds.
func (s *Service) GamesPage(ctx context.Context, after string, limit int, keep func(*Game) bool) (page []*Game, next string, err error) {
	if limit < 1 {
		limit = 1
	}
	err = s.st.View(ctx, func(tx store.Tx) error {
		games := tx.Bucket(store.BucketGames)
		c := games.Cursor()
		k, _ := c.First()
		if after != "" {
			k, _ = c.Seek([]byte(after))
			if k != nil && bytes.Equal(k, []byte(after)) {
				k, _ = c.Next()
			}
		}
		for ; k != nil; k, _ = c.Next() {
			b := games.Bucket(k)
			if b == nil {
				continue
			}
			g, err := readGame(b)
			if err != nil {
				return fmt.Errorf("game %s: %w", k, err)
			}
			if keep != nil && !keep(g) {
				continue
			}
			if len(page) == limit {
				next = page[len(page)-1].ID
				return nil
			}
			page = append(page, g)
		}
		return nil
	})
	return page, next, err
}

// StepInfo is what anyone may know of a step without reading its report:
// when it resolved, why, and the turn and phase it left the game in.
type StepInfo struct {
	N      uint64    `json:"n"`
	Turn   int       `json:"turn"`
	Phase  string    `json:"phase"`
	Reason string    `json:"reason"`
	Time   time.Time `json:"time"`
}

// Steps reads a game's record and the public facts of each of its steps, in
// order. Events, rolls and answers are not decoded: a list of links to every
// step of a long game stays cheap.
func (s *Service) Steps(ctx context.Context, id string) (*Game, []StepInfo, error) {
	var g *Game
	var out []StepInfo
	err := s.st.View(ctx, func(tx store.Tx) error {
		b, err := gameBucket(tx, id)
		if err != nil {
			return err
		}
		if g, err = readGame(b); err != nil {
			return err
		}
		if g.Signup {
			return nil
		}
		return b.Bucket(store.BucketSteps).ForEach(func(k, v []byte) error {
			var si StepInfo
			if err := json.Unmarshal(v, &si); err != nil {
				return fmt.Errorf("game %s: read step %d: %w", id, store.KeyN(k), err)
			}
			out = append(out, si)
			return nil
		})
	})
	return g, out, err
}

// StepView is player's view of the state a step left ("" for the GM). For
// Observer it is the public view, or nil when the ruleset draws none (see
// engine.PublicViewer): a page then shows no board rather than the GM's.
func (s *Service) StepView(ctx context.Context, id string, step uint64, player string) (engine.View, error) {
	var v engine.View
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
			return userErr(lang.M("game %s has not started", g.ID))
		}
		if step > g.Step {
			return userErr(lang.MN("game %s has had %d step; there is no step %d yet", "game %s has had %d steps; there is no step %d yet", g.ID, int(g.Step), int(step)))
		}
		if player != "" && player != Observer {
			if _, ok := g.PlayerByName(player); !ok {
				return userErr(lang.M("there is no player %q in game %s", player, g.ID))
			}
		}
		rs, err := s.ruleset(g)
		if err != nil {
			return err
		}
		data := b.Bucket(store.BucketSnaps).Get(store.Key(step))
		if data == nil {
			return fmt.Errorf("game %s has no snapshot of step %d", g.ID, step)
		}
		st, err := rs.LoadState(store.Copy(data))
		if err != nil {
			return fmt.Errorf("game %s step %d: %w", g.ID, step, err)
		}
		if player != Observer {
			v = st.View(player)
		} else if pv, ok := st.(engine.PublicViewer); ok {
			v = pv.PublicView()
		}
		return nil
	})
	return v, err
}

// StepFacts is one step as one reader may know it without its board: the
// revealed seed, the commitment published before the step, the commitment
// to the next step's seed, and the events and rolls that reader may see
// (Report's rule).
type StepFacts struct {
	N              uint64    `json:"n"`
	Turn           int       `json:"turn"`
	Phase          string    `json:"phase"`
	Time           time.Time `json:"time"`
	Seed           string    `json:"seed"`
	Commitment     string    `json:"commitment"`
	NextCommitment string    `json:"next_commitment"`
	Events         []string  `json:"events,omitempty"`
	// EventMsgs are the messages of Events, one each (nil for an event
	// recorded without one), for a reader in another language (the
	// web's feed). Not part of the JSON: Events is the English.
	EventMsgs []*lang.Msg `json:"-"`
	Rolls     []dice.Roll `json:"rolls,omitempty"`
	// Under dice scheme 2, what the reader's report has to check the
	// step's dice with (Report's rule: every part's head and hash, the
	// salt and lines of those the reader may read, the streams of the
	// dice they may see, the hidden seed once the game is over).
	Inputs     []dice.Part   `json:"inputs,omitempty"`
	Digest     string        `json:"digest,omitempty"`
	RollSeed   string        `json:"roll_seed,omitempty"`
	Streams    []dice.Stream `json:"streams,omitempty"`
	HiddenSeed string        `json:"hidden_seed,omitempty"`
	LastOrders string        `json:"last_orders,omitempty"`
	LastResent bool          `json:"last_resent,omitempty"`
}

// Facts lists every step's seed, commitments, the events and rolls player
// may see (Observer: the public ones; "" the GM: all) and, under dice
// scheme 2, the step's inputs, digest, roll seed and streams as player's
// report gives them, in step order, from the step records alone: no state
// is loaded. Once the game is over every roll, part and stream is shown,
// as in the reports. The last step's NextCommitment is the game's own, as
// in its current report.
func (s *Service) Facts(ctx context.Context, id, player string) (*Game, []StepFacts, error) {
	var g *Game
	var out []StepFacts
	err := s.st.View(ctx, func(tx store.Tx) error {
		b, err := gameBucket(tx, id)
		if err != nil {
			return err
		}
		if g, err = readGame(b); err != nil {
			return err
		}
		if g.Signup {
			return nil
		}
		if player != "" && player != Observer {
			if _, ok := g.PlayerByName(player); !ok {
				return userErr(lang.M("there is no player %q in game %s", player, g.ID))
			}
		}
		return b.Bucket(store.BucketSteps).ForEach(func(k, v []byte) error {
			var rec StepRecord
			if err := json.Unmarshal(v, &rec); err != nil {
				return fmt.Errorf("game %s: read step %d: %w", id, store.KeyN(k), err)
			}
			sd := StepFacts{N: rec.N, Turn: rec.Turn, Phase: rec.Phase, Time: rec.Time,
				Seed: rec.Seed, Commitment: rec.Commitment, NextCommitment: rec.NextCommitment}
			if rec.N == g.Step {
				sd.NextCommitment = g.NextCommitment()
			}
			for _, e := range rec.Events {
				if e.VisibleTo(player) {
					sd.Events = append(sd.Events, e.Text)
					sd.EventMsgs = append(sd.EventMsgs, e.Msg)
				}
			}
			// The rules of buildReport, which TestStepsViewsAndDice
			// holds them to.
			reveal := g.Over()
			for _, r := range rec.Rolls {
				if r.VisibleTo(player) || reveal {
					sd.Rolls = append(sd.Rolls, r)
				}
			}
			sd.Digest, sd.RollSeed, sd.LastOrders, sd.LastResent = rec.Digest, rec.RollSeed, rec.LastOrders, rec.LastResent
			for _, p := range rec.Inputs {
				if !p.Readable(player) && !reveal {
					p = p.Redacted()
				}
				sd.Inputs = append(sd.Inputs, p)
			}
			for _, st := range rec.Streams {
				if player == "" || reveal || contains(st.To, player) {
					sd.Streams = append(sd.Streams, st)
				}
			}
			if g.Scheme() >= dice.Scheme2 && (player == "" || reveal) {
				gg := *g
				gg.Epoch = epochOf(g, &rec)
				sd.HiddenSeed = gg.hiddenSeed(rec.N)
			}
			out = append(out, sd)
			return nil
		})
	})
	return g, out, err
}

// Revision reads a game's record and the count of its log entries. The
// count grows with every input (orders, press, a GM's action), some of
// which leave the record as it was: together they change whenever anything
// a page of the game shows may have changed, so they make its ETag.
func (s *Service) Revision(ctx context.Context, id string) (*Game, uint64, error) {
	var g *Game
	var seq uint64
	err := s.st.View(ctx, func(tx store.Tx) error {
		b, err := gameBucket(tx, id)
		if err != nil {
			return err
		}
		if g, err = readGame(b); err != nil {
			return err
		}
		seq = b.Bucket(store.BucketLog).Sequence()
		return nil
	})
	return g, seq, err
}
