package game

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"orrery/engine"
	"orrery/engine/dice"
	"orrery/engine/lang"
	"orrery/engine/store"
)

// Player is a seat in a game.
type Player struct {
	Name   string `json:"name"`
	Email  string `json:"email,omitempty"`
	Secret string `json:"secret"` // proves a mail comes from this player
	Bot    bool   `json:"bot,omitempty"`
	// Lang is the language chosen when the seat was taken (PlayerSpec);
	// it goes into the setup, nowhere else.
	Lang string `json:"lang,omitempty"`
	// Holders is everyone who held the seat since the game started, the
	// current holder last (seats.go); empty in games older than it.
	Holders []Holder `json:"holders,omitempty"`
	// Zone is the IANA time zone of the seat's holder (the mail side's
	// TZ setting of the address, kept here by SetZone): quiet hours are
	// kept in it (quiet.go). "" is the game's zone.
	Zone string `json:"zone,omitempty"`
}

// Game is what the life cycle knows of a game, apart from its state.
type Game struct {
	ID      string `json:"id"`
	Ruleset string `json:"ruleset"`
	// RulesVersion is the ruleset's Info.Version when the game was set up
	// (0: before versions were recorded).
	RulesVersion int               `json:"rules_version,omitempty"`
	Options      map[string]string `json:"options"`
	Players      []Player          `json:"players"`
	Created      time.Time         `json:"created"`
	Updated      time.Time         `json:"updated"`
	Step         uint64            `json:"step"`  // resolutions done; 0 = just set up
	Epoch        int               `json:"epoch"` // rollbacks so far; part of every seed
	Turn         int               `json:"turn"`
	Phase        string            `json:"phase"`
	Prompts      []engine.Prompt   `json:"prompts"`
	Answered     []string          `json:"answered,omitempty"` // prompt ids with pending orders
	Outcome      engine.Outcome    `json:"outcome"`
	Settings     Settings          `json:"settings"`
	Deadline     time.Time         `json:"deadline,omitempty"` // zero: none
	// Schedule state, kept so that a restart neither repeats nor skips
	// a reminder or a deadline.
	Paused     bool      `json:"paused,omitempty"`
	PausedAt   time.Time `json:"paused_at,omitempty"`
	ResolveAt  time.Time `json:"resolve_at,omitempty"` // early resolution due
	Reminded   []string  `json:"reminded,omitempty"`   // reminder offsets sent this step
	LateNotice bool      `json:"late_notice,omitempty"`
	Waits      []string  `json:"waits,omitempty"` // players who said WAIT this step
	// Alive lists the players who showed a sign of life this step
	// without orders that count (a mail held as a possible stale copy):
	// defaults played for them are no miss (SignOfLife).
	Alive       []string       `json:"alive,omitempty"`
	Missed      map[string]int `json:"missed,omitempty"` // steps in a row played by defaults
	Abandoned   []string       `json:"abandoned,omitempty"`
	Kicked      []string       `json:"kicked,omitempty"`
	Vacations   []Vacation     `json:"vacations,omitempty"`
	Observers   []string       `json:"observers,omitempty"`
	LastResolve time.Time      `json:"last_resolve,omitempty"`
	// AutoWait is, for each player the step waits for on their yearly
	// allowance of vacation days, when the wait began (the deadline
	// that passed) and the deadline it reached (allowance.go).
	AutoWait map[string]Span `json:"auto_wait,omitempty"`
	// Ticked is when Tick last looked at the game; Wake is when it must
	// look next (zero: never), its key in the wake index. Both are kept
	// in the ticks bucket, not in the stored record (ticks.go): Get and
	// Export fill them in; other reads leave them as the record has
	// them, zero (or, in a record written before schema version 3, the
	// times then). An export shows them under these JSON names.
	Ticked time.Time `json:"ticked,omitempty"`
	Wake   time.Time `json:"wake,omitempty"`
	// ticksRead says Ticked holds the stored time (or the one Tick
	// records), not what the record carried; storedWake, when not nil,
	// is the game's wake entry as stored (Tick knows it without a read).
	ticksRead  bool
	storedWake *time.Time
	// DiceSecret derives every step's seed. It never leaves the server
	// before the game ends, except in a GM export; the final report
	// reveals it so that every seed can be checked against it.
	DiceSecret string `json:"dice_secret"`
	// Seats is how many players the game needs; Signup is set while it
	// has fewer and waits for JOIN (it has no state until then).
	Seats  int  `json:"seats"`
	Signup bool `json:"signup,omitempty"`
	// DiceScheme is how the game's dice are derived (dice.Scheme1 or
	// dice.Scheme2), recorded at setup as RulesVersion is; 0: before
	// schemes were recorded, which is scheme 1.
	DiceScheme int `json:"dice_scheme,omitempty"`
	// Creator is the address that opened the game by mail (NEW), which
	// may START it early and INVITE others; Invited the addresses it
	// invited; Unreachable the seats whose address bounces (bounced.go:
	// kept for their holder while Bouncing, abandoned after).
	Creator     string   `json:"creator,omitempty"`
	Invited     []string `json:"invited,omitempty"`
	Unreachable []string `json:"unreachable,omitempty"`
}

// Settings are the life-cycle settings of a game, apart from its rules.
type Settings struct {
	// Early resolves a step as soon as every blocking prompt is answered.
	Early bool `json:"early"`
	// EarlyDelay, with Early, waits this long after the last orders arrive,
	// so that a player may still change theirs or say WAIT.
	EarlyDelay time.Duration `json:"early_delay,omitempty"`
	// TurnLength sets the deadline that long after each step.
	TurnLength time.Duration `json:"turn_length,omitempty"`
	// Schedule sets fixed deadlines instead, as "Mon 18:00" entries in
	// TimeZone. MinGap keeps at least that long between two steps, in
	// either mode: no deadline and no early resolution falls inside it.
	Schedule []string      `json:"schedule,omitempty"`
	TimeZone string        `json:"time_zone,omitempty"` // IANA name; default UTC
	MinGap   time.Duration `json:"min_gap,omitempty"`
	// QuietHours, as "23:00-07:00", are hours of the night in which no
	// computed deadline falls for any seated player, in that player's
	// own zone (quiet.go); "" for none. WeekendsOff stops the deadline
	// clock from Saturday 00:00 to Monday 00:00 in TimeZone.
	QuietHours  string `json:"quiet_hours,omitempty"`
	WeekendsOff bool   `json:"weekends_off,omitempty"`
	// Grace takes late orders this long after the deadline before the
	// defaults apply; the late players get one notice when it starts.
	Grace time.Duration `json:"grace,omitempty"`
	// TellLate tells the other players, once, who is late.
	TellLate bool `json:"tell_late,omitempty"`
	// Reminders are offsets before the deadline at which players whose
	// orders are missing get one reminder each.
	Reminders []time.Duration `json:"reminders,omitempty"`
	// AbandonAfter marks a seat abandoned after that many steps in a row
	// played by defaults (0: never); the GM is told.
	AbandonAfter int `json:"abandon_after,omitempty"`
	// ReturnWindow is how many turns after the bot took an abandoned
	// seat ("bot" policy) its player may still write and get it back
	// (0: DefaultReturnWindow; returns.go).
	ReturnWindow int `json:"return_window,omitempty"`
	// Abandoned is what becomes of an abandoned seat (or one whose
	// address still bounces after BounceWindow steps by defaults:
	// bounced.go): "defaults" ("" too: it plays its defaults),
	// "bot" (the ruleset's bot takes it) or "open" (anyone may JOIN it).
	Abandoned string `json:"abandoned,omitempty"`
	// Vacation is "extend" (deadlines wait for the absent player, up to
	// MaxVacation) or "defaults" (their defaults apply while away).
	Vacation    string        `json:"vacation,omitempty"`
	MaxVacation time.Duration `json:"max_vacation,omitempty"`
	// Press is "off", "signed" or "grey" (anonymous); PressToGM copies
	// every press message to the GM.
	Press     string `json:"press,omitempty"`
	PressToGM bool   `json:"press_to_gm,omitempty"`
	// Observers is "open" (anyone may subscribe to the public reports by
	// mail; "" means open) or "gm" (only the GM subscribes observers, from
	// the CLI): a private game's events stay among its players.
	Observers string `json:"observers,omitempty"`
}

// DefaultSettings are what a game gets when its creator says nothing.
func DefaultSettings() Settings {
	return Settings{Early: true, Vacation: "defaults", MaxVacation: 14 * 24 * time.Hour, Press: "signed"}
}

// Vacation is a declared absence.
type Vacation struct {
	Player string    `json:"player"`
	From   time.Time `json:"from"`
	To     time.Time `json:"to"`
}

// PlayerByName finds a seat by name, case-insensitively.
func (g *Game) PlayerByName(name string) (Player, bool) {
	for _, p := range g.Players {
		if strings.EqualFold(p.Name, name) {
			return p, true
		}
	}
	return Player{}, false
}

// PlayerByEmail finds a seat by mail address, compared as CanonAddress
// says: ASCII case aside, exactly (a lookalike address is not the seat's).
func (g *Game) PlayerByEmail(addr string) (Player, bool) {
	addr = CanonAddress(addr)
	for _, p := range g.Players {
		if p.Email != "" && CanonAddress(p.Email) == addr {
			return p, true
		}
	}
	return Player{}, false
}

// Over reports whether the game has ended.
func (g *Game) Over() bool { return g.Outcome.Over }

// Waiting lists, in seat order, the players with a blocking prompt that has
// no accepted orders yet.
func (g *Game) Waiting() []string {
	answered := make(map[string]bool, len(g.Answered))
	for _, id := range g.Answered {
		answered[id] = true
	}
	var out []string
	seen := map[string]bool{}
	for _, pl := range g.Players {
		for _, p := range g.Prompts {
			if p.Player == pl.Name && p.Kind.Blocks() && !answered[p.ID] && !seen[pl.Name] {
				out = append(out, pl.Name)
				seen[pl.Name] = true
			}
		}
	}
	return out
}

// PromptsFor lists the open prompts of one player.
func (g *Game) PromptsFor(player string) []engine.Prompt {
	var out []engine.Prompt
	for _, p := range g.Prompts {
		if p.Player == player {
			out = append(out, p)
		}
	}
	return out
}

// NextCommitment is the commitment to the seed of the next step: what
// players are shown before their orders for it are due.
func (g *Game) NextCommitment() string {
	return dice.Commitment(g.seed(g.Step + 1))
}

// seed derives the seed of a step, the one revealed after it: under scheme
// 1 HMAC-SHA256(dice secret, "ID:EPOCH:STEP"), under scheme 2 the SHA-256
// of that (see dice.Scheme). The epoch grows with each GM rollback, so a
// step played again never reuses a seed that was already revealed.
func (g *Game) seed(step uint64) string {
	if g.Scheme() >= dice.Scheme2 {
		return dice.PublicSeed(g.hiddenSeed(step))
	}
	return g.hiddenSeed(step)
}

// Entry is one line of a game's log: every input, in order. Replaying the
// create entry and then every resolve entry rebuilds every state.
type Entry struct {
	Seq    uint64    `json:"seq"`
	Time   time.Time `json:"time"`
	Kind   string    `json:"kind"` // create, orders, rejected, resolve
	Step   uint64    `json:"step"` // create: 0; orders: the step they are for; resolve: the step made
	Player string    `json:"player,omitempty"`
	Prompt string    `json:"prompt,omitempty"`
	Source string    `json:"source,omitempty"` // mail, cli, gm, bot
	Ref    string    `json:"ref,omitempty"`    // e.g. the Message-ID of the mail
	Text   string    `json:"text,omitempty"`   // canonical orders, or the rejected text
	Errors []string  `json:"errors,omitempty"` // rejected: what was wrong (at most MaxLoggedErrors)
	Reason string    `json:"reason,omitempty"` // resolve: all-answered, deadline, forced, anytime
	// Answers are the orders a resolve used, in the order given to Resolve.
	Answers []AnswerRecord `json:"answers,omitempty"`
	// Setup is set on the create entry.
	Setup *engine.Setup `json:"setup,omitempty"`
	// To and Anonymous are set on press: who it went to, and whether the
	// sender's name was kept from them (grey press). Text is the message.
	To        []string `json:"to,omitempty"`
	Anonymous bool     `json:"anonymous,omitempty"`
	// ErrorsMore counts the errors of a rejected entry not kept in Errors.
	ErrorsMore int `json:"errors_more,omitempty"`
}

// AnswerRecord is an answer as stored: canonical text, parsed again on replay.
type AnswerRecord struct {
	Prompt  engine.Prompt `json:"prompt"`
	Text    string        `json:"text"`
	Default bool          `json:"default,omitempty"`
}

// StepRecord is what one resolution produced, kept for reports, history and
// verify.
type StepRecord struct {
	N              uint64         `json:"n"`
	Turn           int            `json:"turn"`  // after the step
	Phase          string         `json:"phase"` // after the step
	Reason         string         `json:"reason"`
	Time           time.Time      `json:"time"`
	Answers        []AnswerRecord `json:"answers,omitempty"`
	Events         []engine.Event `json:"events,omitempty"`
	Rolls          []dice.Roll    `json:"rolls,omitempty"`
	Seed           string         `json:"seed"`
	Commitment     string         `json:"commitment"`
	NextCommitment string         `json:"next_commitment"`
	// Under dice scheme 2: the step's inputs as they entered its dice
	// (one part per answer, or the setup), their digest, the seed of the
	// public rolls, and the seeds of the hidden streams rolled from.
	Inputs   []dice.Part   `json:"inputs,omitempty"`
	Digest   string        `json:"digest,omitempty"`
	RollSeed string        `json:"roll_seed,omitempty"`
	Streams  []dice.Stream `json:"streams,omitempty"`
	// LastOrders is the player whose orders, among those the step used,
	// came in last; LastResent says they replaced earlier ones after
	// every other player's were in (see lastOrders).
	LastOrders string `json:"last_orders,omitempty"`
	LastResent bool   `json:"last_resent,omitempty"`
	// LogSeq is the log entry that made the step (create, resolve): what
	// was logged while the step was the latest lies between it and the
	// next step's, so HISTORY reads that stretch of the log, not all of
	// it. 0 in records older than it.
	LogSeq uint64 `json:"log_seq,omitempty"`
}

// pending is an accepted set of orders waiting for its step to resolve.
type pending struct {
	Prompt engine.Prompt `json:"prompt"`
	Text   string        `json:"text"`
	Source string        `json:"source"`
	Ref    string        `json:"ref,omitempty"`
	Seq    uint64        `json:"seq"`
	Time   time.Time     `json:"time"`
	// Count is how many submissions were accepted for the prompt since
	// it was last resolved (0 in records older than the count: 1).
	Count int `json:"count,omitempty"`
}

// gameBucket returns the bucket of game id, or a UserError if none.
func gameBucket(tx store.Tx, id string) (store.Bucket, error) {
	b := tx.Bucket(store.BucketGames).Bucket([]byte(id))
	if b == nil {
		return nil, userErr(lang.M("no game named %q", id))
	}
	return b, nil
}

func readGame(b store.Bucket) (*Game, error) {
	var g Game
	if err := engine.DecodeJSON(b.Get(store.KeyInfo), &g); err != nil {
		return nil, fmt.Errorf("read game record: %w", err)
	}
	return &g, nil
}

func putJSON(b store.Bucket, key []byte, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode %s: %w", key, err)
	}
	return b.Put(key, data)
}

func appendLog(b store.Bucket, e *Entry) error {
	lb := b.Bucket(store.BucketLog)
	seq, err := lb.NextSequence()
	if err != nil {
		return fmt.Errorf("append to log: %w", err)
	}
	e.Seq = seq
	if err := putJSON(lb, store.Key(seq), e); err != nil {
		return err
	}
	return indexLogEntry(b, e)
}

func readPending(b store.Bucket) (map[string]pending, error) {
	out := map[string]pending{}
	err := b.Bucket(store.BucketPending).ForEach(func(k, v []byte) error {
		var p pending
		if err := engine.DecodeJSON(v, &p); err != nil {
			return fmt.Errorf("read pending orders %s: %w", k, err)
		}
		out[string(k)] = p
		return nil
	})
	return out, err
}

func readStep(b store.Bucket, n uint64) (*StepRecord, error) {
	v := b.Bucket(store.BucketSteps).Get(store.Key(n))
	if v == nil {
		return nil, fmt.Errorf("no record of step %d", n)
	}
	var s StepRecord
	if err := engine.DecodeJSON(v, &s); err != nil {
		return nil, fmt.Errorf("read step %d: %w", n, err)
	}
	return &s, nil
}

// writeGame stores g's record and keeps the indexes derived from it (seats,
// game-tags, wake; index.go) in step, so that "which games does this
// address play in", "which games are due" and game list's filters are
// index reads, not scans of every game.
func writeGame(b store.Bucket, g *Game) error {
	var prev *Game
	if v := b.Get(store.KeyInfo); v != nil {
		var p Game
		if err := engine.DecodeJSON(v, &p); err == nil {
			prev = &p
		}
	}
	return writeGameFrom(b, g, factsOf(prev))
}

// writeGameFrom is writeGame for a caller that knows the index entries of
// the stored record (factsOf it, taken when it was read): Tick, which
// writes many games, saves decoding each one twice. The tick times go to
// the ticks bucket (ticks.go), Ticked as stored unless Tick set it.
func writeGameFrom(b store.Bucket, g *Game, was indexFacts) error {
	tx := b.Tx()
	var oldWake time.Time
	// stored is the ticks bucket's entry when it was read here: a write
	// that leaves both times as they are (an order that does not finish
	// the turn) does not write it again. On PostgreSQL every write of
	// that row is a new row version, and each one another transaction's
	// read of a neighbouring game's times may be refused over.
	var stored *tickTimes
	if g.ticksRead && g.storedWake != nil {
		oldWake = *g.storedWake
	} else {
		old, ok := storedTicksEntry(tx, g)
		if !g.ticksRead {
			g.Ticked = old.ticked
		}
		oldWake = old.wake
		if ok {
			stored = &old
		}
	}
	g.Wake = nextWake(g)
	if err := putInfo(b, g); err != nil {
		return err
	}
	if stored != nil && stored.same(tickTimes{g.Ticked, g.Wake}) {
		w := g.Wake
		g.ticksRead, g.storedWake = true, &w
	} else if err := putTicks(tx, g, oldWake); err != nil {
		return err
	}
	return updateIndexes(tx, was, g)
}

// infoRecord is a game's record as stored: without Ticked and Wake, which
// the ticks bucket holds (its fields hide the game's of the same name).
type infoRecord struct {
	*Game
	Ticked *time.Time `json:"ticked,omitempty"`
	Wake   *time.Time `json:"wake,omitempty"`
}

// putInfo writes g's record, and beside it the tick plan made from the
// record as stored (tickplan.go): decoded again as Tick would read it,
// so that the plan decides from exactly what a tick decoding the record
// would see. Every write of a record comes through here.
func putInfo(b store.Bucket, g *Game) error {
	data, err := json.Marshal(infoRecord{Game: g})
	if err != nil {
		return fmt.Errorf("encode %s: %w", store.KeyInfo, err)
	}
	if err := b.Put(store.KeyInfo, data); err != nil {
		return err
	}
	var stored Game
	if err := engine.DecodeJSON(data, &stored); err != nil {
		return fmt.Errorf("read back game record: %w", err)
	}
	return b.Put(keyTickPlan, planOf(&stored, data))
}

// nextWake is the earliest moment at which Tick may have something to do
// for g: a reminder, a late notice, a deadline (with its grace), an early
// resolution or the end of the minimum gap that held one back, the start or
// end of a vacation, or a change Tick has not seen
// yet (a kick may leave nobody to wait for). Zero means never.
func nextWake(g *Game) time.Time {
	if g.Over() || g.Signup || g.Paused {
		return time.Time{}
	}
	var best time.Time
	wakeTimes(g, func(t time.Time, unseen bool) {
		if unseen && !t.After(g.Ticked) {
			return
		}
		if !t.IsZero() && (best.IsZero() || t.Before(best)) {
			best = t
		}
	})
	return best
}

// wakeTimes calls fn with every time nextWake considers: unseen, a time
// that counts only while it is after g.Ticked (a reminder, a late
// notice or an early resolution whose time Tick has seen pass without
// acting, as nobody was awaited or someone was again, waits for a change
// or the deadline: without this the game would stay due, and be written
// at every tick, until its deadline); the others count always. The tick
// plan (tickplan.go) keeps the list, so that a tick that only looks
// finds the next wake without the record.
func wakeTimes(g *Game, fn func(t time.Time, unseen bool)) {
	fn(g.Updated, true) // a change Tick has not seen
	fn(g.ResolveAt, true)
	fn(g.gapEnds(), true) // orders all in before the gap ended resolve then
	if !g.Deadline.IsZero() {
		for _, off := range g.Settings.Reminders {
			if !contains(g.Reminded, off.String()) {
				fn(g.Deadline.Add(-off), true)
			}
		}
		if !g.LateNotice && g.Settings.Grace > 0 {
			fn(g.Deadline, true)
		}
		fn(g.Deadline.Add(g.Settings.Grace), false)
	}
	for _, v := range g.Vacations {
		fn(v.From, true)
		fn(v.To, true)
	}
}
