package prosper

import (
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"

	"orrery/engine"
	"orrery/engine/enginetest"
)

// A rule case is a txtar file under testdata/cases:
//
//	-- board --     the state before, in the case language below
//	-- orders --    orders of a player (first line: "as NAME"): NAME's pick
//	                or movement, or else NAME's anytime plan prompt; a case
//	                may have several, resolved one after the other
//	-- want --      facts about the state after (planet lines, phase, ...)
//	-- events --    substrings the events must contain, one a line;
//	                "@NAME text": an event for NAME alone contains text
//	-- errors --    "LINE: substring" the parse errors of the last orders
//	                must contain; those are then not resolved
//
// Case language (one directive a line; planets not listed keep the map's
// natives): map NAME | seats A B ... | phase colonisation|movement |
// supply NAME N | pick NAME | round N | start NAME | mover NAME |
// option NAME VALUE | plan NAME ORDER... | PLANET natives | PLANET OWNER SHIPS
// In "want" also: out NAME | winner NAME | over | planets NAME N.

func TestRuleCases(t *testing.T) {
	h := enginetest.Cases{Ruleset: Ruleset(), Sections: map[string]func(c *enginetest.Case, args []string, text string){
		"board": func(c *enginetest.Case, _ []string, text string) {
			s, err := buildCase(text)
			if err != nil {
				c.T.Fatalf("board: %v", err)
			}
			c.State = s
		},
		"orders": func(c *enginetest.Case, _ []string, text string) {
			first, text, _ := strings.Cut(text, "\n")
			who := strings.TrimPrefix(strings.TrimSpace(first), "as ")
			s := c.State.(*State)
			p, ok := casePrompt(s, who)
			if !ok {
				c.T.Fatalf("orders are %q, but nothing is asked of %s: %v", first, who, s.Prompts())
			}
			// "DEFAULT" stands for sending nothing: the prompt's default applies.
			if strings.TrimSpace(text) == "DEFAULT" {
				text = p.Default
			}
			if o, ok := c.Parse(p, text); ok {
				c.Resolve([]engine.Answer{{Prompt: p, Orders: o}})
			}
		},
		"want": func(c *enginetest.Case, _ []string, text string) {
			c.Checked()
			for _, w := range engine.OrderLines(text) {
				if msg := checkFact(c.State.(*State), w); msg != "" {
					c.T.Errorf("%s\nevents:\n%s", msg, enginetest.EventText(c.Events))
				}
			}
		},
	}}
	h.Run(t, "testdata/cases/*.txt")
}

// casePrompt is the prompt a case's orders answer: the pick or movement
// when it is who's, else who's anytime plan prompt.
func casePrompt(s *State, who string) (engine.Prompt, bool) {
	var anytime engine.Prompt
	found := false
	for _, p := range s.Prompts() {
		if p.Player != who {
			continue
		}
		if p.Kind.Blocks() {
			return p, true
		}
		anytime, found = p, true
	}
	return anytime, found
}

// buildCase makes a state from the case language.
func buildCase(text string) (*State, error) {
	s := &State{Rules: Rules{Minimum: "half", Losses: "gone", Defence: "absorb"}, Supply: map[string]int{},
		Reserve: map[string]int{}, Plans: map[string][]string{}, Phase_: phaseMove, Round: 1, Map: "hex19"}
	pick, mover, start := "", "", ""
	var planets [][]string
	for _, l := range engine.OrderLines(text) {
		f := strings.Fields(l)
		switch f[0] {
		case "map":
			s.Map = f[1]
		case "seats":
			s.Seats = f[1:]
		case "phase":
			s.Phase_ = f[1]
		case "supply":
			s.Supply[f[1]], _ = strconv.Atoi(f[2])
		case "reserve":
			s.Reserve[f[1]], _ = strconv.Atoi(f[2])
		case "pick":
			pick = f[1]
			if len(f) > 2 {
				pos, _ := strconv.Atoi(f[2])
				s.Pick = pos
				pick = ""
			}
		case "round":
			s.Round, _ = strconv.Atoi(f[1])
		case "start":
			start = f[1]
		case "mover":
			mover = f[1]
		case "out":
			s.Out = append(s.Out, f[1])
		case "plan":
			s.Plans[f[1]] = append(s.Plans[f[1]], strings.Join(f[2:], " "))
		case "option":
			switch f[1] {
			case optMinimum:
				s.Rules.Minimum = f[2]
			case optLosses:
				s.Rules.Losses = f[2]
			case optDefence:
				s.Rules.Defence = f[2]
			case optTurnLimit:
				s.Rules.TurnLimit, _ = strconv.Atoi(f[2])
			default:
				return nil, fmt.Errorf("unknown option %s", f[1])
			}
		default:
			planets = append(planets, f)
		}
	}
	sites, err := loadMap(s.Map)
	if err != nil {
		return nil, err
	}
	for _, site := range sites {
		s.Planets = append(s.Planets, Planet{Site: site})
	}
	for _, f := range planets {
		i, err := s.findPlanet(f[0])
		if err != nil {
			return nil, err
		}
		if f[1] == "natives" {
			continue
		}
		s.Planets[i].Owner = f[1]
		s.Planets[i].Ships, _ = strconv.Atoi(f[2])
	}
	seat := func(name string) int {
		for i, p := range s.Seats {
			if p == name {
				return i
			}
		}
		return -1
	}
	if pick != "" {
		s.Pick = seat(pick)
	}
	if start != "" {
		s.Start = seat(start)
	}
	if mover != "" {
		s.Mover = (seat(mover) - s.Start + len(s.Seats)) % len(s.Seats)
	}
	return s, nil
}

// checkFact checks one "want" line against s; "" means it holds.
func checkFact(s *State, w string) string {
	f := strings.Fields(w)
	switch f[0] {
	case "phase":
		if s.Phase_ != f[1] {
			return fmt.Sprintf("phase %s, want %s", s.Phase_, f[1])
		}
	case "round":
		if strconv.Itoa(s.Round) != f[1] {
			return fmt.Sprintf("round %d, want %s", s.Round, f[1])
		}
	case "mover", "pick":
		got := ""
		if s.Phase_ == phaseMove {
			got = s.mover()
		} else if s.Phase_ == phaseSettle {
			got = s.picker()
		}
		if got != f[1] {
			return fmt.Sprintf("%s is %q, want %s", f[0], got, f[1])
		}
	case "start":
		if s.Seats[s.Start] != f[1] {
			return fmt.Sprintf("round started by %s, want %s", s.Seats[s.Start], f[1])
		}
	case "supply":
		if strconv.Itoa(s.Supply[f[1]]) != f[2] {
			return fmt.Sprintf("%s has %d to place, want %s", f[1], s.Supply[f[1]], f[2])
		}
	case "plan":
		got := strings.Join(s.Plans[f[1]], "; ")
		if want := strings.Join(f[2:], " "); got != want {
			return fmt.Sprintf("%s's plan is %q, want %q", f[1], got, want)
		}
	case "out":
		if !s.out(f[1]) {
			return fmt.Sprintf("%s is not out (out: %v)", f[1], s.Out)
		}
	case "over":
		if s.Phase_ != phaseOver {
			return "the game is not over"
		}
	case "winner":
		got := append([]string(nil), s.Winner...)
		sort.Strings(got)
		if strings.Join(got, " ") != strings.Join(f[1:], " ") {
			return fmt.Sprintf("winners %v, want %v", got, f[1:])
		}
	default:
		i, err := s.findPlanet(f[0])
		if err != nil {
			return err.Error()
		}
		pl := s.Planets[i]
		if f[1] == "natives" {
			if pl.Owner != "" {
				return fmt.Sprintf("%s is held by %s with %d, want natives", pl.Name, pl.Owner, pl.Ships)
			}
			return ""
		}
		if pl.Owner != f[1] || strconv.Itoa(pl.Ships) != f[2] {
			return fmt.Sprintf("%s is %q with %d, want %s with %s", pl.Name, pl.Owner, pl.Ships, f[1], f[2])
		}
	}
	return ""
}

func TestCaseLanguageRejectsUnknownOption(t *testing.T) {
	if _, err := buildCase("option frobs 1"); err == nil {
		t.Fatal("an unknown option was accepted")
	}
	if _, err := os.Stat("testdata/cases"); err != nil {
		t.Fatal(err)
	}
}
