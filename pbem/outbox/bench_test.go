package outbox_test

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"

	"orrery/engine/store"
	"orrery/engine/store/storetest"
	"orrery/pbem/outbox"
)

// reportMail is a turn report of about the size the daemon queues
// (docs/benchmarks.md): text 4.7 kB, HTML 10.5 kB and report.json 10 kB
// (13.3 kB in base64 in the queue's JSON): some 30 kB a record.
func reportMail(i int) outbox.Mail {
	m := mail(i)
	m.Kind, m.Game = "report", "g1"
	line := strings.Repeat("+--", 25) + "+\n"
	m.Text = strings.Repeat(line, 4700/len(line))
	m.HTML = "<pre class=board>" + strings.Repeat(line, 10500/len(line)) + "</pre>"
	json := []byte(strings.Repeat(`{"unit":"fleet","at":"B7","ships":12},`, 10000/39))
	m.Files = []outbox.File{{Name: "report.json", ContentType: "application/json", Data: json}}
	return m
}

// BenchmarkClaimSettle drains a queue of 600 report-sized mails (queued
// six to a transaction, as the daemon's replies to one order mail are)
// through claim, send and settle, on every backend the tests have. It
// reports what the drain cost per mail: bytes bbolt wrote (the process's
// write calls, /proc/self/io wchar) and its writes (a node or the
// freelist each), round trips to PostgreSQL, and commits; and, apart, the
// bytes bbolt wrote to queue them. Only the drain is timed.
func BenchmarkClaimSettle(b *testing.B) {
	const n = 600
	for _, k := range storetest.Kinds() {
		b.Run(k.Name, func(b *testing.B) {
			st := storetest.Open(b, k)
			var drain, queue store.Stats
			var drainBytes, queueBytes int64
			mails := 0
			for b.Loop() {
				b.StopTimer()
				before, wBefore := st.Stats(), written(b)
				for i := 0; i < n; i += 6 {
					err := st.Update(context.Background(), func(tx store.Tx) error {
						for j := i; j < i+6; j++ {
							if err := outbox.Enqueue(tx, reportMail(j)); err != nil {
								return err
							}
						}
						return nil
					})
					if err != nil {
						b.Fatal(err)
					}
				}
				mid, wMid := st.Stats(), written(b)
				queue = addStats(queue, mid.Sub(before))
				queueBytes += wMid - wBefore
				q := outbox.New(st, &countSender{}, outbox.Options{})
				b.StartTimer()
				if _, err := q.RunOnce(context.Background()); err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				drain = addStats(drain, st.Stats().Sub(mid))
				drainBytes += written(b) - wMid
				if c, err := outbox.Count(st); err != nil || c.Queued != 0 {
					b.Fatalf("after the drain: %+v, %v", c, err)
				}
				mails += n
				b.StartTimer()
			}
			per := func(v int64) float64 { return float64(v) / float64(mails) }
			if k.Name == storetest.Bolt.Name {
				b.ReportMetric(per(drainBytes), "B-written/mail")
				b.ReportMetric(per(queueBytes), "B-queue/mail")
				b.ReportMetric(per(drain.PageWrites), "writes/mail")
			}
			b.ReportMetric(per(drain.RoundTrips), "trips/mail")
			b.ReportMetric(per(drain.Commits), "commits/mail")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(mails), "ns/mail")
		})
	}
}

func addStats(a, b store.Stats) store.Stats {
	return store.Stats{Commits: a.Commits + b.Commits, CommitTime: a.CommitTime + b.CommitTime,
		PageWrites: a.PageWrites + b.PageWrites, RoundTrips: a.RoundTrips + b.RoundTrips, Retries: a.Retries + b.Retries}
}

// written returns the bytes this process has passed to write calls so far
// (/proc/self/io wchar); the benchmark skips where that cannot be read.
func written(b *testing.B) int64 {
	data, err := os.ReadFile("/proc/self/io")
	if err != nil {
		b.Skipf("bytes written: %v", err)
	}
	for line := range strings.SplitSeq(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "wchar: "); ok {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				b.Fatal(err)
			}
			return n
		}
	}
	b.Skip("bytes written: no wchar in /proc/self/io")
	return 0
}
