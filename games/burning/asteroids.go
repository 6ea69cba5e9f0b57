package burning

import (
	"fmt"

	"orrery/engine"
	"orrery/engine/dice"
	"orrery/engine/lang"
)

// Manual asteroid placement (option asteroid_placement=player; 003-B5):
// "after a random section is rolled, each player in turn" places an
// asteroid. The seats roll the sections in turn (the dice, as always), and
// the player to the roller's left picks the cell, in a setup step of its
// own; its default (nothing sent by the deadline) is AUTO, the die the
// server would roll. The legal cells are those of the default mode: in the
// section, at least one free cell away from every planet and asteroid.

// AsteroidPick is the asteroid whose cell is being chosen.
type AsteroidPick struct {
	N       int    `json:"n"` // 1 … AstCount
	Section int    `json:"section"`
	Roller  string `json:"roller"`
	Chooser string `json:"chooser"`
}

// nextAsteroid rolls the section of asteroid i (or of the first one after
// it that finds room) and asks for its cell; once all are placed it opens
// the home placement step or the first turn.
func (s *State) nextAsteroid(d *dice.Dice, i int) {
	s.AstPick = nil
	for ; i <= s.AstCount; i++ {
		if sec, _, _ := s.rollAsteroid(d, i); sec > 0 {
			n := len(s.Seats)
			s.AstPick = &AsteroidPick{N: i, Section: sec, Roller: s.Seats[(i-1)%n], Chooser: s.Seats[i%n]}
			return
		}
		s.tell(nil, lang.M("Asteroid %d is dropped: no section had room for it.", i))
	}
}

func (s *State) asteroidPrompt() engine.Prompt {
	a := s.AstPick
	return asked(engine.Prompt{ID: fmt.Sprintf("asteroid%d:%s", a.N, a.Chooser), Player: a.Chooser, Kind: engine.KindStep, Default: vAuto},
		lang.M("Choose the cell of asteroid %d of %d in section %d (its section rolled by %s): ASTEROID cell, at least one free cell away from planets and asteroids. AUTO lets a die choose.",
			a.N, s.AstCount, a.Section, a.Roller))
}

// asteroidOrder checks one line of the chooser's answer.
func (s *State) asteroidOrder(o order) *problem {
	a := s.AstPick
	switch o.Verb {
	case vAuto:
		return nil
	case wAsteroid:
		switch {
		case !s.Grid.in(o.Cell) || s.Grid.section(o.Cell) != a.Section:
			return prob(lang.M("%s is not in section %d", o.Cell.String(), a.Section))
		case !s.asteroidRoom(o.Cell):
			return prob(lang.M("%s is too close to a planet or an asteroid", o.Cell.String()))
		}
		return nil
	}
	return prob(lang.M("now only ASTEROID and AUTO: asteroid %d is being placed", a.N))
}

func (v view) parseAsteroid(player, text string) (engine.Orders, []engine.LineError) {
	if player != v.s.AstPick.Chooser {
		return nil, []engine.LineError{engine.LineErr(0, "", lang.M("Setup: %s chooses the cell of asteroid %d.", v.s.AstPick.Chooser, v.s.AstPick.N), lang.Msg{})}
	}
	return parseEach(text, func(o *order, _, accepted int) *problem {
		if pr := v.s.asteroidOrder(*o); pr != nil {
			return pr
		}
		if accepted > 0 {
			return prob(lang.M("send one line: ASTEROID cell, or AUTO"))
		}
		return nil
	})
}

// resolveAsteroid places the asteroid where its chooser said, or by a die,
// and moves on to the next one.
func (s *State) resolveAsteroid(answers []engine.Answer, d *dice.Dice) ([]engine.Event, error) {
	a := s.AstPick
	var lines []string
	for _, ans := range answers {
		if ans.Prompt.Player != a.Chooser {
			return nil, fmt.Errorf("%s answered %s while %s places asteroid %d", ans.Prompt.Player, ans.Prompt.ID, a.Chooser, a.N)
		}
		lines = linesOf(ans.Orders)
	}
	placed := false
	for _, line := range lines {
		o, pr := parseLine(line)
		if pr == nil {
			pr = s.asteroidOrder(o)
		}
		if pr != nil {
			return nil, fmt.Errorf("stored setup order %q of %s: %s", line, a.Chooser, pr.why.English())
		}
		if o.Verb == wAsteroid {
			s.Asteroids = append(s.Asteroids, o.Cell)
			s.SetupDice[len(s.SetupDice)-1] += fmt.Sprintf(", cell chosen by %s = %s", a.Chooser, o.Cell.String())
			s.tell(nil, lang.M("%s places asteroid %d at %s.", a.Chooser, a.N, o.Cell.String()))
			placed = true
		}
	}
	if !placed {
		legal := s.asteroidCells(a.Section)
		k := d.RollMsg(len(legal), lang.M("cell of asteroid %d in section %d", a.N, a.Section)) - 1
		c := legal[k]
		s.Asteroids = append(s.Asteroids, c)
		s.SetupDice[len(s.SetupDice)-1] += fmt.Sprintf(", cell d%d=%d = %s", len(legal), k+1, c.String())
		s.tell(nil, lang.M("A die places asteroid %d at %s for %s.", a.N, c.String(), a.Chooser))
	}
	s.nextAsteroid(d, a.N+1)
	if s.AstPick == nil && s.Placing == nil {
		s.startTurn(d)
	}
	return s.events, nil
}

// botAsteroid picks a legal cell now and then, else leaves it to the die.
func (v view) botAsteroid(pick func(n int) int) string {
	legal := v.s.asteroidCells(v.s.AstPick.Section)
	if len(legal) == 0 || pick(2) == 0 {
		return vAuto
	}
	return "ASTEROID " + legal[pick(len(legal))].String()
}
