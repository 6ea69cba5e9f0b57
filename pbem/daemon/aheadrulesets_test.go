package daemon_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"orrery/engine"
	"orrery/engine/game"
	"orrery/engine/store/storetest"
	"orrery/games"
	"orrery/pbem/daemon"
	"orrery/pbem/outbox"
	"orrery/pbem/pbemtest"
)

// TestAheadEveryRuleset is issue 42's done-when for every ruleset of the
// conformance suite, in-process, on the store ORRERY_TEST_STORE names (run
// it once with postgres too, as scripts/test does): a game of bots is
// played by mail once as is, and once again with the same seeds where ann
// sends in the first turn the orders she sent in a later turn, bob holds
// for a later turn orders that will not fit, and the last player asks for
// a PREVIEW while others' orders are pending. The second game must end in
// the same state, with the same seeds, digests and rolls at every step
// (previews and held orders change nothing of the game), ann's orders
// apply in their turn, bob is told at once when his turn opens, the
// preview is the previewer's alone and shows no pending orders of
// another, every ack of orders for a step and the notice of ann's held
// orders applied carry a receipt, and each receipt is among the parts of
// its step and listed in a report its player got, whether the step rolled
// dice or not (checked with sh for each player's first and for ann's held
// orders: every player who sent orders). In all but the simultaneous
// rulesets one player is asked at a time, so only there does the preview
// have others' orders pending to keep out of it.
//
// With the real mail servers named (ORRERY_E2E_IMAP, scripts/mailstack.sh
// env), pbem/e2e TestAheadEveryRulesetByMail plays the same games through
// Postfix and Dovecot, on bbolt and PostgreSQL, and this one skips: it is
// the fallback where the servers are not installed.
func TestAheadEveryRuleset(t *testing.T) {
	if testing.Short() {
		t.Skip("whole game: every ruleset played twice by mail, some 4 s of CPU (10 s on PostgreSQL); runs without -short")
	}
	if os.Getenv("ORRERY_E2E_IMAP") != "" {
		t.Skip("the real mail servers are named: pbem/e2e TestAheadEveryRulesetByMail plays these games through them, on each store; unset ORRERY_E2E_IMAP to run this in-process fallback")
	}
	for _, rs := range games.All() {
		t.Run(rs.Info().Name, func(t *testing.T) {
			plain := playAhead(t, rs, nil)
			if plain.aheadStep < 0 || plain.bobStep < 0 {
				t.Fatalf("the game never reached a later turn of ann's and bob's: turns %v, orders %q", plain.turns, plain.orders)
			}
			t.Logf("%s: turns %v; ann's orders for turn %d sent ahead, bob's held for turn %d", rs.Info().Name, plain.turns, plain.aheadTurn, plain.bobTurn)
			ahead := playAhead(t, rs, plain)
			if ahead.state != plain.state {
				t.Errorf("the game with orders sent ahead and a preview ends in another state than without:\n%s\n%s", ahead.state, plain.state)
			}
			if ahead.facts != plain.facts {
				t.Errorf("the game with orders sent ahead and a preview has other seeds, digests or rolls than without:\n%s\n%s", ahead.facts, plain.facts)
			}
		})
	}
}

// aheadRun is what one game of playAhead did.
type aheadRun struct {
	names []string
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
}

var receiptRE = regexp.MustCompile(`(?s)RECEIPT\n.*?\n  ([0-9a-f]{64})\n.*?\n(  printf .*?sha256sum)\n`)

// playAhead plays rs by mail with bots until four turns are done and ann
// has sent orders in a turn after the first two (a bot may pass: those are
// not orders to send ahead), at most ten turns or 80 mails of orders. With plain (the same game played without), ann
// sends ahead and bob holds orders that do not fit, as TestAheadEveryRuleset
// says.
func playAhead(t *testing.T, rs engine.Ruleset, plain *aheadRun) *aheadRun {
	t.Helper()
	ctx := context.Background()
	srv := pbemtest.StartT(t, pbemtest.Options{Users: map[string]string{botAddr: "pw"}})
	st := storetest.Open(t, storetest.Default())
	q := outbox.New(st, &outbox.SMTP{Addr: srv.SMTPAddr, TLS: "none"}, outbox.Options{MinBackoff: 50 * time.Millisecond})
	d, err := daemon.New(st, games.All(), q, daemon.Config{From: "Orrery <" + botAddr + ">", RepliesPerHour: 100000})
	if err != nil {
		t.Fatal(err)
	}
	info := rs.Info()
	run := &aheadRun{names: []string{"ann", "bob", "cyd"}[:min(max(3, info.MinPlayers), info.MaxPlayers)], aheadStep: -1, bobStep: -1}
	var specs []game.PlayerSpec
	for _, p := range run.names {
		specs = append(specs, game.PlayerSpec{Name: p, Email: p + "@example.org"})
	}
	svc := d.Service()
	g, err := svc.Create(ctx, game.CreateRequest{ID: "a1", Ruleset: info.Name, Players: specs, DiceSecret: "ahead",
		Settings: &game.Settings{Early: true, TurnLength: 72 * time.Hour}})
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{t: t, srv: srv, st: st, d: d, q: q, g: g}
	seat := map[string]int{}
	for i, p := range run.names {
		seat[p] = i
	}
	var mails []pbemtest.Mail // every mail sent after the welcomes
	send := func(player, body string) []pbemtest.Mail {
		t.Helper()
		h.handle(h.mail(player+"@example.org", "[a1 "+h.secret(player)+"] orders", body))
		m := h.flush()
		mails = append(mails, m...)
		return m
	}
	h.flush() // the welcomes
	start := g.Turn
	previewer := run.names[len(run.names)-1]
	previewed, previewedPending, checked := false, false, map[string]bool{}
	early := map[int]string{} // step → the previewer's orders and her preview made before others sent theirs
	type receipt struct {
		step   uint64
		player string
		hash   string
	}
	var receipts []receipt
	wantReceipts := g.DiceScheme >= 2
	// check runs the receipt's shell command (the README's recipe, as the
	// mail gives it): it must print the receipt.
	check := func(hash, cmd string) {
		t.Helper()
		if _, err := exec.LookPath("sh"); err != nil {
			return
		}
		if out, err := exec.Command("sh", "-c", cmd).Output(); err != nil || !strings.HasPrefix(string(out), hash+" ") {
			t.Errorf("%s prints %q (%v), the receipt is %s", cmd, out, err, hash)
		}
	}
	heldReceipt := false
	if plain != nil {
		m := to(send("ann", fmt.Sprintf("ORDERS a1 TURN %d\n%s", plain.aheadTurn, plain.orders[plain.aheadStep]["ann"])), "ann@example.org")
		if len(m) != 1 || !strings.Contains(m[0], fmt.Sprintf("Your orders for turn %d of game a1 are held", plain.aheadTurn)) {
			t.Fatalf("ann's ack of orders for turn %d: %q", plain.aheadTurn, m)
		}
		m = to(send("bob", fmt.Sprintf("ORDERS a1 TURN %d\nFLY TO THE MOON", plain.bobTurn)), "bob@example.org")
		if len(m) != 1 || !strings.Contains(m[0], fmt.Sprintf("Your orders for turn %d of game a1 are held", plain.bobTurn)) {
			t.Fatalf("bob's ack of orders for turn %d: %q", plain.bobTurn, m)
		}
	}
	var bobTold bool
	for mails := 0; mails < 80; mails++ {
		if g, err = svc.Get(ctx, "a1"); err != nil {
			t.Fatal(err)
		}
		if g.Over() || plain != nil && int(g.Step) >= len(plain.turns) {
			break
		}
		if plain == nil && g.Turn >= start+4 && int(g.Step) == len(run.turns) { // between steps
			if run.pick(start); run.aheadStep >= 0 && run.bobStep >= 0 || g.Turn >= start+10 {
				break
			}
		}
		n := int(g.Step) // step n+1 is asked now
		for len(run.turns) <= n {
			run.turns = append(run.turns, g.Turn)
			run.orders = append(run.orders, map[string]string{})
		}
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
		for len(run.asked) <= n {
			run.asked = append(run.asked, asked)
		}
		if plain != nil && n == plain.aheadStep && !slices.Contains(g.Answered, promptOf(g, "ann")) {
			t.Fatalf("step %d (turn %d) opened without ann's orders held for it: answered %v", n+1, g.Turn, g.Answered)
		}
		if plain != nil && n == plain.bobStep && !bobTold {
			t.Fatalf("step %d (turn %d) opened and bob was not told that his held orders no longer fit: %q", n+1, g.Turn, to(srv.Sent(), "bob@example.org"))
		}
		if plain != nil && n == plain.bobStep && slices.Contains(g.Answered, promptOf(g, "bob")) {
			t.Fatalf("bob's held orders that do not fit answered step %d", n+1)
		}
		if next == nil {
			t.Fatalf("step %d awaits no one and did not resolve: prompts %+v", n+1, g.Prompts)
		}
		v, err := svc.View(ctx, "a1", next.Player)
		if err != nil {
			t.Fatal(err)
		}
		// Where the previewer is asked at once with others, and before
		// they send, a preview of what her bot will send: a preview with
		// their orders pending must show the same (unless dice were
		// drawn: from a fresh stream each time).
		if prompt := promptOf(g, previewer); plain != nil && asked[previewer] && !previewedPending && next.Player != previewer && len(run.orders[n]) == 0 && early[n] == "" && prompt != "" {
			for _, p := range g.Prompts {
				if p.ID != prompt {
					continue
				}
				pv, err := svc.View(ctx, "a1", previewer)
				if err != nil {
					t.Fatal(err)
				}
				o := rs.Bot(pv, p, rand.New(rand.NewPCG(uint64(n), uint64(seat[previewer]))))
				if got := to(send(previewer, "PREVIEW a1\n"+o), previewer+"@example.org"); len(got) == 1 {
					early[n] = o + "\x00" + got[0]
				}
			}
		}
		orders := rs.Bot(v, *next, rand.New(rand.NewPCG(uint64(n), uint64(seat[next.Player]))))
		run.orders[n][next.Player] = orders
		var pendingOf []string // the lines others sent for the step
		for p, o := range run.orders[n] {
			if p != previewer {
				pendingOf = append(pendingOf, orderLinesOf(o)...)
			}
		}
		// A preview at the previewer's first step, and one at the first
		// with others' orders pending.
		if plain != nil && next.Player == previewer && (!previewed || !previewedPending && len(pendingOf) > 0) {
			previewed, previewedPending = true, len(pendingOf) > 0
			t.Logf("%s previews step %d with %d lines of others' orders pending", previewer, n+1, len(pendingOf))
			sent := send(previewer, "PREVIEW a1\n"+orders)
			got := to(sent, previewer+"@example.org")
			if len(sent) != 1 || len(got) != 1 || !strings.Contains(got[0], "would do if the step resolved now") {
				t.Fatalf("%s's preview: %d mails, to her %q", previewer, len(sent), got)
			}
			own := map[string]bool{}
			for _, l := range orderLinesOf(orders) {
				own[strings.ToUpper(l)] = true
			}
			for _, l := range pendingOf {
				if len(l) >= 10 && !own[strings.ToUpper(l)] && strings.Contains(strings.ToUpper(got[0]), strings.ToUpper(l)) {
					t.Errorf("%s's preview shows %q, pending orders of another player:\n%s", previewer, l, got[0])
				}
			}
			if o, before, ok := strings.Cut(early[n], "\x00"); ok && o == orders {
				a, rolledA := previewOutcome(before)
				b, rolledB := previewOutcome(got[0])
				if !rolledA && !rolledB && a != b {
					t.Errorf("%s's preview of step %d with others' orders pending (%q) differs from hers before they were sent:\n%s\n----\n%s", previewer, n+1, pendingOf, b, a)
				}
			}
		}
		sent := send(next.Player, orders)
		acked := false
		for _, m := range to(sent, next.Player+"@example.org") {
			if !strings.Contains(m, "X-Orrery-Kind: reply") || !strings.Contains(m, "Orders received") {
				if strings.Contains(m, "Not accepted") || strings.Contains(m, "NOT accepted") {
					t.Fatalf("the bot's orders of %s for step %d were refused:\n%s\n%s", next.Player, n+1, orders, m)
				}
				continue
			}
			acked = true
			r := receiptRE.FindStringSubmatch(m)
			if r == nil {
				if plain != nil && wantReceipts {
					t.Errorf("the ack of %s's orders for step %d carries no receipt:\n%s", next.Player, n+1, m)
				}
				continue
			}
			receipts = append(receipts, receipt{uint64(n + 1), next.Player, r[1]})
			if plain != nil && !checked[next.Player] {
				checked[next.Player] = true
				check(r[1], r[2])
			}
		}
		if !acked {
			t.Fatalf("the bot's orders of %s for step %d got no ack: %q", next.Player, n+1, to(sent, next.Player+"@example.org"))
		}
		// ann's held orders become hers when their turn opens, after
		// another's orders resolved the step before: that notice is
		// their receipt.
		for _, m := range to(sent, "ann@example.org") {
			if plain == nil || !strings.Contains(m, fmt.Sprintf("Your orders held for turn %d of game a1 are now your orders for it", plain.aheadTurn)) {
				continue
			}
			heldReceipt = true
			r := receiptRE.FindStringSubmatch(m)
			if r == nil {
				if wantReceipts {
					t.Errorf("the notice of ann's held orders applied carries no receipt:\n%s", m)
				}
				continue
			}
			receipts = append(receipts, receipt{uint64(plain.aheadStep + 1), "ann", r[1]})
			check(r[1], r[2])
		}
		if plain != nil && !bobTold {
			for _, m := range to(sent, "bob@example.org") {
				bobTold = bobTold || strings.Contains(m, fmt.Sprintf("Your orders held for turn %d of game a1 no longer fit", plain.bobTurn))
			}
		}
	}
	if plain != nil && !previewed {
		t.Errorf("%s was never asked for orders: no preview", previewer)
	}
	x, err := svc.Export(ctx, "a1")
	if err != nil {
		t.Fatal(err)
	}
	run.state = string(x.State)
	_, facts, err := svc.Facts(ctx, "a1", "")
	if err != nil {
		t.Fatal(err)
	}
	inputs := map[uint64]map[string]bool{}
	for i := range facts {
		inputs[facts[i].N] = map[string]bool{}
		for _, p := range facts[i].Inputs {
			inputs[facts[i].N][p.Hash] = true
		}
		// When and in which order orders came differs, by design.
		facts[i].Time, facts[i].LastOrders, facts[i].LastResent = time.Time{}, "", false
	}
	b, _ := json.Marshal(facts)
	run.facts = string(b)
	if plain == nil {
		return run
	}
	if len(receipts) == 0 && wantReceipts {
		t.Error("no ack carried a receipt")
	}
	if !heldReceipt {
		t.Errorf("ann was never told her orders held for turn %d are hers", plain.aheadTurn)
	}
	// Each receipt is among its step's parts, and a report its player got
	// lists it (templates' "inputs-text" under the rolls, or
	// "receipts-text" where the step rolled nothing).
	reports := map[string][]string{}
	for _, p := range run.names {
		for _, m := range to(mails, p+"@example.org") {
			if strings.Contains(m, "X-Orrery-Kind: report") {
				reports[p] = append(reports[p], m)
			}
		}
	}
	rolled, inReports := map[bool]int{}, 0
	for _, r := range receipts {
		if !inputs[r.step][r.hash] {
			t.Errorf("%s's receipt %s is not among the parts of step %d", r.player, r.hash, r.step)
		}
		found := false
		for _, m := range reports[r.player] {
			found = found || strings.Contains(m, "    "+r.hash+"\n")
		}
		if !found {
			t.Errorf("no report to %s lists the receipt %s of their orders for step %d", r.player, r.hash, r.step)
			continue
		}
		inReports++
		for i := range facts {
			if facts[i].N == r.step {
				rolled[len(facts[i].Rolls) > 0]++
			}
		}
	}
	for _, p := range run.names {
		sentAny := false
		for _, o := range run.orders {
			_, ok := o[p]
			sentAny = sentAny || ok
		}
		if sentAny && wantReceipts && !checked[p] {
			t.Errorf("%s sent orders and had no receipt checked", p)
		}
	}
	t.Logf("%d receipts found in their players' reports (%d of steps with rolls, %d without), checked with sh by %d players and for ann's held orders",
		inReports, rolled[true], rolled[false], len(checked))
	if v, err := svc.Verify(ctx, "a1"); err != nil || !v.OK() {
		t.Errorf("verify: %v %+v", err, v)
	}
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
			if p == "ann" && run.aheadStep < 0 && turn >= start+2 && len(orderLinesOf(run.orders[n]["ann"])) > 0 {
				run.aheadStep, run.aheadTurn = n, turn
			}
			if p == "bob" && run.bobStep < 0 && turn >= start+1 {
				run.bobStep, run.bobTurn = n, turn
			}
		}
	}
}

// previewOutcome is the text of a preview mail (as to gives it) without
// what changes from one preview of a step to the next (the headers, the
// previews left), and whether dice were drawn in it.
func previewOutcome(mail string) (string, bool) {
	_, text, _ := strings.Cut(mail, "\n\n")
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

func orderLinesOf(text string) []string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	return out
}
