// Package game is the turn life cycle: it creates games, takes orders,
// resolves steps when they are due, and keeps every input in an append-only
// log next to a snapshot of every state, in one bbolt transaction per change.
//
// A step is one call of State.Resolve. Each step has its own dice seed; the
// commitment to it is published before its orders are due and the seed is
// revealed in the step's record, so every roll can be checked afterwards.
package game

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"regexp"
	"strings"
	"time"

	"orrery/engine"
	"orrery/engine/lang"
	"orrery/engine/store"
)

// Service runs games stored in one database. It holds no mutable state of
// its own (only the knowledge that the store's indexes are current, once
// checked): everything is in the store, so several services (a daemon and
// a CLI, one after the other) see the same games.
type Service struct {
	st       *store.Store
	rulesets []engine.Ruleset
	now      func() time.Time
	log      *slog.Logger
	botSteps int
	hooks    []Hook
	index    *indexState // whether the derived indexes were found current
	// tickBatch is how many due games Tick claims a transaction:
	// the constant tickBatch, but smaller in tests of sharing.
	tickBatch int
	// time holds the server's time rules (notice.go): min_notice and
	// the yearly allowance of vacation days.
	time timeRules
}

// Option configures a Service.
type Option func(*Service)

// WithClock replaces the wall clock; tests drive time with it.
func WithClock(now func() time.Time) Option { return func(s *Service) { s.now = now } }

// WithLogger sets the logger.
func WithLogger(l *slog.Logger) Option { return func(s *Service) { s.log = l } }

// WithHooks adds hooks that run on every change made through the service,
// after the per-call ones: the mail side attaches its outbox here, so that a
// GM's change from the CLI queues its mails exactly as the daemon's would.
func WithHooks(h ...Hook) Option { return func(s *Service) { s.hooks = append(s.hooks, h...) } }

// WithBotStepLimit bounds how many bot submissions one call may chain
// (default 100,000); property tests use it to cap a game's length.
func WithBotStepLimit(n int) Option { return func(s *Service) { s.botSteps = n } }

// New returns a service over st hosting rulesets.
func New(st *store.Store, rulesets []engine.Ruleset, opts ...Option) *Service {
	s := &Service{st: st, rulesets: rulesets, now: time.Now, log: slog.New(slog.DiscardHandler), botSteps: 100000, index: &indexState{}, tickBatch: tickBatch, time: timeRules{minNotice: DefaultMinNotice}}
	for _, o := range opts {
		o(s)
	}
	return s
}

// Rulesets lists the hosted rulesets.
func (s *Service) Rulesets() []engine.Ruleset { return s.rulesets }

// Store is the service's store.
func (s *Service) Store() *store.Store { return s.st }

// UserError is a refusal worded for the person who sent the request; it is
// safe to send back to them (it never names what they may not see).
type UserError struct {
	Msg string
	// Why is Msg as a message, written in the reader's language by the
	// mail side; Msg is then its English. Nil for a refusal worded in
	// English only.
	Why *lang.Msg
}

func (e *UserError) Error() string { return e.Msg }

func userErrorf(format string, a ...any) error { return &UserError{Msg: fmt.Sprintf(format, a...)} }

// IsUserError reports whether err is a refusal for the requester.
func IsUserError(err error) bool {
	var ue *UserError
	return errors.As(err, &ue)
}

// Hook runs inside the write transaction of a change, after the engine's own
// writes, so that what the change causes (mails, receipts) commits with it.
// An error from a hook rolls the whole change back.
type Hook func(tx store.Tx, c *Change) error

// Change describes one committed change to a game.
type Change struct {
	Game    *Game // after the change
	Created bool
	Submit  *SubmitResult
	Steps   []Step
	Notices []Notice
	// Input is the submission that caused the change, if one did: a hook
	// passed to Submit also sees the bot submissions Submit chains after
	// it, and can tell them apart by this.
	Input *Input
	// Service lets a hook build reports inside the transaction.
	Service *Service
}

// PlayerSpec names a seat at creation.
type PlayerSpec struct {
	Name  string
	Email string
	Bot   bool
	// Lang is the language the player chose before the game (the mail
	// side's LANG setting of the address); "" for the game's default.
	Lang string
	// Zone is the address's time zone (the mail side's TZ setting), in
	// which the game keeps its quiet hours; "" for the game's zone.
	Zone string
}

// CreateRequest is what a GM gives to start a game.
type CreateRequest struct {
	ID       string
	Ruleset  string
	Players  []PlayerSpec
	Options  map[string]string
	Settings *Settings // nil: Early on, no deadline
	// DiceSecret fixes the dice secret (tests, imports); empty: random.
	DiceSecret string
	// Seats is the number of players the game needs; with fewer seated it
	// is open for JOIN (Signup) and has no state yet.
	Seats int
	// Creator is the address that opened the game by mail (NEW), which
	// may START and INVITE; "" for the GM's games.
	Creator string
}

var (
	idPattern   = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,31}$`)
	namePattern = regexp.MustCompile(`^[a-z][a-z0-9_-]{0,15}$`)
)

// Create sets a new game up and stores it with its setup as step 0. With
// Seats above the number of players named, the game is open: it waits for
// players to Join, and starts when the last seat is taken.
func (s *Service) Create(ctx context.Context, req CreateRequest, hooks ...Hook) (*Game, error) {
	if !idPattern.MatchString(req.ID) {
		return nil, userErr(lang.M("game id %q must be 1–32 lowercase letters, digits or dashes, starting with a letter or digit", req.ID))
	}
	rs, err := engine.Find(s.rulesets, req.Ruleset)
	if err != nil {
		return nil, &UserError{Msg: err.Error()}
	}
	info := rs.Info()
	seats := len(req.Players)
	if req.Seats > seats {
		seats = req.Seats
	}
	if seats < info.MinPlayers || seats > info.MaxPlayers {
		return nil, userErr(lang.M("%s takes %d to %d players, not %d", info.Title, info.MinPlayers, info.MaxPlayers, seats))
	}
	g := &Game{ID: req.ID, Ruleset: info.Name, Created: s.now().UTC(), Settings: DefaultSettings(), Seats: seats, Creator: req.Creator}
	if req.Settings != nil {
		g.Settings = *req.Settings
	}
	if err := g.Settings.validate(); err != nil {
		return nil, err
	}
	for _, p := range req.Players {
		if err := g.seat(p); err != nil {
			return nil, err
		}
	}
	if g.Options, err = engine.ResolveOptions(info, req.Options); err != nil {
		if oe, ok := errors.AsType[*engine.OptionError](err); ok {
			return nil, userErr(oe.Why)
		}
		return nil, &UserError{Msg: err.Error()}
	}
	g.DiceSecret = req.DiceSecret
	if g.DiceSecret == "" {
		g.DiceSecret = randomHex(32)
	}
	g.Updated = g.Created
	// A new database gets its index marker with its first game, rather
	// than a rebuild at the first read.
	if err := s.indexed(ctx); err != nil {
		return nil, err
	}
	err = s.st.Update(ctx, func(tx store.Tx) error {
		games := tx.Bucket(store.BucketGames)
		if games.Bucket([]byte(g.ID)) != nil {
			return userErr(lang.M("a game named %q exists already", g.ID))
		}
		b, err := games.CreateBucket([]byte(g.ID))
		if err != nil {
			return fmt.Errorf("create game bucket: %w", err)
		}
		for _, name := range [][]byte{store.BucketLog, store.BucketSnaps, store.BucketSteps, store.BucketPending} {
			if _, err := b.CreateBucket(name); err != nil {
				return fmt.Errorf("create bucket %s: %w", name, err)
			}
		}
		if len(g.Players) < g.Seats {
			g.Signup = true
			if err := writeGame(b, g); err != nil {
				return err
			}
			return runHooks(tx, &Change{Game: g, Service: s, Notices: []Notice{tell("signup", []string{GM},
				lang.M("%s is open for players: %d of %d seats taken.", g.ID, len(g.Players), g.Seats))}}, hooks)
		}
		change, err := s.start(b, g, rs)
		if err != nil {
			return err
		}
		return runHooks(tx, change, hooks)
	})
	if err != nil {
		return nil, err
	}
	s.log.Info("game created", "game", g.ID, "ruleset", g.Ruleset, "players", len(g.Players), "seats", g.Seats)
	if err := s.playBots(ctx, g.ID, hooks); err != nil {
		return g, err
	}
	return s.Get(ctx, g.ID)
}

// seat adds a player to g, checking the name and address.
func (g *Game) seat(p PlayerSpec) error {
	name := strings.ToLower(strings.TrimSpace(p.Name))
	if !namePattern.MatchString(name) {
		return userErr(lang.M("player name %q must be 1–16 lowercase letters, digits, _ or -, starting with a letter", p.Name))
	}
	if _, taken := g.PlayerByName(name); taken {
		return userErr(lang.M("player %q is named twice", name))
	}
	email := strings.TrimSpace(p.Email)
	if email != "" && !strings.Contains(email, "@") {
		return userErr(lang.M("player %s: %q is not a mail address", name, p.Email))
	}
	if email != "" {
		if other, ok := g.PlayerByEmail(email); ok {
			return userErr(lang.M("players %s and %s have the same address %s", other.Name, name, email))
		}
	}
	g.Players = append(g.Players, Player{Name: name, Email: email, Secret: randomWord(), Bot: p.Bot, Lang: p.Lang, Zone: p.Zone})
	return nil
}

// start sets up the state of a game whose seats are all taken, as step 0.
func (s *Service) start(b store.Bucket, g *Game, rs engine.Ruleset) (*Change, error) {
	info := rs.Info()
	g.Signup = false
	g.RulesVersion = info.Version
	g.DiceScheme = DiceScheme
	setup := engine.Setup{GameID: g.ID, Options: g.Options, RulesVersion: info.Version}
	for _, p := range g.Players {
		setup.Players = append(setup.Players, p.Name)
		if p.Lang != "" {
			if setup.Languages == nil {
				setup.Languages = map[string]string{}
			}
			setup.Languages[p.Name] = p.Lang
		}
	}
	// The seed of step 0 is revealed at once: nobody knew it before the
	// game existed, since the dice secret is drawn just now, after the
	// seats and options it rolls from were fixed.
	d, rec := g.stepDice(0, g.setupParts(setup))
	st, err := rs.NewState(setup, d)
	if err != nil {
		return nil, fmt.Errorf("set up %s: %w", info.Name, err)
	}
	if err := d.Err(); err != nil {
		return nil, fmt.Errorf("set up %s: %w", info.Name, err)
	}
	data, err := st.Marshal()
	if err != nil {
		return nil, fmt.Errorf("encode the starting state: %w", err)
	}
	now := s.now().UTC()
	s.refresh(g, st)
	g.LastResolve = now
	if g.Deadline, _, err = g.nextDeadline(now, now); err != nil {
		return nil, err
	}
	rec.Turn, rec.Phase, rec.Reason, rec.Time = g.Turn, g.Phase, "setup", now
	rec.Rolls, rec.Streams, rec.NextCommitment = d.Rolls(), d.Streams(), g.NextCommitment()
	entry := &Entry{Time: now, Kind: "create", Setup: &setup}
	if err := appendLog(b, entry); err != nil {
		return nil, err
	}
	rec.LogSeq = entry.Seq
	if err := writeStep(b, rec, data); err != nil {
		return nil, err
	}
	if err := openHolders(b.Tx(), g, now); err != nil {
		return nil, err
	}
	away, err := s.standingVacations(b.Tx(), g, now, "")
	if err != nil {
		return nil, err
	}
	if err := writeGame(b, g); err != nil {
		return nil, err
	}
	return &Change{Game: g, Created: true, Service: s, Steps: []Step{s.stepOf(g, st, rec)}, Notices: away}, nil
}

// Join takes an open seat of a game in signup. The game starts, with its
// setup as step 0, when the last seat is taken.
func (s *Service) Join(ctx context.Context, id string, p PlayerSpec, hooks ...Hook) (*Game, error) {
	var out *Game
	err := s.st.Update(ctx, func(tx store.Tx) error {
		b, err := gameBucket(tx, id)
		if err != nil {
			return err
		}
		g, err := readGame(b)
		if err != nil {
			return err
		}
		if !g.Signup {
			// A game under way: JOIN takes an open seat (seats.go).
			change, err := s.takeSeat(b, g, p)
			if err != nil {
				return err
			}
			out = g
			return runHooks(tx, change, hooks)
		}
		if p.Email != "" {
			if other, ok := g.PlayerByEmail(p.Email); ok {
				return userErr(lang.M("%s already plays %s in %s", p.Email, other.Name, g.ID))
			}
		}
		if err := g.seat(p); err != nil {
			return err
		}
		joined := g.Players[len(g.Players)-1].Name
		if err := appendLog(b, &Entry{Time: s.now().UTC(), Kind: "gm", Player: joined, Source: "join", Text: fmt.Sprintf("%s joins as %s", p.Email, joined)}); err != nil {
			return err
		}
		out = g
		if len(g.Players) < g.Seats {
			if err := writeGame(b, g); err != nil {
				return err
			}
			return runHooks(tx, &Change{Game: g, Service: s, Notices: []Notice{tell("joined", []string{joined, GM},
				lang.M("%s joined %s as %s: %d of %d seats taken. The game starts when all are taken.", p.Email, g.ID, joined, len(g.Players), g.Seats))}}, hooks)
		}
		rs, err := s.ruleset(g)
		if err != nil {
			return err
		}
		change, err := s.start(b, g, rs)
		if err != nil {
			return err
		}
		return runHooks(tx, change, hooks)
	})
	if err != nil {
		return nil, err
	}
	if err := s.playBots(ctx, id, hooks); err != nil {
		return out, err
	}
	return s.Get(ctx, id)
}

func writeStep(b store.Bucket, rec *StepRecord, state []byte) error {
	if err := b.Put(store.KeyState, state); err != nil {
		return err
	}
	if err := b.Bucket(store.BucketSnaps).Put(store.Key(rec.N), state); err != nil {
		return err
	}
	return putJSON(b.Bucket(store.BucketSteps), store.Key(rec.N), rec)
}

func runHooks(tx store.Tx, c *Change, hooks []Hook) error {
	for _, h := range hooks {
		if err := h(tx, c); err != nil {
			return err
		}
	}
	for _, h := range c.Service.hooks {
		if err := h(tx, c); err != nil {
			return err
		}
	}
	return nil
}

// refresh copies what the life cycle shows of a state into g.
func (s *Service) refresh(g *Game, st engine.State) {
	g.Turn = st.Turn()
	g.Phase = st.Phase()
	g.Outcome = st.Outcome()
	g.Prompts = nil
	if !g.Outcome.Over {
		g.Prompts = st.Prompts()
	}
}

// Get reads a game's record.
func (s *Service) Get(ctx context.Context, id string) (*Game, error) {
	var g *Game
	err := s.st.View(ctx, func(tx store.Tx) error {
		var err error
		if g, err = s.getTx(tx, id); err == nil {
			withTicks(tx, g)
		}
		return err
	})
	return g, err
}

// GetTx reads a game's record inside a transaction (for hooks and the mail
// side's routing). Unlike Get, it does not read Ticked and Wake from the
// ticks bucket (a round trip more on PostgreSQL, and no caller needs them).
func (s *Service) GetTx(tx store.Tx, id string) (*Game, error) { return s.getTx(tx, id) }

func (s *Service) getTx(tx store.Tx, id string) (*Game, error) {
	b, err := gameBucket(tx, id)
	if err != nil {
		return nil, err
	}
	return readGame(b)
}

func (s *Service) ruleset(g *Game) (engine.Ruleset, error) {
	rs, err := engine.Find(s.rulesets, g.Ruleset)
	if err != nil {
		return nil, fmt.Errorf("game %s: %w", g.ID, err)
	}
	return rs, nil
}

func (s *Service) loadState(b store.Bucket, g *Game) (engine.Ruleset, engine.State, error) {
	rs, err := s.ruleset(g)
	if err != nil {
		return nil, nil, err
	}
	data := b.Get(store.KeyState)
	if data == nil {
		return nil, nil, fmt.Errorf("game %s has no state", g.ID)
	}
	st, err := rs.LoadState(store.Copy(data))
	if err != nil {
		return nil, nil, fmt.Errorf("game %s: load state: %w", g.ID, err)
	}
	return rs, st, nil
}

func randomHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic("crypto/rand failed: " + err.Error()) // the OS has no entropy: nothing sensible to do
	}
	return hex.EncodeToString(b)
}

// randomWord makes a player secret that survives being typed from a phone:
// lowercase letters and digits without look-alikes.
func randomWord() string {
	const alphabet = "abcdefghjkmnpqrstuvwxyz23456789"
	b := make([]byte, 10)
	if _, err := rand.Read(b); err != nil {
		panic("crypto/rand failed: " + err.Error())
	}
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return string(b)
}
