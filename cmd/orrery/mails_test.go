package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"orrery/engine"
	"orrery/engine/lang"
	"orrery/games"
	"orrery/pbem/pbemtest"
)

// TestDemoMailsReadWell plays each ruleset by mail in English and in
// Russian (demo --save) and reads every mail the server sent as a player
// would: every text/plain line at most 78 columns, no template debris, and
// in Russian no English frame text: what is left in Latin letters is names
// (players, planets, ships, the game), order words and commands, cells,
// seeds and the dice commands. In English, lang.Check finds no "1
// <plural>", no "(s)" and no article that misfits its word.
func TestDemoMailsReadWell(t *testing.T) {
	if testing.Short() {
		t.Skip("plays ten games by mail: runs without -short")
	}
	for _, rs := range games.All() {
		for _, language := range []string{"en", "ru"} {
			name := rs.Info().Name + "-" + language
			t.Run(name, func(t *testing.T) {
				dir := t.TempDir()
				var out bytes.Buffer
				e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &out, rulesets: games.All()}
				args := []string{"demo", "--ruleset", rs.Info().Name, "--turns", "3", "--lang", language, "--save", dir}
				if language == "ru" && !raceOn {
					// The whole game: its end, and every kind of step,
					// must be Russian too (issue 40). A loaded machine
					// takes minutes over Earthman's 149 steps.
					args = []string{"demo", "--ruleset", rs.Info().Name, "--lang", language, "--save", dir, "--timeout", "12m"}
				}
				if err := run(context.Background(), e, args); err != nil {
					t.Fatalf("demo: %v\n%s", err, out.String())
				}
				files, _ := filepath.Glob(filepath.Join(dir, "*-orrery-*.eml"))
				if len(files) < 5 {
					t.Fatalf("only %d mails from the server", len(files))
				}
				kinds := map[string]int{}
				for _, f := range files {
					raw, err := os.ReadFile(f)
					if err != nil {
						t.Fatal(err)
					}
					_, _, _, kind := mailHead(pbemtest.Mail{Data: raw})
					kinds[kind]++
					text := mailText(raw)
					checkText(t, filepath.Base(f), text)
					if language == "en" {
						// Issue 19: counts agree with their nouns, articles
						// with the sound after them.
						for _, slip := range lang.Check(text) {
							t.Errorf("%s: %s", filepath.Base(f), slip)
						}
					}
					if language == "ru" {
						if words := englishWords(text, rs.Info()); len(words) > 0 {
							t.Errorf("%s: English in a Russian player's mail: %v\n%s", filepath.Base(f), words, text)
						}
						checkFrameRussian(t, filepath.Base(f), text)
					}
				}
				for _, k := range []string{"welcome", "report", "reply"} {
					if kinds[k] == 0 {
						t.Errorf("no %s mail among %v", k, kinds)
					}
				}
			})
		}
	}
}

// checkText reads one text part as its reader would.
func checkText(t *testing.T, name, text string) {
	t.Helper()
	for i, l := range strings.Split(text, "\n") {
		if w := engine.Width(l); w > 78 {
			t.Errorf("%s line %d is %d columns: %q", name, i+1, w, l)
		}
	}
	for _, bad := range []string{"<no value>", "%!", "\x0e", "\x0f", "\x11", "{{"} {
		if strings.Contains(text, bad) {
			t.Errorf("%s holds %q:\n%s", name, bad, text)
		}
	}
}

var (
	latinWord = regexp.MustCompile(`[A-Za-z][A-Za-z0-9']+`)
	hexRun    = regexp.MustCompile(`\b[0-9a-f]{16,}\b`)
	tagRun    = regexp.MustCompile(`\[[a-z0-9-]+ [A-Za-z0-9_-]+\]`)
	optionRun = regexp.MustCompile(`\b[a-z_]+=[a-z0-9]+\b`)
	// A setting as the reader types it: SET DIGEST on.
	setCmd = regexp.MustCompile(`\bSET [A-Z]+ (on|off)\b`)
	glyphs = regexp.MustCompile(`^(?:[A-Za-z]\d+)+$`) // the board's marks: t1, G2t2
	url    = regexp.MustCompile(`https?://\S+`)
	// inputLine is a line of the dice's inputs, shown exactly as it is
	// hashed ("ann turn:ann sent", "setup player ann", "salt …"): data to
	// check with sha256sum, not words to translate.
	inputLine = regexp.MustCompile(`(?m)^  (?:setup \S+|\S+ \S+:\S+ \S+|  (?:salt|player|option) .*)$`)
	// earthmanRegions is a world's regions on The Earthman's Burden's
	// board, one owner's letter a region: marks, not words.
	earthmanRegions = regexp.MustCompile(`\[[a-fA-FU.#!0-9]+\](?:\+[a-f]+)?`)
	// receiptCmd is an ack's command that checks its receipt (printf of
	// the part's head, salt and orders, quoted, folded over lines).
	receiptCmd = regexp.MustCompile(`(?m)^  printf '%s\\n' .*$|^    '.*$`)
)

// allowed are the Latin words a Russian mail may hold: names of the game
// and of its things, and the words of commands a player types.
var allowed = map[string]bool{
	// players, the game, the server, the dice commands
	"ann": true, "bob": true, "cyd": true, "demo": true, "orrery": true, "dice": true, "commitment": true,
	"printf": true, "sha256sum": true, "inputs": true, "secret": true, "EPOCH": true, "STEP": true, "HMAC": true, "SHA": true,
	"example": true, "org": true, "pbem": true, "test": true,
	// Burning Planets: its title, planets, ships and biomes (so named in
	// the Russian rule book too), resource letters
	"Burning": true, "Planets": true, "Arda": true, "Borvik": true, "Cetra": true, "Dunmor": true, "Elys": true,
	"Fenn": true, "Gorra": true, "Halo": true, "Ixion": true, "Jorun": true, "Kell": true, "Lumo": true,
	"Spear": true, "Hammer": true, "Eagle": true, "Obliterator": true, "Cargo": true, "ship": true,
	"Byte": true, "Kilo": true, "Mega": true, "Tera": true, "Scout": true, "Hunter": true, "Butcher": true, "Devourer": true,
	"Fair": true, "Harsh": true, "Water": true,
	// Prosper or Perish: its planets (the stars they are named after keep
	// their Latin names on the board and in orders)
	"Sol": true, "Vega": true, "Rigel": true, "Deneb": true, "Altair": true,
	"Sirius": true, "Antares": true, "Castor": true, "Pollux": true, "Capella": true, "Arcturus": true, "Mira": true,
	"Spica": true, "Regulus": true, "Algol": true, "Hamal": true, "Canopus": true, "Electra": true, "Fornax": true,
	"Hadar": true, "Izar": true, "Kochab": true, "Lyra": true, "Mizar": true, "Nunki": true, "Orion": true, "Procyon": true,
	"Rana": true, "Shaula": true, "Thuban": true, "Unuk": true, "Wezen": true, "Zosma": true, "Achernar": true, "Merak": true,
	"Cursa": true, "Diadem": true,
}

// allowedIn are the Latin words a Russian mail of one ruleset may hold
// besides allowed: the proper names its Russian keeps (each listed in the
// glossary of the game's README).
var allowedIn = map[string]map[string]bool{
	"earthman-classic": earthmanNames,
	"earthman":         earthmanNames,
	"orbital":          orbitalNames,
}

// englishWords lists the words of a Russian mail that are English text:
// Latin words that are neither allowed names, upper-case command or order
// words, cells (K6, AM17), dice (d6), option settings nor seeds.
func englishWords(text string, info engine.Info) []string {
	for _, m := range tagRun.FindAllString(text, -1) {
		// The reader's secret, wherever it is written.
		secret := strings.TrimSuffix(strings.Fields(m)[1], "]")
		text = strings.ReplaceAll(text, secret, "")
	}
	// The game's name ("Prosper or Perish"), also where a wrapped
	// sentence breaks it over two lines.
	title := strings.Fields(info.Title)
	for i := range title {
		title[i] = regexp.QuoteMeta(title[i])
	}
	text = regexp.MustCompile(strings.Join(title, `\s+`)).ReplaceAllString(text, "")
	text = url.ReplaceAllString(text, "")
	text = inputLine.ReplaceAllString(text, "")
	text = receiptCmd.ReplaceAllString(text, "")
	text = hexRun.ReplaceAllString(text, "")
	text = optionRun.ReplaceAllString(text, "")
	text = setCmd.ReplaceAllString(text, "")
	if strings.HasPrefix(info.Name, "earthman") {
		// The Earthman's Burden's regions on the board: one owner's
		// letter a region ([aabcUUU], [aA2U!]+ab in the full rules).
		text = earthmanRegions.ReplaceAllString(text, "")
	}
	var out []string
	for _, w := range latinWord.FindAllString(text, -1) {
		switch {
		case allowed[w], allowedIn[info.Name][w], w == strings.ToUpper(w), glyphs.MatchString(w):
		case strings.HasPrefix(w, "d") && len(w) > 1 && strings.Trim(w[1:], "0123456789") == "",
			w == strings.ToUpper(w[:1])+strings.ToUpper(strings.Trim(w[1:], "0123456789")): // cells: K6, AM17
		default:
			out = append(out, w)
		}
	}
	return out
}

// checkFrameRussian checks the frame of a Russian mail of a ruleset that
// writes English only: its greeting, headings and closing are Russian.
func checkFrameRussian(t *testing.T, name, text string) {
	t.Helper()
	for _, en := range []string{"Hello", "EVENTS", "DICE", "WHAT IS EXPECTED", "To answer", "Deadline", "Still to send", "Seed of this step"} {
		if strings.Contains(text, en) {
			t.Errorf("%s: the frame of a Russian mail says %q:\n%s", name, en, text)
		}
	}
}
