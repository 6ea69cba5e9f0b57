package burning

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"orrery/engine"
	"orrery/engine/dice"
)

// transcript plays a bot game of ann (English), bob (Russian) and cy
// (English, then Russian from the third step) and writes down everything
// a player reads of it, as each reads it: the events (with their
// readers), the prompts, the board and status of every seat and of the
// public view, and the errors of the rule cases' bad orders in both
// languages. write is how an event reads for one language's readers.
func transcript(t *testing.T, opts map[string]string, seed, steps int, msgs bool) string {
	t.Helper()
	names := []string{"ann", "bob", "cy"}
	o, err := engine.ResolveOptions(Ruleset().Info(), opts)
	if err != nil {
		t.Fatal(err)
	}
	su := engine.Setup{GameID: "g", Players: names, Options: o, Languages: map[string]string{"bob": "ru"}}
	if msgs {
		su.RulesVersion = Ruleset().Info().Version // else a game set up before messages
	}
	st, err := Ruleset().NewState(su, dice.New(fmt.Sprint("transcript", seed)))
	if err != nil {
		t.Fatal(err)
	}
	s := st.(*State)
	r := rand.New(rand.NewPCG(uint64(seed), 7))
	var b strings.Builder
	views := func() {
		for _, p := range append(append([]string(nil), names...), "") {
			v := s.View(p)
			fmt.Fprintf(&b, "== board of %q\n%s== status of %q\n%s", p, v.Board(), p, v.Status())
		}
		pv := s.PublicView()
		fmt.Fprintf(&b, "== public board\n%s== public status\n%s", pv.Board(), pv.Status())
	}
	events := func(evs []engine.Event) {
		for _, e := range evs {
			if msgs && e.Msg == nil {
				t.Errorf("event %q of a game with messages has none", e.Text)
			}
			if e.Msg == nil {
				fmt.Fprintf(&b, "event %v: %s\n", e.To, e.Text)
				continue
			}
			// As the game before messages split it: by its readers'
			// languages.
			old := &State{Seats: s.Seats, Lang: s.Lang}
			old.tell(e.To, *e.Msg)
			for _, e := range old.events {
				fmt.Fprintf(&b, "event %v: %s\n", e.To, e.Text)
			}
		}
	}
	events(s.events)
	for step := 0; step < steps && !s.Done; step++ {
		ps := s.Prompts()
		for _, p := range ps {
			fmt.Fprintf(&b, "prompt %s %s: %s\n", p.ID, p.Player, readAsk(s.Lang[p.Player], p))
		}
		if step%7 == 0 {
			views()
		}
		var p engine.Prompt
		var text string
		if step == 2 {
			for _, q := range ps {
				if q.ID == "any:cy" {
					p, text = q, "LANG RU\nALLY bob"
				}
			}
		}
		if text == "" {
			p = ps[0]
			text = Ruleset().Bot(s.View(p.Player), p, r)
		}
		fmt.Fprintf(&b, "orders of %s:\n%s\n", p.Player, text)
		orders, errs := s.View(p.Player).Parse(p, text)
		if len(errs) > 0 {
			t.Fatalf("step %d: %v", step, errs)
		}
		evs, err := s.Resolve([]engine.Answer{{Prompt: p, Orders: orders}}, dice.New(fmt.Sprint("transcript", seed, step)))
		if err != nil {
			t.Fatal(err)
		}
		events(evs)
	}
	views()
	if s.Done {
		fmt.Fprintf(&b, "outcome: %+v\n", s.Outcome().Text)
	}
	return b.String()
}

// caseErrors writes the errors of every rule case's orders, read by the
// active player in English and in Russian.
func caseErrors(t *testing.T) string {
	t.Helper()
	files, _ := filepath.Glob("testdata/cases/*.txtar")
	sort.Strings(files)
	var b strings.Builder
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		sec := map[string]string{}
		name := ""
		for _, line := range strings.SplitAfter(string(data), "\n") {
			if strings.HasPrefix(line, "-- ") && strings.HasSuffix(strings.TrimSpace(line), " --") {
				name = strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(line), "-- "), " --")
				continue
			}
			if name != "" {
				sec[name] += line
			}
		}
		if sec["setup"] == "" || sec["orders"] == "" {
			continue
		}
		for _, l := range []string{langEN, langRU} {
			s := buildCase(t, sec["setup"])
			p := s.active()
			s.Lang[p] = l
			for _, pr := range s.Prompts() {
				if pr.Player != p {
					continue
				}
				_, errs := s.View(p).Parse(pr, sec["orders"])
				for _, e := range errs {
					why, hint := e.Msg, e.Fix
					if e.Why != nil {
						why = render(l, *e.Why)
					}
					if e.Hint != nil {
						hint = render(l, *e.Hint)
					}
					fmt.Fprintf(&b, "%s %s %s: %d %s: %s / %s\n", filepath.Base(f), l, pr.ID, e.Line, e.Text, why, hint)
				}
				fmt.Fprintf(&b, "%s %s %s: %s\n", filepath.Base(f), l, pr.ID, readAsk(l, pr))
			}
		}
	}
	return b.String()
}

// TestMessagesReadAsBefore: a game with messages reads, for each player
// in their language, word for word as the same game set up before
// messages (its events written per language when resolved) reads: the
// events, the prompts, the board and status. Both are played from the
// same dice, with a player changing language on the way.
func TestMessagesReadAsBefore(t *testing.T) {
	player := map[string]string{"home_placement": "player", "asteroid_placement": "player", "banks": "public"}
	for _, c := range []struct {
		opts        map[string]string
		seed, steps int
	}{{nil, 1, 150}, {player, 2, 60}} {
		before, now := transcript(t, c.opts, c.seed, c.steps, false), transcript(t, c.opts, c.seed, c.steps, true)
		if before != now {
			b, n := strings.Split(before, "\n"), strings.Split(now, "\n")
			for i := range min(len(b), len(n)) {
				if b[i] != n[i] {
					t.Errorf("seed %d, line %d: before messages %q, with them %q", c.seed, i+1, b[i], n[i])
					break
				}
			}
		}
	}
}

// TestTranscriptDump writes transcripts to $BURNING_TRANSCRIPT (a
// directory), to compare what players read across a change by hand.
func TestTranscriptDump(t *testing.T) {
	dir := os.Getenv("BURNING_TRANSCRIPT")
	if dir == "" {
		t.Skip("set BURNING_TRANSCRIPT to a directory to write transcripts")
	}
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	player := map[string]string{"home_placement": "player", "asteroid_placement": "player", "banks": "public"}
	write("dice.txt", transcript(t, nil, 1, 400, false))
	write("player.txt", transcript(t, player, 2, 120, false))
	write("dice-msgs.txt", transcript(t, nil, 1, 400, true))
	write("player-msgs.txt", transcript(t, player, 2, 120, true))
	write("errors.txt", caseErrors(t))
}

// readErr is e as a reader of l reads it (the mail side renders its
// messages so).
func readErr(l string, e engine.LineError) string {
	if e.Why == nil {
		return e.Error()
	}
	s := render(l, *e.Why)
	if e.Hint != nil {
		s += " — " + render(l, *e.Hint)
	}
	return s
}

// readAsk is p's question as a reader of l reads it.
func readAsk(l string, p engine.Prompt) string {
	if p.Msg == nil {
		return p.Ask
	}
	return render(l, *p.Msg)
}

// TestGamesBeforeMessagesReplayAsRecorded: a game set up before messages
// (its setup has no Version) makes, step after step, the very events the
// build before messages recorded (testdata/before-messages.golden, written
// by that build: bob reads Russian from the start, cy from the third
// step), so that `orrery game verify` finds them again. -update rewrites
// the golden from today's old path: only do so knowing why it changed.
func TestGamesBeforeMessagesReplayAsRecorded(t *testing.T) {
	o, err := engine.ResolveOptions(Ruleset().Info(), map[string]string{"home_placement": "player", "asteroid_placement": "player", "banks": "public"})
	if err != nil {
		t.Fatal(err)
	}
	st, err := Ruleset().NewState(engine.Setup{GameID: "g", Players: []string{"ann", "bob", "cy"}, Options: o,
		Languages: map[string]string{"bob": "ru"}}, dice.New("transcript2"))
	if err != nil {
		t.Fatal(err)
	}
	s := st.(*State)
	r := rand.New(rand.NewPCG(2, 7))
	var b strings.Builder
	told := func(evs []engine.Event) {
		for _, e := range evs {
			if e.Msg != nil {
				t.Errorf("event %q of a game set up before messages has one", e.Text)
			}
			fmt.Fprintf(&b, "event %q: %s\n", e.To, e.Text)
		}
	}
	told(s.events)
	for step := 0; step < 40 && !s.Done; step++ {
		ps := s.Prompts()
		p := ps[0]
		text := ""
		if step == 2 {
			for _, q := range ps {
				if q.ID == "any:cy" {
					p, text = q, "LANG RU\nALLY bob"
				}
			}
		}
		if text == "" {
			text = Ruleset().Bot(s.View(p.Player), p, r)
		}
		orders, errs := s.View(p.Player).Parse(p, text)
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		evs, err := s.Resolve([]engine.Answer{{Prompt: p, Orders: orders}}, dice.New(fmt.Sprint("transcript", 2, step)))
		if err != nil {
			t.Fatal(err)
		}
		told(evs)
	}
	golden := filepath.Join("testdata", "before-messages.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	got, wantLines := strings.Split(b.String(), "\n"), strings.Split(string(want), "\n")
	for i := range min(len(got), len(wantLines)) {
		if got[i] != wantLines[i] {
			t.Fatalf("event line %d: %q, the build before messages recorded %q", i+1, got[i], wantLines[i])
		}
	}
	if len(got) != len(wantLines) {
		t.Fatalf("%d event lines, the build before messages recorded %d", len(got), len(wantLines))
	}
}
