package web

import (
	"bytes"
	"context"
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"orrery/engine"
	"orrery/engine/enginetest/toy"
	"orrery/engine/game"
	"orrery/engine/store"
)

type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

// toyGame is a toy race of ann and bob (with addresses) a few steps in,
// where ann has a motto only she may see.
func toyGame(t testing.TB) (*game.Service, *clock) {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "web.db"), store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	c := &clock{t: time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)}
	svc := game.New(st, []engine.Ruleset{toy.Ruleset()}, game.WithClock(c.now))
	ctx := context.Background()
	_, err = svc.Create(ctx, game.CreateRequest{ID: "g1", Ruleset: "toy", DiceSecret: "web-test",
		Players: []game.PlayerSpec{{Name: "ann", Email: "ann@example.org"}, {Name: "bob", Email: "bob@example.org"}}})
	if err != nil {
		t.Fatal(err)
	}
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
	err := svc.Store().Update(context.Background(), func(tx *bolt.Tx) error {
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
