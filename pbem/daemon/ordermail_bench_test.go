package daemon_test

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"orrery/engine"
	"orrery/engine/game"
	"orrery/engine/store"
	"orrery/engine/store/pgstore"
	"orrery/engine/store/storetest"
	"orrery/games"
	"orrery/pbem/daemon"
	"orrery/pbem/imapin"
)

var (
	benchGames  = flag.Int("bench.games", 10, "BenchmarkOrderMail: games in the database (mixed rulesets, 5 seats where the ruleset allows)")
	benchNoSync = flag.Bool("bench.nosync", false, "BenchmarkOrderMail: skip fsync (PostgreSQL: synchronous_commit=off), to see the CPU's part alone (diagnosis only)")
)

// BenchmarkOrderMail measures one order mail's own time in the daemon: from
// the raw mail as IMAP hands it over to its answer queued in the outbox and
// committed (Handle), on a database on disk with fsync, as `orrery serve`
// runs it, with no network: a bbolt file, or with ORRERY_TEST_STORE=postgres
// a schema of the server ORRERY_TEST_PG names (storetest), with
// synchronous_commit on, on loopback. The mails carry, game after game, a seat's
// orders from its ruleset's bot. "ack" times only mails that are
// acknowledged (another seat is still awaited), "turn" only mails that
// complete a turn (the last awaited seat's orders: the turn is played and
// every player's report is mailed); the other mails are handled with the
// timer stopped. Besides ns/op it reports the median and 99th percentile
// and the CPU time a mail (which a loaded machine inflates less than the
// wall time), and on PostgreSQL the round trips to the server a mail.
// Fetching the mail and sending the answer are the mail servers' part,
// measured by pbem/soak's backlog part. docs/benchmarks.md cites it:
//
//	go test -run '^$' -bench OrderMail -benchmem -benchtime 200x ./pbem/daemon/ [-args -bench.games=1000]
//	... -cpuprofile cpu.out, then go tool pprof -top -cum cpu.out
func BenchmarkOrderMail(b *testing.B) {
	for _, kind := range []string{"ack", "turn"} {
		b.Run(kind, func(b *testing.B) { benchOrderMail(b, kind == "turn") })
	}
}

func benchOrderMail(b *testing.B, turns bool) {
	ctx := context.Background()
	open := benchStore(b)
	fleet := makeFleet(b, open, *benchGames)
	st, err := open(!*benchNoSync)
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	d, err := daemon.New(st, games.All(), nil, daemon.Config{From: "Orrery <" + botAddr + ">", RepliesPerHour: 1 << 30})
	if err != nil {
		b.Fatal(err)
	}
	rnd := rand.New(rand.NewPCG(1, 2))
	uid := uint32(0)
	handle := func(raw []byte) {
		uid++
		if _, err := d.Handle(ctx, imapin.Message{Mailbox: "INBOX", UIDValidity: 1, UID: uid, Raw: raw}); err != nil {
			b.Fatal(err)
		}
	}
	var lat []time.Duration
	var cpu time.Duration // the process's CPU time in the timed mails, GC included
	var wrong int         // timed mails that were not of the kind wanted
	var trips int64       // round trips to PostgreSQL in the timed mails
	b.ReportAllocs()
	s0 := st.Stats()
	next := 0 // the fleet's game to send to next
	for b.Loop() {
		b.StopTimer()
		// Answer a game's awaited seats, untimed, until its next mail is
		// of the kind timed: the last open prompt for "turn", any other
		// for "ack". Most rulesets await one seat at a time, so that only
		// orbital's simultaneous turns have "ack" mails: after a few
		// mails with none, the next game.
		var id string
		var raw []byte
		var step uint64
		for tries := 0; ; tries++ {
			id = fleet[next%len(fleet)]
			var open int
			if tries > 4*len(fleet) {
				b.Fatal("no game has a mail of the kind timed")
			}
			raw, step, open = nextOrderMail(b, d, id, int(uid)+1, rnd)
			if open == 0 { // the game is over: a new one in its place
				fleet[next%len(fleet)] = newGame(b, d.Service(), next%len(fleet), uid)
				continue
			}
			if (open == 1) == turns {
				break
			}
			if tries%4 == 3 {
				next++
			}
			handle(raw)
		}
		next++
		b.StartTimer()
		t0, c0, r0 := time.Now(), cpuTime(), st.Stats().RoundTrips
		handle(raw)
		lat = append(lat, time.Since(t0))
		cpu += cpuTime() - c0
		trips += st.Stats().RoundTrips - r0
		b.StopTimer()
		g, err := d.Service().Get(ctx, id)
		if err != nil {
			b.Fatal(err)
		}
		if (g.Step != step) != turns {
			wrong++
		}
		b.StartTimer()
	}
	s1 := st.Stats()
	slices.Sort(lat)
	q := func(p float64) float64 {
		return float64(lat[min(len(lat)-1, int(p*float64(len(lat))))].Microseconds()) / 1000
	}
	b.ReportMetric(q(0.5), "p50-ms")
	b.ReportMetric(q(0.99), "p99-ms")
	b.ReportMetric(float64(cpu.Microseconds())/1000/float64(len(lat)), "cpu-ms/mail")
	if wrong > 0 {
		b.ReportMetric(float64(wrong)/float64(len(lat)), "wrong-kind/mail")
	}
	// Commit time and page writes include the untimed mails': a figure
	// for the whole run, not for the timed mails alone.
	tx := s1.Sub(s0)
	b.ReportMetric(float64(tx.CommitTime.Microseconds())/1000/float64(tx.Commits), "write+fsync-ms/commit")
	if st.Kind() == "postgres" {
		b.ReportMetric(float64(trips)/float64(len(lat)), "round-trips/mail")
	}
}

// benchStore makes an empty database of the kind ORRERY_TEST_STORE names
// (storetest.Default) and returns what opens it, with fsync (PostgreSQL:
// synchronous_commit=on, as a server runs) or without.
func benchStore(b testing.TB) func(sync bool) (*store.Store, error) {
	if storetest.Default().Name != "postgres" {
		path := filepath.Join(b.TempDir(), "db")
		return func(sync bool) (*store.Store, error) { return store.Open(path, store.Options{NoSync: !sync}) }
	}
	dsn, err := url.Parse(storetest.NewSchema(b))
	if err != nil {
		b.Fatalf("ORRERY_TEST_PG is not a postgres:// URL: %v", err)
	}
	return func(sync bool) (*store.Store, error) {
		q := dsn.Query()
		q.Set("synchronous_commit", map[bool]string{true: "on", false: "off"}[sync])
		u := *dsn
		u.RawQuery = q.Encode()
		return pgstore.Open(context.Background(), u.String(), pgstore.Options{})
	}
}

// makeFleet creates n games of mixed rulesets in the database open opens
// (without fsync: only the measurement after it needs it) and returns
// their ids.
func makeFleet(b testing.TB, open func(sync bool) (*store.Store, error), n int) []string {
	b.Helper()
	st, err := open(false)
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	svc := game.New(st, games.All())
	var ids []string
	for i := range n {
		ids = append(ids, newGame(b, svc, i, 0))
	}
	return ids
}

// newGame creates the i-th game of a fleet, of the i-th ruleset in
// turn, with 5 seats where the ruleset allows; gen tells apart games
// created in the same place later.
func newGame(b testing.TB, svc *game.Service, i int, gen uint32) string {
	b.Helper()
	info := games.All()[i%len(games.All())].Info()
	names := []string{"ann", "bob", "cyd", "dan", "eve"}
	var specs []game.PlayerSpec
	for k := range max(min(5, info.MaxPlayers), info.MinPlayers) {
		specs = append(specs, game.PlayerSpec{Name: names[k], Email: fmt.Sprintf("%s-%d@example.org", names[k], i)})
	}
	id := fmt.Sprintf("g%06d", i)
	if gen > 0 {
		id = fmt.Sprintf("g%06d-%d", i, gen)
	}
	if _, err := svc.Create(context.Background(), game.CreateRequest{ID: id, Ruleset: info.Name, Players: specs, DiceSecret: id}); err != nil {
		b.Fatal(err)
	}
	return id
}

// nextOrderMail is a mail with the bot's orders for the first open
// prompt of game id (the i-th mail of the run, which names its
// Message-ID), the step the game is at,
// and how many blocking prompts are open: the mail completes the turn
// when it answers the last one; none when the game is over.
func nextOrderMail(b testing.TB, d *daemon.Daemon, id string, i int, rnd *rand.Rand) (raw []byte, step uint64, open int) {
	ctx := context.Background()
	g, err := d.Service().Get(ctx, id)
	if err != nil {
		b.Fatal(err)
	}
	rs, err := engine.Find(games.All(), g.Ruleset)
	if err != nil {
		b.Fatal(err)
	}
	done := map[string]bool{}
	for _, a := range g.Answered {
		done[a] = true
	}
	var prompts []engine.Prompt
	for _, p := range g.Prompts {
		if p.Kind.Blocks() && !done[p.ID] {
			prompts = append(prompts, p)
		}
	}
	if len(prompts) == 0 {
		return nil, g.Step, 0
	}
	seat, _ := g.PlayerByName(prompts[0].Player)
	v, err := d.Service().View(ctx, id, seat.Name)
	if err != nil {
		b.Fatal(err)
	}
	orders := rs.Bot(v, prompts[0], rnd)
	raw = fmt.Appendf(nil, "From: %s\r\nTo: %s\r\nSubject: Re: [%s %s] orders\r\nMessage-ID: <bench-%d@example.org>\r\nDate: Sun, 22 Nov 2026 12:00:00 +0000\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n%s\r\n\r\n-- \r\n%s\r\n",
		seat.Email, botAddr, id, seat.Secret, i, strings.ReplaceAll(orders, "\n", "\r\n"), seat.Name)
	return raw, g.Step, len(prompts)
}
