package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"orrery/engine"
	"orrery/engine/dice"
	"orrery/engine/game"
	"orrery/engine/store"
	"orrery/pbem/web"
)

// spyRace is the toy race with everything the dice pages of scheme 2 keep
// apart (as in pbem/web's tests): a deck shuffled at setup that no player
// sees, a die for each push that only its pusher sees, and orders public
// (engine.PublicOrders) but for a push with a NOTE line, which is secret.
type spyRace struct{ engine.Ruleset }

type spyState struct{ engine.State }

type spyView struct{ engine.View }

func (r spyRace) Info() engine.Info {
	i := r.Ruleset.Info()
	i.Name, i.Title = "spy-race", "Toy Race with secrets"
	i.OrderHelp += "\nNOTE <text>    a secret note with your push"
	return i
}

func (r spyRace) NewState(s engine.Setup, d *dice.Dice) (engine.State, error) {
	st, err := r.Ruleset.NewState(s, d)
	d.ShuffleFor(8, "the deck", func(i, j int) {}, dice.GMOnly)
	return spyState{st}, err
}

func (r spyRace) LoadState(data []byte) (engine.State, error) {
	st, err := r.Ruleset.LoadState(data)
	return spyState{st}, err
}

func (s spyState) View(player string) engine.View { return spyView{s.State.View(player)} }

func (v spyView) Parse(p engine.Prompt, text string) (engine.Orders, []engine.LineError) {
	var rest, notes []string
	for _, l := range strings.Split(text, "\n") {
		if t := strings.TrimSpace(l); p.Kind == engine.KindTurn && strings.HasPrefix(strings.ToUpper(t), "NOTE ") {
			notes = append(notes, "NOTE "+strings.TrimSpace(t[5:]))
		} else {
			rest = append(rest, l)
		}
	}
	o, errs := v.View.Parse(p, strings.Join(rest, "\n"))
	if len(errs) > 0 {
		return nil, errs
	}
	return append(engine.TextOrders(append([]string(nil), o.Lines()...)), notes...), nil
}

func (s spyState) Resolve(answers []engine.Answer, d *dice.Dice) ([]engine.Event, error) {
	events, err := s.State.Resolve(answers, d)
	for _, a := range answers {
		if a.Prompt.Kind == engine.KindTurn {
			d.RollFor(6, "the spy die of "+a.Prompt.Player, a.Prompt.Player)
		}
	}
	return events, err
}

func (s spyState) OrdersPublic(a engine.Answer) bool {
	for _, l := range a.Orders.Lines() {
		if strings.HasPrefix(l, "NOTE ") {
			return false
		}
	}
	return a.Prompt.Kind == engine.KindTurn
}

// diceGames are the games whose dice the browser checks beside the game by
// mail: two of scheme 2 with every kind of secret ("spy" running, with
// ann's token; "spy-over" finished after a rollback), and three imported
// from before scheme 2 (old-prosper running after a rollback, old-earthman
// running with dice hidden from every player, old-orbital played to its
// end).
type diceGames struct {
	annSpy string // ann's private page in "spy"
	// receipt is the receipt the ack of the last orders of "spy" (bob's)
	// carried: the dice page finds it.
	receipt string
	steps   map[string]uint64
}

// setUpDiceGames makes the diceGames in svc, before the daemon runs (its
// tick plays bots too).
func setUpDiceGames(t *testing.T, ctx context.Context, svc *game.Service) diceGames {
	t.Helper()
	dg := diceGames{steps: map[string]uint64{}}
	submit := func(id string, orders ...string) {
		t.Helper()
		for i := 0; i+1 < len(orders); i += 2 {
			in := game.Input{Game: id, Player: orders[i], Text: orders[i+1]}
			if strings.HasPrefix(in.Text, "MOTTO") {
				in.Prompt = "motto:" + in.Player
			}
			res, err := svc.Submit(ctx, in)
			if err != nil || !res.Accepted {
				t.Fatalf("%s: %s's orders %q: %v %+v", id, in.Player, in.Text, err, res)
			}
			if id == "spy" && res.Receipt != nil {
				dg.receipt = res.Receipt.Hash
			}
		}
	}
	players := []game.PlayerSpec{{Name: "ann"}, {Name: "bob"}}
	for _, id := range []string{"spy", "spy-over"} {
		if _, err := svc.Create(ctx, game.CreateRequest{ID: id, Ruleset: "spy-race", Players: players, DiceSecret: "chromium-" + id}); err != nil {
			t.Fatal(err)
		}
		submit(id, "ann", "PUSH 2\nNOTE ann hides the plan in the north", "bob", "PUSH 1",
			"ann", "MOTTO never let them see the deck",
			"ann", "PUSH 3", "bob", "PUSH 2\nNOTE bob keeps his reserve for the last lap")
	}
	if _, _, err := svc.Rollback(ctx, "spy-over", 2, "a test of the dice after a rollback"); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 30; i++ {
		g, err := svc.Get(ctx, "spy-over")
		if err != nil {
			t.Fatal(err)
		}
		if g.Over() {
			break
		}
		submit("spy-over", "ann", "PUSH 3\nNOTE ann runs", "bob", "PUSH 3")
	}
	for _, name := range []string{"old-prosper", "old-earthman", "old-orbital"} {
		data, err := os.ReadFile(filepath.Join("..", "..", "games", "testdata", "dice-scheme1", name+".json"))
		if err != nil {
			t.Fatal(err)
		}
		var x game.Export
		if err := json.Unmarshal(data, &x); err != nil {
			t.Fatal(err)
		}
		if _, err := svc.Import(ctx, &x, game.ImportOptions{}); err != nil {
			t.Fatalf("import %s: %v", name, err)
		}
	}
	for i := 0; i < 100; i++ {
		if _, err := svc.Advance(ctx, "old-orbital", true); err != nil {
			t.Fatal(err)
		}
		if g, err := svc.Get(ctx, "old-orbital"); err != nil || g.Over() {
			break
		}
	}
	for _, id := range []string{"spy", "spy-over", "old-prosper", "old-earthman", "old-orbital"} {
		g, err := svc.Get(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]int{"spy": 2, "spy-over": 2}[id]
		if want == 0 {
			want = 1
		}
		if g.Scheme() != want || (g.Over() != (id == "spy-over" || id == "old-orbital")) {
			t.Fatalf("%s: dice scheme %d, over %v", id, g.Scheme(), g.Over())
		}
		dg.steps[id] = g.Step
	}
	err := svc.Store().Update(ctx, func(tx store.Tx) error {
		g, err := svc.GetTx(tx, "spy")
		if err != nil {
			return err
		}
		p, _ := g.PlayerByName("ann")
		tok, err := web.Token(tx, g, p)
		dg.annSpy = "/g/spy/p/" + tok
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return dg
}

// checkDiceSchemes runs the dice check in the browser over the diceGames
// and the archive of the finished one: everything verifies with either
// SHA-256, each page shows what its reader may check, and a changed roll,
// part, hash or a roll left out is caught and named.
func checkDiceSchemes(t *testing.T, ctx context.Context, browser context.Context, base string, site *web.Site, dg diceGames,
	visit func(url, shot string), eval func(js string) string) {
	t.Helper()
	count := func(sel string) int {
		t.Helper()
		var n int
		fmt.Sscan(eval(`String(document.querySelectorAll('`+sel+`').length)`), &n)
		return n
	}
	// allOK checks the page at url with both SHA-256s and returns the
	// summary of the page's own one.
	allOK := func(url string, want ...string) string {
		t.Helper()
		visit(url, "")
		var last string
		for _, pure := range []bool{false, true} {
			state, summary := checkDice(t, browser, pure)
			if state != "ok" || !strings.Contains(summary, "Every roll on this page is verified") {
				t.Errorf("%s (pure JS %v): %s: %s", url, pure, state, summary)
			}
			engine := "WebCrypto" // localhost and files are secure contexts
			if pure {
				engine = "this page's own SHA-256"
			}
			for _, w := range append(want, engine) {
				if !strings.Contains(summary, w) {
					t.Errorf("%s (pure JS %v): the summary lacks %q: %s", url, pure, w, summary)
				}
			}
			if bad := count(`.verdict.bad`); bad != 0 {
				t.Errorf("%s: %d marks of a failure on a page that checks out", url, bad)
			}
			last = summary
		}
		t.Logf("%s: %s", url, last)
		return last
	}
	// caught changes the page at url with js and expects the check to
	// find the one problem (two for the digest) it makes, saying want.
	caught := func(url, what, js, want string) {
		t.Helper()
		visit(url, "")
		if got := eval(`(function(){` + js + `})()`); got != "changed" {
			t.Fatalf("%s: could not change %s: %s", url, what, got)
		}
		problems := "1 problem found"
		if strings.Contains(what, "digest") {
			// The digest is in two links: the parts' hashes give it,
			// and it and the seed give the roll seed.
			problems = "2 problems found"
		}
		state, summary := checkDice(t, browser, true)
		if state != "failed" || !strings.Contains(summary, problems) || !strings.Contains(summary, want) {
			t.Errorf("%s with %s: the check says %s: %s (want %s, %q)", url, what, state, summary, problems, want)
		}
	}

	// Scheme 2, running. The public page: the public rolls, the setup's
	// and the public pushes' text, the secret parts sealed, no stream.
	spy := base + "/g/spy/dice"
	allOK(spy, "parts of the orders match their hashes", "sealed ones enter by their hashes alone", "digests of the orders", "roll seeds follow from seed and digest")
	if n := count(`tr[data-stream]`) + count(`[data-key]`); n != 0 {
		t.Errorf("the public dice page of a running game shows %d hidden rolls or streams", n)
	}
	if n := count(`li.part[data-secret][data-lines]`); n != 0 {
		t.Errorf("the public dice page shows the text of %d secret parts", n)
	}
	if got := eval(`document.querySelector('main').textContent`); strings.Contains(got, "hides the plan") || strings.Contains(got, "never let them") {
		t.Errorf("the public dice page shows a secret order")
	}
	if !strings.Contains(eval(`document.body.textContent`), "Last orders in: bob") {
		t.Errorf("the dice page does not say who sent the last orders")
	}
	// ann's page: her dice and her secret orders with their salts too;
	// bob's are sealed.
	annDice := base + dg.annSpy + "/dice"
	allOK(annDice, "1 sealed one enters by its hash alone")
	if count(`tr[data-stream="ann"]`) == 0 || count(`tr[data-stream="bob"]`) != 0 || count(`[data-key="ann"]`) == 0 {
		t.Errorf("ann's dice page shows %d rolls of her own dice, %d of bob's", count(`tr[data-stream="ann"]`), count(`tr[data-stream="bob"]`))
	}
	if count(`li.part[data-secret][data-lines][data-head^="ann "]`) != 2 || count(`li.part[data-secret][data-lines][data-head^="bob "]`) != 0 {
		t.Errorf("ann's dice page shows the text of %d of her secret parts and %d of bob's",
			count(`li.part[data-secret][data-lines][data-head^="ann "]`), count(`li.part[data-secret][data-lines][data-head^="bob "]`))
	}
	caught(annDice, "a line of ann's secret orders",
		`var p = document.querySelector('li.part[data-secret][data-lines]'); var l = JSON.parse(p.dataset.lines); l[l.length-1] += '!'; p.dataset.lines = JSON.stringify(l); return 'changed'`,
		"hashes to")
	caught(annDice, "the hash of bob's sealed part",
		`var p = document.querySelector('li.part:not([data-lines])'); p.dataset.hash = p.dataset.hash.replace(/^./, function(c){return c === '0' ? '1' : '0'}); return 'changed'`,
		"the parts' hashes give the digest")
	caught(annDice, "a roll of ann's own dice",
		`var r = document.querySelector('tr[data-stream="ann"]'); r.cells[3].textContent = String(Number(r.dataset.value) % 6 + 1); return 'changed'`,
		"[ann] (d6): the seed gives")
	// Issue 44: the check reads the number a person sees, so a page
	// edited to show another number fails though its data- attributes
	// still hold the true roll; and data that disagrees with what is
	// shown is named too.
	caught(annDice, "the number shown of a public roll",
		`var r = document.querySelector('tr[data-n]:not([data-stream])'); r.cells[3].innerHTML = '<b>' + String(Number(r.dataset.value) % Number(r.dataset.sides) + 1) + '</b>'; return 'changed'`,
		"the seed gives")
	caught(annDice, "the data beside a shown roll",
		`var r = document.querySelector('tr[data-n]:not([data-stream])'); r.dataset.value = String(Number(r.dataset.value) % Number(r.dataset.sides) + 1); return 'changed'`,
		"but its data says")
	caught(annDice, "a roll left out",
		`var rows = document.querySelectorAll('tr[data-n="1"]:not([data-stream])'); for (var i = 0; i < rows.length; i++) { var next = rows[i].nextElementSibling; if (next && !next.dataset.stream) { rows[i].remove(); return 'changed'; } } return 'no step with two public rolls'`,
		"comes where roll #1 should")
	caught(spy, "the digest",
		`var s = document.querySelector('section.step[data-digest]'); s.dataset.digest = s.dataset.digest.split('').reverse().join(''); return 'changed'`,
		"the parts' hashes give the digest")

	// The same page in Russian: the check's verdicts and summary are
	// Russian (the page hands dice.js its words), in either SHA-256, and
	// so is what it says of a change.
	latin := regexp.MustCompile(`[A-Za-z]{3,}`)
	for _, pure := range []bool{false, true} {
		visit(spy+"?lang=ru", "")
		state, summary := checkDice(t, browser, pure)
		if state != "ok" || !strings.Contains(summary, "Каждый бросок на этой странице проверен") || !strings.Contains(summary, "пересчитаны") {
			t.Errorf("the Russian dice page (pure JS %v): %s: %s", pure, state, summary)
		}
		for _, w := range latin.FindAllString(summary, -1) {
			if w != "SHA" && w != "WebCrypto" {
				t.Errorf("the Russian summary has English in it (%q): %s", w, summary)
				break
			}
		}
		if v := eval(`document.querySelector('section.step [data-verdict]').textContent`); v != "✓ проверено" {
			t.Errorf("the Russian verdict of a step: %q", v)
		}
	}
	visit(spy+"?lang=ru", "")
	eval(`(function(){var r = document.querySelector('tr[data-n]:not([data-stream])'); r.cells[3].innerHTML = '<b>' + String(Number(r.dataset.value) % Number(r.dataset.sides) + 1) + '</b>'; return ''})()`)
	if state, summary := checkDice(t, browser, true); state != "failed" || !strings.Contains(summary, "Найдена 1 проблема") || !strings.Contains(summary, "зерно даёт") {
		t.Errorf("the Russian dice page with a changed roll: %s: %s", state, summary)
	}
	// The receipt of bob's last orders, found on the page (issue 42), in
	// English and in Russian; a receipt not there is said to be missing.
	for _, c := range []struct{ lang, found, missing string }{
		{"en", "Found: step", "No part of the orders on this page has the receipt"},
		{"ru", "Найдена: шаг", "Ни у одной части приказов"},
	} {
		visit(spy+"?lang="+c.lang, "")
		find := func(receipt string) (string, string) {
			eval(`(function(){document.getElementById('receipt-input').value = ` + strconv.Quote(receipt) + `; document.getElementById('receipt-button').click(); return ''})()`)
			return eval(`document.getElementById('receipt-result').dataset.state || ''`), eval(`document.getElementById('receipt-result').textContent`)
		}
		if state, text := find(dg.receipt + "  -"); state != "found" || !strings.Contains(text, c.found) || !strings.Contains(text, "bob") ||
			eval(`String(document.querySelectorAll('li.part.found[data-hash="`+dg.receipt+`"]').length)`) != "1" {
			t.Errorf("%s: bob's receipt %s: %s: %s", c.lang, dg.receipt, state, text)
		}
		if state, text := find(strings.Repeat("0", 64)); state != "missing" || !strings.Contains(text, c.missing) {
			t.Errorf("%s: a receipt not on the page: %s: %s", c.lang, state, text)
		}
	}

	// Scheme 2, over after a rollback: every part, stream and salt
	// derives from the dice secret, through the hidden seeds.
	over := base + "/g/spy-over/dice"
	steps := dg.steps["spy-over"] + 1
	allOK(over, fmt.Sprintf("%d seeds derive from the dice secret", steps), "seeds of hidden dice derive from the hidden seeds", "salts derive from the hidden seeds")
	if n := count(`li.part:not([data-lines])`); n != 0 {
		t.Errorf("a finished game's dice page still seals %d parts", n)
	}
	if count(`tr[data-stream="(gm)"]`) == 0 || count(`section.step[data-hidden]`) != int(steps) {
		t.Errorf("a finished game's dice page lacks the deck's hidden rolls or a hidden seed")
	}
	caught(over, "a hidden seed",
		`var s = document.querySelector('section.step[data-hidden]'); s.dataset.hidden = s.dataset.hidden.split('').reverse().join(''); return 'changed'`,
		"the hidden seed on the page is not the one the dice secret gives")

	// The archive of the finished game, straight from disk.
	files, _, err := site.Archive(ctx, "spy-over", web.ArchiveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	allOK("file://"+filepath.Join(dir, "dice.html"), fmt.Sprintf("%d seeds derive from the dice secret", steps), "salts derive from the hidden seeds")

	// Scheme 1, imported: a rollback's seeds, hidden rolls left out of
	// the public page (gaps in the numbers), and once over every seed from
	// the dice secret.
	for _, id := range []string{"old-prosper", "old-earthman", "old-orbital"} {
		url := base + "/g/" + id + "/dice"
		var want []string
		if id == "old-orbital" {
			want = append(want, fmt.Sprintf("%d seeds derive from the dice secret", dg.steps[id]+1))
		}
		summary := allOK(url, want...)
		if strings.Contains(summary, "digest") || count(`li.part`) != 0 || !strings.Contains(eval(`document.body.textContent`), "dice scheme 1") {
			t.Errorf("%s: an old game's dice are not checked as scheme 1: %s", id, summary)
		}
	}
	caught(base+"/g/old-orbital/dice", "a roll",
		`var r = document.querySelector('tr[data-n]'); r.cells[3].textContent = String(Number(r.dataset.value) % Number(r.dataset.sides) + 1); return 'changed'`,
		"the seed gives")
}
