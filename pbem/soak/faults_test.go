//go:build soak

package soak

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"net/mail"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"orrery/engine/game"
	"orrery/engine/store"
	"orrery/pbem/outbox"
	"orrery/pbem/pbemtest"
)

// startCrashBurst creates on db (a bbolt file or postgres:DSN) the game
// the fault parts crash the daemon under: Ann plays the toy race alone,
// so each of her mails resolves one step and a mail applied twice shows
// as a doubled turn. It then starts sending her burst of order mails to a
// new bot address, spread over the time the kills take (about 0.45 s
// each) so that every kill lands while mail is coming in, and returns
// her address, the bot's, the mails' Message-IDs and the channel the
// sender's outcome arrives on.
func startCrashBurst(t *testing.T, s stack, db, tag string, burst, kills int) (ann, bot string, ids []string, sendDone chan error) {
	t.Helper()
	ctx := context.Background()
	n := nonce()
	bot = "orrery-" + tag + "-" + n + "@" + s.Domain
	ann = "ann-" + tag + "-" + n + "@example.org"
	st := mustOpenScaleDB(t, db)
	svc := game.New(st, rulesets())
	g, err := svc.Create(ctx, game.CreateRequest{ID: "crash", Ruleset: "toy",
		Players: []game.PlayerSpec{{Name: "ann", Email: ann}}, Options: map[string]string{"finish": "100000000"}})
	if err != nil {
		t.Fatal(err)
	}
	p, _ := g.PlayerByName("ann")
	st.Close()
	var mails []outbox.Mail
	for i := range burst {
		id := fmt.Sprintf("%s-burst-%d-%s@example.org", tag, i, n)
		ids = append(ids, id)
		mails = append(mails, outbox.Mail{MessageID: id, From: ann, To: []string{bot},
			Subject: fmt.Sprintf("[crash %s] turn %d", p.Secret, i), Text: fmt.Sprintf("PUSH %d\n", 1+i%3), Date: time.Now()})
	}
	spread := time.Duration(kills) * 450 * time.Millisecond
	sendDone = make(chan error, 1)
	go func() {
		sender := s.sender()
		per := max(1, burst/50)
		for i := 0; i < burst; i += per {
			for _, err := range sender.Send(ctx, mails[i:min(i+per, burst)]) {
				if err != nil {
					sendDone <- err
					return
				}
			}
			time.Sleep(spread / time.Duration(burst/per+1))
		}
		sendDone <- nil
	}()
	return ann, bot, ids, sendDone
}

// checkCrashGame reads the crash game on db after a fault part: each
// burst mail (ids) applied once, the turns all resolved, verify clean,
// nothing left queued or dead in the outbox nor in the bot's inbox, and
// no sender unacknowledged or acknowledged twice (unacked, multi, counted
// by the caller from the mail server). It reports a failure with t.Errorf
// and returns what it found.
func checkCrashGame(t *testing.T, s stack, db, bot string, ids []string, burst, kills, unacked, multi int) crashCheck {
	t.Helper()
	ctx := context.Background()
	st := mustOpenScaleDB(t, db)
	defer st.Close()
	svc := game.New(st, rulesets())
	x, err := svc.Export(ctx, "crash")
	if err != nil {
		t.Fatal(err)
	}
	lost, doubled := lostAndDoubled(x, ids)
	v, verr := svc.Verify(ctx, "crash")
	c, _ := outbox.Count(st)
	left, _ := pbemtest.FetchAll(s.IMAP, bot, "any", "INBOX")
	steps := x.Game.Step
	ok := lost == 0 && doubled == 0 && unacked == 0 && multi == 0 && steps == uint64(burst) && verr == nil && v.OK() && c.Queued == 0 && c.Dead == 0 && len(left) == 0
	if !ok {
		t.Errorf("after %d kills: lost %d, doubled %d, unacked %d, acked more than once %d, steps %d of %d, verify %v %v, outbox %+v, %d left in the inbox",
			kills, lost, doubled, unacked, multi, steps, burst, verr, v, c, len(left))
	}
	return crashCheck{lost: lost, doubled: doubled, steps: steps, verified: verr == nil && v.OK(), queued: c.Queued, dead: c.Dead, left: len(left)}
}

// lostAndDoubled counts the mails of ids whose orders the game log of x
// does not have, and those it has more than once.
func lostAndDoubled(x *game.Export, ids []string) (lost, doubled int) {
	applied := pbemtest.Applied(x)
	for _, id := range ids {
		switch applied[id] {
		case 0:
			lost++
		case 1:
		default:
			doubled++
		}
	}
	return lost, doubled
}

// crashCheck is what checkCrashGame found.
type crashCheck struct {
	lost, doubled      int    // burst mails not applied, applied twice
	steps              uint64 // the game's step
	verified           bool   // Verify found nothing wrong
	queued, dead, left int    // outbox mails queued and dead, mails left in the bot's inbox
}

func (c crashCheck) clean() bool { return c.verified && c.queued == 0 && c.dead == 0 && c.left == 0 }

// partFaults: kill -9 the daemon (a child process) at random instants
// during a burst of order mails, at least -soak.kills times, restarting it
// each time; then check from the mail servers and the DB that every order
// was applied exactly once, every sender acknowledged once, every turn
// reported, no turn doubled, verify clean, nothing left queued.
func partFaults(t *testing.T, s stack, rep *report) {
	db := filepath.Join(t.TempDir(), "faults.db")
	burst, kills := *flagBurst, *flagKills
	ann, bot, ids, sendDone := startCrashBurst(t, s, db, "faults", burst, kills)
	// Count from the mail server: ann's acks (distinct Message-IDs, by the
	// mail they answer) and reports. The outbox may send a mail again after
	// a crash; that is the same mail with the same Message-ID.
	count := func() (acks map[string]int, reports int, dupSends int) { return inboxTally(s.IMAP, ann) }
	rnd := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 20))
	killed := 0
	// inFlight counts, over every kill, the mails the daemon had claimed
	// and not settled when it died: only these can be sent twice (the
	// SMTP server took them, the daemon died before recording it).
	inFlight, maxInFlight := 0, 0
	var (
		child *exec.Cmd
		err   error
	)
	t0 := time.Now()
	for killed < kills {
		if child, err = startChild(db, bot); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(100+rnd.IntN(600)) * time.Millisecond)
		child.Process.Signal(syscall.SIGKILL)
		child.Wait()
		killed++
		st, err := store.Open(db, store.Options{Timeout: 5 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		n, err := outbox.InFlight(st)
		st.Close()
		if err != nil {
			t.Fatal(err)
		}
		inFlight += n
		maxInFlight = max(maxInFlight, n)
	}
	killTime := time.Since(t0)
	before, _, _ := count()
	if err := <-sendDone; err != nil {
		t.Fatalf("sending the burst: %v", err)
	}
	if child, err = startChild(db, bot); err != nil {
		t.Fatal(err)
	}
	var acks map[string]int
	var reports, dupSends int
	deadline := time.Now().Add(5 * time.Minute)
	for {
		acks, reports, dupSends = count()
		if (len(acks) >= burst && reports >= burst) || time.Now().After(deadline) {
			break
		}
		time.Sleep(500 * time.Millisecond)
	}
	settle := time.Since(t0) - killTime
	child.Process.Signal(syscall.SIGTERM)
	if err := child.Wait(); err != nil {
		t.Errorf("daemon exit: %v", err)
	}
	unacked, multi := ackTally(acks, ids)
	cc := checkCrashGame(t, s, db, bot, ids, burst, killed, unacked, multi)
	rep.add("faults", fmt.Sprintf("kill -9 of the daemon during a burst of %d order mails", burst), fmt.Sprintf("%d kills in %v, %d of %d mails acknowledged by the last kill; all settled %v after the last restart", killed, killTime.Round(time.Second), len(before), burst, settle.Round(time.Second)), "≥ 20 kills", ptr(killed >= 20))
	rep.add("faults", "orders lost / applied twice / turns resolved", fmt.Sprintf("%d / %d / %d of %d", cc.lost, cc.doubled, cc.steps, burst), "0 lost, 0 doubled", ptr(cc.lost == 0 && cc.doubled == 0 && cc.steps == uint64(burst)))
	rep.add("faults", "senders not acknowledged / acknowledged twice (distinct mails)", fmt.Sprintf("%d / %d", unacked, multi), "0", ptr(unacked == 0 && multi == 0))
	rep.add("faults", "turn reports delivered (distinct)", fmt.Sprintf("%d of %d", reports, burst), fmt.Sprint(burst), ptr(reports >= burst))
	rep.add("faults", "the same mail delivered again after a crash (same Message-ID; at least once) / mails in flight at the kills", fmt.Sprintf("%d / %d (at most %d at one kill)", dupSends, inFlight, maxInFlight), "duplicates ≤ in flight", ptr(dupSends <= inFlight))
	if dupSends > inFlight {
		t.Errorf("%d raw duplicates, but only %d mails were in flight at the kills", dupSends, inFlight)
	}
	rep.add("faults", "verify; outbox queued/dead; left in the inbox", fmt.Sprintf("%v; %d/%d; %d", cc.verified, cc.queued, cc.dead, cc.left), "clean", ptr(cc.clean()))
}

// inboxTally counts user's INBOX on the IMAP server at addr: the acks by
// the mail they answer (In-Reply-To), the reports, and the mails
// delivered again with a Message-ID seen before (the outbox's
// at-least-once after a crash or a failed settle: the same mail again).
func inboxTally(addr, user string) (acks map[string]int, reports, dupSends int) {
	acks = map[string]int{}
	seen := map[string]bool{}
	msgs, _ := pbemtest.FetchAll(addr, user, "any", "INBOX")
	for _, raw := range msgs {
		m, err := mail.ReadMessage(bytes.NewReader(raw))
		if err != nil {
			continue
		}
		id := m.Header.Get("Message-Id")
		if seen[id] {
			dupSends++
			continue
		}
		seen[id] = true
		switch m.Header.Get("X-Orrery-Kind") {
		case "reply":
			acks[m.Header.Get("In-Reply-To")]++
		case "report":
			reports++
		}
	}
	return acks, reports, dupSends
}

// ackTally is how many of the order mails ids (Message-IDs without
// brackets) got no ack and how many more than one.
func ackTally(acks map[string]int, ids []string) (unacked, multi int) {
	for _, id := range ids {
		switch acks["<"+id+">"] {
		case 0:
			unacked++
		case 1:
		default:
			multi++
		}
	}
	return unacked, multi
}
