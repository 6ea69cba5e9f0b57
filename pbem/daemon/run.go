package daemon

import (
	"context"
	"strings"

	"orrery/engine"
	"orrery/engine/game"
	"orrery/engine/lang"
	"orrery/engine/store"
	"orrery/pbem/command"
	"orrery/pbem/route"
	"orrery/templates"
)

// A runner runs one command line of a mail.
type runner func(d *Daemon, ctx context.Context, j *job, r *route.Result, c route.Command, byID *gameIndex) error

// runners are how the daemon runs each command of pbem/command's table, a
// lookup by descriptor; TestEveryCommandHasARunner checks that it is
// complete.
var runners = map[*command.Descriptor]runner{
	&command.HelpCmd:      (*Daemon).runHelp,
	&command.ListCmd:      (*Daemon).list,
	&command.RulesCmd:     (*Daemon).runRules,
	&command.JoinCmd:      (*Daemon).change,
	&command.StatusCmd:    (*Daemon).runStatus,
	&command.BoardCmd:     (*Daemon).runStatus,
	&command.HistoryCmd:   (*Daemon).runHistory,
	&command.ResignCmd:    (*Daemon).change,
	&command.WaitCmd:      (*Daemon).change,
	&command.OrdersCmd:    (*Daemon).runOrders, // marks where orders start; alone, lists the orders held for later turns (ahead.go)
	&command.PreviewCmd:   (*Daemon).runPreview,
	&command.PressCmd:     (*Daemon).change,
	&command.VacationCmd:  (*Daemon).change,
	&command.ObserveCmd:   (*Daemon).change,
	&command.UnobserveCmd: (*Daemon).change,
	&command.ResendCmd:    (*Daemon).resend,
	&command.ConfirmCmd:   (*Daemon).confirm,
	&command.SetCmd:       (*Daemon).set,
	&command.SettingsCmd: func(_ *Daemon, _ context.Context, j *job, _ *route.Result, _ route.Command, _ *gameIndex) error {
		j.showSettings = true // answered once, after the mail's other commands
		return nil
	},
	&command.MyGamesCmd: (*Daemon).myGames,
	&command.PingCmd:    (*Daemon).ping,
	&command.SecretCmd:  (*Daemon).sendSecret,
	&command.NewCmd:     (*Daemon).newGame,
	&command.StartCmd:   byCreator(startGame),
	&command.InviteCmd:  byCreator(inviteTo),
	&command.GMCmd:      (*Daemon).gm,
}

// byCreator is the runner of a command only a game's creator may send,
// which does op (creatorCommand).
func byCreator(op creatorOp) runner {
	return func(d *Daemon, ctx context.Context, j *job, _ *route.Result, c route.Command, byID *gameIndex) error {
		return d.creatorCommand(ctx, j, c, byID, op)
	}
}

// runHelp answers HELP; HELP <ruleset> adds that ruleset's order help
// (HELP <game>: its game's).
func (d *Daemon) runHelp(_ context.Context, j *job, _ *route.Result, c route.Command, byID *gameIndex) error {
	if c.Ruleset != "" {
		if g := byID.get(c.Ruleset); g != nil {
			return d.help(j, g)
		}
		rs, err := engine.Find(d.svc.Rulesets(), c.Ruleset)
		if err != nil {
			return d.refuse(j, nil, game.Player{}, d.noRuleset(c.Line, "", c.Ruleset))
		}
		data := d.helpData(j)
		info := rs.Info()
		data.Info = &info
		return d.say(j, templates.Help, data)
	}
	return d.help(j, byID.get(c.Game))
}

// runRules answers RULES <ruleset>.
func (d *Daemon) runRules(_ context.Context, j *job, _ *route.Result, c route.Command, _ *gameIndex) error {
	rs, err := engine.Find(d.svc.Rulesets(), c.Ruleset)
	if err != nil {
		return d.refuse(j, nil, game.Player{}, d.noRuleset(c.Line, "", c.Ruleset))
	}
	data := d.mailer.data(nil, game.Player{}, nil)
	info := rs.Info()
	data.Info, data.Title = &info, info.Title
	return d.say(j, templates.Rules, data)
}

// runStatus answers STATUS and BOARD: the player's current report.
func (d *Daemon) runStatus(ctx context.Context, j *job, r *route.Result, c route.Command, byID *gameIndex) error {
	return d.answerReport(ctx, j, r, c, byID, templates.Status, func(g *game.Game, p game.Player) (*game.Report, error) {
		return d.svc.Report(ctx, g.ID, p.Name)
	})
}

// runHistory answers HISTORY: the report of a past turn (the last
// without one), as a history.
func (d *Daemon) runHistory(ctx context.Context, j *job, r *route.Result, c route.Command, byID *gameIndex) error {
	return d.answerReport(ctx, j, r, c, byID, templates.History, d.pastReport(ctx, c.Turn))
}

// resend answers RESEND: the player's own report of the last step, or of
// the step that ended the given turn, as it was mailed.
func (d *Daemon) resend(ctx context.Context, j *job, r *route.Result, c route.Command, byID *gameIndex) error {
	return d.answerReport(ctx, j, r, c, byID, templates.Report, d.pastReport(ctx, c.Turn))
}

// pastReport reads a seat's report of the step that ended turn (0: the
// current step).
func (d *Daemon) pastReport(ctx context.Context, turn int) func(*game.Game, game.Player) (*game.Report, error) {
	return func(g *game.Game, p game.Player) (*game.Report, error) {
		step := g.Step
		if turn > 0 {
			var err error
			if step, err = d.svc.StepOfTurn(ctx, g.ID, turn); err != nil {
				return nil, err
			}
		}
		return d.svc.StepReport(ctx, g.ID, step, p.Name)
	}
}

// answerReport answers a seat's question about its game with the report
// get reads, in a mail of kind.
func (d *Daemon) answerReport(ctx context.Context, j *job, r *route.Result, c route.Command, byID *gameIndex, kind string, get func(*game.Game, game.Player) (*game.Report, error)) error {
	g := byID.get(c.Game)
	p, ok, err := d.authenticate(ctx, j, g, c.Game, r.Secret)
	if !ok || err != nil {
		return err
	}
	rep, err := get(g, p)
	if err != nil {
		if game.IsUserError(err) {
			return d.refuse(j, g, p, userLineErr(c.Line, "", err))
		}
		return err
	}
	data := d.mailer.data(g, p, d.svc.Rulesets())
	data.Report = rep
	return d.say(j, kind, data)
}

// A changer is what change does for one command that changes a game, as
// one recorded part of the mail.
type changer struct {
	// consentable, when set, says the sender confirms the command from
	// their address first (consent.go), and why they may not now.
	consentable func(d *Daemon, g *game.Game, person string) (msg, fix lang.Msg)
	// seat: the sender acts for their seat (authenticated); else the
	// game must exist, or the answer gives fix noGame, and admit (if
	// set) may refuse the sender.
	seat   bool
	noGame lang.Msg
	admit  func(g *game.Game) (msg, fix lang.Msg)
	// notice is the kind of the answer's notice ("": the command's
	// name in lower case).
	notice string
	// do sets the answer (x.note, or an empty section when the engine's
	// own notice tells the sender) and makes the change with x.hook.
	do func(x *changeCall) error
}

// changeCall is one change being made: what do needs.
type changeCall struct {
	d    *Daemon
	ctx  context.Context
	j    *job
	c    route.Command
	g    *game.Game
	p    game.Player
	note func(g *game.Game, m lang.Msg) error
	hook func(tx store.Tx, ch *game.Change) error
	// answer is recorded with the change, in its transaction.
	answer *section
}

// changers are the commands change runs, by descriptor; the test checks
// that each runs through change and has one.
var changers = map[*command.Descriptor]changer{
	&command.JoinCmd: {consentable: joinable, noGame: lang.M("send LIST for the games you can join"), do: func(x *changeCall) error {
		seat := x.c.Seat
		if seat == "" {
			seat = seatName(x.j.from)
		}
		// The engine tells the players who joined; the part is recorded
		// with no answer of its own, so a retry does not join twice.
		x.answer = &section{}
		_, err := x.d.svc.Join(x.ctx, x.g.ID, game.PlayerSpec{Name: seat, Email: x.j.from, Lang: string(x.j.reader.lang), Zone: zoneName(x.j.reader.zone)}, x.hook)
		return err
	}},
	&command.ResignCmd: {seat: true, do: func(x *changeCall) error {
		if err := x.note(x.g, lang.M("You resigned from game %s; your seat plays its defaults from now on.", x.g.ID)); err != nil {
			return err
		}
		_, _, err := x.d.svc.Resign(x.ctx, x.g.ID, x.p.Name, x.hook)
		return err
	}},
	&command.WaitCmd: {seat: true, do: func(x *changeCall) error {
		if err := x.note(x.g, lang.M("Game %s will not resolve early this step: it waits for the deadline.", x.g.ID)); err != nil {
			return err
		}
		_, _, err := x.d.svc.Wait(x.ctx, x.g.ID, x.p.Name, x.hook)
		return err
	}},
	&command.PressCmd: {seat: true, notice: "press-sent" /* not "press": that is press received */, do: func(x *changeCall) error {
		to := lang.ArgOf(lang.M("everyone"))
		if len(x.c.To) > 0 {
			to = lang.ArgOf(strings.Join(x.c.To, ", "))
		}
		if err := x.note(x.g, lang.M("Your press in game %s went to %s.", x.g.ID, to)); err != nil {
			return err
		}
		_, _, err := x.d.svc.Press(x.ctx, x.g.ID, x.p.Name, x.c.To, x.c.Text, x.d.pressBudget(x.g.ID, x.p.Name), x.hook)
		return err // a *pressOver is answered by change
	}},
	&command.VacationCmd: {seat: true, do: func(x *changeCall) error {
		// The engine's vacation notice tells the player and the GM.
		x.answer = &section{}
		if x.c.All {
			// Authenticated for the mail's game: the absence holds in
			// every game of the seat's address, in one transaction.
			addr := x.p.Email
			if addr == "" {
				addr = x.j.from
			}
			_, err := x.d.svc.VacationAll(x.ctx, addr, x.c.From, x.c.Until, "mail", x.hook)
			return err
		}
		_, _, err := x.d.svc.OwnVacation(x.ctx, x.g.ID, x.p.Name, x.c.From, x.c.Until, "mail", x.hook)
		return err
	}},
	&command.ObserveCmd: {consentable: observable, noGame: lang.M("send LIST for the games"),
		admit: func(g *game.Game) (lang.Msg, lang.Msg) {
			if g.Settings.Observers == "gm" {
				return lang.M("game %s takes observers only through its GM", g.ID), lang.M("ask the GM to add you")
			}
			return lang.Msg{}, lang.Msg{}
		},
		do: func(x *changeCall) error {
			if err := x.note(x.g, lang.M("You now receive the public reports of game %s: the events every player sees, never a player's private view. Send UNOBSERVE %s to stop.", x.g.ID, x.g.ID)); err != nil {
				return err
			}
			_, _, err := x.d.svc.Observe(x.ctx, x.g.ID, x.j.from, true, x.hook)
			return err
		}},
	&command.UnobserveCmd: {noGame: lang.M("send LIST for the games"), do: func(x *changeCall) error {
		if err := x.note(x.g, lang.M("You no longer receive the reports of game %s. If you did not ask for this, someone wrote in your name: send OBSERVE %s to receive them again.", x.g.ID, x.g.ID)); err != nil {
			return err
		}
		_, _, err := x.d.svc.Observe(x.ctx, x.g.ID, x.j.from, false, x.hook)
		return err
	}},
}
