package games

import (
	"testing"

	"orrery/engine/enginetest"
)

// TestEveryRulesetConforms runs the engine's conformance suite over every
// listed ruleset, so a game added to All is checked without a line more.
func TestEveryRulesetConforms(t *testing.T) {
	seen := map[string]bool{}
	for _, rs := range All() {
		name := rs.Info().Name
		if seen[name] {
			t.Fatalf("two rulesets are named %q", name)
		}
		seen[name] = true
		t.Run(name, func(t *testing.T) { enginetest.Conformance(t, rs, 60) })
	}
}
