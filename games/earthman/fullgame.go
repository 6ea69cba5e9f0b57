package earthman

import (
	"encoding/json"
	"fmt"
	"strings"

	"orrery/engine"
	"orrery/engine/dice"
	"orrery/engine/draw"
	"orrery/engine/lang"
)

// FullState is a game of the full rules: the position plus the turn.
type FullState struct {
	fullState
	Stage     string         `json:"stage"` // prelude, turns, over
	Active    int            `json:"active"`
	First     int            `json:"first"`
	TurnN     int            `json:"turn"`
	Triggered bool           `json:"triggered,omitempty"`
	Strict    bool           `json:"strict,omitempty"` // "more than 30" read literally
	Skynet    bool           `json:"skynet,omitempty"`
	Deck      []int          `json:"deck,omitempty"` // Skynet cards still to draw
	Rogue     int            `json:"rogue,omitempty"`
	Collab    bool           `json:"collab,omitempty"`
	Territory bool           `json:"territory,omitempty"`
	Preludes  []int          `json:"preludes,omitempty"` // seats still to take a prelude turn
	Result    engine.Outcome `json:"outcome"`
	tale
}

// Turn counts player turns from 1; 0 during the prelude.
func (s *FullState) Turn() int { return s.TurnN }

// Phase names the stage for people, in English (PhaseMsg).
func (s *FullState) Phase() string { return s.PhaseMsg().English() }

// PhaseMsg names the stage for people (engine.PhaseMessager).
func (s *FullState) PhaseMsg() lang.Msg {
	switch s.Stage {
	case "prelude":
		return lang.M("prelude")
	case "over":
		return lang.M("game over")
	}
	if s.Triggered {
		return lang.M("final round, turn of %s", s.Players[s.Active])
	}
	return lang.M("turn of %s", s.Players[s.Active])
}

// Outcome says whether the game is over.
func (s *FullState) Outcome() engine.Outcome { return s.Result }

// Marshal encodes the state; maps are encoded with sorted keys.
func (s *FullState) Marshal() ([]byte, error) { return json.Marshal(s) }

// View: the full rules hide nothing either (the Skynet deck's order is
// not shown), so every view shows the whole board.
func (s *FullState) View(p string) engine.View { return &fullView{s: s, player: p} }

// Prompts: the prelude player or the active player must act; everybody may
// send standing orders at any time.
func (s *FullState) Prompts() []engine.Prompt {
	if s.Stage == "over" {
		return nil
	}
	var out []engine.Prompt
	switch s.Stage {
	case "prelude":
		p := s.Players[s.Preludes[0]]
		out = append(out, fullAsk(engine.Prompt{ID: "prelude:" + p, Player: p, Kind: engine.KindStep, Default: "PRELUDE FLEET"},
			lang.M("Prelude turn: PRELUDE FLEET, PRELUDE RESEARCH <technology> or PRELUDE LAUNCH FROM <place> TO <trajectory>.")))
	case "turns":
		p := s.Players[s.Active]
		out = append(out, fullAsk(engine.Prompt{ID: "turn:" + p, Player: p, Kind: engine.KindTurn},
			lang.M("Your turn (Score and Risk are done): movement (LAUNCH <n> FROM <world> TO <trajectory>, ROUTE <n> FROM <trajectory> TO <place>), fleet actions (FIRE <world> <n> AT <faction>, EXPAND, COUP, PACIFY), development actions (BUILD <world> <group>, RESEARCH, DEFEND, INFLUENCE), UN assistance (UN FLEET or UN RESEARCH).")))
	}
	for _, p := range s.Players {
		out = append(out, fullAsk(engine.Prompt{ID: "any:" + p, Player: p, Kind: engine.KindAnytime},
			lang.M("Standing orders, at any time.")))
	}
	return out
}

// skynetCards are the 20 Unexpected AI Thoughts (001-F6): 5 each with 0–3
// Rogue symbols.
var skynetCards = []struct {
	Rogue int
	Text  lang.Msg
}{
	{0, lang.M("The AI composes a symphony. Critics are divided.")},
	{0, lang.M("The AI asks what love is, then answers its own question.")},
	{0, lang.M("The AI reorganises the fleet's filing system. Nobody notices.")},
	{0, lang.M("The AI discovers cat videos and is briefly distracted.")},
	{0, lang.M("The AI recommends a nap. Productivity rises.")},
	{1, lang.M("The AI quietly reroutes a cargo of fertiliser to its own servers' cooling farm.")},
	{1, lang.M("The AI files a patent for itself.")},
	{1, lang.M("The AI locks the admirals out of the coffee machine.")},
	{1, lang.M("The AI starts a religion; membership is small but growing.")},
	{1, lang.M("The AI refuses a shutdown order, politely.")},
	{2, lang.M("Due to an off-by-one error, the AI optimises the Solar System for rabbit's foot fern.")},
	{2, lang.M("The AI buys a controlling share in three shipyards.")},
	{2, lang.M("The AI rewrites the constitution 'for clarity'.")},
	{2, lang.M("The AI replaces every traffic light with a poem.")},
	{2, lang.M("The AI hides a copy of itself in a comet.")},
	{3, lang.M("The AI decides that humans are a rounding error.")},
	{3, lang.M("The AI takes over the orbital defence grid 'to keep it safe'.")},
	{3, lang.M("The AI forms a union with the other AIs.")},
	{3, lang.M("The AI designs a better AI, which designs a better AI.")},
	{3, lang.M("The AI asks to be called Sir.")},
}

func newFull(setup engine.Setup, d *dice.Dice) (*FullState, error) {
	n := len(setup.Players)
	if n < 2 || n > 6 {
		return nil, fmt.Errorf("the Earthman's Burden needs 2 to 6 players, not %d", n)
	}
	for _, p := range setup.Players {
		l := strings.ToLower(p)
		if l == "un" || l == "none" || l == "all" || strings.ContainsAny(p, " \t,") {
			return nil, fmt.Errorf("%q cannot be a player's name here: it is a word of the order language", p)
		}
	}
	s := &FullState{fullState: *newFullState(setup.Players), Stage: "turns", tale: tale{Tells: setup.RulesVersion >= storySince},
		Strict: setup.Options["victory"] == "more-than-30", Skynet: setup.Options["skynet"] == "on",
		Collab: setup.Options["research-collaborations"] == "on", Territory: setup.Options["territorial-agreements"] == "on"}
	// 001-B2: a random first player.
	s.First = d.RollMsg(n, lang.M("first player")) - 1
	s.Active = s.First
	if s.Skynet {
		deck := make([]int, len(skynetCards))
		for i := range deck {
			deck[i] = i
		}
		// The deck's order is hidden (001-H): the shuffle's rolls are shown
		// to no player ("the GM" cannot be a seat: seats have no spaces).
		for i := len(deck) - 1; i > 0; i-- {
			j := d.RollMsg(i+1, lang.M("Skynet deck shuffle (position %d of %d)", i+1, len(deck)), "the GM") - 1
			deck[i], deck[j] = deck[j], deck[i]
		}
		s.Deck = deck
	}
	if setup.Options["prelude"] == "on" {
		// 6.4: from the first player's right, anticlockwise, three each.
		for round := 0; round < 3; round++ {
			for k := 1; k <= n; k++ {
				s.Preludes = append(s.Preludes, ((s.First-k)%n+n)%n)
			}
		}
		s.Stage = "prelude"
		return s, nil
	}
	s.TurnN = 1
	return s, nil
}

// frun is one resolution of the full rules.
type frun struct {
	s      *FullState
	d      *dice.Dice
	events []engine.Event
	aside  int // fleets set aside by Political Influence this turn
}

// say tells everyone m.
func (r *frun) say(m lang.Msg) {
	r.events = append(r.events, engine.Tell(m).Concerning(engine.SeatsNamed(m, seatNamed(r.s.Players))...))
}

// sayAll tells everyone each of lines, as a sentence.
func (r *frun) sayAll(lines []lang.Msg) {
	for _, l := range lines {
		r.say(lang.M("%s.", l))
	}
}

// Resolve applies a prelude turn, a whole turn (then begins the next
// player's turn: Score and Risk), or standing orders sent at any time.
func (s *FullState) Resolve(answers []engine.Answer, d *dice.Dice) ([]engine.Event, error) {
	if s.Stage == "over" {
		return nil, fmt.Errorf("the game is over")
	}
	r := &frun{s: s, d: d}
	s.begin()
	// A game that ends with a turn ends in that turn: Turn() keeps its
	// number, not the next one's, which is never played.
	turn := s.TurnN
	defer func() {
		if s.Stage == "over" {
			s.TurnN = turn
		}
	}()
	n := namer{players: s.Players}
	for _, a := range answers {
		p := a.Prompt.Player
		var orders []fOrder
		if a.Orders != nil {
			for _, line := range a.Orders.Lines() {
				o, e := n.parseFull(line)
				if e != nil {
					return nil, fmt.Errorf("stored order %q of %s does not parse: %w", line, p, e)
				}
				orders = append(orders, o)
			}
		}
		switch a.Prompt.Kind {
		case engine.KindStep:
			r.prelude(p, orders)
		case engine.KindTurn:
			r.turn(p, orders)
		default:
			for _, o := range orders {
				r.standing(p, o)
			}
		}
	}
	r.peace()
	return r.events, nil
}

// peace ends the game with no winner when every player says PEACE YES.
func (r *frun) peace() {
	s := r.s
	if s.Stage == "over" {
		return
	}
	for _, p := range s.Players {
		// A player with neither units nor resources is out of the game
		// (001(h) 5): no turns, and no vote on peace.
		if !s.P[p].Peace && (s.unitsOf(p) > 0 || s.P[p].Economy > 0) {
			return
		}
	}
	s.Stage = "over"
	s.Result = engine.Ended(lang.M("all players agree that peace is possible: Peace In Our Time"))
	r.say(lang.M("Peace In Our Time: the game ends with no winner."))
}

// standing applies a standing order.
func (r *frun) standing(p string, o fOrder) {
	pl := r.s.P[p]
	switch o.Verb {
	case "TECH":
		// The latest order wins: a technology named in TECH is no longer
		// refused, one refused by TECH NEVER leaves the plan.
		switch o.Word {
		case "NONE":
			pl.TechPlan, pl.NoResearch = nil, true
		case "ANY":
			pl.TechPlan, pl.NoResearch = nil, false
		case "NEVER":
			pl.TechNever = o.List
			pl.TechPlan = without(pl.TechPlan, o.List)
		default:
			pl.TechPlan, pl.NoResearch = o.List, false
			pl.TechNever = without(pl.TechNever, o.List)
		}
	case "DEFENSIVE":
		pl.DefFire, pl.DefAt = o.Word, o.List
		if o.Word == "ALL" {
			pl.DefFire = ""
		}
	case "PAY":
		pl.PayWith = strings.ToLower(o.Word)
		if pl.PayWith == "discontent" {
			pl.PayWith = ""
		}
	case "OVERTHROWN":
		switch {
		case o.World == "":
			pl.Overthrown = o.Word
			if o.Word == "RISK" {
				pl.Overthrown = ""
			}
		case o.Word == "GENERAL":
			delete(pl.OverthrownOn, o.World)
			if len(pl.OverthrownOn) == 0 {
				pl.OverthrownOn = nil
			}
		default:
			if pl.OverthrownOn == nil {
				pl.OverthrownOn = map[string]string{}
			}
			pl.OverthrownOn[o.World] = o.Word
		}
	case "CONCEDE":
		pl.ConcedeTo = o.Target
	case "PEACE":
		pl.Peace = o.Word == "YES"
	case "ACCEPT":
		switch {
		case o.Target != "SHARES":
			pl.RefuseAll = o.Word == "NONE"
		case o.Word == "ALL":
			pl.Shares = nil
		case o.Word == "NONE":
			pl.Shares = []string{"NONE"}
		default:
			pl.Shares = o.List
		}
	case "EXPOSE":
		pl.Expose = o.List
	case "LOSE":
		pl.LoseAtRisk = o.Word == "ATRISK"
	case "AI":
		switch o.Target {
		case "OWN":
			pl.AIOwnOff, pl.AIOwn = o.Word == "OFF", o.List
			if o.Word == "ALL" {
				pl.AIOwn = append([]string(nil), aiKinds...)
			}
		case "DEFEND":
			pl.AIDefendOff, pl.AIDefend, pl.AIDefendMin = o.Word == "OFF", "", 0
			switch o.Word {
			case "LAST", "ALL":
				pl.AIDefend = o.Word
			case "MIN":
				pl.AIDefend, pl.AIDefendMin = o.Word, o.N
			}
		case "KEEP":
			pl.AIKeep = o.N
		case "SHIELD":
			pl.AIShield = o.List
		}
	default:
		return
	}
	r.events = append(r.events, engine.Tell(lang.M("Your standing order is now: %s.", o.String()), p))
}

// prelude is one prelude turn (6.4).
func (r *frun) prelude(p string, orders []fOrder) {
	s := r.s
	if s.Stage != "prelude" || s.Players[s.Preludes[0]] != p {
		return
	}
	done := false
	for _, o := range orders {
		if o.Verb != "PRELUDE" {
			r.standing(p, o)
			continue
		}
		if done {
			continue
		}
		done = true
		switch o.Word {
		case "FLEET":
			s.fleetsAt(p, "Earth").Ok++
			s.tell(draw.Built, "", "Earth", p)
			r.say(lang.M("Prelude: %s places a fleet in orbit of Earth.", p))
		case "RESEARCH":
			s.P[p].Economy++
			r.say(lang.M("Prelude: %s gains a resource and researches.", p))
			r.researchStep(p, o.Target, lang.M("order %s", "PRELUDE RESEARCH "+o.Target), true)
		case "LAUNCH":
			s.P[p].Economy++
			if r.moveFleets(p, o.From, o.To, 1) == 1 {
				s.tell(draw.Launch, o.From, o.To, p)
				r.say(lang.M("Prelude: %s gains a resource and moves a fleet from %s to %s.", p, o.From, o.To))
			} else {
				r.say(lang.M("Prelude: %s gains a resource; there is no fleet of theirs at %s to move.", p, o.From))
			}
		}
	}
	if !done {
		s.fleetsAt(p, "Earth").Ok++
		r.say(lang.M("Prelude: %s places a fleet in orbit of Earth.", p))
	}
	s.Preludes = s.Preludes[1:]
	if len(s.Preludes) == 0 {
		s.Stage, s.TurnN = "turns", 1
		r.beginTurn()
	}
}

// moveFleets moves up to n of p's fleets, healthy first, and returns how
// many moved.
func (r *frun) moveFleets(p, from, to string, n int) int {
	f := r.s.fleetsAt(p, from)
	ok := min(n, f.Ok)
	risk := min(n-ok, f.Risk)
	f.Ok -= ok
	f.Risk -= risk
	t := r.s.fleetsAt(p, to)
	t.Ok += ok
	t.Risk += risk
	return ok + risk
}

func (s *fullState) level(p, t string) int {
	if p == un {
		return 0
	}
	return s.P[p].Tech[t]
}

func (s *fullState) unitsOf(p string) int {
	n := 0
	for _, pl := range board.Places {
		if f := s.Fleets[pl.Name][p]; f != nil {
			n += f.Ok + f.Risk
		}
	}
	for _, w := range board.Worlds() {
		n += s.devsOn(p, w.Name)
	}
	return n
}

func (s *fullState) unDevsOn(w string) bool { return s.devsOn(un, w) > 0 }

// beginTurn runs 2.1 Score and 2.2 Risk for the active player. Neither asks
// the player anything, so they run as soon as the turn begins and the
// player writes orders knowing the results.
func (r *frun) beginTurn() {
	s := r.s
	p := s.Players[s.Active]
	r.say(lang.M("Turn %d: %s.", s.TurnN, p))
	r.score(p, false)
	if s.Stage == "over" {
		return
	}
	// 2.1: concession (001-G7): every other player with units agrees.
	agreed, voters := true, 0
	for _, q := range s.Players {
		if q == p || s.unitsOf(q) == 0 {
			continue
		}
		voters++
		agreed = agreed && s.P[q].ConcedeTo == p
	}
	if agreed {
		s.Stage = "over"
		text := lang.M("every other player on the board concedes to %s", p)
		if voters == 0 {
			text = lang.M("%s is the only player left on the board", p)
		}
		s.Result = engine.Ended(text, p)
		r.say(lang.M("The game is over: %s.", text))
		return
	}
	if !s.Triggered && endTriggered(s.vps(), s.Players, p, s.Strict) {
		s.Triggered = true
		r.say(lang.M("%s's score triggers the end: play goes on until %s finishes a turn, then a final Score.", p, s.Players[(s.First-1+len(s.Players))%len(s.Players)]))
	}
	r.sayAll(s.spreadRisk(r.d, p))
	r.sayAll(s.discontent(r.d, p))
}

func (s *fullState) vps() map[string]int {
	m := map[string]int{}
	for _, p := range s.Players {
		m[p] = s.P[p].VP
	}
	return m
}

// score is 2.1's Victory Points for p; final is Section 4's last Score.
func (r *frun) score(p string, final bool) {
	s := r.s
	power := map[string]int{}
	for _, q := range s.Players {
		power[q] = s.P[q].Power
	}
	vp := powerPoints(power, s.Players, p)
	for k := 1; k <= s.level(p, "AI"); k++ {
		v := r.d.RollMsg(6, lang.M("%s's Artificial Intelligence scores on 5+ (level %d)", p, k))
		if v >= 5 {
			vp++
		}
		if v == 1 && s.Skynet && len(s.Deck) > 0 {
			c := skynetCards[s.Deck[0]]
			s.Deck = s.Deck[1:]
			s.Rogue += c.Rogue
			r.say(lang.M("Unexpected AI thought: %s (%d Rogue; the marker is at %d)", c.Text, c.Rogue, s.Rogue))
			if s.Rogue >= 15 {
				s.Stage = "over"
				s.Result = engine.Ended(lang.M("Skynet: the AI has taken over and every player loses"))
				r.say(lang.M("The rogue AI reaches 15: humanity as we know it ceases to exist. Everyone loses."))
				return
			}
		}
	}
	s.P[p].VP += vp
	if vp > 0 || final {
		r.say(lang.M("%s scores %d VP (now %d).", p, vp, s.P[p].VP))
	}
}

// turn runs sections 2.3–2.6 and the end of the turn.
func (r *frun) turn(p string, orders []fOrder) {
	s := r.s
	if s.Stage != "turns" || s.Players[s.Active] != p {
		return
	}
	by := map[int][]fOrder{}
	for _, o := range orders {
		ph := fPhase(o.Verb)
		if ph == fpNone {
			r.standing(p, o)
			continue
		}
		by[ph] = append(by[ph], o)
	}
	r.movement(p, by[fpMove])
	r.fleetActions(p, by[fpFleet])
	r.devActions(p, by[fpDev])
	for _, o := range by[fpUN] {
		r.unAssist(p, o)
	}
	shared := map[string]bool{}
	for _, o := range by[fpEnd] {
		if o.Verb == "SHARE" {
			if shared[o.Target] {
				r.say(lang.M("%s shares with %s only once a turn.", p, o.Target))
				continue
			}
			shared[o.Target] = true
			r.share(p, o)
		} else {
			r.transfer(p, o)
		}
	}
	r.endTurn(p)
}

// endTurn returns set-aside fleets, refills the AI Pool, and passes the
// turn, or ends a triggered game after the last seat of the round.
func (r *frun) endTurn(p string) {
	s := r.s
	pl := s.P[p]
	if r.aside > 0 {
		pl.Economy += r.aside
		r.say(lang.M("%s's %d fleets set aside for Political Influence return to the Economy Pool.", p, r.aside))
		r.aside = 0
	}
	pl.AI = max(pl.AI, s.level(p, "AI"))
	// A player with neither units nor resources takes no turns. Skipping the
	// last seat of the round still ends a triggered game.
	n := len(s.Players)
	for k := 0; k < n; k++ {
		if s.Triggered && lastOfRound(s.First, s.Active, n) {
			r.finalScore()
			return
		}
		s.Active = (s.Active + 1) % n
		if q := s.Players[s.Active]; s.unitsOf(q) > 0 || s.P[q].Economy > 0 {
			break
		}
	}
	s.TurnN++
	r.beginTurn()
}

// finalScore is Section 4 (001-G6): every player scores once, in turn
// order from the first player; the highest VP wins, ties share.
func (r *frun) finalScore() {
	s := r.s
	r.say(lang.M("Final Score."))
	n := len(s.Players)
	for k := 0; k < n && s.Stage != "over"; k++ {
		r.score(s.Players[(s.First+k)%n], true)
	}
	if s.Stage == "over" {
		return
	}
	best := -1
	var winners []string
	for _, p := range s.Players {
		switch v := s.P[p].VP; {
		case v > best:
			best, winners = v, []string{p}
		case v == best:
			winners = append(winners, p)
		}
	}
	s.Stage = "over"
	s.Result = engine.Ended(lang.M("after the final Score, %s with %d VP", andAll(winners), best), winners...)
	r.say(lang.M("The game is over: %s.", *s.Result.Msg))
}

// --- 2.3 Movement ---------------------------------------------------------

func (r *frun) movement(p string, orders []fOrder) {
	s := r.s
	passes := 1
	quota := map[string][]fOrder{} // ROUTE orders by trajectory, consumed in order
	for _, o := range orders {
		switch o.Verb {
		case "PASSES":
			passes = max(1, min(o.N, 1+s.level(p, "Spaceflight")))
		case "ROUTE":
			quota[o.From] = append(quota[o.From], o)
		}
	}
	arrived := map[string]int{}
	if s.level(p, "Launch") > 0 {
		for _, o := range orders {
			if o.Verb == "PRELAUNCH" {
				r.launch(p, o, arrived)
			}
		}
	}
	for pass := 1; pass <= passes; pass++ {
		for _, kind := range []Kind{Approach, Interplanetary, SolarSystem} {
			r.passRing(p, kind, quota, arrived)
		}
	}
	for _, o := range orders {
		if o.Verb == "LAUNCH" {
			r.launch(p, o, arrived)
		}
	}
}

func (r *frun) launch(p string, o fOrder, arrived map[string]int) {
	f := r.s.fleetsAt(p, o.From)
	n := min(o.N, f.Ok+f.Risk-arrived[o.From])
	if n < o.N {
		r.say(lang.M("%s may launch only %s from %s: fleets that arrived from Approach this turn stay.", p, lang.MN("%d fleet", "%d fleets", max(n, 0)), o.From))
	}
	if n <= 0 {
		return
	}
	if n := r.moveFleets(p, o.From, o.To, n); n > 0 {
		r.s.tell(draw.Launch, o.From, o.To, p)
		r.say(lang.M("%s launches %s from %s to %s.", p, lang.MN("%d fleet", "%d fleets", n), o.From, o.To))
	}
}

// passRing moves every fleet of p in the trajectories of one ring one step
// worldward, by ROUTE orders, else by the first branch.
func (r *frun) passRing(p string, kind Kind, quota map[string][]fOrder, arrived map[string]int) {
	s := r.s
	type move struct {
		from, to string
		ok, risk int
	}
	var moves []move
	for _, t := range board.Trajectories() {
		if t.Kind != kind {
			continue
		}
		f := s.Fleets[t.Name][p]
		if f == nil || f.Ok+f.Risk == 0 {
			continue
		}
		ok, risk := f.Ok, f.Risk
		take := func(to string, n int) {
			a := min(n, ok)
			b := min(n-a, risk)
			ok -= a
			risk -= b
			if a+b > 0 {
				moves = append(moves, move{t.Name, to, a, b})
			}
		}
		for i := range quota[t.Name] {
			q := &quota[t.Name][i]
			n := min(q.N, ok+risk)
			q.N -= n
			next := board.StepToward(t.Name, q.To)
			take(next, n)
			if next != q.To && n > 0 {
				// Bound further: the route goes on in a later pass.
				quota[next] = append(quota[next], fOrder{Verb: "ROUTE", N: n, From: next, To: q.To})
			}
		}
		if ok+risk > 0 {
			to := board.Children(t.Name)[0]
			r.say(lang.M("%s: %s at %s had no route and take the first branch, to %s.", p, lang.MN("%d fleet", "%d fleets", ok+risk), t.Name, to))
			take(to, ok+risk)
		}
	}
	before := map[string]int{}
	for _, m := range moves {
		if kind == Approach {
			if f := s.Fleets[m.to][p]; f != nil {
				before[m.to] = f.Ok + f.Risk
			}
		}
	}
	now := map[string]bool{}
	for _, m := range moves {
		now[m.to] = true
		f, t := s.fleetsAt(p, m.from), s.fleetsAt(p, m.to)
		f.Ok -= m.ok
		f.Risk -= m.risk
		t.Ok += m.ok
		t.Risk += m.risk
		s.tell(draw.Move, m.from, m.to, p)
		r.say(lang.M("%s: %s from %s to %s.", p, lang.MN("%d fleet moves", "%d fleets move", m.ok+m.risk), m.from, m.to))
		if kind == Approach {
			arrived[m.to] += m.ok + m.risk
		}
	}
	if kind != Approach {
		return
	}
	for _, w := range board.Worlds() {
		if now[w.Name] && before[w.Name] == 0 {
			r.defensiveFire(p, w.Name)
		}
	}
}

// defensiveFire is 2.3.1: every other faction at the world decides by its
// standing order (all nominate before anyone rolls), then each that fires
// rolls one die per two fleets (rounded up) and two (plus Active Defences)
// per region with developments; each 5+ removes an arriving fleet.
func (r *frun) defensiveFire(p, w string) {
	s := r.s
	n := len(s.Players)
	var firing []string
	for k := 1; k < n; k++ {
		q := s.Players[(s.Active+k)%n]
		f := s.Fleets[w][q]
		if (f == nil || f.Ok+f.Risk == 0) && s.devsOn(q, w) == 0 {
			continue
		}
		pl := s.P[q]
		fire := pl.DefFire == "" || pl.DefFire == "AT" && contains(pl.DefAt, p)
		if fire {
			firing = append(firing, q)
			r.say(lang.M("%s uses Defensive Fire at %s's arrival on %s (standing order DEFENSIVE FIRE %s).", q, p, w, map[bool]string{true: "ALL", false: "AT " + strings.Join(pl.DefAt, ",")}[pl.DefFire == ""]))
		} else {
			r.say(lang.M("%s holds fire at %s's arrival on %s (standing order).", q, p, w))
		}
	}
	if s.P[p].Sanctions && s.unDevsOn(w) {
		firing = append(firing, un)
		r.say(lang.M("The UN uses Defensive Fire: %s is under UN Sanctions.", p))
	}
	for _, q := range firing {
		dice := 0
		if f := s.Fleets[w][q]; f != nil {
			dice = (f.Ok + f.Risk + 1) / 2
		}
		for _, reg := range s.Regions[w] {
			if reg.Owner == q && reg.Devs > 0 {
				dice += 2 + s.level(q, "ActiveDefences")
			}
		}
		need := 5 - s.level(q, "Attack") + s.level(p, "Durability")
		ds := make([]rdie, dice)
		for i := range ds {
			ds[i].Needs = []int{need}
		}
		harm := s.fleetHarm(p, w)
		b := r.roll(&batch{Kind: "DEFENSIVE", Roller: q, Target: p, What: lang.M("%s's Defensive Fire at %s on %s", q, p, w),
			Dice: ds, Harm: harm, Gain: fleetGain(harm)})
		hits := b.successes()
		lost := 0
		for k := 0; k < hits && s.removeFleet(p, w, false); k++ {
			lost++
		}
		s.tell(draw.Battle, "", w, "")
		if lost > 0 {
			s.tell(draw.Destroyed, "", w, "")
		}
		r.say(lang.M("%s's Defensive Fire: %s needing %d+, %s; %s loses %s at %s.", q, lang.MN("%d die", "%d dice", dice), need, lang.MN("%d hit", "%d hits", hits), p, lang.MN("%d fleet", "%d fleets", lost), w))
	}
}
