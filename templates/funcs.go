package templates

import (
	"fmt"
	htmltemplate "html/template"
	"regexp"
	"sort"
	"strings"
	"time"

	"orrery/engine"
	"orrery/engine/dice"
	"orrery/engine/game"
	"orrery/engine/lang"
)

// funcs are the template functions, bound to one language. Those that
// need the reader's time zone or the ruleset's translator take the *Data
// ($ in a template) first.
func (s *Set) funcs(tag lang.Tag) map[string]any {
	c := s.catalog
	t := func(format string, args ...any) string { return c.Sprintf(tag, format, args...) }
	tr := func(d *Data, text string) string { return s.phrase(tag, d, text) }
	tn := func(n int, one, other string, args ...any) string { return c.Nprintf(tag, n, one, other, args...) }
	nt := func(kind string) string {
		if title, ok := NoticeTitles[kind]; ok {
			return t(title)
		}
		return t("Game news: %s", kind)
	}
	return map[string]any{
		// t translates a sentence of the templates: t "Hello %s," .Player.
		"t": t,
		// tn translates a sentence chosen by a count: tn N ONE OTHER
		// [ARGS]; the count is the only argument when none is given.
		"tn": tn,
		// tr translates a sentence worded elsewhere, in English: an engine
		// notice, a step's reason, an error of the mail reader; its dates
		// are put in the reader's time zone.
		"tr": tr,
		// wideboard is the report's board in one piece for the HTML part
		// ("" when the text part's is the whole of it; wideboard.go).
		"wideboard": func(d *Data) string { return s.wideBoard(d, tag) },
		// word writes a word of a closed set (a step's reason, a
		// refusal's kind: messages.go) in the reader's language.
		"word": func(d *Data, w string) string { return s.word(tag, d, w) },
		// when writes a time (time.Time, *time.Time, or a string as
		// game.Report has it) in the reader's zone with UTC beside it; ""
		// for none.
		"when": func(d *Data, v any) string {
			t := parseTime(v)
			if t.IsZero() {
				return ""
			}
			return s.date(tag, zoneOf(d), t)
		},
		// phase is a ruleset's phase (or any of its recorded texts) in
		// the reader's language.
		"phase": func(d *Data, text string) string { return gameText(tag, d, text) },
		// local is a text of a ruleset that words all its texts for the
		// reader (engine.Localizer: an option's help) in the reader's
		// language; any other ruleset's stays as it is.
		"local": func(d *Data, text string) string {
			if out, ok := localText(tag, d, text); ok {
				return out
			}
			return text
		},
		// roll is one die: "#3 size of Arda: d4 = 2".
		"roll": func(d *Data, r dice.Roll) string {
			if r.Stream != "" {
				return t("#%d [%s] %s: d%d = %d", r.N, r.Stream, gameText(tag, d, r.Purpose), r.Sides, r.Value)
			}
			return t("#%d %s: d%d = %d", r.N, gameText(tag, d, r.Purpose), r.Sides, r.Value)
		},
		"purpose": func(d *Data, r dice.Roll) string { return gameText(tag, d, r.Purpose) },
		// names lists names for a sentence: "ann", "ann and bob", "ann,
		// bob and cy".
		"names": func(list []string) string {
			switch len(list) {
			case 0:
				return ""
			case 1:
				return list[0]
			}
			return t("%s and %s", strings.Join(list[:len(list)-1], ", "), list[len(list)-1])
		},
		"presshead": func(d *Data, p game.PressNote) string {
			when := s.date(tag, zoneOf(d), p.Time)
			to := strings.Join(p.To, ", ")
			if p.From == "" {
				return t("%s, anonymous, to %s:", when, to)
			}
			return t("%s, from %s to %s:", when, p.From, to)
		},
		"noticeTitle": nt,
		"langName": func(code string) string {
			if l, ok := lang.Parse(code); ok {
				return t(languageNames[l])
			}
			return code
		},
		"join":     strings.Join,
		"wrap":     wrap,
		"verbatim": verbatim,
		"fit":      fit,
		"col":      col,
		// playerCount is "2-6 players", or "2 players" for a fixed count.
		"playerCount": func(lo, hi int) string {
			if lo == hi {
				return tn(lo, "%d player", "%d players")
			}
			return t("%d-%d players", lo, hi)
		},
		// gameState is one game of LIST: over, signing up, or its turn;
		// and whether the reader plays in it.
		"gameState": func(d *Data, g GameSummary) string {
			var st string
			switch {
			case g.Over:
				st = t("over")
			case g.Signup:
				st = t("signing up, %d of %d seats taken; send JOIN %s to play", g.Seated, g.Seats, g.ID)
			case len(g.Open) > 0:
				open := len(g.Open)
				st = t("turn %d", g.Turn) + ", " + tn(open, "seat %s is open: send JOIN %s to take it", "seats %s are open: send JOIN %s to take one", strings.Join(g.Open, ", "), g.ID)
			case g.Phase != "":
				st = t("turn %d", g.Turn) + ", " + gameText(tag, d, g.Phase)
			default:
				st = t("turn %d", g.Turn)
			}
			if g.Mine {
				st += " " + t("(yours)")
			}
			return st
		},
		// myGame is one game of MY GAMES in a sentence: the reader's
		// seat, the turn, whether their orders are in, who is awaited,
		// the deadline in their zone.
		"myGame": func(d *Data, g MyGame) string {
			head := g.Title
			if g.Observing {
				head = t("%s, observed", g.Title)
			} else if g.Seat != "" {
				head = t("%s, seat %s", g.Title, g.Seat)
			}
			var parts []string
			switch {
			case g.Over && g.Won:
				parts = append(parts, t("over: you won"))
			case g.Over:
				parts = append(parts, t("over"))
			case g.Signup:
				parts = append(parts, t("signing up, %d of %d seats taken", g.Seated, g.Seats))
				if g.Creator {
					parts = append(parts, t("you opened it: START %s starts it with the players it has, INVITE %s and addresses asks others to play", g.ID, g.ID))
				}
			default:
				turn := t("turn %d", g.Turn)
				if g.Phase != "" {
					turn += ", " + gameText(tag, d, g.Phase)
				}
				parts = append(parts, turn)
				if !g.Observing {
					switch {
					case !g.Asked:
						parts = append(parts, t("nothing is asked of you now"))
					case g.OrdersIn:
						parts = append(parts, t("your orders are in"))
					default:
						parts = append(parts, t("your orders are missing"))
					}
				}
				if len(g.Awaited) > 0 {
					parts = append(parts, t("waiting for %s", strings.Join(g.Awaited, ", ")))
				}
				if !g.Deadline.IsZero() {
					parts = append(parts, t("deadline %s", s.date(tag, zoneOf(d), g.Deadline)))
				}
			}
			return head + ": " + strings.Join(parts, "; ") + "."
		},
		// record is a player's record in a sentence.
		"record": func(r *Record) string {
			vacation := ""
			switch {
			case r != nil && r.VacationDays > 0 && r.AutoVacationOff:
				vacation = " " + t("Vacation days: %d a year, not spent for you (you said SET AUTOVACATION off).", r.VacationDays)
			case r != nil && r.VacationDays > 0:
				vacation = " " + t("Vacation days this year: %d of %d left (%d hours), spent by the hour when a deadline passes without your orders (SET AUTOVACATION off stops that).", r.VacationLeft/24, r.VacationDays, r.VacationLeft)
			}
			if r == nil || r.Games == 0 {
				return t("You have not played a game here yet.") + vacation
			}
			steps := int(r.Steps)
			return strings.Join([]string{
				tn(r.Games, "%d game", "%d games"),
				tn(steps, "%d step played", "%d steps played"),
				tn(r.Missed, "%d missed (no orders sent)", "%d missed (no orders sent)"),
				tn(r.Abandoned, "%d seat abandoned", "%d seats abandoned"),
				tn(r.Won, "%d game won", "%d games won"),
			}, ", ") + "." + vacation
		},
		// digestHead is one piece of a digest's news: a step, or a notice.
		"digestHead": func(d *Data, n DigestNews) string {
			when := s.date(tag, zoneOf(d), n.Time)
			if n.Kind == "report" {
				st := t("Step %d, turn %d", n.Step, n.Turn)
				if n.Phase != "" {
					st += ", " + gameText(tag, d, n.Phase)
				}
				return when + ": " + st
			}
			return when + ": " + nt(n.Kind)
		},
		"listHeading": func(scope string) string {
			switch scope {
			case "stranger":
				return t("Games open to join")
			case "player":
				return t("Your games, then games open to join")
			}
			return t("Games")
		},
		"firstGame": func(d *Data) string {
			if len(d.Games) > 0 {
				return d.Games[0].ID
			}
			return "demo1"
		},
		"shell": shell,
		// receipt is the command that prints a receipt's hash (receipt.go).
		"receipt":     receiptShell,
		"receiptLine": game.ReceiptCommand,
		"hang":        func() string { return hangMark },
		"table":       statusHTML,
		"upper":       strings.ToUpper,
		"trimnl":      func(s string) string { return strings.TrimRight(s, "\n") },
		"blocking":    func(p engine.Prompt) bool { return p.Kind.Blocks() },
		"kib":         func(n int) string { return t("%d KiB", (n+1023)/1024) },
		// mib is a mail's size: KiB below a MiB, MiB above.
		"mib": func(n int) string {
			if n < 1<<20 {
				return t("%d KiB", (n+1023)/1024)
			}
			return t("%d MiB", (n+1<<20-1)>>20)
		},
		"lines":  lines,
		"indent": indent,
		"sorted": sorted,
		"add":    func(a, b int) int { return a + b },
		"inc":    func(n int) int { return n + 1 },
		// inputLines writes one input of a step's dice as it is hashed:
		// its head, salt and lines, then its SHA-256.
		"inputLines": func(p dice.Part) string {
			b := "  " + p.Head
			if p.Salt != "" {
				b += "\n    salt " + p.Salt
			}
			for _, l := range p.Lines {
				b += "\n    " + l
			}
			return b + "\n    " + p.Hash
		},
		// said shortens what a sender wrote, for quoting it back to them:
		// at most 50 characters, so that a quoted line stays within 78
		// columns and a long text is never repeated whole.
		"said": said,
		// quote and playerText show what a player wrote (press) to
		// others, marked as theirs: quote for text, playerText inside a
		// blockquote.
		"quote":      quote,
		"playerText": playerText,
		"langtag":    func() string { return string(tag) },
		// settingValue shows a setting's value, or that it is not set
		// and what applies instead.
		"settingValue": func(d *Data, st Setting) string {
			v := st.Value
			if v == "" {
				return t("not set: %s", describeSetting(t, st.Key, st.Default))
			}
			return describeSetting(t, st.Key, v)
		},
		"commands":   func() []Command { return Commands },
		"gmcommands": func() []Command { return GMCommands },
		"cmd":        cmd,
		// seats lists a game's seats: "ann, bob, cy (bot)".
		"seats": func(ps []game.Player) string {
			var out []string
			for _, p := range ps {
				if p.Bot {
					out = append(out, t("%s (bot)", p.Name))
				} else {
					out = append(out, p.Name)
				}
			}
			return strings.Join(out, ", ")
		},
		"tagof": func(d *Data) string {
			if d == nil || d.Game == "" {
				return ""
			}
			if d.Secret != "" {
				return "[" + d.Game + " " + d.Secret + "]"
			}
			return "[" + d.Game + "]"
		},
		// oneline writes a multi-line default on one line: "HOLD; PASS".
		"oneline": func(s string) string { return strings.Join(lines(s), "; ") },
		// cid is the URL of an inline part: html/template lets only
		// http, https and mailto through unmarked.
		"cid":       func(id string) htmltemplate.URL { return htmltemplate.URL("cid:" + id) },
		"dateStyle": func() string { return dateStyle },
	}
}

// languageNames are the languages' own names, as msgids.
var languageNames = map[lang.Tag]string{lang.English: "English", lang.Russian: "Russian"}

// dateStyle is how dates are written, for the SETTINGS reply.
const dateStyle = "Mon 2026-11-23 21:00 MSK (18:00 UTC)"

func zoneOf(d *Data) *time.Location {
	if d == nil || d.Zone == nil {
		return time.UTC
	}
	return d.Zone
}

func parseTime(v any) time.Time {
	switch v := v.(type) {
	case time.Time:
		return v
	case *time.Time:
		if v != nil {
			return *v
		}
	case string:
		for _, layout := range []string{time.RFC3339, "2006-01-02 15:04 MST", "Mon 2006-01-02 15:04 MST"} {
			if t, err := time.Parse(layout, v); err == nil {
				return t
			}
		}
	}
	return time.Time{}
}

var weekdays = []string{"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"}

// date writes t as "Thu 2026-11-26 21:00 MSK (18:00 UTC)": in the reader's
// zone, with UTC beside it (and UTC's weekday when the day differs), so
// that a deadline means the same to everyone. For a reader in UTC it is
// "Thu 2026-11-26 18:00 UTC".
func (s *Set) date(tag lang.Tag, zone *time.Location, t time.Time) string {
	u := t.UTC()
	wd := func(x time.Time) string { return s.catalog.Sprintf(tag, weekdays[x.Weekday()]) }
	if zone == time.UTC || zone.String() == "UTC" {
		return fmt.Sprintf("%s %s UTC", wd(u), u.Format("2006-01-02 15:04"))
	}
	l := t.In(zone)
	abbr := l.Format("MST")
	if strings.HasPrefix(abbr, "+") || strings.HasPrefix(abbr, "-") {
		abbr = "UTC" + abbr // zones with no abbreviation: "+03"
	}
	utc := u.Format("15:04") + " UTC"
	if u.Format("2006-01-02") != l.Format("2006-01-02") {
		utc = wd(u) + " " + utc
	}
	return fmt.Sprintf("%s %s %s (%s)", wd(l), l.Format("2006-01-02 15:04"), abbr, utc)
}

// utcDate finds the dates engine/game writes into its sentences.
var utcDate = regexp.MustCompile(`\b(?:(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) )?\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC\b`)

// phrase translates a sentence worded elsewhere in English (see tr), then
// puts its dates in the reader's zone and language.
func (s *Set) phrase(tag lang.Tag, d *Data, text string) string {
	// Only the first line is a sentence of ours: press and GM messages
	// go on with the players' own words.
	first, rest, multi := strings.Cut(text, "\n")
	var arg func(string) string
	arg = func(a string) string {
		// A length of time the engine wrote in words ("1 day 3 hours")
		// is said again in the reader's language, with its plurals.
		if d, ok := lang.ParseDuration(a); ok {
			return lang.Duration(tag, d)
		}
		if out, ok := s.catalog.TranslateArgs(tag, a, arg); ok {
			return out
		}
		return gameText(tag, d, a)
	}
	if out, ok := localText(tag, d, first); ok {
		// A ruleset's own sentence (engine.Localizer) as a whole, before
		// the templates' shorter patterns ("%s and %s") can split it.
		first = out
	} else if out, ok := s.catalog.TranslateArgs(tag, first, arg); ok {
		first = out
	} else {
		first = gameText(tag, d, first)
	}
	text = first
	if multi {
		text += "\n" + rest
	}
	zone := zoneOf(d)
	if tag == lang.English && zone == time.UTC {
		return text
	}
	return s.redate(tag, text, func(m string) string {
		t := parseTime(m)
		if t.IsZero() {
			t, _ = time.Parse("2006-01-02 15:04 MST", m)
		}
		if t.IsZero() {
			return m
		}
		return s.date(tag, zone, t)
	})
}

// gameText is one of the game's own recorded texts in the reader's
// language (engine.Translator), or as recorded.
func gameText(tag lang.Tag, d *Data, text string) string {
	if d == nil || d.Translator == nil || tag == lang.English {
		return text
	}
	if out, ok := d.Translator.Translate(string(tag), text); ok {
		return out
	}
	return text
}

// localText is text in the reader's language when the game's ruleset
// words its own texts for the reader only now (engine.Localizer) and
// knows this one.
func localText(tag lang.Tag, d *Data, text string) (string, bool) {
	if d == nil || tag == lang.English {
		return text, false
	}
	if lz, ok := d.Translator.(engine.Localizer); ok {
		return lz.Translate(string(tag), text)
	}
	return text, false
}

func lines(s string) []string {
	s = strings.TrimRight(s, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

func indent(n int, s string) string {
	pad := strings.Repeat(" ", n)
	ls := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range ls {
		if l != "" {
			ls[i] = pad + l
		}
	}
	return strings.Join(ls, "\n")
}

func sorted(list []string) []string {
	out := append([]string(nil), list...)
	sort.Strings(out)
	return out
}

// describeSetting writes a setting's value for people: a language by its
// name, a time zone with its offset now.
func describeSetting(t func(string, ...any) string, key, v string) string {
	switch key {
	case "LANG":
		if l, ok := lang.Parse(v); ok {
			return fmt.Sprintf("%s (%s)", v, t(languageNames[l]))
		}
	case "REMINDERS", "DIGEST", "PICTURES":
		switch v {
		case "on":
			return t("on")
		case "off":
			return t("off")
		}
	case "TZ":
		if z, err := time.LoadLocation(v); err == nil {
			_, off := time.Now().In(z).Zone()
			if off == 0 {
				return v
			}
			return fmt.Sprintf("%s (UTC%+d:%02d)", v, off/3600, abs(off%3600)/60)
		}
	}
	return v
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// said cuts s to 50 characters, ending a cut text with "...".
func said(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 50 {
		return string(r[:47]) + "..."
	}
	return s
}
