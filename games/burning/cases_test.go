package burning

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"orrery/engine"
	"orrery/engine/dice"
	"orrery/engine/enginetest"
)

// Rule cases live in testdata/cases/*.txtar. Each builds a position from
// a "setup" section, sends the "orders" of the active player (the first
// seat), rolls the "dice" listed, and checks the "expect" lines; or, with
// an "errors" section, checks that Parse rejects the orders with those
// messages (one "LINE: substring" a line). A case with a "generate"
// section instead of "orders" runs setup steps of the galaxy's generation
// (see generate) with its dice, on the position the setup built. In
// "dice", "5*1" is five 1s; every case scripts exactly the dice the rules
// roll, so a roll too many (a tile die for a one-kind home planet) fails.
//
// setup lines:
//
//	players ann bob cy            seats in turn order; ann is active
//	faction bob xenos             (default humans)
//	lang bob ru
//	option huge b                 (huge, banks)
//	planet Arda K6 large fair ann a planet by centre, size, biome, owner ("-" none)
//	site Arda K4 cannon           a tile or structure on a planet cell
//	ship 3 bob cargo M12 [10B 5C] [+rig]
//	struct bob station N12
//	asteroid P12
//	bank ann 10B 5C
//	cat 20                        the active player's catastrophe roll
//	ally ann bob                  ann has declared an alliance with bob
//	contract 1 bob ann 3 10M 20B accepted   bob gives 10M, ann 20B, by ship 3
//	contract 2 bob ann 3 1M 1B cancelled expires 4   (accepted, cancelled, expires T,
//	                              loaded RES, loadedto RES: what the ship took from each so far)
//	active bob                    the active player (default: the first seat)
//	round 3                       the turn number (default 1)
//
// expect lines: bank P RES | ship N at CELL | ship N gone | ship N cargo RES |
// ship N load KIND | site PLANET CELL KIND | nosite PLANET CELL |
// owner PLANET P | struct CELL KIND P | nostruct CELL | asteroid CELL |
// noasteroid CELL | event TEXT | noevent TEXT | eventfor P[,Q] TEXT (an
// event only those players and the GM may read) | active P | over P,Q | out P | lang P L |
// contract N offered|accepted|cancelled [expires T] | roll N dS PURPOSE
// (roll number N was a dS for PURPOSE) | planet NAME section N SIZE BIOME
// OWNER|- | sites PLANET KIND N [interior|border] | dice PLANET TEXT (its
// recorded setup dice) | setupdice TEXT | asteroids N | insection SEC N.
func TestRuleCases(t *testing.T) {
	h := enginetest.Cases{Ruleset: Ruleset(), Sections: map[string]func(c *enginetest.Case, args []string, text string){
		"setup": func(c *enginetest.Case, _ []string, text string) { c.State = buildCase(c.T, text) },
		// The active player's orders, resolved at once.
		"orders": func(c *enginetest.Case, _ []string, text string) { c.Submit(c.State.(*State).active(), text) },
		"generate": func(c *enginetest.Case, _ []string, text string) {
			s := c.State.(*State)
			generate(c.T, s, text, c.Dice())
			c.Events = append(c.Events, s.events...)
		},
		"expect": func(c *enginetest.Case, _ []string, text string) {
			c.Checked()
			checkExpect(c.T, c.State.(*State), c.Events, c.Dice().Rolls(), text)
		},
	}}
	h.Run(t, "testdata/cases/*.txtar")
}

// generate runs the setup steps a "generate" section names, with the
// case's dice, on the position the setup built:
//
//	planet ann home       the home planet of ann (genPlanet)
//	planet ann second     a second planet generated for ann
//	asteroids 6           the asteroids, with a d6 modifier die
func generate(t *testing.T, s *State, text string, d *dice.Dice) {
	t.Helper()
	for _, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) == 0 || strings.HasPrefix(f[0], "#"):
		case len(f) == 3 && f[0] == "planet" && (f[2] == "home" || f[2] == "second"):
			s.genPlanet(d, f[1], f[2] == "home")
		case len(f) == 2 && f[0] == "asteroids":
			mod, err := strconv.Atoi(f[1])
			if err != nil {
				t.Fatalf("generate: %q", line)
			}
			s.genAsteroids(d, mod)
		default:
			t.Fatalf("generate: unknown line %q", line)
		}
	}
}

func parseRes(t *testing.T, words []string) Res {
	t.Helper()
	if len(words) == 1 && words[0] == "0" {
		return Res{}
	}
	tk := &tokens{t: words, r: words}
	r, pr := amounts(tk)
	if pr != nil {
		t.Fatalf("amount %v: %s", words, pr.why.English())
	}
	return r
}

func cell(t *testing.T, s string) Cell {
	t.Helper()
	c, ok := parseCell(s)
	if !ok {
		t.Fatalf("bad cell %q", s)
	}
	return c
}

func buildCase(t *testing.T, setup string) *State {
	t.Helper()
	s := &State{Faction: map[string]string{}, Lang: map[string]string{}, Bank: map[string]Res{}, Allies: map[string][]string{},
		NextShip: 1, Round: 1, HugeMode: "a", Hidden: true, Cat: 10, Msgs: true}
	for _, line := range strings.Split(setup, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		switch f[0] {
		case "players":
			s.Seats = f[1:]
			s.Grid = gridFor(len(s.Seats))
			for _, p := range s.Seats {
				s.Faction[p], s.Lang[p], s.Allies[p] = "humans", langEN, []string{}
			}
		case "faction":
			s.Faction[f[1]] = f[2]
		case "lang":
			s.Lang[f[1]] = f[2]
		case "option":
			switch f[1] {
			case "huge":
				s.HugeMode = f[2]
			case "banks":
				s.Hidden = f[2] == "hidden"
			}
		case "planet":
			size := map[string]int{"small": 1, "medium": 2, "large": 3}[f[3]]
			owner := f[5]
			if owner == "-" {
				owner = ""
			}
			c := cell(t, f[2])
			s.Planets = append(s.Planets, &Planet{Name: f[1], Centre: c, Section: s.Grid.section(c), Size: size, Biome: f[4], Owner: owner, Sites: []Site{}})
		case "site":
			pl := s.planet(f[1])
			pl.Sites = append(pl.Sites, Site{Cell: cell(t, f[2]), Kind: f[3]})
		case "ship":
			id, _ := strconv.Atoi(f[1])
			sh := &Ship{ID: id, Owner: f[2], Class: f[3], Cell: cell(t, f[4])}
			var amt []string
			for _, w := range f[5:] {
				if strings.HasPrefix(w, "+") {
					sh.Load = w[1:]
				} else {
					amt = append(amt, w)
				}
			}
			if len(amt) > 0 {
				sh.Cargo = parseRes(t, amt)
			}
			s.Ships = append(s.Ships, sh)
			if id >= s.NextShip {
				s.NextShip = id + 1
			}
		case "struct":
			s.Structs = append(s.Structs, &Struct{Owner: f[1], Kind: f[2], Cell: cell(t, f[3])})
		case "asteroid":
			s.Asteroids = append(s.Asteroids, cell(t, f[1]))
		case "bank":
			s.Bank[f[1]] = parseRes(t, f[2:])
		case "cat":
			s.Cat, _ = strconv.Atoi(f[1])
		case "contract":
			id, _ := strconv.Atoi(f[1])
			sh, _ := strconv.Atoi(f[4])
			c := &Contract{ID: id, From: f[2], To: f[3], Ship: sh, Give: parseRes(t, strings.Split(f[5], "+")),
				Get: parseRes(t, strings.Split(f[6], "+"))}
			for i := 7; i < len(f); i++ {
				switch f[i] {
				case "accepted":
					c.Accepted = true
				case "cancelled":
					c.Cancelled = true
				case "expires":
					i++
					c.Expires, _ = strconv.Atoi(f[i])
				case "loaded", "loadedto":
					// what the ship has taken so far from From (loaded) or To (loadedto)
					i++
					if f[i-1] == "loaded" {
						c.Loaded = parseRes(t, []string{f[i]})
					} else {
						c.LoadedTo = parseRes(t, []string{f[i]})
					}
				default:
					t.Fatalf("setup: %q in %q", f[i], line)
				}
			}
			s.Contracts = append(s.Contracts, c)
		case "ally":
			s.Allies[f[1]] = append(s.Allies[f[1]], f[2])
		case "active":
			s.Active = -1
			for i, p := range s.Seats {
				if p == f[1] {
					s.Active = i
				}
			}
			if s.Active < 0 {
				t.Fatalf("setup: no seat %q", f[1])
			}
		case "round":
			s.Round, _ = strconv.Atoi(f[1])
		default:
			t.Fatalf("setup: unknown line %q", line)
		}
	}
	return s
}

func checkExpect(t *testing.T, s *State, events []engine.Event, rolls []dice.Roll, expect string) {
	t.Helper()
	for _, line := range strings.Split(expect, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		rest := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), f[0]))
		fail := func(got any) { t.Errorf("%s: got %v", line, got) }
		switch f[0] {
		case "bank":
			if got := s.Bank[f[1]]; got != parseRes(t, f[2:]) {
				fail(got)
			}
		case "ship":
			id, _ := strconv.Atoi(f[1])
			sh := s.ship(id)
			switch f[2] {
			case "gone":
				if sh != nil {
					fail(sh)
				}
			case "at":
				if sh == nil || sh.Cell != cell(t, f[3]) {
					fail(sh)
				}
			case "cargo":
				if sh == nil || sh.Cargo != parseRes(t, f[3:]) {
					fail(sh)
				}
			case "load":
				if sh == nil || sh.Load != strings.Join(f[3:], "") {
					fail(sh)
				}
			}
		case "site":
			pl := s.planet(f[1])
			if i := pl.site(cell(t, f[2])); i < 0 || pl.Sites[i].Kind != f[3] {
				fail(pl.Sites)
			}
		case "nosite":
			pl := s.planet(f[1])
			if i := pl.site(cell(t, f[2])); i >= 0 {
				fail(pl.Sites[i])
			}
		case "owner":
			if pl := s.planet(f[1]); pl.Owner != strings.TrimPrefix(f[2], "-") {
				fail(pl.Owner)
			}
		case "struct":
			st := s.structAt(cell(t, f[1]))
			if st == nil || st.Kind != f[2] || st.Owner != f[3] {
				fail(st)
			}
		case "nostruct":
			if st := s.structAt(cell(t, f[1])); st != nil {
				fail(st)
			}
		case "asteroid", "noasteroid":
			if s.asteroidAt(cell(t, f[1])) != (f[0] == "asteroid") {
				fail(s.Asteroids)
			}
		case "event", "noevent":
			found := false
			for _, e := range events {
				found = found || strings.Contains(e.Text, rest)
			}
			if found != (f[0] == "event") {
				fail(eventTexts(events))
			}
		case "eventfor":
			text := strings.TrimSpace(strings.TrimPrefix(rest, f[1]))
			found := false
			for _, e := range events {
				if strings.Contains(e.Text, text) {
					found = true
					for _, p := range s.Seats {
						if e.VisibleTo(p) != contains(strings.Split(f[1], ","), p) {
							t.Errorf("%s: event %q visible to %s: %v", line, e.Text, p, e.VisibleTo(p))
						}
					}
				}
			}
			if !found {
				fail(eventTexts(events))
			}
		case "planet":
			// planet NAME section N SIZE BIOME OWNER|-
			pl := s.planet(f[1])
			if pl == nil {
				fail("no planet")
				continue
			}
			size := []string{"", "small", "medium", "large"}[pl.Size]
			owner := pl.Owner
			if owner == "" {
				owner = "-"
			}
			if got := fmt.Sprintf("section %d %s %s %s", pl.Section, size, pl.Biome, owner); got != strings.Join(f[2:], " ") {
				fail(got)
			}
		case "sites":
			// sites PLANET KIND N [interior|border]: N sites of KIND (on that ring)
			pl := s.planet(f[1])
			n := 0
			for _, st := range pl.Sites {
				d := dist(pl.Centre, st.Cell)
				ring := "interior"
				if d == pl.radius() {
					ring = "border"
				}
				if st.Kind == f[2] && (len(f) < 5 || f[4] == ring) && d > 0 && d <= pl.radius() {
					n++
				}
			}
			if strconv.Itoa(n) != f[3] {
				fail(n)
			}
		case "dice":
			// dice PLANET TEXT: the planet's recorded setup dice say TEXT
			if pl := s.planet(f[1]); !strings.Contains(pl.Dice, strings.TrimSpace(strings.TrimPrefix(rest, f[1]))) {
				fail(pl.Dice)
			}
		case "setupdice":
			if !strings.Contains(strings.Join(s.SetupDice, "\n"), rest) {
				fail(s.SetupDice)
			}
		case "asteroids":
			if strconv.Itoa(len(s.Asteroids)) != f[1] {
				fail(len(s.Asteroids))
			}
		case "insection":
			// insection SECTION N: N asteroids in that section
			n := 0
			for _, a := range s.Asteroids {
				if strconv.Itoa(s.Grid.section(a)) == f[1] {
					n++
				}
			}
			if strconv.Itoa(n) != f[2] {
				fail(n)
			}
		case "roll":
			// roll N dS PURPOSE: roll number N was a die of S sides, for PURPOSE
			n, _ := strconv.Atoi(f[1])
			if n < 1 || n > len(rolls) {
				fail(rolls)
				continue
			}
			r := rolls[n-1]
			purpose := strings.TrimSpace(strings.TrimPrefix(rest, f[1]))
			purpose = strings.TrimSpace(strings.TrimPrefix(purpose, f[2]))
			if "d"+strconv.Itoa(r.Sides) != f[2] || !strings.Contains(r.Purpose, purpose) {
				fail(r)
			}
		case "active":
			if s.active() != f[1] {
				fail(s.active())
			}
		case "over":
			if !s.Done || strings.Join(s.Winners, ",") != f[1] {
				fail(s.Winners)
			}
		case "out":
			if !s.out(f[1]) {
				fail(s.Out)
			}
		case "lang":
			if s.Lang[f[1]] != f[2] {
				fail(s.Lang[f[1]])
			}
		case "contract":
			id, _ := strconv.Atoi(f[1])
			c := s.contract(id)
			if c == nil {
				fail("no contract")
				continue
			}
			state := "offered"
			switch {
			case c.Cancelled:
				state = "cancelled"
			case c.Accepted:
				state = "accepted"
			}
			got := state
			if c.Expires > 0 {
				got += " expires " + strconv.Itoa(c.Expires)
			}
			if got != strings.Join(f[2:], " ") {
				fail(got)
			}
		default:
			t.Fatalf("expect: unknown line %q", line)
		}
	}
}

func eventTexts(events []engine.Event) string {
	var out []string
	for _, e := range events {
		out = append(out, e.Text)
	}
	return strings.Join(out, "\n")
}
