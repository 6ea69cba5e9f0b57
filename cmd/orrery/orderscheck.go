package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"orrery/engine"
	"orrery/engine/game"
	"orrery/engine/lang"
	mailcmd "orrery/pbem/command"
	"orrery/templates"
)

const ordersCheckAbout = `Checks an orders file without sending it; nothing is stored.

  orrery orders check RULESET -f FILE       offline, with no game at hand
                                            (like Eressea's echeck): every
                                            line's grammar, and what the
                                            ruleset can check without a game
  orrery orders check --game ID --as PLAYER -f FILE
                                            against PLAYER's view of the game
                                            now, as sending them would

Every bad line is reported, with its number and a suggested fix.

The file is read as the server reads a mail's orders: a line
ORDERS [game] TURN n (or NEXT) above them says they are for that later
turn (the server holds them and checks them again when the turn asks for
them; with --game, the turn is checked against the game's), and a line
PREVIEW [game] that the server would only answer with what they would do
if the step resolved now, storing nothing. --lang ru answers in Russian.`

func ordersCheck(ctx context.Context, e *env, args []string) error {
	fs := flags(e, "orders check", "orders check RULESET -f FILE | orders check --game ID --as PLAYER -f FILE", ordersCheckAbout)
	db := addDBFlags(fs)
	file := fs.String("f", "-", "orders file (- for standard input)")
	gameID := fs.String("game", "", "check against this game's current state")
	as := fs.String("as", "", "with --game: the player whose view to check against (a seat name, or the address that holds the seat)")
	language := fs.String("lang", "", "the answer's language: en (the default) or ru")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	tag := lang.English
	if *language != "" {
		t, ok := lang.Parse(*language)
		if !ok {
			return fmt.Errorf("orders check --lang %q: the answer is written in en or ru", *language)
		}
		tag = t
	}
	text, err := readInput(e, *file)
	if err != nil {
		return err
	}
	cat, err := templates.WebCatalog()
	if err != nil {
		return err
	}
	out := &checkOut{w: e.stdout, env: lang.Env{Tag: tag, Catalogs: []*lang.Catalog{cat}}}
	text, head, headErr := ordersHeading(text, *gameID)
	var errs []engine.LineError
	syntaxOnly := false // the OK line says only the grammar was checked
	if headErr != nil {
		errs = append(errs, *headErr)
	}
	switch {
	case *gameID != "":
		if *as == "" {
			return fmt.Errorf("orders check --game needs --as PLAYER")
		}
		svc, done, err := db.open(e)
		if err != nil {
			return err
		}
		defer done()
		if *as, err = seatName(ctx, svc, *gameID, *as); err != nil {
			return err
		}
		g, err := svc.Get(ctx, *gameID)
		if err != nil {
			return err
		}
		if _, ok := g.PlayerByName(*as); !ok {
			return fmt.Errorf("there is no player %q in game %s", *as, g.ID)
		}
		out.withRuleset(e.rulesets, g.Ruleset)
		if head != nil && head.cmd.Game != "" && head.cmd.Game != g.ID {
			errs = append(errs, engine.LineErr(head.line, head.text,
				lang.M("this line is about game %s, but the orders are checked against game %s", head.cmd.Game, g.ID),
				lang.M("write ORDERS %s, or check them with --game %s", g.ID, head.cmd.Game)))
			break
		}
		if head.alone(text) {
			out.say(head.aloneMsg())
			return nil
		}
		if turn := head.turn(); turn != 0 {
			if turn == mailcmd.NextTurn {
				turn = g.Turn + 1
			}
			if turn <= g.Turn {
				errs = append(errs, engine.LineErr(head.line, head.text,
					lang.M("game %s is at turn %d: orders for turn %d are sent without TURN, as usual", g.ID, g.Turn, turn),
					lang.M("write ORDERS %s, then the orders below it", g.ID)))
				break
			}
			out.say(lang.M("These orders are for turn %d of game %s, which is at turn %d now: the server holds them and applies them when that turn asks %s for orders, checked then against the position as it stands.", turn, g.ID, g.Turn, *as))
			rs, err := engine.Find(e.rulesets, g.Ruleset)
			if err != nil {
				return err
			}
			if _, ok := rs.(engine.SyntaxChecker); !ok {
				out.say(lang.M("%s has no offline check: the orders are checked when that turn asks for them", rs.Info().Name))
				break
			}
			more, _ := out.syntax(rs, text)
			errs, syntaxOnly = append(errs, more...), true
			break
		}
		if head.isPreview() {
			out.say(previewMsg)
		}
		res, err := svc.Check(ctx, game.Input{Game: *gameID, Player: *as, Text: text})
		if err != nil {
			return err
		}
		errs = append(errs, res.Errors...)
		if len(errs) == 0 {
			ask := res.Prompt.Ask
			if res.Prompt.Msg != nil {
				ask = lang.Render(out.env, *res.Prompt.Msg)
			}
			out.say(lang.M("orders OK for %s (%s):", *as, ask))
			for _, l := range res.Orders {
				fmt.Fprintf(out.w, "  %s\n", l)
			}
			return nil
		}
	case len(pos) == 1:
		rs, err := engine.Find(e.rulesets, pos[0])
		if err != nil {
			return err
		}
		out.withRuleset(e.rulesets, pos[0])
		switch turn := head.turn(); {
		case head.alone(text):
			out.say(head.aloneMsg())
			return nil
		case turn == mailcmd.NextTurn:
			out.say(lang.M("These orders are for the next turn (ORDERS NEXT): the server holds them and applies them when that turn asks you for orders, checked then against the position as it stands."))
		case turn != 0:
			out.say(lang.M("These orders are for turn %d (ORDERS TURN %d): the server holds them and applies them when that turn asks you for orders, checked then against the position as it stands.", turn, turn))
		case head.isPreview():
			out.say(previewMsg)
		}
		more, err := out.syntax(rs, text)
		if err != nil {
			return err
		}
		errs, syntaxOnly = append(errs, more...), true
	default:
		return fmt.Errorf("usage: orrery orders check RULESET -f FILE, or --game ID --as PLAYER -f FILE")
	}
	if len(errs) == 0 {
		if syntaxOnly {
			out.say(lang.M("orders OK (syntax only: names and numbers are checked when you send them)"))
		}
		return nil
	}
	out.lineErrors(errs)
	return errorCount(len(errs))
}

// previewMsg says what the server does with orders below PREVIEW.
var previewMsg = lang.M("A PREVIEW: the server would not take these orders, only answer you, and nobody else, with what they would do if the step resolved now (every other player on their defaults, dice that are not the game's); nothing is stored.")

// heading is an orders file's ORDERS or PREVIEW line, read as the daemon
// reads a mail's (pbem/route with pbem/command's parsers).
type heading struct {
	line int // 1-based
	text string
	cmd  mailcmd.Command
}

// ordersHeading finds the first line of text that is an ORDERS or PREVIEW
// command, as a mail's would be: every line below it is an order, as in a
// mail. It returns text with that line blanked, so that the ruleset's line
// numbers stay the file's; the line itself (nil for none); and, for a line
// that starts like one of them and does not parse, its error (the line is
// blanked too: it is not an order). game is the game the file is about
// ("" offline: the mail's game, whichever it is).
func ordersHeading(text, game string) (string, *heading, *engine.LineError) {
	in := game
	if in == "" {
		in = mailsGame
	}
	lines := strings.Split(text, "\n")
	for i, raw := range lines {
		line := strings.TrimSpace(raw)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		word := mailcmd.Name(strings.ToUpper(f[0]))
		d := mailcmd.Lookup(word)
		if d != &mailcmd.OrdersCmd && d != &mailcmd.PreviewCmd {
			continue
		}
		cmd, ok, msg := d.Parse(mailcmd.In{Word: word, Args: f[1:], Line: i + 1, Game: in})
		if cmd.Game == mailsGame {
			cmd.Game = ""
		}
		lines[i] = ""
		rest := strings.Join(lines, "\n")
		if !ok {
			if msg.IsZero() {
				msg = d.Usage
			}
			le := engine.LineErr(i+1, line, msg, d.Usage)
			return rest, nil, &le
		}
		return rest, &heading{line: i + 1, text: line, cmd: cmd}, nil
	}
	return text, nil, nil
}

// mailsGame stands, offline, for the game of the mail the orders would be
// in (PREVIEW alone needs one); it is no game id, so it never matches one.
const mailsGame = "\x00mail"

// turn is the later turn the orders are for (mailcmd.NextTurn for NEXT),
// or 0: the current step's.
func (h *heading) turn() int {
	if h == nil || h.cmd.Name != mailcmd.Orders {
		return 0
	}
	return h.cmd.Turn
}

func (h *heading) isPreview() bool { return h != nil && h.cmd.Name == mailcmd.Preview }

// alone says whether the heading has no orders below it: then the server
// answers a question instead (the held orders, or a preview of the sent).
func (h *heading) alone(text string) bool {
	if h == nil {
		return false
	}
	for _, l := range strings.Split(text, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			return false
		}
	}
	return true
}

func (h *heading) aloneMsg() lang.Msg {
	if h.isPreview() {
		return lang.M("A PREVIEW with no orders below it: the server would answer you with what the orders you have sent for the step (else your default) would do if it resolved now; nothing is stored.")
	}
	return lang.M("An ORDERS line with no orders below it: the server would answer with the orders you hold for later turns of the game.")
}

// checkOut writes the check's answer in the reader's language.
type checkOut struct {
	w   io.Writer
	env lang.Env
}

// withRuleset reads the ruleset's own messages (its line errors) first.
func (o *checkOut) withRuleset(rulesets []engine.Ruleset, name string) {
	rs, err := engine.Find(rulesets, name)
	if err != nil {
		return
	}
	if c, ok := rs.(engine.Cataloger); ok {
		o.env.Catalogs = append([]*lang.Catalog{c.Catalog()}, o.env.Catalogs...)
	}
}

func (o *checkOut) say(m lang.Msg) { fmt.Fprintln(o.w, lang.Render(o.env, m)) }

// syntax is the ruleset's offline check of text; a ruleset without one
// is an error.
func (o *checkOut) syntax(rs engine.Ruleset, text string) ([]engine.LineError, error) {
	sc, ok := rs.(engine.SyntaxChecker)
	if !ok {
		return nil, fmt.Errorf("%s has no offline check; use orders check --game ID --as PLAYER", rs.Info().Name)
	}
	return sc.CheckSyntax(text), nil
}

// lineErrors writes errs as printLineErrors does, in the reader's
// language where they carry messages.
func (o *checkOut) lineErrors(errs []engine.LineError) {
	for _, le := range errs {
		why, fix := le.Msg, le.Fix
		if le.Why != nil {
			why = lang.Render(o.env, *le.Why)
		}
		if le.Hint != nil {
			fix = lang.Render(o.env, *le.Hint)
		}
		if le.Line > 0 {
			fmt.Fprintf(o.w, "  %s\n", lang.Render(o.env, lang.M("line %d: %s", le.Line, le.Text)))
			fmt.Fprintf(o.w, "    %s\n", why)
		} else {
			fmt.Fprintf(o.w, "  %s\n", why)
		}
		if fix != "" {
			fmt.Fprintf(o.w, "    %s %s\n", lang.Render(o.env, lang.M("fix:")), fix)
		}
	}
}
