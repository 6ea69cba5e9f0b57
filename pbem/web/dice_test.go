package web

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"os"
	"regexp"
	"strings"
	"testing"

	"orrery/engine/game"
	"orrery/games"
)

// The dice page follows each game's own dice scheme: a game imported from
// before scheme 2 (games/testdata/dice-scheme1, with a rollback) shows its
// seeds and rolls with the words of scheme 1 and no inputs; a new game
// shows scheme 2's parts, digests and roll seeds, each reader's own
// secret parts readable and the others' sealed, who sent the last orders,
// and once it is over every part, stream and hidden seed to everyone.
func TestDicePageOfEachScheme(t *testing.T) {
	ctx := context.Background()
	svc, _ := toyGame(t)
	s := newSite(t, Config{Service: svc})
	ann := "/g/g1/p/" + tokenOf(t, svc, "g1", "ann")
	bob := "/g/g1/p/" + tokenOf(t, svc, "g1", "bob")
	mottoPart := func(path string) (diceStep, string) {
		t.Helper()
		steps := readDicePage(t, get(s, "GET", path+"/dice").Body.Bytes())
		for n, st := range steps {
			if st.scheme != "2" || st.digest == "" || st.rollSeed == "" || len(st.parts) == 0 {
				t.Errorf("%s: step %d is not shown as scheme 2: %+v", path, n, st)
			}
			for _, p := range st.parts {
				if strings.HasPrefix(p, "ann motto:ann sent") {
					return st, p
				}
			}
		}
		t.Fatalf("%s: no part of ann's motto", path)
		return diceStep{}, ""
	}
	for _, c := range []struct {
		path     string
		readable bool
	}{{"/g/g1", false}, {bob, false}, {ann, true}} {
		_, p := mottoPart(c.path)
		if strings.HasSuffix(p, "|sealed") == c.readable || strings.Contains(p, "never surrender") != c.readable || strings.Contains(p, "|salt |") {
			t.Errorf("%s: ann's motto shows as %q", c.path, p)
		}
	}
	body := get(s, "GET", "/g/g1/dice").Body.String()
	for _, want := range []string{"under scheme 2", "Last orders in: <b>bob</b>", `data-scheme="2"`, "sealed until the game ends"} {
		if !strings.Contains(body, want) {
			t.Errorf("the dice page of a scheme-2 game lacks %q", want)
		}
	}
	if step := get(s, "GET", "/g/g1/step/2").Body.String(); !strings.Contains(step, "Last orders in: <b>bob</b>") || !strings.Contains(step, `<li class="part"`) {
		t.Errorf("a step's page does not say who sent the last orders or what the dice depend on:\n%s", step)
	}

	// A player who sends again after everyone else's orders were in is
	// named as such: what a game master who plays would do to choose the
	// rolls.
	late := game.DefaultSettings()
	late.Early = false
	if _, err := svc.Create(ctx, game.CreateRequest{ID: "late", Ruleset: "toy", DiceSecret: "late", Settings: &late,
		Players: []game.PlayerSpec{{Name: "ann"}, {Name: "bob"}}}); err != nil {
		t.Fatal(err)
	}
	for _, in := range []game.Input{{Game: "late", Player: "ann", Text: "PUSH 1"}, {Game: "late", Player: "bob", Text: "PUSH 2"}, {Game: "late", Player: "ann", Text: "PUSH 3"}} {
		if _, err := svc.Submit(ctx, in); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := svc.Advance(ctx, "late", false); err != nil {
		t.Fatal(err)
	}
	const resent = "Last orders in: <b>ann</b>, who sent them again after everyone else's were in."
	for _, path := range []string{"/g/late/dice", "/g/late/step/1", "/g/late"} {
		if body := get(s, "GET", path).Body.String(); !strings.Contains(body, resent) {
			t.Errorf("%s does not say ann sent again after everyone else:\n%s", path, body)
		}
	}

	// Finished, the game shows everything to everyone.
	for i := 0; i < 40; i++ {
		g, err := svc.Get(ctx, "g1")
		if err != nil {
			t.Fatal(err)
		}
		if g.Over() {
			break
		}
		for _, p := range []string{"ann", "bob"} {
			if _, err := svc.Submit(ctx, game.Input{Game: "g1", Player: p, Text: "PUSH 3"}); err != nil {
				t.Fatal(err)
			}
		}
	}
	st, p := mottoPart("/g/g1")
	if strings.HasSuffix(p, "|sealed") || !strings.Contains(p, "never surrender") || st.hidden == "" {
		t.Errorf("over: ann's motto shows as %q, the hidden seed as %q", p, st.hidden)
	}
	if body := get(s, "GET", "/g/g1/dice").Body.String(); strings.Contains(body, "sealed until") || !strings.Contains(body, `data-secret="web-test"`) {
		t.Errorf("the dice page of a finished game still seals parts or lacks the secret")
	}

	// An old game keeps scheme 1.
	data, err := os.ReadFile("../../games/testdata/dice-scheme1/old-prosper.json")
	if err != nil {
		t.Fatal(err)
	}
	var x game.Export
	if err := json.Unmarshal(data, &x); err != nil {
		t.Fatal(err)
	}
	st1 := openStore(t)
	old := game.New(st1, games.All())
	if _, err := old.Import(ctx, &x, game.ImportOptions{}); err != nil {
		t.Fatal(err)
	}
	s1 := newSite(t, Config{Service: old})
	body = get(s1, "GET", "/g/old-prosper/dice").Body.String()
	if !strings.Contains(body, "(dice scheme 1)") || strings.Contains(body, "data-digest") || strings.Contains(body, `class="part"`) ||
		!strings.Contains(body, `data-epoch="1"`) {
		t.Errorf("an old game's dice page is not scheme 1's:\n%s", body)
	}
	for n, st := range readDicePage(t, []byte(body)) {
		if st.scheme != "1" || st.seed == "" || len(st.parts) > 0 {
			t.Errorf("old game, step %d: %+v", n, st)
		}
	}
	var d ReportDoc
	if err := json.Unmarshal(get(s1, "GET", "/g/old-prosper/report.json").Body.Bytes(), &d); err != nil {
		t.Fatal(err)
	}
	if d.Dice.Scheme != "1" || d.Dice.Digest != "" || d.Dice.RollSeed != "" || len(d.Dice.Inputs) > 0 {
		t.Errorf("an old game's report.json: %+v", d.Dice)
	}
}

// TestReceiptsOnTheDicePage: the receipt the ack of each accepted
// submission carries (engine/game's SubmitResult.Receipt) is on the dice page
// of the step that used it, in that step's section, with its head, so a
// player can find it there; and the page finds it for them (the finder's
// words are on the page).
func TestReceiptsOnTheDicePage(t *testing.T) {
	ctx := context.Background()
	svc, _ := toyGame(t)
	s := newSite(t, Config{Service: svc})
	var receipts []*game.SubmitResult
	for _, in := range []game.Input{{Game: "g1", Player: "ann", Text: "PUSH 1"}, {Game: "g1", Player: "bob", Text: "PUSH 3"}} {
		res, err := svc.Submit(ctx, in)
		if err != nil || !res.Accepted || res.Receipt == nil {
			t.Fatalf("%+v: %v %+v", in, err, res)
		}
		receipts = append(receipts, res)
	}
	g, err := svc.Get(ctx, "g1")
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/g/g1/dice", "/g/g1/p/" + tokenOf(t, svc, "g1", "ann") + "/dice"} {
		body := get(s, "GET", path).Body.String()
		i := strings.Index(body, fmt.Sprintf(`<section class="step" id="step-%d"`, g.Step))
		if i < 0 {
			t.Fatalf("%s: no section of step %d", path, g.Step)
		}
		section := body[i:]
		if j := strings.Index(section, "</section>"); j > 0 {
			section = section[:j]
		}
		for _, r := range receipts {
			want := fmt.Sprintf(`data-head="%s" data-hash="%s"`, r.Receipt.Head, r.Receipt.Hash)
			if !strings.Contains(section, want) {
				t.Errorf("%s: step %d lacks the receipt %s of %q", path, g.Step, r.Receipt.Hash, r.Receipt.Head)
			}
		}
		for _, want := range []string{`id="receipt-input"`, "The orders in the dice and their receipts"} {
			if !strings.Contains(body, want) {
				t.Errorf("%s lacks %q", path, want)
			}
		}
	}
}

// TestRussianDicePage: the dice page in Russian hands its check Russian
// verdicts (data-words), with every plural form, and the English one
// hands none (the script's ids are its English).
func TestRussianDicePage(t *testing.T) {
	svc, _ := toyGame(t)
	cat := webCatalog(t)
	s := newSite(t, Config{Service: svc, Catalog: cat})
	words := func(path string) diceWords {
		t.Helper()
		body := get(s, "GET", path).Body.String()
		m := regexp.MustCompile(`data-words="([^"]*)"`).FindStringSubmatch(body)
		if m == nil {
			t.Fatalf("%s: no data-words", path)
		}
		var w diceWords
		if err := json.Unmarshal([]byte(html.UnescapeString(m[1])), &w); err != nil {
			t.Fatalf("%s: data-words: %v", path, err)
		}
		return w
	}
	ru := words("/g/g1/dice?lang=ru")
	if ru.Lang != "ru" || len(ru.T) != len(diceMsgs) || len(ru.N) != len(diceCounts) {
		t.Fatalf("the Russian words: lang %q, %d of %d verdicts, %d of %d counted", ru.Lang, len(ru.T), len(diceMsgs), len(ru.N), len(diceCounts))
	}
	if got := ru.T["All verified with %s: %s. Every roll on this page is verified."]; got != "Всё проверено ({1}): {2}. Каждый бросок на этой странице проверен." {
		t.Errorf("the summary in Russian: %q", got)
	}
	if got := ru.N["%s roll recomputed"]; len(got) != 3 || got[2] != "{1} бросков пересчитаны" {
		t.Errorf("the forms of a count in Russian: %q", got)
	}
	if en := words("/g/g1/dice?lang=en"); en.Lang != "en" || len(en.T)+len(en.N) != 0 {
		t.Errorf("the English page hands words: %+v", en)
	}
}
