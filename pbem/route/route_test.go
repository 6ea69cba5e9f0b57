package route

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"orrery/engine"
	"orrery/pbem/command"
	"orrery/pbem/inmail"
)

func TestParse(t *testing.T) {
	known := func(id string) bool { return id == "demo1" || id == "g2" }
	tests := []struct {
		name          string
		subject, text string
		att           *inmail.Attachment
		game, secret  string
		cmds          []Command
		orders        string
		errs          []string // "line: msg" prefixes
	}{
		{name: "reply to a report", subject: "Re: [demo1 k7f3q] Turn 3 report", text: "build mine\nmove 2 mars\n",
			game: "demo1", secret: "k7f3q", orders: "build mine\nmove 2 mars\n"},
		{name: "tag among others", subject: "[EXTERNAL] RE: [Demo1] orders", text: "hold\n",
			game: "demo1", orders: "hold\n"},
		{name: "secret= in subject", subject: "[demo1] orders secret=abc", text: "hold\n",
			game: "demo1", secret: "abc", orders: "hold\n"},
		{name: "GAME and SECRET lines blanked", subject: "turn 3", text: "GAME demo1\nSECRET r5t6y\n# mine\nbuild mine\n",
			game: "demo1", secret: "r5t6y", orders: "\n\n# mine\nbuild mine\n"},
		{name: "GAME line below orders still routes", text: "hold\nGAME demo1\n",
			game: "demo1", orders: "hold\n\n"},
		{name: "commands without game", subject: "hello", text: "help\nList\nrules Prosper\n",
			cmds: []Command{{Name: Help, Line: 1}, {Name: List, Line: 2}, {Name: Rules, Line: 3, Ruleset: "prosper"}}},
		{name: "commands take the mail's game", subject: "[demo1]", text: "status\nhistory 3\nresign\n",
			game: "demo1", cmds: []Command{{Name: Status, Line: 1, Game: "demo1"}, {Name: History, Line: 2, Game: "demo1", Turn: 3},
				{Name: Resign, Line: 3, Game: "demo1"}}},
		{name: "explicit games", text: "JOIN g2 ann\nBOARD g2\nHISTORY g2\nWAIT g2\n",
			cmds: []Command{{Name: Join, Line: 1, Game: "g2", Seat: "ann"}, {Name: Board, Line: 2, Game: "g2"},
				{Name: History, Line: 3, Game: "g2"}, {Name: Wait, Line: 4, Game: "g2"}}},
		{name: "order that looks like a command stays an order", subject: "[demo1]", text: "join fleet 1 to fleet 2\n",
			game: "demo1", orders: "join fleet 1 to fleet 2\n"},
		{name: "ORDERS switches off commands", subject: "[demo1]", text: "ORDERS\nhelp\n",
			game: "demo1", cmds: []Command{{Name: Orders, Line: 1, Game: "demo1"}}, orders: "\nhelp\n"},
		{name: "ORDERS with a game routes", text: "ORDERS g2\nhold\n",
			game: "g2", cmds: []Command{{Name: Orders, Line: 1, Game: "g2"}}, orders: "\nhold\n"},
		{name: "unknown command names the line", text: "help\nstatsu demo1\nfoo\n",
			cmds: []Command{{Name: Help, Line: 1}},
			errs: []string{`2: unknown command "STATSU" — did you mean STATUS?`, `3: unknown command "FOO" — the commands are`}},
		{name: "bad arguments", text: "RULES\nJOIN\nHISTORY demo1 x\nLIST all\n",
			errs: []string{"1: RULES needs one ruleset name", "2: JOIN needs a game", `3: "x" is not a turn number`, "4: LIST takes only a page number"}},
		{name: "bad SECRET", subject: "[demo1]", text: "SECRET a b c\n", game: "demo1", errs: []string{"1: SECRET needs one word"}},
		// Self-service: SECRET naming a game asks for a seat's secret;
		// naming anything else it gives one.
		{name: "SECRET alone asks for the mail's game's", subject: "[demo1]", text: "SECRET\n", game: "demo1",
			cmds: []Command{{Name: SendSecret, Line: 1, Game: "demo1"}}},
		{name: "SECRET game [seat]", text: "secret g2\nSECRET demo1 bob\n",
			cmds: []Command{{Name: SendSecret, Line: 1, Game: "g2"}, {Name: SendSecret, Line: 2, Game: "demo1", Seat: "bob"}}},
		{name: "SECRET word gives a secret", subject: "[demo1]", text: "SECRET k7f3q\nhold\n", game: "demo1", secret: "k7f3q", orders: "\nhold\n"},
		// Given to no game, asking nothing, the answer says how it was
		// read and how to ask; with a command it still authenticates.
		{name: "SECRET word alone says how it was read", text: "SECRET demo7\n", secret: "demo7",
			errs: []string{"1: I read SECRET demo7 as your secret, but there is no game demo7 here"}},
		{name: "SECRET word beside a command", text: "SECRET k7f3q\nMY GAMES\n", secret: "k7f3q",
			cmds: []Command{{Name: MyGames, Line: 2}}},
		{name: "MY GAMES, NEW, START, INVITE", text: "my games\nMYGAMES\nNEW prosper 4 turn=48h\nSTART g2\nINVITE g2 ann@example.org, <bob@example.org>\n",
			cmds: []Command{{Name: MyGames, Line: 1}, {Name: MyGames, Line: 2}, {Name: New, Line: 3, Ruleset: "prosper", Args: []string{"4", "turn=48h"}},
				{Name: Start, Line: 4, Game: "g2"}, {Name: Invite, Line: 5, Game: "g2", Args: []string{"ann@example.org", "bob@example.org"}}}},
		{name: "INVITE in a game mail", subject: "[g2]", text: "INVITE carl@example.org\nSTART\n", game: "g2",
			cmds: []Command{{Name: Invite, Line: 1, Game: "g2", Args: []string{"carl@example.org"}}, {Name: Start, Line: 2, Game: "g2"}}},
		{name: "bad self-service", text: "MY GAMES please\nNEW\nSTART\nINVITE g2\nINVITE g2 nobody\n",
			errs: []string{"1: MY GAMES takes no arguments", "2: NEW needs a ruleset", "3: START needs the game you opened", "4: INVITE needs the addresses", `5: "nobody" is not a mail address`}},
		{name: "two games", subject: "[demo1] [g2]", text: "hold\n",
			errs: []string{"0: the subject names 2 games", `1: unknown command "HOLD" — the commands are`}},
		{name: "conflicting GAME line", subject: "[demo1]", text: "GAME g2\nhold\n", game: "demo1", orders: "\nhold\n",
			errs: []string{"1: this line names game g2 but the subject names demo1"}},
		{name: "CONFIRM, with or without the code", text: "CONFIRM\nconfirm K3J4H5M6N7P8Q9R2\nCONFIRM now please\n",
			cmds: []Command{{Name: Confirm, Line: 1}, {Name: Confirm, Line: 2, Token: "k3j4h5m6n7p8q9r2"}},
			errs: []string{"3: CONFIRM takes nothing, or the code"}},
		{name: "unknown tag ignored", subject: "[spam] [nosuch] hi", text: "help\n", cmds: []Command{{Name: Help, Line: 1}}},
		{name: "attachment holds the orders", subject: "[demo1 m4n5b] my orders", text: "Orders attached.\n",
			att: &inmail.Attachment{Name: "orders.txt", Text: "build mine\n"}, game: "demo1", secret: "m4n5b", orders: "build mine\n"},
		{name: "empty", subject: "hi", text: ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := Parse(tc.subject, tc.text, tc.att, Options{IsGame: known})
			if r.Game != tc.game || r.Secret != tc.secret {
				t.Errorf("game %q secret %q, want %q %q", r.Game, r.Secret, tc.game, tc.secret)
			}
			if !reflect.DeepEqual(r.Commands, tc.cmds) {
				t.Errorf("commands\n got %+v\nwant %+v", r.Commands, tc.cmds)
			}
			if r.Orders != tc.orders && !(tc.orders == "" && strings.TrimSpace(r.Orders) == "") {
				t.Errorf("orders %q, want %q", r.Orders, tc.orders)
			}
			if len(r.Errors) != len(tc.errs) {
				t.Fatalf("errors %v, want %v", r.Errors, tc.errs)
			}
			for i, e := range r.Errors {
				got := strings.TrimPrefix(e.Error(), "line ")
				if e.Line == 0 {
					got = "0: " + got
				}
				if !strings.HasPrefix(got, tc.errs[i]) {
					t.Errorf("error %d = %q, want prefix %q", i, got, tc.errs[i])
				}
				if e.Fix == "" {
					t.Errorf("error %d has no fix: %v", i, e)
				}
			}
		})
	}
}

func TestEmpty(t *testing.T) {
	if !Parse("hi", "# nothing\n\n", nil, Options{}).Empty() {
		t.Error("a comment-only mail should be Empty")
	}
	if Parse("[demo1]", "hold\n", nil, Options{}).Empty() {
		t.Error("orders are not Empty")
	}
}

// TestCorpus routes the inmail corpus: each real-world mail must reach its
// game with its orders and no error.
func TestCorpus(t *testing.T) {
	want := map[string]struct{ game, secret string }{
		"gmail-alternative":      {"demo1", "k7f3q"},
		"outlook-alternative":    {"demo1", "q2w9e"},
		"outlook-html-only":      {"demo1", "q2w9e"},
		"apple-mail-bottom":      {"demo1", "x8y7z"},
		"apple-iphone":           {"demo1", "x8y7z"},
		"thunderbird-flowed":     {"demo1", "m4n5b"},
		"thunderbird-koi8r":      {"demo1", "m4n5b"},
		"mutt-iso-8859-1":        {"demo1", "r5t6y"},
		"thunderbird-attachment": {"demo1", "m4n5b"},
		"outlook-windows-1251":   {"demo1", ""},
		"outlook-ios":            {"demo1", "q2w9e"},
		"gmail-attachment":       {"demo1", "k7f3q"},
		"thunderbird-html":       {"demo1", "m4n5b"},
	}
	for name, w := range want {
		raw, err := os.ReadFile("../inmail/testdata/corpus/" + name + ".eml")
		if err != nil {
			t.Fatal(err)
		}
		m, err := inmail.Parse(raw, inmail.Options{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		r := Route(m, Options{})
		if r.Game != w.game || r.Secret != w.secret || len(r.Errors) > 0 || !r.HasOrders {
			t.Errorf("%s: game %q secret %q errors %v orders %q", name, r.Game, r.Secret, r.Errors, r.Orders)
		}
		lines := engine.OrderLines(strings.ToLower(r.Orders))
		if len(lines) != 2 || !strings.HasSuffix(lines[0], "mine at rigel") || !strings.HasPrefix(lines[1], "move fleet 2 to mars") {
			t.Errorf("%s: orders %q", name, lines)
		}
	}
	raw, _ := os.ReadFile("../inmail/testdata/corpus/mutt-commands.eml")
	m, _ := inmail.Parse(raw, inmail.Options{})
	r := Route(m, Options{})
	if len(r.Commands) != 3 || r.Commands[2].Ruleset != "prosper" || len(r.Errors) > 0 {
		t.Errorf("mutt-commands: %+v", r)
	}
}

// FuzzParse checks that any subject and text route without panicking, that
// every error names a line of the text, and that orders keep line numbers.
func FuzzParse(f *testing.F) {
	f.Add("[demo1 k7f3q] Re: turn", "GAME demo1\nhold\nSTATUS\n")
	f.Add("hi", "help\nfoo bar\nHISTORY demo1 3\n")
	f.Fuzz(func(t *testing.T, subject, text string) {
		r := Parse(subject, text, nil, Options{})
		n := strings.Count(strings.TrimRight(strings.ReplaceAll(text, "\r\n", "\n"), "\n"), "\n") + 1
		for _, e := range r.Errors {
			if e.Line < 0 || e.Line > n {
				t.Fatalf("error on line %d of a %d-line text: %v", e.Line, n, e)
			}
		}
		if got := strings.Count(r.Orders, "\n"); r.Orders != "" && got > n {
			t.Fatalf("orders have %d lines, text %d", got, n)
		}
	})
}

// TestUnknownNamesEveryCommand keeps the fix given for an unknown command
// true to pbem/command's table: it names every player's command, in
// HELP's order.
func TestUnknownNamesEveryCommand(t *testing.T) {
	var names []string
	for _, d := range command.All {
		if d.Kind != command.GMKind {
			names = append(names, string(d.Name))
		}
	}
	want := "the commands are " + strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1] + "; "
	r := Parse("", "FROBNICATE", nil, Options{})
	if len(r.Errors) != 1 || !strings.HasPrefix(r.Errors[0].Fix, want) {
		t.Errorf("an unknown command's fix: %+v, want it to start %q", r.Errors, want)
	}
}

// TestRefusalsAreMessages: every refusal of the router is a message (why
// and, with a fix, how), so that the mail side writes it in the reader's
// language rather than matching its English afterwards.
func TestRefusalsAreMessages(t *testing.T) {
	known := func(id string) bool { return id == "demo1" || id == "g2" }
	for _, c := range []struct{ subject, text, want string }{
		{"hi", "GAME\nSTATUS demo1\n", "GAME needs one game id"},
		{"[demo1]", "SECRET a b\n", "SECRET needs one word"},
		{"[demo1]", "PRESS TO bob\nhello\n", "this PRESS has no END line"},
		{"[demo1]", "GM ORDERS demo1 ann\nhold\n", "this GM ORDERS has no END line"},
		{"[demo1] [g2]", "STATUS\n", "the subject names 2 games: demo1, g2"},
		{"[demo1]", "GAME g2\nhold\n", "this line names game g2 but the subject names demo1"},
		{"hi", "GAME g2\nGAME demo1\n", "this line names game demo1 but line 1 names g2"},
		{"[demo1 k7f3q]", "SECRET r5t6y\n", "a second, different secret (the subject gave another)"},
		{"[demo1]", "SECRET k7f3q\nSECRET r5t6y\n", "a second, different secret (line 1 gave another)"},
		{"hi", "statsu demo1\n", `unknown command "STATSU"`},
		{"hi", "frobnicate\n", `unknown command "FROBNICATE"`},
	} {
		r := Parse(c.subject, c.text, nil, Options{IsGame: known})
		found := false
		for _, e := range r.Errors {
			if strings.HasPrefix(e.Msg, c.want) {
				found = true
			}
			if e.Why == nil || e.Why.English() != e.Msg || (e.Fix != "") != (e.Hint != nil) || e.Hint != nil && e.Hint.English() != e.Fix {
				t.Errorf("%q: the error %q (fix %q) is not worded as messages: why %v, hint %v", c.text, e.Msg, e.Fix, e.Why, e.Hint)
			}
		}
		if !found {
			t.Errorf("%q: errors %v, want %q", c.text, r.Errors, c.want)
		}
	}
}
