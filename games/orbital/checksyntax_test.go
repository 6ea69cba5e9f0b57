package orbital

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"orrery/engine"
	"orrery/engine/enginetest"
)

// Every order the game accepted in bot games passes the offline check: it
// never refuses what sending would take.
func TestCheckSyntaxAcceptsBotOrders(t *testing.T) {
	sc, ok := Ruleset().(engine.SyntaxChecker)
	require.True(t, ok, "orbital has no offline check")
	lines := 0
	for seed := 1; seed <= 8; seed++ {
		opts := map[string]string{"turn-limit": "12"}
		if seed%2 == 0 {
			opts["scenario"] = "refinery"
		}
		r := enginetest.PlayBots(t, Ruleset(), enginetest.Options{Players: []string{"ann", "bob"}, Seed: uint64(seed), MaxSteps: 40, Options: opts})
		x, err := r.Service.Export(context.Background(), r.Game.ID)
		require.NoError(t, err)
		for _, e := range x.Log {
			if e.Kind != "orders" || strings.TrimSpace(e.Text) == "" {
				continue
			}
			lines += strings.Count(e.Text, "\n") + 1
			assert.Empty(t, sc.CheckSyntax(e.Text), "seed %d, orders the game took:\n%s", seed, e.Text)
		}
	}
	require.Greater(t, lines, 50, "the bots gave too few orders to test anything")
}

func TestCheckSyntaxFindsErrors(t *testing.T) {
	text := strings.Join([]string{
		"# my orders",
		"THRUST S1 +1 TURN 1",
		"THRUSt S1 +9 TURN 5",
		"FIER D1 AT ANY",
		"DROP W1 AT 9",
		"BUY BUSS AT S1",
		"BUY ENGINE AT S1 INTO BAY",
		"PLACE S1 9Z9",
		"FIRE D2 AT ANY SHOTS 2 MIN 4",
		"REPAIR S1 engine 5",
		"LAUNCH B1 UP",
		"",
	}, "\n")
	errs := Ruleset().(engine.SyntaxChecker).CheckSyntax(text)
	got := map[int]string{}
	for _, e := range errs {
		got[e.Line] = e.Msg + " | " + e.Fix
	}
	assert.Len(t, errs, 8, "%q", errs)
	assert.Contains(t, got[3], `"5" is not a turn of -3 to +3 facings`)
	assert.Contains(t, got[4], "did you mean FIRE?")
	assert.Contains(t, got[5], `impulse "9" is not 1 to 7`)
	assert.Contains(t, got[6], "did you mean BUS?")
	assert.Contains(t, got[7], "a module goes onto its Station")
	assert.Contains(t, got[8], `"9Z9" is not a hex`)
	assert.Contains(t, got[10], `"5" is not 1 to 4 points`)
	assert.Contains(t, got[11], `"UP" is not LEFT, RIGHT or CONTRA`)
}
