// Package engine holds what every game shares and nothing that any one game,
// or mail, knows: the ruleset contract, prompts (who must act now), orders and
// their line errors, events, and outcomes.
//
// The shape follows godip: validation sees only a player's View (so nothing
// hidden can leak through an error message), only State.Resolve mutates, and
// only Resolve is handed the dice. The turn life cycle that drives these
// interfaces and stores every input lives in engine/game; dice in engine/dice;
// storage in engine/store.
package engine

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"unicode"

	"orrery/engine/dice"
	"orrery/engine/draw"
	"orrery/engine/lang"
)

// Info describes a ruleset to players and to the GM.
type Info struct {
	Name       string   // short identifier used in commands: "prosper"
	Title      string   // "Prosper or Perish"
	MinPlayers int      // inclusive
	MaxPlayers int      // inclusive
	Options    []Option // every option the ruleset understands, with defaults
	Summary    string   // a paragraph of rules summary for welcome mails and RULES
	OrderHelp  string   // the order language, for HELP replies and `orders check`: lines of at most 78 columns
	// Version is the rules' version, 1 or more. Raise it with any change
	// that would make a game created before it replay differently (a
	// rule, which dice are rolled or their purposes, the state's
	// encoding): each game records the version it was set up under, so
	// that `verify` can say why a replay under newer rules differs
	// instead of reporting bare mismatches.
	Version int
}

// Option is one game option with its default. Options are strings so that they
// can travel through a CLI flag, a mail command and a JSON export unchanged.
type Option struct {
	Name    string
	Default string
	Choices []string // empty means free text (validated by the ruleset)
	Help    string   // one sentence, which RULES and `orrery rulesets` wrap
}

// Setup is what a ruleset needs to create a game.
type Setup struct {
	GameID  string
	Players []string          // seat names in the order the GM gave them
	Options map[string]string // every option of Info.Options, defaults filled in
	// Languages is each player's language (lang.Tag: "en", "ru") where the
	// player chose one before the game began; rulesets that write in
	// several languages (Languages) start each player in theirs. Games
	// set up before it existed have none, and replay as they were.
	Languages map[string]string `json:",omitempty"`
	// Version is the ruleset's Info.Version the game is set up under, as
	// the game records it (and as a replay hands it back from the game's
	// create entry). A setup recorded before setups carried it has 0, so
	// a ruleset can keep what such a game recorded while new games do
	// something new without changing their dice (the options are the
	// setup's dice inputs, the version is not). The shared tests
	// (enginetest) set it too.
	Version int `json:",omitempty"`
}

// Ruleset is one playable game. Rulesets are values listed explicitly in
// games.All; there is no registration by side effect.
//
// # What a ruleset must have
//
// Required of every ruleset listed in games.All, and checked by the tests
// of package games (go test ./games: each failure names what to add):
//
//   - Ruleset, State, View and Orders (TextOrders will do), as below, passing
//     enginetest.Conformance: Info with Name, Title, OrderHelp, players and
//     Version 1 or more; setups, views and states deterministic and
//     surviving Marshal/LoadState (LoadJSON is a LoadState); every line the
//     bot sends parsed, and read as an order by the mail side.
//   - Order words the mail side knows: every line the View's Parse accepts
//     must start with one of the verbs of OrderWords (an OrderWorder, or the
//     upper-case words that start the lines of OrderHelp), or the mail side
//     lists the player's orders as "Not read as orders" and never parses
//     them. Conformance reads the bot's orders and the help's examples as
//     the mail side does (engine/orderline) and names a missing word.
//   - A PublicViewer on the state (observers' board), and a Drawer on every
//     view, the public one too (the picture mailed and shown on the web;
//     draw.Board draws a text board when the game has nothing better).
//   - A bot that ends a game (the demo and every bot test play whole games)
//     and beats a player who never writes in 90% of two-player games,
//     unless the ruleset's Properties declare it a game of chance; a game
//     shorter than seven steps declares Properties.HolderSteps.
//
// Optional, each used where present: SyntaxChecker (`orrery orders check`),
// PublicOrders, Languages, Translator, Localizer, ViewData (report.json),
// PropertyDeclarer. ParseLines is the parse loop of an order-a-line
// language. engine/enginetest/toy is a whole ruleset in 200 lines (not
// listed, so without a picture).
type Ruleset interface {
	Info() Info
	// NewState creates the starting position. Generated boards and random seat
	// orders take their randomness from d, so they are recorded and verifiable.
	NewState(s Setup, d *dice.Dice) (State, error)
	// LoadState decodes bytes produced by State.Marshal.
	LoadState(data []byte) (State, error)
	// Bot returns orders for prompt p as a computer player would send them,
	// seeing only v. A bot's randomness is its own (r), never the game's dice:
	// its orders are stored like anyone's, so replay never calls a bot.
	Bot(v View, p Prompt, r *rand.Rand) string
}

// State is a game position. Implementations must be deterministic: no wall
// clock, no map iteration order, no randomness but the dice handed to Resolve.
type State interface {
	// Turn is the game turn as players count it (0 during setup phases).
	// It never goes back, and once the game is over it is the turn the
	// game ended in, not a next one never played.
	Turn() int
	// Phase names the current phase for people: "colonisation", "movement".
	Phase() string
	// Prompts lists who must act now. It is empty once the game is over.
	Prompts() []Prompt
	// View is what player sees. The empty player is the GM, who sees all.
	// A view and everything called on it leave the state as they found it:
	// the reports of a step's readers are all built from one state, and
	// may be built at once on several goroutines.
	View(player string) View
	// Resolve applies answers to the open prompts and moves the game on. Every
	// open prompt that blocks (see PromptKind.Blocks) has an answer, defaulted
	// or not; for an Anytime prompt Resolve is called with that answer alone.
	// Dice rolled here are recorded by d with their purpose.
	Resolve(answers []Answer, d *dice.Dice) ([]Event, error)
	// Outcome says whether the game is over and who won.
	Outcome() Outcome
	// Marshal encodes the state. Equal states must give equal bytes: verify
	// compares snapshots byte for byte.
	Marshal() ([]byte, error)
}

// PublicViewer is implemented by states that can draw what every player may
// see: the board an observer (someone with no seat) gets. A state without it
// gives observers the public events only, since the GM's view (View("")) may
// hold every secret of the game. The public view's Player() is Observer:
// neither a seat nor the GM (""), and its Parse refuses every order.
type PublicViewer interface {
	PublicView() View
}

// Drawer is implemented by views that can draw their board as a picture
// (a PNG for mail, an SVG for the web, from one engine/draw model), from the
// same data as Board and with only what the view's reader may see: a
// player's View and the PublicView alike. Every ruleset in games.All must
// have it (see Ruleset); mail and web pages still ask for it with a type
// assertion, so a ruleset outside the list (a test's) may go without.
type Drawer interface {
	Picture() *draw.Picture
}

// PublicOrders is implemented by states some of whose players' orders every
// player and observer may read once their step is resolved (a game of open
// orders, like Diplomacy's). Every order of a step enters its dice (see
// engine/dice, scheme 2) as one part per answer; a part the state does not
// declare public is hidden: it enters salted, its player alone is shown it,
// and everyone gets it when the game ends. A state without this method
// keeps every answer hidden, which is always safe: orders often carry what
// a ruleset hides (a plan, a cargo, a sealed fire order).
type PublicOrders interface {
	// OrdersPublic reports whether answer a may be shown to everyone
	// after the step that resolves it. It is asked of the state before
	// Resolve, and must depend on that state and a alone.
	OrdersPublic(a Answer) bool
}

// View is one player's view of a state: all that player may know, and the
// only thing order validation may consult.
type View interface {
	// Player is the seat this view belongs to ("" for the GM).
	Player() string
	// Parse checks text against the view for prompt p. It returns the orders
	// in canonical form, or every error of the text, one per bad line.
	// Empty text (blank lines and comments only) is turned into the
	// explicit orders the ruleset will apply for it (a DONE, the moves
	// fleets make anyway), or refused when the prompt needs an answer, so
	// that the acknowledgement shows what will happen: no orders at all
	// must mean that nothing happens.
	Parse(p Prompt, text string) (Orders, []LineError)
	// Board is the ASCII board, at most 78 columns wide.
	Board() string
	// Status is a status table that stays readable in a proportional font,
	// at most 78 columns wide.
	Status() string
}

// Orders are a player's accepted orders for one prompt.
type Orders interface {
	// Lines are the orders in canonical form, one order a line. Parsing the
	// joined lines again gives the same orders: the log stores this form.
	Lines() []string
}

// TextOrders is a ready Orders for rulesets whose canonical form is enough to
// resolve from (they parse the lines again inside Resolve).
type TextOrders []string

// Lines returns the canonical lines.
func (t TextOrders) Lines() []string { return t }

// OrdersText joins canonical lines with newlines; nil gives "".
func OrdersText(o Orders) string {
	if o == nil {
		return ""
	}
	return strings.Join(o.Lines(), "\n")
}

// PromptKind says what is asked and how it blocks the game.
type PromptKind int

const (
	// KindTurn asks for a whole turn's orders (simultaneous or sequential).
	KindTurn PromptKind = iota
	// KindStep asks for one step of a sequential turn.
	KindStep
	// KindChoice is a mid-turn interrupt: a player, often not the active one,
	// must decide something ("which units do you lose").
	KindChoice
	// KindAnytime accepts orders at any moment (standing orders, extraordinary
	// actions). It never blocks: an answer is resolved on receipt, alone.
	// Its Parse must refuse the orders that belong in the player's turn: a
	// text it accepts is any-time orders only, and the engine sends such a
	// text there even while a turn is asked of the player, since a setting
	// is not a turn (engine/game's Submit with no prompt named).
	KindAnytime
)

var kindNames = []string{"turn", "step", "choice", "anytime"}

func (k PromptKind) String() string {
	if int(k) < len(kindNames) && k >= 0 {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", int(k))
}

// Blocks reports whether the game waits for this kind of prompt.
func (k PromptKind) Blocks() bool { return k != KindAnytime }

// Prompt is one question to one player. Its ID is stable while the question
// stands, so a player may answer again and replace an earlier answer.
type Prompt struct {
	ID     string     `json:"id"`     // unique among open prompts: "move:ann"
	Player string     `json:"player"` // seat name
	Kind   PromptKind `json:"kind"`
	Ask    string     `json:"ask"` // what is asked, in a sentence for the player
	// Default is what applies, in the order language, if nothing arrives by
	// the deadline ("" = do nothing). A ruleset puts standing orders here.
	Default string `json:"default"`
	// Msg is Ask as a message (see lang.Msg), written in the reader's
	// language when a mail is; Ask is then its English (SetAsk sets both).
	Msg *lang.Msg `json:"msg,omitempty"`
}

// SetAsk words the prompt's question as m: Ask is its English, Msg
// the message itself.
func (p *Prompt) SetAsk(m lang.Msg) {
	p.Ask, p.Msg = m.English(), &m
}

// Answer is a prompt with the orders that answer it.
type Answer struct {
	Prompt  Prompt
	Orders  Orders
	Default bool // the prompt's default applied (nothing was sent)
}

// LineError is one rejected line of a submission, worded for the player.
type LineError struct {
	Line int    // 1-based line number in the text as sent; 0 = the whole text
	Text string // the line as sent, trimmed
	Msg  string // what is wrong: "no planet named 'Rigle'"
	Fix  string // a suggestion: "did you mean 'Rigel'?"; may be empty
	// Why and Hint are Msg and Fix as messages (see lang.Msg), written
	// in the reader's language by the mail side; Msg and Fix are then
	// their English. LineErr makes such an error.
	Why  *lang.Msg `json:"why,omitempty"`
	Hint *lang.Msg `json:"hint,omitempty"`
}

// LineErr is the error of line n (text as sent) worded as messages:
// why it is refused and, unless hint is the zero Msg, how to fix it.
func LineErr(n int, text string, why, hint lang.Msg) LineError {
	e := LineError{Line: n, Text: text, Msg: why.English(), Why: &why}
	if !hint.IsZero() {
		e.Fix, e.Hint = hint.English(), &hint
	}
	return e
}

func (e LineError) Error() string {
	var b strings.Builder
	if e.Line > 0 {
		fmt.Fprintf(&b, "line %d: ", e.Line)
	}
	b.WriteString(e.Msg)
	if e.Fix != "" {
		b.WriteString(" — ")
		b.WriteString(e.Fix)
	}
	return b.String()
}

// Event is something that happened during a resolution, told to everyone or
// only to the named players (hidden information).
type Event struct {
	Text string   `json:"text"`
	To   []string `json:"to,omitempty"` // empty: public
	// Msg is the event as a message (see lang.Msg): the log keeps it, so
	// that the event is written in the language of whoever reads it,
	// whenever they do. Text is then its English, for the GM's command
	// line and for games recorded before events had messages.
	Msg *lang.Msg `json:"msg,omitempty"`
	// About names the seats whose own units, worlds or stores the event
	// is about (a fleet of theirs lost, a world of theirs taken): their
	// report opens with it, before what is asked of them, since that is
	// the news they read the report for. Empty: see Concerns.
	About []string `json:"about,omitempty"`
}

// Tell is an event worded as m, for the players to (everyone when none).
func Tell(m lang.Msg, to ...string) Event {
	return Event{Text: m.English(), To: to, Msg: &m}
}

// Concerning is e about seats' own things (see About).
func (e Event) Concerning(seats ...string) Event {
	e.About = append([]string(nil), seats...)
	return e
}

// Concerns reports whether e is news about player's own things: About
// names them, or, for an event whose ruleset says nothing of whom it is
// about, it is addressed to player alone (a private event is about its
// reader). The GM and observers have no things of their own.
func (e Event) Concerns(player string) bool {
	if player == "" || player == Observer {
		return false
	}
	if len(e.About) > 0 {
		return slices.Contains(e.About, player)
	}
	return len(e.To) == 1 && e.To[0] == player
}

// Observer is the reader of public reports, someone with no seat. Public
// events (To empty) reach observers; a game that splits a public event into
// one event per language addresses one of them to Observer as well, so that
// observers read it once rather than not at all.
const Observer = "\x00observer"

// VisibleTo reports whether player may read e. The GM ("") reads everything.
func (e Event) VisibleTo(player string) bool {
	if len(e.To) == 0 || player == "" {
		return true
	}
	for _, p := range e.To {
		if p == player {
			return true
		}
	}
	return false
}

// Outcome is the end of a game.
type Outcome struct {
	Over    bool     `json:"over"`
	Winners []string `json:"winners,omitempty"`
	Text    string   `json:"text,omitempty"` // "ann eradicated every enemy"
	// Msg is Text as a message (see lang.Msg); Text is then its English.
	Msg *lang.Msg `json:"msg,omitempty"`
}

// Ended is the outcome of a game won by winners (none: a draw, or
// nobody left), worded as m.
func Ended(m lang.Msg, winners ...string) Outcome {
	return Outcome{Over: true, Winners: winners, Text: m.English(), Msg: &m}
}

// Properties are what a ruleset declares where one size of the shared
// tests (games/*_test.go, run over games.All) does not fit its game. A
// ruleset without a Properties method has the zero Properties: a game of
// skill, long enough for every shared test.
type Properties struct {
	// Chance says the game is won by luck, not by play (rock-paper-
	// scissors, a race of dice): its bot is not held to beating a player
	// who never writes (games' TestBotsBeatPassive logs its rate and
	// checks only that its games end).
	Chance bool
	// HolderSteps is how many steps of game each holder of a seat plays in
	// games' TestSeatChangesInEveryRuleset, which hands one seat from a
	// person to the bot, to another person and back (four holders): a short
	// game sets 1, and must then last at least four steps. 0 means three
	// steps for the first holder and two for each next one.
	HolderSteps int
}

// PropertyDeclarer is implemented by rulesets that declare Properties.
type PropertyDeclarer interface {
	Properties() Properties
}

// PropertiesOf returns what rs declares, or the zero Properties.
func PropertiesOf(rs Ruleset) Properties {
	if d, ok := rs.(PropertyDeclarer); ok {
		return d.Properties()
	}
	return Properties{}
}

// Find returns the ruleset named name from list.
func Find(list []Ruleset, name string) (Ruleset, error) {
	var names []string
	for _, r := range list {
		if strings.EqualFold(r.Info().Name, name) {
			return r, nil
		}
		names = append(names, r.Info().Name)
	}
	sort.Strings(names)
	return nil, fmt.Errorf("no ruleset named %q (known: %s)", name, strings.Join(names, ", "))
}

// OptionError is an option of a new game that its ruleset does not
// have, or a value it does not take: Why says so as a message, for the
// reader's language; Error is its English, for logs and the command line.
type OptionError struct{ Why lang.Msg }

func (e *OptionError) Error() string { return e.Why.English() }

// ResolveOptions fills in option defaults and rejects unknown options or
// values outside an option's choices.
func ResolveOptions(info Info, given map[string]string) (map[string]string, error) {
	out := make(map[string]string, len(info.Options))
	known := make(map[string]Option, len(info.Options))
	for _, o := range info.Options {
		out[o.Name] = o.Default
		known[o.Name] = o
	}
	keys := make([]string, 0, len(given))
	for k := range given {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		o, ok := known[k]
		if !ok {
			var names []string
			for _, o := range info.Options {
				names = append(names, o.Name)
			}
			return nil, &OptionError{lang.M("%s has no option %q (options: %s)", info.Name, k, strings.Join(names, ", "))}
		}
		v := given[k]
		if len(o.Choices) > 0 && !contains(o.Choices, v) {
			return nil, &OptionError{lang.M("option %s of %s must be one of %s, not %q", k, info.Name, strings.Join(o.Choices, ", "), v)}
		}
		out[k] = v
	}
	return out, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// SyntaxChecker is implemented by rulesets that can check an orders file
// with no game at hand, as Eressea's echeck does: every line's grammar, not
// whether the planet is yours. `orrery orders check RULESET -f FILE` uses it.
type SyntaxChecker interface {
	CheckSyntax(text string) []LineError
}

// OrderWorder is implemented by rulesets that list the fixed words of their
// order language: the words an order starts with, in every language the
// ruleset reads, and the other keywords of its grammar (FROM, TO, AT…). The
// mail side uses them to tell a mistyped order ("MOEV 5 FROM Sol TO Vega",
// which must get an error naming the line) from a line of chatter ("Hi!",
// "Thanks, see you"), which is only listed as not read (the rule is
// engine/orderline's). A ruleset without it gets the upper-case words that
// start the lines of its OrderHelp, which is enough when every order is
// listed there. Either way the words must cover every order the parser
// accepts: a word missing here turns a player's orders into chatter, and
// enginetest.Conformance fails, naming it.
type OrderWorder interface {
	OrderWords() (verbs, keywords []string)
}

// OrderWords returns rs's order words, upper-case, sorted and without
// repeats: verbs are what an order starts with, keywords the rest.
func OrderWords(rs Ruleset) (verbs, keywords []string) {
	if w, ok := rs.(OrderWorder); ok {
		verbs, keywords = w.OrderWords()
	} else {
		for _, l := range strings.Split(rs.Info().OrderHelp, "\n") {
			if f := strings.Fields(l); len(f) > 0 && isUpperWord(f[0]) {
				verbs = append(verbs, f[0])
			}
		}
	}
	return upperSet(verbs), upperSet(keywords)
}

func isUpperWord(w string) bool {
	if len([]rune(w)) < 2 {
		return false
	}
	for _, r := range w {
		if !unicode.IsUpper(r) {
			return false
		}
	}
	return true
}

func upperSet(list []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, w := range list {
		w = strings.ToUpper(strings.TrimSpace(w))
		if w != "" && !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	sort.Strings(out)
	return out
}

// ---- languages and the mail side's questions (issue 16) ------------------

// Languages is implemented by rulesets that write a player's texts in the
// player's own language and let the player change it by an order
// (Burning Planets' LANG). The mail side keeps that in-game language and
// the player's LANG setting the same, both ways.
type Languages interface {
	// LanguageOrder is the order that sets a player's language to tag
	// ("LANG RU"); ok is false for a language the ruleset does not write.
	LanguageOrder(tag string) (order string, ok bool)
	// OrderLanguage reads one accepted order line: the language it sets,
	// if it is a language order.
	OrderLanguage(line string) (tag string, ok bool)
	// ViewLanguage is the language v is written in.
	ViewLanguage(v View) string
}

// Translator is implemented by rulesets that can put their own short
// texts, worded in English where they are recorded (a phase, a die's
// purpose, the end of the game, the rules summary), into another
// language for the reader of a report. It returns text unchanged, and
// false, when it has no translation.
type Translator interface {
	Translate(lang, text string) (string, bool)
}

// Localizer is implemented by rulesets that record every text of theirs
// in English whatever their players read (events, prompts, order errors,
// the end) and put it into the reader's language only when a mail is
// written (Prosper): the state, the log and a replay are the same in
// every language. Translate (Translator) takes any of those texts, and
// Localize gives v written in lang, for its board and status.
type Localizer interface {
	Translator
	ViewLocalizer
}

// ViewLocalizer is implemented by rulesets (and their views) that draw a
// view's board and status in the reader's language: Localize gives v
// written in lang. A ruleset whose texts are messages (Cataloger) needs
// it for the board and status alone.
type ViewLocalizer interface {
	Localize(v View, lang string) View
}

// Cataloger is implemented by rulesets (and by their views, for a mail
// about several games) that word their texts as messages (lang.Msg): the
// catalog holds their translations, looked up before the templates' own
// when a mail or a page is written. Messages keyed by the same English
// format mean the same in every catalog.
type Cataloger interface {
	Catalog() *lang.Catalog
}

// PhaseMessager is implemented by states whose Phase has a message (see
// lang.Msg): "turn of %s" written for the reader. Phase is then its
// English.
type PhaseMessager interface {
	PhaseMsg() lang.Msg
}

// ViewData is implemented by views that can give what their player sees
// as plain data, for the machine-readable report (report.json): values
// that encoding/json can write, holding nothing the view's player may not
// see.
type ViewData interface {
	Data() any
}
