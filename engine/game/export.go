package game

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"orrery/engine"
	"orrery/engine/store"
)

// ExportFormat names the version of the export document: orrery-game/2
// carries orders held for later turns (Export.Ahead), which a release
// that reads only orrery-game/1 would drop without a word. An export with
// no held orders is still written as ExportFormatV1, which every release
// reads; Import reads both.
const (
	ExportFormat   = "orrery-game/2"
	ExportFormatV1 = "orrery-game/1"
)

// Export is a whole game as a readable JSON document: its record (players,
// settings, schedule), its current state, every log entry, any orders
// waiting for the next step and any held for a later turn (Hold): a
// server moved by export and import keeps what its players sent ahead.
// Snapshots and step records are not in it: an
// import rebuilds them by replaying the log, which is also how it checks the
// document.
type Export struct {
	Format  string             `json:"format"`
	Game    *Game              `json:"game"`
	State   json.RawMessage    `json:"state"`
	Log     []*Entry           `json:"log"`
	Pending map[string]pending `json:"pending,omitempty"`
	// Ahead is the orders players hold for later turns, by player and
	// turn. They are not in the log until they apply (applyAhead), so
	// the export carries them beside it.
	Ahead []Ahead `json:"ahead,omitempty"`
	// Redacted names the secrets left out (Redact): such an export is
	// for reading, and Import refuses it.
	Redacted []string `json:"redacted,omitempty"`
}

// Export reads a game into an Export document.
func (s *Service) Export(ctx context.Context, id string) (*Export, error) {
	x := &Export{Format: ExportFormat}
	err := s.st.View(ctx, func(tx store.Tx) error {
		b, err := gameBucket(tx, id)
		if err != nil {
			return err
		}
		if x.Game, err = readGame(b); err != nil {
			return err
		}
		withTicks(tx, x.Game)
		state := store.Copy(b.Get(store.KeyState))
		if !json.Valid(state) {
			return fmt.Errorf("game %s: its state is not JSON and cannot be exported readably", id)
		}
		x.State = state
		if x.Log, err = readLog(b); err != nil {
			return err
		}
		if x.Pending, err = readPending(b); err != nil {
			return err
		}
		x.Ahead, err = readAhead(b, "")
		return err
	})
	if err == nil && len(x.Ahead) == 0 {
		x.Format = ExportFormatV1
	}
	return x, err
}

// ImportOptions tune Import.
type ImportOptions struct {
	// Replace overwrites a game with the same id.
	Replace bool
}

// ImportResult says what Import did.
type ImportResult struct {
	Game *Game
	// Edited is set when the document's state differs from what its log
	// replays to: the GM edited it by hand, and the edit was logged as
	// an input so that verify holds.
	Edited bool
}

// Import checks an Export document and stores it: the log must replay
// cleanly; snapshots and step records are rebuilt from it. A state that
// differs from the replay is taken as the GM's hand edit and logged as such.
func (s *Service) Import(ctx context.Context, x *Export, opt ImportOptions) (*ImportResult, error) {
	switch {
	case x.Format == ExportFormatV1 && len(x.Ahead) > 0:
		return nil, userErrorf("the export says format %q but holds orders for later turns, which only %q carries", x.Format, ExportFormat)
	case x.Format == ExportFormat || x.Format == ExportFormatV1:
	case strings.HasPrefix(x.Format, "orrery-game/"):
		return nil, userErrorf("the export is format %q, newer than this Orrery reads (%q and %q): import it with the release that wrote it, or a later one", x.Format, ExportFormatV1, ExportFormat)
	default:
		return nil, userErrorf("not an Orrery game export (format %q, want %q)", x.Format, ExportFormat)
	}
	if err := x.checkNotRedacted(); err != nil {
		return nil, err
	}
	if x.Game == nil || len(x.Log) == 0 {
		return nil, userErrorf("the export has no game record or no log")
	}
	g := x.Game
	if !idPattern.MatchString(g.ID) {
		return nil, userErrorf("game id %q is not valid", g.ID)
	}
	rs, err := s.ruleset(g)
	if err != nil {
		return nil, &UserError{Msg: err.Error()}
	}
	if err := g.Settings.validate(); err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for _, p := range g.Players {
		if !namePattern.MatchString(p.Name) || seen[p.Name] {
			return nil, userErrorf("player name %q is invalid or repeated", p.Name)
		}
		seen[p.Name] = true
		if p.Email != "" && !strings.Contains(p.Email, "@") {
			return nil, userErrorf("player %s: %q is not a mail address", p.Name, p.Email)
		}
		if p.Secret == "" {
			return nil, userErrorf("player %s has no secret", p.Name)
		}
	}
	if g.DiceSecret == "" {
		return nil, userErrorf("the export has no dice secret: its seeds could not be checked")
	}
	if g.DiceScheme < 0 || g.DiceScheme > DiceScheme {
		return nil, userErrorf("game %s rolls its dice under scheme %d, which this server does not know (it knows 1 to %d): import it with the release that exported it", g.ID, g.DiceScheme, DiceScheme)
	}
	if err := x.checkAhead(); err != nil {
		return nil, err
	}
	if _, err := rs.LoadState(append([]byte(nil), x.State...)); err != nil {
		return nil, userErrorf("the state does not load as a %s state: %v", g.Ruleset, err)
	}
	for i, e := range x.Log {
		if e.Seq != uint64(i+1) {
			return nil, userErrorf("log entry %d is numbered %d: entries must be numbered 1, 2, 3, …", i+1, e.Seq)
		}
	}
	r, err := replayLog(ctx, rs, g, x.Log)
	if err != nil {
		return nil, err
	}
	if len(r.problems) > 0 {
		return nil, userErrorf("the log does not replay: %s", strings.Join(r.problems, "; "))
	}
	if r.step != g.Step || r.epoch != g.Epoch {
		return nil, userErrorf("the game record says step %d epoch %d, the log replays to step %d epoch %d", g.Step, g.Epoch, r.step, r.epoch)
	}
	res := &ImportResult{Game: g}
	log := x.Log
	replayedState, err := r.state.Marshal()
	if err != nil {
		return nil, err
	}
	// Normalise the document's state the way the ruleset writes it, so
	// that reformatting alone is not an edit.
	st, _ := rs.LoadState(append([]byte(nil), x.State...))
	state, err := st.Marshal()
	if err != nil {
		return nil, err
	}
	if !bytes.Equal(state, replayedState) {
		res.Edited = true
		e := &Entry{Seq: uint64(len(log) + 1), Time: s.now().UTC(), Kind: "edit", Step: g.Step, Source: "gm", Text: string(state)}
		log = append(log, e)
		r.snaps[g.Step] = state
	}
	s.refresh(g, st)
	// Pending orders must be what the log last accepted; orders that
	// differ (edited by hand) are logged as the GM's, so verify holds.
	latest := map[string]string{}
	for _, e := range log {
		switch e.Kind {
		case "orders":
			latest[e.Prompt] = e.Text
		case "resolve", "rollback", "edit":
			clear(latest)
		}
	}
	open := map[string]bool{}
	for _, p := range g.Prompts {
		open[p.ID] = true
	}
	keep := map[string]pending{}
	ids := make([]string, 0, len(x.Pending))
	for id := range x.Pending {
		ids = append(ids, id)
	}
	sortStrings(ids)
	for _, id := range ids {
		p := x.Pending[id]
		// After a hand edit of the state, earlier orders may not fit:
		// players send again.
		if !open[id] || res.Edited {
			continue
		}
		orders, errs := st.View(p.Prompt.Player).Parse(p.Prompt, p.Text)
		if len(errs) > 0 {
			return nil, userErrorf("pending orders for %s do not parse: %v", id, errs[0])
		}
		p.Text = engine.OrdersText(orders)
		if want, ok := latest[id]; !ok || want != p.Text {
			e := &Entry{Seq: uint64(len(log) + 1), Time: s.now().UTC(), Kind: "orders", Step: g.Step + 1,
				Player: p.Prompt.Player, Prompt: id, Source: "gm", Ref: "import", Text: p.Text}
			log = append(log, e)
			p.Seq, p.Source = e.Seq, "gm"
			p.Count = r.subs[id].count + 1
		} else {
			p.Count = r.subs[id].count // as the log counts them
		}
		keep[id] = p
	}
	err = s.st.Update(ctx, func(tx store.Tx) error {
		games := tx.Bucket(store.BucketGames)
		if games.Bucket([]byte(g.ID)) != nil {
			if !opt.Replace {
				return userErrorf("a game named %q exists already (import with --replace to overwrite it)", g.ID)
			}
			// The old record's index entries leave with it.
			if prev, err := readGame(games.Bucket([]byte(g.ID))); err == nil {
				if err := removeIndexes(tx, prev); err != nil {
					return err
				}
			}
			if err := games.DeleteBucket([]byte(g.ID)); err != nil {
				return err
			}
		}
		b, err := games.CreateBucket([]byte(g.ID))
		if err != nil {
			return err
		}
		for _, name := range [][]byte{store.BucketLog, store.BucketSnaps, store.BucketSteps, store.BucketPending} {
			if _, err := b.CreateBucket(name); err != nil {
				return err
			}
		}
		lb := b.Bucket(store.BucketLog)
		for _, e := range log {
			if err := putJSON(lb, store.Key(e.Seq), e); err != nil {
				return err
			}
			if err := indexLogEntry(b, e); err != nil {
				return err
			}
		}
		if err := lb.SetSequence(uint64(len(log))); err != nil {
			return err
		}
		for n, data := range r.snaps {
			if err := b.Bucket(store.BucketSnaps).Put(store.Key(n), data); err != nil {
				return err
			}
			if err := putJSON(b.Bucket(store.BucketSteps), store.Key(n), r.steps[n]); err != nil {
				return err
			}
		}
		if err := b.Put(store.KeyState, state); err != nil {
			return err
		}
		g.Answered = nil
		for id, p := range keep {
			if err := putJSON(b.Bucket(store.BucketPending), []byte(id), p); err != nil {
				return err
			}
			g.Answered = append(g.Answered, id)
		}
		sortStrings(g.Answered)
		if len(x.Ahead) > 0 {
			ab, err := b.CreateBucket(bucketAhead)
			if err != nil {
				return err
			}
			for _, a := range x.Ahead {
				if err := putJSON(ab, aheadKey(a.Player, a.Turn), a); err != nil {
					return err
				}
			}
		}
		if err := writeGame(b, g); err != nil {
			return err
		}
		v := &VerifyResult{Game: g.ID}
		if err := s.verifyTx(ctx, b, g, v); err != nil {
			return err
		}
		if !v.OK() {
			return userErrorf("the imported game does not verify: %s", strings.Join(v.Problems, "; "))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// checkAhead refuses held orders Import could not apply: of no player of
// the game, for no turn, or twice for the same player and turn. Their text
// is not checked here: held orders are checked against the position when
// their turn opens, as they would have been on the exporting server (and
// those of a turn gone by are dropped then, with a notice to the player).
func (x *Export) checkAhead() error {
	seen := map[string]bool{}
	for _, a := range x.Ahead {
		if _, ok := x.Game.PlayerByName(a.Player); !ok {
			return userErrorf("orders held for turn %d are of %q, who is not a player of game %s", a.Turn, a.Player, x.Game.ID)
		}
		if a.Turn < 1 {
			return userErrorf("orders of %s are held for turn %d: turns are numbered from 1", a.Player, a.Turn)
		}
		k := string(aheadKey(a.Player, a.Turn))
		if seen[k] {
			return userErrorf("orders of %s are held twice for turn %d: keep one", a.Player, a.Turn)
		}
		seen[k] = true
	}
	return nil
}
