// Package toy is a minimal ruleset for testing the engine without any real
// game: each turn every player says how many steps to push (1–3) at once,
// a d6 is added to each push, and the first past the finish line wins. Each
// player also has an anytime prompt for a standing motto, so the engine's
// non-blocking prompts are exercised.
package toy

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"orrery/engine"
	"orrery/engine/dice"
)

// Ruleset returns the toy ruleset.
func Ruleset() engine.Ruleset { return ruleset{} }

type ruleset struct{}

func (ruleset) Info() engine.Info {
	return engine.Info{Name: "toy", Title: "Toy Race", MinPlayers: 1, MaxPlayers: 8, Version: 1,
		Options:   []engine.Option{{Name: "finish", Default: "30", Help: "distance to win"}},
		OrderHelp: "PUSH <1-3>     push forward 1 to 3 (plus a d6)\nMOTTO <text>   (any time) set your motto"}
}

// State is the toy's state.
type State struct {
	Players []string          `json:"players"`
	Pos     map[string]int    `json:"pos"`
	Motto   map[string]string `json:"motto"`
	Finish  int               `json:"finish"`
	TurnN   int               `json:"turn"`
	Winner  string            `json:"winner,omitempty"`
}

func (ruleset) NewState(s engine.Setup, d *dice.Dice) (engine.State, error) {
	f, err := strconv.Atoi(s.Options["finish"])
	if err != nil || f < 1 {
		return nil, fmt.Errorf("option finish must be a positive number, not %q", s.Options["finish"])
	}
	st := &State{Players: append([]string(nil), s.Players...), Pos: map[string]int{}, Motto: map[string]string{}, Finish: f, TurnN: 1}
	d.Shuffle(len(st.Players), "seat order", func(i, j int) { st.Players[i], st.Players[j] = st.Players[j], st.Players[i] })
	for _, p := range st.Players {
		st.Pos[p] = 0
	}
	return st, nil
}

func (ruleset) LoadState(data []byte) (engine.State, error) {
	var st State
	if err := json.Unmarshal(data, &st); err != nil {
		return nil, err
	}
	return &st, nil
}

func (ruleset) Bot(v engine.View, p engine.Prompt, r *rand.Rand) string {
	if p.Kind == engine.KindAnytime {
		return "MOTTO onward"
	}
	return fmt.Sprintf("PUSH %d", 1+r.IntN(3))
}

func (s *State) Turn() int     { return s.TurnN }
func (s *State) Phase() string { return "race" }
func (s *State) Prompts() []engine.Prompt {
	if s.Winner != "" {
		return nil
	}
	var out []engine.Prompt
	for _, p := range s.Players {
		out = append(out, engine.Prompt{ID: "push:" + p, Player: p, Kind: engine.KindTurn, Ask: "How far do you push?", Default: "PUSH 1"})
		out = append(out, engine.Prompt{ID: "motto:" + p, Player: p, Kind: engine.KindAnytime, Ask: "Your motto, any time."})
	}
	return out
}
func (s *State) View(player string) engine.View { return view{s: s, player: player} }

// PublicView is the observers' view: the track, and no motto (mottos are
// private to their writer).
func (s *State) PublicView() engine.View { return view{s: s, player: publicSeat} }

// publicSeat is the observers' view's player: no seat, so no motto and no orders.
const publicSeat = "\x00public"

func (s *State) Outcome() engine.Outcome {
	if s.Winner == "" {
		return engine.Outcome{}
	}
	return engine.Outcome{Over: true, Winners: []string{s.Winner}, Text: s.Winner + " crossed the line"}
}
func (s *State) Marshal() ([]byte, error) { return json.Marshal(s) }

func (s *State) Resolve(answers []engine.Answer, d *dice.Dice) ([]engine.Event, error) {
	var events []engine.Event
	pushed := false
	for _, a := range answers {
		for _, line := range a.Orders.Lines() {
			verb, arg, _ := strings.Cut(line, " ")
			switch verb {
			case "MOTTO":
				s.Motto[a.Prompt.Player] = arg
				events = append(events, engine.Event{Text: a.Prompt.Player + " has a new motto", To: []string{a.Prompt.Player}})
			case "PUSH":
				n, _ := strconv.Atoi(arg)
				roll := d.Roll(6, a.Prompt.Player+" pushes")
				s.Pos[a.Prompt.Player] += n + roll
				pushed = true
				events = append(events, engine.Event{Text: fmt.Sprintf("%s pushes %d+%d to %d", a.Prompt.Player, n, roll, s.Pos[a.Prompt.Player])})
			}
		}
	}
	if !pushed {
		return events, nil
	}
	best := 0
	for _, p := range s.Players {
		if s.Pos[p] >= s.Finish && s.Pos[p] > best {
			best, s.Winner = s.Pos[p], p
		}
	}
	if s.Winner == "" { // the race ends in the turn it is won
		s.TurnN++
	}
	return events, nil
}

type view struct {
	s      *State
	player string
}

func (v view) Player() string {
	if v.player == publicSeat {
		return engine.Observer
	}
	return v.player
}
func (v view) Board() string {
	var b strings.Builder
	for _, p := range v.s.Players {
		fmt.Fprintf(&b, "%-8s %s*\n", p, strings.Repeat("-", v.s.Pos[p]))
	}
	return b.String()
}
func (v view) Status() string {
	var b strings.Builder
	for _, p := range v.s.Players {
		m := ""
		if p == v.player || v.player == "" {
			m = v.s.Motto[p]
		}
		fmt.Fprintf(&b, "%s: %d %s\n", p, v.s.Pos[p], m)
	}
	return b.String()
}
func (v view) Parse(p engine.Prompt, text string) (engine.Orders, []engine.LineError) {
	if v.player == publicSeat {
		return nil, []engine.LineError{{Msg: "observers send no orders", Fix: "ask the GM for a seat"}}
	}
	var out engine.TextOrders
	var errs []engine.LineError
	for i, raw := range strings.Split(text, "\n") {
		line := strings.TrimSpace(raw)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		verb, arg, _ := strings.Cut(line, " ")
		verb = strings.ToUpper(verb)
		arg = strings.TrimSpace(arg)
		switch {
		case verb == "PUSH" && p.Kind == engine.KindTurn:
			n, err := strconv.Atoi(arg)
			if err != nil || n < 1 || n > 3 {
				errs = append(errs, engine.LineError{Line: i + 1, Text: line, Msg: "PUSH takes a number from 1 to 3", Fix: "write e.g. PUSH 2"})
				continue
			}
			if len(out) > 0 {
				errs = append(errs, engine.LineError{Line: i + 1, Text: line, Msg: "only one PUSH a turn"})
				continue
			}
			out = append(out, fmt.Sprintf("PUSH %d", n))
		case verb == "MOTTO" && p.Kind == engine.KindAnytime:
			out = append(out, "MOTTO "+arg)
		default:
			errs = append(errs, engine.LineError{Line: i + 1, Text: line, Msg: fmt.Sprintf("%q is not an order here", verb), Fix: "write PUSH <1-3>, or MOTTO <text> at any time"})
		}
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return out, nil
}
