// Package earthman is The Earthman's Burden. The classic (first) edition is
// playable as ruleset "earthman-classic"; the board in board.go is written
// to serve the full rules too (see README.md for what of them is done).
package earthman

import (
	"math/rand/v2"
	"strings"

	"orrery/engine"
	"orrery/engine/dice"
)

// Classic returns the first edition of The Earthman's Burden.
func Classic() engine.Ruleset { return classic{} }

type classic struct{}

var orderHelp = strings.Join([]string{
	"Setup, when asked:  " + grammar[vPlace],
	"Your turn, phases in this order (extraordinary actions may go anywhere):",
	"  1 movement      " + grammar[vLaunch],
	"                  ROUTE <n> FROM <trajectory> TO <place worldward of it>",
	"                  ROUTE NONE FROM <trajectory>",
	"  2 combat        " + grammar[vFire],
	"                  " + grammar[vCoup],
	"  3 construction  " + grammar[vBuild],
	"  4 development   " + grammar[vDevelop],
	"At any time (also in others' turns):",
	"  " + grammar[vEvac],
	"  " + grammar[vGift],
	"  " + grammar[vDecom],
	"  " + grammar[vAgree] + "  (the game ends when all on the board agree)",
	"  " + grammar[vConcede] + "                 (remove all your units and leave)",
	"Standing orders (kept until changed; your status lists them):",
	"  ON COUP AT <world>|ANY EVACUATE|DECOMMISSION|NONE",
	"  ON ATTACK ON <faction> AT <world>|ANY GIFT <n> FLEET|DEV, or NONE",
	"    (an ally's gift before the group rolls; used once)",
	"  ON ATTACKED|LOSS AT <world>|ANY [BY <faction>] [FIRE|COUP] [IF <test>] then",
	"    EVACUATE <n>|ALL, DECOMMISSION <n>|ALL FLEET|DEV,",
	"    GIFT <n>|ALL FLEET|DEV TO <faction>, or NONE",
	"ON ATTACKED runs before the attacking group rolls, ON LOSS after its losses.",
	"In IF, A is the group's size and D your units there: A>=D, D<2A, A>=3.",
	"A NONE with the same event, world, BY and FIRE|COUP cancels one.",
	"With the game option interrupts=on, an attack on you that no standing order",
	"answers waits for you (an interrupt window, until the deadline): answer with",
	"EVACUATE, GIFT or DECOMMISSION orders, or with nothing to let it go ahead.",
	"A ROUTE to a place more than one move away is kept with the fleets and carries",
	"them on in later turns until they arrive; a new ROUTE from that place replaces",
	"it, and ROUTE NONE FROM <trajectory> forgets it. Fleets in space with no ROUTE",
	"and no kept destination take the first branch worldward.",
}, "\n")

func (classic) Info() engine.Info {
	return engine.Info{
		Version: 1, // see engine.Info.Version: raise it with a rule change
		Name:    "earthman-classic", Title: "The Earthman's Burden (first edition)",
		MinPlayers: 2, MaxPlayers: 6,
		Options: []engine.Option{{Name: "turn-limit", Default: "0",
			Help: "end the game after this many rounds; most developments (then fleets) wins; 0 = only by agreement (000-F7)"},
			{Name: "interrupts", Default: "off", Choices: []string{"off", "on"},
				Help: "on: before an attack on a player that no standing order of theirs answers, the turn waits " +
					"(until the deadline) for that player's extraordinary actions (000-C1); off: nothing waits on a player not on turn"}},
		Summary: "Earth's superpowers race to claim the ten worlds of the Solar System while the UN " +
			"keeps a fragile peace on Earth. Each turn: move, fight (fire and overthrow), construct fleets, " +
			"and spend fleets to develop worlds. A player wins when every player still on the board agrees.",
		OrderHelp: orderHelp,
	}
}

func (classic) NewState(s engine.Setup, d *dice.Dice) (engine.State, error) { return newState(s, d) }

func (classic) LoadState(data []byte) (engine.State, error) { return loadState(data) }

// Bot plays random legal orders: it places fleets at random, routes its
// fleets in space at random, fires with some of its fleets, builds with
// every development and develops where it can.
func (classic) Bot(v engine.View, p engine.Prompt, r *rand.Rand) string {
	vw, ok := v.(*view)
	if !ok {
		return ""
	}
	s, me := vw.s, p.Player
	switch p.Kind {
	case engine.KindStep:
		opts := append([]string{"Earth"}, board.Skyward("Earth")...)
		return "PLACE " + opts[r.IntN(len(opts))]
	case engine.KindAnytime:
		return ""
	case engine.KindChoice:
		// An interrupt window: let the attack come, or evacuate or give
		// away a unit first.
		if s.Window == nil || r.IntN(2) == 0 {
			return ""
		}
		o, e := (namer{players: s.Players}).parseLine(s.Window.Orders[s.Window.Next])
		if e != nil {
			return ""
		}
		if s.devs(me, o.World) > 0 && r.IntN(2) == 0 {
			return order{Verb: vEvac, World: o.World, N: 1}.String()
		}
		if s.fleets(me, o.World)-s.tasked(me, o.World).Fleets > 0 {
			return order{Verb: vGift, World: o.World, N: 1, To: un}.String()
		}
		return ""
	}
	var lines []string
	for _, w := range board.Worlds() {
		if s.devs(me, w.Name) > 1 && r.IntN(10) == 0 {
			lines = append(lines, order{Verb: vEvac, World: w.Name, N: 1}.String())
		}
	}
	if r.IntN(10) == 0 {
		ally := s.Players[r.IntN(len(s.Players))]
		if ally != me {
			lines = append(lines, order{Verb: vOn, Target: ally, World: "ANY", N: 1, Action: vGift}.String())
		}
	}
	if r.IntN(10) == 0 {
		acts := []string{vEvac, vDecom, "NONE"}
		lines = append(lines, order{Verb: vOn, World: "ANY", Action: acts[r.IntN(len(acts))]}.String())
	}
	if r.IntN(8) == 0 {
		other := s.Players[r.IntN(len(s.Players))]
		if other == me {
			other = un
		}
		ts := []Trigger{
			{Event: evAttacked, World: "ANY", Kind: vCoup, If: "A>=D", Action: vEvac},
			{Event: evAttacked, World: "Earth", By: un, If: "D<2A", Action: vDecom, N: 1},
			{Event: evLoss, World: "ANY", Action: vGift, Dev: true, To: other},
		}
		for _, t := range s.Triggers[me] {
			ts = append(ts, Trigger{Event: t.Event, World: t.World, By: t.By, Kind: t.Kind, Action: "NONE"})
		}
		lines = append(lines, order{Verb: vOn, Trig: ts[r.IntN(len(ts))]}.String())
	}
	for _, t := range board.Trajectories() {
		n := s.fleets(me, t.Name)
		if n == 0 || r.IntN(3) == 0 {
			continue // the stored destination, or the first branch
		}
		if len(s.coursesAt(me, t.Name)) > 0 && r.IntN(4) == 0 {
			lines = append(lines, order{Verb: vRoute, From: t.Name}.String())
			continue
		}
		var ahead []string
		for _, pl := range board.Places {
			if board.StepToward(t.Name, pl.Name) != "" {
				ahead = append(ahead, pl.Name)
			}
		}
		lines = append(lines, order{Verb: vRoute, N: 1 + r.IntN(n), From: t.Name, To: ahead[r.IntN(len(ahead))]}.String())
	}
	for _, w := range board.Worlds() {
		n := s.fleets(me, w.Name)
		if n > 1 && r.IntN(3) == 0 {
			sky := board.Skyward(w.Name)
			lines = append(lines, order{Verb: vLaunch, N: 1 + r.IntN(n-1), From: w.Name, To: sky[r.IntN(len(sky))]}.String())
		}
	}
	for _, w := range board.Worlds() {
		n := s.fleets(me, w.Name)
		var foes []string
		for _, f := range s.factions() {
			if f != me && s.units(f, w.Name) > 0 && (w.Name != "Earth" || r.IntN(4) == 0) {
				foes = append(foes, f)
			}
		}
		if n > 0 && len(foes) > 0 && r.IntN(2) == 0 {
			lines = append(lines, order{Verb: vFire, World: w.Name, N: 1 + r.IntN(n), Target: foes[r.IntN(len(foes))]}.String())
		}
		dv := s.devs(me, w.Name)
		var hosts []string
		for _, f := range s.factions() {
			if f != me && s.devs(f, w.Name) > 0 {
				hosts = append(hosts, f)
			}
		}
		if dv > 0 && len(hosts) > 0 && r.IntN(4) == 0 {
			lines = append(lines, order{Verb: vCoup, World: w.Name, N: 1 + r.IntN(dv), Target: hosts[r.IntN(len(hosts))]}.String())
		}
	}
	for _, w := range board.Worlds() {
		if dv := s.devs(me, w.Name); dv > 0 {
			var sizes []int
			for dv > 0 {
				k := 1 + r.IntN(dv)
				sizes = append(sizes, k)
				dv -= k
			}
			lines = append(lines, order{Verb: vBuild, World: w.Name, Sizes: sizes}.String())
		}
	}
	for _, w := range board.Worlds() {
		if n := s.fleets(me, w.Name); n > 0 && s.unclaimed(w.Name) > 0 {
			lines = append(lines, order{Verb: vDevelop, World: w.Name, N: 1 + r.IntN(n), Until: 1}.String())
		}
	}
	if r.IntN(3) == 0 {
		// Agree with whoever has the most developments, so that bot
		// games can end by agreement too.
		best, most := "", -1
		for _, f := range s.Players {
			if _, d := s.total(f); d > most && s.alive(f) {
				best, most = f, d
			}
		}
		lines = append(lines, order{Verb: vAgree, Target: best}.String())
	}
	if len(lines) == 0 {
		// Restate a standing order: a mail with no order line at all may
		// not count as an answer on the mail side.
		act := s.OnCoup[me]["ANY"]
		if act == "" {
			act = "NONE"
		}
		return order{Verb: vOn, World: "ANY", Action: act}.String()
	}
	return strings.Join(lines, "\n")
}
