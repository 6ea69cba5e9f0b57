package enginetest

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"regexp"
	"runtime/debug"
	"strings"
	"testing"
	"unicode/utf8"

	"orrery/engine"
	"orrery/engine/dice"
)

var rulesetName = regexp.MustCompile(`^[a-z][a-z0-9-]{1,23}$`)

// Conformance checks what every ruleset owes the engine, whatever its game:
// a well-formed Info; a setup that is a pure function of its dice; states
// that survive Marshal/LoadState byte for byte; unique prompt ids; boards
// within 78 columns for every seat; line-numbered errors; bot orders that
// parse; canonical orders that parse again to themselves; and that the mail
// side reads as orders (engine/orderline, with the words of
// engine.OrderWords) every line of the bot's orders, their canonical form,
// the prompts' defaults and the order help's examples. It plays up to
// steps resolutions with the ruleset's own bot, for each player count from
// the minimum to min(maximum, 6). With -short (the fast loop) it plays at
// most 20 resolutions a player count and no game to its end.
func Conformance(t *testing.T, rs engine.Ruleset, steps int) {
	defer noPanic(t, rs)
	t.Helper()
	if testing.Short() {
		steps = min(steps, 20)
	}
	info := rs.Info()
	if !rulesetName.MatchString(info.Name) {
		t.Errorf("ruleset name %q: use 2–24 lowercase letters, digits or dashes", info.Name)
	}
	if info.Title == "" || info.OrderHelp == "" {
		t.Errorf("%s: Info needs a Title and OrderHelp", info.Name)
	}
	if info.MinPlayers < 1 || info.MaxPlayers < info.MinPlayers {
		t.Errorf("%s: Info says %d to %d players: set MinPlayers to 1 or more and MaxPlayers to MinPlayers or more", info.Name, info.MinPlayers, info.MaxPlayers)
	}
	if info.Version < 1 {
		t.Errorf("%s: Info.Version is %d: set it to 1 or more, and raise it with any rule change that alters a replay", info.Name, info.Version)
	}
	opts, err := engine.ResolveOptions(info, nil)
	if err != nil {
		t.Fatalf("%s: default options: %v", info.Name, err)
	}
	for i, line := range strings.Split(info.OrderHelp, "\n") {
		if n := utf8.RuneCountInString(line); n > 78 {
			t.Errorf("%s: line %d of the order help is %d columns (max 78; HELP and RULES mail it as it is): %q", info.Name, i+1, n, line)
		}
	}
	for _, o := range info.Options {
		if o.Help == "" {
			t.Errorf("%s: option %s has no help", info.Name, o.Name)
		}
		// Option help is one sentence that RULES and `orrery rulesets`
		// wrap under a 6-column indent: one line, no word too long for it.
		if strings.ContainsAny(o.Help, "\n\t") {
			t.Errorf("%s: option %s's help has a line break or tab: write one sentence, the readers wrap it", info.Name, o.Name)
		}
		for _, w := range strings.Fields(o.Help) {
			if n := utf8.RuneCountInString(w); n > 72 {
				t.Errorf("%s: option %s's help has a word of %d columns, too long to wrap in 78: %q", info.Name, o.Name, n, w)
			}
		}
		if len(o.Choices) > 0 && !contains(o.Choices, o.Default) {
			t.Errorf("%s: option %s defaults to %q, not one of its choices %v", info.Name, o.Name, o.Default, o.Choices)
		}
	}
	t.Run("ends", func(t *testing.T) {
		if testing.Short() {
			t.Skip("whole game: runs without -short")
		}
		playToTheEnd(t, rs, opts)
	})
	max := info.MaxPlayers
	if max > 6 {
		max = 6
	}
	if verbs, _ := engine.OrderWords(rs); len(verbs) == 0 {
		t.Errorf("%s has no order words: start the lines of OrderHelp with the orders' verbs in upper case, or add OrderWords (engine.OrderWorder)", info.Name)
	}
	words := newWordCheck(rs)
	words.help(t, info.OrderHelp)
	for n := info.MinPlayers; n <= max; n++ {
		t.Run(fmt.Sprintf("%dp", n), func(t *testing.T) {
			defer noPanic(t, rs)
			players := make([]string, n)
			for i := range players {
				players[i] = fmt.Sprintf("p%d", i+1)
			}
			setup := engine.Setup{GameID: "conf", Players: players, Options: opts, Version: info.Version}
			st := newState(t, rs, setup)
			again := newState(t, rs, setup)
			if a, b := mustMarshal(t, st), mustMarshal(t, again); !bytes.Equal(a, b) {
				t.Fatalf("two setups from the same dice differ: NewState takes its randomness from the dice it is handed only (no map order, no clock, no math/rand)")
			}
			r := rand.New(rand.NewPCG(uint64(n), 7))
			for step := 0; step < steps && !st.Outcome().Over; step++ {
				st = roundTrip(t, rs, st)
				checkViews(t, rs, st, players)
				prompts := st.Prompts()
				if len(prompts) == 0 {
					t.Fatalf("step %d: no prompts but the game is not over: Prompts asks someone until Outcome says Over", step)
				}
				ids := map[string]bool{}
				var answers []engine.Answer
				for _, p := range prompts {
					if ids[p.ID] {
						t.Fatalf("step %d: prompt id %q twice: give each open prompt its own ID (\"move:ann\")", step, p.ID)
					}
					ids[p.ID] = true
					if !contains(players, p.Player) {
						t.Fatalf("step %d: prompt %q for unknown player %q", step, p.ID, p.Player)
					}
					if !p.Kind.Blocks() {
						continue
					}
					v := st.View(p.Player)
					if _, errs := v.Parse(p, p.Default); len(errs) > 0 {
						t.Fatalf("step %d: the default of %s (%q) does not parse: %v; Prompt.Default is written in the order language (\"\" when nothing happens)", step, p.ID, p.Default, errs)
					}
					text := rs.Bot(v, p, r)
					orders, errs := v.Parse(p, text)
					if len(errs) > 0 {
						t.Fatalf("step %d: the bot's orders for %s do not parse: %v\n%s", step, p.ID, errs, text)
					}
					canon := engine.OrdersText(orders)
					words.lines(t, "the bot's orders for "+p.ID, text)
					words.lines(t, "the canonical orders for "+p.ID, canon)
					words.lines(t, "the default of "+p.ID, p.Default)
					again, errs := v.Parse(p, canon)
					if len(errs) > 0 || engine.OrdersText(again) != canon {
						t.Fatalf("step %d: canonical orders do not parse to themselves: %v\n%s\n---\n%s", step, errs, canon, engine.OrdersText(again))
					}
					garbage := "this is not an order\n" + text
					if _, errs := v.Parse(p, garbage); len(errs) == 0 {
						t.Errorf("step %d: a line of prose was accepted as orders for %s: Parse must answer a line it does not know with a LineError", step, p.ID)
					} else if errs[0].Line != 1 {
						t.Errorf("step %d: the error for line 1 says line %d: LineError.Line counts the lines of the text as sent, from 1 (engine.ParseLines does)", step, errs[0].Line)
					}
					answers = append(answers, engine.Answer{Prompt: p, Orders: orders})
				}
				// Every few steps, answer one anytime prompt first, alone,
				// as the engine does when such orders arrive.
				if step%3 == 1 {
					for _, p := range prompts {
						if p.Kind.Blocks() {
							continue
						}
						v := st.View(p.Player)
						text := rs.Bot(v, p, r)
						orders, errs := v.Parse(p, text)
						if len(errs) > 0 {
							t.Fatalf("step %d: the bot's anytime orders for %s do not parse: %v", step, p.ID, errs)
						}
						words.lines(t, "the bot's anytime orders for "+p.ID, text)
						d := dice.New(fmt.Sprintf("conformance-anytime-%d-%d", n, step))
						if _, err := st.Resolve([]engine.Answer{{Prompt: p, Orders: orders}}, d); err != nil {
							t.Fatalf("step %d: resolve the anytime prompt %s alone: %v", step, p.ID, err)
						}
						st = roundTrip(t, rs, st)
						// The blocking answers were parsed against the
						// state before; parse them again now.
						answers = answers[:0]
						for _, q := range st.Prompts() {
							if !q.Kind.Blocks() {
								continue
							}
							v := st.View(q.Player)
							o, errs := v.Parse(q, rs.Bot(v, q, r))
							if len(errs) > 0 {
								t.Fatalf("step %d: bot orders for %s after an anytime step: %v", step, q.ID, errs)
							}
							answers = append(answers, engine.Answer{Prompt: q, Orders: o})
						}
						break
					}
				}
				d := dice.New(fmt.Sprintf("conformance-%d-%d", n, step))
				if _, err := st.Resolve(answers, d); err != nil {
					t.Fatalf("step %d: resolve: %v", step, err)
				}
				if err := d.Err(); err != nil {
					t.Fatalf("step %d: dice: %v", step, err)
				}
				for _, roll := range d.Rolls() {
					if strings.TrimSpace(roll.Purpose) == "" {
						t.Fatalf("step %d: roll #%d has no purpose: give every roll one (d.Roll(6, \"ann's attack\")), which players read", step, roll.N)
					}
				}
			}
		})
	}
}

// noPanic turns a panic of the ruleset's code into a failure of this test
// alone, with the stack: a panic would end the test binary, and every other
// test of the package with it.
func noPanic(t testing.TB, rs engine.Ruleset) {
	if r := recover(); r != nil {
		t.Fatalf("%s panicked: %v\n%s", rs.Info().Name, r, debug.Stack())
	}
}

func newState(t *testing.T, rs engine.Ruleset, s engine.Setup) engine.State {
	t.Helper()
	d := dice.New("conformance-setup")
	st, err := rs.NewState(s, d)
	if err != nil {
		t.Fatalf("setup: %v", err)
	}
	if err := d.Err(); err != nil {
		t.Fatalf("setup dice: %v", err)
	}
	return st
}

func mustMarshal(t testing.TB, st engine.State) []byte {
	t.Helper()
	b, err := st.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// roundTrip checks that a state survives Marshal and LoadState unchanged,
// and returns the loaded copy, so the game goes on from what the store keeps.
func roundTrip(t *testing.T, rs engine.Ruleset, st engine.State) engine.State {
	t.Helper()
	a := mustMarshal(t, st)
	loaded, err := rs.LoadState(append([]byte(nil), a...))
	if err != nil {
		t.Fatalf("load a marshalled state: %v", err)
	}
	if b := mustMarshal(t, loaded); !bytes.Equal(a, b) {
		t.Fatalf("a state changes through Marshal and LoadState:\n%s\n---\n%s", a, b)
	}
	return loaded
}

func checkViews(t testing.TB, rs engine.Ruleset, st engine.State, players []string) {
	t.Helper()
	before := mustMarshal(t, st)
	defer func() {
		// The engine builds every reader's report of a step from one
		// decoded state (game.Step.Report): a view that changed its state
		// would change the next reader's report.
		if after := mustMarshal(t, st); !bytes.Equal(before, after) {
			t.Fatalf("looking at the views changed the state: a view must leave its state as it found it\n%s\n---\n%s", before, after)
		}
	}()
	readers := append([]string{""}, players...)
	for _, p := range readers {
		useView(rs, st.View(p))
	}
	if pv, ok := st.(engine.PublicViewer); ok {
		useView(rs, pv.PublicView())
	}
	for _, p := range append([]string{""}, players...) {
		v := st.View(p)
		if v.Player() != p {
			t.Fatalf("View(%q).Player() = %q: a view's Player is the seat it was made for (\"\" for the GM)", p, v.Player())
		}
		if line, n := widest(v.Board()); n > 78 {
			t.Fatalf("the board as %q sees it has a line of %d columns (max 78): %q", p, n, line)
		}
		if strings.TrimSpace(v.Status()) == "" {
			t.Fatalf("the status as %q sees it is empty", p)
		}
		if line, n := widest(v.Status()); n > 78 {
			t.Fatalf("the status as %q sees it has a line of %d columns (engine.Wrap wraps a sentence): %q", p, n, line)
		}
	}
	pv, ok := st.(engine.PublicViewer)
	if !ok {
		return
	}
	v := pv.PublicView()
	if v.Player() != engine.Observer {
		t.Fatalf("PublicView().Player() = %q: the public view is engine.Observer's, neither a seat's nor the GM's", v.Player())
	}
	if line, n := widest(v.Board()); n > 78 {
		t.Fatalf("the public board has a line of %d columns: %q", n, line)
	}
	if line, n := widest(v.Status()); n > 78 {
		t.Fatalf("the public status has a line of %d columns: %q", n, line)
	}
	if strings.TrimSpace(v.Board()+v.Status()) == "" {
		t.Fatalf("the public view is empty: give observers a Board or a Status")
	}
	// An observer has no seat: the public view must not take anyone's orders.
	for _, p := range st.Prompts() {
		if _, errs := v.Parse(p, p.Default); len(errs) == 0 {
			t.Fatalf("the public view accepted orders for %s (%q): it must refuse them all", p.ID, p.Default)
		}
	}
}

// useView calls what the mail side calls on a report's view: its board
// and status, its picture, its data for report.json, its language and its
// localized form.
func useView(rs engine.Ruleset, v engine.View) {
	_, _ = v.Board(), v.Status()
	if d, ok := v.(engine.Drawer); ok {
		if p := d.Picture(); p != nil {
			_ = p.Alt()
		}
	}
	if d, ok := v.(engine.ViewData); ok {
		_ = d.Data()
	}
	if ls, ok := rs.(engine.Languages); ok {
		_ = ls.ViewLanguage(v)
	}
	if lz, ok := rs.(engine.Localizer); ok {
		for _, tag := range []string{"ru", "de"} {
			w := lz.Localize(v, tag)
			_, _ = w.Board(), w.Status()
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// playToTheEnd plays one game with the ruleset's bot, as the engine would
// (every blocking prompt answered, then resolved together), until it is
// over: a bot game must end, or the demo and every property test would
// run forever. After the end, Turn() is still the turn the game ended in
// (reports say "after turn N"), no prompt is open, and the views fit 78
// columns.
func playToTheEnd(t *testing.T, rs engine.Ruleset, opts map[string]string) {
	defer noPanic(t, rs)
	info := rs.Info()
	n := min(max(3, info.MinPlayers), info.MaxPlayers)
	players := make([]string, n)
	for i := range players {
		players[i] = fmt.Sprintf("p%d", i+1)
	}
	st := newState(t, rs, engine.Setup{GameID: "end", Players: players, Options: opts, Version: rs.Info().Version})
	r := rand.New(rand.NewPCG(uint64(n), 11))
	const limit = 20000
	for step := 0; ; step++ {
		if st.Outcome().Over {
			break
		}
		if step == limit {
			t.Fatalf("a bot game of %d players is not over after %d resolutions (turn %d, %s)", n, limit, st.Turn(), st.Phase())
		}
		var answers []engine.Answer
		for _, p := range st.Prompts() {
			if !p.Kind.Blocks() {
				continue
			}
			v := st.View(p.Player)
			o, errs := v.Parse(p, rs.Bot(v, p, r))
			if len(errs) > 0 {
				t.Fatalf("step %d: the bot's orders for %s: %v", step, p.ID, errs)
			}
			answers = append(answers, engine.Answer{Prompt: p, Orders: o})
		}
		before := st.Turn()
		if _, err := st.Resolve(answers, dice.New(fmt.Sprintf("end-%d", step))); err != nil {
			t.Fatalf("step %d: %v", step, err)
		}
		if st.Turn() < before {
			t.Fatalf("step %d: Turn() went back from %d to %d", step, before, st.Turn())
		}
		if st.Outcome().Over && st.Turn() != before {
			t.Errorf("the game ended in turn %d, but Turn() says %d after the end: a report would name a turn never played", before, st.Turn())
		}
	}
	st = roundTrip(t, rs, st)
	if len(st.Prompts()) > 0 {
		t.Errorf("the game is over but asks %v", st.Prompts())
	}
	checkViews(t, rs, st, players)
}
