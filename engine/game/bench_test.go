package game_test

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"

	"orrery/engine/game"
	"orrery/engine/store"
	"orrery/engine/store/storetest"
	"orrery/games"
)

var benchGames = flag.Int("bench.games", 1000, "BenchmarkTickCatchUp, BenchmarkListGames: games in the database")

// benchDB makes a database of n games of mixed rulesets, 5 seats where the
// ruleset allows (without fsync), and returns its path and the clock its
// games were made at.
func benchDB(b testing.TB, n int) (string, time.Time) {
	b.Helper()
	path := filepath.Join(b.TempDir(), "g.db")
	st, err := store.Open(path, store.Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	return path, makeGames(b, st, n)
}

// makeGames makes benchDB's n games in st and returns the clock they were
// made at.
func makeGames(b testing.TB, st *store.Store, n int) time.Time {
	b.Helper()
	at := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	svc := game.New(st, games.All(), game.WithClock(func() time.Time { return at }))
	all := games.All()
	names := []string{"ann", "bob", "cyd", "dan", "eve"}
	for i := range n {
		info := all[i%len(all)].Info()
		var specs []game.PlayerSpec
		for k := range max(min(5, info.MaxPlayers), info.MinPlayers) {
			specs = append(specs, game.PlayerSpec{Name: names[k], Email: fmt.Sprintf("%s-%d@example.org", names[k], i)})
		}
		id := fmt.Sprintf("g%06d", i)
		if _, err := svc.Create(context.Background(), game.CreateRequest{ID: id, Ruleset: info.Name, Players: specs, DiceSecret: id,
			Settings: &game.Settings{Early: true, TurnLength: 72 * time.Hour}}); err != nil {
			b.Fatal(err)
		}
	}
	return at
}

// cpuTime is the CPU time this process used so far: on a shared machine
// it tells the work done from the time spent waiting for a core.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkListGames times a page of 100 games and a walk over every game
// a page of 1,000 at a time, and reports the bytes allocated.
func BenchmarkListGames(b *testing.B) {
	path, _ := benchDB(b, *benchGames)
	st, err := store.Open(path, store.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	svc := game.New(st, games.All())
	ctx := context.Background()
	b.Run("page", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := svc.ListGames(ctx, game.ListOptions{Limit: 100}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("all", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			opt := game.ListOptions{Limit: game.MaxListLimit}
			for {
				page, err := svc.ListGames(ctx, opt)
				if err != nil {
					b.Fatal(err)
				}
				if page.Next == "" {
					break
				}
				opt.After = page.Next
			}
		}
	})
}

// BenchmarkCatchUpTick times the catch-up Tick per game: every game of a
// database of -bench.games was just created and is due (not yet looked
// at); one op is that Tick, and ns/game, B/game and allocs/game are
// what each due game costs. "created" ticks games with nothing to do but
// be looked at, "deadline" games whose deadline passed (each resolves a
// step). On bbolt each op ticks a fresh copy of a database made once;
// with ORRERY_TEST_STORE=postgres (and ORRERY_TEST_PG) each op makes its
// games in a new schema first, untimed, and round-trips/game counts the
// statements and batches sent to the server; on bbolt page-writes/game
// counts the pages (nodes and freelist) its commits wrote.
//
//	go test -run '^$' -bench CatchUpTick -benchtime 3x ./engine/game/ -args -bench.games=5000
func BenchmarkCatchUpTick(b *testing.B) {
	n := *benchGames
	kind := storetest.Default()
	var fresh func(b *testing.B) (*store.Store, time.Time)
	if kind.Name == "bbolt" {
		tmpl, at := benchDB(b, n)
		raw, err := os.ReadFile(tmpl)
		if err != nil {
			b.Fatal(err)
		}
		fresh = func(b *testing.B) (*store.Store, time.Time) {
			path := filepath.Join(b.TempDir(), "g.db")
			if err := os.WriteFile(path, raw, 0o600); err != nil {
				b.Fatal(err)
			}
			st, err := store.Open(path, store.Options{})
			if err != nil {
				b.Fatal(err)
			}
			return st, at
		}
	} else {
		fresh = func(b *testing.B) (*store.Store, time.Time) {
			st, err := kind.New(b)()
			if err != nil {
				b.Fatal(err)
			}
			return st, makeGames(b, st, n)
		}
	}
	for _, c := range []struct {
		name  string
		after time.Duration
	}{{"created", time.Minute}, {"deadline", 73 * time.Hour}} {
		b.Run(c.name, func(b *testing.B) {
			var took, cpu time.Duration
			var bytes, allocs uint64
			var trips, pages, commits int64
			var ms0, ms1 runtime.MemStats
			rounds := 0
			for b.Loop() {
				rounds++
				b.StopTimer()
				st, at := fresh(b)
				now := at.Add(c.after)
				svc := game.New(st, games.All(), game.WithClock(func() time.Time { return now }))
				runtime.GC()
				runtime.ReadMemStats(&ms0)
				s0 := st.Stats()
				b.StartTimer()
				t0, c0 := time.Now(), cpuTime()
				res, err := svc.Tick(context.Background())
				took += time.Since(t0)
				cpu += cpuTime() - c0
				b.StopTimer()
				runtime.ReadMemStats(&ms1)
				d := st.Stats().Sub(s0)
				trips += d.RoundTrips
				pages += d.PageWrites
				commits += d.Commits
				bytes += ms1.TotalAlloc - ms0.TotalAlloc
				allocs += ms1.Mallocs - ms0.Mallocs
				if err != nil {
					b.Fatal(err)
				}
				if c.name == "deadline" && len(res) != n {
					b.Fatalf("%d games resolved of %d", len(res), n)
				}
				st.Close()
				b.StartTimer()
			}
			games := float64(rounds * n)
			b.ReportMetric(float64(took.Nanoseconds())/games, "ns/game")
			b.ReportMetric(float64(cpu.Nanoseconds())/games, "cpu-ns/game")
			b.ReportMetric(float64(bytes)/games, "B/game")
			b.ReportMetric(float64(allocs)/games, "allocs/game")
			b.ReportMetric(float64(commits)/float64(rounds), "commits/tick")
			if kind.Name == "bbolt" {
				b.ReportMetric(float64(pages)/games, "page-writes/game")
			} else {
				b.ReportMetric(float64(trips)/games, "round-trips/game")
			}
		})
	}
}
