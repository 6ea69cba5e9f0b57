package pbemtest_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"orrery/pbem/outbox"
	"orrery/pbem/pbemtest"
)

func TestDeliveryLandsInTheRecipientsInbox(t *testing.T) {
	srv := pbemtest.StartT(t, pbemtest.Options{})
	s := &outbox.SMTP{Addr: srv.SMTPAddr, TLS: "none"}
	m := outbox.Mail{MessageID: "a@x", From: "bot@pbem.test", To: []string{"Ann@Example.org"}, Subject: "hi", Text: "hello", Date: time.Now()}
	if errs := s.Send(context.Background(), []outbox.Mail{m}); errs[0] != nil {
		t.Fatal(errs[0])
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	msgs, err := srv.WaitMessages(ctx, "ann@example.org", "INBOX", 1)
	if err != nil || !strings.Contains(string(msgs[0]), "Subject: hi") {
		t.Fatalf("inbox: %v %q", err, msgs)
	}
	if sent := srv.Sent(); len(sent) != 1 || sent[0].From != "bot@pbem.test" {
		t.Errorf("sink: %+v", sent)
	}
}

func TestRestartKeepsPortAndMail(t *testing.T) {
	srv := pbemtest.StartT(t, pbemtest.Options{Users: map[string]string{"bot": "pw"}})
	if err := srv.Append("bot", "INBOX", []byte("Subject: one\r\n\r\nx\r\n")); err != nil {
		t.Fatal(err)
	}
	addr := srv.IMAPAddr
	srv.StopIMAP()
	if _, err := pbemtest.FetchAll(addr, "bot", "pw", "INBOX"); err == nil {
		t.Error("a stopped server answered")
	}
	if err := srv.StartIMAP(); err != nil {
		t.Fatal(err)
	}
	msgs, err := pbemtest.FetchAll(addr, "bot", "pw", "INBOX")
	if srv.IMAPAddr != addr || err != nil || len(msgs) != 1 {
		t.Errorf("after restart at %s: %v, %d messages", srv.IMAPAddr, err, len(msgs))
	}
}

func TestFailSMTP(t *testing.T) {
	srv := pbemtest.StartT(t, pbemtest.Options{NoDeliver: true})
	srv.FailSMTP(errors.New("busy"))
	s := &outbox.SMTP{Addr: srv.SMTPAddr, TLS: "none"}
	m := outbox.Mail{MessageID: "a@x", From: "bot@pbem.test", To: []string{"ann@example.org"}, Subject: "hi", Text: "x", Date: time.Now()}
	if errs := s.Send(context.Background(), []outbox.Mail{m}); errs[0] == nil || !strings.Contains(errs[0].Error(), "busy") {
		t.Errorf("send to a failing sink: %v", errs[0])
	}
	srv.FailSMTP(nil)
	if errs := s.Send(context.Background(), []outbox.Mail{m}); errs[0] != nil {
		t.Errorf("after recovery: %v", errs[0])
	}
	if msgs, _ := srv.Messages("ann@example.org", "INBOX"); len(msgs) != 0 {
		t.Errorf("NoDeliver delivered %d", len(msgs))
	}
}
