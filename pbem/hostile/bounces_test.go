package hostile

// Issue 39's attacks with forged delivery status notifications, and a real
// bounce from Postfix that must still count.

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"orrery/engine/store"
	"orrery/pbem/bounce"
	"orrery/pbem/daemon"
	"orrery/pbem/outbox"
	"orrery/pbem/pbemtest"
	"orrery/pbem/policy"
)

// forgedDSN is a report of n recipient blocks naming rcpt, quoting the
// Message-ID id, from MAILER-DAEMON@evil.example; with envelope set it
// carries that address in a Delivered-To of its own (as the attacker
// read it in the Return-Path of the mail he got).
func (e *env) forgedDSN(envelope, id, rcpt string, n int) []byte {
	e.n++
	var b strings.Builder
	if envelope != "" {
		b.WriteString("Delivered-To: " + envelope + "\r\n")
	}
	fmt.Fprintf(&b, "From: MAILER-DAEMON@evil.example (Mail Delivery System)\r\nTo: %s\r\nSubject: Undelivered Mail Returned to Sender\r\n"+
		"Message-ID: <forged%d-%d@evil.example>\r\nDate: %s\r\nAuto-Submitted: auto-replied\r\nMIME-Version: 1.0\r\n"+
		"Content-Type: multipart/report; report-type=delivery-status; boundary=\"b\"\r\n\r\n"+
		"--b\r\nContent-Type: text/plain\r\n\r\nYour mail could not be delivered.\r\n"+
		"--b\r\nContent-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; mx.evil.example\r\n",
		e.bot, e.n, time.Now().UnixNano(), time.Now().Format(time.RFC1123Z))
	for i := range n {
		fmt.Fprintf(&b, "\r\nFinal-Recipient: rfc822; %s\r\nAction: failed\r\nStatus: 5.1.1\r\nDiagnostic-Code: smtp; 550 5.1.1 <%s>: no such user (%d)\r\n", rcpt, rcpt, i)
	}
	fmt.Fprintf(&b, "--b\r\nContent-Type: text/rfc822-headers\r\n\r\nFrom: Orrery <%s>\r\nTo: %s\r\nMessage-ID: <%s>\r\nSubject: your mail\r\n\r\n--b--\r\n", e.bot, rcpt, id)
	return []byte(b.String())
}

// verpOf is the envelope sender the daemon gave the mail with Message-ID
// id (the one its recipient finds in the Return-Path).
func (e *env) verpOf(id string) string {
	e.t.Helper()
	var addr string
	err := e.st.View(context.Background(), func(tx store.Tx) error {
		rec, ok, err := outbox.FindSent(tx, id, time.Time{})
		if err != nil || !ok {
			return fmt.Errorf("no record of %s sent: %v", id, err)
		}
		key, err := bounce.VERPKey(tx, false)
		local, domain, _ := strings.Cut(e.bot, "@")
		addr = bounce.VERP{Key: key, Local: local, Delimiter: "+", Domain: domain}.Address(rec.Seq)
		return err
	})
	if err != nil {
		e.t.Fatal(err)
	}
	return addr
}

func (e *env) bounces(addr string) (hard, soft int, unreachable bool) {
	e.st.View(context.Background(), func(tx store.Tx) error {
		s, _ := bounce.Load(tx, addr)
		hard, soft = s.Count()
		unreachable = !s.Unreachable.IsZero()
		return nil
	})
	return
}

// Issue 39, attack 1: one who got a single mail from the bot sends three
// 250 KB DSNs of 3,400 recipient blocks quoting it, addressed to its real
// VERP address (the worst he can do: it is a valid token). Another
// player's STATUS, sent right after, is answered within 2 s (it waited a
// minute); the database grows by a few KB (it doubled); the mail counts
// as one bounce of the attacker's own address.
func TestForgedDSNFlood(t *testing.T) { both(t, testForgedDSNFlood) }

func testForgedDSNFlood(t *testing.T, b backend) {
	e := start(t, b, envOptions{})
	mallory := e.addr("mallory", "evil.example")
	_, raw := e.msg(mallory, "help", "HELP")
	e.deliver(raw)
	e.settle()
	got := to(e.take(), mallory)
	if len(got) != 1 {
		t.Fatalf("%d answers to the stranger's HELP", len(got))
	}
	id := strings.Trim(got[0].head.Get("Message-Id"), "<>")
	envelope := e.verpOf(id)
	if e.real {
		// Postfix was given the VERP address as MAIL FROM: Dovecot
		// wrote it in the Return-Path of the mail mallory got.
		ms, err := e.srv.messages(mallory)
		if err != nil || len(ms) != 1 || !strings.Contains(string(ms[0]), "Return-Path: <"+envelope+">") {
			t.Fatalf("mallory's mailbox (%v): want one mail with Return-Path <%s>:\n%.600s", err, envelope, ms)
		}
	}
	before := dbBytes(t, e.st)
	for range 3 {
		raw := e.forgedDSN(envelope, id, mallory, 3400)
		if len(raw) < 240<<10 {
			t.Fatalf("a forged DSN of %d bytes", len(raw))
		}
		if e.real {
			// Sent to the VERP address itself: Dovecot delivers it to
			// the bot's mailbox and writes it in Delivered-To.
			if err := e.srv.deliver("", envelope, e.forgedDSN("", id, mallory, 3400)); err != nil {
				t.Fatal(err)
			}
			continue
		}
		e.deliverFrom("", raw)
	}
	_, rawBob := e.msg(e.bob, "[g1 "+e.secret("bob")+"] status", "STATUS")
	skip := len(e.srv.sent())
	t0 := time.Now()
	e.deliver(rawBob)
	wait := e.waitSent(e.bob, skip).Sub(t0)
	e.settle()
	grown := dbBytes(t, e.st) - before
	t.Logf("bob's STATUS answered %v after it was delivered, behind three forged DSNs; the database grew %d bytes", wait.Round(time.Millisecond), grown)
	if wait > 2*time.Second {
		t.Errorf("bob's STATUS waited %v behind three forged DSNs; want at most 2s", wait)
	}
	if grown > 8<<10 {
		t.Errorf("the database grew by %d bytes", grown)
	}
	if ms := e.take(); len(to(ms, e.bob)) != 1 || len(ms) != 1 {
		t.Errorf("want one answer, to bob: %v to %v", subjects(ms), recipients(ms))
	}
	if hard, soft, un := e.bounces(mallory); hard != 1 || soft != 0 || un {
		t.Errorf("three DSNs on one mail: %d hard, %d soft bounces of mallory, unreachable %v", hard, soft, un)
	}
}

// Issue 39, attack 2: three forged DSNs citing the real Message-ID of a
// mail the bot sent to bob (from a report he forwarded), from
// MAILER-DAEMON@evil.example, not addressed to a token of ours, count for
// nothing: bob keeps his seat and is not unreachable. Under bounces.verp:
// off with sender_auth strict they are refused as unauthenticated.
func TestForgedDSNsTakeNoSeat(t *testing.T) { both(t, testForgedDSNsTakeNoSeat) }

func testForgedDSNsTakeNoSeat(t *testing.T, b backend) {
	for _, c := range []struct {
		name string
		o    envOptions
	}{
		{"verp", envOptions{}},
		{"verp off, strict", envOptions{policy: policy.Config{AuthServID: authServ, SenderAuth: policy.AuthStrict},
			daemon: func(c *daemon.Config) { c.Bounces.NoVERP = true }}},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := start(t, b, c.o)
			id := ""
			for _, m := range e.srv.sent() { // the welcome mails
				if len(m.To) == 1 && strings.EqualFold(m.To[0], e.bob) {
					id = strings.Trim(header(m.Data, "Message-Id"), "<>")
				}
			}
			if id == "" {
				t.Fatal("no mail to bob")
			}
			for range 3 {
				e.deliverFrom("", e.forgedDSN("", id, e.bob, 1))
			}
			e.settle()
			if ms := e.take(); len(ms) != 0 {
				t.Errorf("forged DSNs answered: %v to %v", subjects(ms), recipients(ms))
			}
			if hard, soft, un := e.bounces(e.bob); hard+soft != 0 || un {
				t.Errorf("three forged DSNs: %d hard, %d soft bounces of bob, unreachable %v", hard, soft, un)
			}
			g, err := e.d.Service().Get(context.Background(), "g1")
			if err != nil {
				t.Fatal(err)
			}
			if p, ok := g.PlayerByName("bob"); !ok || p.Bot || !strings.EqualFold(p.Email, e.bob) || p.Secret != e.secret("bob") {
				t.Errorf("bob's seat after three forged DSNs: %+v", p)
			}
		})
	}
}

// header is the first value of header name in raw, unfolded.
func header(raw []byte, name string) string {
	head, _, _ := strings.Cut(string(raw), "\r\n\r\n")
	for _, l := range strings.Split(strings.ReplaceAll(head, "\r\n\t", " "), "\r\n") {
		if k, v, ok := strings.Cut(l, ":"); ok && strings.EqualFold(k, name) {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// A real bounce still counts: Postfix takes the bot's answer to bob, then
// returns it (scripts/mailstack.sh bounce) with a DSN to the envelope
// sender, the mail's VERP address; Dovecot delivers it to the bot's
// mailbox, and it counts as one hard bounce of bob.
func TestRealBounceCountsByVERP(t *testing.T) {
	s, ok := pbemtest.RealStackFromEnv()
	if !ok {
		t.Skip(pbemtest.RealStackHowTo)
	}
	e := start(t, backend{real: true, stack: s}, envOptions{})
	mailstack(t, s.IMAP, "bounce", e.bob)
	t.Cleanup(func() { exec.Command("../../scripts/mailstack.sh", "unbounce", e.bob).Run() })
	_, raw := e.msg(e.bob, "[g1 "+e.secret("bob")+"] status", "STATUS")
	e.deliver(raw)
	deadline := time.Now().Add(e.settleIn)
	for time.Now().Before(deadline) {
		if hard, _, _ := e.bounces(e.bob); hard > 0 {
			break
		}
		time.Sleep(e.poll)
	}
	if hard, soft, _ := e.bounces(e.bob); hard != 1 || soft != 0 {
		t.Fatalf("Postfix's bounce of the answer to bob: %d hard, %d soft bounces counted; want 1 hard", hard, soft)
	}
}

// mailstack runs scripts/mailstack.sh on the stack the tests use, which
// must be the one its MAILSTACK_* variables name.
func mailstack(t *testing.T, imap string, args ...string) {
	t.Helper()
	port := os.Getenv("MAILSTACK_IMAP_PORT")
	if port == "" {
		port = "1143"
	}
	if imap != "127.0.0.1:"+port {
		t.Skipf("the stack at %s is not the one scripts/mailstack.sh controls with these variables (IMAP port %s)", imap, port)
	}
	if out, err := exec.Command("../../scripts/mailstack.sh", args...).CombinedOutput(); err != nil {
		t.Fatalf("mailstack.sh %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}
