// Package earthman is The Earthman's Burden. The classic (first) edition is
// playable as ruleset "earthman-classic"; the board in board.go is written
// to serve the full rules too (see README.md for what of them is done).
package earthman

import (
	"math/rand/v2"

	"orrery/engine"
	"orrery/engine/dice"
)

// Classic returns the first edition of The Earthman's Burden.
func Classic() engine.Ruleset { return classic{} }

type classic struct{}

// orderHelp is the order language for HELP, a constant so that its
// Russian is a catalog entry (Translate); TestOrderHelpHasEveryShape
// checks it against the grammar.
const orderHelp = `Setup, when asked:  PLACE <Earth|Cislunar|Inner|Solar>
Your turn, phases in this order (extraordinary actions may go anywhere):
  1 movement      LAUNCH <n> FROM <world> TO <trajectory>
                  ROUTE <n> FROM <trajectory> TO <place worldward of it>
                  ROUTE NONE FROM <trajectory>
  2 combat        FIRE <world> <n> AT <faction>
                  COUP <world> <n> AT <faction>
  3 construction  BUILD <world> <size>[,<size>...]
  4 development   DEVELOP <world> <attempts> [UNTIL <successes>]
An empty turn is the moves your fleets in space make anyway (ROUTE orders).
At any time (also in others' turns):
  EVACUATE <world> [<n>]
  GIFT <n> FLEET|DEV AT <world> TO <faction>
  DECOMMISSION <n> FLEET|DEV AT <world>
  AGREE <player>|DRAW|NONE  (the game ends when all on the board agree)
  CONCEDE                 (remove all your units and leave)
Standing orders (kept until changed; your status lists them):
  ON COUP AT <world>|ANY EVACUATE|DECOMMISSION|NONE
  ON ATTACK ON <faction> AT <world>|ANY GIFT <n> FLEET|DEV, or NONE
    (an ally's gift before the group rolls; used once)
  ON ATTACKED|LOSS AT <world>|ANY [BY <faction>] [FIRE|COUP] [IF <test>] then
    EVACUATE <n>|ALL, DECOMMISSION <n>|ALL FLEET|DEV,
    GIFT <n>|ALL FLEET|DEV TO <faction>, or NONE
ON ATTACKED runs before the attacking group rolls, ON LOSS after its losses.
In IF, A is the group's size and D your units there: A>=D, D<2A, A>=3.
A NONE with the same event, world, BY and FIRE|COUP cancels one.
With the game option interrupts=on, an attack on you that no standing order
answers waits for you (an interrupt window, until the deadline): answer with
EVACUATE, GIFT or DECOMMISSION orders, or with nothing to let it go ahead.
A ROUTE to a place more than one move away is kept with the fleets and carries
them on in later turns until they arrive; a new ROUTE from that place replaces
it, and ROUTE NONE FROM <trajectory> forgets it. Fleets in space with no ROUTE
and no kept destination take the first branch worldward.`

// classicSummary is the rules in a paragraph (Info), a constant for the
// same reason.
const classicSummary = "Earth's superpowers race to claim the ten worlds of the Solar System while the UN " +
	"keeps a fragile peace on Earth. Each turn: move, fight (fire and overthrow), construct fleets, " +
	"and spend fleets to develop worlds. A player wins when every player still on the board agrees."

func (classic) Info() engine.Info {
	return engine.Info{
		Version: 3, // see engine.Info.Version: raise it with a rule change
		Name:    "earthman-classic", Title: "The Earthman's Burden (first edition)",
		MinPlayers: 2, MaxPlayers: 6,
		Options: []engine.Option{{Name: "turn-limit", Default: "0",
			Help: "end the game after this many rounds; most developments (then fleets) wins; 0 = only by agreement"},
			{Name: "interrupts", Default: "off", Choices: []string{"off", "on"},
				Help: "on: before an attack on a player that no standing order of theirs answers, the turn waits " +
					"(until the deadline) for that player's extraordinary actions; off: nothing waits on a player not on turn"}},
		Summary:   classicSummary,
		OrderHelp: orderHelp,
	}
}

func (classic) NewState(s engine.Setup, d *dice.Dice) (engine.State, error) { return newState(s, d) }

func (classic) LoadState(data []byte) (engine.State, error) { return loadState(data) }

// Bot plays the first edition to win; see classicBot.
func (classic) Bot(v engine.View, p engine.Prompt, _ *rand.Rand) string {
	vw, ok := v.(*view)
	if !ok {
		return ""
	}
	return classicBot(vw.s, p)
}
