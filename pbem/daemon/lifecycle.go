package daemon

import (
	"context"
	"crypto/subtle"
	"fmt"
	"strconv"
	"strings"
	"time"

	"orrery/engine"
	"orrery/engine/game"
	"orrery/engine/store"
	"orrery/pbem/route"
	"orrery/templates"
)

// resend answers RESEND: the player's own report of the last step, or of
// the step that ended the given turn, as it was mailed.
func (d *Daemon) resend(ctx context.Context, j *job, r *route.Result, c route.Command, byID *gameIndex) error {
	g := byID.get(c.Game)
	p, ok, err := d.authenticate(ctx, j, g, c.Game, r.Secret)
	if !ok || err != nil {
		return err
	}
	step := g.Step
	if c.Turn > 0 {
		step, err = d.svc.StepOfTurn(ctx, g.ID, c.Turn)
	}
	var rep *game.Report
	if err == nil {
		rep, err = d.svc.StepReport(ctx, g.ID, step, p.Name)
	}
	if err != nil {
		if game.IsUserError(err) {
			return d.refuse(j, g, p, engine.LineError{Line: c.Line, Msg: err.Error()})
		}
		return err
	}
	data := d.mailer.data(g, p, d.svc.Rulesets())
	data.Report = rep
	return d.say(j, templates.Report, data)
}

// isGM reports whether j's mail comes from the configured GM address with
// the GM secret. Both must match: an address alone is easily forged.
func (d *Daemon) isGM(j *job, secret string) bool {
	if d.cfg.GMSecret == "" || d.cfg.GM == "" || secret == "" {
		return false
	}
	if !game.SameAddress(j.from, bareAddress(d.cfg.GM)) {
		return false
	}
	return subtle.ConstantTimeCompare([]byte(secret), []byte(d.cfg.GMSecret)) == 1
}

// gm runs one GM command line, as one recorded part of the mail.
func (d *Daemon) gm(ctx context.Context, j *job, r *route.Result, c route.Command, byID *gameIndex) error {
	if !d.isGM(j, r.Secret) {
		d.log.Warn("GM command refused", "from", j.from, "verb", c.Verb, "game", c.Game)
		j.rejected, j.why = true, "GM command without the GM's address and secret"
		if answer, err := d.gmRefused(ctx, j); err != nil || !answer {
			return err
		}
		return d.refuse(j, nil, game.Player{}, engine.LineError{Line: c.Line, Text: "GM " + c.Verb + " " + c.Game,
			Msg: "GM commands need the GM's address and the GM secret; nothing was applied",
			Fix: "send from the GM address configured on the server, with a line SECRET and the GM secret"})
	}
	j.gm = true
	switch c.Verb {
	case "STATUS":
		return d.gmStatus(ctx, j, c, byID.get(c.Game))
	case "LIST", "SHOW", "PLAYERS", "LOG", "EXPORT", "VERIFY":
		return d.gmQuery(ctx, j, c, byID.get(c.Game))
	}
	n := j.parts
	j.parts++
	if done, err := d.partOf(ctx, j, n); err != nil || done != nil {
		if done != nil {
			j.answers = append(j.answers, *done)
		}
		return err
	}
	g := byID.get(c.Game)
	if g == nil {
		return d.refuse(j, nil, game.Player{}, engine.LineError{Line: c.Line,
			Msg: fmt.Sprintf("there is no game %q here", c.Game), Fix: "send LIST for the games"})
	}
	j.game = g
	answer, err := d.gmAnswer(g, fmt.Sprintf("Done: GM %s %s %s", c.Verb, g.ID, c.Text))
	if err != nil {
		return err
	}
	recorded := false
	hook := func(tx store.Tx, _ *game.Change) error {
		if recorded {
			return nil
		}
		recorded = true
		return j.putPart(tx, n, answer)
	}
	bad := func(msg, fix string) error {
		return d.refuse(j, g, game.Player{}, engine.LineError{Line: c.Line, Text: "GM " + c.Verb + " " + c.Game + " " + c.Text, Msg: msg, Fix: fix})
	}
	args := c.Args
	switch c.Verb {
	case "PAUSE":
		_, _, err = d.svc.Pause(ctx, g.ID, c.Text, hook)
	case "RESUME":
		_, _, err = d.svc.Resume(ctx, g.ID, hook)
	case "DEADLINE":
		if len(args) == 0 {
			return bad("GM DEADLINE needs a new deadline", "write GM DEADLINE demo1 +24h the reason, or GM DEADLINE demo1 2026-12-01T18:00 the reason")
		}
		reason := strings.Join(args[1:], " ")
		if strings.HasPrefix(args[0], "+") {
			dur, perr := parseDuration(args[0][1:])
			if perr != nil {
				return bad(fmt.Sprintf("%q is not a length of time", args[0]), "write it like +24h, +90m or +2d")
			}
			_, _, err = d.svc.ExtendDeadline(ctx, g.ID, dur, reason, hook)
		} else {
			at, perr := parseWhen(args[0])
			if perr != nil {
				return bad(fmt.Sprintf("%q is neither +duration nor a time", args[0]), "write +24h, or a UTC time like 2026-12-01T18:00")
			}
			_, _, err = d.svc.SetDeadline(ctx, g.ID, at, reason, hook)
		}
	case "ADVANCE":
		force := len(args) == 1 && strings.EqualFold(args[0], "FORCE")
		if len(args) > 1 || len(args) == 1 && !force {
			return bad("GM ADVANCE takes only FORCE", "write GM ADVANCE demo1, or GM ADVANCE demo1 FORCE")
		}
		var res *game.AdvanceResult
		res, err = d.svc.Advance(ctx, g.ID, force, hook)
		if err == nil && len(res.Steps) == 0 {
			why := "nothing was due: still waiting for " + strings.Join(res.Waiting, ", ") + " (use FORCE to apply their defaults)"
			if res.Paused {
				why = "the game is paused (use FORCE to resolve anyway)"
			}
			answer, err = d.gmAnswer(g, fmt.Sprintf("GM ADVANCE %s: %s.", g.ID, why))
		}
	case "ROLLBACK":
		if len(args) < 2 || !strings.EqualFold(args[0], "TURN") {
			return bad("GM ROLLBACK needs TURN and a number", "write GM ROLLBACK demo1 TURN 3 the reason")
		}
		turn, perr := strconv.Atoi(args[1])
		if perr != nil || turn < 0 {
			return bad(fmt.Sprintf("%q is not a turn number", args[1]), "write GM ROLLBACK demo1 TURN 3 the reason")
		}
		var step uint64
		if step, err = d.svc.StepOfTurn(ctx, g.ID, turn); err == nil {
			_, _, err = d.svc.Rollback(ctx, g.ID, step, strings.Join(args[2:], " "), hook)
		}
	case "REPLACE":
		// GM REPLACE demo1 bob carol@example.org [reason], or BOT for
		// the ruleset's bot; the old holder is told the reason.
		if len(args) < 2 || !strings.EqualFold(args[1], "BOT") && !strings.Contains(args[1], "@") {
			return bad("GM REPLACE needs a player and the new address, or BOT", "write GM REPLACE demo1 bob carol@example.org, or GM REPLACE demo1 bob BOT the reason")
		}
		to := game.Seat{Email: args[1], Bot: strings.EqualFold(args[1], "BOT")}
		if to.Bot {
			to.Email = ""
		}
		_, _, err = d.svc.ReplaceSeat(ctx, g.ID, args[0], to, strings.Join(args[2:], " "), hook)
	case "KICK":
		if len(args) < 1 {
			return bad("GM KICK needs one player", "write GM KICK demo1 bob, and the reason after it if you like")
		}
		_, _, err = d.svc.KickFor(ctx, g.ID, args[0], strings.Join(args[1:], " "), hook)
	case "MESSAGE":
		_, _, err = d.svc.Message(ctx, g.ID, c.Text, hook)
	case "RESEND":
		// GM RESEND demo1 [player] [TURN n]: the mailer hook mails the
		// reports the engine's resend notice carries.
		const fix = "write GM RESEND demo1, GM RESEND demo1 ann, or GM RESEND demo1 ann TURN 3"
		var players []string
		if len(args) > 0 && !strings.EqualFold(args[0], "TURN") {
			players, args = args[:1], args[1:]
		}
		step := g.Step
		switch {
		case len(args) == 0:
		case len(args) == 2 && strings.EqualFold(args[0], "TURN"):
			turn, perr := strconv.Atoi(args[1])
			if perr != nil || turn < 0 {
				return bad(fmt.Sprintf("%q is not a turn number", args[1]), fix)
			}
			step, err = d.svc.StepOfTurn(ctx, g.ID, turn)
		default:
			return bad("GM RESEND takes a game, maybe a player, maybe TURN and a number", fix)
		}
		if err == nil {
			var ns []game.Notice
			if _, ns, err = d.svc.Resend(ctx, g.ID, step, players, hook); err == nil && len(ns) == 1 {
				answer, err = d.gmAnswer(g, fmt.Sprintf("Done: the report of step %d of %s went again to %s.", step, g.ID, strings.Join(ns[0].To, ", ")))
			}
		}
	case "VACATION":
		// GM VACATION demo1 ann FROM 2026-12-20 TO 2027-01-03
		if len(args) != 5 || !strings.EqualFold(args[1], "FROM") || !strings.EqualFold(args[3], "TO") {
			return bad("GM VACATION needs a player, FROM a date and TO a date", "write GM VACATION demo1 ann FROM 2026-12-20 TO 2027-01-03")
		}
		from, err1 := time.Parse("2006-01-02", args[2])
		until, err2 := time.Parse("2006-01-02", args[4])
		if err1 != nil || err2 != nil || until.Before(from) {
			return bad("the dates are written year-month-day, the first day before the last", "write GM VACATION demo1 ann FROM 2026-12-20 TO 2027-01-03")
		}
		_, _, err = d.svc.DeclareVacation(ctx, g.ID, args[0], from, until.AddDate(0, 0, 1), hook)
	case "JOIN":
		// GM JOIN demo1 carl carl@example.org: the GM seats a player in
		// a game that is signing up; the engine mails the seat as JOIN
		// by mail does, and the welcome when the game starts.
		if len(args) != 2 || !strings.Contains(args[1], "@") {
			return bad("GM JOIN needs a seat name and the player's address", "write GM JOIN "+g.ID+" carl carl@example.org")
		}
		_, err = d.svc.Join(ctx, g.ID, game.PlayerSpec{Name: strings.ToLower(args[0]), Email: args[1]}, hook)
	case "OBSERVE":
		// GM OBSERVE demo1 olga@example.org [OFF]: the way in for
		// observers of a game that takes them only through its GM.
		off := len(args) == 2 && strings.EqualFold(args[1], "OFF")
		if len(args) == 0 || len(args) > 2 || len(args) == 2 && !off {
			return bad("GM OBSERVE needs an address, and OFF to remove it", "write GM OBSERVE "+g.ID+" olga@example.org, or GM OBSERVE "+g.ID+" olga@example.org OFF")
		}
		_, _, err = d.svc.Observe(ctx, g.ID, args[0], !off, hook)
	case "ORDERS":
		// GM ORDERS demo1 ann, her orders below, END: orders phoned in.
		if len(args) != 1 {
			return bad("GM ORDERS needs one player, the orders below it and a line END", "write GM ORDERS demo1 ann, her orders on the next lines, then END")
		}
		p, ok := g.PlayerByName(args[0])
		if !ok {
			return bad(fmt.Sprintf("there is no player %q in game %s", args[0], g.ID), "")
		}
		in := game.Input{Game: g.ID, Player: p.Name, Text: c.Text + "\n", Source: "gm", Ref: j.m.MessageID}
		if in.Prompt, err = d.anytimePrompt(ctx, g, in); err != nil {
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
			} else {
				kind, data.Errors = templates.Rejected, res.Errors
			}
			data.Subject = j.m.Subject
			if answer, err = d.mailer.Render.Render(kind, data); err != nil {
				return err
			}
			recorded = true
			return j.putPart(tx, n, answer)
		}
		_, err = d.svc.Submit(ctx, in, ordersHook)
		if err != nil && committed {
			d.log.Error("after the GM's orders", "game", g.ID, "err", err)
			err = nil
		}
	}
	if err != nil {
		if game.IsUserError(err) {
			return bad(err.Error(), "")
		}
		return err
	}
	j.applied++
	j.answers = append(j.answers, answer)
	return nil
}

func (d *Daemon) gmAnswer(g *game.Game, text string) (section, error) {
	data := d.mailer.data(g, game.Player{}, d.svc.Rulesets())
	data.Notice = &game.Notice{Kind: "gm", Text: text}
	return d.mailer.Render.Render(templates.Notice, data)
}

// parseDuration reads Go durations and whole days ("2d").
func parseDuration(s string) (time.Duration, error) {
	if n, ok := strings.CutSuffix(s, "d"); ok {
		days, err := strconv.Atoi(n)
		if err != nil || days <= 0 {
			return 0, fmt.Errorf("bad number of days %q", n)
		}
		return time.Duration(days) * 24 * time.Hour, nil
	}
	dur, err := time.ParseDuration(s)
	if err == nil && dur <= 0 {
		err = fmt.Errorf("not positive")
	}
	return dur, err
}

// parseWhen reads a time as RFC 3339 or YYYY-MM-DDTHH:MM in UTC.
func parseWhen(s string) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	return time.Parse("2006-01-02T15:04", s)
}

// anytimePrompt picks the prompt a mail's orders answer when the player has
// both a blocking prompt and an anytime one (standing orders, a motto): the
// engine would take the blocking prompt, so orders meant for the anytime
// prompt would be refused. When the orders do not parse for the blocking
// prompt but do for the anytime one, it returns the anytime prompt's id;
// otherwise "" (the engine's choice, whose errors the player then gets).
func (d *Daemon) anytimePrompt(ctx context.Context, g *game.Game, in game.Input) (string, error) {
	var blocking, anytime string
	for _, p := range g.PromptsFor(in.Player) {
		switch {
		case p.Kind.Blocks() && blocking == "":
			blocking = p.ID
		case p.Kind == engine.KindAnytime && anytime == "":
			anytime = p.ID
		}
	}
	if blocking == "" || anytime == "" {
		return "", nil
	}
	in.Prompt = blocking
	res, err := d.svc.Check(ctx, in)
	if err != nil || res.Accepted {
		if game.IsUserError(err) {
			err = nil
		}
		return "", err
	}
	in.Prompt = anytime
	if res, err = d.svc.Check(ctx, in); err == nil && res.Accepted {
		return anytime, nil
	}
	if game.IsUserError(err) {
		err = nil
	}
	return "", err
}

// gmStatus answers GM STATUS <game>: the GM's full view, hidden
// information included, to the GM only.
func (d *Daemon) gmStatus(ctx context.Context, j *job, c route.Command, g *game.Game) error {
	if g == nil {
		return d.refuse(j, nil, game.Player{}, engine.LineError{Line: c.Line,
			Msg: fmt.Sprintf("there is no game %q here", c.Game), Fix: "send LIST for the games"})
	}
	j.game = g
	rep, err := d.svc.Report(ctx, g.ID, game.GM)
	if err != nil {
		return err
	}
	data := d.mailer.data(g, game.Player{}, d.svc.Rulesets())
	data.Report = rep
	return d.say(j, templates.Status, data)
}

// GMQuery runs a read-only `orrery game` command (its arguments after
// "orrery", like game log demo1) and returns what it prints. The command
// line wires it to its own commands, so GM LIST, SHOW, PLAYERS, LOG,
// EXPORT and VERIFY by mail answer exactly what the CLI prints, with no
// second implementation to drift from the first.
type GMQuery func(ctx context.Context, args []string) (string, error)

// SetGMQuery sets how GM queries by mail are answered; without it they
// are refused with a pointer to the command line. Call it before Run.
func (d *Daemon) SetGMQuery(q GMQuery) { d.gmQueryFn = q }

// maxQueryText bounds a GM query's answer: a long game's log or export
// would otherwise make a mail of many megabytes.
const maxQueryText = 512 << 10

// gmQuery answers GM LIST, SHOW, PLAYERS, LOG, EXPORT and VERIFY with the
// output of the matching `orrery game` command, verbatim. They change
// nothing, so they are not recorded as parts: a retried mail asks again.
func (d *Daemon) gmQuery(ctx context.Context, j *job, c route.Command, g *game.Game) error {
	refuse := func(msg, fix string) error {
		return d.refuse(j, g, game.Player{}, engine.LineError{Line: c.Line,
			Text: strings.TrimSpace("GM " + c.Verb + " " + c.Game + " " + c.Text), Msg: msg, Fix: fix})
	}
	if c.Verb != "LIST" && g == nil {
		return refuse(fmt.Sprintf("there is no game %q here", c.Game), "send GM LIST for the games")
	}
	var args []string
	switch c.Verb {
	case "LIST":
		args = []string{"game", "list"}
	case "SHOW":
		args = []string{"game", "show", g.ID}
		switch {
		case len(c.Args) == 0:
			args = append(args, "--gm")
		case len(c.Args) == 2 && strings.EqualFold(c.Args[0], "AS"):
			args = append(args, "--as", strings.ToLower(c.Args[1]))
		case len(c.Args) == 1 && strings.EqualFold(c.Args[0], "PUBLIC"):
			args = append(args, "--public")
		default:
			return refuse("GM SHOW takes a game, then nothing (the GM's view), AS and a player, or PUBLIC",
				"write GM SHOW "+g.ID+", GM SHOW "+g.ID+" AS ann, or GM SHOW "+g.ID+" PUBLIC")
		}
	default:
		if len(c.Args) > 0 {
			return refuse(fmt.Sprintf("GM %s takes only a game", c.Verb), "write GM "+c.Verb+" "+g.ID)
		}
		args = []string{"game", strings.ToLower(c.Verb), g.ID}
	}
	if d.gmQueryFn == nil {
		return refuse("this server answers GM "+c.Verb+" only on its command line",
			"run orrery "+strings.Join(args, " ")+" where the server runs")
	}
	out, err := d.gmQueryFn(ctx, args)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return refuse(err.Error(), "")
	}
	if len(out) > maxQueryText {
		cut := strings.LastIndexByte(out[:maxQueryText], '\n') + 1
		out = out[:cut] + fmt.Sprintf("[... %d more bytes cut: run orrery %s where the server runs]\n", len(out)-cut, strings.Join(args, " "))
	}
	if g != nil {
		j.game = g
	}
	data := d.mailer.data(g, game.Player{}, d.svc.Rulesets())
	data.Notice = &game.Notice{Kind: "gm-query", Text: "orrery " + strings.Join(args, " ") + "\n\n" + out}
	return d.say(j, templates.Notice, data)
}
