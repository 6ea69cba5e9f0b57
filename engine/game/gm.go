package game

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"orrery/engine/lang"
	"orrery/engine/store"
)

// gmChange runs one GM or player operation that changes a game's record but
// resolves nothing: fn edits g and returns what to tell people and what to
// write in the log. The change, its log entry and its hooks commit together.
func (s *Service) gmChange(ctx context.Context, id string, hooks []Hook, fn func(b store.Bucket, g *Game, now time.Time) ([]Notice, string, error)) (*Game, []Notice, error) {
	return s.changeBy(ctx, id, "", "gm", hooks, fn)
}

// changeBy is gmChange for a change a player made themselves (player, by
// source "mail"): its log entry is theirs, so that `game log` and the
// archive show the player's own VACATION as the player's act, not the GM's.
// player "" with source "gm" is the GM's change.
func (s *Service) changeBy(ctx context.Context, id, player, source string, hooks []Hook, fn func(b store.Bucket, g *Game, now time.Time) ([]Notice, string, error)) (*Game, []Notice, error) {
	var out *Game
	var notices []Notice
	err := s.st.Update(ctx, func(tx store.Tx) error {
		b, err := gameBucket(tx, id)
		if err != nil {
			return err
		}
		g, err := readGame(b)
		if err != nil {
			return err
		}
		now := s.now().UTC()
		ns, text, err := fn(b, g, now)
		if err != nil {
			return err
		}
		g.Updated = now
		if err := writeGame(b, g); err != nil {
			return err
		}
		if text != "" {
			if err := appendLog(b, &Entry{Time: now, Kind: "gm", Step: g.Step, Player: player, Source: source, Text: text}); err != nil {
				return err
			}
		}
		out, notices = g, ns
		return runHooks(tx, &Change{Game: g, Notices: ns, Service: s}, hooks)
	})
	return out, notices, err
}

func everyone(g *Game) []string {
	var out []string
	for _, p := range g.Players {
		if !contains(g.Kicked, p.Name) {
			out = append(out, p.Name)
		}
	}
	return out
}

func requireActive(g *Game) error {
	if g.Over() {
		return userErr(lang.M("game %s is over: %s", g.ID, outcomeArg(g)))
	}
	return nil
}

// Pause stops a game's clock: no deadline, reminder or early resolution
// happens until Resume. Orders are still taken.
func (s *Service) Pause(ctx context.Context, id, reason string, hooks ...Hook) (*Game, []Notice, error) {
	return s.gmChange(ctx, id, hooks, func(_ store.Bucket, g *Game, now time.Time) ([]Notice, string, error) {
		if err := requireActive(g); err != nil {
			return nil, "", err
		}
		if g.Paused {
			return nil, "", userErr(lang.M("game %s is paused already", g.ID))
		}
		g.Paused, g.PausedAt = true, now
		return []Notice{tell("paused", append(everyone(g), GM), lang.M("The GM paused %s: %s. Deadlines wait until the game resumes; orders are still taken.", g.ID, reasonOr(reason, lang.M("no reason given"))))},
			"pause: " + reason, nil
	})
}

// Resume restarts a paused game; its deadline moves by the time it was
// paused, and everyone is told the new one.
func (s *Service) Resume(ctx context.Context, id string, hooks ...Hook) (*Game, []Notice, error) {
	return s.gmChange(ctx, id, hooks, func(_ store.Bucket, g *Game, now time.Time) ([]Notice, string, error) {
		if !g.Paused {
			return nil, "", userErr(lang.M("game %s is not paused", g.ID))
		}
		paused := now.Sub(g.PausedAt)
		g.Paused, g.PausedAt = false, time.Time{}
		m := lang.M("The GM resumed %s.", g.ID)
		if !g.Deadline.IsZero() {
			g.Deadline = g.Deadline.Add(paused)
			g.Reminded, g.LateNotice = nil, false
			m = lang.M("The GM resumed %s. The deadline moves by the %s the game was paused, to %s.", g.ID, paused, g.Deadline)
		}
		return []Notice{tell("resumed", append(everyone(g), GM), m)}, "resume", nil
	})
}

// SetDeadline sets the current step's deadline; extend, when true, adds by
// to the current one instead. The reason is announced to every player.
func (s *Service) SetDeadline(ctx context.Context, id string, at time.Time, reason string, hooks ...Hook) (*Game, []Notice, error) {
	return s.changeDeadline(ctx, id, func(g *Game, now time.Time) (time.Time, error) {
		if !at.After(now) {
			return time.Time{}, userErr(lang.M("the new deadline %s is not in the future", at))
		}
		return at.UTC(), nil
	}, reason, hooks)
}

// ExtendDeadline moves the current step's deadline later by d.
func (s *Service) ExtendDeadline(ctx context.Context, id string, d time.Duration, reason string, hooks ...Hook) (*Game, []Notice, error) {
	return s.changeDeadline(ctx, id, func(g *Game, now time.Time) (time.Time, error) {
		if d <= 0 {
			return time.Time{}, userErr(lang.M("extend by a positive duration, not %s", d.String()))
		}
		base := g.Deadline
		if base.IsZero() || base.Before(now) {
			base = now
		}
		return base.Add(d), nil
	}, reason, hooks)
}

func (s *Service) changeDeadline(ctx context.Context, id string, next func(*Game, time.Time) (time.Time, error), reason string, hooks []Hook) (*Game, []Notice, error) {
	return s.gmChange(ctx, id, hooks, func(_ store.Bucket, g *Game, now time.Time) ([]Notice, string, error) {
		if err := requireActive(g); err != nil {
			return nil, "", err
		}
		if strings.TrimSpace(reason) == "" {
			return nil, "", userErr(lang.M("say why the deadline changes: players are told the reason"))
		}
		at, err := next(g, now)
		if err != nil {
			return nil, "", err
		}
		old := "none"
		if !g.Deadline.IsZero() {
			old = fmtTime(g.Deadline)
		}
		// moveDeadline names the deadline replaced, and holds one moved
		// earlier min_notice after its notice (notice.go).
		n, moved := s.moveDeadline(g, at, reason, now)
		if !moved {
			if at.Before(g.Deadline) {
				return nil, "", userErr(lang.M("the deadline of %s stays %s: its players were told it, and a deadline moved earlier comes no sooner than %s after the notice that tells it (min_notice)", g.ID, g.Deadline, s.time.minNotice))
			}
			return nil, "", userErr(lang.M("the deadline of %s is %s already", g.ID, g.Deadline))
		}
		return []Notice{n}, fmt.Sprintf("deadline %s → %s: %s", old, fmtTime(g.Deadline), reason), nil
	})
}

// Wait is a player's WAIT: an early resolution holds until the deadline.
func (s *Service) Wait(ctx context.Context, id, player string, hooks ...Hook) (*Game, []Notice, error) {
	return s.gmChange(ctx, id, hooks, func(_ store.Bucket, g *Game, now time.Time) ([]Notice, string, error) {
		if err := requireActive(g); err != nil {
			return nil, "", err
		}
		p, ok := g.PlayerByName(player)
		if !ok {
			return nil, "", userErr(lang.M("there is no player %q in game %s", player, g.ID))
		}
		if !contains(g.Waits, p.Name) {
			g.Waits = append(g.Waits, p.Name)
		}
		g.ResolveAt = time.Time{}
		until := lang.M("the GM advances it")
		if !g.Deadline.IsZero() {
			until = lang.M("the deadline, %s", g.Deadline)
		}
		return []Notice{tell("wait", []string{p.Name}, lang.M("WAIT noted: %s will not resolve early; it waits for %s.", g.ID, until))},
			p.Name + " says WAIT", nil
	})
}

// DeclareVacation records an absence of player from from to to, capped by
// the game's MaxVacation. Under the "extend" policy the deadline waits for
// the player; under "defaults" their defaults apply while away.
func (s *Service) DeclareVacation(ctx context.Context, id, player string, from, to time.Time, hooks ...Hook) (*Game, []Notice, error) {
	return s.declareVacation(ctx, id, player, from, to, "", "gm", hooks)
}

// OwnVacation is DeclareVacation sent by the player themselves (source
// "mail"): the game's log records it as the player's act, not the GM's.
func (s *Service) OwnVacation(ctx context.Context, id, player string, from, to time.Time, source string, hooks ...Hook) (*Game, []Notice, error) {
	return s.declareVacation(ctx, id, player, from, to, player, source, hooks)
}

func (s *Service) declareVacation(ctx context.Context, id, player string, from, to time.Time, by, source string, hooks []Hook) (*Game, []Notice, error) {
	return s.changeBy(ctx, id, by, source, hooks, func(_ store.Bucket, g *Game, now time.Time) ([]Notice, string, error) {
		if err := requireActive(g); err != nil {
			return nil, "", err
		}
		p, ok := g.PlayerByName(player)
		if !ok {
			return nil, "", userErr(lang.M("there is no player %q in game %s", player, g.ID))
		}
		if !to.After(from) {
			return nil, "", userErr(lang.M("a vacation must end after it starts"))
		}
		var capped time.Duration
		if m := g.Settings.MaxVacation; m > 0 && to.Sub(from) > m {
			to = from.Add(m)
			capped = m
		}
		g.Vacations = append(g.Vacations, Vacation{Player: p.Name, From: from.UTC(), To: to.UTC()})
		policy := lang.M("your defaults apply while you are away")
		if g.Settings.Vacation == "extend" {
			policy = lang.M("deadlines wait for you")
			old := g.Deadline
			s.extendForVacations(g, now)
			if at := g.Deadline; !at.Equal(old) {
				g.Deadline = old
				n, _ := s.moveDeadline(g, at, lang.M("%s is on vacation", p.Name), now)
				return []Notice{
					tell("vacation", []string{p.Name}, vacationNoted(from, to, capped, policy)),
					n,
				}, fmt.Sprintf("vacation %s %s–%s", p.Name, fmtTime(from), fmtTime(to)), nil
			}
		}
		return []Notice{tell("vacation", []string{p.Name, GM}, vacationOfNoted(p.Name, from, to, capped, policy))},
			fmt.Sprintf("vacation %s %s–%s", p.Name, fmtTime(from), fmtTime(to)), nil
	})
}

// Replace gives a seat to a new person: a new address and a new secret.
// The old address loses access at once (see ReplaceSeat).
func (s *Service) Replace(ctx context.Context, id, player, email string, hooks ...Hook) (*Game, []Notice, error) {
	return s.ReplaceSeat(ctx, id, player, Seat{Email: email}, "", hooks...)
}

// Kick removes a player from play: their seat plays its defaults from now
// on and their address loses access.
func (s *Service) Kick(ctx context.Context, id, player string, hooks ...Hook) (*Game, []Notice, error) {
	return s.KickFor(ctx, id, player, "", hooks...)
}

// Resign is a player's own RESIGN: like a kick, the seat plays its defaults
// from now on and the address loses access; everyone is told.
func (s *Service) Resign(ctx context.Context, id, player string, hooks ...Hook) (*Game, []Notice, error) {
	return s.leave(ctx, id, player, "resigned", func(seat, game string) lang.Msg {
		return lang.M("%s resigned from %s; the seat plays its defaults from now on.", seat, game)
	}, "resign", "", hooks)
}

// leave takes a player out of play (kick or resign): the seat plays its
// defaults, the address and the old secret lose access, everyone is told,
// and a kicked player why (reason).
func (s *Service) leave(ctx context.Context, id, player, kind string, text func(seat, game string) lang.Msg, verb, reason string, hooks []Hook) (*Game, []Notice, error) {
	return s.gmChange(ctx, id, hooks, func(_ store.Bucket, g *Game, now time.Time) ([]Notice, string, error) {
		if err := requireActive(g); err != nil {
			return nil, "", err
		}
		for i := range g.Players {
			p := &g.Players[i]
			if p.Name != strings.ToLower(player) {
				continue
			}
			if contains(g.Kicked, p.Name) {
				return nil, "", userErr(lang.M("%s has left %s already", p.Name, g.ID))
			}
			g.Kicked = append(g.Kicked, p.Name)
			sort.Strings(g.Kicked)
			old := p.Email
			ns := leaveHolder(g, p, kind, reason, now)
			p.Email, p.Secret = "", randomWord()
			n := tell(kind, append(everyone(g), GM), text(p.Name, g.ID))
			n.Seat = p.Name
			return append([]Notice{n}, ns...),
				strings.TrimSuffix(fmt.Sprintf("%s %s (%s): %s", verb, p.Name, old, reason), ": "), nil
		}
		return nil, "", userErr(lang.M("there is no player %q in game %s", player, g.ID))
	})
}

// Message sends a GM message to every player, and keeps it in the log.
func (s *Service) Message(ctx context.Context, id, text string, hooks ...Hook) (*Game, []Notice, error) {
	return s.gmChange(ctx, id, hooks, func(_ store.Bucket, g *Game, now time.Time) ([]Notice, string, error) {
		if strings.TrimSpace(text) == "" {
			return nil, "", userErr(lang.M("the message is empty"))
		}
		return []Notice{{Kind: "message", To: everyone(g), Text: text}}, "message: " + text, nil
	})
}

// Rollback returns a game to the state at the start of step to (as it was
// after step to resolved). Later inputs stay in the log for the record;
// players are told; the steps played again get new seeds.
func (s *Service) Rollback(ctx context.Context, id string, to uint64, reason string, hooks ...Hook) (*Game, []Notice, error) {
	var out *Game
	var notices []Notice
	err := s.st.Update(ctx, func(tx store.Tx) error {
		b, err := gameBucket(tx, id)
		if err != nil {
			return err
		}
		g, err := readGame(b)
		if err != nil {
			return err
		}
		if to >= g.Step {
			return userErr(lang.M("game %s is at step %d: roll back to an earlier step", g.ID, int(g.Step)))
		}
		snap := b.Bucket(store.BucketSnaps).Get(store.Key(to))
		if snap == nil {
			return fmt.Errorf("game %s has no snapshot of step %d", g.ID, to)
		}
		rs, err := s.ruleset(g)
		if err != nil {
			return err
		}
		st, err := rs.LoadState(store.Copy(snap))
		if err != nil {
			return err
		}
		now := s.now().UTC()
		from := g.Step
		if err := b.Put(store.KeyState, store.Copy(snap)); err != nil {
			return err
		}
		for n := to + 1; n <= from; n++ {
			if err := b.Bucket(store.BucketSnaps).Delete(store.Key(n)); err != nil {
				return err
			}
			if err := b.Bucket(store.BucketSteps).Delete(store.Key(n)); err != nil {
				return err
			}
		}
		if err := clearBucket(b.Bucket(store.BucketPending)); err != nil {
			return err
		}
		g.Step, g.Epoch = to, g.Epoch+1
		s.refresh(g, st)
		g.Answered, g.Reminded, g.LateNotice, g.Waits, g.ResolveAt = nil, nil, false, nil, time.Time{}
		if g.Deadline, _, err = g.nextDeadline(now, now); err != nil {
			return err
		}
		if g.Paused {
			g.PausedAt = now
		}
		recountSeats(b, g, to)
		g.Updated = now
		if err := appendLog(b, &Entry{Time: now, Kind: "rollback", Step: to, Source: "gm", Text: reason}); err != nil {
			return err
		}
		rec, err := readStep(b, to)
		if err != nil {
			return err
		}
		rec.NextCommitment = g.NextCommitment()
		if err := putJSON(b.Bucket(store.BucketSteps), store.Key(to), rec); err != nil {
			return err
		}
		if err := writeGame(b, g); err != nil {
			return err
		}
		notices = []Notice{tell("rollback", append(everyone(g), GM),
			lang.M("The GM rolled %s back from step %d to step %d (turn %d, %s): %s. Orders sent since are kept for the record but not used; send your orders again. The steps played again use new dice seeds.", g.ID, int(from), int(to), g.Turn, g.Phase, reasonOr(reason, lang.M("no reason given"))))}
		out = g
		return runHooks(tx, &Change{Game: g, Notices: notices, Steps: []Step{s.stepOf(g, st, rec)}, Service: s}, hooks)
	})
	if err != nil {
		return nil, nil, err
	}
	return out, notices, s.playBots(ctx, id, hooks)
}

// Resend sends the report of step again to players (every seat still in
// the game when players is empty), as each saw it: a GM's answer to "I never
// got my report". It changes nothing but the log; the reports travel in a
// "resend" notice, which the mail side turns into report mails.
func (s *Service) Resend(ctx context.Context, id string, step uint64, players []string, hooks ...Hook) (*Game, []Notice, error) {
	return s.gmChange(ctx, id, hooks, func(b store.Bucket, g *Game, now time.Time) ([]Notice, string, error) {
		if step > g.Step {
			return nil, "", userErr(lang.MN("game %s has had %d step; there is no step %d yet", "game %s has had %d steps; there is no step %d yet", g.ID, int(g.Step), int(step)))
		}
		if len(players) == 0 {
			players = everyone(g)
		}
		n := tell("resend", nil, lang.M("The report of step %d of %s, sent again by the GM.", int(step), g.ID))
		n.Reports = map[string]*Report{}
		for _, name := range players {
			p, ok := g.PlayerByName(name)
			if !ok {
				return nil, "", userErr(lang.M("there is no player %q in game %s", name, g.ID))
			}
			r, err := s.reportTx(b, g, step, p.Name, step == g.Step)
			if err != nil {
				return nil, "", err
			}
			n.To = append(n.To, p.Name)
			n.Reports[p.Name] = r
		}
		return []Notice{n}, fmt.Sprintf("resend step %d to %s", step, strings.Join(n.To, ", ")), nil
	})
}

// StepOfTurn finds the first step at which the game was at turn. Turns
// never go down along the steps of one line of play (a rollback deletes
// the later steps), so it bisects the step records, reading a handful of
// them however long the game, and decodes only their turn.
func (s *Service) StepOfTurn(ctx context.Context, id string, turn int) (uint64, error) {
	var found uint64
	ok := false
	err := s.st.View(ctx, func(tx store.Tx) error {
		b, err := gameBucket(tx, id)
		if err != nil {
			return err
		}
		g, err := readGame(b)
		if err != nil {
			return err
		}
		if g.Signup || turn > g.Turn {
			return nil
		}
		sb := b.Bucket(store.BucketSteps)
		turnOf := func(n uint64) (int, error) {
			v := sb.Get(store.Key(n))
			if v == nil {
				return 0, fmt.Errorf("game %s has no record of step %d", id, n)
			}
			var rec struct {
				Turn int `json:"turn"`
			}
			if err := json.Unmarshal(v, &rec); err != nil {
				return 0, fmt.Errorf("game %s: read step %d: %w", id, n, err)
			}
			return rec.Turn, nil
		}
		// scan looks at every record there is: a store older than its
		// rules may lack some, and bisecting needs them all.
		scan := func() error {
			return sb.ForEach(func(k, v []byte) error {
				if ok {
					return nil
				}
				var rec struct {
					Turn int `json:"turn"`
				}
				if json.Unmarshal(v, &rec) == nil && rec.Turn == turn {
					found, ok = store.KeyN(k), true
				}
				return nil
			})
		}
		lo, hi := uint64(0), g.Step+1 // the first step at turn or later is in [lo, hi]
		for lo < hi {
			mid := lo + (hi-lo)/2
			t, err := turnOf(mid)
			if err != nil {
				return scan()
			}
			if t < turn {
				lo = mid + 1
			} else {
				hi = mid
			}
		}
		if lo <= g.Step {
			t, err := turnOf(lo)
			if err != nil {
				return scan()
			}
			found, ok = lo, t == turn
		}
		return nil
	})
	if err == nil && !ok {
		err = userErr(lang.M("game %s never reached turn %d", id, turn))
	}
	return found, err
}

func clearBucket(b store.Bucket) error {
	var keys [][]byte
	if err := b.ForEach(func(k, _ []byte) error { keys = append(keys, store.Copy(k)); return nil }); err != nil {
		return err
	}
	for _, k := range keys {
		if err := b.Delete(k); err != nil {
			return err
		}
	}
	return nil
}

func remove(list []string, s string) []string {
	var out []string
	for _, x := range list {
		if x != s {
			out = append(out, x)
		}
	}
	return out
}

func orDefault(s, d string) string {
	if strings.TrimSpace(s) == "" {
		return d
	}
	return s
}

// Press delivers a message from one player to some (to) or all (empty to)
// of the others, as the game's press setting allows: signed, grey
// (anonymous), or not at all. It is kept in the log, so it is part of the
// game's history; the GM gets a copy when the game says so.
func (s *Service) Press(ctx context.Context, id, from string, to []string, text string, hooks ...Hook) (*Game, []Notice, error) {
	var out *Game
	var notices []Notice
	err := s.st.Update(ctx, func(tx store.Tx) error {
		b, err := gameBucket(tx, id)
		if err != nil {
			return err
		}
		g, err := readGame(b)
		if err != nil {
			return err
		}
		sender, ok := g.PlayerByName(from)
		if !ok {
			return userErr(lang.M("there is no player %q in game %s", from, g.ID))
		}
		switch g.Settings.Press {
		case "off":
			return userErr(lang.M("game %s allows no press between players", g.ID))
		}
		if strings.TrimSpace(text) == "" {
			return userErr(lang.M("the press message is empty"))
		}
		var rcpt []string
		if len(to) == 0 {
			rcpt = others(g, []string{sender.Name})
		}
		for _, name := range to {
			p, ok := g.PlayerByName(name)
			if !ok {
				return userErr(lang.M("there is no player %q in game %s to send press to", name, g.ID))
			}
			if p.Name != sender.Name && !contains(rcpt, p.Name) {
				rcpt = append(rcpt, p.Name)
			}
		}
		if len(rcpt) == 0 {
			return userErr(lang.M("the press message has nobody to go to"))
		}
		signed := lang.M("Press from %s to %s:", sender.Name, strings.Join(rcpt, ", "))
		head := signed
		if g.Settings.Press == "grey" {
			head = lang.M("Anonymous press to %s:", strings.Join(rcpt, ", "))
		}
		notices = []Notice{tell("press", rcpt, head)}
		notices[0].Said = text
		if g.Settings.PressToGM {
			n := tell("press", []string{GM}, signed)
			n.Said = text
			notices = append(notices, n)
		}
		if err := appendLog(b, &Entry{Time: s.now().UTC(), Kind: "press", Step: g.Step, Player: sender.Name, To: rcpt,
			Anonymous: g.Settings.Press == "grey", Text: text}); err != nil {
			return err
		}
		out = g
		return runHooks(tx, &Change{Game: g, Notices: notices, Service: s}, hooks)
	})
	return out, notices, err
}

// Observe adds (or with on false, removes) an address that receives the
// game's public reports: the GM's view of events, never a player's view.
func (s *Service) Observe(ctx context.Context, id, email string, on bool, hooks ...Hook) (*Game, []Notice, error) {
	return s.gmChange(ctx, id, hooks, func(b store.Bucket, g *Game, now time.Time) ([]Notice, string, error) {
		email = CanonAddress(email)
		if !strings.Contains(email, "@") {
			return nil, "", userErr(lang.M("%q is not a mail address", email))
		}
		if err := indexObserver(b.Tx(), email, g.ID, on); err != nil {
			return nil, "", err
		}
		if on {
			if contains(g.Observers, email) {
				return nil, "", nil
			}
			g.Observers = append(g.Observers, email)
			sort.Strings(g.Observers)
			return nil, "observer " + email + " subscribes", nil
		}
		if !contains(g.Observers, email) {
			return nil, "", userErr(lang.M("%s does not observe %s", email, g.ID))
		}
		g.Observers = remove(g.Observers, email)
		return nil, "observer " + email + " unsubscribes", nil
	})
}
