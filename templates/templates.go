// Package templates holds the text of every mail the daemon sends, one
// template file per kind of mail, embedded in the binary and overridable
// file by file from a directory named in the config.
//
// Each kind file defines three templates: "subject", "text" (text/plain,
// rendered with text/template) and "html" (rendered with html/template, so
// everything from players and rulesets is escaped; boards go in <pre> so
// that webmail keeps them aligned). _common.tmpl defines what several kinds
// share: the subject tag, error lists, the report body. All kinds receive a
// *Data; each documents the fields it reads.
package templates

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	htmltemplate "html/template"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	texttemplate "text/template"
	"time"

	"orrery/engine"
	"orrery/engine/dice"
	"orrery/engine/game"
)

//go:embed *.tmpl
var embedded embed.FS

// The kinds of mail, one template file each.
const (
	Welcome       = "welcome"        // a seat was given: Game, Player, Secret, Info, Players, Report
	Ack           = "ack"            // orders accepted: Orders, Replaced, Prompt, Waiting, Deadline
	Rejected      = "rejected"       // orders or mail refused: Errors (and Prompt when known)
	Report        = "report"         // a step resolved: Report
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
	HeldOrders    = "held"           // orders held as a possibly stale copy: Held
)

// NoticeTitles is the subject of a notice mail, by game.Notice kind:
// engine/game's notices, and the daemon's answers to a player's own
// commands ("press-sent" confirms a PRESS, so that it is not taken for
// press received). The notice template reads it with noticeTitle; a kind
// missing here gets "Game news: <kind>", which TestNoticeGolden keeps
// from happening to any kind the engine or the daemon sends.
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
	// Answers to a player's own commands.
	"resign":     "You resigned",
	"press-sent": "Your press was sent",
	"observe":    "You now observe the game",
	"unobserve":  "You no longer observe the game",
}

// Kinds lists every kind of mail in a fixed order.
func Kinds() []string {
	return []string{Welcome, Ack, Rejected, Report, Help, List, Rules, Status, History,
		WrongSecret, MissingSecret, OwnerWarning, Oversize, UnknownSender, Notice, HeldOrders}
}

// Data is what every template receives. A kind reads only the fields its
// constant names; the others may stay zero.
type Data struct {
	Bot     string // the daemon's own address, where players write
	Game    string // game id; "" for mail about no game
	Title   string // the ruleset's title ("Prosper or Perish")
	Player  string // seat name of the addressee ("" for strangers)
	Secret  string // the addressee's secret: goes in the subject tag, so a reply authenticates
	Subject string // the subject of the mail answered, if any

	Orders   []string           // ack: the orders as understood, canonical
	Replaced bool               // ack: they replace earlier orders for the same prompt
	Prompt   engine.Prompt      // ack, rejected: what was answered
	Errors   []engine.LineError // rejected: every error, with its line and fix
	Waiting  []string           // ack, status: who is still to send (never what anyone sent)
	Deadline time.Time          // ack, status, welcome: zero for none

	Report  *game.Report  // report, status, history, welcome
	Web     string        // report, welcome: the addressee's private web page ("" without http)
	Info    *engine.Info  // welcome, rules, help
	Players []game.Player // welcome: the seats (only names and bots are shown)
	Games   []GameSummary // list
	Rules   []engine.Info // list
	Attempt *Attempt      // owner-warning, wrong-secret
	Notice  *game.Notice  // notice
	Size    int           // oversize: bytes of text received
	Limit   int           // oversize: bytes allowed

	// Ignored are lines of the mail not read as orders (greetings,
	// chatter), at most 10, IgnoredMore how many more there were, and
	// PastedFrom–PastedTo a report of ours pasted back and skipped whole
	// (0: none): ack, rejected.
	Ignored              []Line
	IgnoredMore          int
	PastedFrom, PastedTo int
	Applied              bool   // rejected: other parts of the same mail were applied
	Held                 *Held  // held
	Page, Pages          int    // list: this page and how many
	Scope                string // list: "stranger" (open games only), "player" (theirs first) or "gm" (every game)
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

// GameSummary is one line of the LIST reply.
type GameSummary struct {
	ID, Ruleset, Title string
	Turn               int
	Phase              string
	Seated, Seats      int
	Signup             bool // open for JOIN
	Over               bool
	Mine               bool // the addressee plays in it
}

// Attempt describes a mail that tried to act for a seat and failed. It
// holds nothing the sender wrote (neither address nor subject): a warning
// must never carry a stranger's words from the bot's own address.
type Attempt struct {
	Date   time.Time // when it was written
	Reason string    // "wrong secret", "your secret from another address"
}

// Mail is a rendered mail.
type Mail struct {
	Subject string
	Text    string
	HTML    string
}

// Set is the parsed templates of every kind.
type Set struct {
	text map[string]*texttemplate.Template
	html map[string]*htmltemplate.Template
}

const common = "_common.tmpl"

// New parses the embedded templates; a file of the same name in
// overrideDir ("" for none) replaces an embedded one. A kind file that does
// not define subject, text and html is an error, named with its file.
func New(overrideDir string) (*Set, error) {
	read := func(name string) (string, error) {
		if overrideDir != "" {
			b, err := os.ReadFile(filepath.Join(overrideDir, name))
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
	base, err := read(common)
	if err != nil {
		return nil, err
	}
	s := &Set{text: map[string]*texttemplate.Template{}, html: map[string]*htmltemplate.Template{}}
	for _, kind := range Kinds() {
		name := kind + ".tmpl"
		src, err := read(name)
		if err != nil {
			return nil, err
		}
		tt, err := texttemplate.New(name).Funcs(funcs).Parse(base)
		if err == nil {
			_, err = tt.Parse(src)
		}
		if err != nil {
			return nil, fmt.Errorf("template %s: %w", name, err)
		}
		ht, err := htmltemplate.New(name).Funcs(funcs).Parse(base)
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
		s.text[kind], s.html[kind] = tt, ht
	}
	return s, nil
}

// Render renders one kind of mail for data (normally a *Data).
func (s *Set) Render(kind string, data any) (Mail, error) {
	tt, ok := s.text[kind]
	if !ok {
		return Mail{}, fmt.Errorf("no template for mail kind %q (kinds: %s)", kind, strings.Join(Kinds(), ", "))
	}
	var subj, text, html bytes.Buffer
	if err := tt.ExecuteTemplate(&subj, "subject", data); err != nil {
		return Mail{}, fmt.Errorf("%s subject: %w", kind, err)
	}
	if err := tt.ExecuteTemplate(&text, "text", data); err != nil {
		return Mail{}, fmt.Errorf("%s text: %w", kind, err)
	}
	if err := s.html[kind].ExecuteTemplate(&html, "html", data); err != nil {
		return Mail{}, fmt.Errorf("%s html: %w", kind, err)
	}
	return Mail{
		Subject: strings.Join(strings.Fields(subj.String()), " "),
		Text:    tidy(text.String()),
		HTML:    tidyHTML(html.String()),
	}, nil
}

// Part renders one shared piece of text (a define of _common.tmpl, such as
// "cut-text") on its own, for a mail the daemon assembles itself.
func (s *Set) Part(name string, data any) (string, error) {
	var b bytes.Buffer
	if err := s.text[Help].ExecuteTemplate(&b, name, data); err != nil {
		return "", fmt.Errorf("template part %s: %w", name, err)
	}
	return tidy(b.String()), nil
}

var manyBlank = regexp.MustCompile(`\n{3,}`)

// tidy lets templates be written for readability: trailing spaces go, runs
// of blank lines become one, and the text ends with exactly one newline.
func tidy(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t")
	}
	s = manyBlank.ReplaceAllString(strings.Join(lines, "\n"), "\n\n")
	return strings.Trim(s, "\n") + "\n"
}

var blankLines = regexp.MustCompile(`\n[ \t]*\n(?:[ \t]*\n)*`)

// tidyHTML drops the blank lines that template actions leave between
// elements, except inside <pre>, where every line counts.
func tidyHTML(s string) string {
	var out strings.Builder
	for {
		i := strings.Index(s, "<pre")
		if i < 0 {
			out.WriteString(blankLines.ReplaceAllString(s, "\n"))
			break
		}
		j := strings.Index(s[i:], "</pre>")
		if j < 0 {
			out.WriteString(s)
			break
		}
		out.WriteString(blankLines.ReplaceAllString(s[:i], "\n"))
		out.WriteString(s[i : i+j+len("</pre>")])
		s = s[i+j+len("</pre>"):]
	}
	return strings.TrimSpace(out.String()) + "\n"
}

var funcs = map[string]any{
	// when formats a deadline: a time.Time, an RFC 3339 string (as in
	// game.Report) or nothing.
	"when": func(v any) string {
		var t time.Time
		switch v := v.(type) {
		case time.Time:
			t = v
		case *time.Time:
			if v != nil {
				t = *v
			}
		case string:
			t, _ = time.Parse(time.RFC3339, v)
		}
		if t.IsZero() {
			return ""
		}
		return t.UTC().Format("Mon 2006-01-02 15:04 MST")
	},
	// names lists names for a sentence: "ann", "ann and bob", "ann, bob and cy".
	"names": func(list []string) string {
		switch len(list) {
		case 0:
			return ""
		case 1:
			return list[0]
		}
		return strings.Join(list[:len(list)-1], ", ") + " and " + list[len(list)-1]
	},
	"join": strings.Join,
	"wrap": wrap,
	// presshead introduces one press message of a HISTORY reply.
	"presshead": func(p game.PressNote) string {
		from := "anonymous"
		if p.From != "" {
			from = "from " + p.From
		}
		return fmt.Sprintf("%s, %s to %s:", p.Time.UTC().Format("Mon 2006-01-02 15:04 MST"), from, strings.Join(p.To, ", "))
	},
	// hang wraps one event or die to 78 columns under its bullet.
	"hang":  func(first, rest, s string) string { return engine.Wrap(s, 78, first, rest) },
	"upper": strings.ToUpper,
	"lines": func(s string) []string {
		s = strings.TrimRight(s, "\n")
		if s == "" {
			return nil
		}
		return strings.Split(s, "\n")
	},
	"indent": func(n int, s string) string {
		pad := strings.Repeat(" ", n)
		lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
		for i, l := range lines {
			if l != "" {
				lines[i] = pad + l
			}
		}
		return strings.Join(lines, "\n")
	},
	"roll": func(r dice.Roll) string { return r.String() },
	"noticeTitle": func(kind string) string {
		if t, ok := NoticeTitles[kind]; ok {
			return t
		}
		return "Game news: " + kind
	},
	"kib": func(n int) string { return fmt.Sprintf("%d KiB", (n+1023)/1024) },
	// said shortens what a sender wrote, for quoting it back to them:
	// at most 50 characters, so that a quoted line stays within 78
	// columns and a long text is never repeated whole.
	"said":     said,
	"inc":      func(n int) int { return n + 1 },
	"plural":   func(n int, one, many string) string { return map[bool]string{true: one, false: many}[n == 1] },
	"trimnl":   func(s string) string { return strings.TrimRight(s, "\n") },
	"blocking": func(p engine.Prompt) bool { return p.Kind.Blocks() },
	"sorted": func(list []string) []string {
		out := append([]string(nil), list...)
		sort.Strings(out)
		return out
	},
}

// said cuts s to 50 characters, ending a cut text with "...".
func said(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 50 {
		return string(r[:47]) + "..."
	}
	return s
}

// wrap fills prose to 76 columns, paragraph by paragraph (blank lines
// kept); a word longer than that stands alone on its line.
func wrap(s string) string {
	var out []string
	for _, para := range strings.Split(strings.TrimRight(s, "\n"), "\n\n") {
		var lines []string
		line := ""
		for _, w := range strings.Fields(para) {
			if line != "" && len([]rune(line))+1+len([]rune(w)) > 76 {
				lines = append(lines, line)
				line = ""
			}
			if line != "" {
				line += " "
			}
			line += w
		}
		if line != "" {
			lines = append(lines, line)
		}
		out = append(out, strings.Join(lines, "\n"))
	}
	return strings.Join(out, "\n\n")
}
