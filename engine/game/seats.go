package game

// This file keeps seats filled (issue 18): who has held each seat and the
// steps they played, handing a seat to the ruleset's bot or to another
// person, the per-game policy for abandoned seats (defaults, bot, open),
// seats whose address bounces, a seat taken over by JOIN, and each
// address's record (games played, steps missed, seats abandoned, games
// won) read from those histories.

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"orrery/engine/lang"
	"orrery/engine/store"
)

// Holder is one holder of a seat: a person's address or the bot, and the
// steps they played. The seat's orders, reports and knowledge pass from
// holder to holder (a new holder reads the seat's earlier reports, as in a
// njudge takeover); what each holder did is kept apart, so that every
// player's record stays their own.
type Holder struct {
	Email string `json:"email,omitempty"`
	// Name is the holder's own name, when it is not the seat's (JOIN
	// of an open seat under a name of their own): they are greeted by it
	// (hands.go).
	Name string `json:"name,omitempty"`
	Bot  bool   `json:"bot,omitempty"`
	// From is the first step whose orders were theirs to send; To the
	// last step resolved while they held the seat (0 while they hold it:
	// then they have played up to the game's step).
	From uint64 `json:"from"`
	To   uint64 `json:"to,omitempty"`
	// Since and Until bound their holding in time: press sent or
	// received before Since belongs to earlier holders.
	Since time.Time `json:"since"`
	Until time.Time `json:"until,omitempty"`
	// Missed counts the steps they played by defaults (no orders: NMR),
	// declared vacations under the "defaults" policy aside.
	Missed int `json:"missed,omitempty"`
	// Abandoned is set when the seat was marked abandoned while they
	// held it (they missed AbandonAfter steps in a row).
	Abandoned bool `json:"abandoned,omitempty"`
	// Ended says how their holding ended ("" while it lasts): replaced,
	// kicked, resigned, abandoned, unreachable or taken (by JOIN of an
	// open seat); Why is the reason given.
	Ended string `json:"ended,omitempty"`
	Why   string `json:"why,omitempty"`
	// Secret is the secret they held the seat with, kept when the bot
	// took it from them (abandoned): within the game's return window it
	// proves a mail from them, and they get the seat back (returns.go).
	Secret string `json:"secret,omitempty"`
	// Turn is the game's turn when a bot's holding began: the return
	// window counts turns from it.
	Turn int `json:"turn,omitempty"`
	// Bounces are the spells during which mail to them bounced, the
	// current one last (bounced.go).
	Bounces []Bounce `json:"bounces,omitempty"`
}

// Played is the number of steps h played in g.
func (h Holder) Played(g *Game) uint64 {
	to := h.To
	if h.Ended == "" {
		to = g.Step
	}
	if to < h.From {
		return 0
	}
	return to - h.From + 1
}

// Current is the seat's holder now, or nil when it has none (the player
// was kicked or resigned and nobody took the seat since).
func (p *Player) Current() *Holder {
	if n := len(p.Holders); n > 0 && p.Holders[n-1].Ended == "" {
		return &p.Holders[n-1]
	}
	return nil
}

// History is the seat's holders, the current one last. A game set up
// before holders were recorded gets one holder from step 1: whoever holds
// the seat now.
func (p Player) History(g *Game) []Holder {
	if len(p.Holders) > 0 || g.Signup {
		return p.Holders
	}
	h := Holder{Email: p.Email, Bot: p.Bot, From: 1, Since: g.Created}
	if contains(g.Kicked, p.Name) {
		h.To, h.Ended = g.Step, "kicked"
	}
	return []Holder{h}
}

// ensureHolders gives every seat of a started game its history (History).
func ensureHolders(g *Game) {
	if g.Signup {
		return
	}
	for i := range g.Players {
		if len(g.Players[i].Holders) == 0 {
			g.Players[i].Holders = g.Players[i].History(g)
		}
	}
}

// openHolders records the first holder of every seat when a game starts,
// and indexes their addresses (held).
func openHolders(tx store.Tx, g *Game, now time.Time) error {
	for i := range g.Players {
		p := &g.Players[i]
		if len(p.Holders) == 0 {
			p.Holders = []Holder{{Email: p.Email, Bot: p.Bot, From: 1, Since: now}}
		}
		if err := indexHeld(tx, p.Email, g.ID); err != nil {
			return err
		}
	}
	return nil
}

func isBot(g *Game, name string) bool {
	p, ok := g.PlayerByName(name)
	return ok && p.Bot
}

func (g *Game) player(name string) *Player {
	for i := range g.Players {
		if strings.EqualFold(g.Players[i].Name, name) {
			return &g.Players[i]
		}
	}
	return nil
}

// handOver gives seat p to a new holder (an address, or the bot with bot
// set) from the next step: a new secret (so the old one, and the private
// web page made from it, stop working), the seat's missed count and marks
// cleared. It closes the current holder with ended and why, and returns
// the address that held the seat, if a person did. A caller giving the
// seat to an address indexes it (indexHeld) in its transaction.
func (g *Game) handOver(p *Player, email string, bot bool, ended, why string, now time.Time) (former string) {
	ensureHolders(g)
	if h := p.Current(); h != nil {
		h.To, h.Until, h.Ended, h.Why = g.Step, now, ended, why
	}
	if !p.Bot {
		former = p.Email
	}
	p.Email, p.Bot, p.Secret, p.Zone = strings.TrimSpace(email), bot, randomWord(), ""
	p.Holders = append(p.Holders, Holder{Email: p.Email, Bot: bot, From: g.Step + 1, Since: now})
	g.Abandoned = remove(g.Abandoned, p.Name)
	g.Kicked = remove(g.Kicked, p.Name)
	g.Unreachable = remove(g.Unreachable, p.Name)
	delete(g.Missed, p.Name)
	return former
}

// Seat says who is to hold a seat: an address, or the ruleset's bot.
// Name is the new holder's own name, to greet them by and to show the
// others who plays the seat now ("seat bob, played by Eve"); without
// one, their address's local part.
type Seat struct {
	Email string
	Bot   bool
	Name  string
}

func (to Seat) String() string {
	if to.Bot {
		return "the bot"
	}
	return to.Email
}

// ReplaceSeat gives player's seat to a new holder from the next step: the
// ruleset's bot (to.Bot), or a person at to.Email, who gets a welcome with
// the new secret. The old holder is told what happened and why (reason,
// which may be empty), and loses access at once; the other players and the
// GM are told the seat has a new player. A bot answers what the seat is
// asked now.
func (s *Service) ReplaceSeat(ctx context.Context, id, player string, to Seat, reason string, hooks ...Hook) (*Game, []Notice, error) {
	g, notices, err := s.gmChange(ctx, id, hooks, func(b store.Bucket, g *Game, now time.Time) ([]Notice, string, error) {
		if g.Signup {
			return nil, "", userErr(lang.M("game %s has not started: seats are taken by JOIN while it signs up", g.ID))
		}
		if err := requireActive(g); err != nil {
			return nil, "", err
		}
		p := g.player(player)
		if p == nil {
			return nil, "", userErr(lang.M("there is no player %q in game %s", player, g.ID))
		}
		if !to.Bot {
			to.Email = strings.TrimSpace(to.Email)
			if !strings.Contains(to.Email, "@") {
				return nil, "", userErr(lang.M("%q is not a mail address", to.Email))
			}
			if other, ok := g.PlayerByEmail(to.Email); ok && other.Name != p.Name {
				return nil, "", userErr(lang.M("%s already plays %s in this game", to.Email, other.Name))
			}
		} else if p.Bot {
			return nil, "", userErr(lang.M("the computer plays %s of %s already", p.Name, g.ID))
		}
		old := p.Email
		if p.Bot {
			old = "the bot"
		}
		to.Name = strings.TrimSpace(to.Name)
		if to.Name != "" {
			if err := holderNameOK(g, p, to); err != nil {
				return nil, "", err
			}
		}
		former := g.handOver(p, to.Email, to.Bot, "replaced", reason, now)
		if to.Name != "" && !strings.EqualFold(to.Name, p.Name) {
			p.Holders[len(p.Holders)-1].Name = to.Name
		}
		if err := indexHeld(b.Tx(), p.Email, g.ID); err != nil {
			return nil, "", err
		}
		why := reasonOr(reason, lang.M("no reason given"))
		notices := []Notice{seatNotice("replaced", append(others(g, []string{p.Name}), GM), p.Name,
			lang.M("%s of %s is now played by a new player.", p.Name, g.ID))}
		lost := lang.M("The GM gave your seat %s in %s to a new player: %s.", p.Name, g.ID, why)
		if to.Bot {
			notices[0].Tell(lang.M("%s of %s is now played by the computer.", p.Name, g.ID))
			lost = lang.M("The GM gave your seat %s in %s to the computer: %s.", p.Name, g.ID, why)
		}
		if former != "" && !SameAddress(former, to.Email) {
			n := seatNotice("seat-lost", nil, p.Name, lost)
			n.Addresses = []string{former}
			notices = append(notices, n)
		}
		log := fmt.Sprintf("replace %s: %s → %s", p.Name, old, to)
		if to.Name != "" {
			log += " (" + to.Name + ")"
		}
		if reason != "" {
			log += ": " + reason
		}
		return notices, log, nil
	})
	if err != nil {
		return g, notices, err
	}
	return g, notices, s.playBots(ctx, id, hooks)
}

// KickFor removes a player from play, saying why: the seat plays its defaults
// from now on, the address loses access, and the player is told.
func (s *Service) KickFor(ctx context.Context, id, player, reason string, hooks ...Hook) (*Game, []Notice, error) {
	return s.leave(ctx, id, player, "kicked", func(seat, game string) lang.Msg {
		return lang.M("The GM removed %s from %s; the seat plays its defaults from now on.", seat, game)
	}, "kick", reason, hooks)
}

// leaveHolder ends the holding of a player who leaves (kind kicked or
// resigned) and, when the GM kicked them, tells them why at the address
// they held the seat with.
func leaveHolder(g *Game, p *Player, kind, reason string, now time.Time) []Notice {
	ensureHolders(g)
	if h := p.Current(); h != nil {
		h.To, h.Until, h.Ended, h.Why = g.Step, now, kind, reason
	}
	if kind != "kicked" || p.Email == "" || p.Bot {
		return nil
	}
	n := seatNotice("seat-lost", nil, p.Name, lang.M("The GM removed you from %s: %s. Your seat %s plays its defaults from now on.", g.ID, reasonOr(reason, lang.M("no reason given")), p.Name))
	n.Addresses = []string{p.Email}
	return []Notice{n}
}

// abandonSeat applies the game's policy to seat name, abandoned for why
// (kind "abandoned": it missed AbandonAfter steps in a row; "unreachable":
// mail to its address bounced for the whole window, bounced.go): under
// "defaults" it plays its defaults and the game no longer waits for it,
// under "bot" the bot takes it at once, under "open" it is offered to
// anyone (JOIN) and plays its defaults until taken. It returns what to
// tell whom. Called inside the step's transaction (afterStep,
// bounceWindow).
func abandonSeat(g *Game, name, why, kind string, now time.Time) []Notice {
	p := g.player(name)
	if p == nil || p.Bot {
		return nil
	}
	ensureHolders(g)
	if h := p.Current(); h != nil && kind == "abandoned" {
		h.Abandoned = true
	}
	if !contains(g.Abandoned, p.Name) {
		g.Abandoned = append(g.Abandoned, p.Name)
		sort.Strings(g.Abandoned)
	}
	if kind == "unreachable" && !contains(g.Unreachable, p.Name) {
		g.Unreachable = append(g.Unreachable, p.Name)
		sort.Strings(g.Unreachable)
	}
	everyoneElse := append(others(g, []string{p.Name}), GM)
	missed := lang.MN("%d step", "%d steps", g.Missed[p.Name])
	switch g.Settings.Abandoned {
	case "bot":
		secret := p.Secret
		former := g.handOver(p, "", true, kind, why, now)
		if n := len(p.Holders); n >= 2 && former != "" {
			p.Holders[n-2].Secret = secret // for returnable
			p.Holders[n-1].Turn = max(g.Turn, 1)
		}
		// A game left to bots alone would play itself to its end in a
		// second: it waits for the GM (returns.go).
		ns := lastHumanGone(g, now)
		if kind == "unreachable" {
			return append(ns, seatNotice("unreachable", everyoneElse, p.Name,
				lang.M("Mail to %s in %s bounces, so they get no reports: the computer plays the seat from now on.", p.Name, g.ID)))
		}
		ns = append(ns, seatNotice("abandoned", everyoneElse, p.Name,
			lang.M("%s has sent no orders in %s for %s in a row: the computer plays the seat from now on.", p.Name, g.ID, missed)))
		if former != "" {
			n := seatNotice("seat-lost", nil, p.Name,
				lang.M("You have sent no orders in %s for %s in a row, so the computer plays your seat %s from now on. Thank you for playing.", g.ID, missed, p.Name))
			n.Addresses = []string{former}
			ns = append(ns, n)
		}
		return ns
	case "open":
		if kind == "unreachable" {
			return []Notice{seatNotice("unreachable", everyoneElse, p.Name,
				lang.M("Mail to %s in %s bounces, so they get no reports: the seat is open for anyone to take (send JOIN %s); until then it plays its defaults.", p.Name, g.ID, g.ID))}
		}
		return []Notice{
			seatNotice("abandoned", everyoneElse, p.Name,
				lang.M("%s has sent no orders in %s for %s in a row: the seat is open for anyone to take (send JOIN %s); until then it plays its defaults.", p.Name, g.ID, missed, g.ID)),
			seatNotice("seat-open", []string{p.Name}, p.Name,
				lang.M("You have sent no orders in %s for %s in a row: your seat %s is offered to other players. Until someone takes it, orders you send still count.", g.ID, missed, p.Name)),
		}
	}
	if kind == "unreachable" {
		// The players were told when the mail began to bounce; for them
		// nothing changes now.
		return []Notice{seatNotice("abandoned", []string{GM}, p.Name,
			lang.M("Mail to %s in %s still bounces after %s played by defaults: the seat is marked abandoned and plays its defaults. Offer it to a replacement with: orrery game replace %s %s --email ADDRESS", p.Name, g.ID, lang.MN("%d step", "%d steps", g.Settings.BounceWindow()), g.ID, p.Name))}
	}
	return []Notice{seatNotice("abandoned", []string{GM}, p.Name,
		lang.M("%s has sent no orders for %s in a row; the seat is marked abandoned and plays its defaults. Offer it to a replacement with: orrery game replace %s %s --email ADDRESS", p.Name, missed, g.ID, p.Name))}
}

// MarkUnreachable tells game id that mail to addr bounces (the mail side
// decides when): every seat addr holds there plays its defaults and the
// game no longer waits for it, and the GM and the other players are told;
// but the seat stays addr's for the game's abandon window (bounced.go):
// the abandon policy applies only when it has played BounceWindow steps by
// defaults since, and MarkReachable gives it back before. A seat already
// marked, or no longer held by addr, is left alone, so a second call
// changes nothing.
func (s *Service) MarkUnreachable(ctx context.Context, id, addr, why string, hooks ...Hook) (*Game, []Notice, error) {
	return s.gmChange(ctx, id, hooks, func(b store.Bucket, g *Game, now time.Time) ([]Notice, string, error) {
		if g.Over() || g.Signup {
			return nil, "", nil
		}
		var out []Notice
		var names []string
		for i := range g.Players {
			p := &g.Players[i]
			if p.Bot || p.Email == "" || !SameAddress(p.Email, addr) || contains(g.Unreachable, p.Name) || contains(g.Kicked, p.Name) {
				continue
			}
			if contains(g.Abandoned, p.Name) {
				// Abandoned already (its player went silent): there is
				// nothing left to keep for them.
				g.Unreachable = append(g.Unreachable, p.Name)
				sortStrings(g.Unreachable)
				out = append(out, seatNotice("unreachable", append(others(g, []string{p.Name}), GM), p.Name,
					lang.M("Mail to %s in %s bounces, so they get no reports: the seat plays its defaults from now on.", p.Name, g.ID)))
				names = append(names, p.Name+" (abandoned already)")
				continue
			}
			out = append(out, markBouncing(g, p, why, now)...)
			names = append(names, fmt.Sprintf("%s (kept for %s played by defaults)", p.Name, steps(g.Settings.BounceWindow())))
		}
		if len(names) == 0 {
			return nil, "", nil
		}
		return out, fmt.Sprintf("unreachable %s (%s): %s", strings.Join(names, ", "), addr, why), nil
	})
}

// openSeats lists the seats of a started game anyone may take by JOIN:
// abandoned ones, under the "open" policy.
func (g *Game) openSeats() []string {
	if g.Signup || g.Over() || g.Settings.Abandoned != "open" {
		return nil
	}
	var out []string
	for _, name := range g.Abandoned {
		if p, ok := g.PlayerByName(name); ok && !p.Bot {
			out = append(out, name)
		}
	}
	return out
}

// OpenSeats lists the seats anyone may take now by JOIN (see Join).
func (g *Game) OpenSeats() []string { return g.openSeats() }

// OpenToJoin says whether JOIN can take a seat of g now: it is signing
// up, or it offers a seat its player left (LIST's open games, game list
// --open).
func (g *Game) OpenToJoin() bool { return g.Signup || len(g.openSeats()) > 0 }

// takeSeat is Join for a game that has started: joiner takes one of its
// open seats (the one named, if it is open, else the first), with a new
// secret; the old holder is told, the others and the GM too.
func (s *Service) takeSeat(b store.Bucket, g *Game, joiner PlayerSpec) (*Change, error) {
	open := g.openSeats()
	if len(open) == 0 {
		if g.Over() {
			return nil, userErr(lang.M("game %s is over: %s", g.ID, outcomeArg(g)))
		}
		return nil, userErr(lang.M("game %s has started and has no seat open to take (a seat is open when its player dropped out and the game offers it: JOIN takes it then)", g.ID))
	}
	email := strings.TrimSpace(joiner.Email)
	if !strings.Contains(email, "@") {
		return nil, userErr(lang.M("%q is not a mail address", joiner.Email))
	}
	if other, ok := g.PlayerByEmail(email); ok {
		return nil, userErr(lang.M("%s already plays %s in %s", email, other.Name, g.ID))
	}
	name := open[0]
	if want := strings.ToLower(joiner.Name); contains(open, want) {
		name = want
	}
	p := g.player(name)
	now := s.now().UTC()
	former := g.handOver(p, email, false, "taken", "", now)
	p.Zone = joiner.Zone
	if own := strings.TrimSpace(joiner.Name); own != "" && !strings.EqualFold(own, p.Name) {
		p.Holders[len(p.Holders)-1].Name = own
	}
	if err := indexHeld(b.Tx(), email, g.ID); err != nil {
		return nil, err
	}
	g.Updated = now
	notices := []Notice{
		seatNotice("replaced", others(g, []string{p.Name}), p.Name,
			lang.M("%s of %s is now played by a new player.", p.Name, g.ID)),
		seatNotice("taken", []string{GM}, p.Name,
			lang.M("%s took the open seat %s of %s.", email, p.Name, g.ID)),
	}
	away, err := s.standingVacations(b.Tx(), g, now, p.Name)
	if err != nil {
		return nil, err
	}
	notices = append(notices, away...)
	if former != "" && !contains(g.Unreachable, p.Name) {
		n := seatNotice("seat-lost", nil, p.Name,
			lang.M("Your seat %s in %s was taken by a new player. Thank you for playing.", p.Name, g.ID))
		n.Addresses = []string{former}
		notices = append(notices, n)
	}
	if err := appendLog(b, &Entry{Time: now, Kind: "gm", Step: g.Step, Player: p.Name, Source: "join",
		Text: fmt.Sprintf("%s takes the open seat %s (was %s)", email, p.Name, orDefault(former, "nobody"))}); err != nil {
		return nil, err
	}
	if err := writeGame(b, g); err != nil {
		return nil, err
	}
	return &Change{Game: g, Notices: notices, Service: s}, nil
}

// StartNow starts a game that is signing up with the players it has, if
// they are enough for its ruleset: its creator's START by mail. by must be
// the game's creator (Game.Creator), or "" for the GM.
func (s *Service) StartNow(ctx context.Context, id, by string, hooks ...Hook) (*Game, error) {
	err := s.st.Update(ctx, func(tx store.Tx) error {
		b, err := gameBucket(tx, id)
		if err != nil {
			return err
		}
		g, err := readGame(b)
		if err != nil {
			return err
		}
		if by != "" && !SameAddress(by, g.Creator) {
			return userErr(lang.M("only the player who opened %s may start it early", g.ID))
		}
		if !g.Signup {
			return userErr(lang.M("game %s has started already", g.ID))
		}
		rs, err := s.ruleset(g)
		if err != nil {
			return err
		}
		if min := rs.Info().MinPlayers; len(g.Players) < min {
			return userErr(lang.M("game %s needs at least %d players to start; it has %d", g.ID, min, len(g.Players)))
		}
		g.Seats = len(g.Players)
		// The creator's own START is theirs in the log, not the GM's.
		var starter string
		if p, ok := g.PlayerByEmail(by); ok && by != "" {
			starter = p.Name
		}
		if err := appendLog(b, &Entry{Time: s.now().UTC(), Kind: "gm", Player: starter, Source: "start", Text: fmt.Sprintf("started early with %d players", len(g.Players))}); err != nil {
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
		return nil, err
	}
	return s.Get(ctx, id)
}

// Invite records that the creator of game id (by) invited addrs to it,
// while it signs up, and returns an "invite" notice to those not invited
// before, which the mail side mails them. A game takes at most MaxInvites
// invitations, so that nobody can make the server mail strangers at will.
func (s *Service) Invite(ctx context.Context, id, by string, addrs []string, hooks ...Hook) (*Game, []Notice, error) {
	return s.gmChange(ctx, id, hooks, func(b store.Bucket, g *Game, now time.Time) ([]Notice, string, error) {
		if !SameAddress(by, g.Creator) {
			return nil, "", userErr(lang.M("only the player who opened %s may invite others to it", g.ID))
		}
		if !g.Signup {
			return nil, "", userErr(lang.M("game %s has started: there is nobody to invite", g.ID))
		}
		var fresh []string
		for _, a := range addrs {
			a = strings.TrimSpace(a)
			if !strings.Contains(a, "@") || strings.ContainsAny(a, " <>,;") {
				return nil, "", userErr(lang.M("%q is not a mail address", a))
			}
			if _, seated := g.PlayerByEmail(a); seated || containsAddr(g.Invited, a) || containsAddr(fresh, a) {
				continue
			}
			fresh = append(fresh, a)
		}
		if len(g.Invited)+len(fresh) > MaxInvites {
			return nil, "", userErr(lang.M("a game takes at most %d invitations; %s has %d already", MaxInvites, g.ID, len(g.Invited)))
		}
		if len(fresh) == 0 {
			return nil, "", nil
		}
		g.Invited = append(g.Invited, fresh...)
		title := g.Ruleset
		if rs, err := s.ruleset(g); err == nil {
			title = rs.Info().Title
		}
		// The creator's own INVITE is theirs in the log, not the GM's.
		entry := &Entry{Time: now, Kind: "gm", Step: g.Step, Source: "invite", Text: fmt.Sprintf("%s invites %s", by, strings.Join(fresh, ", "))}
		if p, ok := g.PlayerByEmail(by); ok {
			entry.Player = p.Name
		}
		if err := appendLog(b, entry); err != nil {
			return nil, "", err
		}
		n := tell("invite", nil, lang.M("%s invites you to play %s, a game of %s: %d of %d seats are taken. To take a seat, answer this mail with the line JOIN %s. Nothing more comes to you about it unless you do.", by, g.ID, title, len(g.Players), g.Seats, g.ID))
		n.Addresses = fresh
		return []Notice{n}, "", nil
	})
}

// MaxInvites is how many addresses one game's creator may invite.
const MaxInvites = 10

func containsAddr(list []string, a string) bool {
	for _, x := range list {
		if SameAddress(x, a) {
			return true
		}
	}
	return false
}

// countMissed counts, after step rec, a step played by defaults against
// the person holding each seat (once a step, however many of the seat's
// prompts defaulted), but not during a vacation the "defaults" policy
// excuses: their record's NMR.
func countMissed(g *Game, rec *StepRecord, now time.Time) {
	if notAMiss(rec) {
		return
	}
	ensureHolders(g)
	missed := map[string]bool{}
	for _, a := range rec.Answers {
		if a.Default && a.Prompt.Kind.Blocks() {
			missed[a.Prompt.Player] = true
		}
	}
	for i := range g.Players {
		p := &g.Players[i]
		if !missed[p.Name] || contains(g.Alive, p.Name) || (g.Settings.Vacation == "defaults" && onVacation(g, p.Name, now)) {
			continue
		}
		if h := p.Current(); h != nil && !h.Bot {
			h.Missed++
		}
	}
}

// recountSeats rebuilds, after a rollback to step to, each seat's missed
// count and the abandoned seats from the step records its current holder
// played (the steps undone no longer count, nor do an earlier holder's),
// and each holder's record of missed steps. Kicked and unreachable seats
// stay as they are: those are not made by the steps.
func recountSeats(b store.Bucket, g *Game, to uint64) {
	ensureHolders(g)
	g.Missed = map[string]int{}
	trimBounces(g, to)
	var abandoned []string
	for _, name := range g.Unreachable {
		if g.Bouncing(name) == nil { // its window is still open: not abandoned yet
			abandoned = append(abandoned, name)
		}
	}
	for i := range g.Players {
		p := &g.Players[i]
		for j := range p.Holders {
			h := &p.Holders[j]
			last := h.To
			if h.Ended == "" || last > to {
				last = to
			}
			h.Missed, h.Abandoned = 0, false
			run := 0
			for n := h.From; n <= last && n > 0; n++ {
				rec, err := readStep(b, n)
				if err != nil || notAMiss(rec) {
					continue
				}
				def, answered := false, false
				for _, a := range rec.Answers {
					if a.Prompt.Player == p.Name && a.Prompt.Kind.Blocks() {
						answered = true
						def = def || a.Default
					}
				}
				if !answered {
					continue
				}
				if !def {
					run = 0
					continue
				}
				if !h.Bot {
					h.Missed++
				}
				run++
				if n := g.Settings.AbandonAfter; n > 0 && run >= n {
					h.Abandoned = true
				}
			}
			if j == len(p.Holders)-1 && h.Ended == "" && !h.Bot && !contains(g.Kicked, p.Name) {
				if run > 0 {
					g.Missed[p.Name] = run
				}
				if h.Abandoned && !contains(abandoned, p.Name) {
					abandoned = append(abandoned, p.Name)
				}
			}
		}
	}
	sort.Strings(abandoned)
	g.Abandoned = abandoned
	if len(g.Missed) == 0 {
		g.Missed = nil
	}
}

// heldPress keeps of press the notes the seat's current holder sent or
// received: a new holder reads the seat's earlier reports, but not what
// earlier holders said or were told in confidence.
func heldPress(g *Game, player string, press []PressNote) []PressNote {
	p, ok := g.PlayerByName(player)
	if !ok || player == "" || player == Observer {
		return press
	}
	since := g.Created
	if h := p.Current(); h != nil {
		since = h.Since
	} else if len(p.Holders) > 0 {
		return nil // nobody holds the seat: nobody's press to show
	}
	var out []PressNote
	for _, n := range press {
		if !n.Time.Before(since) {
			out = append(out, n)
		}
	}
	return out
}

// ---- the player record ---------------------------------------------------

// Record is what one address did in every game it held a seat in: the
// figure players look at when choosing whom to play with.
type Record struct {
	Address string
	// Games counts the games it held a seat in (started games only);
	// Steps the steps it played, Missed those it played by defaults
	// (NMR); Abandoned the seats it left by dropping out (marked
	// abandoned, or resigned); Won the games it won holding the seat at
	// the end.
	Games, Missed, Abandoned, Won int
	Steps                         uint64
	// Seats lists every holding, game by game.
	Seats []SeatRecord
}

// SeatRecord is one holding of a seat by the address.
type SeatRecord struct {
	Game, Ruleset, Seat string
	Holder              Holder
	Over, Won           bool
}

// PlayerRecord reads addr's record from every game it ever held a seat in.
func (s *Service) PlayerRecord(ctx context.Context, addr string) (*Record, error) {
	r := &Record{Address: CanonAddress(addr)}
	if err := s.indexed(ctx); err != nil {
		return nil, err
	}
	err := s.st.View(ctx, func(tx store.Tx) error {
		ids, err := heldGames(tx, addr)
		if err != nil {
			return err
		}
		for _, id := range ids {
			b := tx.Bucket(store.BucketGames).Bucket([]byte(id))
			if b == nil {
				continue
			}
			g, err := readGame(b)
			if err != nil {
				return fmt.Errorf("game %s: %w", id, err)
			}
			r.add(g)
		}
		return nil
	})
	return r, err
}

func (r *Record) add(g *Game) {
	counted := false
	for _, p := range g.Players {
		hist := p.History(g)
		for i, h := range hist {
			if h.Bot || !SameAddress(h.Email, r.Address) {
				continue
			}
			if !counted {
				r.Games++
				counted = true
			}
			won := false
			if g.Over() && i == len(hist)-1 && h.Ended == "" {
				won = contains(g.Outcome.Winners, p.Name)
			}
			r.Steps += h.Played(g)
			r.Missed += h.Missed
			if h.Abandoned || h.Ended == "resigned" {
				r.Abandoned++
			}
			if won {
				r.Won++
			}
			r.Seats = append(r.Seats, SeatRecord{Game: g.ID, Ruleset: g.Ruleset, Seat: p.Name, Holder: h, Over: g.Over(), Won: won})
		}
	}
}

// ---- indexes: games an address held a seat in, or observes ----------------
//
// held and observing are derived indexes like seats (index.go): kept in
// step by the changes that make them, and rebuilt from the games by
// rebuildIndexes (indexHolders) when meta/indexes names another version.

// indexHeld notes that addr held a seat in game id (kept after it leaves:
// the record reads it).
func indexHeld(tx store.Tx, addr, id string) error {
	if strings.TrimSpace(addr) == "" {
		return nil
	}
	b := tx.Bucket(store.BucketHeld)
	if b == nil {
		return nil // a store opened read-only before the index existed
	}
	return b.Put(idKey(CanonAddress(addr), id), nil)
}

// indexObserver adds or removes addr as an observer of game id.
func indexObserver(tx store.Tx, addr, id string, on bool) error {
	b := tx.Bucket(store.BucketObserving)
	if b == nil {
		return nil
	}
	if on {
		return b.Put(idKey(CanonAddress(addr), id), nil)
	}
	return b.Delete(idKey(CanonAddress(addr), id))
}

// indexHolders puts every holder and observer of g in held and observing
// (an index rebuild).
func indexHolders(tx store.Tx, g *Game) error {
	for _, p := range g.Players {
		for _, h := range p.History(g) {
			if err := indexHeld(tx, h.Email, g.ID); err != nil {
				return err
			}
		}
	}
	for _, o := range g.Observers {
		if err := indexObserver(tx, o, g.ID, true); err != nil {
			return err
		}
	}
	return nil
}

func prefixIDs(b store.Bucket, addr string) ([]string, error) {
	var out []string
	err := eachID(b, CanonAddress(addr), "", func(id string) (bool, error) {
		out = append(out, id)
		return true, nil
	})
	return out, err
}

// heldGames lists the games addr ever held a seat in; its caller has
// called Service.indexed.
func heldGames(tx store.Tx, addr string) ([]string, error) {
	return prefixIDs(tx.Bucket(store.BucketHeld), addr)
}

// ObservedGames lists the ids of the games addr observes.
func (s *Service) ObservedGames(ctx context.Context, addr string) ([]string, error) {
	if err := s.indexed(ctx); err != nil {
		return nil, err
	}
	var out []string
	err := s.st.View(ctx, func(tx store.Tx) error {
		var err error
		out, err = prefixIDs(tx.Bucket(store.BucketObserving), addr)
		return err
	})
	return out, err
}

// HeldGames lists the ids of the games addr ever held a seat in.
func (s *Service) HeldGames(ctx context.Context, addr string) ([]string, error) {
	if err := s.indexed(ctx); err != nil {
		return nil, err
	}
	var out []string
	err := s.st.View(ctx, func(tx store.Tx) error {
		var err error
		out, err = heldGames(tx, addr)
		return err
	})
	return out, err
}

// BuildIndexes rebuilds the derived indexes (seats, game-tags, wake, held,
// observing, each game's log-by-step) if they were built by another
// version, once: orrery serve calls it on start so that the first mail
// does not wait for it. Every reader of an index would do it anyway.
func (s *Service) BuildIndexes(ctx context.Context) error {
	return s.indexed(ctx)
}

// ReportTx builds player's current report of game id inside tx: a hook
// mailing a seat's new holder its welcome reads it in the change's own
// transaction.
func (s *Service) ReportTx(tx store.Tx, id, player string) (*Report, error) {
	b, err := gameBucket(tx, id)
	if err != nil {
		return nil, err
	}
	g, err := readGame(b)
	if err != nil {
		return nil, err
	}
	return s.reportTx(b, g, g.Step, player, true)
}
