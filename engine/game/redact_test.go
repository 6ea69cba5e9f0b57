package game_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"orrery/engine/game"
)

// A redacted export holds neither the dice secret nor any player's secret,
// says what it left out, leaves the stored game alone, and is refused by
// Import with a message that names what it lacks and how to make a full one.
func TestRedactedExport(t *testing.T) {
	ctx := context.Background()
	svc, _ := newService(t)
	g := create(t, svc, "r1", "ann", "bob")
	submit(t, svc, "r1", "ann", "PUSH 2")

	x, err := svc.Export(ctx, "r1")
	require.NoError(t, err)
	full, err := json.Marshal(x)
	require.NoError(t, err)
	x.Redact()
	red, err := json.Marshal(x)
	require.NoError(t, err)

	assert.Contains(t, string(full), g.DiceSecret)
	assert.NotContains(t, string(red), g.DiceSecret)
	for _, p := range g.Players {
		assert.Contains(t, string(full), p.Secret)
		assert.NotContains(t, string(red), p.Secret, p.Name)
	}
	assert.Equal(t, []string{game.RedactedDiceSecret, game.RedactedPlayerSecrets}, x.Redacted)

	stored, err := svc.Get(ctx, "r1")
	require.NoError(t, err)
	assert.Equal(t, g.DiceSecret, stored.DiceSecret, "Redact changed the stored game")

	other, _ := newService(t)
	var back game.Export
	require.NoError(t, json.Unmarshal(red, &back))
	_, err = other.Import(ctx, &back, game.ImportOptions{})
	require.Error(t, err)
	assert.True(t, game.IsUserError(err))
	for _, want := range []string{"made without its secrets", "the dice secret", "the players' secrets",
		"orrery game export r1 --with-secrets --out FILE"} {
		assert.Contains(t, err.Error(), want)
	}
	// The full export still imports.
	var whole game.Export
	require.NoError(t, json.Unmarshal(full, &whole))
	_, err = other.Import(ctx, &whole, game.ImportOptions{})
	require.NoError(t, err)
}
