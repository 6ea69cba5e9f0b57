package templates

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"orrery/engine"
	"orrery/engine/dice"
	"orrery/engine/game"
	"orrery/engine/lang"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden from the templates")

// sample is a Prosper-shaped game of two people and a bot after turn 3,
// written by hand in the shape engine/game reports have, with a private
// event and a hidden roll that only ann may see.
func sample(player string) *Data {
	seed := "3f1d9a0c5b7e4d2a8c6b0e9f1a2d3c4b5e6f708192a3b4c5d6e7f8091a2b3c4d"
	players := []game.Player{
		{Name: "ann", Email: "ann@example.org", Secret: "k7f3q"},
		{Name: "bob", Email: "bob@example.org", Secret: "q2w9e"},
		{Name: "cy", Secret: "zz9zz", Bot: true},
	}
	var secret string
	for _, p := range players {
		if p.Name == player {
			secret = p.Secret
		}
	}
	board := "     a   b   c   d   e\n" +
		"  1  .   *   .   .   .     * Rigel (ann, mine 2)\n" +
		"  2  .   .   R   .   .     R Mars (bob)\n" +
		"  3  .   .   .   .   C     C Vega (cy)\n"
	status := "Player  Credits  Mines  Fleets\nann     12       2      1\nbob     9        1      2\ncy      7        1      1\n"
	events := []string{"bob's fleet 2 moves to Mars.", "Red fires at Mars: hit, <Mars> loses a mine & a fleet."}
	rolls := []dice.Roll{{N: 1, Sides: 6, Value: 5, Purpose: "Red fires at Mars"}, {N: 2, Sides: 6, Value: 2, Purpose: "cy's production"}}
	// Each reader's own news comes first (game.Report.News): ann's spy
	// report, bob's fleet.
	news := 0
	switch player {
	case "ann":
		events = append([]string{"Your spy reports: bob has 9 credits."}, events...)
		rolls = append(rolls, dice.Roll{N: 3, Sides: 6, Value: 4, Purpose: "ann's spy", To: []string{"ann"}})
		news = 1
	case "bob":
		news = 1
	}
	rep := &game.Report{
		Game: "demo1", Ruleset: "prosper", Title: "Prosper or Perish", Player: player, Step: 3, Turn: 3,
		Phase: "production", Reason: "all orders in", Board: board, Status: status, Events: events, News: news, Rolls: rolls,
		Defaults:     []string{"cy"},
		RevealedSeed: seed, RevealedCommitment: dice.Commitment(seed),
		NextCommitment: dice.Commitment("next-" + seed),
		Prompts: []engine.Prompt{
			{ID: "turn:" + player, Player: player, Kind: engine.KindTurn, Ask: "Your orders for turn 4: build, move, trade.", Default: "HOLD"},
			{ID: "standing:" + player, Player: player, Kind: engine.KindAnytime, Ask: "Standing orders, any time."},
		},
		Waiting:  []string{"ann", "bob"},
		Deadline: "2026-11-23T18:00:00Z",
		// Only HISTORY shows press: what this player sent or got, a grey
		// sender unnamed to everyone but the sender.
		Press: []game.PressNote{
			{Time: time.Date(2026, 11, 22, 19, 30, 0, 0, time.UTC), From: "bob", To: []string{"ann"}, Text: "Shall we share Vega?\nI keep the mine."},
			{Time: time.Date(2026, 11, 22, 21, 0, 0, 0, time.UTC), To: []string{"ann", "bob"}, Text: "cy is coming for Rigel."},
		},
	}
	info := &engine.Info{Name: "prosper", Title: "Prosper or Perish", MinPlayers: 2, MaxPlayers: 6,
		Summary:   "Build mines, move fleets, trade credits. The richest player after turn 12 wins.",
		OrderHelp: "BUILD MINE AT <planet>      build a mine (5 credits)\nMOVE FLEET <n> TO <planet>  move a fleet one jump\nHOLD                        do nothing",
		Options:   []engine.Option{{Name: "turns", Default: "12", Help: "turns before the game ends"}, {Name: "map", Default: "small", Choices: []string{"small", "large"}, Help: "board size"}}}
	d := &Data{
		Bot: "orrery@example.org", Game: "demo1", Title: "Prosper or Perish", Player: player, Secret: secret,
		Subject:  "Re: [demo1 " + secret + "] Turn 3 report",
		Orders:   []string{"BUILD MINE AT RIGEL", "MOVE FLEET 2 TO MARS"},
		Replaced: player == "bob",
		// ann's receipt is of a secret part (salted), bob's of a public one.
		Receipt: &[]dice.Part{dice.Part{Head: player + " turn:" + player + " sent", Hidden: player == "ann", Salt: map[bool]string{true: "0f3a9c1e5b7d2f4608a1c3e5b7d9f1a2"}[player == "ann"],
			Lines: []string{"BUILD MINE AT RIGEL", "MOVE FLEET 2 TO MARS"}}.Sealed()}[0],
		Prompt:  rep.Prompts[0],
		Preview: &PreviewInfo{Left: 2},
		Errors: []engine.LineError{
			{Line: 2, Text: "move fleet 2 to rigle", Msg: "no planet named 'rigle'", Fix: "did you mean 'Rigel'?"},
			{Line: 4, Text: "buidl mine at <vega>", Msg: "unknown order 'buidl'", Fix: "did you mean BUILD?"},
			{Line: 0, Msg: "these orders name no fleet 3"},
		},
		Waiting:  []string{"bob", "cy"},
		Deadline: time.Date(2026, 11, 23, 18, 0, 0, 0, time.UTC),
		Report:   rep,
		Info:     info,
		Players:  players,
		Games: []GameSummary{
			{ID: "demo1", Ruleset: "prosper", Title: "Prosper or Perish", Turn: 3, Phase: "production", Seated: 3, Seats: 3},
			{ID: "open2", Ruleset: "prosper", Title: "Prosper or Perish", Seated: 1, Seats: 4, Signup: true},
			{ID: "old", Ruleset: "prosper", Title: "Prosper or Perish", Turn: 12, Seated: 2, Seats: 2, Over: true},
		},
		Rules:   []engine.Info{*info},
		Attempt: &Attempt{Date: time.Date(2026, 11, 22, 20, 5, 0, 0, time.UTC), Reason: "wrong secret"},
		Notice:  &game.Notice{Kind: "reminder", To: []string{player}, Text: "Your orders for demo1 are due in 2 hours."},
		Size:    300 << 10,
		Limit:   256 << 10,
		Settings: []Setting{
			{Key: "LANG", Value: "ru", Default: "en", Help: "the language of my mails to you: en (English) or ru (Russian)", Example: "SET LANG ru"},
			{Key: "TZ", Default: "UTC", Help: "the time zone of the times in my mails (UTC is shown beside them)", Example: "SET TZ Europe/Moscow"},
		},
		Changed: []string{"LANG"},
		Ignored: []Line{{N: 1, Text: "Hi!"}, {N: 2, Text: `Here are my "orders" for this turn, which I wrote on the train this morning:`}},
		Held: &Held{Orders: []string{"BUILD MINE AT RIGEL", "MOVE FLEET 2 TO MARS"}, WrittenStep: 4, Step: 6, Turn: 3,
			Reason: "step"},
		Scope: "player", Page: 1, Pages: 2,
		Consent: &Consent{Kind: "observe", Token: "k3j4h5m6n7p8q9r2", Address: "olga+games@example.org", Days: 3},
		Mine: []MyGame{
			{ID: "demo1", Title: "Prosper or Perish", Seat: player, Turn: 3, Phase: "production", Deadline: time.Date(2026, 11, 23, 18, 0, 0, 0, time.UTC),
				Asked: true, Awaited: []string{"ann", "bob"}, Seated: 3, Seats: 3},
			{ID: "friday", Title: "Burning Planets", Seat: "ann", Turn: 5, Phase: "orders", Asked: true, OrdersIn: true, Awaited: []string{"bob"}, Seated: 4, Seats: 4},
			{ID: "prosper-k7f3", Title: "Prosper or Perish", Seat: "ann", Signup: true, Seated: 2, Seats: 4, Creator: true},
			{ID: "big7", Title: "The Earthman's Burden", Observing: true, Turn: 9, Phase: "movement", Seated: 5, Seats: 5},
			{ID: "old", Title: "Prosper or Perish", Seat: "ann", Turn: 12, Over: true, Won: true, Seated: 2, Seats: 2},
		},
		Record: &Record{Games: 4, Steps: 57, Missed: 3, Abandoned: 1, Won: 2},
		Digest: []DigestGame{
			{ID: "demo1", Title: "Prosper or Perish", Seat: "ann", Report: rep, News: []DigestNews{
				{Time: time.Date(2026, 11, 21, 18, 0, 0, 0, time.UTC), Kind: "report", Step: 2, Turn: 2, Phase: "movement", Events: []string{"ann's fleet 1 moves to Rigel."}},
				{Time: time.Date(2026, 11, 22, 9, 30, 0, 0, time.UTC), Kind: "deadline", Text: "The deadline of demo1 moves from Mon 2026-11-23 18:00 UTC to Wed 2026-11-25 18:00 UTC: bob is ill."},
				{Time: time.Date(2026, 11, 22, 18, 0, 0, 0, time.UTC), Kind: "report", Step: 3, Turn: 3, Phase: "production", Events: events},
			}},
			{ID: "big7", Title: "The Earthman's Burden", News: []DigestNews{
				{Time: time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC), Kind: "report", Step: 17, Turn: 9, Phase: "movement", Events: []string{"The Kree fleet lands on Terra."}},
			}},
		},
	}
	if player == "bob" {
		// bob's mail also held a report of ours, pasted back, and a
		// command that was applied before his orders were refused.
		d.IgnoredMore, d.PastedFrom, d.PastedTo, d.Applied = 3, 12, 80, true
		d.PartRead, d.PartDone, d.PartFixN, d.PartFix, d.PartResend = 3, 1, 1, "2", "2, 3"
		// and gave his secret on a line SECRET, which wrong-secret quotes.
		d.Attempt.Said = "k7f3q"
	}
	d.Games[0].Mine = true
	return d
}

// TestGoldenRussian pins every kind of mail as a Russian reader in Moscow
// gets it.
func TestGoldenRussian(t *testing.T) {
	set, err := New("")
	if err != nil {
		t.Fatal(err)
	}
	moscow, err := time.LoadLocation("Europe/Moscow")
	if err != nil {
		t.Fatal(err)
	}
	for _, kind := range Kinds() {
		t.Run(kind, func(t *testing.T) {
			d := sample("ann")
			d.Lang, d.Zone = lang.Russian, moscow
			m, err := set.Render(kind, d)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(m.Text, "Hello") || !strings.Contains(m.HTML, `lang="ru"`) {
				t.Errorf("%s is not in Russian:\n%s", kind, m.Text)
			}
			checkGolden(t, kind+".ru", m)
		})
	}
}

// over is the sample after the last step: the game is over and the dice
// secret is revealed.
func over(player string) *Data {
	d := sample(player)
	r := *d.Report
	r.Outcome = engine.Outcome{Over: true, Winners: []string{"ann"}, Text: "ann holds every planet"}
	r.DiceSecret = "a1b2c3d4e5f60718293a4b5c6d7e8f90"
	r.Prompts, r.Waiting, r.Deadline = nil, nil, ""
	d.Report = &r
	return d
}

func format(m Mail) string {
	return fmt.Sprintf("Subject: %s\n\n--- text ---\n%s--- html ---\n%s", m.Subject, m.Text, m.HTML)
}

func TestGolden(t *testing.T) {
	set, err := New("")
	if err != nil {
		t.Fatal(err)
	}
	perPlayer := map[string]bool{Welcome: true, Ack: true, Rejected: true, Report: true, Status: true,
		History: true, WrongSecret: true, MissingSecret: true, OwnerWarning: true, Notice: true, HeldOrders: true, Secret: true, Preview: true}
	unread := sample("")
	unread.Unread, unread.Size, unread.Limit = true, 82<<20, 20<<20
	join := sample("")
	join.Game, join.Consent = "open2", &Consent{Kind: "join", Seat: "olga", Token: "k3j4h5m6n7p8q9r2", Address: "olga@example.org", Days: 3}
	stranger := sample("")
	stranger.Scope, stranger.Pages, stranger.Games = "stranger", 1, stranger.Games[1:2]
	gm := sample("")
	gm.GM = true
	extra := []struct {
		name string
		kind string
		data *Data
	}{{"report-over.ann", Report, over("ann")}, {"status-over.bob", Status, over("bob")}, {"list-stranger", List, stranger}, {"consent-join", AskConsent, join}, {"oversize-unread", Oversize, unread}, {"help-gm", Help, gm}}
	for _, x := range extra {
		t.Run(x.name, func(t *testing.T) {
			m, err := set.Render(x.kind, x.data)
			if err != nil {
				t.Fatal(err)
			}
			checkGolden(t, x.name, m)
		})
	}
	for _, kind := range Kinds() {
		players := []string{""}
		if perPlayer[kind] {
			players = []string{"ann", "bob"}
		}
		for _, player := range players {
			name := kind
			if player != "" {
				name += "." + player
			}
			t.Run(name, func(t *testing.T) {
				m, err := set.Render(kind, sample(player))
				if err != nil {
					t.Fatal(err)
				}
				if m.Subject == "" || m.Text == "" || m.HTML == "" {
					t.Fatalf("empty part: %+v", m)
				}
				checkGolden(t, name, m)
			})
		}
	}
}

// TestReportContents pins what the issue demands of a report, whatever the
// wording: the board aligned in <pre>, every event and die with its
// purpose, the seed and both commitments, the check command, the deadline
// and what is expected, and nothing private to another player.
func TestReportContents(t *testing.T) {
	set, err := New("")
	if err != nil {
		t.Fatal(err)
	}
	for _, player := range []string{"ann", "bob"} {
		d := sample(player)
		m, err := set.Render(Report, d)
		if err != nil {
			t.Fatal(err)
		}
		r := d.Report
		must := []string{r.RevealedSeed, r.RevealedCommitment, r.NextCommitment, "sha256sum", "Mon 2026-11-23 18:00 UTC",
			"Your orders for turn 4", "[demo1 " + d.Secret + "]"}
		for _, roll := range r.Rolls {
			must = append(must, roll.String())
		}
		for _, s := range must {
			if !strings.Contains(m.Subject+m.Text, s) {
				t.Errorf("%s: text lacks %q", player, s)
			}
		}
		for _, l := range strings.Split(strings.TrimRight(r.Board, "\n"), "\n") {
			if !strings.Contains(m.Text, l+"\n") {
				t.Errorf("%s: board line %q not intact in text", player, l)
			}
		}
		if !regexp.MustCompile(`<pre style="[^"]*monospace[^"]*">     a   b   c`).MatchString(m.HTML) {
			t.Errorf("%s: board not in <pre>", player)
		}
		if !strings.Contains(m.HTML, "&lt;Mars&gt; loses a mine &amp; a fleet") || strings.Contains(m.HTML, "<Mars>") {
			t.Errorf("%s: event not escaped in HTML", player)
		}
		spy := strings.Contains(m.Text, "spy")
		if spy != (player == "ann") {
			t.Errorf("%s: private spy lines shown=%v", player, spy)
		}
	}
}

func TestAckNeverShowsOthersOrders(t *testing.T) {
	set, _ := New("")
	d := sample("ann")
	m, err := set.Render(Ack, d)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(m.Text, "Still to send: bob and cy") || !strings.Contains(m.Text, "  BUILD MINE AT RIGEL\n") {
		t.Errorf("ack lacks waiting players or orders:\n%s", m.Text)
	}
	if strings.Contains(m.Text, "Standing orders") {
		t.Error("ack shows report prompts it was not given")
	}
}

// TestAckListsAnytimeOrders (issue 19): any-time orders sent alone are
// said to be applied at once without touching the step's orders; mixed
// into a turn, they are listed apart.
func TestAckListsAnytimeOrders(t *testing.T) {
	set, _ := New("")
	d := sample("ann")
	d.Orders, d.Anytime = []string{"LANG RU"}, []string{"LANG RU"}
	m, err := set.Render(Ack, d)
	if err != nil {
		t.Fatal(err)
	}
	if text := strings.Join(strings.Fields(m.Text), " "); !strings.Contains(text, "they neither send nor replace your orders for the step") || !strings.Contains(m.HTML, "neither send nor replace") {
		t.Errorf("the ack of any-time orders alone:\n%s", m.Text)
	}
	d.Orders = []string{"BUILD MINE AT RIGEL", "LANG RU"}
	m, _ = set.Render(Ack, d)
	if text := strings.Join(strings.Fields(m.Text), " "); !strings.Contains(text, "Of these, orders you may give at any time") || strings.Contains(text, "neither send") {
		t.Errorf("the ack of a turn with an any-time order:\n%s", m.Text)
	}
	d.Anytime = nil
	if m, _ = set.Render(Ack, d); strings.Contains(m.Text, "any time") {
		t.Errorf("the ack of a turn alone speaks of any-time orders:\n%s", m.Text)
	}
}

func TestOverride(t *testing.T) {
	dir := t.TempDir()
	src := `{{define "subject"}}Custom {{.Game}}{{end}}{{define "text"}}custom text{{end}}{{define "html"}}<p>{{.Game}}</p>{{end}}`
	if err := os.WriteFile(filepath.Join(dir, "help.tmpl"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	set, err := New(dir)
	if err != nil {
		t.Fatal(err)
	}
	m, err := set.Render(Help, &Data{Game: "<g>"})
	if err != nil {
		t.Fatal(err)
	}
	if m.Subject != "Custom <g>" || m.Text != "custom text\n" || m.HTML != "<p>&lt;g&gt;</p>\n" {
		t.Errorf("override not used or not escaped: %+v", m)
	}
	if m, _ := set.Render(Ack, sample("ann")); !strings.Contains(m.Text, "accepted") {
		t.Error("kinds not overridden must stay embedded")
	}
	bad := filepath.Join(t.TempDir(), "x")
	os.Mkdir(bad, 0o755)
	os.WriteFile(filepath.Join(bad, "ack.tmpl"), []byte(`{{define "subject"}}x{{end}}`), 0o644)
	if _, err := New(bad); err == nil || !strings.Contains(err.Error(), "ack.tmpl") {
		t.Errorf("an override without text/html should be refused naming the file, got %v", err)
	}
	os.WriteFile(filepath.Join(bad, "ack.tmpl"), []byte(`{{define "subject"}}{{end`), 0o644)
	if _, err := New(bad); err == nil || !strings.Contains(err.Error(), "ack.tmpl") {
		t.Errorf("a broken override should be refused naming the file, got %v", err)
	}
	if _, err := New(filepath.Join(dir, "missing")); err == nil {
		t.Error("a missing override directory should be an error")
	}
	if _, err := set.Render("nosuch", nil); err == nil {
		t.Error("an unknown kind should be an error")
	}
}

func checkGolden(t *testing.T, name string, m Mail) {
	t.Helper()
	for i, l := range strings.Split(m.Text, "\n") {
		if engine.Width(l) > Width {
			t.Errorf("text line %d is %d columns: %q", i+1, engine.Width(l), l)
		}
	}
	if strings.Contains(m.Text, "<no value>") || strings.Contains(m.HTML, "<no value>") {
		t.Error("a template reads a missing field")
	}
	got := format(m)
	golden := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test ./templates -update)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from %s:\n%s", name, golden, got)
	}
}
