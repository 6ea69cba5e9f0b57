package earthman

// Building blocks of the full rules (seeds/earthmans-burden.md): the 1.1
// roll rule and the arithmetic of 2.1.

import (
	"orrery/engine/dice"
	"orrery/engine/lang"
)

// rollAtLeast makes one roll that needs need or more on a d6, with the 1.1
// rule for needs above 6 and 001-G1 for needs of 1 or less: 7+ is a 6 then
// 4+ on the re-roll, 8+ a 6 then a 6, 9+ cannot succeed and is not rolled;
// 1+ (or less) succeeds without a roll. It returns whether the roll
// succeeded and the faces rolled, in order.
func rollAtLeast(d *dice.Dice, need int, purpose lang.Msg) (bool, []int) {
	switch {
	case need <= 1:
		return true, nil
	case need >= 9:
		return false, nil
	}
	first := d.RollMsg(6, lang.M("%s (needs %d+)", purpose, need))
	if need <= 6 {
		return first >= need, []int{first}
	}
	if first != 6 {
		return false, []int{first}
	}
	// 7+ needs 4+ on the re-roll; 8+ needs a 6.
	again := 4
	if need == 8 {
		again = 6
	}
	second := d.RollMsg(6, lang.M("%s (a 6 for %d+: the re-roll needs %d+)", purpose, need, again))
	return second >= again, []int{first, second}
}

// powerThreshold is the first space of the Power track that scores (2.1).
const powerThreshold = 8

// victoryThreshold is the space of the Victory track that triggers the end.
const victoryThreshold = 30

// powerPoints are the Victory Points of 2.1's first two questions for
// player me: one for at least 8 Power and strictly more than at least half
// the other players (rounded up, 001-G3), one more for strictly more than
// all of them. The AI rolls of the third question are the caller's.
func powerPoints(power map[string]int, players []string, me string) int {
	mine := power[me]
	if mine < powerThreshold {
		return 0
	}
	others, beaten := 0, 0
	for _, p := range players {
		if p == me {
			continue
		}
		others++
		if power[p] < mine {
			beaten++
		}
	}
	vp := 0
	if beaten >= (others+1)/2 {
		vp++
	}
	if beaten == others {
		vp++
	}
	return vp
}

// endTriggered says whether me's score triggers the end of the game at
// the end of 2.1: reaching the threshold (inclusive by 001-G4 unless
// strict, the literal "more than 30"), or leading every other player by
// more than 10 (001-G5).
func endTriggered(vp map[string]int, players []string, me string, strict bool) bool {
	mine := vp[me]
	if mine > victoryThreshold || !strict && mine == victoryThreshold {
		return true
	}
	for _, p := range players {
		if p != me && mine-vp[p] <= 10 {
			return false
		}
	}
	return len(players) > 1
}

// lastOfRound says whether seat is the player to the right of the first
// player, whose finished turn ends a triggered game (2.1, 001-F9).
func lastOfRound(first, seat, n int) bool { return seat == (first-1+n)%n }

// initialDevastation gives the Devastation counters of 1.3 on each region
// of a world, by 001-F3: half the regions rounded down, on the lowest
// numbered regions, plus one on every region of a hostile world; none on
// Earth.
func initialDevastation(w Place) []int {
	out := make([]int, w.Regions)
	if w.Name == "Earth" {
		return out
	}
	for i := range out {
		if i < w.Regions/2 {
			out[i]++
		}
		if w.Hostile {
			out[i]++
		}
	}
	return out
}
