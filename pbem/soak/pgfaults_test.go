//go:build soak

package soak

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"net/mail"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"

	"orrery/engine/game"
	"orrery/engine/store/storetest"
	"orrery/pbem/outbox"
	"orrery/pbem/pbemtest"
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
	ctx := context.Background()
	db, _ := pgSchema(t, "pgfaults")
	burst, kills := *flagBurst, *flagKills
	ann, bot, ids, sendDone := startCrashBurst(t, s, db, "pgfaults", burst, kills)
	count := func() (acks map[string]int, reports int) {
		acks = map[string]int{}
		seen := map[string]bool{}
		msgs, _ := pbemtest.FetchAll(s.IMAP, ann, "any", "INBOX")
		for _, raw := range msgs {
			m, err := mail.ReadMessage(bytes.NewReader(raw))
			if err != nil {
				continue
			}
			id := m.Header.Get("Message-Id")
			if seen[id] {
				continue // the outbox sent it again after a kill: the same mail
			}
			seen[id] = true
			switch m.Header.Get("X-Orrery-Kind") {
			case "reply":
				acks[m.Header.Get("In-Reply-To")]++
			case "report":
				reports++
			}
		}
		return
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
	unacked, multi := 0, 0
	for _, id := range ids {
		switch acks["<"+id+">"] {
		case 0:
			unacked++
		case 1:
		default:
			multi++
		}
	}
	st, err := openScaleDB(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	svc := game.New(st, rulesets())
	x, err := svc.Export(ctx, "crash")
	if err != nil {
		t.Fatal(err)
	}
	applied := map[string]int{}
	for _, e := range x.Log {
		if e.Ref != "" && e.Kind == "orders" {
			applied[e.Ref]++
		}
	}
	lost, doubled := 0, 0
	for _, id := range ids {
		switch applied[id] {
		case 0:
			lost++
		case 1:
		default:
			doubled++
		}
	}
	v, verr := svc.Verify(ctx, "crash")
	c, _ := outbox.Count(st)
	left, _ := pbemtest.FetchAll(s.IMAP, bot, "any", "INBOX")
	ok := lost == 0 && doubled == 0 && unacked == 0 && multi == 0 && x.Game.Step == uint64(burst) && verr == nil && v.OK() && c.Queued == 0 && c.Dead == 0 && len(left) == 0
	if !ok {
		t.Errorf("after %d kills: lost %d, doubled %d, unacked %d, acked more than once %d, steps %d of %d, verify %v %v, outbox %+v, %d left in the inbox",
			kills, lost, doubled, unacked, multi, x.Game.Step, burst, verr, v, c, len(left))
	}
	rep.add("pgfaults", fmt.Sprintf("two daemons on PostgreSQL, kill -9 of one at random during a burst of %d order mails", burst),
		fmt.Sprintf("%d kills in %v%s; all settled %v after the last kill", kills, killTime.Round(time.Second), pgRestarted, settle.Round(time.Second)), "≥ 20 kills", ptr(kills >= 20))
	rep.add("pgfaults", "orders lost / applied twice / turns resolved", fmt.Sprintf("%d / %d / %d of %d", lost, doubled, x.Game.Step, burst), "0 lost, 0 doubled", ptr(lost == 0 && doubled == 0 && x.Game.Step == uint64(burst)))
	rep.add("pgfaults", "senders not acknowledged / acknowledged twice (distinct mails)", fmt.Sprintf("%d / %d", unacked, multi), "0", ptr(unacked == 0 && multi == 0))
	rep.add("pgfaults", "verify / queued or dead mail left / left in the inbox", fmt.Sprintf("%v / %d+%d / %d", verr == nil && v.OK(), c.Queued, c.Dead, len(left)), "clean / 0 / 0", ptr(verr == nil && v.OK() && c.Queued == 0 && c.Dead == 0 && len(left) == 0))
}
