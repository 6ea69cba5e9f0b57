package daemon_test

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"orrery/engine"
	"orrery/engine/game"
	"orrery/engine/store"
	"orrery/games"
	"orrery/pbem/daemon"
	"orrery/pbem/imapin"
)

var (
	benchGames  = flag.Int("bench.games", 10, "BenchmarkOrderMail: games in the database (mixed rulesets, 5 seats where the ruleset allows)")
	benchNoSync = flag.Bool("bench.nosync", false, "BenchmarkOrderMail: skip fsync, to see the CPU's part alone (diagnosis only)")
)

// BenchmarkOrderMail measures one order mail's own time in the daemon: from
// the raw mail as IMAP hands it over to its answer queued in the outbox and
// committed (Handle), on a database on disk with fsync, as `orrery serve`
// runs it. The mails answer, game after game, each game's next awaited
// seat with its ruleset's bot's orders, so some complete a turn and mail
// every player's report, as real traffic does. It reports the median and
// the 99th percentile. Fetching the mail and sending the answer are the
// mail servers' part, measured by pbem/soak's backlog part.
//
//	go test -run '^$' -bench OrderMail -benchtime 500x ./pbem/daemon/ [-args -bench.games=10000]
//	... -cpuprofile cpu.out, then go tool pprof -top -cum cpu.out
func BenchmarkOrderMail(b *testing.B) {
	ctx := context.Background()
	path := filepath.Join(b.TempDir(), "db")
	fleet := makeFleet(b, path, *benchGames)
	st, err := store.Open(path, store.Options{NoSync: *benchNoSync})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	d, err := daemon.New(st, games.All(), nil, daemon.Config{From: "Orrery <" + botAddr + ">", RepliesPerHour: 1 << 30})
	if err != nil {
		b.Fatal(err)
	}
	rnd := rand.New(rand.NewPCG(1, 2))
	var lat []time.Duration
	steps := 0
	s0 := st.Stats()
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		raw, step := nextOrderMail(b, d, fleet, i, rnd)
		b.StartTimer()
		t0 := time.Now()
		if _, err := d.Handle(ctx, imapin.Message{Mailbox: "INBOX", UIDValidity: 1, UID: uint32(i + 1), Raw: raw}); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(t0))
		b.StopTimer()
		if g, err := d.Service().Get(ctx, fleet[i%len(fleet)]); err == nil && g.Step != step {
			steps++
		}
		b.StartTimer()
	}
	slices.Sort(lat)
	q := func(p float64) float64 {
		return float64(lat[min(len(lat)-1, int(p*float64(len(lat))))].Microseconds()) / 1000
	}
	b.ReportMetric(q(0.5), "p50-ms")
	b.ReportMetric(q(0.99), "p99-ms")
	b.ReportMetric(float64(steps)/float64(len(lat)), "turns/mail")
	s1 := st.Stats()
	tx := s1.Sub(s0)
	b.ReportMetric(float64(tx.CommitTime.Microseconds())/1000/float64(len(lat)), "write+fsync-ms/mail")
	b.ReportMetric(float64(tx.PageWrites)/float64(len(lat)), "page-writes/mail")
}

// makeFleet creates n games of mixed rulesets in a database at path
// (without fsync: only the measurement after it needs it) and returns
// their ids.
func makeFleet(b testing.TB, path string, n int) []string {
	b.Helper()
	st, err := store.Open(path, store.Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	svc := game.New(st, games.All())
	all := games.All()
	names := []string{"ann", "bob", "cyd", "dan", "eve"}
	var ids []string
	for i := range n {
		info := all[i%len(all)].Info()
		var specs []game.PlayerSpec
		for k := range max(min(5, info.MaxPlayers), info.MinPlayers) {
			specs = append(specs, game.PlayerSpec{Name: names[k], Email: fmt.Sprintf("%s-%d@example.org", names[k], i)})
		}
		id := fmt.Sprintf("g%06d", i)
		if _, err := svc.Create(context.Background(), game.CreateRequest{ID: id, Ruleset: info.Name, Players: specs, DiceSecret: id}); err != nil {
			b.Fatal(err)
		}
		ids = append(ids, id)
	}
	return ids
}

// nextOrderMail is the i-th mail: the bot's orders of the first awaited
// seat of game i mod len(fleet), and the step that game is at.
func nextOrderMail(b testing.TB, d *daemon.Daemon, fleet []string, i int, rnd *rand.Rand) ([]byte, uint64) {
	ctx := context.Background()
	id := fleet[i%len(fleet)]
	g, err := d.Service().Get(ctx, id)
	if err != nil {
		b.Fatal(err)
	}
	rs, err := engine.Find(games.All(), g.Ruleset)
	if err != nil {
		b.Fatal(err)
	}
	seat, prompt := g.Players[0], engine.Prompt{}
	for _, name := range g.Waiting() {
		p, _ := g.PlayerByName(name)
		for _, pr := range g.PromptsFor(name) {
			if pr.Kind.Blocks() {
				seat, prompt = p, pr
				break
			}
		}
		if prompt.ID != "" {
			break
		}
	}
	orders := ""
	if prompt.ID != "" {
		v, err := d.Service().View(ctx, id, seat.Name)
		if err != nil {
			b.Fatal(err)
		}
		orders = rs.Bot(v, prompt, rnd)
	}
	raw := fmt.Sprintf("From: %s\r\nTo: %s\r\nSubject: Re: [%s %s] orders\r\nMessage-ID: <bench-%d@example.org>\r\nDate: Sun, 22 Nov 2026 12:00:00 +0000\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n%s\r\n\r\n-- \r\n%s\r\n",
		seat.Email, botAddr, id, seat.Secret, i, orders, seat.Name)
	return []byte(raw), g.Step
}
