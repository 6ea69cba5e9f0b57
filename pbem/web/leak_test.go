package web

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"testing"

	"orrery/engine"
	"orrery/engine/enginetest"
	"orrery/engine/game"
	"orrery/games"
)

// leakGames are the bot games the leak test plays: every ruleset, with the
// options that give it the most to hide.
var leakGames = []struct {
	ruleset string
	players []string
	options map[string]string
}{
	{"prosper", []string{"ann", "bob", "cyd"}, nil},
	{"earthman-classic", []string{"ann", "bob", "cyd"}, map[string]string{"interrupts": "on"}},
	{"earthman", []string{"ann", "bob", "cyd"}, map[string]string{"skynet": "on"}},
	{"burning", []string{"ann", "bob", "cyd"}, nil},
	{"orbital", []string{"ann", "bob"}, map[string]string{"hidden-cargo": "on"}},
}

// Hidden information never reaches a page that may not show it. For every
// ruleset a bot game is played and each step's reports are built for the
// GM, every seat and the public (engine/game's Report: the same rules the
// mails follow, which each ruleset's own hidden-information tests guard).
// What some other reader was told and this one was not (a line of another
// view's board or status, an event, a roll's purpose, a prompt or its
// default, press) is a secret for this reader; no page this reader can
// open (HTML, JSON, SVG, dice, feed, the list of games) may contain one.
// And a page shows exactly its reader's events and rolls, no fewer.
func TestNoLeaks(t *testing.T) {
	differ := 0
	for _, lg := range leakGames {
		t.Run(lg.ruleset, func(t *testing.T) {
			rs, err := engine.Find(games.All(), lg.ruleset)
			if err != nil {
				t.Fatal(err)
			}
			res := enginetest.PlayBots(t, rs, enginetest.Options{Players: lg.players, Seed: 11, Options: lg.options, MaxSteps: 60})
			differ += checkNoLeaks(t, res.Service, res.Game.ID, lg.players)
		})
	}
	if differ == 0 {
		t.Errorf("no game drew a picture for the GM other than the one it serves: the pictures' check shows nothing")
	}
}

// reader is one reader of a game's pages: the public or a seat.
type reader struct {
	seat   string // "" for the public
	prefix string // "/g/ID" or "/g/ID/p/TOKEN"
}

func (r reader) player() string {
	if r.seat == "" {
		return game.Observer
	}
	return r.seat
}

func (r reader) String() string {
	if r.seat == "" {
		return "the public"
	}
	return r.seat
}

// checkNoLeaks checks every page of game id for each reader, and returns
// how many served pictures differ from the GM's picture of the same step.
func checkNoLeaks(t *testing.T, svc *game.Service, id string, seats []string) int {
	ctx := context.Background()
	s := newSite(t, Config{Service: svc, Picture: Drawn, Bot: "orrery@example.org"})
	differ := 0
	g, err := svc.Get(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	readers := []reader{{prefix: "/g/" + id}}
	for _, p := range seats {
		readers = append(readers, reader{seat: p, prefix: "/g/" + id + "/p/" + tokenOf(t, svc, id, p)})
	}
	// Every report of every step, for every reader and the GM.
	reports := map[string][]*game.Report{}
	for _, who := range append([]string{game.GM, game.Observer}, seats...) {
		for n := uint64(0); n <= g.Step; n++ {
			r, err := svc.StepReport(ctx, id, n, who)
			if err != nil {
				t.Fatal(err)
			}
			if who == game.Observer {
				r.Press = nil
			}
			reports[who] = append(reports[who], r)
		}
	}
	secretsSeen := 0
	for _, rd := range readers {
		// What this reader was told in the whole game, and what others
		// were told that this reader never was.
		var told, others []string
		for n := range reports[rd.player()] {
			told = append(told, corpus(reports[rd.player()][n])...)
		}
		for who, reps := range reports {
			if who == rd.player() {
				continue
			}
			for _, r := range reps {
				others = append(others, corpus(r)...)
			}
		}
		allTold := strings.Join(told, "\n")
		global := secrets(others, allTold)
		secretsSeen += len(global)
		for _, path := range []string{"", "/report.json", "/dice", "/feed.atom"} {
			if rd.seat != "" && path == "/feed.atom" {
				continue
			}
			checkPage(t, s, rd, rd.prefix+path, global)
		}
		if rd.seat == "" {
			checkPage(t, s, rd, "/", global)
		}
		checkDicePage(t, s, rd, reports[rd.player()])
		for n := uint64(0); n <= g.Step; n++ {
			mine := reports[rd.player()][n]
			var step []string
			for who, reps := range reports {
				if who != rd.player() {
					step = append(step, corpus(reps[n])...)
				}
			}
			local := secrets(step, strings.Join(corpus(mine), "\n"))
			secretsSeen += len(local)
			for _, ext := range []string{"", ".json", ".svg"} {
				body := checkPage(t, s, rd, fmt.Sprintf("%s/step/%d%s", rd.prefix, n, ext), local)
				switch ext {
				case "":
					checkShows(t, rd, n, body, mine)
				case ".json":
					checkJSON(t, rd, n, body, mine)
				case ".svg":
					// The picture is the reader's own view's, drawn.
					own, gm := drawnAs(t, svc, id, n, rd.player()), drawnAs(t, svc, id, n, game.GM)
					if !bytes.Equal(body, own) {
						t.Errorf("%s's picture of step %d is not drawn from their own view", rd, n)
					}
					if !bytes.Equal(own, gm) {
						differ++
					}
				}
			}
		}
	}
	if secretsSeen == 0 {
		t.Errorf("no reader of this game was ever kept from anything another was told: the test shows nothing")
	}
	t.Logf("%d steps, %d readers, %d secrets looked for, %d pictures other than the GM's", g.Step+1, len(readers), secretsSeen, differ)
	return differ
}

// drawnAs is the picture of step n as who's view draws it.
func drawnAs(t *testing.T, svc *game.Service, id string, n uint64, who string) []byte {
	t.Helper()
	v, err := svc.StepView(context.Background(), id, n, who)
	if err != nil {
		t.Fatal(err)
	}
	svg, _, err := Drawn(v)
	if err != nil || svg == nil {
		t.Fatalf("step %d as %q draws no picture: %v", n, who, err)
	}
	return svg
}

// corpus is everything a report tells its reader, in pieces a page would
// show whole: lines of the board and status, events, rolls' purposes,
// prompts and their defaults, press.
func corpus(r *game.Report) []string {
	var out []string
	lines := func(s string) {
		for _, l := range strings.Split(s, "\n") {
			out = append(out, strings.TrimSpace(l))
		}
	}
	lines(r.Board)
	lines(r.Status)
	out = append(out, r.Events...)
	for _, roll := range r.Rolls {
		out = append(out, roll.Purpose)
	}
	for _, p := range r.Prompts {
		out = append(out, p.Ask)
		lines(p.Default)
	}
	for _, p := range r.Press {
		lines(p.Text)
	}
	return out
}

// secrets are the pieces of others that told does not contain, long
// enough not to turn up by chance in a page's own words.
func secrets(others []string, told string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range others {
		if len(s) < 12 || seen[s] || strings.Contains(told, s) {
			continue
		}
		seen[s] = true
		out = append(out, s)
	}
	return out
}

// checkPage fetches a page for rd and fails on any secret in it.
func checkPage(t *testing.T, s *Site, rd reader, path string, secrets []string) []byte {
	t.Helper()
	w := get(s, "GET", path)
	if w.Code != 200 {
		t.Fatalf("%s: %s: %d\n%s", rd, path, w.Code, w.Body)
	}
	body := w.Body.Bytes()
	content := text(body)
	if strings.HasSuffix(path, ".json") {
		content = jsonStrings(t, body)
	}
	for _, sec := range secrets {
		if strings.Contains(content, sec) {
			t.Errorf("%s's %s shows what they were never told: %q", rd, path, sec)
		}
	}
	return body
}

// jsonStrings is every string in a JSON document, one a line.
func jsonStrings(t *testing.T, data []byte) string {
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	var out []string
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case string:
			out = append(out, x)
		case []any:
			for _, e := range x {
				walk(e)
			}
		case map[string]any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(v)
	return strings.Join(out, "\n")
}

var rollNumber = regexp.MustCompile(`data-n="(\d+)"`)

// checkShows holds that a step's page shows the reader's every event and
// exactly the reader's rolls.
func checkShows(t *testing.T, rd reader, n uint64, body []byte, mine *game.Report) {
	t.Helper()
	content := text(body)
	for _, e := range mine.Events {
		if !strings.Contains(content, e) {
			t.Errorf("%s's page of step %d lacks the event %q", rd, n, e)
		}
	}
	var got, want []string
	for _, m := range rollNumber.FindAllStringSubmatch(string(body), -1) {
		got = append(got, m[1])
	}
	for _, r := range mine.Rolls {
		want = append(want, fmt.Sprint(r.N))
	}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("%s's page of step %d shows rolls %v, the report %v", rd, n, got, want)
	}
}

func checkJSON(t *testing.T, rd reader, n uint64, body []byte, mine *game.Report) {
	t.Helper()
	var d ReportDoc
	if err := json.Unmarshal(body, &d); err != nil {
		t.Fatal(err)
	}
	var got, want []string
	for _, r := range d.Rolls {
		got = append(got, fmt.Sprintf("#%d d%d=%d %s", r.N, r.Sides, r.Value, r.Purpose))
	}
	for _, r := range mine.Rolls {
		want = append(want, fmt.Sprintf("#%d d%d=%d %s", r.N, r.Sides, r.Value, r.Purpose))
	}
	if d.Board != mine.Board || d.Status != mine.Status || strings.Join(d.Events, "\n") != strings.Join(mine.Events, "\n") ||
		strings.Join(got, "\n") != strings.Join(want, "\n") || d.Player != rd.seat {
		t.Errorf("%s's step %d as JSON is not the report they got", rd, n)
	}
}

var diceRow = regexp.MustCompile(`<section class="step" id="step-(\d+)"|<tr data-n="(\d+)"`)

// checkDicePage holds that the dice page lists, step by step, exactly the
// rolls of the reader's reports.
func checkDicePage(t *testing.T, s *Site, rd reader, mine []*game.Report) {
	t.Helper()
	w := get(s, "GET", rd.prefix+"/dice")
	got := map[string][]string{}
	step := ""
	for _, m := range diceRow.FindAllStringSubmatch(w.Body.String(), -1) {
		if m[1] != "" {
			step = m[1]
			got[step] = nil
			continue
		}
		got[step] = append(got[step], m[2])
	}
	if len(got) != len(mine) {
		t.Errorf("%s's dice page lists %d steps, the game has %d", rd, len(got), len(mine))
	}
	var keys []string
	for k := range got {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, r := range mine {
		var want []string
		for _, roll := range r.Rolls {
			want = append(want, fmt.Sprint(roll.N))
		}
		if k := fmt.Sprint(r.Step); strings.Join(got[k], ",") != strings.Join(want, ",") {
			t.Errorf("%s's dice page, step %d: rolls %v, the report %v", rd, r.Step, got[k], want)
		}
	}
}
