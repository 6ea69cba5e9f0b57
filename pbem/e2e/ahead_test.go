package e2e

import (
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"orrery/engine"
	"orrery/engine/enginetest/toy"
	"orrery/engine/game"
	"orrery/pbem/outbox"
)

// TestAheadPreviewReceiptsByMail plays the toy race of ann, bob and cyd
// through Postfix and Dovecot: ann sends orders for turn 3 during turn 1
// and they are applied in turn 3; bob's orders for turn 2 no longer fit
// when it opens and he is told at once; cyd's PREVIEW shows her orders
// with bob's default, never his pending orders; cyd checks her receipt
// with the mailed shell command and finds it in the turn's report.
func TestAheadPreviewReceiptsByMail(t *testing.T) {
	e := newRun(t)
	s, bot := e.stack, e.bot
	ctx := e.start(t, "game.db", []engine.Ruleset{toy.Ruleset()}, false, 3*time.Minute)
	d := e.d
	specs := e.players("ann", "bob", "cyd")
	g, err := d.Service().Create(ctx, game.CreateRequest{ID: "ahead", Ruleset: "toy", Players: specs, DiceSecret: "e2e", Options: map[string]string{"finish": "40"}})
	if err != nil {
		t.Fatal(err)
	}
	addr := map[string]string{}
	secret := map[string]string{}
	for _, p := range g.Players {
		addr[p.Name], secret[p.Name] = p.Email, p.Secret
	}
	send := func(who, body string) {
		t.Helper()
		m := outbox.Mail{From: addr[who], To: []string{bot}, Subject: "[ahead " + secret[who] + "] orders", Text: body}
		if err := s.sender().Send(ctx, []outbox.Mail{m})[0]; err != nil {
			t.Fatal(err)
		}
	}
	await := s.awaiter(t, 60*time.Second, func(who string) string { return addr[who] })
	send("ann", "ORDERS TURN 3\npush 3")
	await("ann", "Your orders for turn 3 of game ahead are held")
	send("bob", "ORDERS TURN 2\npush 9")
	await("bob", "Your orders for turn 2 of game ahead are held")
	send("bob", "push 2")
	await("bob", "your orders for game ahead are accepted")
	send("cyd", "PREVIEW\npush 2")
	pv := await("cyd", "would do if the step resolved now")
	if !strings.Contains(pv, "cyd pushes 2+") || !strings.Contains(pv, "bob pushes 1+") || strings.Contains(pv, "bob pushes 2+") {
		t.Fatalf("cyd's preview shows her orders and bob's pending ones, or not her own:\n%s", pv)
	}
	send("cyd", "push 1")
	ack := await("cyd", "RECEIPT")
	m := regexp.MustCompile(`(?s)RECEIPT\n.*?\n  ([0-9a-f]{64})\n.*?\n(  printf .*?sha256sum)\n`).FindStringSubmatch(ack)
	if m == nil {
		t.Fatalf("cyd's ack has no receipt:\n%s", ack)
	}
	if out, err := exec.Command("sh", "-c", m[2]).Output(); err != nil || !strings.HasPrefix(string(out), m[1]) {
		t.Fatalf("%s prints %q (%v), the receipt is %s", m[2], out, err, m[1])
	}
	send("ann", "push 1") // the turn resolves; turn 2 opens
	if rep := await("cyd", "game ahead, turn 2"); !strings.Contains(rep, "    "+m[1]+"\n") {
		t.Fatalf("cyd's report of turn 1 does not list her receipt %s:\n%s", m[1], rep)
	}
	await("bob", "Your orders held for turn 2 of game ahead no longer fit")
	for _, p := range []string{"ann", "bob", "cyd"} {
		send(p, "push 1")
	}
	await("ann", "Your orders held for turn 3 of game ahead are now your orders for it")
	send("bob", "push 1")
	send("cyd", "push 1")
	if rep := await("bob", "game ahead, turn 4"); !strings.Contains(rep, "ann pushes 3+") {
		t.Fatalf("turn 3 did not use ann's held orders:\n%s", rep)
	}
	if v, err := d.Service().Verify(ctx, "ahead"); err != nil || !v.OK() {
		t.Fatalf("verify: %v %+v", err, v)
	}
}

// awaiter returns await(who, want), which waits up to within for a mail
// to who's address (addr(who)) whose text has want, and returns its text;
// each call looks only at the mails that came after the last one it
// returned for who, so that a test follows a player's mail in order.
func (s stack) awaiter(t *testing.T, within time.Duration, addr func(who string) string) func(who, want string) string {
	seen := map[string]int{}
	return func(who, want string) string {
		t.Helper()
		for deadline := time.Now().Add(within); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
			msgs, _ := s.fetch(addr(who))
			for i := seen[who]; i < len(msgs); i++ {
				if text := plainPart(t, msgs[i]); strings.Contains(text, want) {
					seen[who] = i + 1
					return text
				}
			}
		}
		t.Fatalf("%s got no mail saying %q", who, want)
		return ""
	}
}
