package daemon

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"sort"
	"strconv"
	"strings"
	"time"

	"orrery/engine"
	"orrery/engine/game"
	"orrery/engine/lang"
	"orrery/engine/store"
	"orrery/pbem/policy"
	"orrery/pbem/route"
	"orrery/templates"
)

// This file is what players do for themselves by mail (issue 18): MY
// GAMES, SECRET, NEW, and a new game's START and INVITE.

// recentlyOver is how long a finished game stays in MY GAMES.
const recentlyOver = 30 * 24 * time.Hour

// MyGames lists what addr plays and observes, and its record, as MY
// GAMES shows them: running games first, then those signing up, those
// observed, and those over in the last 30 days.
func (d *Daemon) MyGames(ctx context.Context, addr string) ([]templates.MyGame, *templates.Record, error) {
	seats, err := d.svc.GamesOf(ctx, addr)
	if err != nil {
		return nil, nil, err
	}
	watched, err := d.svc.ObservedGames(ctx, addr)
	if err != nil {
		return nil, nil, err
	}
	now := d.cfg.Now()
	var out []templates.MyGame
	add := func(id string, observing bool) {
		g, err := d.svc.Get(ctx, id)
		if err != nil {
			return
		}
		if g.Over() && now.Sub(g.Updated) > recentlyOver {
			return
		}
		mg := templates.MyGame{ID: g.ID, Turn: g.Turn, Phase: g.Phase, Deadline: g.Deadline, Observing: observing,
			Signup: g.Signup, Over: g.Over(), Seated: len(g.Players), Seats: g.Seats, Creator: sameAddress(g.Creator, addr)}
		if rs, err := engine.Find(d.svc.Rulesets(), g.Ruleset); err == nil {
			mg.Title = rs.Info().Title
		}
		if !observing {
			p, ok := g.PlayerByEmail(addr)
			if !ok {
				return
			}
			mg.Seat = p.Name
			mg.Won = g.Over() && contains(g.Outcome.Winners, p.Name)
			in := true
			for _, q := range g.PromptsFor(p.Name) {
				if q.Kind.Blocks() {
					mg.Asked = true
					in = in && contains(g.Answered, q.ID)
				}
			}
			mg.OrdersIn = mg.Asked && in
		}
		if !g.Signup && !g.Over() {
			for _, w := range g.Waiting() {
				if !contains(g.Kicked, w) && !contains(g.Abandoned, w) && !contains(g.Unreachable, w) {
					mg.Awaited = append(mg.Awaited, w)
				}
			}
		}
		out = append(out, mg)
	}
	for _, id := range seats {
		add(id, false)
	}
	for _, id := range watched {
		if !contains(seats, id) {
			add(id, true)
		}
	}
	rank := func(g templates.MyGame) int {
		switch {
		case g.Over:
			return 3
		case g.Observing:
			return 2
		case g.Signup:
			return 1
		}
		return 0
	}
	sort.SliceStable(out, func(i, j int) bool {
		if rank(out[i]) != rank(out[j]) {
			return rank(out[i]) < rank(out[j])
		}
		return out[i].ID < out[j].ID
	})
	rec, err := d.svc.PlayerRecord(ctx, addr)
	if err != nil {
		return nil, nil, err
	}
	r := &templates.Record{Games: rec.Games, Steps: rec.Steps, Missed: rec.Missed, Abandoned: rec.Abandoned, Won: rec.Won}
	// What is left of the yearly allowance of vacation days.
	a, err := d.svc.AbsenceOf(ctx, addr)
	if err != nil {
		return nil, nil, err
	}
	left, days, off := d.svc.AllowanceLeft(a)
	r.VacationDays, r.VacationLeft, r.AutoVacationOff = days, int(left/time.Hour), off
	return out, r, nil
}

// myGames answers MY GAMES.
func (d *Daemon) myGames(ctx context.Context, j *job, _ *route.Result, _ route.Command, _ *gameIndex) error {
	data := d.mailer.data(nil, game.Player{}, nil)
	var err error
	if data.Mine, data.Record, err = d.MyGames(ctx, j.from); err != nil {
		return err
	}
	return d.say(j, templates.MyGames, data)
}

// secretsPerDay is how many times one seat's secret is mailed again in a
// day: enough for a player who lost it, too few to flood its owner.
const secretsPerDay = 3

// sendSecret answers SECRET <game> [seat]: the seat's secret goes to the
// address the seat is held with, never to anyone else. Without a seat it
// is the sender's own seat; naming one, anyone may ask, and the owner is
// told the request came from elsewhere. It is a recorded part of the mail,
// with its own limit per seat and day.
func (d *Daemon) sendSecret(ctx context.Context, j *job, _ *route.Result, c route.Command, byID *gameIndex) error {
	g := byID.get(c.Game)
	line := strings.TrimSpace("SECRET " + c.Game + " " + c.Seat)
	refuse := func(msg, fix lang.Msg) error {
		return d.refuse(j, g, game.Player{}, engine.LineErr(c.Line, line, msg, fix))
	}
	if g == nil {
		return refuse(lang.M("there is no game %q here", c.Game), lang.M("send MY GAMES for yours"))
	}
	var p game.Player
	var ok bool
	if c.Seat != "" {
		if p, ok = g.PlayerByName(c.Seat); !ok {
			return refuse(lang.M("game %s has no seat %q", g.ID, c.Seat), lang.Msg{})
		}
	} else if p, ok = g.PlayerByEmail(j.from); !ok {
		j.stranger = j.stranger || !j.isPlayer
		// SECRET <word> asks when the word names a game: say so, for a
		// sender who meant the word as their secret.
		fix := lang.M("write from the address you play with, or name your seat (SECRET %s ann): its secret then goes to that seat's address", g.ID)
		if j.route == nil || j.route.Game != g.ID {
			fix = lang.M("write from the address you play with, or name your seat (SECRET %s ann): its secret then goes to that seat's address; if %s is your own secret, not a game, give it beside its game, like [<game> %s] in the subject", g.ID, g.ID, g.ID)
		}
		return refuse(lang.M("I read SECRET %s as asking for your secret in game %s, but you hold no seat in it from this address, and a secret goes only to the address its seat is held with", g.ID, g.ID), fix)
	}
	if p.Bot || p.Email == "" {
		return refuse(lang.M("seat %s of %s has no player's address to send its secret to", p.Name, g.ID), lang.Msg{})
	}
	n, done, err := d.newPart(ctx, j)
	if done {
		return err
	}
	elsewhere := !sameAddress(p.Email, j.from)
	now := d.cfg.Now().UTC()
	var answer section
	var next time.Time
	err = d.st.Update(ctx, func(tx store.Tx) error {
		next = time.Time{}
		b, err := mailBucket(tx, store.BucketMailSecretSent)
		if err != nil {
			return err
		}
		key := []byte(g.ID + "\x00" + p.Name)
		var times []time.Time
		if v := b.Get(key); v != nil {
			json.Unmarshal(v, &times)
		}
		kept := times[:0]
		for _, t := range times {
			if now.Sub(t) < 24*time.Hour {
				kept = append(kept, t)
			}
		}
		if len(kept) >= secretsPerDay {
			next = kept[0].Add(24 * time.Hour)
			return nil
		}
		data, _ := json.Marshal(append(kept, now))
		if err := b.Put(key, data); err != nil {
			return err
		}
		sd := d.mailer.data(g, p, d.svc.Rulesets())
		sd.AskedElsewhere = elsewhere
		if sd.Web, err = d.mailer.webLink(tx, g, p); err != nil {
			return err
		}
		d.mailer.speak(sd, readerOf(tx, p.Email), nil)
		m, err := d.mailer.Render.Render(templates.Secret, sd)
		if err != nil {
			return err
		}
		if err := d.mailer.enqueue(tx, d.mailer.gameMail(g, p.Email, "secret", m)); err != nil {
			return err
		}
		text := lang.M("Your secret in %s is on its way to you, in a mail of its own.", g.ID)
		if elsewhere {
			text = lang.M("If seat %s of %s is yours, its secret is on its way to the address the seat is held with, not to this one.", p.Name, g.ID)
		}
		ad := d.mailer.data(g, game.Player{}, d.svc.Rulesets())
		ad.Notice = &game.Notice{Kind: "secret-sent"}
		ad.Notice.Tell(text)
		d.mailer.speak(ad, j.reader, nil)
		if answer, err = d.mailer.Render.Render(templates.Notice, ad); err != nil {
			return err
		}
		return j.putPart(tx, n, answer)
	})
	if err != nil {
		return err
	}
	if !next.IsZero() {
		return refuse(lang.M("the secret of seat %s in %s was sent %d times in the last day", p.Name, g.ID, secretsPerDay),
			lang.M("ask again after %s", next))
	}
	j.applied++
	j.answers = append(j.answers, answer)
	return nil
}

// mayOpen says why the sender may not open a game here ("" when they may).
func (d *Daemon) mayOpen(ctx context.Context, j *job, r *route.Result) (msg, fix lang.Msg, err error) {
	gm := d.isGM(j, r.Secret)
	switch d.cfg.OpenGames {
	case "gm":
		if !gm {
			return lang.M("on this server only the game master opens games"), lang.M("JOIN a game that LIST shows, or ask the game master for one"), nil
		}
	case "players":
		if gm || j.isPlayer {
			break
		}
		held, err := d.svc.HeldGames(ctx, j.from)
		if err != nil {
			return lang.Msg{}, lang.Msg{}, err
		}
		if len(held) == 0 {
			return lang.M("on this server games are opened by those who play here, and this address has not played yet"), lang.M("JOIN a game that LIST shows: once you play, you may open games of your own"), nil
		}
	}
	if gm {
		j.gm = true // the GM's answers go whole, unlimited
		return lang.Msg{}, lang.Msg{}, nil
	}
	open := 0
	for _, id := range j.mine {
		if g, err := d.svc.Get(ctx, id); err == nil && !g.Over() && sameAddress(g.Creator, j.from) {
			open++
		}
	}
	if open >= d.cfg.MaxOpenGames {
		return lang.MN("you have opened %d game that is not over, the most one player may have at once here",
			"you have opened %d games that are not over, the most one player may have at once here", open), lang.M("START one that is signing up, or wait until one ends"), nil
	}
	return lang.Msg{}, lang.Msg{}, nil
}

// mayCreate says why NEW may not open a game in the sender's name ("" when
// it may): NEW needs the mail to be the address's own, shown by the
// secret of a seat it holds (a SECRET line, or the secret in a game's
// subject tag) or by sender authentication (an aligned DKIM signature or
// SPF pass, as DMARC asks). Without either, a forged From opened games in
// a player's name (issue 39). The GM (mayOpen set j.gm) and a server
// whose every game takes no secret (security.no_secret) need neither.
func (d *Daemon) mayCreate(ctx context.Context, j *job, r *route.Result) (msg, fix lang.Msg, err error) {
	if j.gm || j.aligned {
		return lang.Msg{}, lang.Msg{}, nil
	}
	relax := policy.Relax{NoSecret: d.cfg.Relax.NoSecret}
	if r.Secret != "" || relax.NoSecret {
		for _, id := range j.mine {
			g, err := d.svc.Get(ctx, id)
			if err != nil {
				if game.IsUserError(err) {
					continue // gone since the index was read
				}
				return lang.Msg{}, lang.Msg{}, err
			}
			if policy.Authenticate(g, j.from, r.Secret, relax).Kind == policy.Accepted {
				return lang.Msg{}, lang.Msg{}, nil
			}
		}
	}
	off := d.cfg.Policy.SenderAuth == "" || d.cfg.Policy.SenderAuth == policy.AuthOff
	switch {
	case off && r.Secret != "":
		return lang.M("the secret in your mail is not that of a seat you hold from this address, and NEW opens a game in your name only with it"), lang.M(newSecretFix), nil
	case off:
		return lang.M("NEW opens a game in your name, so it needs the secret of a seat you hold here, to show that the mail is yours, and this mail has none"), lang.M(newSecretFix), nil
	case r.Secret != "":
		return lang.M("the secret in your mail is not that of a seat you hold from this address, and nothing else shows that the mail is yours (no DKIM signature or SPF pass of your domain)"), lang.M(newDMARCFix), nil
	}
	return lang.M("NEW opens a game in your name, so it needs the secret of a seat you hold here, or a mail your domain vouches for (DMARC), to show that the mail is yours, and this mail has neither"), lang.M(newDMARCFix), nil
}

// newUsage is how NEW is written, for a NEW that is not.
const newUsage = "write NEW, the ruleset, maybe the seats, then name=value settings: id, seat, turn, quiet, weekends, abandoned, abandon-after, press, observers, or an option of the ruleset (RULES %s lists them)"

// What to do when NEW lacks its proof: with sender authentication off,
// and on.
const (
	newSecretFix = "write a line SECRET and the secret of a seat you hold here (your welcome mail has it; SECRET and the game mails it to you again), and send NEW again"
	newDMARCFix  = "write a line SECRET and the secret of a seat you hold here (your welcome mail has it; SECRET and the game mails it to you again), and send NEW again, or write from a mail provider that signs its mail (DKIM), so that DMARC vouches for it"
)

// newSpec is what NEW's words ask for.
type newSpec struct {
	id, seat string
	seats    int
	settings game.Settings
	options  map[string]string
}

// playerGameSettings are the settings of a game a player opens by mail:
// a deadline each 72 hours with a reminder a day before, and a seat
// abandoned after 3 steps without orders (it then plays its defaults, and
// the game waits for it no more), unless NEW says otherwise.
func playerGameSettings() game.Settings {
	st := game.DefaultSettings()
	st.TurnLength, st.Reminders, st.AbandonAfter = 72*time.Hour, []time.Duration{24 * time.Hour}, 3
	return st
}

// parseNew reads NEW's words after the ruleset: a number of seats, and
// name=value pairs (id, seat, turn, quiet, weekends, abandoned, abandon-after, press,
// observers, or one of the ruleset's options).
func parseNew(info engine.Info, args []string) (newSpec, lang.Msg, lang.Msg) {
	sp := newSpec{seats: info.MinPlayers, settings: playerGameSettings(), options: map[string]string{}}
	for _, a := range args {
		if n, err := strconv.Atoi(a); err == nil {
			if n < info.MinPlayers || n > info.MaxPlayers {
				return sp, lang.M("%s takes %d to %d players, not %d", info.Title, info.MinPlayers, info.MaxPlayers, n), lang.Msg{}
			}
			sp.seats = n
			continue
		}
		name, value, ok := strings.Cut(a, "=")
		if !ok || value == "" {
			return sp, lang.M("%q is neither a number of seats nor name=value", a), lang.M(newUsage, info.Name)
		}
		var err error
		switch strings.ToLower(name) {
		case "id":
			sp.id = strings.ToLower(value)
		case "seat", "as":
			sp.seat = strings.ToLower(value)
		case "turn", "turn-length":
			if sp.settings.TurnLength, err = parseDuration(value); err != nil {
				return sp, lang.M("turn=%s is not a length of time", value), lang.M("write it like turn=72h or turn=3d")
			}
		case "quiet", "quiet-hours":
			sp.settings.QuietHours = value
		case "weekends":
			switch strings.ToLower(value) {
			case "off":
				sp.settings.WeekendsOff = true
			case "on":
				sp.settings.WeekendsOff = false
			default:
				return sp, lang.M("weekends=%s is neither on nor off", value), lang.M("write weekends=off to stop the deadline clock on Saturdays and Sundays")
			}
		case "abandoned":
			sp.settings.Abandoned = strings.ToLower(value)
		case "abandon-after":
			if sp.settings.AbandonAfter, err = strconv.Atoi(value); err != nil || sp.settings.AbandonAfter < 0 {
				return sp, lang.M("abandon-after=%s is not a number of steps", value), lang.M("write it like abandon-after=3 (0: never)")
			}
		case "press":
			sp.settings.Press = strings.ToLower(value)
		case "observers":
			sp.settings.Observers = strings.ToLower(value)
		default:
			sp.options[strings.ToLower(name)] = value
		}
	}
	return sp, lang.Msg{}, lang.Msg{}
}

// newGame answers NEW: a game of the ruleset, open for players, with the
// sender in its first seat as its creator.
func (d *Daemon) newGame(ctx context.Context, j *job, r *route.Result, c route.Command, _ *gameIndex) error {
	line := strings.TrimSpace("NEW " + c.Ruleset + " " + strings.Join(c.Args, " "))
	refuse := func(msg, fix lang.Msg) error {
		return d.refuse(j, nil, game.Player{}, engine.LineErr(c.Line, line, msg, fix))
	}
	rs, err := engine.Find(d.svc.Rulesets(), c.Ruleset)
	if err != nil {
		return d.refuse(j, nil, game.Player{}, d.noRuleset(c.Line, line, c.Ruleset))
	}
	if msg, fix, err := d.mayOpen(ctx, j, r); err != nil || !msg.IsZero() {
		if err != nil {
			return err
		}
		j.stranger = j.stranger || !j.isPlayer
		return refuse(msg, fix)
	}
	if msg, fix, err := d.mayCreate(ctx, j, r); err != nil || !msg.IsZero() {
		if err != nil {
			return err
		}
		return refuse(msg, fix)
	}
	info := rs.Info()
	sp, msg, fix := parseNew(info, c.Args)
	if !msg.IsZero() {
		return refuse(msg, fix)
	}
	n, done, err := d.newPart(ctx, j)
	if done {
		return err
	}
	if !j.gm {
		// Asked before the change (after a retry's recorded part, which
		// this very NEW counted): a refusal from the hook would spoil a
		// batch's shared transaction (creatorBudget).
		if over, err := d.creatorRoom(ctx, "new", d.person(j.from), 1, d.cfg.NewPerDay); err != nil || over != nil {
			if err != nil {
				return err
			}
			return d.refuse(j, nil, game.Player{}, over.lineError(c.Line, line))
		}
	}
	seat := sp.seat
	if seat == "" {
		seat = seatName(j.from)
	}
	var answer section
	var created *game.Game
	recorded := false
	hook := func(tx store.Tx, ch *game.Change) error {
		if recorded {
			return nil
		}
		if !j.gm {
			if err := d.creatorBudget(tx, "new", d.person(j.from), 1, d.cfg.NewPerDay); err != nil {
				return err
			}
		}
		recorded = true
		g := ch.Game
		created = g
		text := lang.M("You opened game %s (%s) with %d seats, and hold seat %s. Others take a seat with JOIN %s; the game starts when every seat is taken, or when you send START %s with at least %d players. INVITE %s and their addresses asks others to play.",
			g.ID, info.Title, g.Seats, seat, g.ID, g.ID, info.MinPlayers, g.ID)
		if !g.Signup {
			text = lang.M("You opened game %s (%s), and it has started: your welcome mail follows.", g.ID, info.Title)
		}
		var err error
		if answer, err = d.creatorAnswer(j, g, "opened", text); err != nil {
			return err
		}
		return j.putPart(tx, n, answer)
	}
	req := game.CreateRequest{Ruleset: info.Name, Options: sp.options, Settings: &sp.settings, Seats: sp.seats, Creator: j.from,
		Players: []game.PlayerSpec{{Name: seat, Email: j.from, Lang: string(j.reader.lang), Zone: zoneName(j.reader.zone)}}}
	for try := 0; ; try++ {
		req.ID = sp.id
		if req.ID == "" {
			req.ID = info.Name + "-" + shortID()
		}
		_, err = d.svc.Create(ctx, req, hook)
		if err == nil || sp.id != "" || try == 4 || !game.IsUserError(err) || !strings.Contains(err.Error(), "exists already") {
			break
		}
	}
	// Nothing is created when a budget or the engine refuses.
	return d.creatorDone(j, c.Line, line, created, created != nil, answer, err)
}

// creatorDone ends NEW, START or INVITE, line n of the mail, about game g,
// with err what making its change returned: a creator's budget spent
// refuses the line, and so does a user's error unless the change was
// recorded all the same; else answer is the mail's answer to it.
func (d *Daemon) creatorDone(j *job, n int, line string, g *game.Game, recorded bool, answer section, err error) error {
	var over *creatorOver
	if errors.As(err, &over) {
		return d.refuse(j, g, game.Player{}, over.lineError(n, line))
	}
	if err != nil && !recorded {
		if game.IsUserError(err) {
			return d.refuse(j, g, game.Player{}, userLineErr(n, line, err))
		}
		return err
	}
	j.applied++
	j.game = g
	j.answers = append(j.answers, answer)
	return nil
}

// creatorAnswer is the answer to NEW, START or INVITE: a notice of kind
// telling j's sender m about g, in their language.
func (d *Daemon) creatorAnswer(j *job, g *game.Game, kind string, m lang.Msg) (section, error) {
	n := game.Notice{Kind: kind}
	n.Tell(m)
	return d.mailer.renderNotice(d.mailer.data(g, game.Player{}, d.svc.Rulesets()), j.reader, n)
}

// shortID is four letters and digits for a game's id, without look-alikes.
func shortID() string {
	const alphabet = "abcdefghjkmnpqrstuvwxyz23456789"
	b := make([]byte, 4)
	rand.Read(b)
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return string(b)
}

// creatorCommand answers START and INVITE, which only a game's creator
// may send (the engine checks), as recorded parts; op is what the command
// does (startGame, inviteTo).
func (d *Daemon) creatorCommand(ctx context.Context, j *job, c route.Command, byID *gameIndex, op creatorOp) error {
	g := byID.get(c.Game)
	line := strings.TrimSpace(string(c.Name) + " " + c.Game + " " + strings.Join(c.Args, " "))
	if g == nil {
		return d.refuse(j, nil, game.Player{}, engine.LineErr(c.Line, line,
			lang.M("there is no game %q here", c.Game), lang.M("send MY GAMES for yours")))
	}
	n, done, err := d.newPart(ctx, j)
	if done {
		return err
	}
	gm := j.route != nil && d.isGM(j, j.route.Secret)
	if op.budget != "" && !gm {
		// As NEW's (newGame): asked before the change.
		if over, err := d.creatorRoom(ctx, op.budget, d.person(j.from), 1, d.cfg.InvitesPerDay); err != nil || over != nil {
			if err != nil {
				return err
			}
			return d.refuse(j, g, game.Player{}, over.lineError(c.Line, line))
		}
	}
	var answer section
	recorded := false
	note := func(tx store.Tx, gg *game.Game, kind string, m lang.Msg) error {
		var err error
		if answer, err = d.creatorAnswer(j, gg, kind, m); err != nil {
			return err
		}
		return j.putPart(tx, n, answer)
	}
	err = op.do(&creatorCall{d: d, ctx: ctx, j: j, c: c, g: g, gm: gm, recorded: &recorded, note: note})
	return d.creatorDone(j, c.Line, line, g, recorded, answer, err)
}

// A creatorOp is what START or INVITE does in creatorCommand: do makes
// the change and, in its hook, x.note records the answer; budget names
// the creator's daily budget it is asked of first ("" for none).
type creatorOp struct {
	budget string
	do     func(x *creatorCall) error
}

// creatorCall is one START or INVITE being made.
type creatorCall struct {
	d        *Daemon
	ctx      context.Context
	j        *job
	c        route.Command
	g        *game.Game
	gm       bool  // the GM's mail: no budget
	recorded *bool // the answer is recorded
	note     func(tx store.Tx, g *game.Game, kind string, m lang.Msg) error
}

// startGame is START: the game starts now, with the players it has.
var startGame = creatorOp{do: func(x *creatorCall) error {
	d, g, j := x.d, x.g, x.j
	_, err := d.svc.StartNow(x.ctx, g.ID, j.from, func(tx store.Tx, ch *game.Change) error {
		if *x.recorded {
			return nil
		}
		*x.recorded = true
		return x.note(tx, ch.Game, "start", lang.M("Game %s starts with %d players: every player's welcome mail follows.", g.ID, len(ch.Game.Players)))
	})
	return err
}}

// inviteTo is INVITE: the addresses are mailed an invitation, against the
// creator's daily budget of invitations.
var inviteTo = creatorOp{budget: "invite", do: func(x *creatorCall) error {
	d, g, j := x.d, x.g, x.j
	_, _, err := d.svc.Invite(x.ctx, g.ID, j.from, x.c.Args, func(tx store.Tx, ch *game.Change) error {
		if *x.recorded {
			return nil
		}
		var sent []string
		for _, n := range ch.Notices {
			sent = append(sent, n.Addresses...)
		}
		if len(sent) > 0 && !x.gm {
			if err := d.creatorBudget(tx, "invite", d.person(j.from), len(sent), d.cfg.InvitesPerDay); err != nil {
				return err
			}
		}
		*x.recorded = true
		text := lang.M("Nobody new to invite to %s: every address was invited before, or plays in it.", g.ID)
		if len(sent) > 0 {
			text = lang.M("I invited %s to %s.", strings.Join(sent, ", "), g.ID)
		}
		return x.note(tx, ch.Game, "invited", text)
	})
	return err
}}
