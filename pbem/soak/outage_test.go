//go:build soak

package soak

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"orrery/engine/game"
	"orrery/engine/store"
	"orrery/pbem/outbox"
	"orrery/pbem/pbemtest"
)

var (
	flagOutage     = flag.Duration("soak.outage", 10*time.Second, "outage, diskfull: how long a server is down or the disk full")
	flagOutageMail = flag.Int("soak.outagemails", 30, "outage, diskfull: order mails sent in each phase")
	flagDiskSize   = flag.String("soak.disksize", "8m", "diskfull: size of the tmpfs the DB lives on")
)

// race is a toy race for one player on the real servers, each order mail
// resolving one step (so a mail applied twice shows as a doubled turn),
// answered by a daemon in this process.
type race struct {
	t                         *testing.T
	s                         stack
	db, bot, ann, secret, tag string
	pad                       string // appended to every subject
	ids                       []string
	cancel                    func()
	done                      chan error
	st                        *store.Store
}

func newRace(t *testing.T, s stack, part, db string) *race {
	n := nonce()
	r := &race{t: t, s: s, db: db, bot: "orrery-" + part + "-" + n + "@" + s.Domain, ann: "ann-" + part + "-" + n + "@example.org", tag: part}
	st, err := store.Open(db, store.Options{Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	g, err := game.New(st, rulesets()).Create(context.Background(), game.CreateRequest{ID: part, Ruleset: "toy",
		Players: []game.PlayerSpec{{Name: "ann", Email: r.ann}}, Options: map[string]string{"finish": "100000000"}})
	if err != nil {
		t.Fatal(err)
	}
	p, _ := g.PlayerByName("ann")
	r.secret = p.Secret
	return r
}

// start runs the daemon until stop.
func (r *race) start() {
	st, d, rd, err := r.s.newDaemon(r.db, r.bot, false, nil)
	if err != nil {
		r.t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	r.st, r.cancel, r.done = st, cancel, make(chan error, 1)
	go func() { r.done <- d.Run(ctx, rd) }()
}

func (r *race) stop() {
	if r.cancel == nil {
		return
	}
	r.cancel()
	if err := <-r.done; err != nil {
		r.t.Errorf("daemon: %v", err)
	}
	r.st.Close()
	r.cancel = nil
}

// next makes k more order mails.
func (r *race) next(k int) []outbox.Mail {
	var out []outbox.Mail
	for range k {
		i := len(r.ids)
		id := fmt.Sprintf("%s-%d-%s", r.tag, i, r.ann)
		r.ids = append(r.ids, id)
		out = append(out, outbox.Mail{MessageID: id, From: r.ann, To: []string{r.bot},
			Subject: fmt.Sprintf("[%s %s] turn %d%s", r.tag, r.secret, i, r.pad), Text: fmt.Sprintf("PUSH %d\n", 1+i%3), Date: time.Now()})
	}
	return out
}

// sendSMTP sends k order mails through Postfix.
func (r *race) sendSMTP(k int) {
	for _, err := range r.s.sender().Send(context.Background(), r.next(k)) {
		if err != nil {
			r.t.Fatalf("sending orders through Postfix: %v", err)
		}
	}
}

// sendLMTP delivers k order mails straight to Dovecot (Postfix is down).
func (r *race) sendLMTP(k int) {
	ms := r.next(k)
	if err := r.s.injectMany(r.bot, k, func(i int) []byte { return rawMail(ms[i]) }); err != nil {
		r.t.Fatalf("delivering orders over LMTP: %v", err)
	}
}

// count reads ann's mailbox: acknowledgements by the mail they answer,
// distinct reports, and mails delivered again with a Message-ID seen
// before (the outbox's at-least-once after a failed settle).
func (r *race) count() (acks map[string]int, reports, dupSends int) {
	return inboxTally(r.s.IMAP, r.ann)
}

// acked is how many of the mails sent so far are acknowledged.
func (r *race) acked() (int, int) {
	acks, reports, _ := r.count()
	n := 0
	for _, id := range r.ids {
		if acks["<"+id+">"] > 0 {
			n++
		}
	}
	return n, reports
}

// waitAll waits until every mail sent so far is acknowledged and
// reported, and says how long that took.
func (r *race) waitAll(limit time.Duration) (time.Duration, bool) {
	t0 := time.Now()
	for time.Since(t0) < limit {
		if a, rep := r.acked(); a >= len(r.ids) && rep >= len(r.ids) {
			return time.Since(t0), true
		}
		time.Sleep(200 * time.Millisecond)
	}
	a, rep := r.acked()
	r.t.Errorf("%s: after %v, %d of %d mails acknowledged, %d reports", r.tag, limit, a, len(r.ids), rep)
	return time.Since(t0), false
}

// check stops the daemon and checks from the mail servers and the DB:
// every order applied exactly once, every sender acknowledged once, every
// step reported, no doubled turn, verify clean, outbox and inbox empty.
func (r *race) check(rep *report) {
	r.stop()
	ctx := context.Background()
	acks, reports, dupSends := r.count()
	unacked, multi := ackTally(acks, r.ids)
	st, err := store.Open(r.db, store.Options{Timeout: 5 * time.Second})
	if err != nil {
		r.t.Fatal(err)
	}
	defer st.Close()
	svc := game.New(st, rulesets())
	x, err := svc.Export(ctx, r.tag)
	if err != nil {
		r.t.Fatal(err)
	}
	lost, doubled := lostAndDoubled(x, r.ids)
	n := len(r.ids)
	v, verr := svc.Verify(ctx, r.tag)
	c, _ := outbox.Count(st)
	left, _ := pbemtest.FetchAll(r.s.IMAP, r.bot, "any", "INBOX")
	clean := verr == nil && v.OK() && c.Queued == 0 && c.Dead == 0 && len(left) == 0
	if lost != 0 || doubled != 0 || unacked != 0 || multi != 0 || x.Game.Step != uint64(n) || reports < n || !clean {
		r.t.Errorf("%s: lost %d, doubled %d, unacked %d, acked more than once %d, steps %d of %d, reports %d, verify %v %v, outbox %+v, %d left in the inbox",
			r.tag, lost, doubled, unacked, multi, x.Game.Step, n, reports, verr, v, c, len(left))
	}
	rep.add(r.tag, "orders lost / applied twice / turns resolved", fmt.Sprintf("%d / %d / %d of %d", lost, doubled, x.Game.Step, n), "0 lost, 0 doubled", ptr(lost == 0 && doubled == 0 && x.Game.Step == uint64(n)))
	rep.add(r.tag, "senders not acknowledged / acknowledged twice (distinct mails)", fmt.Sprintf("%d / %d", unacked, multi), "0", ptr(unacked == 0 && multi == 0))
	rep.add(r.tag, "turn reports delivered (distinct)", fmt.Sprintf("%d of %d", reports, n), fmt.Sprint(n), ptr(reports >= n))
	rep.add(r.tag, "the same mail delivered again (same Message-ID; allowed: at least once)", fmt.Sprint(dupSends), "", nil)
	rep.add(r.tag, "verify; outbox queued/dead; left in the inbox", fmt.Sprintf("%v; %d/%d; %d", verr == nil && v.OK(), c.Queued, c.Dead, len(left)), "clean", ptr(clean))
}

// partOutage: a game in progress by mail with the daemon running; Dovecot
// is stopped for -soak.outage while orders arrive (Postfix queues them,
// the daemon's IMAP reconnects with backoff), then started again; then
// Postfix is stopped while orders are delivered straight to Dovecot (the
// outbox keeps the replies and retries), then started again. Then the
// race's checks.
func partOutage(t *testing.T, s stack, rep *report) {
	s.MailStack(t, "status")
	per, dur := *flagOutageMail, *flagOutage
	// Whatever happens, leave both servers running.
	t.Cleanup(func() {
		exec.Command("../../scripts/mailstack.sh", "start-dovecot").Run()
		exec.Command("../../scripts/mailstack.sh", "start-postfix").Run()
	})
	r := newRace(t, s, "outage", filepath.Join(t.TempDir(), "outage.db"))
	r.start()
	defer r.stop()
	r.sendSMTP(per)
	if _, ok := r.waitAll(2 * time.Minute); !ok {
		t.FailNow()
	}

	s.MailStack(t, "stop-dovecot")
	r.sendSMTP(per) // accepted by Postfix, deferred: LMTP is down
	time.Sleep(dur)
	s.MailStack(t, "start-dovecot")
	// Postfix retries deferred mail after minutes; an operator (or its
	// next queue run) flushes it.
	s.MailStack(t, "flush")
	dovecot, _ := r.waitAll(3 * time.Minute)
	rep.add("outage", fmt.Sprintf("Dovecot stopped %v; %d order mails sent meanwhile (queued in Postfix)", dur, per),
		fmt.Sprintf("all acknowledged and reported %v after its restart and a queue flush", dovecot.Round(100*time.Millisecond)), "", nil)

	s.MailStack(t, "stop-postfix")
	r.sendLMTP(per) // straight to Dovecot: the replies cannot leave
	held := 0
	for t0 := time.Now(); time.Since(t0) < dur; time.Sleep(200 * time.Millisecond) {
		if c, err := outbox.Count(r.st); err == nil {
			held = max(held, c.Queued)
		}
	}
	s.MailStack(t, "start-postfix")
	postfix, _ := r.waitAll(3 * time.Minute)
	rep.add("outage", fmt.Sprintf("Postfix stopped %v; %d order mails delivered to Dovecot meanwhile", dur, per),
		fmt.Sprintf("up to %d replies and reports held in the outbox; all delivered %v after its restart", held, postfix.Round(100*time.Millisecond)),
		"held, then delivered", ptr(held > 0))
	r.check(rep)
}

// partDiskfull: the daemon's DB on a small tmpfs, filled up by another
// file mid-game while order mails arrive; they must stay in the inbox
// (imapin offers them again after RetryFailed), nothing applied in part;
// the space is freed, and then the race's checks.
func partDiskfull(t *testing.T, s stack, rep *report) {
	dir := pbemtest.SmallDisk(t, *flagDiskSize)
	per, dur := *flagOutageMail, *flagOutage
	r := newRace(t, s, "diskfull", filepath.Join(dir, "diskfull.db"))
	// A long subject makes every mail grow the DB (seen record, stored
	// answer, queued reply), so the full disk shows at once rather than
	// after bbolt's freed pages are used up.
	r.pad = " " + strings.Repeat("orders for the race ", 50)
	r.start()
	defer r.stop()
	r.sendSMTP(per)
	if _, ok := r.waitAll(2 * time.Minute); !ok {
		t.FailNow()
	}
	filler := filepath.Join(dir, "filler")
	pbemtest.FillDisk(t, filler)
	r.sendSMTP(per)
	waiting := 0
	for t0 := time.Now(); time.Since(t0) < dur; time.Sleep(500 * time.Millisecond) {
		if in, err := pbemtest.FetchAll(s.IMAP, r.bot, "any", "INBOX"); err == nil {
			waiting = max(waiting, len(in))
		}
	}
	appliedFull, _ := r.acked()
	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	back, _ := r.waitAll(3 * time.Minute)
	if waiting == 0 {
		t.Errorf("diskfull: no mail waited in the inbox while the disk was full: the disk was not full")
	}
	rep.add("diskfull", fmt.Sprintf("DB disk (tmpfs %s) full for %v; %d order mails sent meanwhile", *flagDiskSize, dur, per),
		fmt.Sprintf("up to %d waited in the inbox; %d acknowledged meanwhile (bbolt reuses freed pages); all acknowledged %v after the space was freed",
			waiting, appliedFull-per, back.Round(100*time.Millisecond)), "wait, then applied once", ptr(waiting > 0))
	r.check(rep)
}
