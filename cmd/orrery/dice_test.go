package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"orrery/engine/dice"
	"orrery/engine/enginetest"
	"orrery/engine/game"
	"orrery/games"
)

// runWith runs one orrery command line with every ruleset.
func runWith(t *testing.T, stdin string, args ...string) (string, string, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	e := &env{stdin: strings.NewReader(stdin), stdout: &out, stderr: &errOut, rulesets: games.All()}
	err := run(context.Background(), e, args)
	return out.String(), errOut.String(), err
}

var rollLine = regexp.MustCompile(`(?m)^roll #(\d+): d(\d+) = (\d+)$`)

// diceSays runs orrery dice and returns the values it prints, by roll
// number.
func diceSays(t *testing.T, args ...string) (map[int]int, string) {
	t.Helper()
	out, errOut, err := runWith(t, "", append([]string{"dice"}, args...)...)
	if err != nil {
		t.Fatalf("orrery dice %s: %v\n%s%s", strings.Join(args, " "), err, out, errOut)
	}
	got := map[int]int{}
	for _, m := range rollLine.FindAllStringSubmatch(out, -1) {
		n, _ := strconv.Atoi(m[1])
		v, _ := strconv.Atoi(m[3])
		got[n] = v
	}
	return got, out
}

// TestDiceCommandRedoesEveryRoll: every roll of a bot game of each ruleset
// is redone by `orrery dice` from what the reports show: the public rolls
// from the seed, its commitment and the digest of the orders; each hidden
// stream from the seed its audience is given, and, as everyone can at the
// end, from the step's hidden seed.
func TestDiceCommandRedoesEveryRoll(t *testing.T) {
	for _, rs := range games.All() {
		t.Run(rs.Info().Name, func(t *testing.T) {
			players := []string{"ann", "bob", "cy"}[:min(3, rs.Info().MaxPlayers)]
			opts := map[string]string{}
			if rs.Info().Name == "earthman" {
				opts["skynet"] = "on"
			}
			hook, sent := enginetest.RecordReports(players)
			enginetest.PlayBots(t, rs, enginetest.Options{Players: players, Seed: 5, MaxSteps: 20, Options: opts, Hooks: []game.Hook{hook}})
			checked := 0
			for _, r := range sent.Reports[game.GM] {
				byStream := map[string][]dice.Roll{}
				for _, roll := range r.Rolls {
					byStream[roll.Stream] = append(byStream[roll.Stream], roll)
				}
				sides := func(rolls []dice.Roll) string {
					var s []string
					for _, roll := range rolls {
						s = append(s, strconv.Itoa(roll.Sides))
					}
					return strings.Join(s, ",")
				}
				expect := func(got map[int]int, rolls []dice.Roll, how string) {
					for _, roll := range rolls {
						if got[roll.N] != roll.Value {
							t.Errorf("step %d, %s: orrery dice gives roll #%d = %d, the report %s", r.Step, how, roll.N, got[roll.N], roll)
						}
						checked++
					}
				}
				args := []string{r.RevealedSeed, "--commitment", r.RevealedCommitment, "--inputs", r.Digest}
				if pub := byStream[""]; len(pub) > 0 {
					got, out := diceSays(t, append(args, "--sides", sides(pub))...)
					if !strings.Contains(out, "seed matches the commitment") || !strings.Contains(out, r.RollSeed) {
						t.Errorf("step %d: orrery dice did not check the commitment or print the roll seed:\n%s", r.Step, out)
					}
					expect(got, pub, "public")
				}
				for _, st := range r.Streams {
					got, _ := diceSays(t, st.Seed, "--sides", sides(byStream[st.Key]))
					expect(got, byStream[st.Key], "from the seed of ["+st.Key+"]")
					got, out := diceSays(t, r.HiddenSeed, "--hidden", "--inputs", r.Digest, "--stream", st.Key, "--commitment", r.RevealedCommitment, "--sides", sides(byStream[st.Key]))
					if !strings.Contains(out, "seed of the step (sha256 of the hidden seed): "+r.RevealedSeed) {
						t.Errorf("step %d: orrery dice --hidden printed:\n%s", r.Step, out)
					}
					expect(got, byStream[st.Key], "from the hidden seed, ["+st.Key+"]")
				}
			}
			if checked == 0 {
				t.Fatal("no roll was checked")
			}
			t.Logf("%d rolls redone", checked)
		})
	}
}

func TestDiceCommandErrors(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"dice", "abc", "--sides", "6,x"}, "--sides"},
		{[]string{"dice", "abc", "--stream", "ann"}, "--stream needs --hidden"},
		{[]string{"dice", "abc", "--hidden", "--stream", "ann"}, "--stream needs --inputs"},
		{[]string{"dice", "abc", "--commitment", strings.Repeat("0", 64)}, "does NOT match"},
		{[]string{"dice"}, "usage: orrery dice SEED"},
	}
	for _, c := range cases {
		_, _, err := runWith(t, "", c.args...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("orrery %s: %v, want an error with %q", strings.Join(c.args, " "), err, c.want)
		}
	}
}

// TestGameListShowsDiceScheme: a game imported from before dice scheme 2
// lists as v1, a new one as v2, one waiting for players as "-".
func TestGameListShowsDiceScheme(t *testing.T) {
	db := filepath.Join(t.TempDir(), "l.db")
	old, err := os.ReadFile("../../games/testdata/dice-scheme1/old-prosper.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"game", "import", "--db", db},
		{"game", "new", "prosper", "--id", "fresh", "--player", "ann=", "--player", "bob=", "--db", db},
		{"game", "new", "prosper", "--id", "open", "--player", "ann=", "--seats", "3", "--db", db},
	} {
		stdin := ""
		if args[1] == "import" {
			stdin = string(old)
		}
		if out, errOut, err := runWith(t, stdin, args...); err != nil {
			t.Fatalf("%v: %v\n%s%s", args, err, out, errOut)
		}
	}
	out, _, err := runWith(t, "", "game", "list", "--db", db)
	if err != nil {
		t.Fatal(err)
	}
	for id, want := range map[string]string{"old-prosper": "v1", "fresh": "v2", "open": "-"} {
		m := regexp.MustCompile(`(?m)^` + id + `\s+prosper\s+(\S+)`).FindStringSubmatch(out)
		if m == nil || m[1] != want {
			t.Errorf("game list shows %s with dice %v, want %s:\n%s", id, m, want, out)
		}
	}
}

// TestGameNewWarnsWhenTheGMPlays: the GM holds the dice secret, so a seat
// played from the GM's own address (gm in the config) gets a warning.
func TestGameNewWarnsWhenTheGMPlays(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(cfg, []byte("gm: Grace <GM@Example.org>\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "w.db")
	for _, c := range []struct {
		id, ann string
		warn    bool
	}{{"plays", "gm@example.org", true}, {"apart", "ann@example.org", false}} {
		_, errOut, err := runWith(t, "", "game", "new", "prosper", "--id", c.id, "--player", "ann="+c.ann, "--player", "bob=bob@example.org", "--db", db, "--config", cfg)
		if err != nil {
			t.Fatal(err)
		}
		got := strings.Contains(errOut, "warning: ann plays from the GM's own address gm@example.org")
		if got != c.warn {
			t.Errorf("%s: warned %v, want %v:\n%s", c.id, got, c.warn, errOut)
		}
		for _, l := range strings.Split(errOut, "\n") {
			if len(l) > 100 {
				t.Errorf("a warning line of %d columns: %q", len(l), l)
			}
		}
	}
}
