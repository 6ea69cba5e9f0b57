package templates

import (
	"context"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"orrery/engine"
	"orrery/engine/game"
	"orrery/engine/lang"
	"orrery/engine/store"
	"orrery/games/prosper"
)

// englishWord is a word of English prose: lower-case Latin letters only.
// Names (planets start with a capital), order words (upper case), seeds
// and secrets (with digits) are not.
var englishWord = regexp.MustCompile(`\b[a-z]{3,}\b`)

// dataLines are the lines of the dice check a player copies, not reads:
// the step's inputs ("setup p1", "option map=default", a part's head
// "ann settle:1:ann sent" and salt) and commands.
var dataLines = regexp.MustCompile(`(?m)^ +((setup|player|option|orrery|--inputs|printf|salt|\| sha256sum)\b.*|\S+ \S+ (sent|default))$`)

// TestProsperInRussian renders every report of a Prosper game played by
// bots to its end in Russian for each player, as the mail side does for a
// reader whose LANG is ru: no English word of the game may be left (its
// events, questions, board legend, status, end), no line may pass 78
// columns, the board and events shown are those of the English report
// (the same events, in the same order), and one report is kept as
// testdata/report-prosper-ru.golden. A refusal of a bad order reads in
// Russian too, its fix included.
func TestProsperInRussian(t *testing.T) {
	st, err := store.Open(filepath.Join(t.TempDir(), "g.db"), store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	now := time.Date(2026, 11, 22, 20, 0, 0, 0, time.UTC)
	rs := prosper.Ruleset()
	tr := rs.(engine.Translator)
	svc := game.New(st, []engine.Ruleset{rs}, game.WithClock(func() time.Time { return now }))
	var steps []game.Step
	hook := func(tx store.Tx, c *game.Change) error {
		steps = append(steps, c.Steps...)
		return nil
	}
	g, err := svc.Create(context.Background(), game.CreateRequest{ID: "p1", Ruleset: "prosper", DiceSecret: "fixed",
		Options: map[string]string{"turn-limit": "4", "ships": "16"},
		Players: []game.PlayerSpec{{Name: "ann", Bot: true, Lang: "ru"}, {Name: "bob", Bot: true, Lang: "ru"}}}, hook)
	if err != nil {
		t.Fatal(err)
	}
	if !g.Over() {
		t.Fatalf("the game did not end in %d steps", len(steps))
	}
	set, err := New("")
	if err != nil {
		t.Fatal(err)
	}
	// The frame's own: a shell line to check a seed, the dice secret.
	allow := map[string]bool{"ann": true, "bob": true, "http": true, "https": true, "fixed": true, "secret": true}
	for i, step := range steps {
		for _, p := range g.Players {
			rep, err := step.Report(p.Name)
			if err != nil {
				t.Fatal(err)
			}
			d := &Data{Game: g.ID, Title: rep.Title, Player: p.Name, Secret: "s3cr3t", Report: rep, Lang: lang.Russian, Translator: tr}
			m, err := set.Render(Report, d)
			if err != nil {
				t.Fatal(err)
			}
			if d.Report != rep || rep.Board == "" {
				t.Fatal("rendering changed the report it was given")
			}
			text := strings.ReplaceAll(m.Text, rep.Title, "") // the game's name stays as it is
			text = dataLines.ReplaceAllString(text, "")       // the dice's inputs and commands, to copy
			for _, w := range englishWord.FindAllString(text, -1) {
				if !allow[w] {
					t.Errorf("step %d, %s: English %q in the Russian report:\n%s", i, p.Name, w, m.Text)
					break
				}
			}
			for k, l := range strings.Split(m.Text, "\n") {
				if engine.Width(l) > Width {
					t.Errorf("step %d, %s: line %d is %d columns: %q", i, p.Name, k+1, engine.Width(l), l)
				}
			}
			// The same board (its map part) and as many events as the
			// English report: translation adds and hides nothing.
			en, err := set.Render(Report, &Data{Game: g.ID, Title: rep.Title, Player: p.Name, Secret: "s3cr3t", Report: rep})
			if err != nil {
				t.Fatal(err)
			}
			mapPart, _, _ := strings.Cut(rep.Board, "\n\n")
			if !strings.Contains(m.Text, mapPart) || !strings.Contains(en.Text, mapPart) {
				t.Errorf("step %d, %s: the map is not intact", i, p.Name)
			}
			if a, b := strings.Count(m.Text, "\n- "), strings.Count(en.Text, "\n- "); a != b {
				t.Errorf("step %d, %s: %d items in Russian, %d in English", i, p.Name, a, b)
			}
			if i == 12 && p.Name == "ann" {
				checkGolden(t, "report-prosper-ru", m)
			}
			if i == len(steps)-1 && !strings.Contains(m.Text, "ИГРА ОКОНЧЕНА: достигнут предел") {
				t.Errorf("the last report does not say in Russian how the game ended:\n%s", m.Text)
			}
			if i == len(steps)-1 && !regexp.MustCompile(`<p[^>]*>Игра окончена: достигнут предел[^<]*кораблей</p>`).MatchString(m.HTML) {
				t.Errorf("the status's end, wrapped in the text, is not one paragraph in the HTML:\n%s", m.HTML)
			}
		}
	}
	// A digest has no one game's translator: each game is worded through
	// its report's view, its news from their messages, as the daemon
	// keeps them.
	var news []DigestNews
	for _, step := range steps[len(steps)-4:] {
		rep, err := step.Report("ann")
		if err != nil {
			t.Fatal(err)
		}
		news = append(news, DigestNews{Time: now, Kind: "report", Step: rep.Step, Turn: rep.Turn, Phase: rep.Phase, Events: rep.Events, PhaseMsg: rep.PhaseMsg, EventMsgs: rep.EventMsgs})
	}
	last, err := steps[len(steps)-1].Report("ann")
	if err != nil {
		t.Fatal(err)
	}
	digest, err := set.Render(Digest, &Data{Player: "ann", Lang: lang.Russian,
		Digest: []DigestGame{{ID: g.ID, Title: last.Title, Seat: "ann", News: news, Report: last}}})
	if err != nil {
		t.Fatal(err)
	}
	text := strings.ReplaceAll(digest.Text, last.Title, "")
	for _, w := range englishWord.FindAllString(text, -1) {
		if !allow[w] && w != "off" { // SET DIGEST off, a command of the frame
			t.Errorf("English %q in the Russian digest:\n%s", w, digest.Text)
			break
		}
	}
	if !strings.Contains(digest.Text, "Игра окончена") || !strings.Contains(digest.Text, "Владельцы:") {
		t.Errorf("the digest's game is not in Russian:\n%s", digest.Text)
	}

	// The rules: summary, orders and every option's help.
	info := rs.Info()
	rules, err := set.Render(Rules, &Data{Info: &info, Lang: lang.Russian, Translator: tr})
	if err != nil {
		t.Fatal(err)
	}
	text = dataLines.ReplaceAllString(strings.ReplaceAll(rules.Text, info.Title, ""), "")
	text = regexp.MustCompile(`(?m)^  [a-z-]+ = .*$`).ReplaceAllString(text, "") // "  map = default (one of …)"
	typed := map[string]bool{info.Name: true}                                    // the ruleset's name and the options' values, typed as they are
	for _, o := range info.Options {
		for _, c := range o.Choices {
			typed[c] = true
		}
	}
	for _, w := range englishWord.FindAllString(text, -1) {
		if !typed[w] {
			t.Errorf("English %q in the Russian rules:\n%s", w, rules.Text)
			break
		}
	}
	// A refused order: the error and its fix in Russian, as the game's
	// syntax check words them (messages), and as a game recorded before
	// messages has them (English only: the legacy Translate).
	errs := rs.(engine.SyntaxChecker).CheckSyntax("\nSETTLE Rigle 3\nMOVE 5 Sol")
	if len(errs) != 2 || errs[0].Why == nil || errs[1].Hint == nil {
		t.Fatalf("the syntax check's errors are not messages: %#v", errs)
	}
	for _, c := range []struct {
		name string
		errs []engine.LineError
	}{
		{"messages", errs},
		{"legacy", []engine.LineError{{Line: 2, Text: "SETTLE Rigle 3", Msg: "no planet named 'Rigle'", Fix: "did you mean 'Rigel'?"},
			{Line: 3, Text: "MOVE 5 Sol", Msg: "MOVE needs a number of ships and two planets", Fix: "write e.g. MOVE 5 FROM Sol TO Vega"}}},
	} {
		m, err := set.Render(Rejected, &Data{Game: g.ID, Title: "Prosper or Perish", Player: "ann", Secret: "s3cr3t", Lang: lang.Russian, Translator: tr, Ruleset: rs, Errors: c.errs})
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"нет планеты 'Rigle'", "может быть, 'Rigel'?", "MOVE требует число кораблей и две планеты", "напишите, например, MOVE 5 FROM Sol TO Vega"} {
			if !strings.Contains(m.Text, want) {
				t.Errorf("%s: the refusal lacks %q:\n%s", c.name, want, m.Text)
			}
		}
	}
}
