package burning

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"orrery/engine"
	"orrery/engine/dice"
	"orrery/engine/game"
	"orrery/engine/store"
)

// TestAnytimePrompt: a player who is not active changes language and offers
// a contract at any time; the answer is resolved alone, rolls no die, and
// the turn stays where it was. The active player's turn orders are refused
// there (they belong in the turn).
func TestAnytimePrompt(t *testing.T) {
	s := buildCase(t, secretSetup+"ship 9 cy small AA20\n")
	var any engine.Prompt
	for _, p := range s.Prompts() {
		if p.ID == "any:bob" {
			any = p
		}
	}
	if any.Kind != engine.KindAnytime {
		t.Fatalf("no anytime prompt for bob: %v", s.Prompts())
	}
	annAny := engine.Prompt{ID: "any:ann", Player: "ann", Kind: engine.KindAnytime}
	if _, errs := s.View("ann").Parse(annAny, "BUILD TOWER AT E8"); len(errs) != 1 || !strings.Contains(errs[0].Msg, "your turn") {
		t.Errorf("the active player's building order at any time: %v", errs)
	}
	// A setting is not a turn (issue 19): the active player's LANG alone
	// is an order of her anytime prompt, so the engine sends it there
	// (engine/game's anytimeFirst) and her turn stays open.
	if o, errs := s.View("ann").Parse(annAny, "LANG RU"); len(errs) > 0 || engine.OrdersText(o) != "LANG RU" {
		t.Errorf("the active player's LANG at any time: %v %v", o, errs)
	}
	orders, errs := s.View("bob").Parse(any, "язык ру\nOFFER ann SHIP 4 GIVE 5B GET 5M")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	d := dice.FromSource(dice.Scripted{})
	events, err := s.Resolve([]engine.Answer{{Prompt: any, Orders: orders}}, d)
	if err != nil || d.Err() != nil {
		t.Fatal(err, d.Err())
	}
	if s.Lang["bob"] != langRU || s.active() != "ann" || len(d.Rolls()) != 0 {
		t.Errorf("lang %q, active %s, rolls %v", s.Lang["bob"], s.active(), d.Rolls())
	}
	if c := s.contract(2); c == nil || c.From != "bob" || c.To != "ann" || c.Accepted {
		t.Fatalf("contract 2: %+v", c)
	}
	for _, e := range events {
		if e.VisibleTo("cy") {
			t.Errorf("cy reads %q", e.Text)
		}
	}
	if !strings.Contains(s.View("bob").Status(), "Договор 2 с ann") {
		t.Errorf("bob's status in Russian lacks the contract:\n%s", s.View("bob").Status())
	}
}

const mixedSetup = `players ann bob
planet Arda F6 small fair ann
planet Borvik Q6 small fair bob
ship 1 ann small N6
ship 2 bob small M6
lang bob ru
`

// TestMixedLanguages: in a game set up before messages (Msgs false), with
// ann in English and bob in Russian, each reads every public event once,
// in their own language; the GM reads both.
func TestMixedLanguages(t *testing.T) {
	s := buildCase(t, mixedSetup)
	s.Msgs = false
	p := s.Prompts()[0]
	orders, errs := s.View("ann").Parse(p, "SHIP 1 ATTACK 2")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	events, err := s.Resolve([]engine.Answer{{Prompt: p, Orders: orders}}, dice.FromSource(dice.Scripted{4, 1, 9}))
	if err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	for _, e := range events {
		if strings.Contains(e.Text, "attacks") {
			count["en"]++
			if !e.VisibleTo("ann") || e.VisibleTo("bob") {
				t.Errorf("English event %q to %v", e.Text, e.To)
			}
		}
		if strings.Contains(e.Text, "атакует") {
			count["ru"]++
			if e.VisibleTo("ann") || !e.VisibleTo("bob") || !e.VisibleTo("") {
				t.Errorf("Russian event %q to %v", e.Text, e.To)
			}
		}
	}
	if count["en"] != 1 || count["ru"] != 1 {
		t.Errorf("attack events: %v\n%s", count, eventTexts(events))
	}
}

// TestMixedLanguagesMessages: in a game with messages the attack is one
// public event, its English text for the GM and its message, which reads
// Russian for bob.
func TestMixedLanguagesMessages(t *testing.T) {
	s := buildCase(t, mixedSetup)
	p := s.Prompts()[0]
	orders, errs := s.View("ann").Parse(p, "SHIP 1 ATTACK 2")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	events, err := s.Resolve([]engine.Answer{{Prompt: p, Orders: orders}}, dice.FromSource(dice.Scripted{4, 1, 9}))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range events {
		if e.Msg == nil {
			t.Errorf("event %q has no message", e.Text)
			continue
		}
		if !strings.Contains(e.Text, "attacks") {
			continue
		}
		n++
		if len(e.To) != 0 {
			t.Errorf("the attack is told to %v only", e.To)
		}
		if ru := render(langRU, *e.Msg); !strings.Contains(ru, "атакует") {
			t.Errorf("the attack reads %q in Russian", ru)
		}
	}
	if n != 1 {
		t.Errorf("%d attack events:\n%s", n, eventTexts(events))
	}
}

// TestResignAtAnyTime: the active player resigning through the anytime
// prompt passes the turn on at once (with the next player's catastrophe
// die); with two players left the other wins when one of them resigns.
func TestResignAtAnyTime(t *testing.T) {
	s := buildCase(t, secretSetup+"ship 9 cy small AA20\n")
	resign := func(p string, rolls ...int) {
		t.Helper()
		prompt := engine.Prompt{ID: "any:" + p, Player: p, Kind: engine.KindAnytime}
		orders, errs := s.View(p).Parse(prompt, "RESIGN")
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		d := dice.FromSource(dice.Scripted(rolls))
		if _, err := s.Resolve([]engine.Answer{{Prompt: prompt, Orders: orders}}, d); err != nil || d.Err() != nil {
			t.Fatal(err, d.Err())
		}
	}
	resign("ann", 9)
	if !s.out("ann") || s.active() != "bob" || s.Done {
		t.Fatalf("after ann resigns: out %v, active %s, done %v", s.Out, s.active(), s.Done)
	}
	resign("cy")
	if !s.Done || len(s.Winners) != 1 || s.Winners[0] != "bob" {
		t.Fatalf("after cy resigns: winners %v", s.Winners)
	}
}

// TestAdvanceOrders (003(i)): bob sends his next turn's orders while ann
// plays; they are checked for grammar only, kept (shown to bob alone), and
// run line by line when bob's turn opens, a failing line reported to him
// and skipped; then the turn passes to cy at once.
func TestAdvanceOrders(t *testing.T) {
	s := buildCase(t, secretSetup+"ship 9 cy small AA20\n")
	any := engine.Prompt{ID: "any:bob", Player: "bob", Kind: engine.KindAnytime}
	orders, errs := s.View("bob").Parse(any, "SHIP 4 MOVE N3\nbuild tower at Q4\nSHIP 77 MOVE A1\nLANG RU")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if _, err := s.Resolve([]engine.Answer{{Prompt: any, Orders: orders}}, dice.FromSource(dice.Scripted{})); err != nil {
		t.Fatal(err)
	}
	if len(s.Advance["bob"]) != 3 || s.Lang["bob"] != langRU {
		t.Fatalf("advance %v, lang %s", s.Advance["bob"], s.Lang["bob"])
	}
	if !strings.Contains(s.View("bob").Status(), "BUILD TOWER AT Q4") || strings.Contains(s.View("ann").Status(), "TOWER") {
		t.Errorf("advance orders shown wrongly:\n%s", s.View("bob").Status())
	}
	s.Bank["bob"] = Res{F: 50, B: 50}
	step := s.Prompts()[0]
	annOrders, _ := s.View("ann").Parse(step, "")
	// ann's turn ends; bob's opens (catastrophe 9) and runs; cy's opens (9).
	events, err := s.Resolve([]engine.Answer{{Prompt: step, Orders: annOrders}}, dice.FromSource(dice.Scripted{9, 9}))
	if err != nil {
		t.Fatal(err)
	}
	if s.active() != "cy" || len(s.Advance["bob"]) != 0 {
		t.Fatalf("active %s, advance %v", s.active(), s.Advance)
	}
	if sh := s.ship(4); sh.Cell != cell(t, "N3") {
		t.Errorf("ship 4 at %s", sh.Cell)
	}
	if pl := s.planet("Borvik"); pl.site(cell(t, "Q4")) < 0 {
		t.Errorf("no tower: %v", pl.Sites)
	}
	skipped := false
	for _, e := range events {
		if strings.Contains(e.Text, "SHIP 77 MOVE A1") {
			skipped = true
			if e.VisibleTo("ann") || !e.VisibleTo("bob") {
				t.Errorf("the skipped line is told to %v", e.To)
			}
		}
	}
	if !skipped {
		t.Errorf("bob was not told of the failing line:\n%s", eventTexts(events))
	}
}

// TestLangOnYourTurnIsNotYourTurn (issue 19): LANG RU sent with no prompt
// named (as a mail sends it) while it is your turn changes your language
// and nothing else: the turn stays open for your orders, and the result
// lists LANG RU as an any-time order. Before, it was taken as the whole
// turn, which then resolved with nothing done.
func TestLangOnYourTurnIsNotYourTurn(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(filepath.Join(t.TempDir(), "b.db"), store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	svc := game.New(st, []engine.Ruleset{Ruleset()})
	g, err := svc.Create(ctx, game.CreateRequest{ID: "b", Ruleset: "burning", DiceSecret: "lang",
		Players: []game.PlayerSpec{{Name: "ann"}, {Name: "bob"}}})
	if err != nil {
		t.Fatal(err)
	}
	// The setup steps, answered as the bots would.
	r := rand.New(rand.NewPCG(1, 2))
	var turn engine.Prompt
	for i := 0; i < 100 && turn.ID == ""; i++ {
		for _, p := range g.Prompts {
			if strings.HasPrefix(p.ID, "turn:") {
				turn = p
			}
		}
		if turn.ID != "" {
			break
		}
		x, err := svc.Export(ctx, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		s, err := Ruleset().LoadState(x.State)
		if err != nil {
			t.Fatal(err)
		}
		p := g.Prompts[0]
		res, err := svc.Submit(ctx, game.Input{Game: g.ID, Player: p.Player, Prompt: p.ID, Text: Ruleset().Bot(s.View(p.Player), p, r), Source: "test"})
		if err != nil || !res.Accepted {
			t.Fatalf("setup step %s: %v %v", p.ID, err, res.Errors)
		}
		g = res.Game
	}
	if turn.ID == "" {
		t.Fatal("no turn after the setup")
	}
	me := turn.Player
	lang, err := svc.Submit(ctx, game.Input{Game: g.ID, Player: me, Text: "LANG RU", Source: "test"})
	if err != nil || !lang.Accepted {
		t.Fatalf("LANG RU: %v %+v", err, lang)
	}
	if lang.Prompt.Kind != engine.KindAnytime || strings.Join(lang.Anytime, "") != "LANG RU" {
		t.Fatalf("LANG RU answered %s (any-time orders %q)", lang.Prompt.ID, lang.Anytime)
	}
	still := false
	for _, p := range lang.Game.Prompts {
		still = still || p.ID == turn.ID
	}
	if !still || lang.Game.Step != g.Step+1 {
		t.Errorf("after LANG RU the turn %s is gone (step %d→%d): %v", turn.ID, g.Step, lang.Game.Step, lang.Game.Prompts)
	}
}
