// Package templates holds the text of every mail the daemon sends, one
// template file per kind of mail, embedded in the binary and overridable
// file by file from a directory named in the config.
//
// Each kind file defines three templates: "subject", "text" (text/plain,
// rendered with text/template) and "html" (rendered with html/template, so
// everything from players and rulesets is escaped). _common.tmpl defines
// what several kinds share: the subject tag, error lists, the report body.
// All kinds receive a *Data; each documents the fields it reads.
//
// # Languages
//
// The templates are written once, in English: every sentence a player
// reads goes through t ("Hello %s,") or tn (a count: "%d problem", "%d
// problems"), and lang/<code>.po holds its translation into one language,
// in gettext's PO format, keyed by the English text (lang/<code>-<part>.po
// files add to it: one file per subject). Adding a language is
// adding its PO file (and, if its plural rule is new, a line in
// engine/lang); a sentence missing from it falls back to English, and
// TestCatalogsComplete names it. Texts worded elsewhere — an engine
// notice, an error of the mail reader, a step's reason — come as
// messages (lang.Msg) and are rendered by their id; only the English
// text recorded by an older build is still matched against the
// catalog's formats (phrase); a ruleset's own recorded texts (its phase, dice purposes,
// the end of the game) by the ruleset (engine.Translator). A ruleset that
// records all its texts in English whatever its readers read
// (engine.Localizer, Prosper) has its report worded for the reader here
// too: board and status drawn again, events and questions translated
// (localize.go). Dates are written in the reader's time zone with UTC
// beside them.
//
// # Plain text
//
// A text template writes each paragraph on one line; Render fills it to
// 78 columns (display width: see engine.Width), hanging continuation
// lines under the paragraph's bullet or indent. Boards, tables and order
// lists are marked verbatim and left exactly as written.
package templates

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	htmltemplate "html/template"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	texttemplate "text/template"
	"time"

	"orrery/engine"
	"orrery/engine/dice"
	"orrery/engine/game"
	"orrery/engine/lang"
)

//go:embed *.tmpl lang/*.po
var embedded embed.FS

// The kinds of mail, one template file each.
const (
	Welcome       = "welcome"        // a seat was given: Game, Player, Secret, Info, Players, Report
	Ack           = "ack"            // orders accepted: Orders, Replaced, Prompt, Waiting, Deadline, StepDone
	Rejected      = "rejected"       // orders or mail refused: Errors (and Prompt when known)
	Report        = "report"         // a step resolved: Report, Picture
	Help          = "help"           // HELP or an empty mail: Info optional (the rules of one ruleset)
	List          = "list"           // LIST: Games, Rulesets
	Rules         = "rules"          // RULES <ruleset>: Info
	Status        = "status"         // STATUS/BOARD: Report (current), Waiting, Deadline
	History       = "history"        // HISTORY: Report (of that turn)
	WrongSecret   = "wrong-secret"   // to the sender: nothing applied
	MissingSecret = "missing-secret" // registered address, no secret
	OwnerWarning  = "owner-warning"  // to a seat's owner: Attempt
	Oversize      = "oversize"       // mail too large: Size, Limit
	UnknownSender = "unknown-sender" // not a player of this game (or of any)
	Notice        = "notice"         // a game.Notice (reminder, deadline moved, press…; NoticeTitles): Notice
	Settings      = "settings"       // SET, SETTINGS: Settings, Changed
	HeldOrders    = "held"           // orders held as a possibly stale copy: Held
	AskConsent    = "consent"        // a JOIN or OBSERVE to confirm from the address: Consent
	MyGames       = "my-games"       // MY GAMES: Mine, Record
	Secret        = "secret"         // SECRET: the seat's Player and Secret, AskedElsewhere, Web
	Digest        = "digest"         // the daily digest (SET DIGEST on): Digest
	Preview       = "preview"        // PREVIEW: Orders, Report (the would-be step), Picture, Preview
)

// NoticeTitles is the subject of a notice mail, by game.Notice kind:
// engine/game's notices, and the daemon's answers to a player's own
// commands ("press-sent" confirms a PRESS, so that it is not taken for
// press received). The notice template reads it with noticeTitle (and
// translates it); a kind missing here gets "Game news: <kind>", which
// TestNoticeGolden keeps from happening to any kind the engine or the
// daemon sends.
var NoticeTitles = map[string]string{
	// To the players whose orders are awaited.
	"reminder": "Reminder: your orders are due",
	"late":     "Your orders are late",
	// To everyone (or the GM, or the seat concerned).
	"late-others": "Waiting for late orders",
	"deadline":    "The deadline moved",
	"paused":      "The game is paused",
	"resumed":     "The game resumes",
	"rollback":    "The game was rolled back",
	"message":     "Message from the game master",
	"press":       "Press",
	"replaced":    "A seat has a new player",
	"kicked":      "A player was removed",
	"resigned":    "A player resigned",
	"joined":      "A player joined",
	"vacation":    "Vacation noted",
	"wait":        "WAIT noted",
	// To the GM only.
	"signup":    "The game is open for players",
	"abandoned": "A seat is abandoned",
	"gm":        "GM command done",
	// The output of an `orrery game` command (GM LIST, LOG…), shown
	// verbatim: tables and JSON are not reflowed.
	"gm-query": "Answer to your GM query",
	// Seats changing hands, and mail that does not arrive (issue 18).
	"seat-lost":   "You no longer hold your seat",
	"seat-open":   "Your seat is offered to other players",
	"taken":       "An open seat was taken",
	"unreachable": "A player's mail bounces",
	"undelivered": "A mail could not be delivered",
	"complaint":   "A player marked our mail as spam",
	"invite":      "You are invited to a game",
	"opened":      "Your new game is open for players",
	"secret-sent": "A secret was sent",
	// The bot gave a seat back to its player (engine/game returns.go).
	"returned":  "A seat is back with its player",
	"start":     "Your game starts",
	"invited":   "Invitations sent",
	"reachable": "Your address works again",
	"back":      "A player's mail arrives again",
	// Orders held for a later turn (ORDERS game TURN n), when the turn
	// comes.
	"ahead":          "Held orders not applied",
	"ahead-rejected": "Your held orders no longer fit",
	"ahead-applied":  "Your held orders are in",
	"ahead-held":     "Orders held for a later turn",
	// Answers to a player's own commands.
	"resign":     "You resigned",
	"press-sent": "Your press was sent",
	"observe":    "You now observe the game",
	"unobserve":  "You no longer observe the game",
	// Deliverability (issue 41): an unsubscribe's effect, PING's answer.
	"unsubscribed": "Fewer mails from now on",
	"ping":         "How your mail reached me",
}

// Kinds lists every kind of mail in a fixed order.
func Kinds() []string {
	return []string{Welcome, Ack, Rejected, Report, Help, List, Rules, Status, History,
		WrongSecret, MissingSecret, OwnerWarning, Oversize, UnknownSender, Notice, Settings, HeldOrders, AskConsent,
		MyGames, Secret, Digest, Preview}
}

// Data is what every template receives. A kind reads only the fields its
// constant names; the others may stay zero.
type Data struct {
	Bot    string // the daemon's own address, where players write
	Game   string // game id; "" for mail about no game
	Title  string // the ruleset's title ("Prosper or Perish")
	Player string // seat name of the addressee ("" for strangers)
	// Name is the addressee's own name when it is not the seat's (a
	// seat that passed to them): they are greeted by it (game.Player's
	// OwnName); "" greets them by Player.
	Name    string
	Secret  string // the addressee's secret: goes in the subject tag, so a reply authenticates
	Subject string // the subject of the mail answered, if any

	// Lang is the reader's language ("" for English) and Zone their time
	// zone (nil for UTC): the player's LANG and TZ settings.
	Lang lang.Tag
	Zone *time.Location
	// Translator puts the game's own recorded texts (phase, dice
	// purposes, the end) into Lang; nil for a ruleset that writes English
	// only.
	Translator engine.Translator
	// Ruleset is the game's ruleset, where there is one: its catalog
	// (engine.Cataloger) writes the messages of its events, prompts,
	// phases, dice and end in Lang, and its ViewLocalizer the board.
	Ruleset engine.Ruleset

	Orders   []string           // ack: the orders as understood, canonical
	Replaced bool               // ack: they replace earlier orders for the same prompt
	StepDone bool               // ack: these orders completed the step; its report follows
	Anytime  []string           // ack: of Orders, the any-time orders (all: applied at once, the turn untouched)
	Receipt  *dice.Part         // ack: the part the orders are in the step's dice inputs (game.SubmitResult.Receipt)
	Prompt   engine.Prompt      // ack, rejected: what was answered
	Errors   []engine.LineError // rejected: every error, with its line and fix
	Waiting  []string           // ack, status: who is still to send (never what anyone sent)
	Deadline time.Time          // ack, status, welcome: zero for none

	Report  *game.Report // report, status, history, welcome
	Picture *Picture     // report, status, history, welcome: the board drawn, inline
	Web     string       // report, welcome: the addressee's private web page ("" without http)
	Info    *engine.Info // welcome, rules, help
	// GM: help, the reader is the game master (the GM address with the
	// GM secret), who alone gets the GM's commands listed; a player's
	// HELP lists what a player may send.
	GM      bool
	Players []game.Player // welcome: the seats (only names and bots are shown)
	Games   []GameSummary // list
	Rules   []engine.Info // list
	Attempt *Attempt      // owner-warning, wrong-secret
	Notice  *game.Notice  // notice
	Size    int           // oversize: bytes of text received
	Limit   int           // oversize: bytes allowed

	Settings []Setting // settings: every setting of the address
	Changed  []string  // settings: the keys this mail changed

	// Ignored are lines of the mail not read as orders (greetings,
	// chatter), at most 10, IgnoredMore how many more there were, and
	// PastedFrom–PastedTo a report of ours pasted back and skipped whole
	// (0: none): ack, rejected.
	Ignored              []Line
	IgnoredMore          int
	PastedFrom, PastedTo int
	Applied              bool // rejected: other parts of the same mail were applied
	// rejected, with Applied: of the mail's PartRead command and order
	// lines PartDone were applied; PartFix are the PartFixN lines to fix
	// and PartResend all those to send again (the fixed ones and the
	// orders refused with them), comma-separated. PartRead 0: not counted.
	PartRead, PartDone, PartFixN int
	PartFix, PartResend          string
	Held                         *Held  // held
	Page, Pages                  int    // list: this page and how many
	Scope                        string // list: "stranger" (open games only), "player" (theirs first) or "gm" (every game)

	// Consent is the JOIN or OBSERVE to confirm: consent.
	Consent *Consent
	// Unread says the mail, attachments and all, was over Limit bytes
	// and not read at all: oversize.
	Unread bool
	// Mine are the addressee's games and Record their record as a player:
	// my-games, and list for a player (it starts with them).
	Mine   []MyGame
	Record *Record
	// MineMore is how many of their games a LIST left out of Mine.
	MineMore int
	// AskedElsewhere: secret, asked for from another address than the
	// seat's. Replacement: welcome, to a seat's new holder (Report is
	// then the seat's current report).
	AskedElsewhere bool
	Replacement    bool
	// Digest is the news of every game since the last digest.
	Digest []DigestGame
	// Preview says how a PREVIEW's orders were chosen and how many
	// previews of the step are left: preview.
	Preview *PreviewInfo
}

// MyGame is one game of MY GAMES, as its reader takes part in it.
type MyGame struct {
	ID, Title, Seat string // Seat "" when Observing
	Turn            int
	Phase           string
	Deadline        time.Time
	Asked           bool     // something blocking is asked of the seat now
	OrdersIn        bool     // and the seat's orders for it are in
	Awaited         []string // the seats the game waits for
	Observing       bool
	Signup, Over    bool
	Won             bool
	Seated, Seats   int
	Creator         bool // the reader opened it (NEW): START and INVITE are theirs
}

// Record is a player's record (engine/game.Record) as mails show it.
type Record struct {
	Games, Missed, Abandoned, Won int
	Steps                         uint64
	// VacationDays is the server's yearly allowance of vacation days
	// (0: none); VacationLeft what is left of it this year, in hours;
	// AutoVacationOff that the player said SET AUTOVACATION off.
	VacationDays, VacationLeft int
	AutoVacationOff            bool
}

// DigestGame is one game's part of a digest.
type DigestGame struct {
	ID, Title, Seat string
	// Ruleset is the game's ruleset: its catalog words the news for an
	// observer, who has no Report to find it by.
	Ruleset engine.Ruleset
	News    []DigestNews
	// Report is the seat's current report (board, what is asked, the
	// deadline); nil for a game the reader observes, or no longer plays.
	Report *game.Report
}

// DigestNews is one piece of news: a step resolved (Kind "report", with
// the events the reader may see) or a notice (Text, worded by the engine).
type DigestNews struct {
	Time   time.Time
	Kind   string
	Step   uint64
	Turn   int
	Phase  string
	Events []string
	Text   string
	// PhaseMsg, EventMsgs and TextMsg are Phase, Events and Text as
	// messages (lang.Msg), where they came as such: written in the
	// reader's language.
	PhaseMsg  *lang.Msg
	EventMsgs []*lang.Msg
	TextMsg   *lang.Msg
}

// Line is a line of the mail answered, with its number as the sender sees
// it in their mail.
type Line struct {
	N    int
	Text string
}

// Held describes orders held because the mail looks like a stale copy.
type Held struct {
	Orders      []string // the lines held, as written
	WrittenStep uint64   // the step of the report the mail answered
	Step        uint64   // the game's step now
	Turn        int      // the game's turn now
	// Reason is why: "step" (written before this step began),
	// "rollback" (before a rollback) or "copy" (the same orders,
	// answering the same report, were applied before).
	Reason string
}

// Picture is the board drawn as an image, attached to the mail and shown
// inline in the HTML part by its Content-ID.
type Picture struct {
	CID    string // Content-ID, without angle brackets
	Alt    string // what the picture shows, for readers who cannot see it
	Width  int    // pixels; 0 when unknown
	Height int
}

// Setting is one of a player's settings as SETTINGS shows it.
type Setting struct {
	Key     string // LANG, TZ…
	Value   string // "" when not set
	Default string // what applies when not set
	Help    string // what it does, in English (translated by the catalog)
	Example string // how to set it: "SET LANG ru"
}

// Consent asks an address to confirm a JOIN or an OBSERVE made in its
// name, with a code to send back.
type Consent struct {
	Kind    string // "join" or "observe"
	Seat    string // JOIN's seat name, if one was asked for
	Token   string // the code CONFIRM gives back
	Address string // the address asked
	Days    int    // how long the request waits
}

// GameSummary is one line of the LIST reply.
type GameSummary struct {
	ID, Ruleset, Title string
	Turn               int
	Phase              string
	Seated, Seats      int
	Signup             bool // open for JOIN
	Over               bool
	Mine               bool // the addressee plays in it
	// Open are the seats of a game under way that anyone may take by
	// JOIN (their players left, and the game offers them).
	Open []string
}

// Attempt describes a mail that tried to act for a seat and failed. It
// holds nothing the sender wrote (neither address nor subject): a warning
// must never carry a stranger's words from the bot's own address.
type Attempt struct {
	Date   time.Time // when it was written
	Reason string    // "wrong secret", "your secret from another address"
	// Said is the word a line "SECRET <word>" gave as the secret ("" when
	// the subject gave it): wrong-secret says it was read as a secret,
	// since the same line naming a game asks for one.
	Said string
}

// Mail is a rendered mail.
type Mail struct {
	Subject string
	Text    string
	HTML    string
}

// Set is the parsed templates of every kind, in every language.
type Set struct {
	text    map[lang.Tag]map[string]*texttemplate.Template
	html    map[lang.Tag]map[string]*htmltemplate.Template
	catalog *lang.Catalog
	langs   []lang.Tag
	// bufs holds the buffers Render executes into: a report's HTML is
	// tens of kilobytes, and growing fresh buffers to it was a fifth of
	// what rendering allocated.
	bufs sync.Pool
}

const common = "_common.tmpl"

// New parses the embedded templates; a file of the same name in
// overrideDir ("" for none) replaces an embedded one, and a lang/<code>.po
// there replaces or adds a language. A kind file that does not define
// subject, text and html is an error, named with its file.
//
// The embedded set alone is parsed once and shared: a Set is read-only
// once made (its catalog frozen, its buffers pooled), and parsing every
// kind in every language cost each daemon.New about 0.1 s of CPU, half
// of what pbem/daemon's tests spent.
func New(overrideDir string) (*Set, error) {
	if overrideDir == "" {
		return embeddedSet()
	}
	return parse(overrideDir)
}

var embeddedSet = sync.OnceValues(func() (*Set, error) { return parse("") })

func parse(overrideDir string) (*Set, error) {
	read := func(name string) (string, error) {
		if overrideDir != "" {
			b, err := os.ReadFile(filepath.Join(overrideDir, filepath.FromSlash(name)))
			if err == nil {
				return string(b), nil
			}
			if !errors.Is(err, fs.ErrNotExist) {
				return "", fmt.Errorf("template override %s: %w", name, err)
			}
		}
		b, err := embedded.ReadFile(name)
		if err != nil {
			return "", fmt.Errorf("template %s: %w", name, err)
		}
		return string(b), nil
	}
	if overrideDir != "" {
		if st, err := os.Stat(overrideDir); err != nil || !st.IsDir() {
			return nil, fmt.Errorf("template directory %s is not a directory: %v", overrideDir, err)
		}
	}
	s := &Set{text: map[lang.Tag]map[string]*texttemplate.Template{}, html: map[lang.Tag]map[string]*htmltemplate.Template{},
		catalog: lang.NewCatalog(), langs: []lang.Tag{lang.English}}
	pos, err := poFiles(overrideDir)
	if err != nil {
		return nil, err
	}
	for _, name := range pos {
		tag, ok := lang.Parse(strings.TrimSuffix(path.Base(name), ".po"))
		if !ok || tag == lang.English {
			return nil, fmt.Errorf("template %s: not a language this server can write (engine/lang knows %v)", name, lang.Supported)
		}
		src, err := read(name)
		if err != nil {
			return nil, err
		}
		if err := s.catalog.AddPO(tag, src); err != nil {
			return nil, fmt.Errorf("template %s: %w", name, err)
		}
		if !slices.Contains(s.langs, tag) {
			// lang/ru.po and lang/ru-web.po both hold Russian: a
			// language's messages may be split by subject.
			s.langs = append(s.langs, tag)
		}
	}
	s.catalog.Freeze()
	base, err := read(common)
	if err != nil {
		return nil, err
	}
	for _, tag := range s.langs {
		s.text[tag], s.html[tag] = map[string]*texttemplate.Template{}, map[string]*htmltemplate.Template{}
		fm := s.funcs(tag)
		for _, kind := range Kinds() {
			name := kind + ".tmpl"
			src, err := read(name)
			if err != nil {
				return nil, err
			}
			tt, err := texttemplate.New(name).Funcs(fm).Parse(base)
			if err == nil {
				_, err = tt.Parse(src)
			}
			if err != nil {
				return nil, fmt.Errorf("template %s: %w", name, err)
			}
			ht, err := htmltemplate.New(name).Funcs(fm).Parse(base)
			if err == nil {
				_, err = ht.Parse(src)
			}
			if err != nil {
				return nil, fmt.Errorf("template %s (as HTML): %w", name, err)
			}
			for _, part := range []string{"subject", "text", "html"} {
				if tt.Lookup(part) == nil {
					return nil, fmt.Errorf("template %s defines no %q", name, part)
				}
			}
			s.text[tag][kind], s.html[tag][kind] = tt, ht
		}
	}
	return s, nil
}

// poFiles lists the message files, embedded and overriding, by path.
func poFiles(overrideDir string) ([]string, error) {
	seen := map[string]bool{}
	ents, err := embedded.ReadDir("lang")
	if err != nil {
		return nil, err
	}
	for _, e := range ents {
		seen["lang/"+e.Name()] = true
	}
	if overrideDir != "" {
		ents, err := os.ReadDir(filepath.Join(overrideDir, "lang"))
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("template override lang: %w", err)
		}
		for _, e := range ents {
			if strings.HasSuffix(e.Name(), ".po") {
				seen["lang/"+e.Name()] = true
			}
		}
	}
	var out []string
	for n := range seen {
		if strings.HasSuffix(n, ".po") {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out, nil
}

// Languages lists the languages the set writes, English first.
func (s *Set) Languages() []lang.Tag { return append([]lang.Tag(nil), s.langs...) }

// Catalog is the set's messages, for the daemon's own sentences.
func (s *Set) Catalog() *lang.Catalog { return s.catalog }

// Render renders one kind of mail for data (normally a *Data), in the
// language data.Lang names (English when the set has no such language).
func (s *Set) Render(kind string, data any) (Mail, error) {
	tag := lang.English
	if d, ok := data.(*Data); ok && d != nil {
		if s.text[d.Lang] != nil {
			tag = d.Lang
		}
		data = s.localized(d, tag)
	}
	tt, ok := s.text[tag][kind]
	if !ok {
		return Mail{}, fmt.Errorf("no template for mail kind %q (kinds: %s)", kind, strings.Join(Kinds(), ", "))
	}
	b := s.buffer()
	defer s.bufs.Put(b)
	if err := tt.ExecuteTemplate(b, "subject", data); err != nil {
		return Mail{}, fmt.Errorf("%s subject: %w", kind, err)
	}
	var m Mail
	m.Subject = strings.Join(strings.Fields(unmark(b.String())), " ")
	b.Reset()
	if err := tt.ExecuteTemplate(b, "text", data); err != nil {
		return Mail{}, fmt.Errorf("%s text: %w", kind, err)
	}
	m.Text = tidy(b.String())
	b.Reset()
	if err := s.html[tag][kind].ExecuteTemplate(b, "html", data); err != nil {
		return Mail{}, fmt.Errorf("%s html: %w", kind, err)
	}
	m.HTML = tidyHTML(b.Bytes())
	return m, nil
}

// buffer is an empty buffer from the set's pool. One that grew past a
// megabyte (a mail that large is cut anyway) is not kept.
func (s *Set) buffer() *bytes.Buffer {
	b, _ := s.bufs.Get().(*bytes.Buffer)
	if b == nil || b.Cap() > 1<<20 {
		return new(bytes.Buffer)
	}
	b.Reset()
	return b
}

// Part renders one shared piece of text (a define of _common.tmpl, such as
// "cut-text") on its own, in English, for a mail the daemon assembles
// itself.
func (s *Set) Part(name string, data any) (string, error) {
	var b bytes.Buffer
	if err := s.text[lang.English][Help].ExecuteTemplate(&b, name, data); err != nil {
		return "", fmt.Errorf("template part %s: %w", name, err)
	}
	return tidy(b.String()), nil
}
