package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"orrery/engine"
	"orrery/engine/enginetest/toy"
	"orrery/engine/game"
	"orrery/pbem/outbox"
)

func orderMail(bot, from, secret, id string, i int) []byte {
	return fmt.Appendf(nil, "From: Ann <%s>\r\nTo: %s\r\nSubject: [bench %s] orders %d\r\nMessage-ID: <%s>\r\nDate: %s\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nPUSH %d\r\n\r\n-- \r\nann\r\n",
		from, bot, secret, i, id, time.Now().Format(time.RFC1123Z), 1+i%3)
}

// benchGame sets up a daemon for a fresh bot and a toy game where ann's
// orders are acknowledged but never resolve (bob sends none): one reply per
// order mail.
func benchGame(b *testing.B, s stack, idle bool, onSent func(outbox.Record)) (bot, ann, secret string, run func() func()) {
	n := nonce()
	bot, ann = "orrery-"+n+"@"+s.Domain, "ann-"+n+"@example.org"
	st, d, r := s.newDaemon(b, filepath.Join(b.TempDir(), "bench.db"), bot, []engine.Ruleset{toy.Ruleset()}, idle, onSent)
	b.Cleanup(func() { st.Close() })
	g, err := d.Service().Create(context.Background(), game.CreateRequest{ID: "bench", Ruleset: "toy",
		Players: []game.PlayerSpec{{Name: "ann", Email: ann}, {Name: "bob", Email: "bob-" + n + "@example.org"}}})
	if err != nil {
		b.Fatal(err)
	}
	p, _ := g.PlayerByName("ann")
	return bot, ann, p.Secret, func() func() {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { d.Run(ctx, r); close(done) }()
		return func() { cancel(); <-done }
	}
}

// BenchmarkAckLatency measures, with IDLE, the time from a mail's delivery
// into the bot's mailbox (LMTP to Dovecot done) to its acknowledgement being
// accepted by Postfix. Run: go test -run '^$' -bench AckLatency -benchtime 50x ./pbem/e2e
func BenchmarkAckLatency(b *testing.B) { ackLatency(b, true) }

// BenchmarkAckLatencyPoll is the same with polling every 30 ms instead of
// IDLE, for comparison: Dovecot pushes IDLE news about 0.5 s late.
func BenchmarkAckLatencyPoll(b *testing.B) { ackLatency(b, false) }

func ackLatency(b *testing.B, idle bool) {
	s := getStack(b)
	replies := make(chan time.Time, 100)
	bot, ann, secret, run := benchGame(b, s, idle, func(r outbox.Record) {
		if r.Kind == "reply" {
			replies <- time.Now()
		}
	})
	stop := run()
	defer stop()
	time.Sleep(300 * time.Millisecond) // let the reader reach IDLE
	var lat []time.Duration
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		raw := orderMail(bot, ann, secret, fmt.Sprintf("lat-%d-%s@example.org", i, nonce()), i)
		if err := s.inject(bot, raw); err != nil {
			b.Fatal(err)
		}
		t0 := time.Now()
		select {
		case t1 := <-replies:
			lat = append(lat, t1.Sub(t0))
		case <-time.After(30 * time.Second):
			b.Fatalf("no ack for mail %d", i)
		}
	}
	b.StopTimer()
	slices.Sort(lat)
	q := func(p float64) float64 {
		return float64(lat[min(len(lat)-1, int(p*float64(len(lat))))].Microseconds()) / 1000
	}
	b.ReportMetric(q(0.50), "p50-ms")
	b.ReportMetric(q(0.99), "p99-ms")
	b.ReportMetric(0, "ns/op")
}

// BenchmarkBacklog drains a backlog of order mails (2,000, or
// ORRERY_E2E_BACKLOG) that waited in the bot's mailbox, and, in the same
// run, the servers' raw throughput for the same work without Orrery: fetch
// every mail over IMAP and send one mail per mail through Postfix.
// Run: go test -run '^$' -bench Backlog -benchtime 1x ./pbem/e2e
func BenchmarkBacklog(b *testing.B) {
	s := getStack(b)
	n := 2000
	if v, err := strconv.Atoi(os.Getenv("ORRERY_E2E_BACKLOG")); err == nil && v > 0 {
		n = v
	}
	for b.Loop() {
		b.StopTimer()
		var sent atomic.Int64
		all := make(chan struct{})
		bot, ann, secret, run := benchGame(b, s, true, func(r outbox.Record) {
			if r.Kind == "reply" && sent.Add(1) == int64(n) {
				close(all)
			}
		})
		raw := "raw-" + nonce() + "@" + s.Domain
		if err := s.injectMany(bot, n, func(i int) []byte {
			return orderMail(bot, ann, secret, fmt.Sprintf("bl-%d-%s@example.org", i, nonce()), i)
		}); err != nil {
			b.Fatal(err)
		}
		if err := s.injectMany(raw, n, func(i int) []byte {
			return orderMail(raw, ann, secret, fmt.Sprintf("raw-%d-%s@example.org", i, nonce()), i)
		}); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		t0 := time.Now()
		stop := run()
		select {
		case <-all:
		case <-time.After(10 * time.Minute):
			b.Fatalf("only %d of %d acks after 10 minutes", sent.Load(), n)
		}
		orrery := time.Since(t0)
		stop()
		b.StopTimer()
		t0 = time.Now()
		if err := s.rawFetchAndSend(raw, ann, n); err != nil {
			b.Fatal(err)
		}
		base := time.Since(t0)
		b.ReportMetric(float64(n)/orrery.Seconds(), "orrery-mails/s")
		b.ReportMetric(float64(n)/base.Seconds(), "raw-mails/s")
		b.ReportMetric(orrery.Seconds()/base.Seconds(), "x-raw-time")
		b.ReportMetric(0, "ns/op")
		b.Logf("backlog of %d: orrery %v (%.0f/s), raw fetch+send %v (%.0f/s)", n, orrery.Round(time.Millisecond), float64(n)/orrery.Seconds(), base.Round(time.Millisecond), float64(n)/base.Seconds())
		b.StartTimer()
	}
}

// rawFetchAndSend is the baseline: fetch every mail of user's inbox in
// batches of 50 and send one short mail per mail to `to`.
func (s stack) rawFetchAndSend(user, to string, n int) error {
	sender := s.sender()
	return s.FetchBatches(user, n, 50, func(_ int, raws [][]byte) error {
		var out []outbox.Mail
		for _, raw := range raws {
			out = append(out, outbox.Mail{MessageID: outbox.NewMessageID("bench.example.org"), From: user, To: []string{to},
				Subject: "Re: orders", Text: fmt.Sprintf("got %d bytes\n", len(raw)), Date: time.Now()})
		}
		for _, err := range sender.Send(context.Background(), out) {
			if err != nil {
				return err
			}
		}
		return nil
	})
}
