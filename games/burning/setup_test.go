package burning

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"orrery/engine"
	"orrery/engine/dice"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

func newGame(t testing.TB, players []string, opts map[string]string, seed string) *State {
	t.Helper()
	o, err := engine.ResolveOptions(Ruleset().Info(), opts)
	if err != nil {
		t.Fatal(err)
	}
	st, err := Ruleset().NewState(engine.Setup{GameID: "g", Players: players, Options: o}, dice.New(seed))
	if err != nil {
		t.Fatal(err)
	}
	return st.(*State)
}

// TestGeneration checks the generated galaxy against the rules over many
// seeds and every player count: planets in distinct sections; home biome
// by faction; tile counts as the recorded dice say; tiles off the border
// while interior cells remain; the cannon on the border; the bank ten
// turns of production; asteroids a free cell away from everything.
func TestGeneration(t *testing.T) {
	for seed := 0; seed < 60; seed++ {
		n := 2 + seed%5
		players := []string{"ann", "bob", "cy", "dee", "eve", "fay"}[:n]
		s := newGame(t, players, map[string]string{"asteroid_die": []string{"4", "6", "8"}[seed%3]}, fmt.Sprint("gen", seed))
		if len(s.Planets) != 2*n {
			t.Fatalf("seed %d: %d planets for %d players", seed, len(s.Planets), n)
		}
		secs := map[int]bool{}
		for i, pl := range s.Planets {
			if secs[pl.Section] {
				t.Errorf("seed %d: two planets in section %d", seed, pl.Section)
			}
			secs[pl.Section] = true
			if pl.Centre != s.Grid.centre(pl.Section) {
				t.Errorf("seed %d: %s is not at its section's centre", seed, pl.Name)
			}
			home := i%2 == 0
			forests, mountains := pl.count(Forest), pl.count(Mountain)
			rolled := map[string]int{}
			for _, m := range regexp.MustCompile(`(forests|mountains) d\d=(\d)`).FindAllStringSubmatch(pl.Dice, -1) {
				v, _ := strconv.Atoi(m[2])
				rolled[m[1]] += v
			}
			if home {
				owner := s.Seats[i/2]
				if pl.Owner != owner || pl.Biome != factions[s.Faction[owner]].Home {
					t.Errorf("seed %d: home %s owner %q biome %s", seed, pl.Name, pl.Owner, pl.Biome)
				}
				if forests+mountains != 5 {
					t.Errorf("seed %d: home %s has %d tiles", seed, pl.Name, forests+mountains)
				}
				if pl.count(CannonS) != 1 {
					t.Errorf("seed %d: home %s has no cannon", seed, pl.Name)
				}
				var prod Res
				for _, st := range pl.Sites {
					prod = prod.add(product(st.Kind))
				}
				want := prod.times(10)
				if owner == s.active() {
					want = want.add(s.income(owner)) // the first turn's income is in
				}
				if s.Bank[owner] != want {
					t.Errorf("seed %d: %s starts with %v, not ten turns of %v", seed, owner, s.Bank[owner], prod)
				}
			} else {
				if pl.Owner != "" {
					t.Errorf("seed %d: second planet %s is owned", seed, pl.Name)
				}
				if forests != rolled["forests"] || mountains != rolled["mountains"] {
					t.Errorf("seed %d: %s has %d forests, %d mountains; dice %s", seed, pl.Name, forests, mountains, pl.Dice)
				}
			}
			switch pl.Biome {
			case Harsh:
				if forests != 0 {
					t.Errorf("seed %d: Harsh %s has forests", seed, pl.Name)
				}
			case Water:
				if mountains != 0 {
					t.Errorf("seed %d: Water %s has mountains", seed, pl.Name)
				}
			}
			interiorFree := len(pl.freeCells(true)) > 0
			for _, st := range pl.Sites {
				d := dist(pl.Centre, st.Cell)
				if d == 0 || d > pl.radius() {
					t.Errorf("seed %d: %s at %s is off %s", seed, st.Kind, st.Cell, pl.Name)
				}
				if isTile(st.Kind) && d == pl.radius() && interiorFree {
					t.Errorf("seed %d: a %s on the border of %s while interior cells are free", seed, st.Kind, pl.Name)
				}
				if st.Kind == CannonS && d != pl.radius() {
					t.Errorf("seed %d: the cannon of %s is not on the border", seed, pl.Name)
				}
			}
			for _, v := range vertices(pl.Centre, pl.radius()) {
				if s.Grid.section(v) != pl.Section {
					t.Errorf("seed %d: a vertex of %s leaves its section", seed, pl.Name)
				}
			}
		}
		for i, a := range s.Asteroids {
			for _, pl := range s.Planets {
				if dist(a, pl.Centre) <= pl.radius()+1 {
					t.Errorf("seed %d: asteroid %s touches %s", seed, a, pl.Name)
				}
			}
			for _, b := range s.Asteroids[i+1:] {
				if dist(a, b) < 2 {
					t.Errorf("seed %d: asteroids %s and %s are adjacent", seed, a, b)
				}
			}
		}
		// N13: sections + the modifier die, placed without re-rolling a
		// section that already has one — so, with more asteroids than
		// sections, some section always holds a cluster.
		var last string
		var lines []string // one per asteroid, in the order placed
		for _, l := range s.SetupDice {
			switch {
			case strings.HasPrefix(l, "asteroids: "):
				last = l
			case strings.HasPrefix(l, "asteroid "):
				lines = append(lines, l)
			}
		}
		var secs2, sides, roll, count int
		if _, err := fmt.Sscanf(last, "asteroids: %d sections + d%d=%d = %d", &secs2, &sides, &roll, &count); err != nil {
			t.Fatalf("seed %d: setup dice %q: %v", seed, last, err)
		}
		// Each asteroid's line names the section rolled last and the cell.
		if len(lines) != count {
			t.Errorf("seed %d: %d asteroid lines in the setup dice for %d asteroids", seed, len(lines), count)
		}
		placed := 0
		for _, l := range lines {
			if strings.HasSuffix(l, ": dropped") {
				continue
			}
			a := s.Asteroids[placed]
			placed++
			secRolls := regexp.MustCompile(`section d\d+=(\d+)`).FindAllStringSubmatch(l, -1)
			if len(secRolls) == 0 || secRolls[len(secRolls)-1][1] != strconv.Itoa(s.Grid.section(a)) || !strings.HasSuffix(l, " = "+a.String()) {
				t.Errorf("seed %d: setup dice %q for asteroid %s in section %d", seed, l, a, s.Grid.section(a))
			}
		}
		if secs2 != s.Grid.Sections() || count != secs2+roll || len(s.Asteroids) != count {
			t.Errorf("seed %d: %d asteroids placed; dice say %q", seed, len(s.Asteroids), last)
		}
		per := map[int]int{}
		most := 0
		for _, a := range s.Asteroids {
			per[s.Grid.section(a)]++
			most = max(most, per[s.Grid.section(a)])
		}
		if most < 2 {
			t.Errorf("seed %d: no cluster among %d asteroids", seed, len(s.Asteroids))
		}
	}
}

// reroll is a source that plays a script first, then a seed.
type reroll struct {
	first dice.Scripted
	rest  dice.SeedSource
}

func (r reroll) Value(n, sides int) (int, error) {
	if n <= len(r.first) {
		return r.first.Value(n, sides)
	}
	return r.rest.Value(n, sides)
}

// TestPlanetConflictReroll: a planet's section roll that lands on a taken
// section is rolled again (RULE "the roll is simply repeated").
func TestPlanetConflictReroll(t *testing.T) {
	// Seat shuffle (a d2 of 2 keeps ann first), ann's home: section 3, size 1, forests 2;
	// then 5 tile cells and the cannon cell are picked; we stop scripting there.
	o, _ := engine.ResolveOptions(Ruleset().Info(), map[string]string{"factions": "humans,digitals"})
	d := dice.FromSource(reroll{first: dice.Scripted{2, 3, 1, 2, 1, 1, 1, 1, 1, 1, 3, 3, 5}, rest: "x"})
	st, err := Ruleset().NewState(engine.Setup{Players: []string{"ann", "bob"}, Options: o}, d)
	if err != nil {
		t.Fatal(err)
	}
	s := st.(*State)
	rolls := d.Rolls()
	if rolls[10].Value != 3 || rolls[11].Value != 3 || rolls[12].Value != 5 || !strings.HasPrefix(rolls[11].Purpose, "section of Borvik") {
		t.Fatalf("rolls: %v", rolls[:13])
	}
	if s.Planets[0].Section != 3 || s.Planets[1].Section != 5 {
		t.Errorf("sections %d and %d, want 3 and 5 after the re-roll", s.Planets[0].Section, s.Planets[1].Section)
	}
	if !strings.Contains(s.Planets[1].Dice, "section d6=3, section d6=3, section d6=5") {
		t.Errorf("the re-rolls are not recorded: %s", s.Planets[1].Dice)
	}
}

// TestGoldenBoards keeps one board and status per faction and language.
func TestGoldenBoards(t *testing.T) {
	for _, lang := range []string{langEN, langRU} {
		s := newGame(t, []string{"ann", "bob", "cy"}, map[string]string{"lang": lang, "factions": "humans,digitals,xenos"}, "golden")
		for _, p := range []string{"ann", "bob", "cy"} {
			v := s.View(p)
			got := v.Board() + "\n" + v.Status()
			name := filepath.Join("testdata", fmt.Sprintf("board-%s-%s.golden", s.Faction[p], lang))
			if *update {
				if err := os.WriteFile(name, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(name)
			if err != nil {
				t.Fatalf("%v (run go test -update)", err)
			}
			if got != string(want) {
				t.Errorf("%s differs from the golden file; run go test -update and review the diff:\n%s", name, got)
			}
			for i, l := range strings.Split(v.Board(), "\n") {
				if n := len([]rune(l)); n > 78 {
					t.Errorf("%s: board line %d has %d columns", name, i+1, n)
				}
			}
		}
	}
}

// TestHelpFitsMail keeps the order help within 78 columns.
func TestHelpFitsMail(t *testing.T) {
	for _, l := range strings.Split(Ruleset().Info().OrderHelp, "\n") {
		if n := len([]rune(l)); n > 78 {
			t.Errorf("%d columns: %s", n, l)
		}
	}
}
