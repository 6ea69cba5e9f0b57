package games

// The dice of every ruleset, as players check them (issue 15): the README's
// shell recipe redoes every roll of a bot game of each ruleset; no player or
// observer can compute a roll hidden from them; a step's rolls change when
// one player's orders change by a line; games recorded under the old scheme
// still verify with their old dice.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"orrery/engine"
	"orrery/engine/dice"
	"orrery/engine/enginetest"
	"orrery/engine/game"
	"orrery/engine/store"
)

// diceGame is the bot game each ruleset plays here: its seats and the
// options that make it roll what it can hide (the Skynet deck).
func diceGame(rs engine.Ruleset) ([]string, map[string]string) {
	players := []string{"ann", "bob", "cy"}
	if rs.Info().MaxPlayers < 3 {
		players = players[:2]
	}
	opts := map[string]string{}
	if rs.Info().Name == "earthman" {
		opts["skynet"] = "on"
	}
	if rs.Info().Name == "orbital" {
		// Step 1 is then the opening both players send orders for, not
		// one player's placement, which the bot leaves as it is.
		opts["placement"] = "simultaneous"
	}
	return players, opts
}

// playDice plays a short bot game of rs and returns what every reader was
// sent.
func playDice(t *testing.T, rs engine.Ruleset, seed uint64) (enginetest.Result, []string, *enginetest.Sent) {
	t.Helper()
	players, opts := diceGame(rs)
	hook, sent := enginetest.RecordReports(players)
	res := enginetest.PlayBots(t, rs, enginetest.Options{Players: players, Seed: seed, MaxSteps: 30, Options: opts, Hooks: []game.Hook{hook}})
	if res.Game.DiceScheme != dice.Scheme2 {
		t.Fatalf("a new game has dice scheme %d, want %d", res.Game.DiceScheme, dice.Scheme2)
	}
	return res, players, sent
}

// TestNobodyComputesAHiddenRoll: in a bot game of every ruleset, no player
// and no observer can compute, from what they were sent before the end, a
// roll hidden from them, a hidden seed, another's salt.
func TestNobodyComputesAHiddenRoll(t *testing.T) {
	for _, rs := range All() {
		t.Run(rs.Info().Name, func(t *testing.T) {
			_, players, sent := playDice(t, rs, 7)
			n := enginetest.CheckHiddenRolls(t, sent, players)
			t.Logf("%d hidden rolls tried", n)
		})
	}
}

// readmeRecipe is the shell recipe of docs/dice.md ("Dice you can check",
// once the README's section): the first sh block of that file, run as it
// stands.
func readmeRecipe(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile("../docs/dice.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	if !strings.HasPrefix(s, "# Dice you can check\n") {
		t.Fatal(`docs/dice.md does not open with "# Dice you can check"`)
	}
	start := strings.Index(s, "```sh")
	if start < 0 {
		t.Fatal("docs/dice.md has no sh block")
	}
	s = s[start:]
	s = s[strings.Index(s, "\n")+1:] // after the fence's info line ("sh runnable")
	return s[:strings.Index(s, "```")]
}

// shq quotes s for sh.
func shq(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// TestShellRecipeRedoesEveryRoll runs the README's recipe with sh (dash on
// Debian: POSIX, no bashisms) over every step of a bot game of each
// ruleset, from what the reports show: the seed against the commitment sent
// before, each part's hash from its lines, the digest from the hashes, the
// roll seed, every public roll, and, from the hidden seed shown at the end,
// the seed and every roll of each hidden stream and each secret part's salt.
func TestShellRecipeRedoesEveryRoll(t *testing.T) {
	for _, tool := range []string{"sh", "sha256sum", "cut"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s here", tool)
		}
	}
	recipe := readmeRecipe(t)
	for _, rs := range All() {
		t.Run(rs.Info().Name, func(t *testing.T) {
			_, _, sent := playDice(t, rs, 3)
			var script strings.Builder
			script.WriteString(recipe)
			var want, what []string
			check := func(cmd, value, label string) {
				script.WriteString(cmd + "\n")
				want, what = append(want, value), append(what, label)
			}
			prev := ""
			rolls := 0
			reports := sent.Reports[game.GM]
			if testing.Short() {
				reports = reports[:min(3, len(reports))] // every step's rolls redone by sh: without -short
			}
			for _, r := range reports {
				if prev != "" && r.RevealedCommitment != prev {
					t.Errorf("step %d: the commitment revealed is not the one sent before the step", r.Step)
				}
				prev = r.NextCommitment
				step := fmt.Sprintf("step %d", r.Step)
				check("sha "+r.RevealedSeed, r.RevealedCommitment, step+": the commitment")
				var hashes []string
				for _, p := range r.Inputs {
					args := []string{shq(p.Head)}
					if p.Hidden {
						args = append(args, shq("salt "+p.Salt))
					}
					for _, l := range p.Lines {
						args = append(args, shq(l))
					}
					check("lines "+strings.Join(args, " "), p.Hash, step+": the hash of "+p.Head)
					hashes = append(hashes, p.Hash)
					if p.Hidden {
						prompt := strings.Fields(p.Head)[1]
						check("sha "+shq(r.HiddenSeed+":salt:"+prompt)+" | cut -c1-32", p.Salt, step+": the salt of "+p.Head)
					}
				}
				check("lines "+strings.Join(hashes, " "), r.Digest, step+": the digest")
				check("R=$(sha "+r.RevealedSeed+":"+r.Digest+"); echo $R", r.RollSeed, step+": the roll seed")
				check("sha "+r.HiddenSeed, r.RevealedSeed, step+": the seed from the hidden seed")
				for _, st := range r.Streams {
					check("sha "+shq(r.HiddenSeed+":"+r.Digest+":"+st.Key), st.Seed, step+": the seed of ["+st.Key+"]")
				}
				for _, roll := range r.Rolls {
					seed := "$R"
					for _, st := range r.Streams {
						if st.Key == roll.Stream {
							seed = st.Seed
						}
					}
					if roll.Stream != "" && seed == "$R" {
						t.Fatalf("%s: no seed for the stream of roll %s", step, roll)
					}
					check(fmt.Sprintf("roll %s %d %d", seed, roll.N, roll.Sides), strconv.Itoa(roll.Value), step+": roll "+roll.String())
					rolls++
				}
			}
			out, err := exec.Command("sh", "-c", script.String()).CombinedOutput()
			if err != nil {
				t.Fatalf("sh: %v\n%s", err, out)
			}
			got := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
			if len(got) != len(want) {
				t.Fatalf("the recipe printed %d lines for %d checks:\n%s", len(got), len(want), out)
			}
			for i := range want {
				if got[i] != want[i] {
					t.Errorf("%s: the recipe gives %s, the report %s", what[i], got[i], want[i])
				}
			}
			t.Logf("%d steps, %d rolls, %d values redone by sh", len(reports), rolls, len(want))
		})
	}
}

// newDiceService opens a service over a fresh store.
func newDiceService(t *testing.T, name string) *game.Service {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), name+".db"), store.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return game.New(st, All())
}

// TestRollSeedDependsOnEveryOrder: with the dice secret known (the GM's
// position), the rolls of a step still cannot be computed before its last
// order is in. For each ruleset, the first step is played several times
// from the same secret: with the same orders, the roll seed is the same;
// when any one player's orders differ by one line, it differs.
func TestRollSeedDependsOnEveryOrder(t *testing.T) {
	ctx := context.Background()
	for _, rs := range All() {
		t.Run(rs.Info().Name, func(t *testing.T) {
			players, opts := diceGame(rs)
			req := game.CreateRequest{ID: "dep", Ruleset: rs.Info().Name, Options: opts, DiceSecret: "the GM knows this"}
			for _, p := range players {
				req.Players = append(req.Players, game.PlayerSpec{Name: p})
			}
			// The orders every seat sends for step 1, as its bot would.
			svc := newDiceService(t, "orders")
			g, err := svc.Create(ctx, req)
			if err != nil {
				t.Fatal(err)
			}
			orders := map[string]string{}
			others := map[string][]string{} // what the bot might have sent instead
			var prompts []engine.Prompt
			for _, p := range g.Prompts {
				if !p.Kind.Blocks() {
					continue
				}
				v, err := svc.View(ctx, g.ID, p.Player)
				if err != nil {
					t.Fatal(err)
				}
				orders[p.ID] = rs.Bot(v, p, rand.New(rand.NewPCG(1, 2)))
				for k := uint64(3); k < 40; k++ {
					others[p.ID] = append(others[p.ID], rs.Bot(v, p, rand.New(rand.NewPCG(k, 2))))
				}
				prompts = append(prompts, p)
			}
			play := func(name string, change string, text string) (string, bool) {
				svc := newDiceService(t, name)
				if _, err := svc.Create(ctx, req); err != nil {
					t.Fatal(err)
				}
				for _, p := range prompts {
					o := orders[p.ID]
					if p.ID == change {
						o = text
					}
					res, err := svc.Submit(ctx, game.Input{Game: "dep", Player: p.Player, Prompt: p.ID, Text: o, Source: "cli"})
					if err != nil {
						t.Fatal(err)
					}
					if !res.Accepted {
						return "", false
					}
				}
				rep, err := svc.StepReport(ctx, "dep", 1, game.GM)
				if err != nil {
					t.Fatal(err)
				}
				return rep.RollSeed, true
			}
			base, ok := play("base", "", "")
			if !ok || base == "" {
				t.Fatalf("the bots' orders were refused, or step 1 has no roll seed")
			}
			if again, _ := play("again", "", ""); again != base {
				t.Fatalf("the same orders gave roll seeds %s and %s", base, again)
			}
			changed := 0
			for i, p := range prompts {
				lines := strings.Split(orders[p.ID], "\n")
				// One line less, or, for orders of one line, none, the
				// prompt's default, or another line the bot might send.
				var variants []string
				if len(lines) > 1 {
					variants = append(variants, strings.Join(lines[:len(lines)-1], "\n"))
				} else {
					variants = append(variants, "", p.Default)
					for _, o := range others[p.ID] {
						if !strings.Contains(o, "\n") {
							variants = append(variants, o)
						}
					}
				}
				for _, v := range variants {
					if v == orders[p.ID] {
						continue
					}
					seed, ok := play(fmt.Sprintf("v%d", i), p.ID, v)
					if !ok {
						continue
					}
					if seed == base {
						t.Errorf("%s's orders for %s differ by a line (%q for %q) and the roll seed is the same", p.Player, p.ID, v, orders[p.ID])
					}
					changed++
					break
				}
			}
			if changed == 0 {
				t.Fatalf("no variant of any player's orders for step 1 was accepted: nothing was tested")
			}
		})
	}
}

// TestOldSchemeGamesStillVerify imports games recorded by the server before
// dice scheme 2 (testdata/dice-scheme1: an export of each ruleset's game,
// with a rollback in the Prosper one, and the step records that server
// stored), verifies them, and checks that every replayed seed, commitment
// and roll is the one the old server recorded: a game keeps its scheme.
// Then a step more is played, under the old scheme still. A game recorded
// under an older version of its rules (all of them, since issue 19's
// version 2) replays under today's: its dice must be the very same, and
// only their purposes' wording may differ ("1 of 1 fleet" for "1 of 1
// fleets"), as replay allows a prompt's wording to.
func TestOldSchemeGamesStillVerify(t *testing.T) {
	ctx := context.Background()
	files, err := filepath.Glob("testdata/dice-scheme1/*.steps.jsonl")
	if err != nil || len(files) == 0 {
		t.Fatalf("no recorded games: %v", err)
	}
	for _, stepsFile := range files {
		name := strings.TrimSuffix(filepath.Base(stepsFile), ".steps.jsonl")
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata/dice-scheme1", name+".json"))
			if err != nil {
				t.Fatal(err)
			}
			var x game.Export
			if err := json.Unmarshal(data, &x); err != nil {
				t.Fatal(err)
			}
			rs, err := engine.Find(All(), x.Game.Ruleset)
			if err != nil {
				t.Fatal(err)
			}
			sameRules := rs.Info().Version == x.Game.RulesVersion
			svc := newDiceService(t, "old")
			if _, err := svc.Import(ctx, &x, game.ImportOptions{}); err != nil {
				t.Fatal(err)
			}
			g, err := svc.Get(ctx, x.Game.ID)
			if err != nil {
				t.Fatal(err)
			}
			if g.DiceScheme != 0 || g.Scheme() != dice.Scheme1 {
				t.Fatalf("an old game reads as dice scheme %d (recorded %d), want 1", g.Scheme(), g.DiceScheme)
			}
			f, err := os.Open(stepsFile)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			sc := bufio.NewScanner(f)
			sc.Buffer(nil, 1<<20)
			n := 0
			for sc.Scan() {
				var old struct {
					N          uint64      `json:"n"`
					Seed       string      `json:"seed"`
					Commitment string      `json:"commitment"`
					Next       string      `json:"next_commitment"`
					Rolls      []dice.Roll `json:"rolls"`
				}
				if err := json.Unmarshal(sc.Bytes(), &old); err != nil {
					t.Fatal(err)
				}
				rep, err := svc.StepReport(ctx, g.ID, old.N, game.GM)
				if err != nil {
					t.Fatal(err)
				}
				a, b := rollsJSON(old.Rolls, sameRules), rollsJSON(rep.Rolls, sameRules)
				if rep.RevealedSeed != old.Seed || rep.RevealedCommitment != old.Commitment || rep.NextCommitment != old.Next || !bytes.Equal(a, b) {
					t.Errorf("step %d: replayed as seed %s commitment %s next %s rolls %s; the old server recorded %s %s %s %s",
						old.N, rep.RevealedSeed, rep.RevealedCommitment, rep.NextCommitment, b, old.Seed, old.Commitment, old.Next, a)
				}
				if rep.RollSeed != "" || rep.Digest != "" {
					t.Errorf("step %d of an old game has a roll seed or a digest", old.N)
				}
				n++
			}
			if uint64(n) != g.Step+1 {
				t.Fatalf("%d recorded steps for a game at step %d", n, g.Step)
			}
			if _, err := svc.Advance(ctx, g.ID, true); err != nil {
				t.Fatal(err)
			}
			v, err := svc.Verify(ctx, g.ID)
			if err != nil {
				t.Fatal(err)
			}
			if !v.OK() {
				t.Fatalf("the old game does not verify after a step more: %v", v.Problems)
			}
			rep, err := svc.StepReport(ctx, g.ID, g.Step+1, game.GM)
			if err != nil {
				t.Fatal(err)
			}
			if rep.RollSeed != "" || rep.DiceScheme != dice.Scheme1 || rep.RevealedSeed != dice.StepSeed([]byte(g.DiceSecret), fmt.Sprintf("%s:%d:%d", g.ID, g.Epoch, g.Step+1)) {
				t.Errorf("a step played today in an old game does not use the old scheme: %+v", rep)
			}
		})
	}
}

// rollsJSON writes rolls for comparison, with their purposes or without.
func rollsJSON(rolls []dice.Roll, purposes bool) []byte {
	rolls = append([]dice.Roll(nil), rolls...)
	for i := range rolls {
		// A purpose is compared by its English, as verify does: an old
		// server recorded no message (lang.Msg) beside it.
		rolls[i].Msg = nil
		if !purposes {
			rolls[i].Purpose = ""
		}
		// A die's message is its purpose again, which an old server never
		// recorded: the English purpose is what is compared (as replay's
		// normRolls does).
		rolls[i].Msg = nil
	}
	b, _ := json.Marshal(rolls)
	return b
}
