package daemon

import (
	"context"
	"strconv"
	"strings"
	"time"

	"orrery/engine"
	"orrery/engine/game"
	"orrery/engine/lang"
	"orrery/engine/store"
	"orrery/pbem/route"
	"orrery/templates"
)

// A gmVerb is how gm runs one verb of pbem/command's GMVerbs: read
// answers at once and changes nothing (no recorded part); change makes
// its change as one recorded part of the mail.
type gmVerb struct {
	read   func(d *Daemon, ctx context.Context, j *job, c route.Command, g *game.Game) error
	change func(x *gmCall) error
}

// gmCall is one GM change being made: what a verb's change needs.
type gmCall struct {
	d    *Daemon
	ctx  context.Context
	j    *job
	c    route.Command
	g    *game.Game
	args []string
	part int // the mail's part it is recorded as
	// answer is the GM's answer; the hook records it with the change,
	// and a verb may replace it after (the answer mailed then differs
	// from the one recorded, as it always did).
	answer   section
	recorded bool
}

// hook records the answer with the change, once.
func (x *gmCall) hook(tx store.Tx, _ *game.Change) error {
	if x.recorded {
		return nil
	}
	x.recorded = true
	return x.j.putPart(tx, x.part, x.answer)
}

// gmBad is a GM line whose arguments are wrong: gm answers it with msg
// and fix.
type gmBad struct {
	msg, fix  string
	why, hint *lang.Msg // msg and fix as messages, where they are (badM)
}

func (b *gmBad) Error() string { return b.msg }

// badM refuses a GM line with msg and fix, worded as messages for the
// GM's language (there is no English-only bad any more: every refusal a
// GM reads is a message).
func badM(msg, fix lang.Msg) error {
	e := engine.LineErr(0, "", msg, fix)
	return &gmBad{msg: e.Msg, fix: e.Fix, why: e.Why, hint: e.Hint}
}

// lineError is b as the error of line n (text as sent).
func (b *gmBad) lineError(n int, text string) engine.LineError {
	return engine.LineError{Line: n, Text: text, Msg: b.msg, Fix: b.fix, Why: b.why, Hint: b.hint}
}

// gmVerbs are the GM's verbs, by the name pbem/command's GMVerbs gives;
// TestEveryGMVerbHasARunner checks that it is complete.
var gmVerbs = map[string]gmVerb{
	"STATUS":  {read: (*Daemon).gmStatus},
	"LIST":    {read: (*Daemon).gmQuery},
	"SHOW":    {read: (*Daemon).gmQuery},
	"PLAYERS": {read: (*Daemon).gmQuery},
	"LOG":     {read: (*Daemon).gmQuery},
	"EXPORT":  {read: (*Daemon).gmQuery},
	"VERIFY":  {read: (*Daemon).gmQuery},
	"PAUSE": {change: func(x *gmCall) error {
		_, _, err := x.d.svc.Pause(x.ctx, x.g.ID, x.c.Text, x.hook)
		return err
	}},
	"RESUME": {change: func(x *gmCall) error {
		_, _, err := x.d.svc.Resume(x.ctx, x.g.ID, x.hook)
		return err
	}},
	"DEADLINE": {change: func(x *gmCall) error {
		args := x.args
		if len(args) == 0 {
			return badM(lang.M("GM DEADLINE needs a new deadline"), lang.M("write GM DEADLINE demo1 +24h the reason, or GM DEADLINE demo1 2026-12-01T18:00 the reason"))
		}
		reason := strings.Join(args[1:], " ")
		if strings.HasPrefix(args[0], "+") {
			dur, perr := parseDuration(args[0][1:])
			if perr != nil {
				return badM(lang.M("%q is not a length of time", args[0]), lang.M("write it like +24h, +90m or +2d"))
			}
			_, _, err := x.d.svc.ExtendDeadline(x.ctx, x.g.ID, dur, reason, x.hook)
			return err
		}
		at, perr := parseWhen(args[0])
		if perr != nil {
			return badM(lang.M("%q is neither +duration nor a time", args[0]), lang.M("write +24h, or a UTC time like 2026-12-01T18:00"))
		}
		_, _, err := x.d.svc.SetDeadline(x.ctx, x.g.ID, at, reason, x.hook)
		return err
	}},
	"ADVANCE": {change: func(x *gmCall) error {
		args := x.args
		force := len(args) == 1 && strings.EqualFold(args[0], "FORCE")
		if len(args) > 1 || len(args) == 1 && !force {
			return badM(lang.M("GM ADVANCE takes only FORCE"), lang.M("write GM ADVANCE demo1, or GM ADVANCE demo1 FORCE"))
		}
		res, err := x.d.svc.Advance(x.ctx, x.g.ID, force, x.hook)
		if err == nil && len(res.Steps) == 0 {
			why := lang.M("GM ADVANCE %s: nothing was due: still waiting for %s (use FORCE to apply their defaults).", x.g.ID, strings.Join(res.Waiting, ", "))
			if res.Paused {
				why = lang.M("GM ADVANCE %s: the game is paused (use FORCE to resolve anyway).", x.g.ID)
			}
			x.answer, err = x.d.gmAnswer(x.j, x.g, why)
		}
		return err
	}},
	"ROLLBACK": {change: func(x *gmCall) error {
		args := x.args
		if len(args) < 2 || !strings.EqualFold(args[0], "TURN") {
			return badM(lang.M("GM ROLLBACK needs TURN and a number"), lang.M("write GM ROLLBACK demo1 TURN 3 the reason"))
		}
		turn, perr := strconv.Atoi(args[1])
		if perr != nil || turn < 0 {
			return badM(lang.M("%q is not a turn number", args[1]), lang.M("write GM ROLLBACK demo1 TURN 3 the reason"))
		}
		step, err := x.d.svc.StepOfTurn(x.ctx, x.g.ID, turn)
		if err == nil {
			_, _, err = x.d.svc.Rollback(x.ctx, x.g.ID, step, strings.Join(args[2:], " "), x.hook)
		}
		return err
	}},
	"REPLACE": {change: func(x *gmCall) error {
		// GM REPLACE demo1 bob carol@example.org [reason], or BOT for
		// the ruleset's bot; the old holder is told the reason.
		args := x.args
		if len(args) < 2 || !strings.EqualFold(args[1], "BOT") && !strings.Contains(args[1], "@") {
			return badM(lang.M("GM REPLACE needs a player and the new address, or BOT"), lang.M("write GM REPLACE demo1 bob carol@example.org, or GM REPLACE demo1 bob BOT the reason"))
		}
		to := game.Seat{Email: args[1], Bot: strings.EqualFold(args[1], "BOT")}
		if to.Bot {
			to.Email = ""
		}
		_, _, err := x.d.svc.ReplaceSeat(x.ctx, x.g.ID, seatOf(x.g, args[0]), to, strings.Join(args[2:], " "), x.hook)
		return err
	}},
	"KICK": {change: func(x *gmCall) error {
		if len(x.args) < 1 {
			return badM(lang.M("GM KICK needs one player"), lang.M("write GM KICK demo1 bob, and the reason after it if you like"))
		}
		_, _, err := x.d.svc.KickFor(x.ctx, x.g.ID, seatOf(x.g, x.args[0]), strings.Join(x.args[1:], " "), x.hook)
		return err
	}},
	"MESSAGE": {change: func(x *gmCall) error {
		_, _, err := x.d.svc.Message(x.ctx, x.g.ID, x.c.Text, x.hook)
		return err
	}},
	"RESEND": {change: func(x *gmCall) error {
		// GM RESEND demo1 [player] [TURN n]: the mailer hook mails the
		// reports the engine's resend notice carries.
		fix := lang.M("write GM RESEND demo1, GM RESEND demo1 ann, or GM RESEND demo1 ann TURN 3")
		args := x.args
		var players []string
		if len(args) > 0 && !strings.EqualFold(args[0], "TURN") {
			players, args = args[:1], args[1:]
		}
		step := x.g.Step
		var err error
		switch {
		case len(args) == 0:
		case len(args) == 2 && strings.EqualFold(args[0], "TURN"):
			turn, perr := strconv.Atoi(args[1])
			if perr != nil || turn < 0 {
				return badM(lang.M("%q is not a turn number", args[1]), fix)
			}
			step, err = x.d.svc.StepOfTurn(x.ctx, x.g.ID, turn)
		default:
			return badM(lang.M("GM RESEND takes a game, maybe a player, maybe TURN and a number"), fix)
		}
		if err == nil {
			var ns []game.Notice
			if _, ns, err = x.d.svc.Resend(x.ctx, x.g.ID, step, players, x.hook); err == nil && len(ns) == 1 {
				x.answer, err = x.d.gmAnswer(x.j, x.g, lang.M("Done: the report of step %d of %s went again to %s.", int(step), x.g.ID, strings.Join(ns[0].To, ", ")))
			}
		}
		return err
	}},
	"VACATION": {change: func(x *gmCall) error {
		// GM VACATION demo1 ann FROM 2026-12-20 TO 2027-01-03
		args := x.args
		if len(args) != 5 || !strings.EqualFold(args[1], "FROM") || !strings.EqualFold(args[3], "TO") {
			return badM(lang.M("GM VACATION needs a player, FROM a date and TO a date"), lang.M("write GM VACATION demo1 ann FROM 2026-12-20 TO 2027-01-03"))
		}
		from, err1 := time.Parse("2006-01-02", args[2])
		until, err2 := time.Parse("2006-01-02", args[4])
		if err1 != nil || err2 != nil || until.Before(from) {
			return badM(lang.M("the dates are written year-month-day, the first day before the last"), lang.M("write GM VACATION demo1 ann FROM 2026-12-20 TO 2027-01-03"))
		}
		_, _, err := x.d.svc.DeclareVacation(x.ctx, x.g.ID, seatOf(x.g, args[0]), from, until.AddDate(0, 0, 1), x.hook)
		return err
	}},
	"JOIN": {change: func(x *gmCall) error {
		// GM JOIN demo1 carl carl@example.org: the GM seats a player in
		// a game that is signing up; the engine mails the seat as JOIN
		// by mail does, and the welcome when the game starts.
		args := x.args
		if len(args) != 2 || !strings.Contains(args[1], "@") {
			return badM(lang.M("GM JOIN needs a seat name and the player's address"), lang.M("write GM JOIN %s carl carl@example.org", x.g.ID))
		}
		_, err := x.d.svc.Join(x.ctx, x.g.ID, game.PlayerSpec{Name: strings.ToLower(args[0]), Email: args[1]}, x.hook)
		return err
	}},
	"OBSERVE": {change: func(x *gmCall) error {
		// GM OBSERVE demo1 olga@example.org [OFF]: the way in for
		// observers of a game that takes them only through its GM.
		args := x.args
		off := len(args) == 2 && strings.EqualFold(args[1], "OFF")
		if len(args) == 0 || len(args) > 2 || len(args) == 2 && !off {
			return badM(lang.M("GM OBSERVE needs an address, and OFF to remove it"), lang.M("write GM OBSERVE %s olga@example.org, or GM OBSERVE %s olga@example.org OFF", x.g.ID, x.g.ID))
		}
		_, _, err := x.d.svc.Observe(x.ctx, x.g.ID, args[0], !off, x.hook)
		return err
	}},
	"ORDERS": {change: (*gmCall).orders},
}

// orders runs GM ORDERS demo1 ann, her orders below, END: orders phoned
// in.
func (x *gmCall) orders() error {
	d, g, j := x.d, x.g, x.j
	if len(x.args) != 1 {
		return badM(lang.M("GM ORDERS needs one player, the orders below it and a line END"), lang.M("write GM ORDERS demo1 ann, her orders on the next lines, then END"))
	}
	p, ok := g.PlayerByName(seatOf(g, x.args[0]))
	if !ok {
		return badM(lang.M("there is no player %q in game %s", x.args[0], g.ID), lang.Msg{})
	}
	in := game.Input{Game: g.ID, Player: p.Name, Text: x.c.Text + "\n", Source: "gm", Ref: j.m.MessageID}
	var err error
	if in.Prompt, err = d.anytimePrompt(x.ctx, g, in); err != nil {
		return err
	}
	// As in orders: only a committed submission counts as applied.
	first, committed := true, false
	ordersHook := func(tx store.Tx, ch *game.Change) error {
		if !first || ch.Submit == nil {
			return nil
		}
		first = false
		tx.OnCommit(func() { committed = true })
		res := ch.Submit
		data := d.mailer.data(ch.Game, game.Player{Name: p.Name}, d.svc.Rulesets())
		data.Prompt = res.Prompt
		kind := templates.Ack
		if res.Accepted {
			data.Orders, data.Replaced, data.Anytime = res.Orders, res.Replaced, res.Anytime
			data.Receipt = res.Receipt
		} else {
			kind, data.Errors = templates.Rejected, res.Errors
		}
		data.Subject = j.m.Subject
		var err error
		if x.answer, err = d.mailer.Render.Render(kind, data); err != nil {
			return err
		}
		x.recorded = true
		return j.putPart(tx, x.part, x.answer)
	}
	_, err = d.svc.Submit(x.ctx, in, ordersHook)
	if err != nil && committed {
		d.log.Error("after the GM's orders", "game", g.ID, "err", err)
		err = nil
	}
	return err
}

// seatOf is the seat who names in g: the seat of that name, or the seat
// the address who holds now (a seat that passed to another player keeps
// its name, and the GM may know the player by address only); as it is
// otherwise, for the engine to refuse.
func seatOf(g *game.Game, who string) string {
	if strings.Contains(who, "@") {
		if p, ok := g.PlayerByEmail(who); ok {
			return p.Name
		}
	}
	return who
}
