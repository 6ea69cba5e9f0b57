package game

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"orrery/engine/dice"
	"orrery/engine/lang"
	"orrery/engine/store"
)

// Notice is something the life cycle tells people without a step being
// resolved: a reminder, a late notice, a deadline change and its reason, an
// abandoned seat. The mail side turns each into mail, inside the same
// transaction that records that it was sent, so none is sent twice.
type Notice struct {
	Kind string   `json:"kind"` // reminder, late, late-others, deadline, abandoned, paused, resumed, rollback, replaced, kicked, message, vacation, wait, resend
	To   []string `json:"to"`   // player names; "" stands for the GM
	Text string   `json:"text"`
	// Seat is the seat the notice is about, where there is one (replaced,
	// kicked, abandoned): the mail side acts on it without reading Text.
	Seat string `json:"seat,omitempty"`
	// Addresses are told the notice directly, by address: a former
	// holder of Seat, who no longer plays it (seats.go), or an address
	// invited to a game.
	Addresses []string `json:"addresses,omitempty"`
	// Reports are the step reports a "resend" notice carries, by player:
	// built in the notice's transaction, so the mail side needs no other.
	Reports map[string]*Report `json:"-"`
	// Said is a player's own words the notice carries (press), kept
	// apart from Text so that the mail side marks them as the player's:
	// nothing a player writes may pass for the bot's own lines.
	Said string `json:"said,omitempty"`
	// Receipt is the part the orders a notice makes the player's own
	// (held orders applied, "ahead-applied") will be in the step's dice
	// inputs: the receipt an ack gives orders sent for the step (see
	// Game.receipt), so that orders held for later are checked alike.
	// Nil under dice scheme 1, and for every other notice; only its
	// player is told the notice, so its salt stays theirs.
	Receipt *dice.Part `json:"receipt,omitempty"`
	// Msg is Text as a message (see lang.Msg), written in each reader's
	// language and zone by the mail side; Text is then its English.
	// Tell sets both.
	Msg *lang.Msg `json:"msg,omitempty"`
	// Due is the deadline the notice tells its readers, where it tells
	// one (a reminder, a late notice's end of grace, a moved deadline):
	// what they may count on (notice.go).
	Due time.Time `json:"due,omitempty"`
}

// Tell words the notice as m.
func (n *Notice) Tell(m lang.Msg) {
	n.Text, n.Msg = m.English(), &m
}

// tell is a notice of kind to the players to, worded as m.
func tell(kind string, to []string, m lang.Msg) Notice {
	n := Notice{Kind: kind, To: to}
	n.Tell(m)
	return n
}

// GM is the recipient name of notices for the game master.
const GM = ""

var weekdays = map[string]time.Weekday{
	"sun": time.Sunday, "mon": time.Monday, "tue": time.Tuesday, "wed": time.Wednesday,
	"thu": time.Thursday, "fri": time.Friday, "sat": time.Saturday,
}

type slot struct {
	day        time.Weekday
	hour, mins int
}

func parseSlot(s string) (slot, error) {
	day, clock, ok := strings.Cut(strings.TrimSpace(s), " ")
	wd, known := weekdays[strings.ToLower(day)[:min(3, len(day))]]
	if !ok || !known {
		return slot{}, fmt.Errorf("schedule entry %q: write a weekday and a time, like \"Mon 18:00\"", s)
	}
	var h, m int
	if _, err := fmt.Sscanf(strings.TrimSpace(clock), "%d:%d", &h, &m); err != nil || h < 0 || h > 23 || m < 0 || m > 59 {
		return slot{}, fmt.Errorf("schedule entry %q: the time must be HH:MM, 00:00 to 23:59", s)
	}
	return slot{wd, h, m}, nil
}

func (st Settings) validate() error {
	if st.TurnLength > 0 && len(st.Schedule) > 0 {
		return userErr(lang.M("a game has either a turn length or a weekly schedule, not both"))
	}
	if st.TurnLength < 0 || st.Grace < 0 || st.EarlyDelay < 0 || st.MinGap < 0 {
		return userErr(lang.M("durations in the settings cannot be negative"))
	}
	weekdaySlots := 0
	for _, s := range st.Schedule {
		sl, err := parseSlot(s)
		if err != nil {
			return &UserError{Msg: err.Error()}
		}
		if sl.day != time.Saturday && sl.day != time.Sunday {
			weekdaySlots++
		}
	}
	if st.WeekendsOff && len(st.Schedule) > 0 && weekdaySlots == 0 {
		return userErr(lang.M("with weekends off, the schedule needs a deadline on a weekday"))
	}
	if _, _, err := parseQuiet(st.QuietHours); err != nil {
		return &UserError{Msg: err.Error()}
	}
	if _, err := st.location(); err != nil {
		return &UserError{Msg: err.Error()}
	}
	switch st.Vacation {
	case "", "extend", "defaults":
	default:
		return userErr(lang.M("vacation policy %q must be extend or defaults", st.Vacation))
	}
	switch st.Press {
	case "", "off", "signed", "grey":
	default:
		return userErr(lang.M("press setting %q must be off, signed or grey", st.Press))
	}
	switch st.Observers {
	case "", "open", "gm":
	default:
		return userErr(lang.M("observers setting %q must be open or gm", st.Observers))
	}
	switch st.Abandoned {
	case "", "defaults", "bot", "open":
	default:
		return userErr(lang.M("abandoned-seat policy %q must be defaults, bot or open", st.Abandoned))
	}
	for _, r := range st.Reminders {
		if r <= 0 {
			return userErr(lang.M("a reminder offset must be a positive duration before the deadline, not %s", r.String()))
		}
	}
	return nil
}

func (st Settings) location() (*time.Location, error) {
	if st.TimeZone == "" {
		return time.UTC, nil
	}
	loc, err := time.LoadLocation(st.TimeZone)
	if err != nil {
		return nil, fmt.Errorf("time zone %q: %w", st.TimeZone, err)
	}
	return loc, nil
}

// nextDeadline is the deadline of a step that starts at now, after a step
// resolved at last. Zero means none.
func (st Settings) nextDeadline(now, last time.Time) (time.Time, error) {
	switch {
	case st.TurnLength <= 0 && len(st.Schedule) == 0:
		return time.Time{}, nil
	}
	loc, err := st.location()
	if err != nil {
		return time.Time{}, err
	}
	if st.TurnLength > 0 {
		if st.WeekendsOff {
			return later(addWeekdays(now, st.TurnLength, loc), last.Add(st.MinGap)), nil
		}
		return later(now.Add(st.TurnLength), last.Add(st.MinGap)), nil
	}
	from := now
	if g := last.Add(st.MinGap); g.After(from) {
		from = g
	}
	var best time.Time
	for _, s := range st.Schedule {
		sl, err := parseSlot(s)
		if err != nil {
			return time.Time{}, err
		}
		if st.WeekendsOff && (sl.day == time.Saturday || sl.day == time.Sunday) {
			continue // validate keeps one weekday at least
		}
		local := from.In(loc)
		for d := 0; d <= 7; d++ {
			day := local.AddDate(0, 0, d)
			c := time.Date(day.Year(), day.Month(), day.Day(), sl.hour, sl.mins, 0, 0, loc)
			if c.Weekday() == sl.day && c.After(from) {
				if best.IsZero() || c.Before(best) {
					best = c
				}
				break
			}
		}
	}
	return best.UTC(), nil
}

// steps is "1 step" or "n steps".
func steps(n int) string {
	return lang.N(n, "step", "steps")
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// gapEnds is the first moment the next step may resolve early: MinGap after
// the last resolution, so that a table whose players all answer within the
// hour still plays at most one turn per MinGap. Zero: no gap.
func (g *Game) gapEnds() time.Time {
	if g.Settings.MinGap <= 0 || g.LastResolve.IsZero() {
		return time.Time{}
	}
	return g.LastResolve.Add(g.Settings.MinGap)
}

// awaited lists the players the game waits for now: those with unanswered
// blocking prompts, less kicked and abandoned seats and those whose mail
// bounces (their defaults apply) and, under the "defaults" vacation
// policy, players away now.
func (s *Service) awaited(g *Game, now time.Time) []string { return awaitedAt(g, now) }

// awaitedAt is awaited for code that has no Service: what Tick decides
// from a record alone (tickAction) and the tick plan (tickplan.go).
func awaitedAt(g *Game, now time.Time) []string {
	var out []string
	for _, p := range g.Waiting() {
		if contains(g.Kicked, p) || contains(g.Abandoned, p) || contains(g.Unreachable, p) {
			continue
		}
		if g.Settings.Vacation == "defaults" && onVacation(g, p, now) {
			continue
		}
		out = append(out, p)
	}
	return out
}

func onVacation(g *Game, player string, now time.Time) bool {
	for _, v := range g.Vacations {
		if v.Player == player && !now.Before(v.From) && now.Before(v.To) {
			return true
		}
	}
	return false
}

// afterStep resets the per-step schedule state of g after a resolution at
// now, counts missed orders and marks seats abandoned, and returns notices.
func (s *Service) afterStep(tx store.Tx, g *Game, rec *StepRecord, now time.Time) ([]Notice, error) {
	var notices []Notice
	// The allowance spent waiting for this step (allowance.go).
	if err := s.chargeAllowance(tx, g, now); err != nil {
		return nil, err
	}
	g.Reminded, g.LateNotice, g.Waits, g.ResolveAt = nil, false, nil, time.Time{}
	if g.Missed == nil {
		g.Missed = map[string]int{}
	}
	countMissed(g, rec, now)
	defer func() { g.Alive = nil }()
	for _, a := range rec.Answers {
		p := a.Prompt.Player
		if !a.Default {
			g.Missed[p] = 0
			continue
		}
		if contains(g.Kicked, p) || contains(g.Abandoned, p) || isBot(g, p) || notAMiss(rec) {
			continue
		}
		if contains(g.Alive, p) {
			g.Missed[p] = 0 // they wrote: a sign of life, not a miss
			continue
		}
		if g.Settings.Vacation == "defaults" && onVacation(g, p, now) {
			continue
		}
		g.Missed[p]++
		// A seat whose mail bounces is abandoned when its own window
		// closes (bounceWindow), not by the run of defaults.
		if n := g.Settings.AbandonAfter; n > 0 && g.Missed[p] >= n && !contains(g.Abandoned, p) && !contains(g.Unreachable, p) {
			notices = append(notices, abandonSeat(g, p, fmt.Sprintf("no orders for %s in a row", steps(g.Missed[p])), "abandoned", now)...)
		}
	}
	notices = append(notices, bounceWindow(g, rec, now)...)
	for p, n := range g.Missed {
		if n == 0 {
			delete(g.Missed, p)
		}
	}
	g.LastResolve = now
	var err error
	var woken []string
	g.Deadline, woken, err = g.nextDeadline(now, now)
	if err != nil {
		return nil, err
	}
	notices = append(notices, wokenNotice(g, woken)...)
	if g.Paused {
		// The new deadline counts from now: Resume must add only the
		// part of the pause still to come.
		g.PausedAt = now
	}
	s.extendForVacations(g, now)
	return notices, nil
}

// notAMiss reports whether the defaults a step played were nobody's
// miss: an anytime step, or one the GM forced (advance --force) before
// the players had their time.
func notAMiss(rec *StepRecord) bool {
	return rec.Reason == "anytime" || rec.Reason == "forced by the GM"
}

// extendForVacations moves the deadline past the absence of an awaited
// player under the "extend" policy, capped by MaxVacation.
func (s *Service) extendForVacations(g *Game, now time.Time) {
	if g.Settings.Vacation != "extend" || g.Deadline.IsZero() {
		return
	}
	for _, v := range g.Vacations {
		if !contains(g.Waiting(), v.Player) || !g.Deadline.After(v.From) || !g.Deadline.Before(v.To) {
			continue
		}
		end := v.To
		if m := g.Settings.MaxVacation; m > 0 && end.Sub(v.From) > m {
			end = v.From.Add(m)
		}
		if end.After(g.Deadline) {
			g.Deadline, _ = g.settle(end)
		}
	}
}

// wokenNotice tells everyone, when the zones left no time outside every
// player's quiet hours, whose quiet hours the new deadline falls in.
func wokenNotice(g *Game, woken []string) []Notice {
	if len(woken) == 0 {
		return nil
	}
	return []Notice{tell("deadline", append(everyone(g), GM),
		lang.M("The deadline of %s is %s: no time is outside every player's quiet hours (%s, in each player's zone), and this one falls in the fewest, those of %s.",
			g.ID, g.Deadline, g.Settings.QuietHours, lang.Strings(woken)))}
}

// TickResult says what one Tick did.
type TickResult struct {
	Game    string
	Steps   []Step
	Notices []Notice
	bots    bool // a bot seat has orders to give (botsToPlay)
}

// botsToPlay reports whether a bot seat of g has a blocking prompt to
// answer: what playBots looks for first. Tick asks it of the game as its
// tick left it, so that a bot game whose bots have nothing to do is not
// read and decoded a second time.
func botsToPlay(g *Game) bool {
	if g.Over() {
		return false
	}
	for _, p := range g.Prompts {
		if botAnswers(g, p) {
			return true
		}
	}
	return false
}

// tickBatch is how many due games Tick handles in one transaction: enough
// that a catch-up of 100,000 games costs a few hundred fsyncs, not 100,000,
// and few enough that one transaction's dirty pages stay small. Larger
// batches buy nothing more: at 100,000 games, 2,048 a batch (50 commits)
// took as long as 256 (392 commits). What a commit costs is the pages it
// writes, not the fsyncs: on bbolt about two 4 kB pages for a game whose
// record changes (the leaf that holds it and its bucket's root, both
// copied on write), and a few for a whole batch of games only looked at
// (their tick times, side by side in ticks).
const tickBatch = 256

// Tick does whatever is due in every game at the service's clock: early
// resolutions whose delay ran out, reminders, late notices, and deadlines.
// The due games come from the wake index, in batches of tickBatch games
// per transaction (one fsync per batch, store.Group); what was done to a
// game, and the mails its hooks queue for it, commit in the same
// transaction, so a Tick after a restart does each thing exactly once
// however late it comes. When one game of a batch fails, the batch is
// rolled back and its games are done one transaction each, so that one
// broken game holds up no other: Tick goes on and returns every game's
// error at the end. The daemon calls it on a timer; the CLI on `game tick`.
//
// Several processes may tick one PostgreSQL database at once (two
// daemons, a daemon and `game tick`): each batch claims its games first
// (Bucket.ClaimNamed, FOR UPDATE SKIP LOCKED) and ticks only those still
// due in its transaction, so the processes split the due games between
// them, none waits for another, and none ticks a game another has just
// ticked. A game skipped because a change of it (an order mail) held it
// is due still, and the next Tick takes it.
func (s *Service) Tick(ctx context.Context, hooks ...Hook) ([]TickResult, error) {
	if err := s.indexed(ctx); err != nil {
		return nil, err
	}
	// Only the games whose wake time has come: a server with 100,000
	// games does not read them all every few seconds. A game has one
	// wake key, but the set keeps the list free of repeats cheaply.
	var due []dueGame
	now := s.now().UTC()
	err := s.st.View(ctx, func(tx store.Tx) error {
		due = due[:0]
		seen := map[string]bool{}
		c := tx.Bucket(store.BucketWake).Cursor()
		limit := store.Key(uint64(now.UnixNano()))
		for k, _ := c.First(); k != nil && bytes.Compare(k[:8], limit) <= 0; k, _ = c.Next() {
			if id := string(k[8:]); !seen[id] {
				seen[id] = true
				due = append(due, dueGame{id: id, key: store.Copy(k)})
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	var out []TickResult
	var errs []error
	for start := 0; start < len(due); start += s.tickBatch {
		batch := due[start:min(start+s.tickBatch, len(due))]
		var res []TickResult
		err := s.st.Group(ctx, func(ctx context.Context) error {
			res = res[:0]
			mine, err := s.claimDue(ctx, batch)
			if err != nil {
				return err
			}
			for _, d := range mine {
				r, err := s.tickOne(ctx, d.id, d.wake, hooks)
				if err != nil {
					return err
				}
				if r != nil {
					res = append(res, *r)
				}
			}
			return nil
		})
		if err == nil {
			out = append(out, res...)
			continue
		}
		if ctx.Err() != nil {
			return out, ctx.Err()
		}
		for _, d := range batch {
			r, err := s.tickOne(ctx, d.id, nil, hooks)
			if err != nil {
				s.log.Error("tick", "game", d.id, "err", err)
				errs = append(errs, err)
			}
			if r != nil {
				out = append(out, *r)
			}
		}
	}
	return out, errors.Join(errs...)
}

// dueGame is a game Tick found due: its id and its key in the wake index;
// wake, once claimDue has claimed it, the wake time its transaction sees.
type dueGame struct {
	id   string
	key  []byte
	wake *time.Time
}

// claimDue claims the games of batch that no other transaction holds
// (ClaimNamed), and returns those of them still due as the claiming
// transaction sees the wake index: one another process ticked after
// Tick listed it has a later wake key by now, and is left alone. The
// batch is a stretch of the wake index, walked again in one pass.
func (s *Service) claimDue(ctx context.Context, batch []dueGame) ([]dueGame, error) {
	var mine []dueGame
	err := s.st.Update(ctx, func(tx store.Tx) error {
		mine = mine[:0]
		names := make([][]byte, len(batch))
		for i, d := range batch {
			names[i] = []byte(d.id)
		}
		claimed, err := tx.Bucket(store.BucketGames).ClaimNamed(names)
		if err != nil {
			return err
		}
		held := make(map[string]bool, len(claimed))
		for _, n := range claimed {
			held[string(n)] = true
		}
		wakes := make(map[string]time.Time, len(claimed))
		last := batch[len(batch)-1].key
		c := tx.Bucket(store.BucketWake).Cursor()
		for k, _ := c.Seek(batch[0].key); k != nil && bytes.Compare(k, last) <= 0; k, _ = c.Next() {
			if id := string(k[8:]); held[id] {
				wakes[id] = fromUnixNano(store.KeyN(k[:8]))
			}
		}
		for _, d := range batch {
			if w, ok := wakes[d.id]; ok {
				d.wake = &w
				mine = append(mine, d)
			}
		}
		return nil
	})
	return mine, err
}

// tickOne ticks one game and plays its bots; it returns what was done, or
// nil when nothing was. wake is the game's wake time as claimDue found it
// in this transaction; nil for a game ticked alone, which tickGame claims
// and checks is still due first.
func (s *Service) tickOne(ctx context.Context, id string, wake *time.Time, hooks []Hook) (*TickResult, error) {
	r, err := s.tickGame(ctx, id, wake, hooks)
	if err != nil {
		return nil, fmt.Errorf("game %s: %w", id, err)
	}
	bots := r.bots
	if len(r.Steps)+len(r.Notices) == 0 {
		r = nil
	}
	if !bots {
		return r, nil
	}
	if err := s.playBots(ctx, id, hooks); err != nil {
		return r, err
	}
	return r, nil
}

func (s *Service) tickGame(ctx context.Context, id string, wake *time.Time, hooks []Hook) (*TickResult, error) {
	res := &TickResult{Game: id}
	err := s.st.Update(ctx, func(tx store.Tx) error {
		*res = TickResult{Game: id}
		now := s.now().UTC()
		if wake == nil {
			// Alone (after its batch failed): another process may have
			// it, or have ticked it since it was listed.
			got, err := tx.Bucket(store.BucketGames).ClaimNamed([][]byte{[]byte(id)})
			if err != nil || len(got) == 0 {
				return err
			}
		}
		b, err := gameBucket(tx, id)
		if err != nil {
			return err
		}
		if wake != nil {
			// Most games of a catch-up only need looking at: their plan
			// says so, and when to look next, without the record.
			if w, ok := lookOnly(b, now); ok {
				return putTicks(tx, &Game{ID: id, Ticked: now, Wake: w}, *wake)
			}
		}
		g, err := readGame(b)
		if err != nil {
			return err
		}
		// The game's wake key: claimDue read it with the claim, the same
		// as its entry in ticks without a read a game.
		var oldWake time.Time
		if wake != nil {
			oldWake = *wake
		} else if oldWake = storedTicks(tx, g).wake; oldWake.IsZero() || oldWake.After(now) {
			return nil
		}
		g.storedWake = &oldWake
		// g is the game as this tick leaves it, written or not: its
		// changes below are made to it in place.
		defer func() { res.bots = botsToPlay(g) }()
		if g.Over() || g.Paused || g.Signup {
			return nil
		}
		was := factsOf(g)
		awaited := s.awaited(g, now)
		reason := ""
		switch tickAction(g, now) {
		case tickResolve:
			reason = "all orders in"
		case tickStartDelay:
			// Everyone left to wait for dropped out (kicked, abandoned,
			// on vacation): start the early delay now.
			g.ResolveAt = now.Add(g.Settings.EarlyDelay)
			return writeGameFrom(b, g, was)
		case tickDeadline:
			// A player with vacation days left makes the step wait for
			// their orders rather than play their defaults.
			waits, err := s.autoVacation(tx, g, now, awaited)
			if err != nil {
				return err
			}
			if len(waits) > 0 {
				res.Notices = append(res.Notices, waits...)
				break
			}
			reason = "deadline"
		case tickLate:
			g.LateNotice = true
			late := tell("late", awaited,
				lang.M("The deadline of %s passed and your orders have not arrived. They are still taken until %s; then your defaults apply.", g.ID, g.Deadline.Add(g.Settings.Grace)))
			late.Due = g.Deadline.Add(g.Settings.Grace)
			res.Notices = append(res.Notices, late)
			if g.Settings.TellLate {
				res.Notices = append(res.Notices, tell("late-others", others(g, awaited),
					lang.M("Still waiting in %s for: %s (grace until %s).", g.ID, strings.Join(awaited, ", "), g.Deadline.Add(g.Settings.Grace))))
			}
		case tickRemind:
			for _, off := range sortedDesc(g.Settings.Reminders) {
				key := off.String()
				if now.Before(g.Deadline.Add(-off)) || contains(g.Reminded, key) {
					continue
				}
				// Mark every offset already passed, so a daemon that was
				// down sends one reminder, not one for each missed offset.
				for _, o := range g.Settings.Reminders {
					if !now.Before(g.Deadline.Add(-o)) && !contains(g.Reminded, o.String()) {
						g.Reminded = append(g.Reminded, o.String())
					}
				}
				// Worded from the deadline as it stands now: a moved
				// deadline reset the offsets (moveDeadline).
				// One each, saying what is still expected of that
				// player: "due" alone leaves them to find out what.
				left := g.Deadline.Sub(now).Round(time.Minute)
				for _, p := range awaited {
					m := lang.M("Reminder: your orders for %s are due by %s (%s from now).", g.ID, g.Deadline, left)
					if asks := missingAsks(g, p); len(asks) > 0 {
						m = lang.M("Reminder: your orders for %s are due by %s (%s from now). Still expected of you: %s", g.ID, g.Deadline, left, lang.And(asks...))
					}
					r := tell("reminder", []string{p}, m)
					r.Due = g.Deadline
					res.Notices = append(res.Notices, r)
				}
				break
			}
		}
		// Whatever happens below, Tick has now seen the game as it is:
		// its next wake time counts from here.
		g.Ticked, g.ticksRead = now, true
		if reason == "" && len(res.Notices) == 0 {
			// Tick only looked: the record stays as it is, and only the
			// tick times and the wake entry move (ticks.go).
			g.Wake = nextWake(g)
			return putTicks(tx, g, oldWake)
		}
		if reason == "" {
			if err := writeGameFrom(b, g, was); err != nil {
				return err
			}
			return runHooks(tx, &Change{Game: g, Notices: res.Notices, Service: s}, hooks)
		}
		_, st, err := s.loadState(b, g)
		if err != nil {
			return err
		}
		steps, notices, err := s.resolveTx(b, g, st, reason, nil)
		if err != nil {
			return err
		}
		res.Steps = steps
		res.Notices = append(res.Notices, notices...)
		return runHooks(tx, &Change{Game: g, Steps: steps, Notices: res.Notices, Service: s}, hooks)
	})
	return res, err
}

func others(g *Game, except []string) []string {
	var out []string
	for _, p := range g.Players {
		if !contains(except, p.Name) && !contains(g.Kicked, p.Name) {
			out = append(out, p.Name)
		}
	}
	return out
}

func sortedDesc(d []time.Duration) []time.Duration {
	out := append([]time.Duration(nil), d...)
	sort.Slice(out, func(i, j int) bool { return out[i] > out[j] })
	return out
}

func fmtTime(t time.Time) string { return t.UTC().Format("Mon 2006-01-02 15:04 MST") }

// missingAsks are the questions of player's unanswered blocking prompts,
// as messages where they have one (written in the reader's language),
// else as their English.
func missingAsks(g *Game, player string) []any {
	var out []any
	for _, p := range g.PromptsFor(player) {
		if !p.Kind.Blocks() || contains(g.Answered, p.ID) {
			continue
		}
		if p.Msg != nil {
			out = append(out, *p.Msg)
		} else {
			out = append(out, strings.TrimSuffix(p.Ask, "."))
		}
	}
	return out
}
