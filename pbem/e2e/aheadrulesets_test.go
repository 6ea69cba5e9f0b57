package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/mail"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"orrery/engine"
	"orrery/engine/game"
	"orrery/engine/store/storetest"
	"orrery/games"
	"orrery/pbem/daemon"
	"orrery/pbem/imapin"
	"orrery/pbem/outbox"
)

// TestAheadEveryRulesetByMail is issue 42's done-when for every ruleset of
// the conformance suite, through Postfix and Dovecot, on bbolt and on
// PostgreSQL when ORRERY_TEST_PG is set. A game of bots is played once as
// is, in-process (it only finds the bots' orders and the state to match),
// and once again by real mail with the same seeds, on each store: ann
// sends in the first turn the orders she sent in a later turn, bob holds
// for a later turn orders that will not fit, and the last player mails a
// PREVIEW (with others' orders pending, where the ruleset asks several at
// once). The mailed game must end in the same state, with the same seeds,
// digests and rolls at every step (previews and held orders change
// nothing of the game); ann is told her held orders became her orders;
// bob's "no longer fit" reaches his mailbox while his turn waits for him;
// the preview reaches the previewer alone and shows no pending orders of
// another; every ack of orders for a step, and the notice of ann's held
// orders applied, carries a receipt that is among the parts of its step
// and listed in a report its player got (with rolls or without), and each
// player's first, and ann's held orders', is checked with the mailed
// shell command: every player who sent orders checks one.
//
// The games run at once, each ruleset and store a subtest started from a
// goroutine of its own rather than by t.Parallel, which -parallel (the
// number of cores by default) would cut to two at a time: they wait on
// Postfix and Dovecot far more than they use the CPU. The in-process
// pbem/daemon TestAheadEveryRuleset plays the same without the servers,
// and skips when they are named.
func TestAheadEveryRulesetByMail(t *testing.T) {
	if testing.Short() {
		t.Skip("whole games by mail: every ruleset played in-process and through the real servers, on each store; runs without -short")
	}
	getStack(t)
	var wg sync.WaitGroup
	for _, rs := range games.All() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t.Run(rs.Info().Name, func(t *testing.T) {
				plain := playPlain(t, rs)
				if plain.aheadStep < 0 || plain.bobStep < 0 {
					t.Fatalf("the game never reached a later turn of ann's and bob's: turns %v, orders %q", plain.turns, plain.orders)
				}
				t.Logf("turns %v; ann's orders for turn %d sent ahead, bob's held for turn %d", plain.turns, plain.aheadTurn, plain.bobTurn)
				var kinds sync.WaitGroup
				for _, k := range storetest.Kinds() {
					kinds.Add(1)
					go func() {
						defer kinds.Done()
						t.Run(k.Name, func(t *testing.T) {
							start := time.Now()
							ahead := playAheadByMail(t, rs, k, plain)
							if ahead.state != plain.state {
								t.Errorf("the game with orders sent ahead and a preview ends in another state than without:\n%s\n%s", ahead.state, plain.state)
							}
							if ahead.facts != plain.facts {
								t.Errorf("the game with orders sent ahead and a preview has other seeds, digests or rolls than without:\n%s\n%s", ahead.facts, plain.facts)
							}
							t.Logf("%d steps by mail in %v", len(plain.turns), time.Since(start).Round(time.Millisecond))
						})
					}()
				}
				kinds.Wait()
			})
		}()
	}
	wg.Wait()
}

// aheadRun is what one game of playPlain or playAheadByMail did.
type aheadRun struct {
	turns []int // turns[n]: the turn of step n+1 (what was asked then)
	// asked[n]: the players asked for orders in step n+1.
	asked []map[string]bool
	// orders[n][player]: what the player's bot sent for step n+1.
	orders []map[string]string
	// aheadStep is the first step after the first two turns in which ann
	// is asked for orders (-1: none), aheadTurn its turn; bobStep and
	// bobTurn the same for bob after the first turn.
	aheadStep, aheadTurn, bobStep, bobTurn int
	state, facts                           string
	inputs                                 map[uint64]map[string]bool // the parts' hashes of each step
}

// aheadNames are the players of rs's games: ann, bob and cyd, as many as
// it seats.
func aheadNames(rs engine.Ruleset) []string {
	info := rs.Info()
	return []string{"ann", "bob", "cyd"}[:min(max(3, info.MinPlayers), info.MaxPlayers)]
}

func aheadRequest(rs engine.Ruleset, email func(player string) string) game.CreateRequest {
	var specs []game.PlayerSpec
	for _, p := range aheadNames(rs) {
		specs = append(specs, game.PlayerSpec{Name: p, Email: email(p)})
	}
	return game.CreateRequest{ID: "a1", Ruleset: rs.Info().Name, Players: specs, DiceSecret: "ahead",
		Settings: &game.Settings{Early: true, TurnLength: 72 * time.Hour}}
}

// nextAsked is the state of g's step for the loop of a game: the players
// asked in it, and the first blocking prompt not yet answered (nil when
// none).
func nextAsked(g *game.Game) (map[string]bool, *engine.Prompt) {
	asked := map[string]bool{}
	var next *engine.Prompt
	for _, p := range g.Prompts {
		if !p.Kind.Blocks() {
			continue
		}
		asked[p.Player] = true
		if next == nil && !slices.Contains(g.Answered, p.ID) {
			next = &p
		}
	}
	return asked, next
}

// record grows run to step n (0-based) of turn turn with the players
// asked in it.
func (run *aheadRun) record(n, turn int, asked map[string]bool) {
	for len(run.turns) <= n {
		run.turns = append(run.turns, turn)
		run.orders = append(run.orders, map[string]string{})
	}
	for len(run.asked) <= n {
		run.asked = append(run.asked, asked)
	}
}

// botOrders are what the bot of next's player sends for step n+1: its
// random stream depends on the step and the seat only, so both games of
// a ruleset send the same.
func botOrders(t *testing.T, ctx context.Context, svc *game.Service, rs engine.Ruleset, n int, next engine.Prompt) string {
	t.Helper()
	v, err := svc.View(ctx, "a1", next.Player)
	if err != nil {
		t.Fatal(err)
	}
	return rs.Bot(v, next, rand.New(rand.NewPCG(uint64(n), uint64(slices.Index(aheadNames(rs), next.Player)))))
}

// finish fills run's state, facts and inputs from game a1 of svc.
func (run *aheadRun) finish(t *testing.T, ctx context.Context, svc *game.Service) {
	t.Helper()
	x, err := svc.Export(ctx, "a1")
	if err != nil {
		t.Fatal(err)
	}
	run.state = string(x.State)
	_, facts, err := svc.Facts(ctx, "a1", "")
	if err != nil {
		t.Fatal(err)
	}
	run.inputs = map[uint64]map[string]bool{}
	for i := range facts {
		run.inputs[facts[i].N] = map[string]bool{}
		for _, p := range facts[i].Inputs {
			run.inputs[facts[i].N][p.Hash] = true
		}
		// When and in which order orders came differs, by design.
		facts[i].Time, facts[i].LastOrders, facts[i].LastResent = time.Time{}, "", false
	}
	b, _ := json.Marshal(facts)
	run.facts = string(b)
}

// playPlain plays rs in-process, the mails handed to the daemon as its
// IMAP reader would and its answers never sent, until the steps of ann's
// orders sent ahead and bob's held ones (run.pick) are played: ann has
// sent orders in a turn after the first two (a bot may pass: those are not
// orders to send ahead) and bob in one after the first; at most ten turns
// or 80 mails of orders.
func playPlain(t *testing.T, rs engine.Ruleset) *aheadRun {
	t.Helper()
	ctx := context.Background()
	st := storetest.Open(t, storetest.Bolt)
	const bot = "orrery@pbem.test"
	// The outbox never runs: nothing is sent.
	q := outbox.New(st, &outbox.SMTP{Addr: "127.0.0.1:1", TLS: "none"}, outbox.Options{})
	d, err := daemon.New(st, games.All(), q, daemon.Config{From: "Orrery <" + bot + ">", RepliesPerHour: 100000})
	if err != nil {
		t.Fatal(err)
	}
	svc := d.Service()
	g, err := svc.Create(ctx, aheadRequest(rs, func(p string) string { return p + "@example.org" }))
	if err != nil {
		t.Fatal(err)
	}
	secret := map[string]string{}
	for _, p := range g.Players {
		secret[p.Name] = p.Secret
	}
	run := &aheadRun{aheadStep: -1, bobStep: -1}
	start := g.Turn
	for uid := 1; uid <= 80; uid++ {
		if g, err = svc.Get(ctx, "a1"); err != nil {
			t.Fatal(err)
		}
		if g.Over() {
			break
		}
		// Between steps, once both of the ahead game's steps are played
		// (their turns' prompts answered and resolved), the game ends.
		if g.Turn >= start+2 && int(g.Step) == len(run.turns) {
			if run.pick(start); run.aheadStep >= 0 && run.bobStep >= 0 && len(run.turns) > max(run.aheadStep, run.bobStep) || g.Turn >= start+10 {
				break
			}
		}
		n := int(g.Step) // step n+1 is asked now
		asked, next := nextAsked(g)
		run.record(n, g.Turn, asked)
		if next == nil {
			t.Fatalf("step %d awaits no one and did not resolve: prompts %+v", n+1, g.Prompts)
		}
		orders := botOrders(t, ctx, svc, rs, n, *next)
		run.orders[n][next.Player] = orders
		raw := fmt.Sprintf("From: %s@example.org\r\nTo: %s\r\nSubject: [a1 %s] orders\r\nMessage-ID: <m%d@example.org>\r\nDate: Sun, 22 Nov 2026 12:00:00 +0000\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n%s\r\n",
			next.Player, bot, secret[next.Player], uid, strings.ReplaceAll(orders, "\n", "\r\n"))
		if _, err := d.Handle(ctx, imapin.Message{Mailbox: "INBOX", UIDValidity: 1, UID: uint32(uid), Raw: []byte(raw)}); err != nil {
			t.Fatal(err)
		}
		if g, err = svc.Get(ctx, "a1"); err != nil {
			t.Fatal(err)
		}
		if int(g.Step) == n && !slices.Contains(g.Answered, next.ID) {
			t.Fatalf("the bot's orders of %s for step %d did not answer it:\n%s", next.Player, n+1, orders)
		}
	}
	run.finish(t, ctx, svc)
	return run
}

var receiptRE = regexp.MustCompile(`(?s)RECEIPT\n.*?\n  ([0-9a-f]{64})\n.*?\n(  printf .*?sha256sum)\n`)

// playAheadByMail plays the game of plain again through the real servers
// on a store of kind k, the daemon reading its mailbox with its Run loop,
// every player's mail sent through Postfix and their answers read from
// their Dovecot mailboxes, as TestAheadEveryRulesetByMail says. The loop
// waits for each mail of orders to be applied by watching the store, and
// for a mail only where the scenario needs it before going on (the acks
// of held orders, bob's "no longer fit", the preview); the acks of orders
// are read at the end.
func playAheadByMail(t *testing.T, rs engine.Ruleset, k storetest.Kind, plain *aheadRun) *aheadRun {
	t.Helper()
	began := time.Now()
	e := newRun(t)
	st, err := k.New(t)()
	if err != nil {
		t.Fatal(err)
	}
	ctx := e.startOn(t, st, games.All(), true, 4*time.Minute, func(c *daemon.Config) { c.TickEvery = time.Minute })
	svc := e.d.Service()
	names := aheadNames(rs)
	addr := func(p string) string { return p + "-" + e.n + "@example.org" }
	g, err := svc.Create(ctx, aheadRequest(rs, addr))
	if err != nil {
		t.Fatal(err)
	}
	secret := map[string]string{}
	for _, p := range g.Players {
		secret[p.Name] = p.Secret
	}
	type sentOrders struct {
		step   uint64
		player string
	}
	// A player's mail client waits long for a loaded server.
	sender := e.sender()
	sender.Timeout = time.Minute
	sent := map[string]sentOrders{} // Message-ID (in brackets) → the orders mailed in it
	mailed := 0
	send := func(player, body string, step uint64) {
		t.Helper()
		mailed++
		id := fmt.Sprintf("o%d-%s@example.org", mailed, e.n)
		sent["<"+id+">"] = sentOrders{step, player}
		m := outbox.Mail{MessageID: id, From: addr(player), To: []string{e.bot}, Subject: "[a1 " + secret[player] + "] orders", Text: body, Date: time.Now()}
		if err := sender.Send(ctx, []outbox.Mail{m})[0]; err != nil {
			t.Fatal(err)
		}
	}
	// A player's mail may wait long on a loaded server.
	await := e.awaiter(t, 90*time.Second, addr)

	send("ann", fmt.Sprintf("ORDERS a1 TURN %d\n%s", plain.aheadTurn, plain.orders[plain.aheadStep]["ann"]), 0)
	send("bob", fmt.Sprintf("ORDERS a1 TURN %d\nFLY TO THE MOON", plain.bobTurn), 0)
	await("ann", fmt.Sprintf("Your orders for turn %d of game a1 are held", plain.aheadTurn))
	await("bob", fmt.Sprintf("Your orders for turn %d of game a1 are held", plain.bobTurn))
	heldIn := time.Since(began)

	run := &aheadRun{aheadStep: -1, bobStep: -1}
	previewer := names[len(names)-1]
	previewed, previewedPending, bobTold := false, false, false
	early := map[int]string{} // step → the previewer's orders and her preview made before others sent theirs
	comparedPreviews := 0
	for len(sent) < 80+2 {
		if g, err = svc.Get(ctx, "a1"); err != nil {
			t.Fatal(err)
		}
		if g.Over() || int(g.Step) >= len(plain.turns) {
			break
		}
		n := int(g.Step) // step n+1 is asked now
		asked, next := nextAsked(g)
		run.record(n, g.Turn, asked)
		if n == plain.bobStep && !bobTold {
			// bob's turn waits for him: the error must reach him now.
			await("bob", fmt.Sprintf("Your orders held for turn %d of game a1 no longer fit", plain.bobTurn))
			bobTold = true
			if slices.Contains(g.Answered, promptOf(g, "bob")) {
				t.Fatalf("bob's held orders that do not fit answered step %d", n+1)
			}
		}
		if next == nil {
			t.Fatalf("step %d awaits no one and did not resolve: prompts %+v", n+1, g.Prompts)
		}
		// Where the previewer is asked at once with others, and before
		// they send, a preview of what her bot will send: a preview with
		// their orders pending must show the same (unless dice were
		// drawn: from a fresh stream each time).
		if prompt := promptOf(g, previewer); asked[previewer] && !previewedPending && next.Player != previewer && len(run.orders[n]) == 0 && early[n] == "" && prompt != "" {
			for _, p := range g.Prompts {
				if p.ID == prompt {
					o := botOrders(t, ctx, svc, rs, n, p)
					send(previewer, "PREVIEW a1\n"+o, 0)
					early[n] = o + "\x00" + await(previewer, "would do if the step resolved now")
				}
			}
		}
		orders := botOrders(t, ctx, svc, rs, n, *next)
		run.orders[n][next.Player] = orders
		var pendingOf []string // the lines others sent for the step
		for p, o := range run.orders[n] {
			if p != previewer {
				pendingOf = append(pendingOf, engine.OrderLines(o)...)
			}
		}
		// A preview at the previewer's first step, and one at the first
		// with others' orders pending.
		if next.Player == previewer && (!previewed || !previewedPending && len(pendingOf) > 0) {
			previewed, previewedPending = true, len(pendingOf) > 0
			t.Logf("%s previews step %d with %d lines of others' orders pending", previewer, n+1, len(pendingOf))
			send(previewer, "PREVIEW a1\n"+orders, 0)
			got := await(previewer, "would do if the step resolved now")
			own := map[string]bool{}
			for _, l := range engine.OrderLines(orders) {
				own[strings.ToUpper(l)] = true
			}
			for _, l := range pendingOf {
				if len(l) >= 10 && !own[strings.ToUpper(l)] && strings.Contains(strings.ToUpper(got), strings.ToUpper(l)) {
					t.Errorf("%s's preview shows %q, pending orders of another player:\n%s", previewer, l, got)
				}
			}
			if o, before, ok := strings.Cut(early[n], "\x00"); ok && o == orders {
				a, rolledA := previewOutcome(before)
				b, rolledB := previewOutcome(got)
				switch {
				case rolledA || rolledB:
					t.Logf("the previews of step %d before and with others' orders pending drew dice: not compared", n+1)
				case a != b:
					t.Errorf("%s's preview of step %d with others' orders pending (%q) differs from hers before they were sent:\n%s\n----\n%s", previewer, n+1, pendingOf, b, a)
				default:
					comparedPreviews++
				}
			}
		}
		send(next.Player, orders, uint64(n+1))
		// The daemon has read and applied the mail when the prompt is
		// answered or the step has resolved.
		for deadline := time.Now().Add(90 * time.Second); ; time.Sleep(20 * time.Millisecond) {
			if g, err = svc.Get(ctx, "a1"); err != nil {
				t.Fatal(err)
			}
			if int(g.Step) != n || slices.Contains(g.Answered, next.ID) {
				break
			}
			if time.Now().After(deadline) {
				msgs, _ := e.fetch(addr(next.Player))
				last := ""
				if len(msgs) > 0 {
					last = plainPart(t, msgs[len(msgs)-1])
				}
				t.Fatalf("the bot's orders of %s for step %d were not applied within 90 s:\n%s\nthe last mail to %s:\n%s", next.Player, n+1, orders, next.Player, last)
			}
		}
	}
	if !previewed {
		t.Errorf("%s was never asked for orders: no preview", previewer)
	}
	if !bobTold {
		t.Errorf("the game never reached bob's step %d", plain.bobStep+1)
	}
	playedIn := time.Since(began)
	applied := await("ann", fmt.Sprintf("Your orders held for turn %d of game a1 are now your orders for it", plain.aheadTurn))
	run.finish(t, ctx, svc)
	if v, err := svc.Verify(ctx, "a1"); err != nil || !v.OK() {
		t.Errorf("verify: %v %+v", err, v)
	}

	// Every mail of orders (held, previews, for the step) has its answer;
	// the acks of orders for a step carry their receipts.
	type mailOf struct {
		irt, text, kind string
	}
	var got map[string][]mailOf
	answered := func() int {
		got = map[string][]mailOf{}
		n := 0
		for _, p := range names {
			msgs, _ := e.fetch(addr(p))
			for _, raw := range msgs {
				m, err := mail.ReadMessage(bytes.NewReader(raw))
				if err != nil {
					t.Fatal(err)
				}
				irt := m.Header.Get("In-Reply-To")
				if _, ok := sent[irt]; ok {
					n++
				} else {
					irt = ""
				}
				got[p] = append(got[p], mailOf{irt, plainPart(t, raw), m.Header.Get("X-Orrery-Kind")})
			}
		}
		return n
	}
	for deadline := time.Now().Add(90 * time.Second); answered() < len(sent); time.Sleep(200 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d mails of orders answered within 90 s", answered(), len(sent))
		}
	}
	answeredIn := time.Since(began)
	wantReceipts := g.DiceScheme >= 2
	checked := map[string]bool{}
	// check runs a receipt's mailed shell command (the README's recipe):
	// it must print the receipt.
	check := func(hash, cmd string) {
		t.Helper()
		if out, err := exec.Command("sh", "-c", cmd).Output(); err != nil || !strings.HasPrefix(string(out), hash+" ") {
			t.Errorf("%s prints %q (%v), the receipt is %s", cmd, out, err, hash)
		}
	}
	type receipt struct {
		step uint64
		hash string
	}
	receipts := map[string][]receipt{} // by player
	sentBy := map[string]bool{}        // the players who mailed orders for a step
	for _, p := range names {
		for _, m := range got[p] {
			o, ok := sent[m.irt]
			if !ok || o.step == 0 {
				continue
			}
			if strings.Contains(m.text, "Not accepted") || strings.Contains(m.text, "NOT accepted") {
				t.Errorf("the bot's orders of %s for step %d were refused:\n%s", p, o.step, m.text)
				continue
			}
			if m.kind != "reply" {
				continue
			}
			sentBy[p] = true
			r := receiptRE.FindStringSubmatch(m.text)
			if r == nil {
				if wantReceipts {
					t.Errorf("the ack of %s's orders for step %d carries no receipt:\n%s", p, o.step, m.text)
				}
				continue
			}
			receipts[p] = append(receipts[p], receipt{o.step, r[1]})
			if !checked[p] {
				checked[p] = true
				check(r[1], r[2])
			}
		}
	}
	// ann's held orders became hers by a notice: its receipt is checked
	// like an ack's.
	if r := receiptRE.FindStringSubmatch(applied); r != nil {
		receipts["ann"] = append(receipts["ann"], receipt{uint64(plain.aheadStep + 1), r[1]})
		check(r[1], r[2])
	} else if wantReceipts {
		t.Errorf("the notice of ann's held orders applied carries no receipt:\n%s", applied)
	}
	for _, p := range names {
		if sentBy[p] && wantReceipts && !checked[p] {
			t.Errorf("%s mailed orders and checked no receipt", p)
		}
	}
	// The report of every step lists its parts with their hashes
	// (templates' "inputs-text" under the rolls, "receipts-text" where it
	// rolled nothing): each player finds there the receipt of every step
	// they sent orders for, held orders too.
	nreceipts, inReports, withRolls := 0, 0, 0
	for _, p := range names {
		_, facts, err := svc.Facts(ctx, "a1", p)
		if err != nil {
			t.Fatal(err)
		}
		rolled := map[uint64]bool{}
		for _, f := range facts {
			rolled[f.N] = len(f.Rolls) > 0
		}
		for _, r := range receipts[p] {
			nreceipts++
			if !plain.inputs[r.step][r.hash] {
				t.Errorf("%s's receipt %s is not among the parts of step %d", p, r.hash, r.step)
			}
		}
		// The report of the last step may still be on its way.
		for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(200 * time.Millisecond) {
			var missing []string
			for _, r := range receipts[p] {
				inReport := false
				for _, rep := range got[p] {
					inReport = inReport || rep.kind == "report" && strings.Contains(rep.text, "    "+r.hash+"\n")
				}
				if !inReport {
					missing = append(missing, fmt.Sprintf("%s (step %d)", r.hash, r.step))
				}
			}
			if len(missing) == 0 {
				inReports += len(receipts[p])
				for _, r := range receipts[p] {
					if rolled[r.step] {
						withRolls++
					}
				}
				break
			}
			if time.Now().After(deadline) {
				t.Errorf("no report to %s lists the receipts %s of their orders", p, strings.Join(missing, ", "))
				break
			}
			answered()
		}
	}
	if nreceipts == 0 && wantReceipts {
		t.Error("no ack carried a receipt")
	}
	t.Logf("%d mails of orders, %d receipts (%d found in the reports, %d of them of steps with rolls), checked with sh by %d players and for ann's held orders; %d previews with others' orders pending matched hers before; held orders acked after %v, game played after %v, every mail answered after %v",
		len(sent), nreceipts, inReports, withRolls, len(checked), comparedPreviews, heldIn.Round(time.Millisecond), playedIn.Round(time.Millisecond), answeredIn.Round(time.Millisecond))
	return run
}

// pick chooses the steps of run for ann's orders sent ahead (the first
// step of a turn after the first two in which she is asked, and sends
// orders: held empty orders would be a question, ORDERS game alone) and
// for bob's held orders that do not fit (the first step of a turn after
// the first in which he is asked).
func (run *aheadRun) pick(start int) {
	run.aheadStep, run.bobStep = -1, -1
	first := map[string]map[int]bool{} // the turns in which a player was asked already
	for n, asked := range run.asked {
		for _, p := range []string{"ann", "bob"} {
			if !asked[p] {
				continue
			}
			if first[p] == nil {
				first[p] = map[int]bool{}
			}
			turn, seen := run.turns[n], first[p][run.turns[n]]
			first[p][turn] = true
			if seen {
				continue
			}
			if p == "ann" && run.aheadStep < 0 && turn >= start+2 && len(engine.OrderLines(run.orders[n]["ann"])) > 0 {
				run.aheadStep, run.aheadTurn = n, turn
			}
			if p == "bob" && run.bobStep < 0 && turn >= start+1 {
				run.bobStep, run.bobTurn = n, turn
			}
		}
	}
}

// previewOutcome is a preview's text without what changes from one
// preview of a step to the next (the previews left), and whether dice were
// drawn in it.
func previewOutcome(text string) (string, bool) {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if !strings.HasPrefix(l, "You may ask for ") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n"), !strings.Contains(text, "(no dice were rolled)")
}

// promptOf is player's first blocking prompt in g ("" for none).
func promptOf(g *game.Game, player string) string {
	for _, p := range g.PromptsFor(player) {
		if p.Kind.Blocks() {
			return p.ID
		}
	}
	return ""
}
