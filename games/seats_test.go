package games

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"orrery/engine"
	"orrery/engine/game"
	"orrery/engine/store"
)

// TestSeatChangesInEveryRuleset plays a game of each ruleset in which one
// seat passes from a person to the bot, to another person, and back to the
// bot, and then every seat is the bot's and the game goes on to its end by
// itself. The log must replay across every change of holder (the bot's
// orders are stored like anyone's); each holder's address gets the seat's
// reports only for the steps it held the seat, never one before or after;
// a new holder reads the seat's earlier reports (its knowledge) but not
// the press its earlier holder sent or got.
func TestSeatChangesInEveryRuleset(t *testing.T) {
	for _, rs := range All() {
		rs := rs
		t.Run(rs.Info().Name, func(t *testing.T) {
			t.Parallel()
			seatChanges(t, rs)
		})
	}
}

func seatChanges(t *testing.T, rs engine.Ruleset) {
	ctx := context.Background()
	st, err := store.Open(filepath.Join(t.TempDir(), "g.db"), store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { now = now.Add(time.Second); return now }
	// sent records, step by step, the address each seat's report went to:
	// what a mail side reading the committed change would mail.
	type mailed struct {
		step       uint64
		seat, addr string
	}
	var sent []mailed
	hook := func(_ store.Tx, c *game.Change) error {
		for _, s := range c.Steps {
			for _, p := range c.Game.Players {
				if p.Email != "" && !p.Bot {
					sent = append(sent, mailed{s.N, p.Name, p.Email})
				}
			}
		}
		return nil
	}
	svc := game.New(st, All(), game.WithClock(clock), game.WithHooks(hook), game.WithBotStepLimit(20000))
	players := []game.PlayerSpec{{Name: "ann", Email: "ann@example.org"}, {Name: "bob", Email: "bob@example.org"}}
	if rs.Info().MaxPlayers > 2 {
		players = append(players, game.PlayerSpec{Name: "cyd", Bot: true})
	}
	const id = "seats"
	if _, err := svc.Create(ctx, game.CreateRequest{ID: id, Ruleset: rs.Info().Name, Players: players, DiceSecret: "seats-" + rs.Info().Name}); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, 11))
	// people plays every person's open prompts as a person would (with
	// the bot's judgement, from the seat's own view) for up to n steps.
	people := func(n int) {
		t.Helper()
		for i := 0; i < 400; i++ {
			g, err := svc.Get(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			if g.Over() || n == 0 {
				return
			}
			before := g.Step
			moved := false
			for _, p := range g.Prompts {
				pl, _ := g.PlayerByName(p.Player)
				if pl.Bot || !p.Kind.Blocks() || contains(g.Answered, p.ID) {
					continue
				}
				v, err := svc.View(ctx, id, p.Player)
				if err != nil {
					t.Fatal(err)
				}
				res, err := svc.Submit(ctx, game.Input{Game: id, Player: p.Player, Prompt: p.ID, Text: rs.Bot(v, p, rng), Source: "mail"})
				if err != nil {
					t.Fatal(err)
				}
				if !res.Accepted {
					t.Fatalf("%s's orders for %s refused: %v", p.Player, p.ID, res.Errors)
				}
				moved = true
				break
			}
			if !moved {
				t.Fatalf("nobody can move at step %d: waiting for %v", g.Step, g.Waiting())
			}
			if g2, _ := svc.Get(ctx, id); g2.Step > before {
				n--
			}
		}
	}
	press := func(text string) {
		t.Helper()
		if _, _, err := svc.Press(ctx, id, "bob", []string{"ann"}, text); err != nil {
			t.Fatal(err)
		}
	}
	step := func() uint64 {
		g, _ := svc.Get(ctx, id)
		return g.Step
	}
	// A short game plays fewer steps per holder (engine.Properties).
	holds := []int{3, 2, 2}
	if n := engine.PropertiesOf(rs).HolderSteps; n > 0 {
		holds = []int{n, n, n}
	}
	lasts := func() {
		if g, _ := svc.Get(ctx, id); g.Over() {
			t.Fatalf("the game ended at step %d, before seat bob's third holder: a short game declares fewer steps per holder (engine.Properties{HolderSteps: 1})", g.Step)
		}
	}
	pressed := step()
	press("bob's own plan, for ann only")
	people(holds[0])
	lasts()
	toBot := step()
	if _, _, err := svc.ReplaceSeat(ctx, id, "bob", game.Seat{Bot: true}, "bob left"); err != nil {
		t.Fatal(err)
	}
	people(holds[1])
	lasts()
	toCarl := step()
	if _, _, err := svc.ReplaceSeat(ctx, id, "bob", game.Seat{Email: "carl@example.org"}, ""); err != nil {
		t.Fatal(err)
	}
	// carl, the new holder, reads the seat's report of the step bob sent
	// press in (what bob knew then), without bob's press.
	first, err := svc.StepReport(ctx, id, pressed, "bob")
	if err != nil {
		t.Fatal(err)
	}
	if len(first.Press) != 0 {
		t.Errorf("the new holder reads the press of an earlier holder: %+v", first.Press)
	}
	if v, _ := svc.StepView(ctx, id, pressed, "bob"); v == nil || first.Board != v.Board() {
		t.Errorf("the new holder's report of step %d is not the seat's view", pressed)
	}
	if ann, _ := svc.StepReport(ctx, id, pressed, "ann"); len(ann.Press) != 1 {
		t.Errorf("ann lost the press bob sent her: %+v", ann.Press)
	}
	people(holds[2])
	toBotAgain := step()
	if g, _ := svc.Get(ctx, id); !g.Over() {
		if _, _, err := svc.ReplaceSeat(ctx, id, "bob", game.Seat{Bot: true}, "carl left"); err != nil {
			t.Fatal(err)
		}
		if _, _, err := svc.ReplaceSeat(ctx, id, "ann", game.Seat{Bot: true}, "ann left"); err != nil {
			t.Fatal(err)
		}
	}
	g, err := svc.Get(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if !g.Over() {
		t.Fatalf("the bots did not play the game to its end: step %d, waiting for %v", g.Step, g.Waiting())
	}
	res, err := svc.Verify(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if !res.OK() {
		t.Fatalf("verify across changes of holder: %v", res.Problems)
	}
	// Each address got the seat's reports for its own steps only.
	for _, m := range sent {
		if m.seat != "bob" {
			continue
		}
		var ok bool
		switch m.addr {
		case "bob@example.org":
			ok = m.step <= toBot
		case "carl@example.org":
			ok = m.step > toCarl && m.step <= toBotAgain
		}
		if !ok {
			t.Errorf("the report of step %d of seat bob went to %s (bob held it to step %d, carl from %d to %d)", m.step, m.addr, toBot, toCarl+1, toBotAgain)
		}
	}
	bob, _ := g.PlayerByName("bob")
	want := fmt.Sprintf("bob@example.org 1-%d, bot %d-%d, carl@example.org %d-%d, bot %d-", toBot, toBot+1, toCarl, toCarl+1, toBotAgain, toBotAgain+1)
	var got string
	for i, h := range bob.Holders {
		who := h.Email
		if h.Bot {
			who = "bot"
		}
		if i > 0 {
			got += ", "
		}
		got += fmt.Sprintf("%s %d-", who, h.From)
		if h.Ended != "" {
			got += fmt.Sprint(h.To)
		}
	}
	t.Logf("%s: %d steps; seat bob held by %s", rs.Info().Name, g.Step, got)
	if g.Over() && toBotAgain == g.Step && len(bob.Holders) == 3 {
		return // the game ended while carl played
	}
	if got != want {
		t.Errorf("seat bob's holders %q, want %q", got, want)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
