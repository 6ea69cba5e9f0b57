package prosper

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"orrery/engine"
	"orrery/engine/dice"
	"orrery/engine/enginetest"
	"orrery/engine/game"
	"orrery/engine/store"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func players(n int) []string { return []string{"ann", "bob", "cat", "dan", "eve", "fay"}[:n] }

// play makes a game of n players and plays steps bot answers directly on
// the state (no store): the fixture for golden boards and benchmarks.
func play(t testing.TB, n, steps int, seed uint64) *State {
	t.Helper()
	opts, err := engine.ResolveOptions(Ruleset().Info(), nil)
	if err != nil {
		t.Fatal(err)
	}
	st, err := Ruleset().NewState(engine.Setup{GameID: "g", Players: players(n), Options: opts}, dice.New(fmt.Sprint("setup", seed)))
	if err != nil {
		t.Fatal(err)
	}
	s := st.(*State)
	r := rand.New(rand.NewPCG(seed, 1))
	for i := 0; i < steps && s.Phase_ != phaseOver; i++ {
		p := s.Prompts()[0]
		v := s.View(p.Player)
		orders, errs := v.Parse(p, Ruleset().Bot(v, p, r))
		if len(errs) > 0 {
			t.Fatalf("bot orders rejected: %v", errs)
		}
		if _, err := s.Resolve([]engine.Answer{{Prompt: p, Orders: orders}}, dice.New("x")); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs from %s (go test -update rewrites it):\n%s", name, path, got)
	}
}

func TestGoldenBoards(t *testing.T) {
	for _, c := range []struct {
		n, steps int
	}{{2, 0}, {2, 40}, {4, 60}, {6, 80}} {
		s := play(t, c.n, c.steps, 7)
		v := s.View(s.Seats[0])
		golden(t, fmt.Sprintf("board-%dp-step%d", c.n, c.steps), v.Board()+"\n"+v.Status())
		// The board and the status table both travel by mail: a line
		// over 78 columns is wrapped by mail readers and breaks them.
		for _, l := range strings.Split(v.Board()+v.Status(), "\n") {
			if len([]rune(l)) > 78 {
				t.Errorf("%d players: report line of %d columns: %q", c.n, len([]rune(l)), l)
			}
		}
	}
}

// TestGeneratedMap: a generated map is a pure function of its dice, has the
// size of its player count with Hex-37's mix of sizes and a large centre,
// is connected, fits the board, and differs between seeds in where its
// planets are, not only in their sizes.
func TestGeneratedMap(t *testing.T) {
	hex37, err := loadMap("hex37")
	if err != nil {
		t.Fatal(err)
	}
	name := map[Hex]string{}
	for _, c := range hex37 {
		name[c.Hex] = c.Name
	}
	for n := 2; n <= 6; n++ {
		t.Run(fmt.Sprintf("%dp", n), func(t *testing.T) {
			d := dice.New(fmt.Sprint("gen", n))
			a, err := generateMap(n, d)
			if err != nil {
				t.Fatal(err)
			}
			if len(d.Rolls()) == 0 {
				t.Error("the map took no recorded rolls")
			}
			b, _ := generateMap(n, dice.New(fmt.Sprint("gen", n)))
			if fmt.Sprint(a) != fmt.Sprint(b) {
				t.Fatal("the same seed made two maps")
			}
			if len(a) != 5*n+7 && !(n == 6 && len(a) == 37) {
				t.Errorf("%d planets for %d players", len(a), n)
			}
			if !connected(a) || a[0].Size != Large || a[0].Hex != (Hex{}) {
				t.Errorf("connected %v, centre %v %s", connected(a), a[0].Hex, a[0].Size)
			}
			count := map[Size]int{}
			for _, s := range a {
				count[s.Size]++
				if s.Hex.Ring() > 3 || name[s.Hex] != s.Name {
					t.Errorf("planet %s at %v: outside the board or not hex37's name there", s.Name, s.Hex)
				}
			}
			// Hex-37 is 7 large, 15 medium, 15 small of 37.
			for size, share := range map[Size]int{Large: 7, Medium: 15} {
				if exact := float64(len(a)*share) / 37; float64(count[size]) < exact-1 || float64(count[size]) > exact+1 {
					t.Errorf("%d %s planets of %d, want about %.1f", count[size], size.Word(), len(a), exact)
				}
			}
			if n < 6 {
				var places [2]string
				for k, seed := range []string{"one", "two"} {
					m, _ := generateMap(n, dice.New(seed+fmt.Sprint(n)))
					for _, s := range m {
						places[k] += s.Name + " "
					}
				}
				if places[0] == places[1] {
					t.Errorf("two seeds put the planets in the same places: %s", places[0])
				}
			}
			st := &State{Seats: players(n)}
			for _, s := range a {
				st.Planets = append(st.Planets, Planet{Site: s})
			}
			for _, l := range strings.Split(st.View(st.Seats[0]).Board(), "\n") {
				if len([]rune(l)) > 78 {
					t.Errorf("board line of %d columns: %q", len([]rune(l)), l)
				}
			}
		})
	}
}

func TestDefaultMapTotals(t *testing.T) {
	// 004-F1: Hex-19 has 4 large, 6 medium, 9 small; Hex-37 7, 15, 15.
	for name, want := range map[string][3]int{"hex19": {4, 6, 9}, "hex37": {7, 15, 15}} {
		sites, err := loadMap(name)
		if err != nil {
			t.Fatal(err)
		}
		var got [3]int
		for _, s := range sites {
			got[map[Size]int{Large: 0, Medium: 1, Small: 2}[s.Size]]++
			if len(s.Name) > 8 {
				t.Errorf("%s: planet name %q does not fit the board's 8 columns", name, s.Name)
			}
		}
		if got != want {
			t.Errorf("%s: large/medium/small %v, want %v", name, got, want)
		}
	}
}

// TestSyntaxCheck is the offline check (orrery orders check prosper):
// grammar, and planet names against the built-in maps, all errors at once.
func TestSyntaxCheck(t *testing.T) {
	for _, c := range []struct {
		name, text string
		want       []string // "LINE: substring" of each error, in order
	}{
		{"good", "SETTLE Sol 7\nMOVE 3 FROM Sol TO Vega\nDONE", nil},
		{"grammar", "SETTLE Sol 7\nMOVE 3 FROM Sol TO Vega\nMOVE three FROM Sol TO Vega\nSETTEL Vega 3",
			[]string{"3: not a number of ships", "4: did you mean SETTLE?"}},
		{"misspelt planet", "SETTLE Rigle 5\nMOVE 2 FROM Sol TO Vgea\nFOO",
			[]string{"1: no planet named 'Rigle' — did you mean 'Rigel'?", "2: no planet named 'Vgea'", "3: not an order"}},
		{"two misspelt planets on one line", "MOVE 2 FROM Sool TO Vgea",
			[]string{"1: no planet named 'Sool'", "1: no planet named 'Vgea'"}},
		{"planet only on the large map", "SETTLE Hadar 7 ELSE Sol 7", nil},
		// "Ha" is Hamal on hex19 but Hamal or Hadar on hex37: a 2-player
		// game takes it, so the offline check must too.
		{"prefix of one planet on the small map only", "MOVE 1 FROM Ha TO Mi", nil},
		{"ambiguous everywhere", "SETTLE Ca 3", []string{"1: could be"}},
		{"bad alternative", "SETTLE Sol 7 ELSE Nowhere 3", []string{"1: no planet named 'Nowhere'"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			errs := Ruleset().(engine.SyntaxChecker).CheckSyntax(c.text)
			if len(errs) != len(c.want) {
				t.Fatalf("%d errors, want %d: %v", len(errs), len(c.want), errs)
			}
			for i, w := range c.want {
				n, sub, _ := strings.Cut(w, ": ")
				if got := fmt.Sprint(errs[i].Line); got != n || !strings.Contains(errs[i].Error(), sub) {
					t.Errorf("error %d is %q (line %d), want line %s with %q", i+1, errs[i].Error(), errs[i].Line, n, sub)
				}
			}
		})
	}
}

func TestConformance(t *testing.T) {
	enginetest.Conformance(t, Ruleset(), 80)
}

// TestBotGamesVerify is the property test: 100 seeded games of 2 to 6 bots
// (a third on generated maps), each replayed by verify. While they settle,
// the bots also send new plans (or PLAN NONE) through their plan prompts
// between picks, so verify replays anytime steps and plans replaced,
// played and dropped.
func TestBotGamesVerify(t *testing.T) {
	if testing.Short() {
		t.Skip("whole games: run without -short")
	}
	over, plans, played := 0, 0, 0
	for seed := uint64(1); seed <= 100; seed++ {
		opts := map[string]string{}
		if seed%3 == 0 {
			opts["map"] = "generated"
		}
		o, p, pl := playWithPlans(t, seed, players(2+int(seed%5)), opts, 500)
		if o {
			over++
		}
		plans += p
		played += pl
	}
	if over < 50 {
		t.Errorf("only %d of 100 bot games finished: the bots make no progress", over)
	}
	t.Logf("over %d plans %d played %d", over, plans, played)
	// These seeds send about 700 plans, and plans play about 400 picks.
	if plans < 300 || played < 100 {
		t.Errorf("the bots sent %d plans between picks, %d picks played from plans: the plan prompt is not exercised", plans, played)
	}
}

// playWithPlans plays one bot game through the engine's service, as mail
// would: before each pick or movement, each open plan prompt is answered
// by its bot now and then (the service's own bot loop answers only the
// prompts that block). It verifies the game by replay and fails t on any
// problem, or on a report line over 78 columns; it returns whether the
// game ended, how many plans were sent and how many picks plans played.
func playWithPlans(t *testing.T, seed uint64, seats []string, opts map[string]string, maxSteps int) (bool, int, int) {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(filepath.Join(t.TempDir(), "bots.db"), store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	svc := game.New(st, []engine.Ruleset{Ruleset()})
	req := game.CreateRequest{ID: fmt.Sprintf("plans-%d", seed), Ruleset: "prosper", Options: opts, DiceSecret: fmt.Sprint("prosper-", seed)}
	for _, p := range seats {
		req.Players = append(req.Players, game.PlayerSpec{Name: p})
	}
	g, err := svc.Create(ctx, req)
	if err != nil {
		t.Fatalf("seed %d: %v", seed, err)
	}
	r := rand.New(rand.NewPCG(seed, 2))
	send := func(p engine.Prompt) *game.SubmitResult {
		v, err := svc.View(ctx, g.ID, p.Player)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		text := Ruleset().Bot(v, p, r)
		res, err := svc.Submit(ctx, game.Input{Game: g.ID, Player: p.Player, Prompt: p.ID, Text: text, Source: "bot"})
		if err != nil || !res.Accepted {
			t.Fatalf("seed %d: orders of %s for %s: %v %v\n%s", seed, p.Player, p.ID, err, res.Errors, text)
		}
		return res
	}
	plans, played := 0, 0
	for step := 0; step < maxSteps && !g.Over(); step++ {
		for _, p := range g.Prompts {
			if p.Kind.Blocks() || r.IntN(4) != 0 {
				continue
			}
			if res := send(p); len(res.Steps) != 1 {
				t.Fatalf("seed %d: a plan made %d steps, want 1", seed, len(res.Steps))
			}
			plans++
			rep, err := svc.Report(ctx, g.ID, p.Player)
			if err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			for _, line := range strings.Split(rep.Status, "\n") {
				if n := len([]rune(line)); n > reportWidth {
					t.Errorf("seed %d: %s's status has a line of %d columns: %q", seed, p.Player, n, line)
				}
			}
		}
		if g, err = svc.Get(ctx, g.ID); err != nil {
			t.Fatal(err)
		}
		for _, p := range g.Prompts {
			if !p.Kind.Blocks() {
				continue
			}
			for _, s := range send(p).Steps {
				for _, e := range s.Events {
					if strings.Contains(e.Text, "'s plan)") {
						played++
					}
				}
			}
			break // one blocking prompt at a time
		}
		if g, err = svc.Get(ctx, g.ID); err != nil {
			t.Fatal(err)
		}
	}
	v, err := svc.Verify(ctx, g.ID)
	if err != nil {
		t.Fatalf("seed %d: verify: %v", seed, err)
	}
	if !v.OK() {
		t.Fatalf("seed %d: verify found %d problems:\n%s", seed, len(v.Problems), strings.Join(v.Problems, "\n"))
	}
	return g.Over(), plans, played
}

// FuzzOrdersRoundTrip: whatever parses, formatted canonically, parses to
// the same orders.
func FuzzOrdersRoundTrip(f *testing.F) {
	for _, s := range []string{"SETTLE Sol 7", "settle vega 3 else rigel 2", "MOVE 5 FROM Sol TO Vega", "move 3 sol vega\nDONE", "# c\n\nMOVE 1 FROM Ri TO Ve", "PASS", "plan none"} {
		f.Add(s)
	}
	s := play(f, 2, 0, 1)
	f.Fuzz(func(t *testing.T, text string) {
		orders, errs := parseLines(text, s)
		if len(errs) > 0 {
			return
		}
		var canon []string
		for _, o := range orders {
			canon = append(canon, o.text())
		}
		again, errs := parseLines(strings.Join(canon, "\n"), s)
		if len(errs) > 0 {
			t.Fatalf("canonical orders do not parse: %v\n%s", errs, strings.Join(canon, "\n"))
		}
		for i, o := range again {
			if o.text() != canon[i] {
				t.Fatalf("round trip changed %q into %q", canon[i], o.text())
			}
		}
	})
}

// BenchmarkResolveSixPlayerTurn resolves one whole round of a 6-player
// mid-game: six movements of up to three moves each, then production.
func BenchmarkResolveSixPlayerTurn(b *testing.B) {
	s := play(b, 6, 200, 3)
	for s.Phase_ == phaseMove && s.Mover != 0 {
		p := s.Prompts()[0]
		o, _ := s.View(p.Player).Parse(p, "")
		s.Resolve([]engine.Answer{{Prompt: p, Orders: o}}, dice.New("x"))
	}
	if s.Phase_ != phaseMove {
		b.Fatalf("the fixture game is in phase %s", s.Phase_)
	}
	start, _ := s.Marshal()
	// Record the round's orders once, so every iteration resolves the same.
	r := rand.New(rand.NewPCG(9, 9))
	var round []string
	for k := 0; k < len(s.Seats); k++ {
		p := s.Prompts()[0]
		v := s.View(p.Player)
		text := Ruleset().Bot(v, p, r)
		o, _ := v.Parse(p, text)
		round = append(round, text)
		s.Resolve([]engine.Answer{{Prompt: p, Orders: o}}, dice.New("x"))
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		st, _ := Ruleset().LoadState(start)
		for _, text := range round {
			p := st.Prompts()[0]
			o, errs := st.View(p.Player).Parse(p, text)
			if len(errs) > 0 {
				b.Fatal(errs)
			}
			if _, err := st.Resolve([]engine.Answer{{Prompt: p, Orders: o}}, dice.New("x")); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// An observer sees the board and table every player sees, but no settling
// plan (the plan is its writer's alone) and nobody marked as "you". A plan
// sent through the plan prompt is told to its writer alone, and neither
// the other players' views nor the public view show it.
func TestPublicView(t *testing.T) {
	s := play(t, 3, 0, 7)
	writer := s.Seats[1] // not the first picker: seat 0 picks first
	var prompt engine.Prompt
	for _, p := range s.Prompts() {
		if p.Player == writer && p.Kind == engine.KindAnytime {
			prompt = p
		}
	}
	orders, errs := s.View(writer).Parse(prompt, "SETTLE Capella 9\nSETTLE Electra 8 ELSE Regulus 8")
	if len(errs) > 0 {
		t.Fatalf("the plan is refused: %v", errs)
	}
	events, err := s.Resolve([]engine.Answer{{Prompt: prompt, Orders: orders}}, dice.New("x"))
	if err != nil {
		t.Fatal(err)
	}
	const secret = "Electra 8 ELSE Regulus 8"
	if own := s.View(writer).Status(); !strings.Contains(own, secret) {
		t.Fatalf("the writer should see the plan (else this test proves nothing):\n%s", own)
	}
	if len(events) != 1 || !strings.Contains(events[0].Text, secret) {
		t.Fatalf("the writer is not told the new plan: %v", events)
	}
	for _, who := range []string{s.Seats[0], s.Seats[2], engine.Observer} {
		if events[0].VisibleTo(who) {
			t.Errorf("%q may read the plan event %q", who, events[0].Text)
		}
	}
	for _, other := range []string{s.Seats[0], s.Seats[2]} {
		v := s.View(other)
		if strings.Contains(v.Status(), "Electra 8") || strings.Contains(v.Board(), "Electra 8") {
			t.Errorf("%s sees %s's plan:\n%s", other, writer, v.Status())
		}
		for _, p := range s.Prompts() {
			if strings.Contains(p.Ask+p.Default, "Electra 8") {
				t.Errorf("prompt %s (seen by whoever is waited for) shows the plan: %+v", p.ID, p)
			}
		}
	}
	pub := s.PublicView()
	if pub.Player() != engine.Observer || strings.Contains(pub.Status(), "Electra 8") || strings.Contains(pub.Board(), "(you)") || pub.Board() == "" {
		t.Errorf("public view:\n%s\n%s", pub.Board(), pub.Status())
	}
}

// TestPlanPrompts: while settling, every player with ships left to place
// but the picker has a plan prompt, which never blocks and is asked after
// the pick; once colonisation is over nobody has one, and a plan sent to
// a prompt no longer asked is refused.
func TestPlanPrompts(t *testing.T) {
	for _, tc := range []struct {
		name  string
		board string
		want  string // prompt ids, in order
	}{
		{"three to place", "seats ann bob cat\nphase colonisation\nsupply ann 5\nsupply bob 5\nsupply cat 5\npick bob",
			"settle:1 plan:ann plan:cat"},
		{"nothing left to place", "seats ann bob cat\nphase colonisation\nsupply ann 0\nsupply bob 5\nsupply cat 5\npick cat\nSol ann 20",
			"settle:1 plan:bob"},
		{"movement", "seats ann bob\nmover ann\nSol ann 5\nVega bob 3", "move:1:ann"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := buildCase(tc.board)
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for k, p := range s.Prompts() {
				ids = append(ids, p.ID)
				if blocks := k == 0; p.Kind.Blocks() != blocks {
					t.Errorf("prompt %s: blocks %v, want %v", p.ID, p.Kind.Blocks(), blocks)
				}
				if !p.Kind.Blocks() && p.Default != "" {
					t.Errorf("prompt %s: default %q, want nothing (nothing sent changes nothing)", p.ID, p.Default)
				}
			}
			if got := strings.Join(ids, " "); got != tc.want {
				t.Errorf("prompts %q, want %q", got, tc.want)
			}
		})
	}
	s, _ := buildCase("seats ann bob\nphase colonisation\nsupply ann 5\nsupply bob 5\npick ann")
	stale := engine.Prompt{ID: "plan:ann", Player: "ann", Kind: engine.KindAnytime, Ask: planAsk}
	if _, errs := s.View("ann").Parse(stale, "SETTLE Sol 5"); len(errs) == 0 {
		t.Error("the picker's plan was taken through a plan prompt that is not asked")
	}
	if _, err := s.Resolve([]engine.Answer{{Prompt: stale, Orders: engine.TextOrders{"SETTLE Sol 5"}}}, dice.New("x")); err == nil {
		t.Error("Resolve applied an answer to a plan prompt that is not asked")
	}
}

// A plan answer with nothing in it (as a default would be) changes
// nothing, and says so to its writer.
func TestPlanNothingSentKeepsPlan(t *testing.T) {
	s, _ := buildCase("seats ann bob\nphase colonisation\nsupply ann 5\nsupply bob 5\npick bob\nplan ann SETTLE Vega 3")
	p := s.Prompts()[1]
	orders, errs := s.View("ann").Parse(p, p.Default)
	if len(errs) > 0 {
		t.Fatalf("the default does not parse: %v", errs)
	}
	before, _ := s.Marshal()
	events, err := s.Resolve([]engine.Answer{{Prompt: p, Orders: orders, Default: true}}, dice.New("x"))
	if err != nil {
		t.Fatal(err)
	}
	after, _ := s.Marshal()
	if string(before) != string(after) {
		t.Errorf("an empty plan answer changed the state:\n%s\n%s", before, after)
	}
	if len(events) != 1 || !strings.Contains(events[0].Text, "unchanged: SETTLE Vega 3") {
		t.Errorf("events %v", events)
	}
}

// The order help is mailed as it is: it must fit 78 columns and name the
// order that clears a plan.
func TestOrderHelpFits(t *testing.T) {
	help := Ruleset().Info().OrderHelp
	for _, line := range strings.Split(help, "\n") {
		if n := len([]rune(line)); n > reportWidth {
			t.Errorf("a help line of %d columns: %q", n, line)
		}
	}
	if !strings.Contains(help, "PLAN NONE") {
		t.Error("the help does not say how to clear a plan")
	}
}

// A game recorded by the rules before the plan prompt (testdata
// recorded-v1.json: an export of a colonisation in progress, bob's plan
// standing) replays to the state it recorded: the pick prompts are as they
// were and the new prompts never block (version 2's reports of spoiled
// plan lines and its counts change events, not states). Once imported,
// the waiting players have plan prompts, and a plan sent through one is
// played at its writer's next pick and verifies.
func TestRecordedGameReplays(t *testing.T) {
	ctx := context.Background()
	data, err := os.ReadFile(filepath.Join("testdata", "recorded-v1.json"))
	if err != nil {
		t.Fatal(err)
	}
	var x game.Export
	if err := json.Unmarshal(data, &x); err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(filepath.Join(t.TempDir(), "x.db"), store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	svc := game.New(st, []engine.Ruleset{Ruleset()})
	res, err := svc.Import(ctx, &x, game.ImportOptions{})
	if err != nil {
		t.Fatalf("the recorded game does not import: %v", err)
	}
	if res.Edited {
		t.Fatal("the recorded game replays to another state than it recorded")
	}
	g := res.Game
	var ids []string
	for _, p := range g.Prompts {
		ids = append(ids, p.ID)
	}
	if got := strings.Join(ids, " "); got != "settle:8 plan:bob plan:ann" {
		t.Fatalf("prompts %q", got)
	}
	submit := func(player, prompt, text string) *game.SubmitResult {
		t.Helper()
		r, err := svc.Submit(ctx, game.Input{Game: g.ID, Player: player, Prompt: prompt, Text: text, Source: "mail"})
		if err != nil || !r.Accepted {
			t.Fatalf("%s's orders for %s: %v %v", player, prompt, err, r.Errors)
		}
		return r
	}
	// bob's recorded plan is Deneb; he changes it while cat picks.
	submit("bob", "plan:bob", "SETTLE Mira 5")
	submit("cat", "settle:8", "SETTLE Mira 5")   // spoils bob's new plan ...
	submit("bob", "plan:bob", "SETTLE Pollux 3") // ... so he sends another
	// Snake: ann picks twice, then cat, then bob's pick plays his plan.
	submit("ann", "settle:9", "SETTLE Fornax 2")
	submit("ann", "settle:10", "SETTLE Canopus 2")
	r := submit("cat", "settle:11", "SETTLE Antares 2")
	var events []string
	for _, s := range r.Steps {
		for _, e := range s.Events {
			events = append(events, e.Text)
		}
	}
	if all := strings.Join(events, "\n"); !strings.Contains(all, "bob settles Pollux (small) with 3 ships") || !strings.Contains(all, "(from bob's plan)") {
		t.Errorf("bob's last plan was not played at his pick:\n%s", all)
	}
	v, err := svc.Verify(ctx, g.ID)
	if err != nil || !v.OK() {
		t.Fatalf("verify: %v %v", err, v.Problems)
	}
}

// TestEmptyMovementIsDone (engine.View.Parse): an empty movement is
// parsed as the DONE it stands for, so the acknowledgement shows it.
func TestEmptyMovementIsDone(t *testing.T) {
	s, err := buildCase("seats ann bob\nphase movement\nmover ann\nSol ann 10")
	if err != nil {
		t.Fatal(err)
	}
	p := s.Prompts()[0]
	for _, text := range []string{"", "DONE", "# nothing\n"} {
		o, errs := s.View("ann").Parse(p, text)
		if len(errs) > 0 || engine.OrdersText(o) != "DONE" {
			t.Errorf("%q: %q %v", text, engine.OrdersText(o), errs)
		}
	}
}

// TestOwnerLettersAreInitials (issue 44): the board marks each seat with
// its player's initial, whatever the seat order; a shared initial takes
// the next letter of the name.
func TestOwnerLettersAreInitials(t *testing.T) {
	s := &State{Seats: []string{"bob", "cy", "ann", "carl"}}
	for p, want := range map[string]string{"bob": "B", "cy": "C", "ann": "A", "carl": "R", "nobody": "?"} {
		if got := s.letter(p); got != want {
			t.Errorf("letter(%s) = %s, want %s", p, got, want)
		}
	}
}
