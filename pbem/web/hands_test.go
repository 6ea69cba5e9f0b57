package web

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"orrery/engine/enginetest/toy"
	"orrery/engine/game"
)

// A seat that passed to another player is shown so on the public and the
// private pages, in the page's language, from the step its new holder
// first played; an earlier step's page says nothing of it (bob still
// played his seat then).
func TestPagesSayWhoPlaysASeat(t *testing.T) {
	svc, c := toyGame(t)
	ctx := context.Background()
	if _, _, err := svc.ReplaceSeat(ctx, "g1", "bob", game.Seat{Email: "eve@example.org"}, "bob moved away"); err != nil {
		t.Fatal(err)
	}
	for _, in := range []game.Input{{Game: "g1", Player: "ann", Text: "PUSH 1"}, {Game: "g1", Player: "bob", Text: "PUSH 1"}} {
		c.t = c.t.Add(time.Hour)
		if _, err := svc.Submit(ctx, in); err != nil {
			t.Fatal(err)
		}
	}
	cat := webCatalog(t)
	s := newSite(t, Config{Service: svc, Catalog: cat})
	p := "/g/g1/p/" + tokenOf(t, svc, "g1", "ann")
	for _, c := range []struct {
		path string
		want string // "": no line about bob's seat
	}{
		// Public pages may be anyone's to read: eve gave no name of her
		// own, and her address's local part is not shown there.
		{"/g/g1", "Seat bob, played by a new player."},
		{"/g/g1/step/4", "Seat bob, played by a new player."},
		{"/g/g1/step/3", ""},
		{p, "Seat bob, played by eve."},
		{p + "/step/4", "Seat bob, played by eve."},
		{p + "/step/3", ""},
		{"/g/g1?lang=ru", "Место bob, за него играет новый игрок."},
		{p + "?lang=ru", "Место bob, за него играет eve."},
		{p + "/report.json", `"hands": [
    {
      "seat": "bob",
      "by": "eve"
    }
  ]`},
		{"/g/g1/report.json", `"hands": [
    {
      "seat": "bob"
    }
  ]`},
		{"/g/g1/step/3.json", ""},
	} {
		body := text(get(s, "GET", c.path).Body.Bytes())
		if c.want == "" {
			if strings.Contains(body, `class="hands"`) || strings.Contains(body, `"hands"`) {
				t.Errorf("%s says the seat had changed hands already:\n%s", c.path, body)
			}
			continue
		}
		if !strings.Contains(body, c.want) {
			t.Errorf("%s does not say %q:\n%s", c.path, c.want, body)
		}
	}
	if _, _, err := svc.ReplaceSeat(ctx, "g1", "bob", game.Seat{Email: "fay@example.org", Name: "Fay"}, ""); err != nil {
		t.Fatal(err)
	}
	for _, in := range []game.Input{{Game: "g1", Player: "ann", Text: "PUSH 1"}, {Game: "g1", Player: "bob", Text: "PUSH 1"}} {
		c.t = c.t.Add(time.Hour)
		if _, err := svc.Submit(ctx, in); err != nil {
			t.Fatal(err)
		}
	}
	if body := text(get(s, "GET", "/g/g1").Body.Bytes()); !strings.Contains(body, "Seat bob, played by Fay.") {
		t.Errorf("a new player's own name is not shown on the public page:\n%s", body)
	}
	if body := text(get(s, "GET", "/g/g1/step/4").Body.Bytes()); !strings.Contains(body, "Seat bob, played by a new player.") {
		t.Errorf("step 4, played by eve, is shown as fay's:\n%s", body)
	}
	if _, _, err := svc.ReplaceSeat(ctx, "g1", "bob", game.Seat{Bot: true}, ""); err != nil {
		t.Fatal(err)
	}
	if body := text(get(s, "GET", "/g/g1").Body.Bytes()); !strings.Contains(body, "Seat bob, played by the computer.") {
		t.Errorf("the bot's seat is not shown so:\n%s", body)
	}
}

// The board's picture on a seat's page carries a note under it saying who
// played a seat that changed hands at that step, in the page's language;
// an earlier step's picture has none.
func TestPictureSaysWhoPlaysASeat(t *testing.T) {
	svc, c := newToyGame(t, toy.Drawn())
	ctx := context.Background()
	play := func() {
		t.Helper()
		for _, in := range []game.Input{{Game: "g1", Player: "ann", Text: "PUSH 1"}, {Game: "g1", Player: "bob", Text: "PUSH 1"}} {
			c.t = c.t.Add(time.Hour)
			if _, err := svc.Submit(ctx, in); err != nil {
				t.Fatal(err)
			}
		}
	}
	play()
	before := mustStep(t, svc)
	if _, _, err := svc.ReplaceSeat(ctx, "g1", "bob", game.Seat{Email: "eve@example.org"}, ""); err != nil {
		t.Fatal(err)
	}
	play()
	after := mustStep(t, svc)
	cat := webCatalog(t)
	s := newSite(t, Config{Service: svc, Catalog: cat, Picture: Drawn})
	p := "/g/g1/p/" + tokenOf(t, svc, "g1", "ann")
	svg := func(path string) string {
		t.Helper()
		w := get(s, "GET", path)
		if w.Code != 200 {
			t.Fatalf("%s: %d\n%s", path, w.Code, w.Body)
		}
		return text(w.Body.Bytes())
	}
	if got := svg(fmt.Sprintf("%s/step/%d.svg", p, after)); !strings.Contains(got, "bob: played by eve") {
		t.Errorf("step %d's picture has no note of eve:\n%s", after, got)
	}
	if got := svg(fmt.Sprintf("%s/step/%d.svg?lang=ru", p, after)); !strings.Contains(got, "bob: за него играет eve") {
		t.Errorf("step %d's picture in Russian has no note of eve:\n%s", after, got)
	}
	if got := svg(fmt.Sprintf("%s/step/%d.svg", p, before)); strings.Contains(got, "played by") {
		t.Errorf("step %d's picture, from before eve, has a note:\n%s", before, got)
	}
}

func mustStep(t *testing.T, svc *game.Service) uint64 {
	t.Helper()
	g, err := svc.Get(context.Background(), "g1")
	if err != nil {
		t.Fatal(err)
	}
	return g.Step
}
