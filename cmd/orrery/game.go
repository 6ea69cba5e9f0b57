package main

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"orrery/engine"
	"orrery/engine/game"
	"orrery/engine/lang"
	"orrery/engine/store"
	"orrery/pbem/bounce"
	"orrery/pbem/daemon"
	"orrery/pbem/inmail"
	"orrery/pbem/outbox"
	"orrery/pbem/settings"
)

type subcommand struct {
	name, usage, about string
	run                func(ctx context.Context, e *env, args []string) error
}

func gameCommands() []subcommand {
	return []subcommand{
		{"new", "game new RULESET --id ID --player NAME=EMAIL... [--bot NAME]... [--option K=V]... [--turn-length 72h]",
			"Creates a game. Players are seated in the order given (the ruleset may\nshuffle seats with its recorded dice). --bot seats a computer player.\nEach player's secret is printed once: it goes in the welcome mail. A seat\nplayed from the GM's own address (gm in the config) gets a warning: the\nGM holds the dice secret.", gameNew},
		{"list", "game list [--ruleset NAME] [--player ADDRESS] [--awaiting] [--open] [--limit N] [--after ID]",
			"Lists games in id order: ruleset, dice scheme (v1, or v2 for games set up\nsince their rolls depend on the orders too), turn, phase, deadline, who is\nawaited. --ruleset, --player (games where ADDRESS holds a seat), --awaiting\n(games waiting for orders; with --player, that player's) and --open (taking\nJOINs) narrow the list. It shows --limit games (default 100; 0: all, read a\npage at a time) and says how to see the next ones: --after the last id shown.", gameList},
		{"show", "game show ID [--as PLAYER | --gm | --public] [--step N]", "Prints the report as PLAYER gets it (their own view), the GM's view, or what observers get.", gameShow},
		{"players", "game players ID", "Lists a game's seats: each one's address and its state (awaited, abandoned,\nkicked, the bot's), whether mail to the address arrives (bounces counted\nfrom delivery reports, or unreachable), and every holder of the seat with\nthe steps they played.", gamePlayers},
		{"advance", "game advance ID [--force]", "Resolves the current step if it is due (every order in, or the deadline\npassed). --force resolves it anyway; missing orders take their defaults.\nWhen the step is not due it exits non-zero and says when it will be.", gameAdvance},
		{"verify", "game verify ID", "Replays the whole log from the start with dice re-derived from the seeds,\nand checks every snapshot byte for byte, every roll, and every commitment.", gameVerify},
		archiveCommand(),
		{"log", "game log ID [--json]", "Prints every input of a game, in order, with its time and source, and between\nthem every mail the game sent (reports, reminders, late notices, answers), sent,\nstill queued or given up on. --json prints the stored inputs only.", gameLog},
	}
}

// allGameCommands is every `orrery game` subcommand.
func allGameCommands() []subcommand { return append(gameCommands(), gmCommands()...) }

func runGame(ctx context.Context, e *env, args []string) error {
	if len(args) == 0 || args[0] == "help" || args[0] == "--help" || args[0] == "-h" {
		fmt.Fprintln(e.stdout, "Usage: orrery game SUBCOMMAND ...")
		fmt.Fprintln(e.stdout)
		for _, c := range allGameCommands() {
			fmt.Fprintf(e.stdout, "  orrery %s\n", c.usage)
		}
		fmt.Fprintln(e.stdout, "\nEach takes --db FILE and --help.")
		return nil
	}
	for _, c := range allGameCommands() {
		if c.name == args[0] {
			return c.run(ctx, e, args[1:])
		}
	}
	var names []string
	for _, c := range allGameCommands() {
		names = append(names, c.name)
	}
	return noCommand("game", args[0], names, "see orrery game help")
}

// sub finds a `game` subcommand's usage and help by name.
func sub(name string) subcommand {
	for _, c := range allGameCommands() {
		if c.name == name {
			return c
		}
	}
	panic("unknown subcommand " + name)
}

func gameNew(ctx context.Context, e *env, args []string) error {
	_, fs, db := gameFlags(e, "new")
	id := fs.String("id", "", "game id (lowercase letters, digits, dashes)")
	seats := fs.Int("seats", 0, "seats in all; more than the players named opens the game for JOIN")
	var players, bots, options multi
	fs.Var(&players, "player", "seat NAME=EMAIL (repeat for each player; EMAIL may be empty)")
	fs.Var(&bots, "bot", "seat a computer player NAME (repeatable)")
	fs.Var(&options, "option", "ruleset option NAME=VALUE (repeatable; see orrery rulesets RULESET)")
	def := game.DefaultSettings()
	turn := lengthFlag(fs, "turn-length", 0, "deadline after each step, e.g. 72h (0: none; the GM advances)")
	var schedule, remind multi
	fs.Var(&schedule, "schedule", `fixed deadline "Mon 18:00" in --tz (repeatable; instead of --turn-length)`)
	tz := fs.String("tz", "", "time zone of --schedule (IANA name, default UTC)")
	quiet := fs.String("quiet-hours", "", "no computed deadline falls in these hours of any seated player's night, in each player's own zone (SET TZ), e.g. 23:00-07:00 (default: none)")
	weekends := fs.String("weekends", "on", "off: the deadline clock stops from Saturday 00:00 to Monday 00:00 in --tz, and no computed deadline falls on a weekend")
	minGap := lengthFlag(fs, "min-gap", 0, "at least this long between two steps: no deadline and no early resolution falls sooner")
	early := fs.Bool("early", def.Early, "resolve as soon as every order is in")
	earlyDelay := lengthFlag(fs, "early-delay", 0, "when all orders are in, wait this long (players may change orders or say WAIT)")
	grace := lengthFlag(fs, "grace", 0, "take late orders this long after the deadline before defaults apply")
	fs.Var(&remind, "remind", "remind missing players this long before the deadline (repeatable, e.g. 24h)")
	tellLate := fs.Bool("tell-late", false, "during grace, tell the others who is late")
	abandon := fs.Int("abandon-after", 0, "mark a seat abandoned after this many steps in a row without orders (0: never)")
	abandoned := fs.String("abandoned", "defaults", "an abandoned seat (or one whose mail still bounces after the abandon window: --abandon-after steps by defaults, 3 when that is 0): defaults (it plays its defaults), bot (the ruleset's bot takes it) or open (anyone may JOIN it)")
	returnWindow := fs.Int("return-window", 0, "with --abandoned bot: the seat's player who writes again, with their secret, within this many turns of the bot taking over gets it back (0: 2)")
	vacation := fs.String("vacation", def.Vacation, "vacation policy: extend (deadlines wait) or defaults (defaults apply)")
	maxVacation := lengthFlag(fs, "max-vacation", def.MaxVacation, "longest vacation the game allows")
	press := fs.String("press", def.Press, "press between players: off, signed or grey (anonymous)")
	pressGM := fs.Bool("press-to-gm", false, "copy every press message to the GM")
	observers := fs.String("observers", "open", "who subscribes observers to the public reports: open (anyone, by OBSERVE mail) or gm (only the GM, with game observe)")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return fmt.Errorf("game new takes one RULESET (see orrery rulesets)")
	}
	if *id == "" {
		return fmt.Errorf("game new needs --id")
	}
	gs := &game.Settings{Early: *early, EarlyDelay: *earlyDelay, TurnLength: *turn, Schedule: schedule, TimeZone: *tz,
		MinGap: *minGap, Grace: *grace, TellLate: *tellLate, AbandonAfter: *abandon, Abandoned: *abandoned, Vacation: *vacation,
		MaxVacation: *maxVacation, Press: *press, PressToGM: *pressGM, Observers: *observers, QuietHours: *quiet, ReturnWindow: *returnWindow}
	switch *weekends {
	case "on":
	case "off":
		gs.WeekendsOff = true
	default:
		return fmt.Errorf("--weekends is on or off, not %q", *weekends)
	}
	if *tz != "" {
		if err := checkTimeZone(*tz); err != nil {
			return err
		}
	}
	for _, r := range remind {
		d, err := parseLength(r)
		if err != nil {
			return fmt.Errorf("--remind: %w", err)
		}
		gs.Reminders = append(gs.Reminders, d)
	}
	req := game.CreateRequest{ID: *id, Ruleset: pos[0], Options: map[string]string{}, Settings: gs, Seats: *seats}
	for _, p := range players {
		name, email, _ := strings.Cut(p, "=")
		req.Players = append(req.Players, game.PlayerSpec{Name: name, Email: email})
	}
	for _, b := range bots {
		req.Players = append(req.Players, game.PlayerSpec{Name: b, Bot: true})
	}
	if req.Options, err = optionMap(options); err != nil {
		return err
	}
	db.create = true
	svc, done, err := db.open(e)
	if err != nil {
		return err
	}
	defer done()
	// Each player starts in the language of their address's settings
	// (orrery player set, SET LANG by mail), where the ruleset writes in
	// several.
	for i, p := range req.Players {
		if p.Email == "" {
			continue
		}
		s, err := settings.Load(ctx, svc.Store(), p.Email)
		if err != nil {
			return err
		}
		req.Players[i].Lang = string(s.Lang())
		req.Players[i].Zone = s[settings.TZ]
	}
	g, err := svc.Create(ctx, req)
	if err != nil {
		return err
	}
	if g.Signup {
		fmt.Fprintf(e.stdout, "created %s (%s), open for players: %d of %d seats taken\n", g.ID, g.Ruleset, len(g.Players), g.Seats)
	} else {
		fmt.Fprintf(e.stdout, "created %s (%s), turn %d, %s\n", g.ID, g.Ruleset, g.Turn, g.Phase)
	}
	w := table(e.stdout)
	for _, p := range g.Players {
		kind := p.Email
		if p.Bot {
			kind = "bot"
		}
		fmt.Fprintf(w, "  %s\t%s\tsecret %s\n", p.Name, kind, p.Secret)
	}
	w.Flush()
	printAwaited(e, g)
	warnGMSeat(e, g, db.config)
	return nil
}

// warnGMSeat warns when the GM's own address (gm in the config) holds a
// seat: the GM knows the dice secret, so from the others' orders a GM who
// plays can work out the rolls that orders of their own would give, and
// send last the ones that suit. Nobody else can (README, "Dice you can
// check"); the reports make it visible, and the players should know.
func warnGMSeat(e *env, g *game.Game, cfgPath string) {
	gm, err := gmAddress(cfgPath)
	if err != nil {
		fmt.Fprintf(e.stderr, "warning: %v: not checked whether the GM holds a seat\n", err)
		return
	}
	if gm == "" {
		return
	}
	for _, p := range g.Players {
		if p.Email != "" && game.SameAddress(p.Email, gm) {
			fmt.Fprintf(e.stderr, "warning: %s plays from the GM's own address %s. The GM holds the dice secret:\n"+
				"knowing the other players' orders, a GM who plays can work out what orders of their own\n"+
				"would roll, and send last the ones that suit. Every report says who sent the last\n"+
				"orders and whether they sent them again after everyone else's were in; tell the\n"+
				"players, or let someone else be the GM.\n", p.Name, gm)
		}
	}
}

// gmAddress reads the GM's address from the config file (--config, else
// ORRERY_CONFIG), bare and in game.CanonAddress's form; "" when there is
// none.
func gmAddress(cfgPath string) (string, error) {
	c, err := readConfig(configPath(cfgPath))
	if err != nil || c == nil || c.GM == "" {
		return "", err
	}
	return game.CanonAddress(inmail.Bare(c.GM)), nil
}

func printAwaited(e *env, g *game.Game) {
	if g.Over() {
		fmt.Fprintf(e.stdout, "game over: %s\n", g.Outcome.Text)
		return
	}
	if w := g.Waiting(); len(w) > 0 {
		fmt.Fprintf(e.stdout, "waiting for: %s\n", strings.Join(w, ", "))
	}
}

func gameList(ctx context.Context, e *env, args []string) error {
	_, fs, db := gameFlags(e, "list")
	var opt game.ListOptions
	fs.StringVar(&opt.Ruleset, "ruleset", "", "only games of this ruleset")
	fs.StringVar(&opt.Player, "player", "", "only games in which this address holds a seat")
	fs.BoolVar(&opt.Awaiting, "awaiting", false, "only games waiting for orders (with --player: that player's)")
	fs.BoolVar(&opt.Open, "open", false, "only games open for players to join")
	fs.StringVar(&opt.After, "after", "", "start after this game id (the last one of the page before)")
	limit := fs.Int("limit", 100, "show at most this many games (0: all)")
	if _, err := parse(fs, args); err != nil {
		return err
	}
	if *limit < 0 {
		return fmt.Errorf("--limit must be 0 (all) or more")
	}
	svc, done, err := db.open(e)
	if err != nil {
		return err
	}
	defer done()
	// Pages of the engine's listing, each printed before the next is
	// read: memory holds one page however many games there are.
	shown, last := 0, ""
	for {
		opt.Limit = game.MaxListLimit
		if *limit > 0 {
			opt.Limit = min(opt.Limit, *limit-shown)
		}
		page, err := svc.ListGames(ctx, opt)
		if err != nil {
			return err
		}
		if shown == 0 && len(page.Games) == 0 {
			if opt.ListFilter == (game.ListFilter{}) && opt.After == "" {
				fmt.Fprintln(e.stdout, "no games (create one with orrery game new)")
			} else {
				fmt.Fprintln(e.stdout, "no games match")
			}
			return nil
		}
		// Columns line up within a page (up to MaxListLimit games); each
		// page is flushed before the next is read.
		w := table(e.stdout)
		if shown == 0 {
			fmt.Fprintln(w, "GAME\tRULESET\tDICE\tTURN\tPHASE\tDEADLINE\tAWAITING")
		}
		for _, g := range page.Games {
			fmt.Fprintln(w, listLine(e, g))
			last = g.ID
		}
		if err := w.Flush(); err != nil {
			return err
		}
		shown += len(page.Games)
		if page.Next == "" {
			return nil
		}
		if *limit > 0 && shown >= *limit {
			fmt.Fprintf(e.stdout, "(more: orrery game list%s --after %s)\n", listFlags(opt.ListFilter, *limit), last)
			return nil
		}
		opt.After = page.Next
	}
}

// listFlags repeats a listing's filters for the "more" hint.
func listFlags(f game.ListFilter, limit int) string {
	var b strings.Builder
	if f.Ruleset != "" {
		fmt.Fprintf(&b, " --ruleset %s", f.Ruleset)
	}
	if f.Player != "" {
		fmt.Fprintf(&b, " --player %s", f.Player)
	}
	if f.Awaiting {
		b.WriteString(" --awaiting")
	}
	if f.Open {
		b.WriteString(" --open")
	}
	if limit != 100 {
		fmt.Fprintf(&b, " --limit %d", limit)
	}
	return b.String()
}

// listLine is one game in game list.
func listLine(e *env, g *game.Game) string {
	awaiting := strings.Join(g.Waiting(), ",")
	switch {
	case g.Over():
		awaiting = "over: " + g.Outcome.Text
	case g.Signup:
		awaiting = fmt.Sprintf("signup: %d of %d seats", len(g.Players), g.Seats)
	case g.Paused:
		awaiting = "PAUSED; " + awaiting
	}
	if rs, err := engine.Find(e.rulesets, g.Ruleset); err == nil && !g.Signup && rs.Info().Version != g.RulesVersion {
		// verify would fail on this game: say why before the GM runs it.
		awaiting += fmt.Sprintf(" [set up under rules v%d; this server has v%d]", g.RulesVersion, rs.Info().Version)
	}
	deadline := "-"
	if !g.Deadline.IsZero() {
		deadline = g.Deadline.Format("2006-01-02 15:04 MST")
	}
	scheme := "-" // a game in signup has no dice yet
	if !g.Signup {
		scheme = fmt.Sprintf("v%d", g.Scheme())
	}
	return fmt.Sprintf("%s\t%s\t%s\t%d\t%s\t%s\t%s", g.ID, g.Ruleset, scheme, g.Turn, g.Phase, deadline, awaiting)
}

func gameShow(ctx context.Context, e *env, args []string) error {
	_, fs, db := gameFlags(e, "show")
	as := fs.String("as", "", "show PLAYER's own view (a seat name, or the address that holds the seat)")
	gm := fs.Bool("gm", false, "show the GM's view (everything)")
	public := fs.Bool("public", false, "show what observers get: public events and the public board")
	step := fs.Int("step", -1, "show the report of an earlier step")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return fmt.Errorf("game show takes one game id")
	}
	if *as == "" && !*gm && !*public {
		return fmt.Errorf("say whose view: --as PLAYER, --gm or --public")
	}
	if *public {
		*as = game.Observer
	}
	svc, done, err := db.open(e)
	if err != nil {
		return err
	}
	defer done()
	if *as, err = seatName(ctx, svc, pos[0], *as); err != nil {
		return err
	}
	var r *game.Report
	if *step >= 0 {
		r, err = svc.StepReport(ctx, pos[0], uint64(*step), *as)
	} else {
		r, err = svc.Report(ctx, pos[0], *as)
	}
	if err != nil {
		return err
	}
	fmt.Fprint(e.stdout, reportText(r))
	if *gm {
		g, err := svc.Get(ctx, pos[0])
		if err != nil {
			return err
		}
		fmt.Fprint(e.stdout, timeRules(g))
	}
	return nil
}

func gamePlayers(ctx context.Context, e *env, args []string) error {
	_, fs, db := gameFlags(e, "players")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return fmt.Errorf("game players takes one game id")
	}
	svc, done, err := db.open(e)
	if err != nil {
		return err
	}
	defer done()
	g, err := svc.Get(ctx, pos[0])
	if err != nil {
		return err
	}
	waiting := map[string]bool{}
	for _, w := range g.Waiting() {
		waiting[w] = true
	}
	policy, err := bouncePolicy(db.config)
	if err != nil {
		return err
	}
	addrState := func(addr string) string {
		var st bounce.State
		svc.Store().View(ctx, func(tx store.Tx) error {
			st, _ = bounce.Load(tx, addr)
			return nil
		})
		return st.Describe(policy)
	}
	w := table(e.stdout)
	fmt.Fprintln(w, "SEAT\tADDRESS\tSEAT STATE\tMAIL")
	for _, p := range g.Players {
		addr, mail := p.Email, ""
		switch {
		case p.Bot:
			addr = "(bot)"
		case p.Email == "":
			addr = "(nobody)"
		default:
			mail = addrState(p.Email)
		}
		var state []string
		for _, s := range []struct {
			on   bool
			name string
		}{{waiting[p.Name], "awaited"}, {contains(g.Abandoned, p.Name), "abandoned"}, {contains(g.Kicked, p.Name), "kicked"},
			{contains(g.Unreachable, p.Name), "unreachable"}, {contains(g.OpenSeats(), p.Name), "open to JOIN"}} {
			if s.on {
				state = append(state, s.name)
			}
		}
		if n := g.Missed[p.Name]; n > 0 {
			state = append(state, fmt.Sprintf("missed %d in a row", n))
		}
		if b := g.Bouncing(p.Name); b != nil {
			state = append(state, fmt.Sprintf("kept for its holder: %d of %d steps by defaults", len(b.Defaults), g.Settings.BounceWindow()))
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", p.Name, addr, strings.Join(state, ", "), mail)
	}
	w.Flush()
	fmt.Fprintf(e.stdout, "\nabandoned seats: %s (after %s)\n", orWord(g.Settings.Abandoned, "defaults"), abandonAfter(g.Settings.AbandonAfter))
	fmt.Fprintln(e.stdout, "holders (steps played, steps missed, how it ended):")
	for _, p := range g.Players {
		for _, h := range p.History(g) {
			who := h.Email
			if h.Bot {
				who = "the bot"
			} else if h.Name != "" {
				who += " (" + h.Name + ")" // the name they are greeted and shown by
			}
			line := fmt.Sprintf("  %-12s %-28s %s", p.Name, who, stepRange(h))
			if h.Missed > 0 {
				line += fmt.Sprintf(", missed %d", h.Missed)
			}
			if h.Abandoned {
				line += ", abandoned"
			}
			if h.Ended != "" {
				line += ", " + h.Ended
				if h.Why != "" {
					line += ": " + h.Why
				}
			}
			fmt.Fprintln(e.stdout, line)
		}
	}
	return nil
}

// stepRange is the steps a holder played, for people: "steps 3-12",
// "steps 3-now", "step 4", "no step".
func stepRange(h game.Holder) string {
	switch {
	case h.Ended == "":
		return fmt.Sprintf("steps %d-now", h.From)
	case h.To < h.From:
		return "no step"
	case h.To == h.From:
		return fmt.Sprintf("step %d", h.From)
	}
	return fmt.Sprintf("steps %d-%d", h.From, h.To)
}

// count is "1 game", "2 games".
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

func orWord(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

func abandonAfter(n int) string {
	switch n {
	case 0:
		return "never: --abandon-after is 0"
	case 1:
		return "1 step without orders"
	}
	return fmt.Sprintf("%d steps in a row without orders", n)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func gameAdvance(ctx context.Context, e *env, args []string) error {
	_, fs, db := gameFlags(e, "advance")
	force := fs.Bool("force", false, "resolve even if orders are missing (their defaults apply)")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return fmt.Errorf("game advance takes one game id")
	}
	svc, done, err := db.open(e)
	if err != nil {
		return err
	}
	defer done()
	res, err := svc.Advance(ctx, pos[0], *force)
	if err != nil {
		return err
	}
	if !res.Due {
		return notDue(res, time.Now())
	}
	for _, s := range res.Steps {
		fmt.Fprintf(e.stdout, "step %d resolved (%s): turn %d, %s\n", s.N, s.Reason, s.Turn, s.Phase)
	}
	g, err := svc.Get(ctx, pos[0])
	if err != nil {
		return err
	}
	printAwaited(e, g)
	return nil
}

// notDue is game advance's answer when it resolved nothing: an error, so
// that the command exits non-zero and a script or cron job that advances a
// game sees it did not. It says who is awaited, when the step falls due by
// itself, and that --force resolves it now.
func notDue(res *game.AdvanceResult, now time.Time) error {
	g := res.Game
	waiting := "waiting for " + strings.Join(res.Waiting, ", ")
	if len(res.Waiting) == 0 {
		waiting = "no orders awaited"
	}
	force := "--force resolves it now, missing orders taking their defaults"
	if res.Paused {
		return fmt.Errorf("%s is not due: it is paused (%s); game resume %s restarts its clock, or %s", g.ID, waiting, g.ID, force)
	}
	when := "it has no deadline, so it is due when every order is in"
	if !g.Deadline.IsZero() {
		due := g.Deadline.Add(g.Settings.Grace)
		when = fmt.Sprintf("it is due at %s (in %s), or sooner when every order is in", due.UTC().Format("2006-01-02 15:04 MST"), lang.Duration(lang.English, due.Sub(now)))
	}
	return fmt.Errorf("%s is not due: %s; %s; %s", g.ID, waiting, when, force)
}

func gameVerify(ctx context.Context, e *env, args []string) error {
	_, fs, db := gameFlags(e, "verify")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return fmt.Errorf("game verify takes one game id")
	}
	svc, done, err := db.open(e)
	if err != nil {
		return err
	}
	defer done()
	v, err := svc.Verify(ctx, pos[0])
	if err != nil {
		return err
	}
	if !v.OK() {
		for _, p := range v.Problems {
			fmt.Fprintln(e.stdout, "PROBLEM:", p)
		}
		return fmt.Errorf("%s failed verification: %d problems", v.Game, len(v.Problems))
	}
	fmt.Fprintf(e.stdout, "%s verified: %s replayed byte for byte, %s re-derived from revealed seeds, every seed matches its commitment\n",
		v.Game, lang.N(int(v.Steps), "state", "states"), lang.N(v.Rolls, "roll", "rolls"))
	return nil
}

func gameLog(ctx context.Context, e *env, args []string) error {
	_, fs, db := gameFlags(e, "log")
	asJSON := fs.Bool("json", false, "print the raw JSON entries")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return fmt.Errorf("game log takes one game id")
	}
	svc, done, err := db.open(e)
	if err != nil {
		return err
	}
	defer done()
	return svc.Store().View(ctx, func(tx store.Tx) error {
		gb := tx.Bucket(store.BucketGames).Bucket([]byte(pos[0]))
		if gb == nil {
			return fmt.Errorf("no game named %q", pos[0])
		}
		var entries []game.Entry
		err := gb.Bucket(store.BucketLog).ForEach(func(k, v []byte) error {
			if *asJSON {
				fmt.Fprintln(e.stdout, string(v))
				return nil
			}
			var en game.Entry
			if err := json.Unmarshal(v, &en); err != nil {
				return err
			}
			entries = append(entries, en)
			return nil
		})
		if err != nil || *asJSON {
			return err
		}
		// The game's mails (reports, reminders, late notices, answers)
		// go between the inputs, by time: the log then reads as what
		// happened and who was told.
		mails, err := outbox.OfGame(tx, pos[0])
		if err != nil {
			return err
		}
		for len(entries) > 0 || len(mails) > 0 {
			if len(mails) == 0 || len(entries) > 0 && !mails[0].Time.Before(entries[0].Time) {
				fmt.Fprintln(e.stdout, logLine(&entries[0]))
				entries = entries[1:]
				continue
			}
			fmt.Fprintln(e.stdout, mailLine(mails[0]))
			mails = mails[1:]
		}
		return nil
	})
}

// mailLine is a mail of the game in `game log`, between the entries. The
// subject's secret is blanked: GM LOG by mail sends these lines to the
// GM's mailbox, where a player's secret would let its reader play the seat.
func mailLine(m outbox.Event) string {
	line := fmt.Sprintf("   - %s mail     %s %s to %s: %s", m.Time.UTC().Format(time.DateTime), m.State, m.Kind, strings.Join(m.To, ", "), daemon.RedactSubject(m.Subject))
	switch {
	case m.State != "sent" && m.Error != "":
		line += fmt.Sprintf(" (%d attempts; last error: %s)", m.Attempts, m.Error)
	case m.Attempts > 1:
		line += fmt.Sprintf(" (after %d attempts)", m.Attempts)
	}
	return line
}

func logLine(en *game.Entry) string {
	t := en.Time.Format(time.DateTime)
	switch en.Kind {
	case "create":
		return fmt.Sprintf("%4d %s create %s with %s", en.Seq, t, en.Setup.GameID, strings.Join(en.Setup.Players, ", "))
	case "orders", "rejected":
		text := strings.ReplaceAll(en.Text, "\n", " / ")
		if len(text) > 60 {
			text = text[:60] + "…"
		}
		src := en.Source
		if en.Ref != "" {
			src += " " + en.Ref
		}
		return fmt.Sprintf("%4d %s %-8s step %d %s (%s): %s", en.Seq, t, en.Kind, en.Step, en.Player, src, text)
	case "resolve":
		var def []string
		for _, a := range en.Answers {
			if a.Default {
				def = append(def, a.Prompt.Player)
			}
		}
		sort.Strings(def)
		extra := ""
		if len(def) > 0 {
			extra = "; defaults for " + strings.Join(def, ", ")
		}
		return fmt.Sprintf("%4d %s resolve  step %d (%s)%s", en.Seq, t, en.Step, en.Reason, extra)
	case "rollback":
		return fmt.Sprintf("%4d %s rollback to step %d: %s", en.Seq, t, en.Step, en.Text)
	case "edit":
		return fmt.Sprintf("%4d %s edit     step %d: the GM replaced the state by hand (import)", en.Seq, t, en.Step)
	case "gm":
		if en.Player != "" && en.Source != "gm" {
			// A player's own JOIN, START, INVITE, VACATION ALL.
			return fmt.Sprintf("%4d %s player   step %d %s (%s): %s", en.Seq, t, en.Step, en.Player, en.Source, en.Text)
		}
		return fmt.Sprintf("%4d %s gm       %s", en.Seq, t, en.Text)
	case "press":
		text := strings.ReplaceAll(en.Text, "\n", " / ")
		if len(text) > 60 {
			text = text[:60] + "…"
		}
		grey := ""
		if en.Anonymous {
			grey = " (grey: sent unsigned)"
		}
		return fmt.Sprintf("%4d %s press    step %d %s to %s%s: %s", en.Seq, t, en.Step, en.Player, strings.Join(en.To, ", "), grey, text)
	}
	return fmt.Sprintf("%4d %s %s", en.Seq, t, en.Kind)
}

// optionMap reads repeated --option NAME=VALUE flags; the ruleset checks the
// names and values when the game is created.
func optionMap(options []string) (map[string]string, error) {
	m := map[string]string{}
	for _, o := range options {
		k, v, ok := strings.Cut(o, "=")
		if !ok {
			return nil, fmt.Errorf("--option %q: write NAME=VALUE", o)
		}
		m[strings.TrimSpace(k)] = strings.TrimSpace(v)
	}
	return m, nil
}
