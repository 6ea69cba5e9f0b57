package game

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"orrery/engine"
	"orrery/engine/lang"
	"orrery/engine/store"
)

// bucketAhead holds, in a game's bucket, the orders players sent for a
// later turn: PLAYER "\x00" TURN (8 bytes, big-endian) → JSON Ahead. They
// are applied when that turn's prompt to the player opens (applyAhead),
// in the transaction of the step that opens it.
var bucketAhead = []byte("ahead")

// Ahead is one player's orders held for a later turn.
type Ahead struct {
	Player string    `json:"player"`
	Turn   int       `json:"turn"`
	Text   string    `json:"text"`
	Source string    `json:"source"`
	Ref    string    `json:"ref,omitempty"`
	Time   time.Time `json:"time"`
}

func aheadKey(player string, turn int) []byte {
	k := append([]byte(player), 0)
	return append(k, store.Key(uint64(turn))...)
}

// AheadResult says what Hold did.
type AheadResult struct {
	Game     *Game
	Held     Ahead
	Replaced bool // earlier orders held for the same turn were replaced
}

// Next, as the turn of Hold, is the turn after the current one.
const Next = -1

// Hold keeps in.Text as in.Player's orders for turn (Next: the one after
// the current turn), replacing any held for that turn, to be applied when
// that turn's prompt to the player opens and checked then against the
// position as it stands (a line that no longer fits is refused then, with
// a notice to the player, and the turn goes on as if they had sent
// nothing). The hooks run in the same transaction, so an acknowledgement
// and the held orders commit together or not at all.
func (s *Service) Hold(ctx context.Context, in Input, turn int, hooks ...Hook) (*AheadResult, error) {
	res := &AheadResult{}
	err := s.st.Update(ctx, func(tx store.Tx) error {
		*res = AheadResult{}
		b, err := gameBucket(tx, in.Game)
		if err != nil {
			return store.Unchanged(err)
		}
		g, err := readGame(b)
		if err != nil {
			return err
		}
		res.Game = g
		if g.Over() {
			return store.Unchanged(userErr(lang.M("game %s is over: %s", g.ID, outcomeArg(g))))
		}
		if g.Signup {
			return store.Unchanged(userErr(lang.M("game %s has not started: %d of %d seats taken", g.ID, len(g.Players), g.Seats)))
		}
		pl, ok := g.PlayerByName(in.Player)
		if !ok {
			return store.Unchanged(userErr(lang.M("there is no player %q in game %s", in.Player, g.ID)))
		}
		if turn == Next {
			turn = g.Turn + 1
		}
		if turn <= g.Turn {
			return store.Unchanged(userErr(lang.M("game %s is at turn %d: orders for turn %d are sent without TURN, as usual", g.ID, g.Turn, turn)))
		}
		ab, err := b.CreateBucketIfNotExists(bucketAhead)
		if err != nil {
			return err
		}
		key := aheadKey(pl.Name, turn)
		res.Replaced = ab.Get(key) != nil
		res.Held = Ahead{Player: pl.Name, Turn: turn, Text: in.Text, Source: in.Source, Ref: in.Ref, Time: s.now().UTC()}
		if err := putJSON(ab, key, res.Held); err != nil {
			return err
		}
		return runHooks(tx, &Change{Game: g, Input: &in, Service: s}, hooks)
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// HeldAhead lists the orders player holds for later turns in game id, by
// turn.
func (s *Service) HeldAhead(ctx context.Context, id, player string) ([]Ahead, error) {
	var out []Ahead
	err := s.st.View(ctx, func(tx store.Tx) error {
		b, err := gameBucket(tx, id)
		if err != nil {
			return err
		}
		out, err = readAhead(b, player)
		return err
	})
	return out, err
}

// readAhead reads the held orders of player ("" for every player).
func readAhead(b store.Bucket, player string) ([]Ahead, error) {
	ab := b.Bucket(bucketAhead)
	if ab == nil {
		return nil, nil
	}
	var out []Ahead
	err := ab.ForEach(func(k, v []byte) error {
		var a Ahead
		if err := json.Unmarshal(v, &a); err != nil {
			return fmt.Errorf("read held orders %q: %w", k, err)
		}
		if player == "" || a.Player == player {
			out = append(out, a)
		}
		return nil
	})
	sort.SliceStable(out, func(i, j int) bool { return out[i].Turn < out[j].Turn })
	return out, err
}

// applyAhead runs after a step (resolveOne): every held order for the
// turn g is now at, whose player has an open blocking prompt without
// orders, is checked against the player's view now and, if it fits,
// becomes their orders for the prompt, logged as any orders are (so that
// replay sees them); if it does not, the player is told at once, with the
// lines and why, and nothing of it applies. Held orders of turns gone by
// (a rollback, a turn skipped) are dropped with a notice.
func (s *Service) applyAhead(b store.Bucket, g *Game, st engine.State, now time.Time) ([]Notice, error) {
	ab := b.Bucket(bucketAhead)
	if ab == nil || g.Over() {
		return nil, nil
	}
	held, err := readAhead(b, "")
	if err != nil {
		return nil, err
	}
	var notices []Notice
	pb := b.Bucket(store.BucketPending)
	for _, a := range held {
		if a.Turn > g.Turn {
			continue
		}
		var prompt *engine.Prompt
		for _, p := range g.PromptsFor(a.Player) {
			if p.Kind.Blocks() && !contains(g.Answered, p.ID) {
				prompt = &p
				break
			}
		}
		if a.Turn == g.Turn && prompt == nil {
			continue // not asked yet in this turn (a sequential phase): later
		}
		if err := ab.Delete(aheadKey(a.Player, a.Turn)); err != nil {
			return nil, err
		}
		if a.Turn < g.Turn {
			notices = append(notices, tell("ahead", []string{a.Player},
				lang.M("Your orders held for turn %d of game %s were never applied: the game is at turn %d and was not asked anything of you in that turn.", a.Turn, g.ID, g.Turn)))
			continue
		}
		orders, errs := st.View(a.Player).Parse(*prompt, a.Text)
		if len(errs) > 0 {
			var msgs []string
			for _, e := range errs[:min(len(errs), MaxLoggedErrors)] {
				msgs = append(msgs, limitLine(e.Error()))
			}
			if err := appendLog(b, &Entry{Time: now, Kind: "rejected", Step: g.Step + 1, Player: a.Player, Prompt: prompt.ID,
				Source: "ahead", Ref: a.Ref, Text: limitText(a.Text), Errors: msgs, ErrorsMore: len(errs) - len(msgs)}); err != nil {
				return nil, err
			}
			notices = append(notices, tell("ahead-rejected", []string{a.Player},
				lang.M("Your orders held for turn %d of game %s no longer fit, so none of them were applied; send your orders for the turn as usual. What did not fit:\n\n%s",
					a.Turn, g.ID, strings.Join(msgs, "\n\n"))))
			continue
		}
		text := engine.OrdersText(orders)
		e := &Entry{Time: now, Kind: "orders", Step: g.Step + 1, Player: a.Player, Prompt: prompt.ID, Source: "ahead", Ref: a.Ref, Text: text}
		if err := appendLog(b, e); err != nil {
			return nil, err
		}
		if err := putJSON(pb, []byte(prompt.ID), pending{Prompt: *prompt, Text: text, Source: "ahead", Ref: a.Ref, Seq: e.Seq, Time: now, Count: 1}); err != nil {
			return nil, err
		}
		g.Answered = append(g.Answered, prompt.ID)
		sortStrings(g.Answered)
		n := tell("ahead-applied", []string{a.Player}, lang.M("Your orders held for turn %d of game %s are now your orders for it:", a.Turn, g.ID))
		n.Said = text // the player's own orders, shown as theirs
		n.Receipt = g.receipt(st, *prompt, orders)
		notices = append(notices, n)
	}
	if len(held) > 0 {
		if err := writeGame(b, g); err != nil {
			return nil, err
		}
	}
	return notices, nil
}
