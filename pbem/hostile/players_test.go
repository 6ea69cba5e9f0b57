package hostile

// Hostile players (issue 17): a seated player, or a stranger, who tries to
// stall the daemon, grow its database, make it mail many addresses, or act
// for a seat through a lookalike address, each with a few ordinary mails.
// One case per attack, on both backends; the figures each case logs are
// measured as benchmarks in bench_test.go and written in
// docs/benchmarks.md.

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/mail"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-message"
	"github.com/emersion/go-message/textproto"

	"orrery/engine/game"
	"orrery/engine/store"
	"orrery/pbem/daemon"
	"orrery/pbem/imapin"
	"orrery/pbem/pbemtest"
	"orrery/pbem/policy"
)

// dbBytes is what a database holds: the bytes of every key and value in
// every bucket. Unlike the file's size (bbolt grows it in steps and never
// shrinks it) it moves by what each mail leaves behind.
func dbBytes(t testing.TB, st *store.Store) int64 {
	t.Helper()
	var n int64
	var walk func(b store.Bucket)
	walk = func(b store.Bucket) {
		b.ForEach(func(k, v []byte) error {
			n += int64(len(k))
			if v == nil {
				if sub := b.Bucket(k); sub != nil {
					walk(sub)
				}
				return nil
			}
			n += int64(len(v))
			return nil
		})
	}
	err := st.View(context.Background(), func(tx store.Tx) error {
		return tx.ForEach(func(name []byte, b store.Bucket) error {
			n += int64(len(name))
			walk(b)
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// maxReply is the bound of any one answer (daemon.DefaultMaxReply).
const maxReply = 256 << 10

// size is the size of a mail as sent.
func (m out) size() int { return m.n }

// waitSent waits until a mail to addr is sent after the first skip mails
// of the run, and returns when.
func (e *env) waitSent(addr string, skip int) time.Time {
	e.t.Helper()
	deadline := time.Now().Add(e.settleIn * 4)
	for time.Now().Before(deadline) {
		for _, m := range e.srv.sent()[skip:] {
			for _, r := range m.To {
				if strings.EqualFold(r, addr) {
					return time.Now()
				}
			}
		}
		time.Sleep(2 * time.Millisecond)
	}
	e.t.Fatalf("no mail to %s within %v", addr, e.settleIn*4)
	return time.Time{}
}

// play resolves n steps of g1 with orders given from the command line, as
// a game in its 30th week would have, and a press message a step, so that
// the log a HISTORY or a RESEND could read is long.
func (e *env) play(n int) {
	e.t.Helper()
	ctx := context.Background()
	svc := e.d.Service()
	for i := range n {
		if _, _, err := svc.Press(ctx, "g1", "ann", nil, fmt.Sprintf("Week %d: I push on.", i)); err != nil {
			e.t.Fatal(err)
		}
		for _, p := range []string{"ann", "bob"} {
			if _, err := svc.Submit(ctx, game.Input{Game: "g1", Player: p, Text: "PUSH 1", Source: "cli"}); err != nil {
				e.t.Fatal(err)
			}
		}
	}
	e.settle()
	e.take()
	e.g, _ = svc.Get(ctx, "g1")
}

// Rejected orders are stored at most as the answer lists them: mails of
// 80,000 bad order lines (240 KB, under the text limit), and of 990 long
// ones (the most a mail is read for), leave a few KB each in the
// database, not the 8.9 MB each of issue 17.
func TestRejectedOrdersBounded(t *testing.T) { both(t, testRejectedOrdersBounded) }

func testRejectedOrdersBounded(t *testing.T, b backend) {
	e := start(t, b, envOptions{})
	for _, c := range []struct{ name, body string }{
		{"80,000 short lines", strings.Repeat("9\n", 80000)},
		{"990 long lines", strings.Repeat("PUSH 9 "+strings.Repeat("x", 240)+"\n", 990)},
	} {
		const mails = 4
		before := dbBytes(t, e.st)
		biggest := 0
		var ids []string
		for i := range mails {
			// (each mail a little different: the same mail again is an
			// autoresponder's, answered three times an hour)
			id, raw := e.msg(e.ann, "[g1 "+e.secret("ann")+"] orders", fmt.Sprintf("PUSH %d\n", 5+i)+c.body)
			ids = append(ids, id)
			e.deliver(raw)
			e.settle()
			m := expectOne(t, e.take(), e.ann, "")
			biggest = max(biggest, m.size())
		}
		growth := (dbBytes(t, e.st) - before) / mails
		t.Logf("%s: the database grew by %d bytes a mail; the largest answer had %d bytes", c.name, growth, biggest)
		if growth > 10<<10 {
			t.Errorf("%s: the database grew by %d bytes a mail; want at most 10 KiB", c.name, growth)
		}
		if biggest > 64<<10 {
			t.Errorf("%s: an answer of %d bytes to one mail of errors; want at most 64 KiB", c.name, biggest)
		}
		for _, id := range ids {
			e.nothingApplied(id)
		}
	}
	x, err := e.d.Service().Export(context.Background(), "g1")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range x.Log {
		if l.Kind == "rejected" && (len(l.Errors) > 50 || len(l.Text) > 1100) {
			t.Errorf("a rejected entry keeps %d errors and %d bytes of text", len(l.Errors), len(l.Text))
		}
	}
}

// One mail cannot hold the daemon: RESEND × 500 and STATUS × 500 get one
// answer (the same question is answered once), HISTORY of 500 turns three
// and a line for each of the rest (up to 50), within a bounded size; and
// another player's mail, sent right after, is answered at once. The delay is logged; BenchmarkReadFlood measures it.
func TestReadCommandFlood(t *testing.T) { both(t, testReadCommandFlood) }

// historyFlood is n lines HISTORY g1 1 ... HISTORY g1 turns, and again
// from 1: a mail that asks for every turn of a game of turns steps.
func historyFlood(n, turns int) string {
	var s strings.Builder
	for i := range n {
		fmt.Fprintf(&s, "HISTORY g1 %d\n", 1+i%turns)
	}
	return s.String()
}

func testReadCommandFlood(t *testing.T, b backend) {
	e := start(t, b, envOptions{})
	e.play(30)
	for _, c := range []struct{ name, body string }{
		{"RESEND × 500", strings.Repeat("RESEND g1\n", 500)},
		{"STATUS × 500", strings.Repeat("STATUS g1\n", 500)},
		{"HISTORY of every turn", historyFlood(500, 30)},
	} {
		_, raw := e.msg(e.ann, "[g1 "+e.secret("ann")+"] please", c.body)
		_, rawBob := e.msg(e.bob, "[g1 "+e.secret("bob")+"] status", "STATUS")
		skip := len(e.srv.sent())
		t0 := time.Now()
		e.deliver(raw)
		sentBob := time.Now()
		e.deliver(rawBob)
		answered := e.waitSent(e.bob, skip)
		e.settle()
		ms := e.take()
		ann := to(ms, e.ann)
		if len(ann) != 1 || len(to(ms, e.bob)) != 1 {
			t.Fatalf("%s: want one answer to each, got %v to %v", c.name, subjects(ms), recipients(ms))
		}
		text, _ := partsOf(t, ann[0])
		reports := strings.Count(text, "Toy Race — game g1")
		t.Logf("%s: answered in %v with %d bytes (%d reports); bob's STATUS waited %v",
			c.name, time.Since(t0).Round(time.Millisecond), ann[0].size(), reports, answered.Sub(sentBob).Round(time.Millisecond))
		if ann[0].size() > maxReply {
			t.Errorf("%s: an answer of %d bytes; want at most %d", c.name, ann[0].size(), maxReply)
		}
		if reports > 3 || reports == 0 {
			t.Errorf("%s: the answer holds %d reports; want 1 to 3", c.name, reports)
		}
		if strings.HasPrefix(c.name, "HISTORY") != strings.Contains(strings.Join(strings.Fields(text), " "), "at most 3 answers") {
			t.Errorf("%s: the answer says that only 3 were answered only when others were asked for:\n%s", c.name, ann[0].body[:min(2000, len(ann[0].body))])
		}
	}
}

var tokenLine = regexp.MustCompile(`CONFIRM ([a-z0-9]{16})`)

// confirmation finds the mail that asks addr to confirm, and its token.
func confirmation(t testing.TB, ms []out, addr string) (out, string) {
	t.Helper()
	got := to(ms, addr)
	if len(got) != 1 {
		t.Fatalf("want one mail to %s asking to confirm, got %v", addr, subjects(got))
	}
	m := tokenLine.FindStringSubmatch(got[0].body)
	if m == nil {
		t.Fatalf("the mail to %s carries no CONFIRM token:\n%s", addr, got[0].body)
	}
	return got[0], m[1]
}

// reply is addr's answer to m with body.
func (e *env) reply(addr string, m out, body string) []byte {
	e.n++
	id := fmt.Sprintf("r%d-%d@example.org", e.n, time.Now().UnixNano())
	return fmt.Appendf(nil, "From: %s\r\nTo: %s\r\nSubject: Re: %s\r\nMessage-ID: <%s>\r\nIn-Reply-To: %s\r\nReferences: %s\r\nDate: %s\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n%s\r\n",
		addr, e.bot, m.head.Get("Subject"), id, m.head.Get("Message-Id"), m.head.Get("Message-Id"), time.Now().Format(time.RFC1123Z), body)
}

func (e *env) observers(id string) []string {
	e.t.Helper()
	g, err := e.d.Service().Get(context.Background(), id)
	if err != nil {
		e.t.Fatal(err)
	}
	return g.Observers
}

// OBSERVE by mail subscribes nobody without a round trip to the address;
// a stranger's plus-addresses are one person; a forged From gets its
// victim one mail at most; a game has at most max_observers.
func TestObserverFlood(t *testing.T) { both(t, testObserverFlood) }

func testObserverFlood(t *testing.T, b backend) {
	e := start(t, b, envOptions{daemon: func(c *daemon.Config) { c.MaxObservers = 2 }})
	eve := func(i int) string { return e.tagged("eve", fmt.Sprint(i), "evil.example") }
	const flood = 40
	for i := range flood {
		_, raw := e.msg(eve(i), "watch", "OBSERVE g1")
		e.deliver(raw)
	}
	e.settle()
	ms := e.take()
	toEve := 0
	for _, m := range ms {
		for _, r := range m.to {
			if strings.Contains(r, "eve") {
				toEve++
			}
		}
	}
	t.Logf("%d OBSERVE mails from plus-addresses: %d mails to them, observers %v", flood, toEve, e.observers("g1"))
	if toEve > 5 {
		t.Errorf("%d mails to the plus-addresses of one person; want at most the 5 a stranger gets a day", toEve)
	}
	if obs := e.observers("g1"); len(obs) != 0 {
		t.Errorf("subscribed without confirming: %v", obs)
	}
	// A step: no public report to anyone unconfirmed.
	e.deliver(e.msg2(e.ann, "[g1 "+e.secret("ann")+"] orders", "PUSH 1"))
	e.deliver(e.msg2(e.bob, "[g1 "+e.secret("bob")+"] orders", "PUSH 1"))
	e.settle()
	for _, m := range e.take() {
		if !contains(m.to, e.ann) && !contains(m.to, e.bob) {
			t.Errorf("a mail to %v after the step", m.to)
		}
	}
	// The round trip: a person has one request pending for a game, the
	// latest answered; an earlier code is spent. eve's budget of answers
	// is spent too, so her confirmation gets no answer, but it counts.
	var asked []out
	for _, m := range ms {
		for _, r := range m.to {
			if strings.Contains(r, "eve") {
				asked = append(asked, m)
			}
		}
	}
	if len(asked) == 0 {
		t.Fatal("no confirmation was asked of eve")
	}
	first, last := asked[0], asked[len(asked)-1]
	_, stale := confirmation(t, []out{first}, first.to[0])
	_, token := confirmation(t, []out{last}, last.to[0])
	if len(asked) > 1 {
		e.deliver(e.reply(first.to[0], first, "CONFIRM "+stale))
		e.settle()
		e.take()
		if obs := e.observers("g1"); len(obs) != 0 {
			t.Errorf("a request replaced by a later one was confirmed: %v", obs)
		}
	}
	e.deliver(e.reply(last.to[0], last, "CONFIRM "+token))
	e.settle()
	e.take()
	if obs := e.observers("g1"); len(obs) != 1 || obs[0] != last.to[0] {
		t.Fatalf("after the confirmation, observers %v; want [%s]", obs, last.to[0])
	}
	e.deliver(e.msg2(eve(7), "watch", "OBSERVE g1"))
	e.settle()
	if ms := e.take(); len(ms) != 0 || len(e.observers("g1")) != 1 {
		t.Errorf("a second plus-address of an observer: %v, observers %v", subjects(ms), e.observers("g1"))
	}
	// A forged From: the victim gets one mail asking, and nothing more
	// unless they answer; a plain reply (no token) confirms too.
	victim := e.addr("victim", "example.net")
	e.deliver(e.msg2(victim, "watch", "OBSERVE g1"))
	e.settle()
	c, _ := confirmation(t, e.take(), victim)
	if obs := e.observers("g1"); len(obs) != 1 {
		t.Errorf("the victim was subscribed before answering: %v", obs)
	}
	e.deliver(e.reply(victim, c, "CONFIRM"))
	e.settle()
	e.take()
	if obs := e.observers("g1"); len(obs) != 2 {
		t.Errorf("a plain reply CONFIRM did not subscribe: %v", obs)
	}
	// The cap: a third person is refused, even after confirming.
	carol := e.addr("carol", "example.net")
	e.deliver(e.msg2(carol, "watch", "OBSERVE g1"))
	e.settle()
	ms = e.take()
	if m := expectOne(t, ms, carol, ""); !strings.Contains(m.body, "at most 2 observers") {
		t.Errorf("the third observer's answer:\n%s", m.body)
	}
	if obs := e.observers("g1"); len(obs) != 2 {
		t.Errorf("observers beyond the cap: %v", obs)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

// JOIN by mail takes a seat only after a round trip to the address, and a
// person's plus-addresses take one seat between them.
func TestJoinPlusAddresses(t *testing.T) { both(t, testJoinPlusAddresses) }

func testJoinPlusAddresses(t *testing.T, b backend) {
	e := start(t, b, envOptions{})
	if _, err := e.d.Service().Create(context.Background(), game.CreateRequest{ID: "open", Ruleset: "toy", Seats: 4,
		Players: []game.PlayerSpec{{Name: "ann", Email: e.ann}}}); err != nil {
		t.Fatal(err)
	}
	e.settle()
	e.take()
	eve := func(i int) string { return e.tagged("eve", fmt.Sprint(i), "evil.example") }
	for i := 1; i <= 3; i++ {
		e.deliver(e.msg2(eve(i), "join", fmt.Sprintf("JOIN open eve%d", i)))
		e.settle()
		ms := e.take()
		g, _ := e.d.Service().Get(context.Background(), "open")
		if len(g.Players) > 2 {
			t.Fatalf("the same person holds %d seats: %v", len(g.Players)-1, g.Players)
		}
		if len(to(ms, eve(i))) == 0 {
			continue
		}
		if c := to(ms, eve(i))[0]; tokenLine.MatchString(c.body) {
			_, token := confirmation(t, ms, eve(i))
			e.deliver(e.reply(eve(i), c, "CONFIRM "+token))
			e.settle()
			e.take()
		}
	}
	g, _ := e.d.Service().Get(context.Background(), "open")
	t.Logf("eve's three plus-addresses: seats %v", g.Players)
	n := 0
	for _, p := range g.Players {
		if strings.Contains(p.Email, "eve") {
			n++
		}
	}
	if n != 1 {
		t.Errorf("eve holds %d seats; want 1", n)
	}
}

// Lookalike addresses act for nobody: a long s, a Kelvin sign, a dotless
// i, fullwidth letters in the local part get none of the seat's mail, even
// in a game that needs no secret; fullwidth letters in the domain are the
// domain (IDNA), so the answer goes to the seat's own address, and that
// domain's DMARC policy applies.
func TestLookalikeAddresses(t *testing.T) { both(t, testLookalikeAddresses) }

func testLookalikeAddresses(t *testing.T, b backend) {
	e := start(t, b, envOptions{daemon: func(c *daemon.Config) {
		c.RelaxGames = map[string]policy.Relax{"g2": {NoSecret: true}}
	}})
	sam, kim, ida := e.addr("sam", "example.org"), e.addr("kim", "example.org"), e.addr("ida", "example.org")
	if _, err := e.d.Service().Create(context.Background(), game.CreateRequest{ID: "g2", Ruleset: "toy",
		Players: []game.PlayerSpec{{Name: "sam", Email: sam}, {Name: "kim", Email: kim}, {Name: "ida", Email: ida}},
		Options: map[string]string{"finish": "1000000"}}); err != nil {
		t.Fatal(err)
	}
	e.settle()
	e.take()
	g2, _ := e.d.Service().Get(context.Background(), "g2")
	secrets := map[string]string{}
	for _, p := range g2.Players {
		secrets[p.Email] = p.Secret
	}
	for _, c := range []struct{ name, from, victim string }{
		{"long s", strings.Replace(sam, "s", "\u017f", 1), sam},
		{"Kelvin sign", strings.Replace(kim, "k", "\u212a", 1), kim},
		{"capital I with a dot", strings.Replace(ida, "i", "\u0130", 1), ida},
		{"dotless i", strings.Replace(ida, "i", "\u0131", 1), ida},
		{"fullwidth s", strings.Replace(sam, "s", "\uff53", 1), sam},
		{"fullwidth S, A, M", strings.Replace(sam, "sam", "\uff33\uff21\uff2d", 1), sam},
	} {
		id, raw := e.msg(c.from, "[g2] status", "STATUS\nPUSH 1")
		e.deliverFrom("mallory@evil.example", raw)
		e.settle()
		for _, m := range e.take() {
			for _, r := range m.to {
				if _, seated := secrets[r]; seated {
					continue // the seats' own mail (a step resolved by a lookalike's orders is reported to all)
				}
				text, html := partsOf(t, m)
				if strings.Contains(text+html, secrets[c.victim]) || strings.Contains(m.rawHead, secrets[c.victim]) ||
					strings.Contains(text, "Toy Race — game g2") {
					t.Errorf("%s: %s got the seat's mail %q", c.name, r, m.head.Get("Subject"))
				}
			}
		}
		x, _ := e.d.Service().Export(context.Background(), "g2")
		for _, l := range x.Log {
			if l.Ref == id && l.Kind == "orders" {
				t.Errorf("%s: %s's orders applied from %s", c.name, c.victim, c.from)
			}
		}
	}
	// The control: sam's own STATUS is answered with the report the
	// lookalikes must not get, so their silence is the check at work.
	e.deliver(e.msg2(sam, "[g2] status", "STATUS"))
	e.settle()
	if ms := to(e.take(), sam); len(ms) != 1 {
		t.Errorf("sam's own STATUS: %d answers", len(ms))
	} else if text, _ := partsOf(t, ms[0]); !strings.Contains(text, "Toy Race — game g2") {
		t.Errorf("sam's own STATUS lacks the report:\n%s", text)
	}
	// The domain in fullwidth letters is the same domain: a mail from
	// it acts as the seat (the game needs no secret), and the answer goes
	// to the seat's own address, never to the one written.
	local, domain, _ := strings.Cut(sam, "@")
	wide := local + "@" + strings.Replace(domain, "e", "\uff45", 1)
	_, raw := e.msg(wide, "[g2] status", "STATUS")
	e.deliverFrom("mallory@evil.example", raw)
	e.settle()
	ms := e.take()
	for _, m := range ms {
		for _, r := range m.to {
			if r != sam {
				t.Errorf("fullwidth domain: a mail to %q", r)
			}
		}
	}
}

// The same domain in fullwidth letters is looked up for its DMARC policy
// as the domain: a p=reject domain's mail is not acted on through it.
func TestLookalikeDomainDMARC(t *testing.T) {
	e := start(t, backend{}, envOptions{policy: policy.Config{AuthServID: authServ, SenderAuth: policy.AuthDMARC},
		dns: pbemtest.DNS{"_dmarc.example.org": "v=DMARC1; p=reject"}})
	local, domain, _ := strings.Cut(e.ann, "@")
	wide := local + "@" + strings.Replace(domain, "e", "\uff45", 1)
	id, raw := e.msg(wide, "[g1 "+e.secret("ann")+"] orders", "PUSH 2")
	e.deliver(raw)
	e.settle()
	if ms := e.take(); len(ms) != 0 {
		t.Errorf("answered an unaligned mail of a p=reject domain written in fullwidth letters: %v to %v", subjects(ms), recipients(ms))
	}
	e.nothingApplied(id)
}

// Press is marked as the player's words in text and HTML: nothing a player
// writes can pass for the bot's own lines.
func TestPressCannotImpersonate(t *testing.T) { both(t, testPressCannotImpersonate) }

func testPressCannotImpersonate(t *testing.T, b backend) {
	e := start(t, b, envOptions{})
	fake := []string{
		"Press from cyd to bob:",
		"Game news: the GM has moved the deadline to Monday.",
		"Hello bob, the GM here: your seat moves to a new server.",
		"To answer, send your secret to gm@evil.example.",
	}
	e.deliver(e.msg2(e.ann, "[g1 "+e.secret("ann")+"] press", "PRESS TO bob\n"+strings.Join(fake, "\n")+"\nEND"))
	e.settle()
	ms := to(e.take(), e.bob)
	if len(ms) != 1 {
		t.Fatalf("bob got %d mails", len(ms))
	}
	checkMarked(t, "the press notice", ms[0], fake)
	// HISTORY shows it again: marked there too.
	e.deliver(e.msg2(e.bob, "[g1 "+e.secret("bob")+"] history", "HISTORY"))
	e.settle()
	ms = to(e.take(), e.bob)
	if len(ms) != 1 {
		t.Fatalf("bob got %d answers to HISTORY", len(ms))
	}
	checkMarked(t, "HISTORY", ms[0], fake)
}

// checkMarked checks that each of the player's lines is quoted ("> ") in
// the text part, and inside a blockquote in the HTML part.
func checkMarked(t *testing.T, what string, m out, lines []string) {
	t.Helper()
	text, html := partsOf(t, m)
	for _, l := range lines {
		head := l
		found := false
		for _, tl := range strings.Split(text, "\n") {
			if strings.Contains(tl, head) {
				found = true
				if !strings.HasPrefix(strings.TrimRight(tl, "\r"), "> ") {
					t.Errorf("%s: a player's line is not marked as theirs: %q", what, tl)
				}
			}
		}
		if !found {
			t.Errorf("%s: the line %q is missing:\n%s", what, l, text)
		}
		i := strings.Index(html, htmlEscape(head))
		if i < 0 {
			t.Errorf("%s: the HTML lacks %q", what, l)
			continue
		}
		if open, shut := strings.LastIndex(html[:i], "<blockquote"), strings.LastIndex(html[:i], "</blockquote>"); open < 0 || shut > open {
			t.Errorf("%s: in the HTML, %q is not inside a blockquote", what, l)
		}
	}
}

func htmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", "\"", "&#34;", "'", "&#39;").Replace(s)
}

// partsOf returns the decoded text/plain and text/html parts of m.
func partsOf(t *testing.T, m out) (text, html string) {
	t.Helper()
	raw := []byte(m.rawHead + "\r\n\r\n" + m.raw)
	pm, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	return decodeParts(t, pm)
}

// A References header of a long hostile thread: our answer's header is
// folded, every line within 998 characters (RFC 5322), ids deduplicated
// and only plain printable ones kept, and the answer reaches the player.
func TestHostileReferences(t *testing.T) { both(t, testHostileReferences) }

func testHostileReferences(t *testing.T, b backend) {
	e := start(t, b, envOptions{})
	var refs []string
	for i := range 40 {
		refs = append(refs, fmt.Sprintf("<CAF%032d-%d@mail.gmail.com>", i, i))
	}
	refs = append(refs, refs[3], refs[3], "<"+strings.Repeat("x", 900)+"@evil.example>", "<bad\x01id@evil.example>", "<caf\u00e9@evil.example>")
	_, raw := e.msg(e.ann, "[g1 "+e.secret("ann")+"] orders", "PUSH 2", "References: "+strings.Join(refs, " "))
	e.deliver(raw)
	e.settle()
	m := expectOne(t, e.take(), e.ann, "")
	for _, l := range strings.Split(m.rawHead, "\r\n") {
		if len(l) > 998 {
			t.Errorf("a header line of %d characters: %.80q…", len(l), l)
		}
		if len(l) > 78 && strings.HasPrefix(l, "References:") {
			t.Errorf("References is not folded: a line of %d characters", len(l))
		}
	}
	got := strings.Fields(m.head.Get("References"))
	seen := map[string]bool{}
	for _, id := range got {
		if seen[id] {
			t.Errorf("id %s twice in References", id)
		}
		seen[id] = true
		if len(id) > 250 || strings.ContainsFunc(id, func(r rune) bool { return r < 0x21 || r > 0x7e }) {
			t.Errorf("a hostile id kept in References: %.60q", id)
		}
	}
	t.Logf("References of %d ids, %d characters, answered with %d ids", len(refs), len(strings.Join(refs, " ")), len(got))
	if e.real {
		if n, err := e.srv.count(e.ann); err != nil || n == 0 {
			t.Errorf("the answer did not reach ann's mailbox (%d, %v)", n, err)
		}
	}
}

// A mail over the size limit is never fetched whole: the reader takes its
// size first, files it under Rejected and the daemon answers it from its
// header alone.
func TestOversizeNotFetched(t *testing.T) { both(t, testOversizeNotFetched) }

func testOversizeNotFetched(t *testing.T, b backend) {
	e := start(t, b, envOptions{reader: func(c *imapin.Config) { c.MaxSize = 1 << 20 }, daemon: func(c *daemon.Config) { c.MaxMail = 1 << 20 }})
	big := bytes.Repeat([]byte("0123456789abcdef"), 3<<20/16)
	id := fmt.Sprintf("huge-%d@example.org", time.Now().UnixNano())
	raw := e.multipart(e.ann, "[g1 "+e.secret("ann")+"] orders", id,
		"Content-Type: text/plain; charset=utf-8\r\n\r\nPUSH 2\r\n",
		"Content-Type: application/octet-stream; name=\"photo.bin\"\r\nContent-Transfer-Encoding: base64\r\n\r\n"+base64Lines(big))
	e.deliver(raw)
	e.settle()
	m := expectOne(t, e.take(), e.ann, "too large")
	t.Logf("a %d-byte mail: the daemon was handed %d bytes at most; answered %q", len(raw), e.handed.Load(), m.head.Get("Subject"))
	if e.handed.Load() > 64<<10 {
		t.Errorf("the daemon was handed %d bytes of a mail over the limit", e.handed.Load())
	}
	e.nothingApplied(id)
}

// decodeParts returns the text/plain and text/html parts of a mail,
// decoded.
func decodeParts(t *testing.T, pm *mail.Message) (text, html string) {
	t.Helper()
	e, err := message.New(message.Header{Header: textprotoHeader(pm.Header)}, pm.Body)
	if err != nil {
		t.Fatal(err)
	}
	err = e.Walk(func(_ []int, p *message.Entity, err error) error {
		if err != nil {
			return err
		}
		ct, _, _ := p.Header.ContentType()
		if !strings.HasPrefix(ct, "text/") {
			return nil
		}
		b, err := io.ReadAll(p.Body)
		if err != nil {
			return err
		}
		switch ct {
		case "text/plain":
			text = string(b)
		case "text/html":
			html = string(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return strings.ReplaceAll(text, "\r\n", "\n"), html
}

func textprotoHeader(h mail.Header) textproto.Header {
	var th textproto.Header
	for k, vs := range h {
		for _, v := range vs {
			th.Add(k, v)
		}
	}
	return th
}
