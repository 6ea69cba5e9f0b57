package web

import (
	"bytes"
	"context"
	"fmt"
	"html"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"orrery/engine"
	"orrery/engine/dice"
	"orrery/engine/enginetest/toy"
	"orrery/engine/game"
	"orrery/engine/store"
)

type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

// openStore opens an empty bbolt store of the test's own.
func openStore(t testing.TB) *store.Store {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "web.db"), store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// newToyGame opens game g1 of rs (a toy ruleset) for ann and bob, with
// addresses, on a clock the test moves.
func newToyGame(t testing.TB, rs engine.Ruleset) (*game.Service, *clock) {
	t.Helper()
	c := &clock{t: time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)}
	svc := game.New(openStore(t), []engine.Ruleset{rs}, game.WithClock(c.now))
	if _, err := svc.Create(context.Background(), game.CreateRequest{ID: "g1", Ruleset: "toy", DiceSecret: "web-test",
		Players: []game.PlayerSpec{{Name: "ann", Email: "ann@example.org"}, {Name: "bob", Email: "bob@example.org"}}}); err != nil {
		t.Fatal(err)
	}
	return svc, c
}

// toyGame is a toy race of ann and bob (with addresses) a few steps in,
// where ann has a motto only she may see.
func toyGame(t testing.TB) (*game.Service, *clock) {
	t.Helper()
	svc, c := newToyGame(t, toy.Ruleset())
	ctx := context.Background()
	for _, in := range []game.Input{
		{Game: "g1", Player: "ann", Text: "MOTTO never surrender the plan", Prompt: "motto:ann"},
		{Game: "g1", Player: "ann", Text: "PUSH 2"}, {Game: "g1", Player: "bob", Text: "PUSH 1"},
		{Game: "g1", Player: "ann", Text: "PUSH 3"}, {Game: "g1", Player: "bob", Text: "PUSH 2"},
	} {
		c.t = c.t.Add(time.Hour)
		if _, err := svc.Submit(ctx, in); err != nil {
			t.Fatal(err)
		}
	}
	return svc, c
}

func newSite(t testing.TB, cfg Config) *Site {
	t.Helper()
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// tokenOf is the private page token of a seat, as the mail side makes it.
func tokenOf(t testing.TB, svc *game.Service, id, seat string) string {
	t.Helper()
	var tok string
	err := svc.Store().Update(context.Background(), func(tx store.Tx) error {
		g, err := svc.GetTx(tx, id)
		if err != nil {
			return err
		}
		p, ok := g.PlayerByName(seat)
		if !ok {
			return fmt.Errorf("no seat %s", seat)
		}
		tok, err = Token(tx, g, p)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// get asks h for path with optional header pairs.
func get(h http.Handler, method, path string, header ...string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(method, path, nil)
	for i := 0; i+1 < len(header); i += 2 {
		r.Header.Set(header[i], header[i+1])
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

// text is a page's body as a reader (or a program) gets its strings:
// entities decoded, so that a secret is found however it was escaped.
func text(body []byte) string { return html.UnescapeString(string(body)) }

// textPicture stands in for engine/draw in tests: an SVG that writes the
// view's board and status line by line, so a test can see which view a
// picture was drawn from.
func textPicture(v engine.View) ([]byte, string, error) {
	var b bytes.Buffer
	b.WriteString(`<svg xmlns="http://www.w3.org/2000/svg" width="800" height="600"><rect width="800" height="600" fill="#fff"/>`)
	y := 14
	for _, l := range strings.Split(v.Board()+"\n"+v.Status(), "\n") {
		fmt.Fprintf(&b, `<text x="4" y="%d" font-family="monospace" font-size="11">%s</text>`, y, html.EscapeString(l))
		y += 13
	}
	b.WriteString(`</svg>`)
	return b.Bytes(), "The board, drawn (its text form follows)", nil
}

// spyRace is the toy race with everything the dice pages of scheme 2 must
// keep apart: a deck shuffled at setup that no player sees (a stream for
// the GM alone), a die for each push that only its pusher sees (a stream
// per player), and orders public (engine.PublicOrders) but for a push that
// carries a NOTE line: that part is secret, salted, and long enough for
// the leak test to look for. Bots write a note every other turn.
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

func (r spyRace) Bot(v engine.View, p engine.Prompt, rnd *rand.Rand) string {
	orders := r.Ruleset.Bot(v, p, rnd)
	if p.Kind == engine.KindTurn && rnd.IntN(2) == 0 {
		orders += fmt.Sprintf("\nNOTE %s hides plan %d in the %s", p.Player, rnd.IntN(1000), []string{"north", "south", "deck"}[rnd.IntN(3)])
	}
	return orders
}

func (s spyState) View(player string) engine.View { return spyView{s.State.View(player)} }

// Parse keeps NOTE lines of a push as they are and parses the rest as the
// toy does.
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
