package e2e

import (
	"bytes"
	"context"
	"math/rand/v2"
	"mime"
	"net/mail"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"orrery/engine"
	"orrery/engine/game"
	"orrery/engine/store"
	"orrery/games/prosper"
	"orrery/pbem/botplayer"
	"orrery/pbem/bounce"
	"orrery/pbem/daemon"
	"orrery/pbem/outbox"
)

// texts are the decoded subjects and text parts of addr's mail.
func (s stack) texts(t *testing.T, addr string) []string {
	t.Helper()
	msgs, err := s.fetch(addr)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, raw := range msgs {
		m, err := mail.ReadMessage(bytes.NewReader(raw))
		if err != nil {
			continue
		}
		subject, err := new(mime.WordDecoder).DecodeHeader(m.Header.Get("Subject"))
		if err != nil {
			subject = m.Header.Get("Subject")
		}
		out = append(out, subject+"\n"+strings.Join(strings.Fields(plainPart(t, raw)), " "))
	}
	return out
}

func anyHas(list []string, phrases ...string) bool {
next:
	for _, s := range list {
		for _, p := range phrases {
			if !strings.Contains(s, p) {
				continue next
			}
		}
		return true
	}
	return false
}

// TestSeatsNeverGoEmpty is issue 18's "done when", through Postfix and
// Dovecot: a four-player game of Prosper under --abandoned bot in which
// cyd stops sending from the start and, a few steps in, mail to bob starts
// bouncing (Postfix returns it with a DSN). cyd's seat goes to the bot
// after 3 steps without orders. bob's is kept for him when the third DSN
// arrives (issue 39: losing mail is not losing the seat; everyone is told
// it plays his defaults), and goes to the bot only after it has played 3
// steps by defaults (--abandon-after 3) without word from him; the game
// goes on to its end by itself, everyone is told, and verify is clean.
func TestSeatsNeverGoEmpty(t *testing.T) {
	if testing.Short() {
		t.Skip("whole game: runs without -short")
	}
	e := newRun(t)
	s, n, bot := e.stack, e.n, e.bot
	s.MailStack(t, "status")
	gm := "gm-" + n + "@example.org"
	addr := e.addr
	t.Cleanup(func() { exec.Command("../../scripts/mailstack.sh", "unbounce", addr("bob")).Run() })
	ctx := e.start(t, "seats.db", []engine.Ruleset{prosper.Ruleset()}, true, 6*time.Minute,
		func(c *daemon.Config) { c.GM, c.TickEvery = gm, 200*time.Millisecond })
	st, d := e.st, e.d

	specs := e.players("ann", "bob", "cyd", "dan")
	settings := game.Settings{Early: true, TurnLength: 4 * time.Second, AbandonAfter: 3, Abandoned: "bot"}
	// Five rounds (prosper's turn-limit): the game ends by itself sooner
	// than a fight to the last planet, with as many changes of holder.
	g, err := d.Service().Create(ctx, game.CreateRequest{ID: "e2e", Ruleset: "prosper", Players: specs, DiceSecret: "seats",
		Settings: &settings, Options: map[string]string{"turn-limit": "5"}})
	if err != nil {
		t.Fatal(err)
	}
	sender := s.sender()
	players := &botplayer.Players{Service: d.Service(), Game: g.ID, Bot: bot, Rand: rand.New(rand.NewPCG(18, 18)), Stall: time.Minute,
		Fetch: s.fetch, Quiet: map[string]bool{"cyd": true},
		Send: func(ctx context.Context, m outbox.Mail) error {
			m.Kind = ""
			return sender.Send(ctx, []outbox.Mail{m})[0]
		}}
	// A few steps in, bob's mailbox starts refusing mail.
	bounced := make(chan uint64, 1)
	go func() {
		for ctx.Err() == nil {
			if g, err := d.Service().Get(ctx, "e2e"); err == nil && g.Step >= 4 {
				s.MailStack(t, "bounce", addr("bob"))
				bounced <- g.Step
				return
			}
			time.Sleep(50 * time.Millisecond)
		}
	}()
	start := time.Now()
	g, err = players.Play(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	from := <-bounced
	if !g.Over() {
		t.Fatalf("the game did not end: %+v", g.Outcome)
	}
	t.Logf("%d steps in %v; bob's mail bounced from step %d", g.Step, time.Since(start).Round(time.Millisecond), from)
	v, err := d.Service().Verify(ctx, g.ID)
	if err != nil || !v.OK() {
		t.Fatalf("verify: %v %v", err, v)
	}
	// Both seats are the bot's, each holder's history saying why.
	for seat, why := range map[string]string{"bob": "unreachable", "cyd": "abandoned"} {
		p, _ := g.PlayerByName(seat)
		if !p.Bot || len(p.Holders) != 2 || p.Holders[0].Ended != why || p.Holders[0].Email != addr(seat) {
			t.Errorf("seat %s: %+v", seat, p)
		}
	}
	if p, _ := g.PlayerByName("bob"); len(p.Holders) > 0 {
		if b := p.Holders[0].Bounces; len(b) != 1 || b[0].Ended != "abandoned" || len(b[0].Defaults) != 3 {
			t.Errorf("bob's spell of bouncing: %+v", b)
		}
	}
	var state bounce.State
	st.View(context.Background(), func(tx store.Tx) error { state, _ = bounce.Load(tx, addr("bob")); return nil })
	if hard, _ := state.Count(); state.Unreachable.IsZero() || hard < 3 {
		t.Errorf("bob's address: %+v", state)
	}
	// Everyone told what happened (mail is still arriving: wait for it).
	want := map[string][][]string{
		addr("ann"): {{"Mail to bob in e2e bounces", "within 3 steps the computer plays it from then on"},
			{"Mail to bob in e2e bounces", "the computer plays the seat from now on"},
			{"cyd has sent no orders in e2e for 3 steps in a row: the computer plays the seat from now on"}, {"Game over"}},
		addr("dan"): {{"Mail to bob in e2e bounces"}, {"cyd has sent no orders in e2e"}, {"Game over"}},
		addr("cyd"): {{"You no longer hold your seat", "so the computer plays your seat cyd from now on"}},
		gm:          {{"A player's mail bounces", "Mail to bob in e2e bounces"}, {"A seat is abandoned", "cyd has sent no orders"}},
	}
	for who, all := range want {
		var texts []string
		for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
			texts = s.texts(t, who)
			ok := true
			for _, phrases := range all {
				ok = ok && anyHas(texts, phrases...)
			}
			if ok {
				break
			}
		}
		for _, phrases := range all {
			if !anyHas(texts, phrases...) {
				t.Errorf("no mail to %s says %q (%d mails)", who, phrases, len(texts))
			}
		}
	}
	// Nothing went to bob once his address was given up on.
	for _, m := range s.texts(t, addr("bob")) {
		if strings.Contains(m, "bounces") || strings.Contains(m, "no longer hold") {
			t.Errorf("bob was mailed after his address was given up on:\n%s", m)
		}
	}
}

// TestSelfServiceByMail is the rest of the "done when", through the real
// servers: a player lists their games, recovers their secret and opens a
// game by mail, without the GM.
func TestSelfServiceByMail(t *testing.T) {
	e := newRun(t)
	s, n, bot := e.stack, e.n, e.bot
	ctx := e.start(t, "self.db", []engine.Ruleset{prosper.Ruleset()}, true, 2*time.Minute)
	d := e.d
	ann, bob := "ann-"+n+"@example.org", "bob-"+n+"@example.org"
	g, err := d.Service().Create(ctx, game.CreateRequest{ID: "first", Ruleset: "prosper",
		Players: []game.PlayerSpec{{Name: "ann", Email: ann}, {Name: "bob", Email: bob}}})
	if err != nil {
		t.Fatal(err)
	}
	secret := g.Players[0].Secret
	send := func(from, subject, body string) {
		t.Helper()
		m := outbox.Mail{MessageID: outbox.NewMessageID("players.example.org"), From: from, To: []string{bot}, Subject: subject, Text: body + "\n", Date: time.Now()}
		if err := s.sender().Send(ctx, []outbox.Mail{m})[0]; err != nil {
			t.Fatal(err)
		}
	}
	await := func(who string, phrases ...string) {
		t.Helper()
		for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
			if anyHas(s.texts(t, who), phrases...) {
				return
			}
		}
		t.Fatalf("no mail to %s says %q", who, phrases)
	}
	send(ann, "my games", "MY GAMES")
	await(ann, "Your games", "first", "seat ann")
	send(ann, "lost my secret", "SECRET first")
	await(ann, "Your secret in first", "Your secret is: "+secret)
	send(ann, "a new game", "SECRET "+secret+"\nNEW prosper 2 id=second") // a seat's secret shows the mail is ann's
	await(ann, "Your new game is open for players", "You opened game second")
	send(bob, "join", "JOIN second")
	// JOIN asks the address to confirm: bob answers with the code.
	token := ""
	for deadline := time.Now().Add(30 * time.Second); token == "" && time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		for _, m := range s.texts(t, bob) {
			if f := regexp.MustCompile(`CONFIRM ([a-z2-7]{16})`).FindStringSubmatch(m); f != nil {
				token = f[1]
			}
		}
	}
	if token == "" {
		t.Fatal("bob was not asked to confirm his JOIN")
	}
	send(bob, "confirm", "CONFIRM "+token)
	await(bob, "Welcome to Prosper or Perish")
	await(ann, "Welcome to Prosper or Perish", "second")
}
