package daemon_test

import (
	"bytes"
	"fmt"
	"testing"

	"orrery/pbem/daemon"
	"orrery/pbem/imapin"
)

// BenchmarkForgedDSN handles issue 39's forged DSN: 250 KB, 3,400
// recipient blocks naming the one who sent it, quoting a mail the bot
// sent him and addressed to that mail's VERP address; beside it, for
// scale, an ordinary mail (a player's STATUS), handled the same way.
//
//	go test -run '^$' -bench ForgedDSN -benchmem ./pbem/daemon/
//
// Each DSN is new (its own UID and Message-ID), so none is skipped as
// seen; after the first they find the mail counted already, as every
// forged copy after the first does.
func BenchmarkForgedDSN(b *testing.B) {
	for _, c := range []string{"forged-dsn-3400-blocks", "status-mail"} {
		b.Run(c, func(b *testing.B) {
			h := newHarness(b, func(c *daemon.Config) { c.RepliesPerHour, c.PingPong = 1<<30, 1<<30 })
			sent := h.say("ann@example.org", "hello", "HELP")
			m := sentTo(sent, "ann@example.org")[0]
			dsn := forgedDSN(m.From, idOf(m), "ann@example.org", 3400)
			cpu0 := cpuTime()
			n := 0
			for b.Loop() {
				var msg imapin.Message
				if c == "status-mail" {
					msg = h.mail("bob@example.org", "[g1 "+h.secret("bob")+"] status", "STATUS")
				} else {
					h.n++
					raw := bytes.Replace(dsn, []byte("<forged"), fmt.Appendf(nil, "<forged%d-", h.n), 1)
					msg = imapin.Message{Mailbox: "INBOX", UIDValidity: 1, UID: uint32(h.n), Raw: raw}
				}
				h.handle(msg)
				n++
			}
			b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/1000/float64(n), "cpu-ms/op")
		})
	}
}
