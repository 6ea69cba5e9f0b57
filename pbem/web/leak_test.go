package web

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	xhtml "golang.org/x/net/html"

	"orrery/engine"
	"orrery/engine/dice"
	"orrery/engine/enginetest"
	"orrery/engine/enginetest/toy"
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
	differ, maxSteps := 0, 60
	if testing.Short() {
		maxSteps = 20 // -short: the opening; the full run plays on
	}
	for _, lg := range leakGames {
		t.Run(lg.ruleset, func(t *testing.T) {
			rs, err := engine.Find(games.All(), lg.ruleset)
			if err != nil {
				t.Fatal(err)
			}
			res := enginetest.PlayBots(t, rs, enginetest.Options{Players: lg.players, Seed: 11, Options: lg.options, MaxSteps: maxSteps})
			if res.Game.Scheme() != dice.Scheme2 {
				t.Fatalf("a new game rolls under dice scheme %d", res.Game.Scheme())
			}
			differ += checkNoLeaks(t, res.Service, res.Game.ID, lg.players, true)
		})
	}
	if differ == 0 {
		t.Errorf("no game drew a picture for the GM other than the one it serves: the pictures' check shows nothing")
	}
}

// The same over a game with everything scheme 2 hides (spyRace: a deck no
// player sees, dice only their pusher sees, secret mottos beside public
// pushes), while it runs and once it is over: no page shows another's
// stream, salt, secret orders or hidden seed, and each dice page and JSON
// report carries exactly the reader's parts, streams, digests and seeds.
func TestNoLeaksOfSchemeTwoSecrets(t *testing.T) {
	for _, c := range []struct {
		name  string
		steps int
	}{{"running", 9}, {"over", 0}} {
		t.Run(c.name, func(t *testing.T) {
			res := enginetest.PlayBots(t, spyRace{toy.Ruleset()}, enginetest.Options{Players: []string{"ann", "bob", "cyd"}, Seed: 4, MaxSteps: c.steps})
			if over := res.Game.Over(); over != (c.name == "over") {
				t.Fatalf("the game is over: %v", over)
			}
			checkNoLeaks(t, res.Service, res.Game.ID, []string{"ann", "bob", "cyd"}, false)
			_, facts, err := res.Service.Facts(context.Background(), res.Game.ID, game.Observer)
			if err != nil {
				t.Fatal(err)
			}
			streams, sealedParts := 0, 0
			for _, f := range facts {
				streams += len(f.Streams)
				sealedParts += sealed(f.Inputs)
			}
			if over := res.Game.Over(); over && (streams == 0 || sealedParts > 0) || !over && (streams > 0 || sealedParts == 0) {
				t.Errorf("over %v: the public dice show %d streams and %d sealed parts", over, streams, sealedParts)
			}
		})
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
func checkNoLeaks(t *testing.T, svc *game.Service, id string, seats []string, pictures bool) int {
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
			exts := []string{"", ".json"}
			if pictures {
				exts = append(exts, ".svg")
			}
			for _, ext := range exts {
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
	// The dice of scheme 2: the text and salt of each part the reader
	// may read, the seeds of the hidden dice they may see, the hidden
	// seed (the GM's, everyone's at the end).
	for _, p := range r.Inputs {
		out = append(out, p.Lines...)
		if p.Salt != "" {
			out = append(out, p.Salt)
		}
	}
	for _, st := range r.Streams {
		out = append(out, st.Seed)
	}
	if r.HiddenSeed != "" {
		out = append(out, r.HiddenSeed)
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
	var parts, wantParts []string
	for _, p := range d.Dice.Inputs {
		parts = append(parts, fmt.Sprintf("%s|%v|%v|%s|%q|%s", p.Head, p.Secret, p.Sealed, p.Salt, p.Lines, p.Hash))
	}
	for _, p := range mine.Inputs {
		wantParts = append(wantParts, fmt.Sprintf("%s|%v|%v|%s|%q|%s", p.Head, p.Hidden, !readable(p), p.Salt, p.Lines, p.Hash))
	}
	var streams, wantStreams []string
	for _, st := range d.Dice.Streams {
		streams = append(streams, st.Key+"="+st.Seed)
	}
	for _, st := range mine.Streams {
		wantStreams = append(wantStreams, st.Key+"="+st.Seed)
	}
	if d.Dice.Scheme != fmt.Sprint(mine.DiceScheme) || d.Dice.Digest != mine.Digest || d.Dice.RollSeed != mine.RollSeed || d.Dice.HiddenSeed != mine.HiddenSeed ||
		d.Dice.LastOrders != mine.LastOrders || d.Dice.LastResent != mine.LastResent ||
		!slices.Equal(parts, wantParts) || !slices.Equal(streams, wantStreams) {
		t.Errorf("%s's step %d as JSON: dice %+v, the report's scheme %d digest %s roll seed %s hidden %s parts %v streams %v",
			rd, n, d.Dice, mine.DiceScheme, mine.Digest, mine.RollSeed, mine.HiddenSeed, wantParts, wantStreams)
	}
}

// checkDicePage holds that the dice page lists, step by step, exactly what
// the reader's reports have to check the dice with: the seeds, every roll
// (with its stream), and under scheme 2 the digest, the roll seed, each
// part (its text and salt only where the reader may read it), the streams'
// seeds and the hidden seed, as the attributes the check in the browser
// reads.
func checkDicePage(t *testing.T, s *Site, rd reader, mine []*game.Report) {
	t.Helper()
	w := get(s, "GET", rd.prefix+"/dice")
	got := readDicePage(t, w.Body.Bytes())
	if len(got) != len(mine) {
		t.Errorf("%s's dice page lists %d steps, the game has %d", rd, len(got), len(mine))
	}
	for _, r := range mine {
		want := diceStep{scheme: fmt.Sprint(r.DiceScheme), seed: r.RevealedSeed, commitment: r.RevealedCommitment}
		if r.DiceScheme >= dice.Scheme2 {
			want.digest, want.rollSeed, want.hidden = r.Digest, r.RollSeed, r.HiddenSeed
		}
		for _, roll := range r.Rolls {
			want.rolls = append(want.rolls, fmt.Sprintf("%d[%s] d%d=%d", roll.N, roll.Stream, roll.Sides, roll.Value))
		}
		for _, p := range r.Inputs {
			if readable(p) {
				want.parts = append(want.parts, fmt.Sprintf("%s|%s|secret %v|salt %s|%q", p.Head, p.Hash, p.Hidden, p.Salt, p.Lines))
			} else {
				want.parts = append(want.parts, fmt.Sprintf("%s|%s|secret %v|sealed", p.Head, p.Hash, p.Hidden))
			}
		}
		for _, st := range r.Streams {
			want.streams = append(want.streams, st.Key+"="+st.Seed)
		}
		if g := got[r.Step]; !reflect.DeepEqual(g, want) {
			t.Errorf("%s's dice page, step %d:\n%+v\nthe report:\n%+v", rd, r.Step, g, want)
		}
	}
}

// diceStep is one step of a dice page as the check in the browser reads it.
type diceStep struct {
	scheme, seed, commitment, digest, rollSeed, hidden string
	parts, streams, rolls                              []string
}

// readDicePage reads the data attributes of a dice page's steps.
func readDicePage(t *testing.T, body []byte) map[uint64]diceStep {
	t.Helper()
	doc, err := xhtml.Parse(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	out := map[uint64]diceStep{}
	var step *diceStep
	var n uint64
	var walk func(*xhtml.Node)
	walk = func(node *xhtml.Node) {
		if node.Type == xhtml.ElementNode {
			a := map[string]string{}
			for _, at := range node.Attr {
				a[at.Key] = at.Val
			}
			_, has := a["data-lines"]
			switch {
			case node.Data == "section" && a["data-step"] != "":
				if step != nil {
					out[n] = *step
				}
				fmt.Sscan(a["data-step"], &n)
				step = &diceStep{scheme: a["data-scheme"], seed: a["data-seed"], commitment: a["data-commitment"],
					digest: a["data-digest"], rollSeed: a["data-roll-seed"], hidden: a["data-hidden"]}
			case step != nil && node.Data == "li" && a["class"] == "part":
				_, secret := a["data-secret"]
				if has {
					var lines []string
					if err := json.Unmarshal([]byte(a["data-lines"]), &lines); err != nil {
						t.Errorf("step %d: the part %q's lines are not JSON: %v", n, a["data-head"], err)
					}
					step.parts = append(step.parts, fmt.Sprintf("%s|%s|secret %v|salt %s|%q", a["data-head"], a["data-hash"], secret, a["data-salt"], lines))
				} else {
					step.parts = append(step.parts, fmt.Sprintf("%s|%s|secret %v|sealed", a["data-head"], a["data-hash"], secret))
				}
			case step != nil && a["data-key"] != "":
				step.streams = append(step.streams, a["data-key"]+"="+a["data-seed"])
			case step != nil && node.Data == "tr" && a["data-n"] != "":
				step.rolls = append(step.rolls, fmt.Sprintf("%s[%s] d%s=%s", a["data-n"], a["data-stream"], a["data-sides"], a["data-value"]))
			}
		}
		for c := node.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	if step != nil {
		out[n] = *step
	}
	return out
}
