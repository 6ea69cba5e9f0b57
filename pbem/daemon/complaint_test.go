package daemon_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"orrery/engine/game"
	"orrery/engine/store"
	"orrery/pbem/bounce"
	"orrery/pbem/imapin"
	"orrery/pbem/pbemtest"
)

// arfMail is testdata/arf/file (Yahoo's or JMRP's shape) about the mail m,
// whose VERP envelope sender it carries as Original-Mail-From and
// Return-Path (envelope "" keeps the placeholder: no token of ours).
func arfMail(t *testing.T, h *harness, file string, m pbemtest.Mail, envelope string) imapin.Message {
	t.Helper()
	raw, err := os.ReadFile("../bounce/testdata/arf/" + file)
	if err != nil {
		t.Fatal(err)
	}
	s := string(raw)
	if envelope != "" {
		s = strings.ReplaceAll(s, "orrery+b-VERPTOKEN@pbem.example", envelope)
	}
	for _, old := range []string{"9f1c2ab45e7d10a2b3c4d5e6.demo1.e0s7.orrery@pbem.example", "2b7d90e1c44a51f3a0b8e6d2.demo1.e0s8.orrery@pbem.example"} {
		s = strings.ReplaceAll(s, old, idOf(m))
	}
	s = strings.ReplaceAll(s, "bob@yahoo.com", m.To[0])
	h.n++
	s = strings.Replace(s, "Message-ID: <", fmt.Sprintf("Message-ID: <arf%d.", h.n), 1) // the report's own: each is new
	return imapin.Message{Mailbox: "INBOX", UIDValidity: 1, UID: uint32(h.n), Raw: []byte(s)}
}

// TestComplaintStopsOptionalMail: a feedback report (ARF) about a mail
// sent to bob, carrying that mail's VERP address, stops bob's reminders
// and observer reports, and tells the GM, once; bob still gets his
// reports. A report without a valid token (its Message-ID alone, or a
// made-up token) changes nothing. SET REMINDERS on from bob starts them
// again.
func TestComplaintStopsOptionalMail(t *testing.T) {
	h, now := clocked(t, game.Settings{Early: true, TurnLength: 24 * time.Hour, Reminders: []time.Duration{2 * time.Hour}})
	h.handle(h.mail("ann@example.org", "[g2 "+h.secret("ann")+"]", "push 1"))
	sent := h.say("bob@example.org", "[g2 "+h.secret("bob")+"]", "push 1")
	bobs := sentTo(sent, "bob@example.org")
	if len(bobs) < 2 {
		t.Fatalf("%d mails to bob", len(bobs))
	}
	complained := func() (c bool) {
		h.st.View(context.Background(), func(tx store.Tx) error { c = bounce.Complained(tx, "bob@example.org"); return nil })
		return
	}
	for _, m := range []imapin.Message{
		arfMail(t, h, "yahoo-abuse.eml", bobs[0], ""),
		arfMail(t, h, "microsoft-jmrp.eml", bobs[0], strings.Replace(bobs[0].From, "+b-", "+b-a", 1)),
	} {
		h.handle(m)
	}
	if complained() {
		t.Fatal("a feedback report without a valid token silenced bob")
	}
	if gm := to(h.flush(), gmAddr); len(gm) != 0 {
		t.Errorf("the GM was told of a report without a token: %q", gm)
	}
	h.handle(arfMail(t, h, "yahoo-abuse.eml", bobs[0], bobs[0].From))
	if !complained() {
		t.Fatal("Yahoo's complaint about a mail to bob did not count")
	}
	h.handle(arfMail(t, h, "microsoft-jmrp.eml", bobs[1], bobs[1].From))
	sent = h.flush()
	one(t, to(sent, gmAddr), "gm", "A player marked our mail as spam", "bob@example.org marked a mail of mine about game g2 as spam",
		"Yahoo!-Mail-Feedback/2.0", "SET REMINDERS on")
	none(t, to(sent, "bob@example.org"), "bob")

	// No reminder to bob; ann still gets hers.
	*now = now.Add(22*time.Hour + time.Minute)
	h.tick()
	sent = h.flush()
	one(t, to(sent, "ann@example.org"), "ann", "Reminder: your orders are due")
	none(t, to(sent, "bob@example.org"), "bob")
	// His reports still come.
	h.handle(h.mail("ann@example.org", "[g2 "+h.secret("ann")+"]", "push 1"))
	some(t, to(h.say("bob@example.org", "[g2 "+h.secret("bob")+"]", "push 1"), "bob@example.org"), "bob", "report for bob")

	// An observer who complained gets no more observer reports.
	h.handle(h.mail("Olga <olga@example.org>", "watch", "OBSERVE g2"))
	h.confirm(h.flush(), "olga@example.org")
	olgas := sentTo(h.flush(), "olga@example.org")
	if len(olgas) == 0 {
		t.Fatal("no mail to olga")
	}
	h.handle(arfMail(t, h, "yahoo-abuse.eml", olgas[0], olgas[0].From))
	h.handle(h.mail("ann@example.org", "[g2 "+h.secret("ann")+"]", "push 1"))
	sent = h.say("bob@example.org", "[g2 "+h.secret("bob")+"]", "push 1")
	some(t, to(sent, gmAddr), "gm", "A player marked our mail as spam", "olga@example.org marked a mail of mine")
	none(t, to(sent, "olga@example.org"), "olga")

	// On DIGEST, bob's own reports come at once, and no digest.
	h.say("bob@example.org", "set", "SET DIGEST on")
	h.handle(h.mail("ann@example.org", "[g2 "+h.secret("ann")+"]", "push 1"))
	some(t, to(h.say("bob@example.org", "[g2 "+h.secret("bob")+"]", "push 1"), "bob@example.org"), "bob", "report for bob")
	h.gm("GM MESSAGE g2 The server moves on Tuesday.")
	h.flush()
	*now = time.Date(now.Year(), now.Month(), now.Day()+1, 7, 0, 0, 0, time.UTC)
	if err := h.d.Maintain(context.Background()); err != nil {
		t.Fatal(err)
	}
	none(t, to(h.flush(), "bob@example.org"), "bob")

	h.say("bob@example.org", "set", "SET REMINDERS on")
	if complained() {
		t.Error("SET REMINDERS on did not start bob's optional mail again")
	}
}
