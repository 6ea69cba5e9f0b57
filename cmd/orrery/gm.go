package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"orrery/engine/game"
	"orrery/pbem/settings"
)

// gmCommands are the GM's repair and scheduling commands; they are listed
// with the other game commands by gameCommands.
func gmCommands() []subcommand {
	return []subcommand{
		{"pause", "game pause ID [--reason TEXT]", "Stops the game's clock: no deadline or reminder until resume. Orders are still taken.", gamePause},
		{"resume", "game resume ID", "Restarts a paused game; the deadline moves by the time it was paused.", gameResume},
		{"deadline", "game deadline ID (--set 2026-12-01T18:00 | --extend 24h) --reason TEXT", "Changes the current deadline. Every player is told the new one and the reason.", gameDeadline},
		{"tick", "game tick", "Does whatever is due in every game now: reminders, late notices, deadlines.\nThe daemon does this on its own; run it from cron when no daemon runs.\nWith store: postgres, a game another process is ticking is left to it.", gameTick},
		{"rollback", "game rollback ID (--to TURN | --to-step N) [--reason TEXT]", "Returns the game to the start of TURN (or to just after step N). Later\ninputs stay in the log; players are told; replayed steps get new seeds.", gameRollback},
		{"replace", "game replace ID PLAYER (--email ADDRESS [--name NAME] | --bot) [--reason TEXT]", "Gives a seat to a new person (a new secret; the old address loses access)\nor, with --bot, to the ruleset's bot from the next step. The old holder is\ntold by mail what happened and why; the seat's history keeps every holder.\nThe seat keeps its name; the new player is greeted by NAME (else their\naddress's local part), and the others read \"seat bob, played by NAME\".\nPLAYER here, and --as PLAYER elsewhere, is a seat's name or the address\nthat holds the seat now.", gameReplace},
		{"kick", "game kick ID PLAYER [--reason TEXT]", "Removes a player, who is told why: the seat plays its defaults from now on.", gameKick},
		{"message", "game message ID TEXT...", "Sends a message from the GM to every player; kept in the log.", gameMessage},
		{"resend", "game resend ID [--to PLAYER] [--turn N]", "Mails a report again, as each player saw it: the current one, or the one\nof turn N; to every player, or to one. Needs the mail config (--config)\nor a running daemon.", gameResend},
		{"vacation", "game vacation ID PLAYER --from 2026-12-01 --to 2026-12-10", "Records a player's absence; the game's policy extends deadlines or plays defaults.", gameVacation},
		{"orders", "game orders ID --as PLAYER -f FILE", "Enters orders for a player who sent them another way (by phone, say);\nthe log records them as entered by the GM. PLAYER is a seat's name or the\naddress that holds the seat.", gameOrders},
		{"join", "game join ID NAME --email ADDRESS", "Takes an open seat for a player (what JOIN by mail does); the game starts\nwhen the last seat is taken.", gameJoin},
		{"observe", "game observe ID ADDRESS [--off]", "Subscribes an address to the game's public reports (or unsubscribes it).", gameObserve},
		{"export", "game export ID [--with-secrets] [--out FILE]", "Writes the whole game (record, state, log, pending orders) as readable JSON.\nThe dice secret and the players' secrets are left out (such an export is\nfor reading, and cannot be imported) unless --with-secrets is given; GM\nEXPORT by mail never has them. --out writes FILE owner-only (0600).", gameExport},
		{"import", "game import [--replace] < game.json", "Reads a game exported by game export, checks it by replaying its log, and\nstores it. A hand-edited state is taken as a GM edit and logged as one.", gameImport},
	}
}

// gmRun opens the store, runs op and prints its notices.
func gmRun(ctx context.Context, e *env, db *dbFlags, op func(*game.Service) (*game.Game, []game.Notice, error)) error {
	svc, done, err := db.open(e)
	if err != nil {
		return err
	}
	defer done()
	_, notices, err := op(svc)
	if err != nil {
		return err
	}
	printNotices(e, notices)
	return nil
}

func printNotices(e *env, notices []game.Notice) {
	for _, n := range notices {
		to := make([]string, len(n.To))
		for i, p := range n.To {
			to[i] = p
			if p == game.GM {
				to[i] = "GM"
			}
		}
		to = append(to, n.Addresses...)
		fmt.Fprintf(e.stdout, "%s to %s: %s\n", n.Kind, strings.Join(to, ", "), n.Text)
	}
}

// gameFlags starts the flag set of `orrery game NAME`: its usage and help
// from the command table, and the --db/--config flags every game command takes.
func gameFlags(e *env, name string) (subcommand, *flag.FlagSet, *dbFlags) {
	c := sub(name)
	fs := flags(e, "game "+name, c.usage, c.about)
	return c, fs, addDBFlags(fs)
}

// parseOneID parses the flags of a command that takes exactly one game ID.
func parseOneID(fs *flag.FlagSet, args []string, usage string) (string, error) {
	pos, err := parse(fs, args)
	if err != nil {
		return "", err
	}
	if len(pos) != 1 {
		return "", fmt.Errorf("usage: orrery %s", usage)
	}
	return pos[0], nil
}

func gamePause(ctx context.Context, e *env, args []string) error {
	c, fs, db := gameFlags(e, "pause")
	reason := fs.String("reason", "", "told to the players")
	id, err := parseOneID(fs, args, c.usage)
	if err != nil {
		return err
	}
	return gmRun(ctx, e, db, func(s *game.Service) (*game.Game, []game.Notice, error) { return s.Pause(ctx, id, *reason) })
}

func gameResume(ctx context.Context, e *env, args []string) error {
	c, fs, db := gameFlags(e, "resume")
	id, err := parseOneID(fs, args, c.usage)
	if err != nil {
		return err
	}
	return gmRun(ctx, e, db, func(s *game.Service) (*game.Game, []game.Notice, error) { return s.Resume(ctx, id) })
}

func gameDeadline(ctx context.Context, e *env, args []string) error {
	c, fs, db := gameFlags(e, "deadline")
	set := fs.String("set", "", "new deadline, RFC 3339 or YYYY-MM-DDTHH:MM in UTC")
	extend := lengthFlag(fs, "extend", 0, "move the deadline later by this much (24h, 2d)")
	reason := fs.String("reason", "", "why (told to every player; required)")
	id, err := parseOneID(fs, args, c.usage)
	if err != nil {
		return err
	}
	switch {
	case *set != "" && *extend == 0:
		at, err := parseTime(*set)
		if err != nil {
			return err
		}
		return gmRun(ctx, e, db, func(s *game.Service) (*game.Game, []game.Notice, error) { return s.SetDeadline(ctx, id, at, *reason) })
	case *set == "" && *extend != 0:
		return gmRun(ctx, e, db, func(s *game.Service) (*game.Game, []game.Notice, error) {
			return s.ExtendDeadline(ctx, id, *extend, *reason)
		})
	}
	return fmt.Errorf("give one of --set or --extend")
}

func parseTime(s string) (time.Time, error) {
	for _, layout := range []string{time.RFC3339, "2006-01-02T15:04", "2006-01-02 15:04", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, fmt.Errorf("%q is not a time: write 2026-12-01T18:00 (UTC) or RFC 3339", s)
}

func gameTick(ctx context.Context, e *env, args []string) error {
	_, fs, db := gameFlags(e, "tick")
	if _, err := parse(fs, args); err != nil {
		return err
	}
	svc, done, err := db.open(e)
	if err != nil {
		return err
	}
	defer done()
	res, err := svc.Tick(ctx)
	for _, r := range res {
		for _, s := range r.Steps {
			fmt.Fprintf(e.stdout, "%s: step %d resolved (%s)\n", r.Game, s.N, s.Reason)
		}
		printNotices(e, r.Notices)
	}
	if err == nil && len(res) == 0 {
		fmt.Fprintln(e.stdout, "nothing is due")
	}
	return err
}

func gameRollback(ctx context.Context, e *env, args []string) error {
	c, fs, db := gameFlags(e, "rollback")
	turn := fs.Int("to", -1, "roll back to the start of this turn")
	step := fs.Int("to-step", -1, "roll back to just after this step")
	reason := fs.String("reason", "", "told to the players")
	id, err := parseOneID(fs, args, c.usage)
	if err != nil {
		return err
	}
	if (*turn < 0) == (*step < 0) {
		return fmt.Errorf("give one of --to TURN or --to-step N")
	}
	return gmRun(ctx, e, db, func(s *game.Service) (*game.Game, []game.Notice, error) {
		n := uint64(*step)
		if *turn >= 0 {
			var err error
			if n, err = s.StepOfTurn(ctx, id, *turn); err != nil {
				return nil, nil, err
			}
		}
		return s.Rollback(ctx, id, n, *reason)
	})
}

func gameReplace(ctx context.Context, e *env, args []string) error {
	c, fs, db := gameFlags(e, "replace")
	email := fs.String("email", "", "the new player's address")
	name := fs.String("name", "", "with --email: the new player's own name, to greet them by and to show the others (\"seat bob, played by Eve\"); default: their address's local part")
	bot := fs.Bool("bot", false, "hand the seat to the ruleset's bot")
	reason := fs.String("reason", "", "why (told to the old holder)")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 2 || (*email == "") == !*bot {
		return fmt.Errorf("usage: orrery %s (one of --email or --bot)", c.usage)
	}
	return gmRun(ctx, e, db, func(s *game.Service) (*game.Game, []game.Notice, error) {
		seat, err := seatName(ctx, s, pos[0], pos[1])
		if err != nil {
			return nil, nil, err
		}
		g, n, err := s.ReplaceSeat(ctx, pos[0], seat, game.Seat{Email: *email, Bot: *bot, Name: *name}, *reason)
		if err == nil {
			p, _ := g.PlayerByName(seat)
			if p.Bot {
				fmt.Fprintf(e.stdout, "the bot now plays %s, from step %d\n", p.Name, g.Step+1)
			} else if own := p.OwnName(); *name != "" && own != p.Name {
				fmt.Fprintf(e.stdout, "%s (%s) now plays %s; new secret %s\n", p.Email, own, p.Name, p.Secret)
			} else {
				fmt.Fprintf(e.stdout, "%s now plays %s; new secret %s\n", p.Email, p.Name, p.Secret)
			}
		}
		return g, n, err
	})
}

func gameKick(ctx context.Context, e *env, args []string) error {
	c, fs, db := gameFlags(e, "kick")
	reason := fs.String("reason", "", "why (told to the player)")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 2 {
		return fmt.Errorf("usage: orrery %s", c.usage)
	}
	return gmRun(ctx, e, db, func(s *game.Service) (*game.Game, []game.Notice, error) {
		seat, err := seatName(ctx, s, pos[0], pos[1])
		if err != nil {
			return nil, nil, err
		}
		return s.KickFor(ctx, pos[0], seat, *reason)
	})
}

func gameMessage(ctx context.Context, e *env, args []string) error {
	c, fs, db := gameFlags(e, "message")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) < 2 {
		return fmt.Errorf("usage: orrery %s", c.usage)
	}
	return gmRun(ctx, e, db, func(s *game.Service) (*game.Game, []game.Notice, error) {
		return s.Message(ctx, pos[0], strings.Join(pos[1:], " "))
	})
}

func gameResend(ctx context.Context, e *env, args []string) error {
	c, fs, db := gameFlags(e, "resend")
	to := fs.String("to", "", "only this player (default: every player)")
	turn := fs.Int("turn", -1, "the report of this turn (default: the current report)")
	id, err := parseOneID(fs, args, c.usage)
	if err != nil {
		return err
	}
	if e.shared == nil {
		// Checked before anything is logged: a resend that mails nothing
		// would tell the GM it was done.
		mail, err := mailOptions(e, db.config)
		if err != nil {
			return err
		}
		if mail == nil {
			return fmt.Errorf("game resend mails reports, and no mail is set up here: give --config FILE (with from:), set ORRERY_CONFIG, or run it while orrery serve runs; to read a report without mail, use game show %s --as PLAYER --step N", id)
		}
	}
	var players []string
	if *to != "" {
		players = []string{*to}
	}
	return gmRun(ctx, e, db, func(s *game.Service) (*game.Game, []game.Notice, error) {
		g, err := s.Get(ctx, id)
		if err != nil {
			return nil, nil, err
		}
		step := g.Step
		if *turn >= 0 {
			if step, err = s.StepOfTurn(ctx, id, *turn); err != nil {
				return nil, nil, err
			}
		}
		return s.Resend(ctx, id, step, players)
	})
}

func gameVacation(ctx context.Context, e *env, args []string) error {
	c, fs, db := gameFlags(e, "vacation")
	from := fs.String("from", "", "first day away (YYYY-MM-DD or a time)")
	to := fs.String("to", "", "day back")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 2 || *from == "" || *to == "" {
		return fmt.Errorf("usage: orrery %s", c.usage)
	}
	f, err := parseTime(*from)
	if err != nil {
		return err
	}
	t, err := parseTime(*to)
	if err != nil {
		return err
	}
	return gmRun(ctx, e, db, func(s *game.Service) (*game.Game, []game.Notice, error) {
		seat, err := seatName(ctx, s, pos[0], pos[1])
		if err != nil {
			return nil, nil, err
		}
		return s.DeclareVacation(ctx, pos[0], seat, f, t)
	})
}

func gameExport(ctx context.Context, e *env, args []string) error {
	c, fs, db := gameFlags(e, "export")
	withSecrets := fs.Bool("with-secrets", false, "keep the dice secret and the players' secrets (needed to import the game again)")
	out := fs.String("out", "", "write to FILE, owner-only (0600), instead of standard output: a new file renamed into place, never through a symbolic link")
	id, err := parseOneID(fs, args, c.usage)
	if err != nil {
		return err
	}
	svc, done, err := db.open(e)
	if err != nil {
		return err
	}
	defer done()
	x, err := svc.Export(ctx, id)
	if err != nil {
		return err
	}
	if !*withSecrets {
		x.Redact()
	}
	data, err := json.MarshalIndent(x, "", "  ")
	if err != nil {
		return err
	}
	data = append(data, '\n')
	if *out == "" {
		_, err = e.stdout.Write(data)
		return err
	}
	if err := writeOwnerOnly(*out, data); err != nil {
		return err
	}
	what := "without its secrets (for reading; --with-secrets to import it elsewhere)"
	if *withSecrets {
		what = "with its secrets: keep the file private"
	}
	fmt.Fprintf(e.stdout, "wrote %s to %s (mode 0600), %s\n", id, *out, what)
	return nil
}

func gameImport(ctx context.Context, e *env, args []string) error {
	_, fs, db := gameFlags(e, "import")
	replace := fs.Bool("replace", false, "overwrite a game with the same id")
	file := fs.String("f", "-", "the export file (- for standard input)")
	if _, err := parse(fs, args); err != nil {
		return err
	}
	var r io.Reader = e.stdin
	if *file != "-" {
		f, err := os.Open(*file)
		if err != nil {
			return err
		}
		defer f.Close()
		r = f
	}
	var x game.Export
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&x); err != nil {
		return fmt.Errorf("read the export: %w", err)
	}
	db.create = true
	svc, done, err := db.open(e)
	if err != nil {
		return err
	}
	defer done()
	res, err := svc.Import(ctx, &x, game.ImportOptions{Replace: *replace})
	if err != nil {
		return err
	}
	note := ""
	if res.Edited {
		note = " (its state was edited by hand: logged as a GM edit)"
	}
	fmt.Fprintf(e.stdout, "imported %s at step %d%s; it verifies\n", res.Game.ID, res.Game.Step, note)
	return nil
}

func gameJoin(ctx context.Context, e *env, args []string) error {
	c, fs, db := gameFlags(e, "join")
	email := fs.String("email", "", "the player's address")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 2 {
		return fmt.Errorf("usage: orrery %s", c.usage)
	}
	svc, done, err := db.open(e)
	if err != nil {
		return err
	}
	defer done()
	s, err := settings.Load(ctx, svc.Store(), *email)
	if err != nil {
		return err
	}
	g, err := svc.Join(ctx, pos[0], game.PlayerSpec{Name: pos[1], Email: *email, Lang: string(s.Lang())})
	if err != nil {
		return err
	}
	p, _ := g.PlayerByName(pos[1])
	fmt.Fprintf(e.stdout, "%s joined %s (secret %s): %d of %d seats\n", p.Name, g.ID, p.Secret, len(g.Players), g.Seats)
	if !g.Signup {
		fmt.Fprintf(e.stdout, "%s has started\n", g.ID)
	}
	return nil
}

func gameObserve(ctx context.Context, e *env, args []string) error {
	c, fs, db := gameFlags(e, "observe")
	off := fs.Bool("off", false, "unsubscribe")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 2 {
		return fmt.Errorf("usage: orrery %s", c.usage)
	}
	return gmRun(ctx, e, db, func(s *game.Service) (*game.Game, []game.Notice, error) {
		g, n, err := s.Observe(ctx, pos[0], pos[1], !*off)
		if err == nil {
			fmt.Fprintf(e.stdout, "observers of %s: %s\n", g.ID, strings.Join(g.Observers, ", "))
		}
		return g, n, err
	})
}

func gameOrders(ctx context.Context, e *env, args []string) error {
	for _, a := range args {
		if a == "--help" || a == "-h" || a == "-help" {
			c := sub("orders")
			fmt.Fprintf(e.stdout, "Usage: orrery %s\n\n%s\n", c.usage, c.about)
			return nil
		}
	}
	return runOrders(ctx, e, append(args, "--source", "gm"))
}
