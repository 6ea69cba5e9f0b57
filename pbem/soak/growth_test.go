//go:build soak

package soak

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"orrery/engine/game"
	"orrery/engine/store"
	"orrery/pbem/outbox"
	"orrery/pbem/pbemtest"
)

// partGrowth: the daemon's memory with many games in the DB, the DB's
// bytes per game-turn, and how the cost of loading a game grows with its
// length.
func partGrowth(t *testing.T, s stack, rep *report) {
	t.Run("rss", func(t *testing.T) { growthRSS(t, s, rep) })
	t.Run("turns", func(t *testing.T) { growthTurns(t, rep) })
}

// procStatus reads a field such as VmHWM (in kB) of a process.
func procStatus(pid int, field string) int {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, field+":"); ok {
			k, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
			return k
		}
	}
	return 0
}

func growthRSS(t *testing.T, s stack, rep *report) {
	ctx := context.Background()
	n := nonce()
	bot := "orrery-growth-" + n + "@" + s.Domain
	db := filepath.Join(t.TempDir(), "many.db")
	st, err := store.Open(db, store.Options{Timeout: 5 * time.Second, NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	svc := game.New(st, rulesets())
	t0 := time.Now()
	f := newFleet(t, s, svc, db, bot, *flagDBGames)
	created := time.Since(t0)
	// The first games' open questions, answered by mail below.
	sample := &fleet{db: db, bot: bot, games: f.games[:min(20, len(f.games))]}
	jobs, err := openJobs(ctx, svc, sample, rand.New(rand.NewPCG(3, 3)))
	if err != nil {
		t.Fatal(err)
	}
	// The daemon lists every game for every mail it handles (to route it
	// and to tell players from strangers): what that costs here.
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	t0 = time.Now()
	var all []*game.Game
	for opt := (game.ListOptions{Limit: game.MaxListLimit}); ; {
		page, err := svc.ListGames(ctx, opt)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, page.Games...)
		if opt.After = page.Next; opt.After == "" {
			break
		}
	}
	listTime := time.Since(t0)
	runtime.ReadMemStats(&m1)
	runtime.KeepAlive(all)
	st.Close()
	fi, _ := os.Stat(db)

	child, err := startChild(db, bot)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { child.Process.Signal(syscall.SIGTERM); child.Wait() }()
	time.Sleep(time.Second)
	idleRSS := procStatus(child.Process.Pid, "VmRSS")
	sender := s.sender()
	t0 = time.Now()
	for i, j := range jobs {
		if errs := sender.Send(ctx, []outbox.Mail{j.mail(bot, fmt.Sprintf("g-%d-%s@players.example.org", i, n))}); errs[0] != nil {
			t.Fatal(errs[0])
		}
	}
	// Handled when the bot's inbox is empty again and every sender has
	// an answer.
	deadline := time.Now().Add(5 * time.Minute)
	answered := 0
	for time.Now().Before(deadline) {
		answered = 0
		for _, j := range jobs {
			// The games were made without the mailer: no welcome
			// mails, so any mail is the answer.
			if msgs, _ := pbemtest.FetchAll(s.IMAP, j.seat.email, "any", "INBOX"); len(msgs) > 0 {
				answered++
			}
		}
		if answered == len(jobs) {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	took := time.Since(t0)
	hwm, rss := procStatus(child.Process.Pid, "VmHWM"), procStatus(child.Process.Pid, "VmRSS")
	anon, file := procStatus(child.Process.Pid, "RssAnon"), procStatus(child.Process.Pid, "RssFile")
	if answered < len(jobs) {
		t.Errorf("%d of %d order mails answered", answered, len(jobs))
	}
	rep.add("growth", fmt.Sprintf("DB with %d games (mixed rulesets, at their start)", len(f.games)), fmt.Sprintf("%.1f MB, created in %v", float64(fi.Size())/1e6, created.Round(time.Second)), "", nil)
	rep.add("growth", "daemon RSS, started and idle", fmt.Sprintf("%.1f MB", float64(idleRSS)/1024), "", nil)
	rep.add("growth", fmt.Sprintf("daemon RSS after answering %d order mails (peak)", len(jobs)), fmt.Sprintf("%.1f MB (peak %.1f MB)", float64(rss)/1024, float64(hwm)/1024), "≤ 64 MB", ptr(hwm <= 64*1024))
	rep.add("growth", "of which heap and stacks (RssAnon) / file pages, mostly the DB's mmap (RssFile)", fmt.Sprintf("%.1f MB / %.1f MB", float64(anon)/1024, float64(file)/1024), "", nil)
	rep.add("growth", fmt.Sprintf("game.Service.ListGames, every page, of the %d games (the daemon does this only for LIST by mail; it finds the games of a mail by index)", len(all)), fmt.Sprintf("%v, %.0f MB allocated", listTime.Round(time.Millisecond), float64(m1.TotalAlloc-m0.TotalAlloc)/1e6), "", nil)
	rep.add("growth", "time per order mail with that many games", fmt.Sprintf("%v (%d mails in %v, SMTP to answer)", (took/time.Duration(max(1, len(jobs)))).Round(time.Millisecond), len(jobs), took.Round(time.Millisecond)), "", nil)
}

func growthTurns(t *testing.T, rep *report) {
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "long.db")
	st, err := store.Open(db, store.Options{Timeout: 5 * time.Second, NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	svc := game.New(st, rulesets())
	if _, err := svc.Create(ctx, game.CreateRequest{ID: "long", Ruleset: "toy",
		Players: []game.PlayerSpec{{Name: "ann", Email: "ann@example.org"}, {Name: "bob", Email: "bob@example.org"}},
		Options: map[string]string{"finish": "100000000"}}); err != nil {
		t.Fatal(err)
	}
	turn := func(i int) time.Duration {
		t0 := time.Now()
		for _, p := range []string{"ann", "bob"} {
			if _, err := svc.Submit(ctx, game.Input{Game: "long", Player: p, Text: fmt.Sprintf("PUSH %d", 1+i%3), Source: "mail", Ref: fmt.Sprintf("%s-%d@example.org", p, i)}); err != nil {
				t.Fatal(err)
			}
		}
		return time.Since(t0)
	}
	size := func() int64 { fi, _ := os.Stat(db); return fi.Size() }
	load := func() (time.Duration, time.Duration) {
		const reps = 20
		t0 := time.Now()
		for range reps {
			if _, err := svc.Report(ctx, "long", "ann"); err != nil {
				t.Fatal(err)
			}
		}
		rep := time.Since(t0) / reps
		t0 = time.Now()
		for range reps {
			if _, err := svc.Get(ctx, "long"); err != nil {
				t.Fatal(err)
			}
		}
		return rep, time.Since(t0) / reps
	}
	T := *flagTurns
	var early, late time.Duration
	for i := 1; i <= 10; i++ {
		early += turn(i)
	}
	size10 := size()
	rep10, get10 := load()
	for i := 11; i <= T; i++ {
		d := turn(i)
		if i > T-10 {
			late += d
		}
	}
	sizeT := size()
	repT, getT := load()
	g, _ := svc.Get(ctx, "long")
	if g.Turn < T {
		t.Errorf("the long game is at turn %d, want %d", g.Turn, T)
	}
	rep.add("growth", fmt.Sprintf("DB bytes per game-turn (toy race, 2 players, turns 10 to %d)", T), fmt.Sprintf("%.0f bytes (file %.1f MB at turn %d)", float64(sizeT-size10)/float64(T-10), float64(sizeT)/1e6, T), "", nil)
	rep.add("growth", fmt.Sprintf("load a game: Report at turn 10 / at turn %d", T), fmt.Sprintf("%v / %v", rep10.Round(time.Microsecond), repT.Round(time.Microsecond)), "", nil)
	rep.add("growth", fmt.Sprintf("load a game: Get at turn 10 / at turn %d", T), fmt.Sprintf("%v / %v", get10.Round(time.Microsecond), getT.Round(time.Microsecond)), "", nil)
	rep.add("growth", fmt.Sprintf("one turn by two Submits: turns 1–10 / turns %d–%d", T-9, T), fmt.Sprintf("%v / %v", (early/10).Round(time.Microsecond), (late/10).Round(time.Microsecond)), "", nil)
}
