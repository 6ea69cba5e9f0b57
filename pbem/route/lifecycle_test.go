package route

import (
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestLifecycleCommands covers the commands of slow games: press, vacation,
// observers, resend and the GM's lines.
func TestLifecycleCommands(t *testing.T) {
	day := func(s string) time.Time { d, _ := time.Parse("2006-01-02", s); return d }
	tests := []struct {
		name, subject, text string
		cmds                []Command
		orders              bool
		errs                []string
	}{
		{name: "press to two, orders around it", subject: "[demo1 s]",
			text:   "hold\nPRESS TO ann, bob\nLet us ally.\n  push 3 is not an order here\nEND\n",
			cmds:   []Command{{Name: Press, Line: 2, Game: "demo1", To: []string{"ann", "bob"}, Text: "Let us ally.\n  push 3 is not an order here"}},
			orders: true},
		{name: "press to all with game", text: "press g2 to all\nhi all\nend\n",
			cmds: []Command{{Name: Press, Line: 1, Game: "g2", Text: "hi all"}}},
		{name: "press without END", subject: "[demo1]", text: "PRESS TO ann\nhello\n",
			errs: []string{"1: this PRESS has no END line"}},
		{name: "vacation", text: "VACATION g2 FROM 2026-12-20 TO 2027-01-03\n",
			cmds: []Command{{Name: Vacation, Line: 1, Game: "g2", From: day("2026-12-20"), Until: day("2027-01-04")}}},
		{name: "vacation bad date", text: "VACATION g2 FROM 20.12.2026 TO 2027-01-03\n",
			errs: []string{"1: VACATION's dates are written year-month-day"}},
		{name: "observe, unobserve, resend", text: "OBSERVE g2\nUNOBSERVE demo1\nRESEND g2 3\nRESEND g2\n",
			cmds: []Command{{Name: Observe, Line: 1, Game: "g2"}, {Name: Unobserve, Line: 2, Game: "demo1"},
				{Name: Resend, Line: 3, Game: "g2", Turn: 3}, {Name: Resend, Line: 4, Game: "g2"}}},
		{name: "gm lines", text: "SECRET gms\nGM PAUSE demo1 the map is wrong\nGM deadline demo1 +24h ann is ill\nGM REPLACE demo1 bob carol@example.org\n",
			cmds: []Command{
				{Name: GM, Line: 2, Game: "demo1", Verb: "PAUSE", Args: []string{"the", "map", "is", "wrong"}, Text: "the map is wrong"},
				{Name: GM, Line: 3, Game: "demo1", Verb: "DEADLINE", Args: []string{"+24h", "ann", "is", "ill"}, Text: "+24h ann is ill"},
				{Name: GM, Line: 4, Game: "demo1", Verb: "REPLACE", Args: []string{"bob", "carol@example.org"}, Text: "bob carol@example.org"}}},
		{name: "gm orders block", text: "SECRET gms\nGM ORDERS demo1 ann\npush 3\nhelp\nEND\nGM MESSAGE demo1\nTwo\nlines\nend\n",
			cmds: []Command{
				{Name: GM, Line: 2, Game: "demo1", Verb: "ORDERS", Args: []string{"ann"}, Text: "push 3\nhelp"},
				{Name: GM, Line: 6, Game: "demo1", Verb: "MESSAGE", Args: []string{}, Text: "Two\nlines"}}},
		{name: "gm orders without END", text: "GM ORDERS demo1 ann\npush 3\n", errs: []string{"1: this GM ORDERS has no END line"}},
		{name: "gm unknown verb", text: "GM EXPLODE demo1\n", errs: []string{"1: \"EXPLODE\" is not a GM verb"}},
		{name: "gm queries", text: "SECRET gms\nGM list\nGM SHOW demo1 AS ann\nGM LOG g2\nGM EXPORT demo1\n",
			cmds: []Command{
				{Name: GM, Line: 2, Verb: "LIST"},
				{Name: GM, Line: 3, Game: "demo1", Verb: "SHOW", Args: []string{"AS", "ann"}, Text: "AS ann"},
				{Name: GM, Line: 4, Game: "g2", Verb: "LOG", Args: []string{}, Text: ""},
				{Name: GM, Line: 5, Game: "demo1", Verb: "EXPORT", Args: []string{}, Text: ""}}},
		{name: "gm list takes no game", text: "GM LIST demo1\n", errs: []string{"1: GM LIST takes no arguments"}},
		{name: "settings", text: "SET LANG ru\nset tz Europe/Moscow\nSETTINGS\n",
			cmds: []Command{{Name: Set, Line: 1, Verb: "LANG", Text: "ru"}, {Name: Set, Line: 2, Verb: "TZ", Text: "Europe/Moscow"},
				{Name: Settings, Line: 3}}},
		{name: "settings in a game mail", subject: "[demo1 s]", text: "SET LANG ru\nSET FLEET 2\n",
			cmds: []Command{{Name: Set, Line: 1, Game: "demo1", Verb: "LANG", Text: "ru"}}, orders: true},
		{name: "unknown setting", text: "SET COLOUR blue\n", errs: []string{"1: there is no setting \"COLOUR\" (the settings are LANG, TZ, REMINDERS, DIGEST, PICTURES, AUTOVACATION)"}},
		{name: "set without value", text: "SET LANG\n", errs: []string{"1: SET needs a setting and one value"}},
	}
	known := func(id string) bool { return id == "demo1" || id == "g2" }
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := Parse(tc.subject, tc.text, nil, Options{IsGame: known})
			var errs []string
			for _, e := range r.Errors {
				errs = append(errs, strings.TrimSpace(strings.Join([]string{strconv.Itoa(e.Line), e.Msg}, ": ")))
			}
			if len(errs) != len(tc.errs) {
				t.Fatalf("errors %q, want %q", errs, tc.errs)
			}
			for i := range errs {
				if !strings.HasPrefix(errs[i], tc.errs[i]) {
					t.Errorf("error %q, want prefix %q", errs[i], tc.errs[i])
				}
			}
			if len(tc.errs) == 0 && !reflect.DeepEqual(r.Commands, tc.cmds) {
				t.Errorf("commands\n%+v\nwant\n%+v", r.Commands, tc.cmds)
			}
			if r.HasOrders != tc.orders {
				t.Errorf("HasOrders %v; orders %q", r.HasOrders, r.Orders)
			}
			if strings.Contains(r.Orders, "push 3") || strings.Contains(r.Orders, "ally") {
				t.Errorf("press text leaked into the orders: %q", r.Orders)
			}
		})
	}
}
