package web

import (
	"context"
	"strings"
	"testing"
	"time"

	"orrery/engine/game"
	"orrery/templates"
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
	cat, err := templates.WebCatalog()
	if err != nil {
		t.Fatal(err)
	}
	s := newSite(t, Config{Service: svc, Catalog: cat})
	p := "/g/g1/p/" + tokenOf(t, svc, "g1", "ann")
	for _, c := range []struct {
		path string
		want string // "": no line about bob's seat
	}{
		{"/g/g1", "Seat bob, played by eve."},
		{"/g/g1/step/4", "Seat bob, played by eve."},
		{"/g/g1/step/3", ""},
		{p, "Seat bob, played by eve."},
		{p + "/step/3", ""},
		{"/g/g1?lang=ru", "Место bob, за него играет eve."},
		{"/g/g1/report.json", `"hands": [
    {
      "seat": "bob",
      "by": "eve"
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
	if _, _, err := svc.ReplaceSeat(ctx, "g1", "bob", game.Seat{Bot: true}, ""); err != nil {
		t.Fatal(err)
	}
	if body := text(get(s, "GET", "/g/g1").Body.Bytes()); !strings.Contains(body, "Seat bob, played by the computer.") {
		t.Errorf("the bot's seat is not shown so:\n%s", body)
	}
}
