package earthman

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"orrery/engine"
	"orrery/engine/enginetest"
)

// Every order the game accepted in bot games passes the offline check, for
// both editions: it never refuses what sending would take.
func TestCheckSyntaxAcceptsBotOrders(t *testing.T) {
	for _, rs := range []engine.Ruleset{Classic(), Full()} {
		t.Run(rs.Info().Name, func(t *testing.T) {
			sc, ok := rs.(engine.SyntaxChecker)
			require.True(t, ok, "no offline check")
			lines := 0
			for seed := 1; seed <= 4; seed++ {
				r := enginetest.PlayBots(t, rs, enginetest.Options{Players: []string{"ann", "bob", "cyd"}, Seed: uint64(seed), MaxSteps: 150})
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
		})
	}
}

func TestCheckSyntaxFindsErrors(t *testing.T) {
	text := strings.Join([]string{
		"# turn 3",
		"LAUNCH 2 FROM Earth TO Cislunar",
		"LANCH 2 FROM Earth TO Cislunar",
		"FIRE Earth 2 AT zed",
		"LAUNCH 1 FROM Mars TO Narnia",
		"FIRE Luna 0 AT bob",
		"AGREE DRAW",
		"LAUNCH 1 FROM Earth TO Cislunar",
	}, "\n")
	errs := Classic().(engine.SyntaxChecker).CheckSyntax(text)
	got := map[int]string{}
	for _, e := range errs {
		got[e.Line] = e.Msg + " | " + e.Fix
	}
	assert.Len(t, errs, 4, "%q", errs)
	assert.Contains(t, got[3], "did you mean LAUNCH?")
	assert.Contains(t, got[5], "Narnia")
	assert.Contains(t, got[6], "must be a positive number")
	assert.NotContains(t, got, 4, "a faction name offline is any name")
	assert.Contains(t, got[8], "LAUNCH is a movement order, but it comes after combat orders")
	full := Full().(engine.SyntaxChecker).CheckSyntax("LANCH 1 FROM Earth TO Cislunar\n")
	if assert.Len(t, full, 1) {
		assert.Contains(t, full[0].Fix, "LAUNCH")
	}
}
