package daemon_test

import (
	"context"
	"strings"
	"testing"

	"orrery/engine/game"
)

// A reply whose Subject lost its [game secret] tag, with orders in it, is
// answered with one error that names the sender's games and the two lines
// to add, in the reader's language; not once a line as an unknown command.
func TestUntaggedOrders(t *testing.T) {
	for _, c := range []struct {
		name, setup string
		second      bool
		want        []string
	}{
		{name: "english", want: []string{"these 2 lines are orders, but this mail names no game",
			"add a line GAME g1 and a line SECRET your-secret (the secret is in the subject of any mail I sent you about g1)"}},
		{name: "russian", setup: "SET LANG ru", want: []string{"эти 2 строки — приказы, но в письме не указана игра",
			"добавьте строку GAME g1 и строку SECRET ваш-секрет (секрет — в теме любого моего письма вам об игре g1)"}},
		{name: "two games", second: true, want: []string{"you play g1, g2: add a line GAME and the game's name, like GAME g1,"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t)
			if c.second {
				if _, err := h.d.Service().Create(context.Background(), game.CreateRequest{ID: "g2", Ruleset: "toy",
					Players: []game.PlayerSpec{{Name: "ann", Email: "ann@example.org"}, {Name: "cy", Email: "cy@example.org"}}}); err != nil {
					t.Fatal(err)
				}
			}
			if c.setup != "" {
				h.handle(h.mail("ann@example.org", "settings", c.setup))
			}
			h.flush()
			h.handle(h.mail("ann@example.org", "Re: my orders", "Hi all,\npush 1\nmotto hi\nFROBNICATE\nAnn"))
			answer := one(t, flat(to(h.flush(), "ann@example.org")), "ann", c.want...)
			for _, bad := range []string{`"PUSH"`, `"MOTTO"`, "the commands are", "команды:"} {
				if strings.Contains(answer, bad) {
					t.Errorf("the answer still has %q:\n%s", bad, answer)
				}
			}
			if strings.Count(answer, "GAME g1") != 1 {
				t.Errorf("not answered once:\n%s", answer)
			}
			if c.setup != "" && strings.Contains(answer, "Hello") {
				t.Errorf("an English sentence in a Russian answer:\n%s", answer)
			}
		})
	}
}
