package daemon

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"orrery/engine"
	"orrery/engine/game"
	"orrery/engine/lang"
	"orrery/pbem/command"
	"orrery/pbem/route"
	"orrery/templates"
)

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

// gm runs one GM command line: a query answered at once, or a change as
// one recorded part of the mail. What each verb does is its entry in
// gmVerbs (gmverbs.go).
func (d *Daemon) gm(ctx context.Context, j *job, r *route.Result, c route.Command, byID *gameIndex) error {
	if !d.isGM(j, r.Secret) {
		d.log.Warn("GM command refused", "from", j.from, "verb", c.Verb, "game", c.Game)
		j.rejected, j.why = true, "GM command without the GM's address and secret"
		if answer, err := d.gmRefused(ctx, j); err != nil || !answer {
			return err
		}
		return d.refuse(j, nil, game.Player{}, engine.LineErr(c.Line, "GM "+c.Verb+" "+c.Game,
			lang.M("GM commands need the GM's address and the GM secret; nothing was applied"),
			lang.M("send from the GM address configured on the server, with a line SECRET and the GM secret")))
	}
	j.gm = true
	v, ok := gmVerbs[c.Verb]
	if !ok {
		return fmt.Errorf("GM %s has no runner in pbem/daemon (gmverbs.go)", c.Verb)
	}
	if v.read != nil {
		return v.read(d, ctx, j, c, byID.get(c.Game))
	}
	n, done, err := d.newPart(ctx, j)
	if done {
		return err
	}
	g := byID.get(c.Game)
	if g == nil {
		return d.refuse(j, nil, game.Player{}, engine.LineErr(c.Line, "",
			lang.M("there is no game %q here", c.Game), lang.M("send LIST for the games")))
	}
	j.game = g
	answer, err := d.gmAnswer(j, g, lang.M("Done: GM %s %s %s", c.Verb, g.ID, c.Text))
	if err != nil {
		return err
	}
	x := &gmCall{d: d, ctx: ctx, j: j, c: c, g: g, args: c.Args, part: n, answer: answer}
	if err = v.change(x); err != nil {
		var bad *gmBad
		if errors.As(err, &bad) {
			return d.refuse(j, g, game.Player{}, bad.lineError(c.Line, "GM "+c.Verb+" "+c.Game+" "+c.Text))
		}
		if game.IsUserError(err) {
			return d.refuse(j, g, game.Player{}, userLineErr(c.Line, "GM "+c.Verb+" "+c.Game+" "+c.Text, err))
		}
		return err
	}
	j.applied++
	j.answers = append(j.answers, x.answer)
	return nil
}

func (d *Daemon) gmAnswer(j *job, g *game.Game, m lang.Msg) (section, error) {
	data := d.mailer.data(g, game.Player{}, d.svc.Rulesets())
	data.Notice = &game.Notice{Kind: "gm", Text: m.English(), Msg: &m}
	// In the GM's language and zone, as the rest of the answer.
	d.mailer.speak(data, j.reader, nil)
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
		return d.refuse(j, nil, game.Player{}, engine.LineErr(c.Line, "",
			lang.M("there is no game %q here", c.Game), lang.M("send LIST for the games")))
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
	line := strings.TrimSpace("GM " + c.Verb + " " + c.Game + " " + c.Text)
	refuse := func(msg, fix lang.Msg) error {
		return d.refuse(j, g, game.Player{}, engine.LineErr(c.Line, line, msg, fix))
	}
	if c.Verb != "LIST" && g == nil {
		return d.refuse(j, g, game.Player{}, engine.LineErr(c.Line, line,
			lang.M("there is no game %q here", c.Game), lang.M("send GM LIST for the games")))
	}
	v, _ := command.FindVerb(c.Verb)
	var args []string
	switch v.CLI { // the `orrery game` command that answers it
	case "list":
		args = []string{"game", v.CLI}
	case "show":
		args = []string{"game", v.CLI, g.ID}
		switch {
		case len(c.Args) == 0:
			args = append(args, "--gm")
		case len(c.Args) == 2 && strings.EqualFold(c.Args[0], "AS"):
			args = append(args, "--as", strings.ToLower(c.Args[1]))
		case len(c.Args) == 1 && strings.EqualFold(c.Args[0], "PUBLIC"):
			args = append(args, "--public")
		default:
			return refuse(lang.M("GM SHOW takes a game, then nothing (the GM's view), AS and a player, or PUBLIC"),
				lang.M("write GM SHOW %s, GM SHOW %s AS ann, or GM SHOW %s PUBLIC", g.ID, g.ID, g.ID))
		}
	default:
		if len(c.Args) > 0 {
			return refuse(lang.M("GM %s takes only a game", c.Verb), lang.M("write GM %s %s", c.Verb, g.ID))
		}
		args = []string{"game", v.CLI, g.ID}
	}
	if d.gmQueryFn == nil {
		return refuse(lang.M("this server answers GM %s only on its command line", c.Verb),
			lang.M("run orrery %s where the server runs", strings.Join(args, " ")))
	}
	out, err := d.gmQueryFn(ctx, args)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		// The command line's own error, in English (a refusal of the
		// game service says it in the GM's language).
		return d.refuse(j, g, game.Player{}, userLineErr(c.Line, line, err))
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
