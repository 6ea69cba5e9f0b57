package pbemtest

import "orrery/engine/game"

// Applied counts, by Message-ID, the accepted orders in the game log of x
// (refused submissions are logged too, as kind "rejected", and do not
// count): a test that mails orders checks each mail's count is 1, neither
// lost nor applied twice.
func Applied(x *game.Export) map[string]int {
	applied := map[string]int{}
	for _, e := range x.Log {
		if e.Ref != "" && e.Kind == "orders" {
			applied[e.Ref]++
		}
	}
	return applied
}
