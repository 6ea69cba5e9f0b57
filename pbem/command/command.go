// Package command is the table of mail commands: one Descriptor per
// command (its words, its HELP lines, its kind, how it counts against a
// mail's limits, and how its line is parsed), listed in All. The
// descriptors live in a few files by what they are about: read.go (the
// answers that change nothing), seat.go (a seat's life in a game),
// player.go (the player's own settings), orders.go, ahead.go and
// preview.go (orders), secret.go and gm.go. pbem/route parses a mail's
// lines with it, templates writes HELP from it, and pbem/daemon bounds
// and runs the commands by looking them up in it. Adding a command is
// adding its descriptor beside its kin and its entry in All; the table
// test says what else it needs (help in every language, a parse case, a
// runner in the daemon).
//
// The package is a leaf: it imports engine-side packages and
// pbem/settings (SET's keys) only, never route, templates or the daemon.
package command

import (
	"regexp"
	"strconv"
	"strings"
	"time"

	"orrery/engine/lang"
)

// Name is a command word, in upper case.
type Name string

// Command is one command line of a mail, as parsed.
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
	// All is VACATION ALL: the absence holds in every game of the
	// sender, now and joined later.
	All bool
	// Verb is a GM command's verb (PAUSE…); Args its words after the game.
	Verb string
	Args []string
	// Token is CONFIRM's code, from the mail that asks to confirm a JOIN
	// or an OBSERVE ("" in a plain reply to that mail).
	Token string
}

// Kind is what a command does, for the reader of the table and for the
// daemon's checks: a read answers, a change is a recorded part of the
// mail, a GM command needs the GM's address and secret.
type Kind int

// The kinds of command.
const (
	_ Kind = iota
	// Read answers a question and changes nothing.
	Read
	// Change changes a game or the sender's settings.
	Change
	// GMKind is the game master's: refused without the GM's address and
	// secret.
	GMKind
	// Marker changes nothing itself: ORDERS marks where orders start,
	// CONFIRM applies what an earlier mail asked.
	Marker
)

// Limit is how a command counts against what one mail may ask for
// (pbem/daemon's limitCommands). The zero Limit is no class at all: the
// table test refuses it, so a new command must choose.
type Limit int

// The limit classes.
const (
	_ Limit = iota
	// Reads count against Config.ReadsPerMail, and the same question
	// twice is answered once.
	Reads
	// Changes count against the daemon's maxCommands.
	Changes
	// Unlimited commands cost nothing of their own (ORDERS, CONFIRM).
	Unlimited
)

// HelpLine is one line of the HELP reply: a command as typed, and what it
// does in English (templates translates it by its catalog, keyed by this
// text).
type HelpLine struct{ Syntax, Help string }

// In is what a command's parser reads: the line's first word and the
// words after it, and what it needs of the mail around it.
type In struct {
	Word Name     // the first word, in upper case
	Args []string // the words after it
	Line int      // the line's number in the mail
	// Game is the mail's game so far ("" for none).
	Game string
	// IsGame says whether a game exists (nil: unknown, see SECRET);
	// IsRuleset whether a ruleset does (nil accepts any).
	IsGame, IsRuleset func(string) bool
}

// Descriptor is one mail command.
type Descriptor struct {
	Name Name
	// Words are other first words that start the command ("MY" of MY
	// GAMES); the Name itself always does.
	Words []Name
	// Help are its lines in the HELP reply, in order.
	Help []HelpLine
	// Usage is the fix given with a line that starts like it but does
	// not parse: a message (lang.M), written in the reader's language.
	Usage lang.Msg
	Kind  Kind
	Limit Limit
	// Asks names the command whose answer this one's is (BOARD asks
	// what STATUS does), so that the two count as one question.
	Asks Name
	// Parse reads a line that starts with one of the command's words.
	// ok is false when it is not this command; msg then says why (a
	// message, written in the reader's language), or is the zero Msg
	// when the line is not meant as a command at all ("my fleet
	// moves…").
	Parse func(in In) (cmd Command, ok bool, msg lang.Msg)
	// Block says whether a parsed line takes the lines below it, up to
	// END, as its Text (nil: never).
	Block func(Command) bool
	// Examples are lines the command must parse, in a mail about game
	// demo1; Malformed is one it must refuse with a reason.
	Examples  []string
	Malformed string
}

// All lists the commands, in the order HELP lists them.
var All = []*Descriptor{
	&HelpCmd, &ListCmd, &RulesCmd, &JoinCmd, &StatusCmd, &BoardCmd, &HistoryCmd, &ResignCmd, &WaitCmd,
	&OrdersCmd, &PreviewCmd, &PressCmd, &VacationCmd, &ObserveCmd, &UnobserveCmd, &ResendCmd, &ConfirmCmd, &SetCmd,
	&SettingsCmd, &MyGamesCmd, &PingCmd, &SecretCmd, &NewCmd, &StartCmd, &InviteCmd, &GMCmd,
}

// byWord finds a descriptor by any of its words.
var byWord = func() map[Name]*Descriptor {
	m := map[Name]*Descriptor{}
	for _, d := range All {
		for _, w := range append([]Name{d.Name}, d.Words...) {
			if m[w] != nil {
				panic("command: two commands start with " + string(w))
			}
			m[w] = d
		}
	}
	return m
}()

// Lookup finds the command a line's first word (in upper case) starts, or
// nil.
func Lookup(word Name) *Descriptor { return byWord[word] }

// Of finds the descriptor of a parsed command, or nil.
func Of(c Command) *Descriptor { return byWord[c.Name] }

// ReadsBlock says whether c takes the lines below it, up to END, as its
// Text: PRESS, GM ORDERS, and GM MESSAGE with no text on its line.
func ReadsBlock(c Command) bool {
	d := Of(c)
	return d != nil && d.Block != nil && d.Block(c)
}

// HelpLines are the players' lines of the HELP reply, in order.
func HelpLines() []HelpLine {
	var out []HelpLine
	for _, d := range All {
		out = append(out, d.Help...)
	}
	return out
}

// Patterns shared by the parsers, and by pbem/route for GAME and SECRET.
var (
	IDPattern     = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,31}$`) // engine/game's game id
	SeatPattern   = regexp.MustCompile(`^[a-z][a-z0-9_-]{0,15}$`)   // engine/game's seat name
	SecretPattern = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)     // what we issue, with room to spare
	tokenPattern  = regexp.MustCompile(`^[a-z0-9]{16}$`)            // CONFIRM's code (pbem/daemon's consent tokens)
)

// start is the command a parser fills in: its name, line and the mail's
// game.
func start(n Name, in In) Command {
	return Command{Name: n, Line: in.Line, Game: in.Game}
}

// gameArg sets c's game to a, when a is a game id.
func gameArg(c *Command, a string) bool {
	a = strings.ToLower(a)
	if !IDPattern.MatchString(a) {
		return false
	}
	c.Game = a
	return true
}

func isNumber(s string) bool {
	_, err := strconv.Atoi(s)
	return err == nil
}
