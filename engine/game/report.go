package game

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"orrery/engine"
	"orrery/engine/dice"
	"orrery/engine/lang"
	"orrery/engine/store"
)

// Report is what one player is told after a step: their own view of the
// board, the events and rolls they may see, the revealed seed of the step and
// the commitment to the next, and what is asked of them. Player "" is the GM,
// who sees everything.
type Report struct {
	Game    string
	Ruleset string
	Title   string
	Player  string // "" for the GM's report and for the public one
	// Public marks the report observers get (see Observer).
	Public bool
	Step   uint64
	Turn   int
	Phase  string
	Reason string // why the step resolved
	Board  string
	Status string
	Events []string
	// EventMsgs are the messages of Events, one each (nil for an event
	// recorded without one), and PhaseMsg Phase's: the mail side writes
	// them in the reader's language (lang.Msg), Events and Phase being
	// their English.
	EventMsgs []*lang.Msg
	PhaseMsg  *lang.Msg
	// News is how many of the first Events are about the reader's own
	// units, worlds and stores (engine.Event.Concerns): the report opens
	// with them, then what is asked, then everything else.
	News  int
	Rolls []dice.Roll
	// Defaults names the prompts whose default applied, visible to all:
	// who did not send orders is public knowledge, not what they sent.
	Defaults []string
	// RevealedSeed is the seed of this step; RevealedCommitment the
	// commitment published before it (sha256 of the seed).
	RevealedSeed       string
	RevealedCommitment string
	NextCommitment     string
	Prompts            []engine.Prompt // what is asked of this player now
	Waiting            []string        // who is still to send orders
	// Hands are the seats now played by someone other than their first
	// player ("seat bob, played by eve"): everyone sees that bob left.
	Hands    []Hand
	Outcome  engine.Outcome
	Deadline string // RFC 3339, or "" for none
	// Press is the press player sent or received while this step's report
	// was the latest (filled by StepReport, for HISTORY: the mails went out
	// at once); the GM's copy has all of it, an observer's none.
	Press []PressNote
	// DiceSecret is revealed once the game is over: every step's seed is
	// HMAC-SHA256(DiceSecret, "GAME:EPOCH:STEP") (scheme 1), or the SHA-256
	// of that (scheme 2), so players can check that no seed was chosen
	// after the fact.
	DiceSecret string
	// DiceScheme is the game's dice scheme (see dice.Scheme). Under
	// scheme 2 the report has the step's inputs (Inputs: every part's
	// head and hash; the salt and lines of those the reader may read),
	// their Digest, the RollSeed of the public rolls, and the Streams
	// of hidden dice the reader may see. HiddenSeed is the step's hidden
	// seed, given to the GM, and to everyone once the game is over (when
	// every input, roll and stream is shown to all).
	DiceScheme int
	Inputs     []dice.Part
	Digest     string
	RollSeed   string
	Streams    []dice.Stream
	HiddenSeed string
	// LastOrders is who sent the last orders the step used; LastResent
	// says they replaced earlier ones after everyone else's were in.
	LastOrders string
	LastResent bool
	// View is the view the board and status were drawn from (nil for a
	// public report of a ruleset without a public view): the mail side
	// draws its picture (engine.Drawer) and its data (engine.ViewData)
	// from it. It is never stored.
	View engine.View `json:"-"`
}

// Report builds the current report for player ("" for the GM).
func (s *Service) Report(ctx context.Context, id, player string) (*Report, error) {
	var r *Report
	err := s.st.View(ctx, func(tx store.Tx) error {
		b, err := gameBucket(tx, id)
		if err != nil {
			return err
		}
		g, err := readGame(b)
		if err != nil {
			return err
		}
		r, err = s.reportTx(b, g, g.Step, player, true)
		return err
	})
	return r, err
}

// PressNote is one press message as its reader may see it: From is ""
// when the press was grey and the reader is not its sender.
type PressNote struct {
	Time time.Time
	From string
	To   []string
	Text string
}

// pressFor lists the press of log entries sent while step was the latest,
// as player ("" the GM) may see it: only what they sent or received, and a
// grey sender's name only to the sender and the GM.
func pressFor(b store.Bucket, step uint64, player string) ([]PressNote, error) {
	if player == Observer {
		return nil, nil
	}
	// Only the press entries of that step are read (log-by-step), not a
	// long game's whole log.
	var out []PressNote
	err := entriesOfStep(b, step, "press", func(e *Entry) error {
		to, text := e.To, e.Text
		if to == nil {
			// Logged before To was recorded: "to ann, bob: text".
			head, rest, ok := strings.Cut(strings.TrimPrefix(text, "to "), ": ")
			if !ok {
				return nil
			}
			to, text = strings.Split(head, ", "), rest
		}
		if player != "" && player != e.Player && !contains(to, player) {
			return nil
		}
		from := e.Player
		if e.Anonymous && player != "" && player != e.Player {
			from = ""
		}
		out = append(out, PressNote{Time: e.Time, From: from, To: to, Text: text})
		return nil
	})
	return out, err
}

// StepReport builds the report of an earlier step as player saw it then,
// with the press they sent or received while it was the latest.
func (s *Service) StepReport(ctx context.Context, id string, step uint64, player string) (*Report, error) {
	if err := s.indexed(ctx); err != nil {
		return nil, err
	}
	var r *Report
	err := s.st.View(ctx, func(tx store.Tx) error {
		b, err := gameBucket(tx, id)
		if err != nil {
			return err
		}
		g, err := readGame(b)
		if err != nil {
			return err
		}
		if step > g.Step {
			return userErr(lang.MN("game %s has had %d step; there is no step %d yet", "game %s has had %d steps; there is no step %d yet", id, int(g.Step), int(step)))
		}
		if r, err = s.reportTx(b, g, step, player, step == g.Step); err != nil {
			return err
		}
		r.Press, err = pressFor(b, step, player)
		r.Press = heldPress(g, player, r.Press)
		return err
	})
	return r, err
}

func (s *Service) reportTx(b store.Bucket, g *Game, step uint64, player string, current bool) (*Report, error) {
	if g.Signup {
		return nil, userErr(lang.M("game %s has not started: %d of %d seats taken (JOIN %s to play)", g.ID, len(g.Players), g.Seats, g.ID))
	}
	if player != "" && player != Observer {
		if _, ok := g.PlayerByName(player); !ok {
			return nil, userErr(lang.M("there is no player %q in game %s", player, g.ID))
		}
	}
	rs, err := s.ruleset(g)
	if err != nil {
		return nil, err
	}
	rec, err := readStep(b, step)
	if err != nil {
		return nil, err
	}
	data := b.Bucket(store.BucketSnaps).Get(store.Key(step))
	if data == nil {
		return nil, fmt.Errorf("game %s has no snapshot of step %d", g.ID, step)
	}
	st, err := rs.LoadState(store.Copy(data))
	if err != nil {
		return nil, fmt.Errorf("game %s step %d: %w", g.ID, step, err)
	}
	return buildReport(g, rs, st, rec, player, current), nil
}

// Observer is the pseudo-player of public reports, for observers: the
// events and rolls addressed to everyone and, where the ruleset can draw one
// (engine.PublicViewer), the public board; never a seat's view or prompts.
const Observer = engine.Observer

func buildReport(g *Game, rs engine.Ruleset, st engine.State, rec *StepRecord, player string, current bool) *Report {
	r := &Report{
		Game: g.ID, Ruleset: g.Ruleset, Title: rs.Info().Title, Player: player,
		Step: rec.N, Turn: rec.Turn, Phase: rec.Phase, Reason: rec.Reason,
		RevealedSeed: rec.Seed, RevealedCommitment: rec.Commitment, NextCommitment: rec.NextCommitment,
		Outcome: st.Outcome(), Hands: g.HandsAt(rec.N),
	}
	if player == Observer {
		r.Player, r.Public = "", true
		r.Hands = g.PublicHandsAt(rec.N)
		if pv, ok := st.(engine.PublicViewer); ok {
			v := pv.PublicView()
			r.Board, r.Status, r.View = v.Board(), v.Status(), v
		}
	} else {
		v := st.View(player)
		r.Board, r.Status, r.View = v.Board(), v.Status(), v
	}
	if r.Outcome.Over {
		r.DiceSecret = g.DiceSecret
	}
	// The reader's own news first (engine.Event.Concerns), each part in
	// the order it happened.
	for _, own := range []bool{true, false} {
		for _, e := range rec.Events {
			if e.VisibleTo(player) && e.Concerns(player) == own {
				r.Events = append(r.Events, e.Text)
				r.EventMsgs = append(r.EventMsgs, e.Msg)
			}
		}
		if own {
			r.News = len(r.Events)
		}
	}
	if pm, ok := st.(engine.PhaseMessager); ok && st.Phase() == rec.Phase {
		m := pm.PhaseMsg()
		r.PhaseMsg = &m
	}
	// Once the game is over every die and every order is shown: the
	// dice secret, revealed then, would give them anyway.
	reveal := g.Over()
	for _, roll := range rec.Rolls {
		if roll.VisibleTo(player) || reveal {
			r.Rolls = append(r.Rolls, roll)
		}
	}
	r.DiceScheme, r.Digest, r.RollSeed = g.Scheme(), rec.Digest, rec.RollSeed
	r.LastOrders, r.LastResent = rec.LastOrders, rec.LastResent
	for _, p := range rec.Inputs {
		if !p.Readable(player) && !reveal {
			p = p.Redacted()
		}
		r.Inputs = append(r.Inputs, p)
	}
	for _, st := range rec.Streams {
		if player == "" || reveal || contains(st.To, player) {
			r.Streams = append(r.Streams, st)
		}
	}
	if r.DiceScheme >= dice.Scheme2 && (player == "" || reveal) {
		gg := *g
		gg.Epoch = epochOf(g, rec)
		r.HiddenSeed = gg.hiddenSeed(rec.N)
	}
	for _, a := range rec.Answers {
		if a.Default {
			r.Defaults = append(r.Defaults, a.Prompt.Player)
		}
	}
	if current {
		// After a rollback the next step has a new seed: always publish
		// the game's own commitment for what comes next.
		r.NextCommitment = g.NextCommitment()
		switch player {
		case "":
			r.Prompts = g.Prompts
		case Observer:
		default:
			r.Prompts = g.PromptsFor(player)
		}
		r.Waiting = g.Waiting()
		if !g.Deadline.IsZero() {
			r.Deadline = g.Deadline.Format("2006-01-02 15:04 MST")
		}
	}
	return r
}

// stepOf builds the reported form of a step just made from the state it
// left. The state is encoded now (it changes if another step follows in the
// same transaction); reports are built only when asked for.
func (s *Service) stepOf(g *Game, st engine.State, rec *StepRecord) Step {
	out := Step{StepRecord: *rec}
	rs, err := s.ruleset(g)
	if err != nil {
		return out
	}
	data, err := st.Marshal()
	if err != nil {
		return out
	}
	gc := *g
	gc.Prompts = append([]engine.Prompt(nil), g.Prompts...)
	gc.Answered = append([]string(nil), g.Answered...)
	gc.Players = append([]Player(nil), g.Players...)
	// Every reader's report is built from one decoded state, decoded when
	// the first is asked for: a step is mostly reported to all its players,
	// and decoding it again for each was 3–4% of the daemon's CPU in a
	// backlog drain. Views leave their state as they found it
	// (engine.State.View; enginetest.Conformance checks it).
	load := sync.OnceValues(func() (engine.State, error) { return rs.LoadState(data) })
	out.render = func(player string) (*Report, error) {
		if player != "" && player != Observer {
			if _, ok := gc.PlayerByName(player); !ok {
				return nil, userErr(lang.M("there is no player %q in game %s", player, gc.ID))
			}
		}
		st, err := load()
		if err != nil {
			return nil, err
		}
		return buildReport(&gc, rs, st, rec, player, true), nil
	}
	return out
}

// View is player's view of the game now ("" for the GM), as order checking
// and bots see it; it stays valid after the call (it holds its own state).
func (s *Service) View(ctx context.Context, id, player string) (engine.View, error) {
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
		if player != "" {
			if _, ok := g.PlayerByName(player); !ok {
				return userErr(lang.M("there is no player %q in game %s", player, g.ID))
			}
		}
		_, st, err := s.loadState(b, g)
		if err != nil {
			return err
		}
		v = st.View(player)
		return nil
	})
	return v, err
}
