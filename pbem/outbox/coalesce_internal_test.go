package outbox

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// recConn is a net.Conn that records what reaches it: each Write's
// length, and "R" for a Read, "C" for Close.
type recConn struct {
	net.Conn
	ops   []string
	bytes []byte
	fail  error // Write fails with it
}

func (c *recConn) Write(p []byte) (int, error) {
	if c.fail != nil {
		return 0, c.fail
	}
	c.ops = append(c.ops, "W"+strings.Repeat("k", len(p)/1024))
	c.bytes = append(c.bytes, p...)
	return len(p), nil
}
func (c *recConn) Read(p []byte) (int, error) { c.ops = append(c.ops, "R"); return 0, nil }
func (c *recConn) Close() error               { c.ops = append(c.ops, "C"); return nil }

func TestCoalescingConn(t *testing.T) {
	k := func(n int) string { return "W" + strings.Repeat("k", n) }
	for _, tc := range []struct {
		name string
		do   []int // >0: write that many KB; 0: read; -1: close
		want []string
	}{
		{"held until the answer is read", []int{4, 4, 4, 0}, []string{k(12), "R"}},
		{"a command and its answer, twice", []int{1, 0, 1, 0}, []string{k(1), "R", k(1), "R"}},
		{"a read with nothing held writes nothing", []int{0, 0}, []string{"R", "R"}},
		{"sent before the held bytes would pass 64 KB", []int{40, 20, 8, 0}, []string{k(60), k(8), "R"}},
		{"a write of 64 KB or more goes at once, after what was held", []int{4, 70, 0}, []string{k(4), k(70), "R"}},
		{"close sends what is held", []int{4, -1}, []string{k(4), "C"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := &recConn{}
			c := &coalescingConn{Conn: rec}
			var sent []byte
			for i, op := range tc.do {
				switch {
				case op > 0:
					p := []byte(strings.Repeat(string(rune('a'+i)), op*1024))
					if n, err := c.Write(p); n != len(p) || err != nil {
						t.Fatalf("Write(%d KB) = %d, %v", op, n, err)
					}
					sent = append(sent, p...)
				case op == 0:
					c.Read(make([]byte, 10))
				default:
					c.Close()
				}
			}
			if !slices.Equal(rec.ops, tc.want) {
				t.Errorf("reached the connection: %v, want %v", rec.ops, tc.want)
			}
			if string(rec.bytes) != string(sent) {
				t.Errorf("the bytes that reached the connection are not those written, in order (%d of %d)", len(rec.bytes), len(sent))
			}
		})
	}
}

// A write that fails is told at the next Read (where the client waits for
// the server's answer), and every later Write and Read fails with it.
func TestCoalescingConnWriteFailure(t *testing.T) {
	broken := errors.New("connection reset by peer")
	rec := &recConn{fail: broken}
	c := &coalescingConn{Conn: rec}
	if _, err := c.Write([]byte("DATA\r\n")); err != nil {
		t.Fatalf("a held write failed at once: %v", err)
	}
	if _, err := c.Read(make([]byte, 10)); !errors.Is(err, broken) {
		t.Errorf("Read after a failed send = %v, want %v", err, broken)
	}
	if _, err := c.Write([]byte("QUIT\r\n")); !errors.Is(err, broken) {
		t.Errorf("Write after a failed send = %v, want %v", err, broken)
	}
	if _, err := c.Read(make([]byte, 10)); !errors.Is(err, broken) {
		t.Errorf("second Read after a failed send = %v, want %v", err, broken)
	}
	if slices.Contains(rec.ops, "R") {
		t.Errorf("the connection was read after its write failed: %v", rec.ops)
	}
}

// BenchmarkSMTPSend sends turn-report-sized mails (6 KB of text, 30 KB of
// HTML, a 10 KB report.json) through the SMTP server ORRERY_E2E_SMTP
// names (scripts/mailstack.sh: Postfix on loopback), in batches of 100
// over one connection as the outbox does, with go-mail's writes as it
// makes them (4 KB at a time) and coalesced. It reports this process's
// CPU a mail (the sender's own work; the servers' is the soak's to
// measure):
//
//	eval "$(scripts/mailstack.sh env)"; go test -run '^$' -bench SMTPSend -benchtime 2000x ./pbem/outbox/
func BenchmarkSMTPSend(b *testing.B) {
	addr := os.Getenv("ORRERY_E2E_SMTP")
	if addr == "" {
		b.Skip("ORRERY_E2E_SMTP is not set: start scripts/mailstack.sh")
	}
	domain := cmp.Or(os.Getenv("ORRERY_E2E_DOMAIN"), "pbem.test")
	text := strings.Repeat("Vega        bob     12 ships   size M   makes 3 a turn\n", 110)
	html := "<table>" + strings.Repeat("<tr><td>Vega</td><td>bob</td><td>12</td><td>M</td><td>3 &amp; more</td></tr>\n", 370) + "</table>"
	js := []byte(strings.Repeat(`{"hex":{"Q":1,"R":-1},"name":"Rigel","owner":"ann","ships":1,"size":"S"},`, 140))
	for _, coalesced := range []bool{false, true} {
		b.Run(map[bool]string{false: "go-mail-writes", true: "coalesced"}[coalesced], func(b *testing.B) {
			s := &SMTP{Addr: addr, TLS: "none", Timeout: 20 * time.Second, uncoalesced: !coalesced}
			ctx := context.Background()
			var cpu time.Duration
			n := 0
			for b.Loop() {
				n++
				if n%100 != 0 {
					continue
				}
				var batch []Mail
				for i := range 100 {
					batch = append(batch, Mail{From: "bot@" + domain, To: []string{fmt.Sprintf("bench%d@%s", i%10, domain)}, Subject: "Turn 3",
						Text: text, HTML: html, Files: []File{{Name: "report.json", ContentType: "application/json", Data: js}},
						MessageID: NewMessageID(domain), Date: time.Now()})
				}
				c0 := processCPU()
				for _, err := range s.Send(ctx, batch) {
					if err != nil {
						b.Fatal(err)
					}
				}
				cpu += processCPU() - c0
			}
			b.ReportMetric(float64(cpu.Microseconds())/1000/float64(n-n%100), "cpu-ms/mail")
		})
	}
}

// processCPU is the CPU time this process has used.
func processCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
