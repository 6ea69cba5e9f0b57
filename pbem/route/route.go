// Package route decides what a player's mail asks for: which game it is
// about, the player's secret, the commands it holds and the orders text.
//
// # The mail language
//
// A mail is routed to a game by a tag in its subject, "[demo1]" anywhere
// (so that "Re: [demo1] Turn 3 report" works), or by a first line
// "GAME demo1". The player's secret may be given in the same tag
// ("[demo1 k7f3q]" — the reports we send carry it, so a plain reply is
// authenticated), as "secret=k7f3q" anywhere in the subject, or on a line
// "SECRET k7f3q" anywhere in the body. Bracketed subject words that are not
// a game ("[EXTERNAL]", "[SPAM]") are ignored.
//
// The body holds one command or order per line, case-insensitive; blank
// lines and lines starting with '#' are ignored by every ruleset:
//
//	HELP [ruleset]            what you can send (and a ruleset's orders)
//	LIST [page N]             games (a stranger sees those open to JOIN,
//	                          a player theirs first, the GM all), 20 a page
//	RULES <ruleset>           the rules summary and order language
//	JOIN <game> [seat-name]   take a seat in a game that is signing up
//	STATUS [game]             the current board and who is still to send
//	BOARD [game]              the same as STATUS
//	HISTORY [game] [turn]     the report of a past turn (the last without turn), with the press of then
//	RESIGN [game]             leave the game
//	WAIT [game]               ask the game not to resolve early this turn
//	ORDERS [game]             everything below this line is orders
//	PRESS [game] TO ann, bob  a message to those players (TO ALL: everyone);
//	  ...                     its lines follow, up to a line END
//	END
//	VACATION [game] FROM 2026-12-20 TO 2027-01-03   a declared absence
//	OBSERVE <game>            receive the public reports of a game
//	UNOBSERVE <game>          stop receiving them
//	RESEND [game] [turn]      your report of the last (or that) turn again
//	CONFIRM [code]            apply orders I held as a possibly stale copy,
//	                          or confirm a JOIN or OBSERVE (in a reply to the
//	                          mail that says so, or with the code it gives)
//	SET <key> <value>         a setting of the sender's address, in every
//	                          game: SET LANG ru, SET TZ Europe/Moscow
//	                          (pbem/settings checks keys and values)
//	SETTINGS                  the sender's settings
//	MY GAMES                  the games the sender plays or observes, and
//	                          their record
//	SECRET <game> [seat]      mail the seat's secret to the seat's own
//	                          address (SECRET alone: this mail's game)
//	NEW <ruleset> [seats] [name=value ...]   open a game for signup
//	START <game>              start a game you opened, with the players
//	                          it has
//	INVITE <game> <address>...   invite addresses to a game you opened
//	GM <verb> <game> ...      the game master's commands (from the GM's
//	                          address with the GM secret): PAUSE, RESUME,
//	                          DEADLINE, ADVANCE, ROLLBACK, REPLACE, KICK,
//	                          MESSAGE, RESEND, STATUS, VACATION, ORDERS
//	                          (GM ORDERS demo1 ann, then her orders, END),
//	                          JOIN (GM JOIN demo1 carl carl@example.org),
//	                          OBSERVE (GM OBSERVE demo1 olga@example.org
//	                          [OFF]);
//	                          and what `orrery game` prints: GM LIST,
//	                          GM SHOW demo1 [AS ann | PUBLIC], GM PLAYERS,
//	                          GM LOG, GM EXPORT and GM VERIFY demo1
//
// A command's game may be left out in a mail routed to a game. In a game
// mail, every line that is not a command is an order unless it is plainly
// not one (a greeting, chatter, a sign-off, a board or a report pasted
// back: see Classifier for the rule); those are listed as not read, never
// a reason to refuse the mail. ORDERS is the default, and an explicit
// ORDERS line only matters to send an order that looks like a command
// (after it every line is an order). A line counts as a command only when
// its first word is a command word and its arguments fit; "join fleet 1 to
// fleet 2" stays an order. In a mail routed to no game, a line that looks
// like a command but is not one is an error naming the line, and chatter
// is listed as not read.
//
// Lines are numbered as the sender sees them in the mail they sent, quotes
// included (inmail.Message.Lines). When nothing above the signature is an
// order or a command, the lines below it are read too (the signature's own
// paragraph never is). An order line that a mail client broke in two
// (Gmail wraps text at 76 columns) is joined again.
//
// Each command's words, parser and usage are its descriptor in
// pbem/command; this package finds the descriptor by the line's first
// word. GAME and SECRET <secret>, which route the mail rather than ask
// for anything, are read here.
//
// When the mail has a text attachment named like orders ("orders.txt"),
// the attachment holds the orders; the body is then read for GAME, SECRET
// and commands only, and its other lines (prose such as "orders attached")
// are ignored.
package route

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"orrery/engine"
	"orrery/engine/lang"
	"orrery/pbem/command"
	"orrery/pbem/inmail"
)

// Name is a command word, in upper case; the commands and their words
// are pbem/command's table.
type Name = command.Name

// The commands a mail may hold (see pbem/command for each).
const (
	Help       = command.Help
	List       = command.List
	Rules      = command.Rules
	Join       = command.Join
	Status     = command.Status
	Board      = command.Board
	History    = command.History
	Resign     = command.Resign
	Wait       = command.Wait
	Orders     = command.Orders
	Press      = command.Press
	Vacation   = command.Vacation
	Observe    = command.Observe
	Unobserve  = command.Unobserve
	Resend     = command.Resend
	Confirm    = command.Confirm
	Set        = command.Set
	Settings   = command.Settings
	GM         = command.GM
	MyGames    = command.MyGames
	SendSecret = command.SendSecret
	New        = command.New
	Start      = command.Start
	Invite     = command.Invite
)

// Command is one command line of a mail.
type Command = command.Command

// Result is what a mail asks for.
type Result struct {
	// Game is the game the mail is about ("" for none), and GameFrom
	// where it was found: "subject" or "line N".
	Game, GameFrom string
	// Secret is the player's secret as given ("" for none).
	Secret, SecretFrom string
	// Commands in the order of their lines. An explicit ORDERS line is
	// listed too; orders without one are not a command.
	Commands []Command
	// Orders is the orders text for game.Input.Text. Lines that were
	// commands, GAME or SECRET, or not read as orders, are blanked, so
	// that a LineError's line number n is line Line(n) of the mail.
	Orders string
	// OrdersFrom is "" for the body text, or the attachment's file name.
	OrdersFrom string
	// HasOrders is set when Orders has a line that is neither blank nor
	// a '#' comment.
	HasOrders bool
	// OrderLines are the lines read as orders, and Ignored the lines
	// read as neither orders nor commands (see Classifier), each with its
	// line number in the mail.
	OrderLines, Ignored []inmail.Line
	// PastedFrom and PastedTo are the first and last line of a report of
	// ours pasted back into the mail (0 for none); its lines are among
	// Ignored.
	PastedFrom, PastedTo int
	// Errors are problems with the mail itself (not with orders, which
	// only the ruleset can judge), each with its line and a fix.
	Errors []engine.LineError
	// Unknown are the lines refused as an unknown command word (each
	// has its error in Errors): in a mail that names no game they may be
	// orders whose subject lost its [game secret] tag, which the daemon,
	// knowing the sender's games, answers once instead of once a line.
	Unknown []inmail.Line
	// nums[i] is the mail's line number of line i+1 of Orders.
	nums []int
	// gameLine and secretLine are the lines Game and Secret came from
	// (0: the subject, or none), to name them in an error.
	gameLine, secretLine int
}

// Empty reports whether the mail asked for nothing: no command, no orders,
// no error, and no line at all that was not read. The daemon answers such
// a mail with HELP (or, in a game, takes it as empty orders).
func (r *Result) Empty() bool {
	return len(r.Commands) == 0 && !r.HasOrders && len(r.Errors) == 0 && len(r.Ignored) == 0
}

// Line is the line of the mail (as its sender sees it, quotes included)
// that line n of Orders came from; with orders from an attachment, n.
func (r *Result) Line(n int) int {
	if n >= 1 && n <= len(r.nums) {
		return r.nums[n-1]
	}
	return n
}

// Options tune routing.
type Options struct {
	// IsGame says whether a subject tag names a game the daemon knows.
	// Nil accepts every well-formed game id.
	IsGame func(id string) bool
	// Classifier gives the classifier of a game's order language (see
	// Classifier), or of every ruleset's for game "" (a mail naming no
	// game). Nil reads every line that is not a command as an order in
	// a game mail, and as an error in any other.
	Classifier func(game string) *Classifier
	// IsRuleset says whether NEW's word names a ruleset; nil accepts any.
	IsRuleset func(name string) bool
}

// Route reads a parsed mail.
func Route(m *inmail.Message, opt Options) *Result {
	var att *inmail.Attachment
	if len(m.Attachments) > 0 {
		att = &m.Attachments[0]
	}
	r := parseLines(m.Subject, m.Lines, m.Below, att, opt)
	if opt.Classifier != nil && len(m.SignOff) > 0 && (len(r.Ignored) == 0 || r.Ignored[len(r.Ignored)-1].N < m.SignOff[0].N) {
		// The closing ("Thanks,", "Ann") comes after every line read.
		r.Ignored = append(r.Ignored, m.SignOff...)
	}
	return r
}

var (
	idPattern     = command.IDPattern
	secretPattern = command.SecretPattern
	tagPattern    = regexp.MustCompile(`\[([^\[\]]{1,100})\]`)             // [demo1] or [demo1 k7f3q]
	secretInSubj  = regexp.MustCompile(`(?i)\bsecret\s*[=:]\s*([^\s\]]+)`) // secret=k7f3q
)

// Parse reads a subject, a body text and an optional orders attachment.
// The text's lines are numbered from 1.
func Parse(subject, text string, att *inmail.Attachment, opt Options) *Result {
	var lines []inmail.Line
	if text != "" {
		for i, l := range strings.Split(strings.TrimRight(strings.ReplaceAll(text, "\r\n", "\n"), "\n"), "\n") {
			lines = append(lines, inmail.Line{N: i + 1, Text: l})
		}
	}
	return parseLines(subject, lines, nil, att, opt)
}

// parseLines reads the player's lines, and looks past the signature (the
// lines below) when nothing above it was an order or a command: mutt
// users who reply with the cursor under their signature write there. The
// signature itself, the first paragraph below the separator, is never
// read as orders.
func parseLines(subject string, lines, below []inmail.Line, att *inmail.Attachment, opt Options) *Result {
	r := parse(subject, lines, 0, 0, att, opt)
	if len(below) == 0 || att != nil || r.HasOrders || len(r.Commands) > 0 || len(r.Errors) > 0 || opt.Classifier == nil {
		return r
	}
	sig := 0
	for sig < len(below) && strings.TrimSpace(below[sig].Text) != "" {
		sig++
	}
	all := append(append([]inmail.Line(nil), lines...), below...)
	if past := parse(subject, all, len(lines), len(lines)+sig, att, opt); past.HasOrders || len(past.Commands) > 0 {
		return past
	}
	return r
}

// parse reads lines; those from index skipFrom up to skipTo (a signature
// looked past) are not read, whatever they hold.
func parse(subject string, lines []inmail.Line, skipFrom, skipTo int, att *inmail.Attachment, opt Options) *Result {
	r := &Result{}
	r.subject(subject, opt)
	// GAME lines first, so that commands and orders above one know their game.
	for _, l := range lines {
		if f := strings.Fields(l.Text); len(f) == 2 && strings.EqualFold(f[0], "GAME") && idPattern.MatchString(strings.ToLower(f[1])) {
			r.setGame(strings.ToLower(f[1]), l.N, strings.TrimSpace(l.Text))
		}
	}
	var cls *Classifier
	if opt.Classifier != nil {
		cls = opt.Classifier(r.Game)
	}
	texts := make([]string, len(lines))
	for i, l := range lines {
		texts[i] = l.Text
	}
	skip := make([]bool, len(lines)) // lines not read, whatever they hold
	for i := skipFrom; i < skipTo && i < len(lines); i++ {
		skip[i] = true
	}
	if cls != nil && r.Game != "" && att == nil {
		r.pasted(lines, cls, skip)
		rejoin(texts, cls, skip)
	}
	orders := make([]string, len(lines))
	ordersMode := false
	var secretLine *inmail.Line // the first SECRET line read as the sender's secret
	press := -1                 // index in r.Commands of a PRESS still reading its text
	var pressText []string
	for i, l := range lines {
		n, raw := l.N, texts[i]
		line := strings.TrimSpace(raw)
		if press >= 0 {
			if strings.EqualFold(line, "END") {
				r.Commands[press].Text = strings.Trim(strings.Join(pressText, "\n"), "\n")
				press, pressText = -1, nil
			} else {
				pressText = append(pressText, strings.TrimRight(raw, " \t"))
			}
			continue
		}
		if skip[i] {
			if line != "" {
				r.Ignored = append(r.Ignored, inmail.Line{N: n, Text: line})
			}
			continue
		}
		if line == "" || strings.HasPrefix(line, "#") || ordersMode {
			orders[i] = raw
			if line != "" && !strings.HasPrefix(line, "#") {
				r.OrderLines = append(r.OrderLines, inmail.Line{N: n, Text: line})
			}
			continue
		}
		fields := strings.Fields(line)
		word := Name(strings.ToUpper(fields[0]))
		args := fields[1:]
		if word == "GAME" { // routing, not a command
			if !(len(args) == 1 && idPattern.MatchString(strings.ToLower(args[0]))) {
				r.Errors = append(r.Errors, engine.LineErr(n, line, lang.M("GAME needs one game id"), lang.M("write it like: GAME demo1")))
			}
			continue
		}
		d := command.Lookup(word)
		var cmd Command
		ok, msg := false, lang.Msg{}
		if d != nil {
			cmd, ok, msg = d.Parse(command.In{Word: word, Args: args, Line: n, Game: r.Game, IsGame: opt.IsGame, IsRuleset: opt.IsRuleset})
		}
		if d == &command.SecretCmd && !ok {
			// Not a request for a secret: the sender gives theirs.
			if len(args) == 1 && secretPattern.MatchString(args[0]) {
				r.setSecret(args[0], n, line)
				if secretLine == nil {
					secretLine = &inmail.Line{N: n, Text: line}
				}
			} else {
				r.Errors = append(r.Errors, engine.LineErr(n, line, lang.M("SECRET needs one word, your secret"),
					lang.M("write it like: SECRET k7f3q (it is in your welcome mail)")))
			}
			continue
		}
		switch {
		case ok:
			r.Commands = append(r.Commands, cmd)
			if command.ReadsBlock(cmd) {
				press = len(r.Commands) - 1
			}
			// Below PREVIEW, as below ORDERS, every line is an order (to try).
			ordersMode = cmd.Name == Orders || cmd.Name == command.Preview
			if ordersMode && r.Game == "" && cmd.Game != "" {
				r.Game, r.GameFrom, r.gameLine = cmd.Game, fmt.Sprintf("line %d", n), n
			}
		case att != nil:
			// Prose beside an orders attachment ("orders attached").
			r.Ignored = append(r.Ignored, inmail.Line{N: n, Text: line})
		case cls != nil && !cls.Order(line):
			r.Ignored = append(r.Ignored, inmail.Line{N: n, Text: line})
		case r.Game != "":
			orders[i] = raw // an order, for the ruleset to judge
			r.OrderLines = append(r.OrderLines, inmail.Line{N: n, Text: line})
		case !msg.IsZero():
			r.Errors = append(r.Errors, engine.LineErr(n, line, msg, d.Usage))
		default:
			r.unknown(n, line, string(word))
		}
	}
	if press >= 0 {
		c := r.Commands[press]
		r.Commands = append(r.Commands[:press], r.Commands[press+1:]...)
		what := string(c.Name)
		if c.Name == GM {
			what = "GM " + c.Verb
		}
		r.Errors = append(r.Errors, engine.LineErr(c.Line, what, lang.M("this %s has no END line, so it was not applied", what),
			lang.M("write the text below the %s line and a line END after it", what)))
	}
	if att != nil {
		r.OrdersFrom = att.Name
		r.Orders = att.Text
		r.OrderLines = nil
		for i, l := range strings.Split(att.Text, "\n") {
			if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
				r.OrderLines = append(r.OrderLines, inmail.Line{N: i + 1, Text: l})
			}
		}
	} else {
		r.Orders = strings.Join(orders, "\n")
		if r.Orders != "" {
			r.Orders += "\n"
		}
		for _, l := range lines {
			r.nums = append(r.nums, l.N)
		}
	}
	r.HasOrders = len(engine.OrderLines(r.Orders)) > 0
	if r.HasOrders && r.Game == "" {
		r.Errors = append(r.Errors, engine.LineErr(0, "", lang.M("these orders name no game"),
			lang.M("put the game in the subject like [demo1], or write GAME demo1 as the first line")))
	}
	if secretLine != nil && opt.IsGame != nil && r.Game == "" && len(r.Commands) == 0 && !r.HasOrders && len(r.Errors) == 0 {
		// SECRET <word> is a request when the word names a game, else
		// the sender's secret. Given to no game and asking nothing, it
		// was most likely a request naming a game that is not here:
		// say which way it was read rather than answer HELP.
		word := strings.Fields(secretLine.Text)[1]
		r.Errors = append(r.Errors, engine.LineErr(secretLine.N, secretLine.Text,
			lang.M("I read SECRET %s as your secret, but there is no game %s here and your mail names no other game, so it proves nothing", word, strings.ToLower(word)),
			lang.M("to ask me for your secret in a game, write SECRET and the game's name, like SECRET demo1 (MY GAMES lists yours); to give your secret, put the game beside it, like [demo1 yoursecret] in the subject")))
	}
	return r
}

// commandWords lists the words for suggestions, in the HELP order (GAME
// and SECRET, which also route a mail, near the end as they always were).
var commandWords = func() []Name {
	var words []Name
	for _, d := range command.All {
		if d.Name != SendSecret && d.Name != GM {
			words = append(words, d.Name)
		}
	}
	return append(words, "GAME", SendSecret, GM)
}()

// usage is the fix for a mistyped command word's best guess (the zero
// Msg for a word without a descriptor: GAME).
func usage(word Name) lang.Msg {
	if d := command.Lookup(word); d != nil {
		return d.Usage
	}
	return lang.Msg{}
}

func (r *Result) subject(subject string, opt Options) {
	var games []string
	for _, m := range tagPattern.FindAllStringSubmatch(subject, -1) {
		f := strings.Fields(m[1])
		if len(f) == 0 || len(f) > 2 {
			continue
		}
		id := strings.ToLower(f[0])
		if !idPattern.MatchString(id) || (opt.IsGame != nil && !opt.IsGame(id)) {
			continue
		}
		if !slices.Contains(games, id) {
			games = append(games, id)
		}
		if len(f) == 2 && secretPattern.MatchString(f[1]) && r.Secret == "" {
			r.Secret, r.SecretFrom = f[1], "subject"
		}
	}
	switch len(games) {
	case 0:
	case 1:
		r.Game, r.GameFrom = games[0], "subject"
	default:
		r.Errors = append(r.Errors, engine.LineErr(0, "",
			lang.MN("the subject names %d game: %s", "the subject names %d games: %s", len(games), strings.Join(games, ", ")),
			lang.M("send one mail per game")))
	}
	if m := secretInSubj.FindStringSubmatch(subject); m != nil && r.Secret == "" && secretPattern.MatchString(m[1]) {
		r.Secret, r.SecretFrom = m[1], "subject"
	}
}

// setGame takes game id from line n, a GAME line (the subject, read
// first, has set r.Game already if it names one).
func (r *Result) setGame(id string, n int, line string) {
	if r.Game != "" && r.Game != id {
		why := lang.M("this line names game %s but the subject names %s", id, r.Game)
		if r.gameLine > 0 {
			why = lang.M("this line names game %s but line %d names %s", id, r.gameLine, r.Game)
		}
		r.Errors = append(r.Errors, engine.LineErr(n, line, why, lang.M("send one mail per game")))
		return
	}
	if r.Game == "" {
		r.Game, r.GameFrom, r.gameLine = id, fmt.Sprintf("line %d", n), n
	}
}

// setSecret takes secret s from line n, a SECRET line.
func (r *Result) setSecret(s string, n int, line string) {
	if r.Secret != "" && r.Secret != s {
		why := lang.M("a second, different secret (the subject gave another)")
		if r.secretLine > 0 {
			why = lang.M("a second, different secret (line %d gave another)", r.secretLine)
		}
		r.Errors = append(r.Errors, engine.LineErr(n, line, why, lang.M("give your secret once")))
		return
	}
	if r.Secret == "" {
		r.Secret, r.SecretFrom, r.secretLine = s, fmt.Sprintf("line %d", n), n
	}
}

// listedCommands are the command words the fix of an unknown command
// lists: every player's command, in the HELP order (the sentence around
// them is a message, so the list is an argument, kept from the table).
var listedCommands = func() []any {
	var words []any
	for _, d := range command.All {
		if d.Kind != command.GMKind {
			words = append(words, string(d.Name))
		}
	}
	return words
}()

func (r *Result) unknown(n int, line, word string) {
	// The command words stay as they are (the mail language's words);
	// the sentence around them is the reader's language.
	fix := lang.M("the commands are %s; to send orders put the game in the subject like [demo1] or write GAME demo1 first",
		lang.And(listedCommands...))
	if best, d := closest(word); d <= 1 || d == 2 && len(word) >= 5 {
		fix = lang.M("did you mean %s? (%s)", string(best), usage(best))
		if usage(best).IsZero() {
			fix = lang.M("did you mean %s?", string(best))
		}
	}
	r.Errors = append(r.Errors, engine.LineErr(n, line, lang.M("unknown command %q", word), fix))
	r.Unknown = append(r.Unknown, inmail.Line{N: n, Text: line})
}

func closest(word string) (Name, int) {
	best, bd := Name(""), 1<<30
	for _, c := range commandWords {
		if d := engine.EditDistance(word, string(c)); d < bd {
			best, bd = c, d
		}
	}
	return best, bd
}
