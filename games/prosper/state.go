package prosper

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"orrery/engine"
	"orrery/engine/dice"
	"orrery/engine/draw"
	"orrery/engine/lang"
)

const (
	phaseSettle = "colonisation"
	phaseMove   = "movement"
	phaseOver   = "over"
)

// Rules are the options that change how the rules read.
type Rules struct {
	Minimum   string `json:"minimum"`    // half | literal (004-G1)
	Losses    string `json:"losses"`     // gone | reserve (004-G2)
	Defence   string `json:"defence"`    // absorb | strict (004-G5)
	TurnLimit int    `json:"turn_limit"` // 0: none (004-F3)
}

// Planet is a site with whoever holds it. No owner means natives hold it,
// at full strength.
type Planet struct {
	Site
	Owner string `json:"owner,omitempty"`
	Ships int    `json:"ships,omitempty"`
}

// State is a game of Prosper or Perish. Everything in it is public.
type State struct {
	Rules   Rules    `json:"rules"`
	Map     string   `json:"map"`
	Seats   []string `json:"seats"` // seat order; seat 0 is player one
	Planets []Planet `json:"planets"`
	Phase_  string   `json:"phase"`
	// Colonisation: ships left to place, ships lost to natives kept for
	// the main phase (option), standing plans, and the snake position.
	Supply  map[string]int      `json:"supply"`
	Reserve map[string]int      `json:"reserve,omitempty"`
	Plans   map[string][]string `json:"plans,omitempty"`
	Pick    int                 `json:"pick"`  // position in the snake order
	Picks   int                 `json:"picks"` // picks made, for prompt ids
	// Main phase: round number, seat that starts it, how many have moved.
	Round  int      `json:"round"`
	Start  int      `json:"start"`
	Mover  int      `json:"mover"`
	Out    []string `json:"out,omitempty"` // eliminated, in order
	Winner []string `json:"winner,omitempty"`
	Result string   `json:"result,omitempty"`
	// Tells is set in games set up under rules version 3 or later, which
	// keep the Story of their last step for its picture (story.go);
	// older games replay to the states they recorded, with none.
	Tells bool        `json:"tells,omitempty"`
	Story []draw.Told `json:"story,omitempty"`

	adj [][]int // neighbours of each planet, worked out on first use
}

// Turn is the round number; 0 while settling.
func (s *State) Turn() int { return s.Round }

// Phase is colonisation, movement or over.
func (s *State) Phase() string { return s.Phase_ }

// Marshal encodes the state; encoding/json sorts map keys.
func (s *State) Marshal() ([]byte, error) { return json.Marshal(s) }

// Outcome is set once one player is left or the turn limit is reached.
func (s *State) Outcome() engine.Outcome {
	if s.Phase_ != phaseOver {
		return engine.Outcome{}
	}
	return engine.Ended(s.result(), s.Winner...)
}

// PhaseMsg is the phase as a message (engine.PhaseMessager), for the
// mail's heading in the reader's language.
func (s *State) PhaseMsg() lang.Msg {
	switch s.Phase_ {
	case phaseSettle:
		return lang.M(phaseSettle)
	case phaseMove:
		return lang.M(phaseMove)
	}
	return lang.M(phaseOver)
}

var _ engine.PhaseMessager = (*State)(nil)

// result is how the game ended, as a message: worked out again from the
// state, which keeps only its English (Result), so that the state and
// its bytes are what they were before messages. The game ends when one
// player (or nobody) is left, every other seat out, or at the turn
// limit: most planets, then most ships, win.
func (s *State) result() lang.Msg {
	if len(s.Out) >= len(s.Seats)-1 || len(s.Winner) == 0 {
		if len(s.Winner) == 1 {
			return lang.M("%s has eradicated every enemy and wins.", s.Winner[0])
		}
		return lang.M("Nobody is left.")
	}
	planets, ships := 0, 0
	for _, i := range s.owned(s.Winner[0], false) {
		planets++
		ships += s.Planets[i].Ships
	}
	return limitResult(s.Rules.TurnLimit, s.Winner, planets, ships)
}

// limitResult is the end at the turn limit of rounds: winners, with the
// planets and ships each of them has.
func limitResult(rounds int, winners []string, planets, n int) lang.Msg {
	r, p := lang.MN("%d round", "%d rounds", rounds), lang.MN("%d planet", "%d planets", planets)
	if len(winners) == 1 {
		return lang.M("the turn limit of %s is reached: %s wins with %s and %s", r, winners[0], p, ships(n))
	}
	return lang.M("the turn limit of %s is reached: %s win with %s and %s", r, andChain(winners), p, ships(n))
}

// andChain is names joined by "and" each ("ann and bob and cy"), as the
// end at the turn limit has always written them.
func andChain(names []string) lang.Arg {
	if len(names) <= 2 {
		return lang.Strings(names)
	}
	return lang.And(names[0], andChain(names[1:]))
}

// picker is the seat whose pick it is while settling.
func (s *State) picker() string {
	n := len(s.Seats)
	m := s.Pick % (2 * n)
	if m >= n {
		m = 2*n - 1 - m
	}
	return s.Seats[m]
}

// mover is the player whose movement it is in the main phase.
func (s *State) mover() string {
	return s.Seats[(s.Start+s.Mover)%len(s.Seats)]
}

func (s *State) out(p string) bool {
	for _, x := range s.Out {
		if x == p {
			return true
		}
	}
	return false
}

// planAsk is the question of the anytime plan prompt. It names no plan:
// prompts are shown to everyone who is waiting, and a plan is private.
const planAsk = "A new settling plan for your later picks: SETTLE lines replace your whole plan; PLAN NONE clears it."

// Prompts asks the picker or the mover, one at a time (004-S). While
// settling, every other player with ships left to place may also send a
// new plan at any time (the plan prompt, which never blocks): by mail
// picks take days, and others' picks can spoil a plan made long before.
// The pick prompt comes first.
func (s *State) Prompts() []engine.Prompt {
	switch s.Phase_ {
	case phaseSettle:
		p := s.picker()
		pick := engine.Prompt{ID: fmt.Sprintf("settle:%d", s.Picks+1), Player: p, Kind: engine.KindStep, Default: s.defaultSettle(p)}
		pick.SetAsk(lang.M("Settle a planet: you have %s left to place (SETTLE <planet> <ships>; more lines make a plan for your later picks).", ships(s.Supply[p])))
		out := []engine.Prompt{pick}
		for _, q := range s.Seats {
			if q != p && s.Supply[q] > 0 {
				// Default "": nothing sent changes nothing.
				plan := engine.Prompt{ID: "plan:" + q, Player: q, Kind: engine.KindAnytime}
				plan.SetAsk(lang.M(planAsk))
				out = append(out, plan)
			}
		}
		return out
	case phaseMove:
		p := s.mover()
		move := engine.Prompt{ID: fmt.Sprintf("move:%d:%s", s.Round, p), Player: p, Kind: engine.KindStep, Default: "DONE"}
		move.SetAsk(lang.M("Round %d: your movement, up to 3 MOVE <ships> FROM <planet> TO <planet> (or DONE).", s.Round))
		return []engine.Prompt{move}
	}
	return nil
}

// defaultSettle is what a picker who sends nothing settles: the planet
// that gives the most production for the ships left, with all of them.
func (s *State) defaultSettle(p string) string {
	best, bestN := -1, 0
	for i, pl := range s.Planets {
		// All that is left, as far as the planet's room allows: room on a
		// planet of one's own counts the ships already there.
		n := min(s.Supply[p], pl.Size.Limit()-pl.Ships+s.settleCost(i, p))
		if s.checkSettle(p, i, n) != nil {
			continue
		}
		if best < 0 || pl.Size.Production() > s.Planets[best].Size.Production() {
			best, bestN = i, n
		}
	}
	if best < 0 {
		return ""
	}
	return fmt.Sprintf("SETTLE %s %d", s.Planets[best].Name, bestN)
}

// settleCost is what natives take from a settler: half their strength on
// a free planet, nothing on one's own (004-B2).
func (s *State) settleCost(i int, p string) int {
	if s.Planets[i].Owner == p {
		return 0
	}
	return s.Planets[i].Size.Natives() / 2
}

// minSettle is the least a settler must bring to a free planet (004-G1).
func (s *State) minSettle(i int) int {
	n := s.Planets[i].Size.Natives()
	if s.Rules.Minimum == "literal" {
		return n + 1
	}
	return n/2 + 1
}

// checkSettle says why player p cannot settle n ships on planet i now.
func (s *State) checkSettle(p string, i, n int) error {
	pl := s.Planets[i]
	switch {
	case n < 1:
		return refuse(lang.Msg{}, lang.M("settle at least 1 ship"))
	case n > s.Supply[p]:
		return refuse(lang.Msg{}, lang.M("you have only %s left to place", ships(s.Supply[p])))
	case pl.Owner != "" && pl.Owner != p:
		return refuse(lang.Msg{}, lang.M("%s is settled by %s already, and settling cannot attack", pl.Name, pl.Owner))
	case pl.Owner == "" && n < s.minSettle(i):
		return refuse(lang.Msg{}, lang.M("%s planet needs at least %s (natives take %d and one must stay)", pl.Size.MsgA(), ships(s.minSettle(i)), s.settleCost(i, p)))
	case pl.Ships+n-s.settleCost(i, p) > pl.Size.Limit():
		return refuse(lang.Msg{}, lang.M("%s holds at most %s: %d would be there", pl.Name, ships(pl.Size.Limit()), pl.Ships+n-s.settleCost(i, p)))
	}
	return nil
}

func (s *State) canSettle(p string) bool {
	if s.Supply[p] <= 0 {
		return false
	}
	for i := range s.Planets {
		if s.checkSettle(p, i, s.minSettle(i)) == nil || s.checkSettle(p, i, 1) == nil {
			return true
		}
	}
	return false
}

// settle applies one pick.
func (s *State) settle(p string, i, n int) []engine.Event {
	pl := &s.Planets[i]
	cost := s.settleCost(i, p)
	s.Supply[p] -= n
	fresh := pl.Owner == ""
	pl.Owner = p
	pl.Ships += n - cost
	s.Picks++
	s.tell(draw.Built, -1, i, p)
	var m lang.Msg
	if fresh {
		m = lang.MN("%s settles %s (%s) with %s: the natives take %d, %d remains.", "%s settles %s (%s) with %s: the natives take %d, %d remain.",
			p, pl.Name, pl.Size.Msg(), ships(n), cost, pl.Ships)
		m.Count = 6 // the ships that remain choose the verb
		if cost > 0 && s.Rules.Losses == "reserve" {
			s.Reserve[p] += cost
			m = then(m, lang.M("The %d lost return at the main phase.", cost))
		}
	} else {
		m = lang.M("%s adds %s to %s: %d there.", p, ships(n), pl.Name, pl.Ships)
	}
	return []engine.Event{engine.Tell(m).Concerning(p)}
}

// nextPicker moves the snake on to the next player who can place ships,
// playing their standing plans as it goes, and starts the main phase when
// nobody can place any more.
func (s *State) nextPicker() []engine.Event {
	var events []engine.Event
	n := len(s.Seats)
	for {
		events = append(events, s.dropSpoiled()...)
		// Ships that cannot be placed anywhere are lost (004-G4).
		for _, p := range s.Seats {
			if s.Supply[p] > 0 && !s.canSettle(p) {
				events = append(events, engine.Tell(lang.M("%s cannot place the %s left anywhere: they are lost.", p, ships(s.Supply[p]))).Concerning(p))
				s.Supply[p] = 0
				delete(s.Plans, p)
			}
		}
		left := 0
		for _, p := range s.Seats {
			left += s.Supply[p]
		}
		if left == 0 {
			return append(events, s.startMain()...)
		}
		for i := 0; i < 2*n; i++ {
			s.Pick++
			if s.Supply[s.picker()] > 0 {
				break
			}
		}
		p := s.picker()
		ev, played := s.playPlan(p)
		events = append(events, ev...)
		if !played {
			return events
		}
	}
}

// planEmpty ends the event of a spoiled line that leaves a plan empty.
const planEmpty = "Your plan is now empty: your next pick waits for your mail."

// ships is a count of ships, as a message: "3 ships".
func ships(n int) lang.Msg { return lang.MN("%d ship", "%d ships", n) }

// dropSpoiled drops every plan line that can no longer be played (each
// of its alternatives is impossible now: another player took the planet,
// it is full, too few ships are left), and tells the plan's writer, alone,
// in the report of the step that spoiled it, which line went and why. In
// colonisation nothing makes a line possible again (planets only fill,
// supplies only shrink), so dropping it now changes no pick: it only
// keeps the player's status true and tells them while they can still
// send a new plan.
func (s *State) dropSpoiled() []engine.Event {
	var events []engine.Event
	for _, p := range s.Seats {
		plan := s.Plans[p]
		if len(plan) == 0 {
			continue
		}
		var keep []string
		for _, line := range plan {
			o, errs := parseLine(line, s)
			if len(errs) > 0 || o.kind != "settle" {
				keep = append(keep, line)
				continue
			}
			var why []lang.Msg
			for _, a := range o.alts {
				if err := s.checkSettle(p, a.planet, a.ships); err != nil {
					why = append(why, whyOf(err))
				} else {
					why = nil
					break
				}
			}
			if len(why) == 0 {
				keep = append(keep, line)
				continue
			}
			m := lang.M("Your settling plan's line %s can no longer be played, so it is dropped: %s.", line, reasons(why))
			if len(keep) == 0 && line == plan[len(plan)-1] {
				m = then(m, lang.M(planEmpty))
			}
			events = append(events, engine.Tell(m, p))
		}
		if len(keep) == 0 {
			delete(s.Plans, p)
		} else {
			s.Plans[p] = keep
		}
	}
	return events
}

// playPlan makes player p's pick from their standing plan, if a line of it
// is possible now. Lines passed over as impossible are dropped.
func (s *State) playPlan(p string) ([]engine.Event, bool) {
	plan := s.Plans[p]
	for k, line := range plan {
		o, errs := parseLine(line, s)
		if len(errs) > 0 || o.kind != "settle" {
			continue
		}
		for _, a := range o.alts {
			if s.checkSettle(p, a.planet, a.ships) == nil {
				rest := plan[k+1:]
				if len(rest) == 0 {
					delete(s.Plans, p)
				} else {
					s.Plans[p] = rest
				}
				ev := s.settle(p, a.planet, a.ships)
				ev[0] = engine.Tell(then(*ev[0].Msg, lang.M("(from %s's plan)", p)), ev[0].To...).Concerning(ev[0].About...)
				return ev, true
			}
		}
	}
	delete(s.Plans, p)
	return nil, false
}

// startMain ends colonisation: reserves are placed (option 004-G2), players
// with no planet are out, and round 1 starts with player one (004-G13).
func (s *State) startMain() []engine.Event {
	var events []engine.Event
	s.Plans = map[string][]string{}
	if s.Rules.Losses == "reserve" {
		for _, p := range s.Seats {
			r := s.Reserve[p]
			if r == 0 {
				continue
			}
			placed := 0
			for _, i := range s.owned(p, true) {
				room := s.Planets[i].Size.Limit() - s.Planets[i].Ships
				add := min(room, r-placed)
				s.Planets[i].Ships += add
				placed += add
			}
			events = append(events, engine.Tell(lang.M("%s's reserve of %s returns: %d placed on their largest planets, %d lost for lack of room.", p, ships(r), placed, r-placed)).Concerning(p))
		}
		s.Reserve = map[string]int{}
	}
	s.Phase_, s.Round, s.Start, s.Mover = phaseMove, 1, 0, 0
	events = append(events, engine.Tell(lang.M("Colonisation is over.")))
	events = append(events, s.eliminate()...)
	if s.Phase_ == phaseMove {
		// Player one starts, unless they settled nothing and are out.
		s.Start = s.inFrom(0)
		events = append(events, engine.Tell(lang.M("Round %d begins with %s.", 1, s.mover())))
	}
	return events
}

// inFrom is the first seat from seat i on, going left round the table,
// that is still in the game. An eliminated seat is an empty chair: it
// neither starts a round nor takes a turn (004-G13, 004-G14). Call it only
// while at least one seat is in.
func (s *State) inFrom(i int) int {
	n := len(s.Seats)
	for k := 0; k < n; k++ {
		if j := (i + k) % n; !s.out(s.Seats[j]) {
			return j
		}
	}
	return i % n
}

// owned lists p's planets, largest first when bySize, else in map order.
func (s *State) owned(p string, bySize bool) []int {
	var out []int
	for i, pl := range s.Planets {
		if pl.Owner == p {
			out = append(out, i)
		}
	}
	if bySize {
		sort.SliceStable(out, func(a, b int) bool {
			return s.Planets[out[a]].Size.Production() > s.Planets[out[b]].Size.Production()
		})
	}
	return out
}

// eliminate marks players with no planet as out (004-G14) and ends the
// game when one is left.
func (s *State) eliminate() []engine.Event {
	var events []engine.Event
	var alive []string
	for _, p := range s.Seats {
		if s.out(p) {
			continue
		}
		if len(s.owned(p, false)) == 0 {
			s.Out = append(s.Out, p)
			events = append(events, engine.Tell(lang.M("%s has no planet left and is out of the game.", p)).Concerning(p))
			continue
		}
		alive = append(alive, p)
	}
	if len(alive) <= 1 {
		s.Phase_ = phaseOver
		s.Winner = alive
		result := s.result()
		s.Result = result.English()
		events = append(events, engine.Tell(lang.M("Game over: %s", result)))
	}
	return events
}

// skipOut moves past eliminated players to the next mover, running the
// production phase and the next round as needed.
func (s *State) skipOut() []engine.Event {
	var events []engine.Event
	for s.Phase_ == phaseMove {
		if s.Mover >= len(s.Seats) {
			events = append(events, s.produce()...)
			if s.Phase_ != phaseMove {
				return events
			}
			continue
		}
		if !s.out(s.mover()) {
			return events
		}
		s.Mover++
	}
	return events
}

// produce is the production phase (004-G12), then the next round with the
// start passing to the next seat (004-G13), or the end at the turn limit.
func (s *State) produce() []engine.Event {
	var parts []string
	for _, p := range s.Seats {
		if s.out(p) {
			continue
		}
		total := 0
		for _, i := range s.owned(p, false) {
			pl := &s.Planets[i]
			add := min(pl.Size.Production(), pl.Size.Limit()-pl.Ships)
			if add > 0 && pl.Ships > 0 {
				pl.Ships += add
				total += add
			}
		}
		parts = append(parts, fmt.Sprintf("%s +%d", p, total))
	}
	events := []engine.Event{engine.Tell(lang.M("Production of round %d: %s.", s.Round, strings.Join(parts, ", ")))}
	if s.Rules.TurnLimit > 0 && s.Round >= s.Rules.TurnLimit {
		return append(events, s.endByLimit())
	}
	s.Round++
	// The start passes to the person to the left of the current starting
	// player; eliminated seats are passed over (004-G13).
	s.Start = s.inFrom(s.Start + 1)
	s.Mover = 0
	events = append(events, engine.Tell(lang.M("Round %d begins with %s.", s.Round, s.mover())))
	return events
}

// endByLimit ends the game at the turn limit: most planets, then most ships.
func (s *State) endByLimit() engine.Event {
	type score struct {
		p              string
		planets, ships int
	}
	var scores []score
	for _, p := range s.Seats {
		sc := score{p: p}
		for _, i := range s.owned(p, false) {
			sc.planets++
			sc.ships += s.Planets[i].Ships
		}
		scores = append(scores, sc)
	}
	sort.SliceStable(scores, func(a, b int) bool {
		if scores[a].planets != scores[b].planets {
			return scores[a].planets > scores[b].planets
		}
		return scores[a].ships > scores[b].ships
	})
	s.Phase_ = phaseOver
	best := scores[0]
	for _, sc := range scores {
		if sc.planets == best.planets && sc.ships == best.ships {
			s.Winner = append(s.Winner, sc.p)
		}
	}
	result := limitResult(s.Rules.TurnLimit, s.Winner, best.planets, best.ships)
	s.Result = result.English()
	return engine.Tell(lang.M("Game over: %s.", result))
}

// Resolve applies the one answer a step has: a pick or a movement.
func (s *State) Resolve(answers []engine.Answer, _ *dice.Dice) ([]engine.Event, error) {
	if len(answers) != 1 {
		return nil, fmt.Errorf("prosper resolves one answer at a time, got %d", len(answers))
	}
	a := answers[0]
	want := s.Prompts()
	if a.Prompt.Kind == engine.KindAnytime {
		return s.resolvePlan(a, want)
	}
	if len(want) == 0 || want[0].ID != a.Prompt.ID {
		return nil, fmt.Errorf("answer to %q, but %v is asked", a.Prompt.ID, want)
	}
	p := a.Prompt.Player
	orders, errs := parseAll(strings.Join(a.Orders.Lines(), "\n"), s, p, s.Phase_)
	if len(errs) > 0 {
		return nil, fmt.Errorf("orders of %s do not apply: %v", p, errs[0])
	}
	s.Story = nil
	var events []engine.Event
	switch s.Phase_ {
	case phaseSettle:
		if len(orders) == 0 {
			// Nothing possible was sent: the supply is lost (004-G4).
			events = append(events, engine.Tell(lang.M("%s places nothing; the %s left are lost.", p, ships(s.Supply[p]))).Concerning(p))
			s.Supply[p] = 0
			return append(events, s.nextPicker()...), nil
		}
		first := orders[0]
		applied := false
		for _, alt := range first.alts {
			if s.checkSettle(p, alt.planet, alt.ships) == nil {
				events = append(events, s.settle(p, alt.planet, alt.ships)...)
				applied = true
				break
			}
		}
		if !applied {
			return nil, fmt.Errorf("no alternative of %q is possible", first.text())
		}
		var plan []string
		for _, o := range orders[1:] {
			if o.kind == "settle" { // PLAN NONE: the plan stays empty
				plan = append(plan, o.text())
			}
		}
		if len(plan) > 0 {
			s.Plans[p] = plan
		} else {
			delete(s.Plans, p)
		}
		events = append(events, s.nextPicker()...)
	case phaseMove:
		for _, o := range orders {
			ev, err := s.move(p, o.ships, o.from, o.to)
			if err != nil {
				return nil, err
			}
			events = append(events, ev...)
		}
		if len(orders) == 0 {
			events = append(events, engine.Tell(lang.M("%s makes no movement.", p)))
		}
		events = append(events, s.eliminate()...)
		if s.Phase_ == phaseMove {
			s.Mover++
			events = append(events, s.skipOut()...)
		}
	default:
		return nil, fmt.Errorf("the game is over")
	}
	return events, nil
}

// resolvePlan applies an answer to a plan prompt: its SETTLE lines replace
// the player's whole plan, PLAN NONE clears it, and nothing sent keeps it.
// The game does not move on; only the writer is told, as plans are
// private.
func (s *State) resolvePlan(a engine.Answer, open []engine.Prompt) ([]engine.Event, error) {
	p := a.Prompt.Player
	asked := false
	for _, q := range open {
		if q.ID == a.Prompt.ID && q.Player == p && q.Kind == engine.KindAnytime {
			asked = true
		}
	}
	if !asked {
		return nil, fmt.Errorf("answer to %q, but %s is not asked for a plan now", a.Prompt.ID, p)
	}
	orders, errs := parseAll(strings.Join(a.Orders.Lines(), "\n"), s, p, modePlan)
	if len(errs) > 0 {
		return nil, fmt.Errorf("the plan of %s does not apply: %v", p, errs[0])
	}
	var plan []string
	cleared := false
	for _, o := range orders {
		if o.kind == "clear" {
			cleared = true
			continue
		}
		plan = append(plan, o.text())
	}
	var m lang.Msg
	switch {
	case len(plan) > 0:
		s.Plans[p] = plan
		m = lang.M("Your settling plan is now: %s.", strings.Join(plan, "; "))
	case cleared:
		delete(s.Plans, p)
		m = lang.M("Your settling plan is cleared: your next pick waits for your mail.")
	case len(s.Plans[p]) > 0:
		m = lang.M("Your settling plan is unchanged: %s.", strings.Join(s.Plans[p], "; "))
	default:
		m = lang.M("You have no settling plan: your next pick waits for your mail.")
	}
	return []engine.Event{engine.Tell(m, p)}, nil
}
