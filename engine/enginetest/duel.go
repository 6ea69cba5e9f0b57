package enginetest

import (
	"fmt"
	"math/rand/v2"

	"orrery/engine"
	"orrery/engine/dice"
)

// Seat names of a duel. Plain words that no ruleset reserves, and whose
// first letters differ, so boards that letter seats tell them apart.
const (
	DuelBot     = "robo"
	DuelPassive = "idle"
)

// DuelOptions describe one two-player game of a bot against a passive
// player, who sends nothing: every prompt of theirs takes its default, as a
// seat does whose player has stopped writing.
type DuelOptions struct {
	Seed uint64
	// BotSecond lists the passive player first in Setup.Players. Rulesets
	// that draw the seat order from the dice still decide who moves first.
	BotSecond bool
	Options   map[string]string // ruleset options (defaults filled in)
	MaxSteps  int               // resolutions before giving up (0: 5,000)
}

// DuelResult is how a duel ended.
type DuelResult struct {
	Over       bool   // the game ended by its own rules
	BotWon     bool   // the bot is the only winner
	PassiveWon bool   // the passive player is the only winner
	Turn       int    // State.Turn at the end
	Steps      int    // resolutions played
	Text       string // the outcome's text, or why the duel stopped
}

// Draw reports a game that ended with no single winner.
func (r DuelResult) Draw() bool { return r.Over && !r.BotWon && !r.PassiveWon }

// Duel plays one game in memory, as the service would with a bot in one
// seat and a player who never writes in the other: every blocking prompt is
// answered (the bot's by Ruleset.Bot with a generator fixed by the seed and
// step, the passive player's by its default, marked as a default), parsed
// against the player's own view, and resolved with dice from the seed.
// Anytime prompts go unanswered, as the service's bots leave them. No store
// and no replay, so that hundreds of games fit in a test: PlayBots is the
// check of the life cycle. An error is a bot whose orders its own rules
// refuse, or a ruleset that fails.
func Duel(rs engine.Ruleset, o DuelOptions) (DuelResult, error) {
	opts, err := engine.ResolveOptions(rs.Info(), o.Options)
	if err != nil {
		return DuelResult{}, err
	}
	players := []string{DuelBot, DuelPassive}
	if o.BotSecond {
		players = []string{DuelPassive, DuelBot}
	}
	st, err := rs.NewState(engine.Setup{GameID: fmt.Sprintf("duel-%d", o.Seed), Players: players, Options: opts, RulesVersion: rs.Info().Version},
		dice.New(fmt.Sprintf("duel-%d-setup", o.Seed)))
	if err != nil {
		return DuelResult{}, fmt.Errorf("seed %d: set up: %w", o.Seed, err)
	}
	max := o.MaxSteps
	if max <= 0 {
		max = 5000
	}
	res := DuelResult{}
	for ; res.Steps < max; res.Steps++ {
		if out := st.Outcome(); out.Over {
			break
		}
		var answers []engine.Answer
		for _, p := range st.Prompts() {
			if !p.Kind.Blocks() {
				continue
			}
			text, def := p.Default, true
			if p.Player == DuelBot {
				r := rand.New(rand.NewPCG(o.Seed, uint64(res.Steps)<<8|uint64(len(answers))))
				text, def = rs.Bot(st.View(p.Player), p, r), false
			}
			orders, errs := st.View(p.Player).Parse(p, text)
			if len(errs) > 0 {
				who := "the bot"
				if def {
					who = "the default of " + p.Player
				}
				return res, fmt.Errorf("seed %d step %d: %s for %s is refused: %v\n%s", o.Seed, res.Steps, who, p.ID, errs, text)
			}
			answers = append(answers, engine.Answer{Prompt: p, Orders: orders, Default: def})
		}
		if len(answers) == 0 {
			return res, fmt.Errorf("seed %d step %d: the game is not over but asks nothing", o.Seed, res.Steps)
		}
		d := dice.New(fmt.Sprintf("duel-%d-%d", o.Seed, res.Steps))
		if _, err := st.Resolve(answers, d); err != nil {
			return res, fmt.Errorf("seed %d step %d: resolve: %w", o.Seed, res.Steps, err)
		}
		if err := d.Err(); err != nil {
			return res, fmt.Errorf("seed %d step %d: dice: %w", o.Seed, res.Steps, err)
		}
	}
	out := st.Outcome()
	res.Over, res.Turn, res.Text = out.Over, st.Turn(), out.Text
	if !out.Over {
		res.Text = fmt.Sprintf("not over after %d steps", res.Steps)
	}
	if len(out.Winners) == 1 {
		res.BotWon = out.Winners[0] == DuelBot
		res.PassiveWon = out.Winners[0] == DuelPassive
	}
	return res, nil
}

// DuelTally sums duels from one seat position.
type DuelTally struct {
	Games, Won, Lost, Drawn, Unfinished int
	Turns                               int // sum of the final turns of the games that ended
}

// Add counts one duel.
func (t *DuelTally) Add(r DuelResult) {
	t.Games++
	switch {
	case r.BotWon:
		t.Won++
	case r.PassiveWon:
		t.Lost++
	case r.Over:
		t.Drawn++
	default:
		t.Unfinished++
	}
	if r.Over {
		t.Turns += r.Turn
	}
}

// WinRate is the share of games the bot won, from 0 to 1.
func (t DuelTally) WinRate() float64 {
	if t.Games == 0 {
		return 0
	}
	return float64(t.Won) / float64(t.Games)
}

// MeanTurns is the mean final turn of the games that ended.
func (t DuelTally) MeanTurns() float64 {
	if ended := t.Games - t.Unfinished; ended > 0 {
		return float64(t.Turns) / float64(ended)
	}
	return 0
}

// String reads "97/100 won (97.0%), 1 lost, 2 drawn, 0 unfinished, mean turn 14.2".
func (t DuelTally) String() string {
	return fmt.Sprintf("%d/%d won (%.1f%%), %d lost, %d drawn, %d unfinished, mean turn %.1f",
		t.Won, t.Games, 100*t.WinRate(), t.Lost, t.Drawn, t.Unfinished, t.MeanTurns())
}

// DuelSeries plays n duels, seeds 1..n, the bot listed first in the odd
// seeds and second in the even ones, and tallies each position.
func DuelSeries(rs engine.Ruleset, n int, options map[string]string, maxSteps int) (first, second DuelTally, failures []string) {
	for seed := 1; seed <= n; seed++ {
		r, err := Duel(rs, DuelOptions{Seed: uint64(seed), BotSecond: seed%2 == 0, Options: options, MaxSteps: maxSteps})
		if err != nil {
			failures = append(failures, err.Error())
			continue
		}
		if seed%2 == 0 {
			second.Add(r)
		} else {
			first.Add(r)
		}
	}
	return first, second, failures
}
