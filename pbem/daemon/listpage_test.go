package daemon_test

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"orrery/engine/game"
)

// LIST from a player starts with their own games (MY GAMES, the first 20
// and how many more), on the first page only; the pages then run through
// the games open to JOIN that are not theirs, in id order, 20 to a page,
// read a page at a time from the engine's listing.
func TestListPagesAcrossOwnAndOpenGames(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	// n games of two seats, the first taken by player, named prefix00…
	seated := func(prefix string, n int, player string) []string {
		var ids []string
		for i := range n {
			id := fmt.Sprintf("%s%02d", prefix, i)
			ids = append(ids, id)
			if _, err := h.d.Service().Create(ctx, game.CreateRequest{ID: id, Ruleset: "toy", Seats: 2,
				Players: []game.PlayerSpec{{Name: player, Email: player + "@example.org"}}}); err != nil {
				t.Fatal(err)
			}
		}
		return ids
	}
	mine := append([]string{"g1"}, seated("mine", 24, "ann")...) // g1: the harness's game, under way, ann's
	open := seated("open", 30, "cyd")
	h.flush()
	line := regexp.MustCompile(`(?m)^  (g1|mine\d\d|open\d\d) `)
	var gotMine, gotOpen []string
	for page := 1; page <= 2; page++ {
		a := to(h.say("ann@example.org", "games", fmt.Sprintf("LIST page %d", page)), "ann@example.org")
		if len(a) != 1 {
			t.Fatalf("page %d: %d answers", page, len(a))
		}
		if !strings.Contains(a[0], fmt.Sprintf("(page %d of 2)", page)) {
			t.Errorf("page %d does not say it is page %d of 2:\n%s", page, page, a[0])
		}
		if page == 1 && !strings.Contains(a[0], "and 5 more: MY GAMES lists them all") {
			t.Errorf("page 1 does not say how many of ann's games it left out:\n%s", a[0])
		}
		for _, m := range line.FindAllStringSubmatch(a[0], -1) {
			if strings.HasPrefix(m[1], "open") {
				gotOpen = append(gotOpen, m[1])
			} else {
				gotMine = append(gotMine, m[1])
			}
		}
	}
	if strings.Join(gotMine, " ") != strings.Join(mine[:20], " ") {
		t.Errorf("ann's own games listed\n%v\nwant the first 20, on page 1 only\n%v", gotMine, mine[:20])
	}
	if strings.Join(gotOpen, " ") != strings.Join(open, " ") {
		t.Errorf("the open games listed\n%v\nwant\n%v", gotOpen, open)
	}
	h.handle(h.mail("ann@example.org", "games", "LIST page 3"))
	if a := to(h.flush(), "ann@example.org"); len(a) != 1 || !strings.Contains(a[0], "there are only 2 pages") {
		t.Errorf("LIST page 3 of 2: %q", a)
	}
}
