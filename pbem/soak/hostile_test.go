//go:build soak

package soak

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-smtp"

	"orrery/engine/game"
	"orrery/pbem/outbox"
	"orrery/pbem/pbemtest"
)

// partHostile sends a few hostile mails through Postfix from outside, for
// the report's figures (the complete set is pbem/hostile, which runs every
// case in-process and, with the ORRERY_E2E_* variables, against these
// same servers as well): a true bounce (envelope
// sender <>, which Dovecot records as Return-Path: <>), an unmarked
// autoresponder at a stranger's address, a mail past Postfix's size limit,
// a forged From without a secret and orders of 10,000 lines. Replies are
// counted from the outbox as they are accepted by Postfix.
func partHostile(t *testing.T, s stack, rep *report) {
	ctx := context.Background()
	n := nonce()
	bot := "orrery-hostile-" + n + "@" + s.Domain
	ann, bob := "ann-h-"+n+"@example.org", "bob-h-"+n+"@example.org"
	robot := "away-h-" + n + "@example.org"
	var mu sync.Mutex
	sent := map[string][]string{} // address → subjects of the replies to it
	st, d, r, err := s.newDaemon(filepath.Join(t.TempDir(), "hostile.db"), bot, false, func(rec outbox.Record) {
		mu.Lock()
		defer mu.Unlock()
		for _, a := range rec.To {
			sent[strings.ToLower(a)] = append(sent[strings.ToLower(a)], rec.Subject)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	g, err := d.Service().Create(ctx, game.CreateRequest{ID: "h", Ruleset: "toy",
		Players: []game.PlayerSpec{{Name: "ann", Email: ann}, {Name: "bob", Email: bob}}, Options: map[string]string{"finish": "1000000"}})
	if err != nil {
		t.Fatal(err)
	}
	pa, _ := g.PlayerByName("ann")
	runCtx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- d.Run(runCtx, r) }()
	defer func() { cancel(); <-done }()
	if err := waitOutbox(st, time.Minute); err != nil {
		t.Fatal(err)
	}
	time.Sleep(500 * time.Millisecond)
	count := func(a string) int { mu.Lock(); defer mu.Unlock(); return len(sent[strings.ToLower(a)]) }
	reset := func() { mu.Lock(); sent = map[string][]string{}; mu.Unlock() }
	reset()
	// settle waits until the bot's inbox is empty and nothing is queued.
	settle := func() {
		time.Sleep(1500 * time.Millisecond) // Postfix → Dovecot → IDLE
		for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
			if left, err := fetchAll(s, bot); err == nil && left == 0 {
				if waitOutbox(st, 30*time.Second) == nil {
					return
				}
			}
		}
		t.Errorf("the daemon did not settle")
	}
	send := func(from string, raw []byte) error { return plainSend(s.SMTP, from, bot, raw) }
	mailText := func(from, subject, body string, hdr ...string) []byte {
		h := strings.Join(hdr, "\r\n")
		if h != "" {
			h += "\r\n"
		}
		return fmt.Appendf(nil, "From: %s\r\nTo: %s\r\nSubject: %s\r\nMessage-ID: <%s@example.org>\r\nDate: %s\r\n%sContent-Type: text/plain; charset=utf-8\r\n\r\n%s\r\n",
			from, bot, subject, nonce(), time.Now().Format(time.RFC1123Z), h, strings.ReplaceAll(body, "\n", "\r\n"))
	}
	applied := func() int {
		x, err := d.Service().Export(ctx, "h")
		if err != nil {
			t.Fatal(err)
		}
		k := 0
		for _, e := range x.Log {
			if e.Kind == "orders" {
				k++
			}
		}
		return k
	}

	// 1. A storm of true bounces quoting ann's orders with her secret.
	const storm = 50
	for i := range storm {
		// Half carry a From that no name rule catches: only the empty
		// envelope sender (Return-Path: <>) marks them as bounces.
		from := "MAILER-DAEMON@mx.example.org (Mail Delivery System)"
		if i%2 == 1 {
			from = "Mail Delivery Subsystem <mailer@mx.example.org>"
		}
		raw := mailText(from, "Undelivered Mail Returned to Sender",
			fmt.Sprintf("This is the mail system.\n\n--- original ---\nFrom: %s\nSubject: [h %s] orders %d\n\nPUSH 3\n", ann, pa.Secret, i))
		if err := send("", raw); err != nil {
			t.Fatalf("bounce %d: %v", i, err)
		}
	}
	settle()
	bounces := count("mailer-daemon@mx.example.org") + count("mailer@mx.example.org") + count(ann)
	rep.add("hostile", fmt.Sprintf("%d true bounces (MAIL FROM:<>) quoting ann's orders and secret: answers / orders applied", storm), fmt.Sprintf("%d / %d", bounces, applied()), "silence, nothing applied", ptr(bounces == 0 && applied() == 0))

	// 2. An unmarked autoresponder at a stranger's address, answering
	// every mail it gets for 5 s.
	reset()
	stop := time.After(5 * time.Second)
	robotSent := 0
	if err := send(robot, mailText(robot, "[h] orders", "PUSH 1")); err != nil {
		t.Fatal(err)
	}
	answered := 0
loop:
	for {
		select {
		case <-stop:
			break loop
		case <-time.After(200 * time.Millisecond):
		}
		for ; answered < count(robot); answered++ {
			if err := send(robot, mailText(robot, "Auto: away", "I am away until Monday.")); err != nil {
				t.Fatal(err)
			}
			robotSent++
		}
	}
	settle()
	got := count(robot)
	rep.add("hostile", "unmarked autoresponder at a stranger's address, 5 s: the bot's mails / the robot's", fmt.Sprintf("%d / %d", got, robotSent+1), "no loop (≤ 1 a day)", ptr(got <= 1))

	// 3. Past Postfix's size limit: Postfix refuses it; the daemon never
	// sees it.
	reset()
	big := base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{0x5a}, 10<<20))
	raw := fmt.Appendf(nil, "From: %s\r\nTo: %s\r\nSubject: [h %s] orders\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\nPUSH 2\r\n--b\r\nContent-Type: application/octet-stream\r\nContent-Transfer-Encoding: base64\r\n\r\n%s\r\n--b--\r\n", ann, bot, pa.Secret, big)
	bigErr := send(ann, raw)
	settle()
	rep.add("hostile", "10 MB attachment (13.7 MB encoded) through Postfix (message_size_limit 10,240,000)", fmt.Sprintf("Postfix: %v; answers %d, applied %d", firstLine(bigErr), count(ann), applied()), "documented answer, nothing applied", ptr(applied() == 0))

	// 4. Forged From without a secret: the real ann is told.
	reset()
	if err := send("mallory@evil.example", mailText("Ann <"+ann+">", "[h] orders", "PUSH 3")); err != nil {
		t.Fatal(err)
	}
	settle()
	rep.add("hostile", "forged From: ann without a secret: answers to ann / applied", fmt.Sprintf("%d / %d", count(ann), applied()), "one (secret missing), nothing applied", ptr(count(ann) == 1 && applied() == 0))

	// 5. 10,000 lines of orders.
	reset()
	var b strings.Builder
	for i := range 10000 {
		fmt.Fprintf(&b, "PUSH %d\n", 1+i%3)
	}
	t0 := time.Now()
	if err := send(ann, mailText(ann, "[h "+pa.Secret+"] orders", b.String())); err != nil {
		t.Fatal(err)
	}
	settle()
	rep.add("hostile", "orders of 10,000 lines: answers / applied / time to settle", fmt.Sprintf("%d / %d / %v", count(ann), applied(), time.Since(t0).Round(time.Millisecond)), "one answer, nothing applied", ptr(count(ann) == 1 && applied() == 0))
}

func firstLine(err error) string {
	if err == nil {
		return "accepted"
	}
	l, _, _ := strings.Cut(err.Error(), "\n")
	return l
}

func fetchAll(s stack, user string) (int, error) {
	msgs, err := pbemFetch(s.IMAP, user)
	return len(msgs), err
}

func pbemFetch(addr, user string) ([][]byte, error) {
	return pbemtest.FetchAll(addr, user, "any", "INBOX")
}

// plainSend submits raw with envelope sender from ("" for <>) over plain
// SMTP on loopback, as a remote MTA would hand it to Postfix.
func plainSend(addr, from, to string, raw []byte) error {
	c, err := smtp.Dial(addr)
	if err != nil {
		return err
	}
	defer c.Close()
	if err := c.Hello("localhost"); err != nil {
		return err
	}
	if err := c.Mail(from, nil); err != nil {
		return err
	}
	if err := c.Rcpt(to, nil); err != nil {
		return err
	}
	w, err := c.Data()
	if err != nil {
		return err
	}
	if _, err := w.Write(raw); err != nil {
		w.Close()
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	return c.Quit()
}
