package daemon_test

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"orrery/engine/game"
)

// LIST's pages run through a player's own games, then the games open to
// JOIN that are not theirs, each in id order, 20 to a page, read a page at
// a time from the engine's listing.
func TestListPagesAcrossOwnAndOpenGames(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	var want []string // g1 is the harness's game, under way, ann's
	want = append(want, "g1")
	for i := range 24 {
		id := fmt.Sprintf("mine%02d", i)
		want = append(want, id)
		if _, err := h.d.Service().Create(ctx, game.CreateRequest{ID: id, Ruleset: "toy", Seats: 2,
			Players: []game.PlayerSpec{{Name: "ann", Email: "ann@example.org"}}}); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 30 {
		id := fmt.Sprintf("open%02d", i)
		want = append(want, id)
		if _, err := h.d.Service().Create(ctx, game.CreateRequest{ID: id, Ruleset: "toy", Seats: 2,
			Players: []game.PlayerSpec{{Name: "cyd", Email: "cyd@example.org"}}}); err != nil {
			t.Fatal(err)
		}
	}
	h.flush()
	line := regexp.MustCompile(`(?m)^  (g1|mine\d\d|open\d\d) `)
	var got []string
	for page := 1; page <= 3; page++ {
		h.handle(h.mail("ann@example.org", "games", fmt.Sprintf("LIST page %d", page)))
		a := to(h.flush(), "ann@example.org")
		if len(a) != 1 {
			t.Fatalf("page %d: %d answers", page, len(a))
		}
		ids := line.FindAllStringSubmatch(a[0], -1)
		if n := len(ids); page < 3 && n != 20 || page == 3 && n != 15 {
			t.Errorf("page %d lists %d games:\n%s", page, n, a[0])
		}
		for _, m := range ids {
			got = append(got, m[1])
		}
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("the pages listed\n%v\nwant\n%v", got, want)
	}
}
