//go:build soak

package soak

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"

	"orrery/engine/store/storetest"
)

// partPGFaults: two daemons (child processes) on one PostgreSQL database
// and one mailbox, one reading it (the leader), during a burst of order
// mails; one of them, at random, is killed with kill -9 and restarted, at
// least -soak.kills times, and PostgreSQL itself is crashed (pg_ctl -m
// immediate) and started again once half-way (when PGSTACK_ROOT names the
// scripts/pgstack.sh server). Then, from the mail servers and the
// database: every order applied exactly once, every sender acknowledged
// once, every turn reported, verify clean, nothing left queued.
func partPGFaults(t *testing.T, s stack, rep *report) {
	base := *flagScalePG
	if base == "" {
		t.Skip(storetest.SkipPG)
	}
	db, _ := pgSchema(t, "pgfaults")
	burst, kills := *flagBurst, *flagKills
	ann, bot, ids, sendDone := startCrashBurst(t, s, db, "pgfaults", burst, kills)
	count := func() (acks map[string]int, reports int) {
		acks, reports, _ = inboxTally(s.IMAP, ann)
		return acks, reports
	}
	var (
		children [2]*exec.Cmd
		err      error
	)
	for i := range children {
		if children[i], err = startChild(db, bot); err != nil {
			t.Fatal(err)
		}
	}
	rnd := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 22))
	pgRestarted := ""
	t0 := time.Now()
	for killed := 0; killed < kills; killed++ {
		time.Sleep(time.Duration(100+rnd.IntN(600)) * time.Millisecond)
		v := rnd.IntN(2)
		children[v].Process.Signal(syscall.SIGKILL)
		children[v].Wait()
		if children[v], err = startChild(db, bot); err != nil {
			t.Fatal(err)
		}
		if killed == kills/2 && os.Getenv("PGSTACK_ROOT") != "" {
			t1 := time.Now()
			for _, cmd := range []string{"crash", "start"} {
				if out, err := exec.Command("../../scripts/pgstack.sh", cmd).CombinedOutput(); err != nil {
					t.Fatalf("pgstack.sh %s: %v\n%s", cmd, err, out)
				}
			}
			pgRestarted = fmt.Sprintf("; PostgreSQL crashed and started again once (down %v)", time.Since(t1).Round(time.Millisecond))
		}
	}
	killTime := time.Since(t0)
	if err := <-sendDone; err != nil {
		t.Fatalf("sending the burst: %v", err)
	}
	var acks map[string]int
	var reports int
	deadline := time.Now().Add(5 * time.Minute)
	for {
		acks, reports = count()
		if (len(acks) >= burst && reports >= burst) || time.Now().After(deadline) {
			break
		}
		time.Sleep(500 * time.Millisecond)
	}
	settle := time.Since(t0) - killTime
	for _, c := range children {
		c.Process.Signal(syscall.SIGTERM)
		if err := c.Wait(); err != nil {
			t.Errorf("daemon exit: %v", err)
		}
	}
	unacked, multi := ackTally(acks, ids)
	cc := checkCrashGame(t, s, db, bot, ids, burst, kills, unacked, multi)
	rep.add("pgfaults", fmt.Sprintf("two daemons on PostgreSQL, kill -9 of one at random during a burst of %d order mails", burst),
		fmt.Sprintf("%d kills in %v%s; all settled %v after the last kill", kills, killTime.Round(time.Second), pgRestarted, settle.Round(time.Second)), "≥ 20 kills", ptr(kills >= 20))
	rep.add("pgfaults", "orders lost / applied twice / turns resolved", fmt.Sprintf("%d / %d / %d of %d", cc.lost, cc.doubled, cc.steps, burst), "0 lost, 0 doubled", ptr(cc.lost == 0 && cc.doubled == 0 && cc.steps == uint64(burst)))
	rep.add("pgfaults", "senders not acknowledged / acknowledged twice (distinct mails)", fmt.Sprintf("%d / %d", unacked, multi), "0", ptr(unacked == 0 && multi == 0))
	rep.add("pgfaults", "verify / queued or dead mail left / left in the inbox", fmt.Sprintf("%v / %d+%d / %d", cc.verified, cc.queued, cc.dead, cc.left), "clean / 0 / 0", ptr(cc.clean()))
}
