package hostile

// Figures of issue 17's attacks, as benchmarks (never timed assertions):
//
//	go test -run '^$' -bench . -benchtime 3x ./pbem/hostile/
//
// with the ORRERY_E2E_* variables set for the dovecot-postfix runs too.
// Each reports per mail: the database's growth (dbBytes), the size of the
// answer, and how long another player's mail, delivered right after the
// attacker's, waited for its answer. docs/benchmarks.md has the figures.

import (
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"orrery/pbem/pbemtest"
)

func benchBoth(b *testing.B, f func(*testing.B, backend)) {
	b.Run("in-process", func(b *testing.B) { f(b, backend{}) })
	b.Run("dovecot-postfix", func(b *testing.B) {
		s, ok := pbemtest.RealStackFromEnv()
		if !ok {
			b.Skip("needs Dovecot and Postfix: see pbem/hostile's doc")
		}
		f(b, backend{real: true, stack: s})
	})
}

// attack sends the attacker's mail, then bob's STATUS at once, and
// returns the attacker's answer's size, how long bob waited, and the CPU
// time the process spent meanwhile (the daemon's, and in-process the
// mail servers' too): on a shared machine the wall time varies with the
// load, the CPU time much less.
func (e *env) attack(raw []byte) (answer int, wait, cpu time.Duration) {
	e.t.Helper()
	_, rawBob := e.msg(e.bob, "[g1 "+e.secret("bob")+"] status", "STATUS")
	skip := len(e.srv.sent())
	c0 := cpuTime()
	e.deliver(raw)
	t0 := time.Now()
	e.deliver(rawBob)
	wait = e.waitSent(e.bob, skip).Sub(t0)
	cpu = cpuTime() - c0
	e.settle()
	for _, m := range to(e.take(), e.ann) {
		answer += m.size()
	}
	return answer, wait, cpu
}

// cpuTime is the CPU time this process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkRejectedOrders: mails of 80,000 bad order lines (240 KB).
func BenchmarkRejectedOrders(b *testing.B) { benchBoth(b, benchRejectedOrders) }

func benchRejectedOrders(b *testing.B, be backend) {
	e := start(b, be, envOptions{})
	body := strings.Repeat("9\n", 80000)
	e.benchAttacks(b, func(i int) []byte {
		_, raw := e.msg(e.ann, "[g1 "+e.secret("ann")+"] orders", fmt.Sprintf("PUSH %d\n", 5+i%50)+body)
		return raw
	})
}

// benchAttacks times b.N attacks, mail(i) each, and reports what one
// costs: the database's growth, the answers' bytes, the wait for other
// work and the CPU.
func (e *env) benchAttacks(b *testing.B, mail func(i int) []byte) {
	before := dbBytes(b, e.st)
	var answer int
	var wait, cpu time.Duration
	b.ResetTimer()
	for i := range b.N {
		n, w, c := e.attack(mail(i))
		answer, wait, cpu = answer+n, wait+w, cpu+c
	}
	b.StopTimer()
	b.ReportMetric(float64(dbBytes(b, e.st)-before)/float64(b.N), "db-B/mail")
	b.ReportMetric(float64(answer)/float64(b.N), "answer-B/mail")
	b.ReportMetric(float64(wait.Milliseconds())/float64(b.N), "other-wait-ms")
	b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms")
}

// BenchmarkReadFlood: RESEND × 500, and HISTORY of 500 turns, in one mail,
// in a game of 200 steps.
func BenchmarkReadFlood(b *testing.B) {
	for _, c := range []struct{ name, body string }{
		{"RESEND×500", strings.Repeat("RESEND g1\n", 500)},
		{"HISTORY×500", historyFlood(500, 200)},
	} {
		b.Run(c.name, func(b *testing.B) {
			benchBoth(b, func(b *testing.B, be backend) {
				e := start(b, be, envOptions{repliesPerHour: 1 << 20})
				e.play(200)
				e.benchAttacks(b, func(i int) []byte {
					_, raw := e.msg(e.ann, "[g1 "+e.secret("ann")+"] please", fmt.Sprintf("# %d\n", i)+c.body)
					return raw
				})
			})
		})
	}
}

// BenchmarkObserveFlood: 40 OBSERVE mails from one person's
// plus-addresses, then a step: the mails they got, the addresses
// subscribed, and the database's growth per mail.
func BenchmarkObserveFlood(b *testing.B) { benchBoth(b, benchObserveFlood) }

func benchObserveFlood(b *testing.B, be backend) {
	var mails, subscribed, growth float64
	for i := range b.N {
		e := start(b, be, envOptions{})
		before := dbBytes(b, e.st)
		const flood = 40
		for n := range flood {
			e.deliver(e.msg2(e.tagged(fmt.Sprintf("eve%d", i), fmt.Sprint(n), "evil.example"), "watch", "OBSERVE g1"))
		}
		e.settle()
		growth += float64(dbBytes(b, e.st)-before) / flood
		e.deliver(e.msg2(e.ann, "[g1 "+e.secret("ann")+"] orders", "PUSH 1"))
		e.deliver(e.msg2(e.bob, "[g1 "+e.secret("bob")+"] orders", "PUSH 1"))
		e.settle()
		for _, m := range e.take() {
			for _, r := range m.to {
				if strings.Contains(r, "eve") {
					mails++
				}
			}
		}
		subscribed += float64(len(e.observers("g1")))
	}
	b.ReportMetric(mails/float64(b.N), "mails-to-eve")
	b.ReportMetric(subscribed/float64(b.N), "subscribed")
	b.ReportMetric(growth/float64(b.N), "db-B/mail")
}

// BenchmarkOversizeMail: an 82 MB mail. The bytes handed to the daemon and
// the peak of the Go heap from its delivery until the daemon is done
// (sampled every millisecond; in-process, the IMAP server's copies of the
// mail count there too, so the dovecot-postfix figure is the daemon's
// alone).
func BenchmarkOversizeMail(b *testing.B) { benchBoth(b, benchOversizeMail) }

func benchOversizeMail(b *testing.B, be backend) {
	e := start(b, be, envOptions{})
	big := strings.Repeat(strings.Repeat("0123456789abcdef", 4)+"\r\n", 82<<20/66)
	var peak, handed float64
	for i := range b.N {
		id := fmt.Sprintf("huge%d-%d@example.org", i, time.Now().UnixNano())
		raw := e.multipart(e.ann, "[g1 "+e.secret("ann")+"] orders", id,
			"Content-Type: text/plain; charset=utf-8\r\n\r\nPUSH 2\r\n",
			"Content-Type: application/octet-stream; name=\"a.bin\"\r\n\r\n"+big)
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		base := ms.HeapInuse
		var top atomic.Uint64
		stop := make(chan struct{})
		go func() {
			for {
				select {
				case <-stop:
					return
				case <-time.After(time.Millisecond):
				}
				var ms runtime.MemStats
				runtime.ReadMemStats(&ms)
				if ms.HeapInuse > base && ms.HeapInuse-base > top.Load() {
					top.Store(ms.HeapInuse - base)
				}
			}
		}()
		e.handed.Store(0)
		e.deliver(raw)
		e.settle()
		close(stop)
		e.take()
		peak += float64(top.Load()) / (1 << 20)
		handed += float64(e.handed.Load())
	}
	b.ReportMetric(handed/float64(b.N), "handed-B")
	b.ReportMetric(peak/float64(b.N), "heap-peak-MB")
}
