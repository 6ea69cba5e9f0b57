package games

import (
	"flag"
	"testing"
	"time"

	"orrery/engine"
	"orrery/engine/enginetest"
)

var flagDuels = flag.Int("duels", 0, "games per ruleset in TestBotsBeatPassive (0: 200; with -short, none)")

// TestBotsBeatPassive holds every ruleset's bot to issue 18's bar: in a
// two-player game against a player who never writes (every prompt takes
// its default), the bot wins at least 90% of the games, in either seat.
// Each ruleset plays 200 seeded games with its default options (-short
// skips them, unless -duels N is given), the bot listed first in half of them and second in the other half;
// a game the bot did not win outright (a loss, a draw, a game still going
// after 3,000 steps) counts against it; a game of chance (its
// engine.Properties say so) is held only to games that end. The figures
// are logged: they are the bot section of docs/benchmarks.md.
func TestBotsBeatPassive(t *testing.T) {
	if testing.Short() && *flagDuels == 0 {
		t.Skip("whole games: runs without -short (or with -duels N)")
	}
	n := *flagDuels
	if n == 0 {
		n = 200
		if testing.Short() {
			n = 40
		}
	}
	for _, rs := range All() {
		name := rs.Info().Name
		t.Run(name, func(t *testing.T) {
			start := time.Now()
			first, second, fails := enginetest.DuelSeries(rs, n, nil, 3000)
			t.Logf("%-16s bot first: %v", name, first)
			t.Logf("%-16s bot second: %v", name, second)
			t.Logf("%-16s %d games in %v", name, n, time.Since(start).Round(time.Millisecond))
			for _, f := range fails {
				t.Error(f)
			}
			if engine.PropertiesOf(rs).Chance {
				t.Logf("%s is a game of chance (engine.Properties): its bot is not held to 90%%", name)
				return
			}
			for _, c := range []struct {
				seat  string
				tally enginetest.DuelTally
			}{{"first", first}, {"second", second}} {
				if c.tally.Games > 0 && c.tally.WinRate() < 0.9 {
					t.Errorf("%s's bot, listed %s, beats a passive player in %.1f%% of %d games, under 90%%: %v",
						name, c.seat, 100*c.tally.WinRate(), c.tally.Games, c.tally)
				}
			}
		})
	}
}

// BenchmarkBotDuel times one whole game of each ruleset's bot against a
// passive player, as TestBotsBeatPassive plays 200 of them.
func BenchmarkBotDuel(b *testing.B) {
	for _, rs := range All() {
		b.Run(rs.Info().Name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				seed := uint64(i%200 + 1)
				if _, err := enginetest.Duel(rs, enginetest.DuelOptions{Seed: seed, BotSecond: seed%2 == 0, MaxSteps: 3000}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
