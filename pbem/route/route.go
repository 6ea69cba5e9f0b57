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
// When the mail has a text attachment named like orders ("orders.txt"),
// the attachment holds the orders; the body is then read for GAME, SECRET
// and commands only, and its other lines (prose such as "orders attached")
// are ignored.
package route

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"orrery/engine"
	"orrery/pbem/inmail"
	"orrery/pbem/settings"
)

// Name is a command word, in upper case.
type Name string

// The commands a mail may hold.
const (
	Help    Name = "HELP"
	List    Name = "LIST"
	Rules   Name = "RULES"
	Join    Name = "JOIN"
	Status  Name = "STATUS"
	Board   Name = "BOARD"
	History Name = "HISTORY"
	Resign  Name = "RESIGN"
	Wait    Name = "WAIT"
	Orders  Name = "ORDERS"
	Press   Name = "PRESS"
	// Vacation, Observe and Unobserve manage absences and observers.
	Vacation  Name = "VACATION"
	Observe   Name = "OBSERVE"
	Unobserve Name = "UNOBSERVE"
	Resend    Name = "RESEND"
	// Confirm applies orders held as a possibly stale copy; it is
	// written in a reply to the mail that says they are held.
	Confirm Name = "CONFIRM"
	// Set and Settings change and show the sender's settings (pbem/settings).
	Set      Name = "SET"
	Settings Name = "SETTINGS"
	// GM is a game master's command; its Verb says which.
	GM Name = "GM"
	// Self-service (issue 18): MY GAMES lists the sender's games,
	// SECRET <game> [seat] mails a seat's secret to the seat's own
	// address, NEW opens a game for signup, and its creator may START it
	// early and INVITE addresses to it.
	MyGames    Name = "MY GAMES"
	SendSecret Name = "SECRET"
	New        Name = "NEW"
	Start      Name = "START"
	Invite     Name = "INVITE"
)

// The verbs of GM commands.
var gmVerbs = []string{"PAUSE", "RESUME", "DEADLINE", "ADVANCE", "ROLLBACK", "REPLACE", "KICK", "MESSAGE", "RESEND",
	"STATUS", "VACATION", "ORDERS", "JOIN", "OBSERVE", "LIST", "SHOW", "PLAYERS", "LOG", "EXPORT", "VERIFY"}

// readsBlock says whether cmd takes the lines below it, up to END, as its
// Text: PRESS, GM ORDERS, and GM MESSAGE with no text on its line.
func readsBlock(cmd Command) bool {
	return cmd.Name == Press || cmd.Name == GM && (cmd.Verb == "ORDERS" || cmd.Verb == "MESSAGE" && cmd.Text == "")
}

// Command is one command line of a mail.
type Command struct {
	Name    Name
	Line    int    // 1-based line in the mail's text (inmail.Message.Text)
	Game    string // the game it is about: its argument, else the mail's game
	Ruleset string // RULES
	Seat    string // JOIN's optional seat name
	Turn    int    // HISTORY's and RESEND's turn; 0 = the last one
	Page    int    // LIST's page, from 1
	// To names PRESS's recipients (empty: everyone); Text is its message,
	// GM MESSAGE's text, or the reason of GM PAUSE, DEADLINE, ROLLBACK.
	To   []string
	Text string
	// From and Until bound a VACATION (Until is the day after the last
	// day away, at 00:00 UTC).
	From, Until time.Time
	// Verb is a GM command's verb (PAUSE…); Args its words after the game.
	Verb string
	Args []string
	// Token is CONFIRM's code, from the mail that asks to confirm a JOIN
	// or an OBSERVE ("" in a plain reply to that mail).
	Token string
}

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
	// nums[i] is the mail's line number of line i+1 of Orders.
	nums []int
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
	idPattern     = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,31}$`)        // engine/game's game id
	seatPattern   = regexp.MustCompile(`^[a-z][a-z0-9_-]{0,15}$`)          // engine/game's seat name
	secretPattern = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)            // what we issue, with room to spare
	tokenPattern  = regexp.MustCompile(`^[a-z0-9]{16}$`)                   // CONFIRM's code (pbem/daemon's consent tokens)
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
			r.setGame(strings.ToLower(f[1]), fmt.Sprintf("line %d", l.N), l.N, strings.TrimSpace(l.Text))
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
	press := -1 // index in r.Commands of a PRESS still reading its text
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
		switch word {
		case "GAME":
			if !(len(args) == 1 && idPattern.MatchString(strings.ToLower(args[0]))) {
				r.errorf(n, line, "GAME needs one game id", "write it like: GAME demo1")
			}
			continue
		case "SECRET":
			if c, ok := secretRequest(r, args, n, opt); ok {
				r.Commands = append(r.Commands, c)
				continue
			}
			if len(args) == 1 && secretPattern.MatchString(args[0]) {
				r.setSecret(args[0], fmt.Sprintf("line %d", n), n, line)
			} else {
				r.errorf(n, line, "SECRET needs one word, your secret", "write it like: SECRET k7f3q (it is in your welcome mail)")
			}
			continue
		}
		cmd, ok, msg := r.command(word, args, n)
		if ok && cmd.Name == New && opt.IsRuleset != nil && !opt.IsRuleset(cmd.Ruleset) {
			ok, msg = false, fmt.Sprintf("there is no ruleset %q (LIST names them)", cmd.Ruleset)
		}
		switch {
		case ok:
			r.Commands = append(r.Commands, cmd)
			if readsBlock(cmd) {
				press = len(r.Commands) - 1
			}
			ordersMode = word == Orders
			if ordersMode && r.Game == "" && cmd.Game != "" {
				r.Game, r.GameFrom = cmd.Game, fmt.Sprintf("line %d", n)
			}
		case att != nil:
			// Prose beside an orders attachment ("orders attached").
			r.Ignored = append(r.Ignored, inmail.Line{N: n, Text: line})
		case cls != nil && !cls.Order(line):
			r.Ignored = append(r.Ignored, inmail.Line{N: n, Text: line})
		case r.Game != "":
			orders[i] = raw // an order, for the ruleset to judge
			r.OrderLines = append(r.OrderLines, inmail.Line{N: n, Text: line})
		case msg != "":
			r.errorf(n, line, msg, usage[word])
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
		r.errorf(c.Line, what, fmt.Sprintf("this %s has no END line, so it was not applied", what),
			fmt.Sprintf("write the text below the %s line and a line END after it", what))
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
	for _, l := range strings.Split(r.Orders, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			r.HasOrders = true
			break
		}
	}
	if r.HasOrders && r.Game == "" {
		r.Errors = append(r.Errors, engine.LineError{Msg: "these orders name no game",
			Fix: "put the game in the subject like [demo1], or write GAME demo1 as the first line"})
	}
	return r
}

var usage = map[Name]string{
	Help:      "write HELP alone on its line",
	List:      "write LIST alone on its line, or LIST page 2 for the next games",
	Confirm:   "reply to my mail that holds your orders (or asks you to confirm) with CONFIRM alone on a line, or write CONFIRM and the code it gives",
	Rules:     "write RULES and a ruleset, like: RULES prosper (LIST names the rulesets)",
	Join:      "write JOIN and a game, like: JOIN demo1, or JOIN demo1 ann to choose your seat name",
	Status:    "write STATUS and a game, like: STATUS demo1",
	Board:     "write BOARD and a game, like: BOARD demo1",
	History:   "write HISTORY, a game and maybe a turn, like: HISTORY demo1 3",
	Resign:    "write RESIGN and a game, like: RESIGN demo1",
	Wait:      "write WAIT and a game, like: WAIT demo1",
	Orders:    "write ORDERS and maybe a game, like: ORDERS demo1, then your orders below",
	Press:     "write PRESS TO ann, bob (or PRESS TO ALL), your message below it, and a line END after it",
	Vacation:  "write VACATION, a game and two dates, like: VACATION demo1 FROM 2026-12-20 TO 2027-01-03",
	Observe:   "write OBSERVE and a game, like: OBSERVE demo1",
	Unobserve: "write UNOBSERVE and a game, like: UNOBSERVE demo1",
	Resend:    "write RESEND, a game and maybe a turn, like: RESEND demo1 or RESEND demo1 3",
	GM:        "write GM, a verb and a game, like: GM PAUSE demo1 the reason",
	Set:       "write SET, a setting and its value, like: SET LANG ru or SET TZ Europe/Moscow",
	Settings:  "write SETTINGS alone on its line",
	MyGames:   "write MY GAMES alone on its line",
	"MY":      "write MY GAMES alone on its line",
	"MYGAMES": "write MY GAMES alone on its line",
	New:       "write NEW, a ruleset and maybe the seats and settings, like: NEW prosper 4 turn=48h",
	Start:     "write START and your game, like: START prosper-k7f3",
	Invite:    "write INVITE, your game and addresses, like: INVITE prosper-k7f3 ann@example.org bob@example.org",
}

// commandWords lists the commands for suggestions, in the HELP order.
var commandWords = []Name{Help, List, Rules, Join, Status, Board, History, Resign, Wait, Orders, Press, Vacation, Observe, Unobserve, Resend, Confirm, Set, Settings, MyGames, New, Start, Invite, "GAME", "SECRET", GM}

// command reads one line as a command. ok is false when the line is not
// one; msg then says why if its first word was a command word.
func (r *Result) command(word Name, args []string, n int) (cmd Command, ok bool, msg string) {
	cmd = Command{Name: word, Line: n, Game: r.Game}
	gameArg := func(a string) bool {
		a = strings.ToLower(a)
		if !idPattern.MatchString(a) {
			return false
		}
		cmd.Game = a
		return true
	}
	switch word {
	case Help, List:
		if len(args) == 0 {
			return cmd, true, ""
		}
		if word == List {
			// LIST 2, LIST page 2
			if len(args) == 2 && strings.EqualFold(args[0], "PAGE") {
				args = args[1:]
			}
			if n, err := strconv.Atoi(args[0]); err == nil && len(args) == 1 && n >= 1 {
				cmd.Page = n
				return cmd, true, ""
			}
			return cmd, false, "LIST takes only a page number, like LIST page 2"
		}
		if word == Help && len(args) == 1 { // HELP prosper: the rules of one ruleset
			cmd.Ruleset = strings.ToLower(args[0])
			return cmd, true, ""
		}
		return cmd, false, fmt.Sprintf("%s takes no arguments", word)
	case Confirm:
		if len(args) == 0 {
			return cmd, true, ""
		}
		if t := strings.ToLower(args[0]); len(args) == 1 && tokenPattern.MatchString(t) {
			cmd.Token = t
			return cmd, true, ""
		}
		return cmd, false, "CONFIRM takes nothing, or the code my mail that asks you to confirm gives"
	case Rules:
		if len(args) == 1 {
			cmd.Ruleset = strings.ToLower(args[0])
			return cmd, true, ""
		}
		if len(args) == 0 && r.Game != "" {
			return cmd, true, "" // the rules of this mail's game
		}
		return cmd, false, "RULES needs one ruleset name"
	case Join:
		if len(args) >= 1 && len(args) <= 2 && gameArg(args[0]) {
			if len(args) == 2 {
				cmd.Seat = strings.ToLower(args[1])
				if !seatPattern.MatchString(cmd.Seat) {
					return cmd, false, fmt.Sprintf("%q cannot be a seat name: use a letter then up to 15 letters, digits, '-' or '_'", args[1])
				}
			}
			return cmd, true, ""
		}
		if len(args) == 0 && r.Game != "" {
			return cmd, true, ""
		}
		return cmd, false, "JOIN needs a game"
	case Status, Board, Resign, Wait, Orders:
		switch {
		case len(args) == 1 && gameArg(args[0]):
			return cmd, true, ""
		case len(args) == 0 && (r.Game != "" || word == Orders):
			return cmd, true, ""
		case len(args) == 0:
			return cmd, false, fmt.Sprintf("%s needs a game", word)
		}
		return cmd, false, fmt.Sprintf("%s takes one game id", word)
	case Press:
		// PRESS [game] TO a, b | PRESS [game] TO ALL
		if len(args) > 0 && !strings.EqualFold(args[0], "TO") && gameArg(args[0]) {
			args = args[1:]
		}
		if cmd.Game == "" {
			return cmd, false, "PRESS needs a game"
		}
		if len(args) < 2 || !strings.EqualFold(args[0], "TO") {
			return cmd, false, "PRESS needs TO and the players it goes to"
		}
		names := strings.FieldsFunc(strings.Join(args[1:], " "), func(r rune) bool { return r == ',' || r == ' ' })
		if len(names) == 1 && strings.EqualFold(names[0], "ALL") {
			return cmd, true, ""
		}
		for _, n := range names {
			if strings.EqualFold(n, "and") {
				continue
			}
			cmd.To = append(cmd.To, strings.ToLower(n))
		}
		return cmd, true, ""
	case Vacation:
		// VACATION [game] FROM date TO date
		if len(args) == 5 && gameArg(args[0]) {
			args = args[1:]
		}
		if cmd.Game == "" {
			return cmd, false, "VACATION needs a game"
		}
		if len(args) != 4 || !strings.EqualFold(args[0], "FROM") || !strings.EqualFold(args[2], "TO") {
			return cmd, false, "VACATION needs FROM a date TO a date"
		}
		from, err1 := time.Parse("2006-01-02", args[1])
		to, err2 := time.Parse("2006-01-02", args[3])
		if err1 != nil || err2 != nil {
			return cmd, false, "VACATION's dates are written year-month-day, like 2026-12-20"
		}
		if to.Before(from) {
			return cmd, false, "VACATION's last day comes before its first"
		}
		cmd.From, cmd.Until = from, to.AddDate(0, 0, 1)
		return cmd, true, ""
	case Observe, Unobserve:
		if len(args) == 1 && gameArg(args[0]) || len(args) == 0 && r.Game != "" {
			return cmd, true, ""
		}
		return cmd, false, fmt.Sprintf("%s needs one game id", word)
	case GM:
		// GM VERB game args..., or GM LIST (every game: no game named)
		if len(args) >= 1 && strings.EqualFold(args[0], "LIST") {
			cmd.Verb, cmd.Game = "LIST", ""
			if len(args) > 1 {
				return cmd, false, "GM LIST takes no arguments: it lists every game"
			}
			return cmd, true, ""
		}
		if len(args) < 2 {
			return cmd, false, "GM needs a verb and a game"
		}
		cmd.Verb = strings.ToUpper(args[0])
		if !contains(gmVerbs, cmd.Verb) {
			return cmd, false, fmt.Sprintf("%q is not a GM verb: use one of %s", args[0], strings.Join(gmVerbs, ", "))
		}
		if !gameArg(args[1]) {
			return cmd, false, fmt.Sprintf("%q is not a game id", args[1])
		}
		cmd.Args = args[2:]
		cmd.Text = strings.Join(cmd.Args, " ")
		return cmd, true, ""
	case Set:
		// SET KEY VALUE: a setting's name, and one word (a time zone
		// has no spaces); "set fleet 2" in a game mail stays an order.
		if len(args) == 2 {
			if _, known := settings.Find(args[0]); known {
				cmd.Verb, cmd.Text = strings.ToUpper(args[0]), args[1]
				return cmd, true, ""
			}
			return cmd, false, fmt.Sprintf("there is no setting %q (the settings are %s)", args[0], strings.Join(settings.Names(), ", "))
		}
		return cmd, false, "SET needs a setting and one value"
	case Settings:
		if len(args) == 0 {
			return cmd, true, ""
		}
		return cmd, false, "SETTINGS takes no arguments"
	case "MY", "MYGAMES":
		if word == "MYGAMES" && len(args) == 0 || len(args) == 1 && strings.EqualFold(args[0], "GAMES") {
			cmd.Name = MyGames
			return cmd, true, ""
		}
		if word == "MY" && (len(args) == 0 || !strings.EqualFold(args[0], "GAMES")) {
			return cmd, false, "" // "my fleet moves…": not a command
		}
		return cmd, false, "MY GAMES takes no arguments"
	case New:
		// NEW ruleset [seats] [name=value ...]: the daemon reads the
		// settings; a line whose first word is not a ruleset is not NEW.
		if len(args) == 0 {
			return cmd, false, "NEW needs a ruleset, like NEW prosper (LIST names the rulesets)"
		}
		cmd.Ruleset, cmd.Args, cmd.Game = strings.ToLower(args[0]), args[1:], ""
		return cmd, true, ""
	case Start:
		if len(args) == 1 && gameArg(args[0]) || len(args) == 0 && r.Game != "" {
			return cmd, true, ""
		}
		return cmd, false, "START needs the game you opened"
	case Invite:
		// INVITE [game] address...
		if len(args) > 0 && !strings.Contains(args[0], "@") && gameArg(args[0]) {
			args = args[1:]
		}
		if cmd.Game == "" {
			return cmd, false, "INVITE needs the game you opened"
		}
		if len(args) == 0 {
			return cmd, false, "INVITE needs the addresses to invite"
		}
		for _, a := range strings.FieldsFunc(strings.Join(args, " "), func(r rune) bool { return r == ',' || r == ' ' || r == ';' }) {
			a = strings.Trim(a, "<>")
			if !strings.Contains(a, "@") {
				return cmd, false, fmt.Sprintf("%q is not a mail address", a)
			}
			cmd.Args = append(cmd.Args, a)
		}
		return cmd, true, ""
	case History, Resend:
		// HISTORY [game] [turn]
		var rest []string
		if len(args) > 0 && !isNumber(args[0]) {
			if !gameArg(args[0]) {
				return cmd, false, fmt.Sprintf("%q is not a game id", args[0])
			}
			rest = args[1:]
		} else {
			rest = args
		}
		if cmd.Game == "" {
			return cmd, false, fmt.Sprintf("%s needs a game", word)
		}
		switch len(rest) {
		case 0:
			return cmd, true, ""
		case 1:
			if t, err := strconv.Atoi(rest[0]); err == nil && t >= 0 {
				cmd.Turn = t
				return cmd, true, ""
			}
			return cmd, false, fmt.Sprintf("%q is not a turn number", rest[0])
		}
		return cmd, false, fmt.Sprintf("%s takes a game and a turn number", word)
	}
	return cmd, false, ""
}

// secretRequest reads SECRET <game> [seat], a request to mail a seat's
// secret to the seat's own address, apart from SECRET <secret>, which
// gives one: its word must name a game that exists (opt.IsGame), and a
// bare SECRET in a mail about a game asks for that game's.
func secretRequest(r *Result, args []string, n int, opt Options) (Command, bool) {
	c := Command{Name: SendSecret, Line: n, Game: r.Game}
	switch {
	case len(args) == 0 && r.Game != "":
		return c, true
	case len(args) >= 1 && len(args) <= 2 && opt.IsGame != nil:
		id := strings.ToLower(args[0])
		if !idPattern.MatchString(id) || !opt.IsGame(id) {
			return c, false
		}
		c.Game = id
		if len(args) == 2 {
			c.Seat = strings.ToLower(args[1])
			if !seatPattern.MatchString(c.Seat) {
				return c, false
			}
		}
		return c, true
	}
	return c, false
}

func isNumber(s string) bool {
	_, err := strconv.Atoi(s)
	return err == nil
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
		if !contains(games, id) {
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
		r.Errors = append(r.Errors, engine.LineError{
			Msg: fmt.Sprintf("the subject names %d games: %s", len(games), strings.Join(games, ", ")),
			Fix: "send one mail per game"})
	}
	if m := secretInSubj.FindStringSubmatch(subject); m != nil && r.Secret == "" && secretPattern.MatchString(m[1]) {
		r.Secret, r.SecretFrom = m[1], "subject"
	}
}

func (r *Result) setGame(id, from string, n int, line string) {
	if r.Game != "" && r.Game != id {
		r.errorf(n, line, fmt.Sprintf("this line names game %s but the %s names %s", id, r.GameFrom, r.Game),
			"send one mail per game")
		return
	}
	if r.Game == "" {
		r.Game, r.GameFrom = id, from
	}
}

func (r *Result) setSecret(s, from string, n int, line string) {
	if r.Secret != "" && r.Secret != s {
		r.errorf(n, line, fmt.Sprintf("a second, different secret (the %s gave another)", r.SecretFrom),
			"give your secret once")
		return
	}
	if r.Secret == "" {
		r.Secret, r.SecretFrom = s, from
	}
}

func (r *Result) errorf(n int, line, msg, fix string) {
	r.Errors = append(r.Errors, engine.LineError{Line: n, Text: line, Msg: msg, Fix: fix})
}

func (r *Result) unknown(n int, line, word string) {
	fix := "the commands are HELP, LIST, RULES, JOIN, STATUS, BOARD, HISTORY, RESIGN, WAIT, ORDERS, " +
		"PRESS, VACATION, OBSERVE, UNOBSERVE, RESEND, CONFIRM, SET, SETTINGS, MY GAMES, SECRET, NEW, START and INVITE; " +
		"to send orders put the game in the subject like [demo1] or write GAME demo1 first"
	if best, d := closest(word); d <= 1 || d == 2 && len(word) >= 5 {
		fix = fmt.Sprintf("did you mean %s? (%s)", best, usage[best])
		if usage[best] == "" {
			fix = fmt.Sprintf("did you mean %s?", best)
		}
	}
	r.errorf(n, line, fmt.Sprintf("unknown command %q", word), fix)
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

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
