package burning

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"orrery/engine"
	"orrery/engine/dice"
	"orrery/engine/lang"
)

const secretSetup = `players ann bob cy
faction bob xenos
planet Arda F6 small fair ann
site Arda E4 cannon
planet Borvik Q6 small fair bob
site Borvik P4 cannon
site Borvik R6 spaceport
ship 1 ann small N5
ship 2 bob cargo N6 777B 555C +station
ship 4 bob cargo O5
bank bob 100B 10M
contract 1 bob cy 2 5B 999F accepted
`

// secrets are the strings that would betray bob's manifests.
var cargoSecrets = []string{"777", "555", "100B", "station", "станция", "drilling", "буровая"}

// contractSecrets are what would betray bob's contract with cy to ann.
var contractSecrets = []string{"999", "contract", "договор", "Договор", "Contract"}

func leaks(text string, extra ...string) string {
	for _, s := range append(append([]string(nil), cargoSecrets...), extra...) {
		if strings.Contains(text, s) {
			return s
		}
	}
	return ""
}

// viewLeaks checks a player's board (less its legend, which names every
// structure), status and prompts.
func viewLeaks(t *testing.T, s *State, p string) {
	t.Helper()
	var extra []string
	if p != "cy" {
		extra = contractSecrets
	}
	v := s.View(p)
	board := v.Board()
	board = board[:strings.Index(board, "\n\n. ")]
	for what, text := range map[string]string{"board": board, "status": v.Status()} {
		if w := leaks(text, extra...); w != "" {
			t.Errorf("%s's %s shows %q:\n%s", p, what, w, text)
		}
	}
	for _, pr := range s.Prompts() {
		if pr.Player == p {
			if w := leaks(pr.Ask+pr.Default, extra...); w != "" {
				t.Errorf("%s's prompt shows %q", p, w)
			}
		}
	}
}

// TestCargoStaysSecret: what bob's cargo ships carry, and his contract
// with cy, never reach ann, through her view, prompts, the events of bob's
// loading and buying, or the errors of any order she might send to probe
// them. (cy, bob's partner, is checked for cargo only.)
func TestCargoStaysSecret(t *testing.T) {
	for _, lang := range []string{langEN, langRU} {
		s := buildCase(t, secretSetup+"lang ann "+lang+"\nlang cy "+lang+"\n")
		for _, p := range []string{"ann", "cy"} {
			viewLeaks(t, s, p)
		}
		probes := []string{
			"SHIP 2 UNLOAD Arda 1B", "SHIP 2 DEPLOY M6", "SHIP 2 LOAD Borvik 1B", "BUY RIG AT Borvik FOR 2",
			"BUY STATION AT Arda FOR 2", "SHIP 1 ATTACK 2", "SHIP 1 ATTACK 2", "SHIP 1 ATTACK 2", "FIRE E4 AT 2",
			"SHIP 1 RAZE R6", "SHIP 1 CONQUER Borvik", "MAKE 1 CARGO AT Borvik", "ALLY bob", "SHIP 4 UNLOAD Borvik 5C",
			"SHIP 2 MOVE N7", "garbage 777", "SHIP 2 DEPLOY", "ACCEPT 1", "OFFER cy SHIP 2 GIVE 1B", "OFFER cy SHIP 2 GIVE 1B TURNS 3",
			"CANCEL 1", "TILE FOREST AT F5", "AUTO",
		}
		prompt := s.Prompts()[0]
		_, errs := s.View("ann").Parse(prompt, strings.Join(probes, "\n"))
		if len(errs) == 0 {
			t.Fatal("the probes were accepted")
		}
		for _, e := range errs {
			if w := leaks(strings.TrimPrefix(e.Error(), fmt.Sprintf("line %d: ", e.Line)), "999"); w != "" && !strings.Contains(e.Text, w) {
				t.Errorf("error %q shows %q", e.Error(), w)
			}
		}
		// Accepting bob's contract with cy is refused exactly as accepting
		// one that does not exist: ann cannot even learn that it exists.
		_, e1 := s.View("ann").Parse(prompt, "ACCEPT 1")
		_, e2 := s.View("ann").Parse(prompt, "ACCEPT 42")
		if len(e1) != 1 || len(e2) != 1 || strings.ReplaceAll(e2[0].Msg, "42", "1") != e1[0].Msg {
			t.Errorf("ACCEPT of a contract ann is not party to: %v, of none: %v", e1, e2)
		}
		// bob's turn: he loads and buys; ann and cy hear nothing of what.
		s.Active = 1
		bobOrders := "BUY RIG AT Borvik FOR 4\nSHIP 4 LOAD Borvik 100B"
		orders, errs := s.View("bob").Parse(engine.Prompt{ID: "turn:bob", Player: "bob", Kind: engine.KindStep}, bobOrders)
		if len(errs) > 0 {
			t.Fatalf("bob's orders: %v", errs)
		}
		events, err := s.Resolve([]engine.Answer{{Prompt: engine.Prompt{ID: "turn:bob", Player: "bob", Kind: engine.KindStep}, Orders: orders}},
			dice.FromSource(dice.Scripted{9}))
		if err != nil {
			t.Fatal(err)
		}
		sawOwn := false
		for _, e := range events {
			for _, p := range []string{"ann", "cy"} {
				if e.VisibleTo(p) {
					if w := leaks(e.Text, contractSecrets...); w != "" && p == "ann" {
						t.Errorf("event %q shows %s %q", e.Text, p, w)
					}
				}
			}
			if e.VisibleTo("bob") && strings.Contains(e.Text, "100B") {
				sawOwn = true
			}
		}
		if !sawOwn {
			t.Errorf("bob was not told of his own loading: %v", eventTexts(events))
		}
		for _, p := range []string{"ann", "cy"} {
			viewLeaks(t, s, p)
		}
		if !strings.Contains(s.View("bob").Status(), "777B 555C") {
			t.Errorf("bob does not see his own cargo:\n%s", s.View("bob").Status())
		}
	}
}

// TestNoManifestInOthersViews plays bot games and checks, at every step,
// that no player's status shows what another's cargo ship carries.
func TestNoManifestInOthersViews(t *testing.T) {
	rs := Ruleset()
	for seed := 0; seed < 6; seed++ {
		s := newGame(t, []string{"ann", "bob", "cy"}, map[string]string{"lang": []string{langEN, langRU}[seed%2]}, fmt.Sprint("secret", seed))
		r := rand.New(rand.NewPCG(uint64(seed), 1))
		for step := 0; step < 90 && !s.Done; step++ {
			p := s.Prompts()[0]
			orders, errs := s.View(p.Player).Parse(p, rs.Bot(s.View(p.Player), p, r))
			if len(errs) > 0 {
				t.Fatal(errs)
			}
			if _, err := s.Resolve([]engine.Answer{{Prompt: p, Orders: orders}}, dice.New(fmt.Sprint(seed, step))); err != nil {
				t.Fatal(err)
			}
			for _, viewer := range s.Seats {
				status := s.View(viewer).Status()
				for _, sh := range s.Ships {
					if sh.Owner == viewer || sh.Class != Cargo {
						continue
					}
					head := fmt.Sprintf("%s %d (", s.unit(sh).Name, sh.ID)
					for _, l := range strings.Split(status, "\n") {
						if strings.HasPrefix(l, head) && (strings.Contains(l, "carries") || strings.Contains(l, "везёт")) {
							t.Fatalf("seed %d step %d: %s sees %q", seed, step, viewer, l)
						}
					}
				}
			}
		}
	}
}

// TestPublicViewHidesSecrets: an observer's board and status show the map
// and what every player sees, but no cargo, no structure aboard a ship, no
// contract, no advance orders and no hidden bank (003-H1, H2, H4). Each
// seat's own view shows one of those secrets, so the test fails if
// PublicView returned any seat's view (or the GM's).
func TestPublicViewHidesSecrets(t *testing.T) {
	s := buildCase(t, secretSetup+"ship 3 ann cargo N4 333F\n")
	s.Advance = map[string][]string{"ann": {"BUILD TOWER AT E8"}}
	secrets := append(append([]string{"333F", "TOWER", "E8"}, cargoSecrets...), contractSecrets...)
	for _, p := range append([]string{""}, s.Seats...) {
		v := s.View(p)
		if w := leaks(v.Status(), secrets...); w == "" {
			t.Fatalf("%q's view shows none of the secrets, so this test proves nothing:\n%s", p, v.Status())
		}
	}
	pub := s.PublicView()
	board := pub.Board()
	board = board[:strings.Index(board, "\n\n. ")]
	if w := leaks(board+pub.Status(), secrets...); w != "" {
		t.Errorf("the public view shows %q:\n%s\n%s", w, pub.Board(), pub.Status())
	}
	if pub.Player() != engine.Observer || !strings.Contains(pub.Status(), "Cargo ship 2 (bob, cargo) at N6.") || !strings.Contains(board, "k2") {
		t.Errorf("the public view (player %q) does not show the public board:\n%s", pub.Player(), pub.Status())
	}
	if _, errs := pub.Parse(engine.Prompt{}, "LANG RU"); len(errs) == 0 {
		t.Error("an observer's orders were accepted")
	}
}

// TestContractLapseStaysSecret: when bob's contract with cy runs out of
// time, only they are told; ann's events and status show nothing of it.
func TestContractLapseStaysSecret(t *testing.T) {
	for _, lang := range []string{langEN, langRU} {
		s := buildCase(t, strings.Replace(secretSetup, "accepted", "accepted expires 2", 1)+"active cy\nlang ann "+lang+"\n")
		p := s.Prompts()[0]
		events, err := s.Resolve([]engine.Answer{{Prompt: p, Orders: engine.TextOrders{}}}, dice.FromSource(dice.Scripted{9}))
		if err != nil {
			t.Fatal(err)
		}
		if c := s.contract(1); !c.Cancelled {
			t.Fatalf("contract 1 did not lapse: %+v", c)
		}
		told := 0
		for _, e := range events {
			if e.VisibleTo("bob") && e.VisibleTo("cy") && strings.Contains(e.Text, "lapses") {
				told++
			}
			if e.VisibleTo("ann") {
				if w := leaks(e.Text, contractSecrets...); w != "" {
					t.Errorf("ann reads %q in %q", w, e.Text)
				}
			}
		}
		if told == 0 {
			t.Errorf("the parties were not told: %s", eventTexts(events))
		}
		viewLeaks(t, s, "ann")
	}
}

// TestObserversReadSplitEvents: in a game set up before messages (Msgs
// false), when players read different languages a public event is split
// into one event per language; observers must read it once (the English
// one), not lose it, and a private event stays private.
func TestObserversReadSplitEvents(t *testing.T) {
	s := buildCase(t, secretSetup)
	s.Msgs = false
	s.Lang = map[string]string{"ann": langEN, "bob": langRU, "cy": langEN}
	s.events = nil
	s.tell(nil, lang.M("Turn %d: %s rolls the catastrophe die: %d (%s).", 3, "ann", 1, "x"))
	s.tell([]string{"bob"}, lang.M("Turn %d: %s rolls the catastrophe die: %d (%s).", 4, "ann", 1, "x"))
	if len(s.events) != 3 {
		t.Fatalf("want one event per language and one private event, got %+v", s.events)
	}
	var seen []string
	for _, e := range s.events {
		if e.VisibleTo(engine.Observer) {
			seen = append(seen, e.Text)
		}
	}
	if len(seen) != 1 || !strings.HasPrefix(seen[0], "Turn 3: ann rolls") {
		t.Errorf("observers read %q; want the English public event alone", seen)
	}
	for _, p := range s.Seats {
		n := 0
		for _, e := range s.events[:2] {
			if e.VisibleTo(p) {
				n++
			}
		}
		if n != 1 {
			t.Errorf("%s reads the public event %d times", p, n)
		}
	}
}
