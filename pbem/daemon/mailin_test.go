package daemon_test

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-msgauth/dkim"

	"orrery/engine/game"
	"orrery/pbem/daemon"
	"orrery/pbem/imapin"
	"orrery/pbem/pbemtest"
	"orrery/pbem/policy"
)

// answered reports whether g1 holds orders of player.
func (h *harness) answered(player string) bool {
	h.t.Helper()
	g, err := h.d.Service().Get(context.Background(), "g1")
	if err != nil {
		h.t.Fatal(err)
	}
	for _, p := range g.Answered {
		if strings.HasSuffix(p, ":"+player) {
			return true
		}
	}
	return false
}

// ourMX is the authserv-id of our own mail server, the one whose
// Authentication-Results the daemon reads.
const ourMX = "mx.pbem.test"

// byDMARC has the daemon authenticate senders by DMARC (sender_auth
// dmarc), reading ourMX's Authentication-Results and asking res for the
// domains' records.
func byDMARC(res policy.Resolver) func(*daemon.Config) {
	return func(c *daemon.Config) {
		c.Policy = policy.Config{AuthServID: ourMX, SenderAuth: policy.AuthDMARC}
		c.Resolver = res
	}
}

// TestForgeries: each hole of issue 14, through the daemon. None applies
// anything or answers the forged address; the genuine mail is applied.
func TestForgeries(t *testing.T) {
	pub, priv, _ := ed25519.GenerateKey(rand.Reader)
	key := "v=DKIM1; k=ed25519; p=" + base64.StdEncoding.EncodeToString(pub)
	dns := pbemtest.DNS{
		"_dmarc.example.org":         "v=DMARC1; p=reject",
		"s1._domainkey.example.org":  key,
		"s1._domainkey.evil.example": key,
	}
	h := newHarness(t, byDMARC(dns))
	h.flush()
	subj := "[g1 " + h.secret("ann") + "] orders"
	sign := func(m imapin.Message, domain string) imapin.Message {
		var out bytes.Buffer
		if err := dkim.Sign(&out, bytes.NewReader(m.Raw), &dkim.SignOptions{Domain: domain, Selector: "s1", Signer: priv}); err != nil {
			t.Fatal(err)
		}
		m.Raw = out.Bytes()
		return m
	}
	for _, c := range []struct {
		name string
		m    imapin.Message
	}{
		{"unsigned, from a p=reject domain", h.mail("ann@example.org", subj, "push 1")},
		{"a pass the sender wrote below our server's fail", h.mail("ann@example.org", subj, "push 1",
			"Authentication-Results: "+ourMX+"; spf=fail smtp.mailfrom=ann@example.org",
			"Authentication-Results: "+ourMX+"; spf=pass smtp.mailfrom=ann@example.org; dkim=pass header.d=example.org")},
		{"a pass for another domain", h.mail("ann@example.org", subj, "push 1",
			"Authentication-Results: "+ourMX+"; spf=pass smtp.mailfrom=x@evil.example; dkim=pass header.d=evil.example")},
		{"a valid signature of another domain", sign(h.mail("ann@example.org", subj, "push 1"), "evil.example")},
	} {
		if d := h.handle(c.m); d != imapin.Rejected {
			t.Errorf("%s: disposition %v", c.name, d)
		}
		if a := h.flush(); len(a) != 0 {
			t.Errorf("%s: answered %d mails", c.name, len(a))
		}
		if h.answered("ann") {
			t.Fatalf("%s: applied", c.name)
		}
	}
	if d := h.handle(sign(h.mail("ann@example.org", subj, "push 2"), "example.org")); d != imapin.Processed {
		t.Errorf("the genuine mail: %v", d)
	}
	if a := to(h.flush(), "ann@example.org"); len(a) != 1 || !strings.Contains(a[0], "PUSH 2") || !h.answered("ann") {
		t.Errorf("the genuine mail was not applied: %q", a)
	}
	// bob's domain publishes no DMARC record: his secret decides.
	h.handle(h.mail("bob@example.net", "[g1 "+h.secret("bob")+"]", "push 1"))
	h.flush()
}

// TestDNSFailureWaits: while DNS fails, the mail stays in the inbox (an
// error to imapin); after dns_grace the domain counts as having no DMARC
// record, and the secret decides.
func TestDNSFailureWaits(t *testing.T) {
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	h := newHarness(t, byDMARC(pbemtest.DNS{"_dmarc.example.org": "TEMPFAIL"}), func(c *daemon.Config) {
		c.Now = func() time.Time { return now }
		c.DNSGrace = time.Hour
	})
	h.flush()
	m := h.mail("ann@example.org", "[g1 "+h.secret("ann")+"]", "push 1")
	for _, after := range []time.Duration{0, 30 * time.Minute} {
		now = now.Add(after)
		if _, err := h.d.Handle(context.Background(), m); err == nil {
			t.Fatalf("%v: DNS fails, yet the mail was handled", after)
		}
		if h.answered("ann") || len(h.flush()) != 0 {
			t.Fatal("a mail waiting for DNS was applied or answered")
		}
	}
	now = now.Add(31 * time.Minute)
	if d := h.handle(m); d != imapin.Processed || !h.answered("ann") {
		t.Errorf("after dns_grace the secret decides: %v, applied %v", d, h.answered("ann"))
	}
}

// reportID is the Message-ID of the last report or welcome mail to addr.
func reportID(t *testing.T, mails []pbemtest.Mail, addr string) string {
	t.Helper()
	id := ""
	for _, m := range mails {
		for _, r := range m.To {
			if r == addr && strings.Contains(string(m.Data), "X-Orrery-Step:") {
				id = strings.Trim(header(m.Data, "Message-ID"), "<>")
			}
		}
	}
	if id == "" {
		t.Fatalf("no report to %s", addr)
	}
	return id
}

// TestStaleResend: a copy of orders answering an earlier step is held, not
// applied; CONFIRM applies it once; a deliberate new mail answering the old
// report is applied.
func TestStaleResend(t *testing.T) {
	h := newHarness(t)
	welcome := h.flush()
	step0 := reportID(t, welcome, "ann@example.org")
	if !regexp.MustCompile(`\.g1\.e0s0\.orrery@pbem\.test$`).MatchString(step0) {
		t.Fatalf("the welcome's Message-ID %q does not name its step", step0)
	}
	ctx := context.Background()
	subj := "Re: [g1 " + h.secret("ann") + "] Turn 0"
	reply := func(body string) imapin.Message {
		return h.mail("ann@example.org", subj, body, "In-Reply-To: <"+step0+">", "References: <"+step0+">")
	}
	// The first mail answering step 0 is current: applied.
	h.handle(reply("push 1"))
	h.handle(h.mail("bob@example.org", "[g1 "+h.secret("bob")+"]", "push 1"))
	h.flush()
	if g, _ := h.d.Service().Get(ctx, "g1"); g.Step != 1 {
		t.Fatalf("step %d, want 1", g.Step)
	}
	// The same mail again, with a new Message-ID (the harness gives each
	// mail its own) and its old Date: held, not applied to step 1.
	h.handle(reply("push 1"))
	a := to(h.flush(), "ann@example.org")
	if len(a) != 1 || !strings.Contains(a[0], "Held: are these orders for now?") || !strings.Contains(a[0], "written before this step began") ||
		!strings.Contains(a[0], "push 1") {
		t.Fatalf("the stale copy: %q", a)
	}
	if h.answered("ann") {
		t.Fatal("a stale copy was applied")
	}
	heldID := regexp.MustCompile(`Message-ID: <([^>]+)>`).FindStringSubmatch(a[0])[1]
	// CONFIRM in a reply to the held mail applies the orders, once.
	confirm := func() imapin.Message {
		return h.mail("ann@example.org", "Re: [g1 "+h.secret("ann")+"] Held", "CONFIRM", "In-Reply-To: <"+heldID+">")
	}
	h.handle(confirm())
	a = to(h.flush(), "ann@example.org")
	if len(a) != 1 || !strings.Contains(a[0], "Orders received") || !h.answered("ann") {
		t.Fatalf("CONFIRM: %q", a)
	}
	h.handle(confirm())
	a = to(h.flush(), "ann@example.org")
	if len(a) != 1 || !strings.Contains(a[0], "there are no held orders") {
		t.Errorf("a second CONFIRM: %q", a)
	}
	x, _ := h.d.Service().Export(ctx, "g1")
	n := 0
	for _, e := range x.Log {
		if e.Kind == "orders" && e.Player == "ann" && e.Step == 1 {
			n++
		}
	}
	if n != 1 {
		t.Errorf("ann's orders for step 1 were applied %d times", n)
	}
}

// TestDeliberateReplyToAnOldReport: a mail written after the current step
// began, with orders not sent before, is current even if it answers an
// older report; the very same orders answering the same report again are
// a copy, and held.
func TestDeliberateReplyToAnOldReport(t *testing.T) {
	h := newHarness(t, func(c *daemon.Config) { c.Now = time.Now })
	step0 := reportID(t, h.flush(), "ann@example.org")
	subj := "Re: [g1 " + h.secret("ann") + "] Turn 0"
	h.handle(h.mail("ann@example.org", subj, "push 1", "In-Reply-To: <"+step0+">"))
	h.handle(h.mail("bob@example.org", "[g1 "+h.secret("bob")+"]", "push 1"))
	h.flush()
	later := time.Now().Add(time.Minute).Format(time.RFC1123Z)
	fresh := func(body string) imapin.Message {
		m := h.mail("ann@example.org", subj, body, "In-Reply-To: <"+step0+">")
		m.Raw = bytes.Replace(m.Raw, []byte("Date: Sun, 22 Nov 2026 12:00:00 +0000"), []byte("Date: "+later), 1)
		return m
	}
	h.handle(fresh("push 3"))
	if a := to(h.flush(), "ann@example.org"); len(a) != 1 || !strings.Contains(a[0], "Orders received") || !h.answered("ann") {
		t.Fatalf("a deliberate new mail answering an old report: %q", a)
	}
	h.handle(fresh("push 1"))
	if a := to(h.flush(), "ann@example.org"); len(a) != 1 || !strings.Contains(a[0], "the same orders, answering the same report, were applied before") {
		t.Errorf("the orders of step 0 again, newly dated: %q", a)
	}
}

// TestAutoresponderPingPong: an out-of-office that says nothing about
// itself, answering every answer with the same text, gets three answers in
// an hour, then none.
func TestAutoresponderPingPong(t *testing.T) {
	h := newHarness(t)
	h.flush()
	for range 6 {
		h.handle(h.mail("ann@example.org", "Re: [g1 "+h.secret("ann")+"] Not accepted: 1 problem in your mail",
			"I am out of the office until Monday.\n"))
	}
	if a := to(h.flush(), "ann@example.org"); len(a) != 3 || !strings.Contains(a[0], "I found no orders in your mail") {
		t.Errorf("%d answers to the autoresponder, want 3: %q", len(a), a)
	}
	if h.answered("ann") {
		t.Error("an out-of-office passed ann's turn")
	}
	// A person who writes something else is answered.
	h.handle(h.mail("ann@example.org", "Re: [g1 "+h.secret("ann")+"] Not accepted: 1 problem in your mail", "push 2"))
	if a := to(h.flush(), "ann@example.org"); len(a) != 1 || !strings.Contains(a[0], "Orders received") {
		t.Errorf("the player's own mail: %q", a)
	}
}

// TestStrangerList: a stranger gets at most 20 games open to JOIN a page
// and a pointer to JOIN and RULES, text only and within 4 KB; a player
// gets their games first; the GM every game.
func TestStrangerList(t *testing.T) {
	h := newHarness(t, func(c *daemon.Config) {
		c.GM, c.GMSecret = "gm@example.org", "gm-secret"
	})
	ctx := context.Background()
	for i := range 45 {
		if _, err := h.d.Service().Create(ctx, game.CreateRequest{ID: fmt.Sprintf("open%02d", i), Ruleset: "toy", Seats: 3,
			Players: []game.PlayerSpec{{Name: "ann", Email: "ann@example.org"}}}); err != nil {
			t.Fatal(err)
		}
	}
	h.flush()
	a := to(h.say("eve@example.org", "hello", "LIST"), "eve@example.org")
	if len(a) != 1 {
		t.Fatalf("%d answers", len(a))
	}
	body := a[0][strings.Index(a[0], "\n\n"):]
	if n := strings.Count(body, "send JOIN open"); n != 20 || strings.Contains(body, "g1 ") || !strings.Contains(body, "LIST page 2 (3 pages in all)") ||
		!strings.Contains(body, "To play, send JOIN") || len(body) > 4096 || !strings.Contains(a[0], "Content-Type: text/plain") {
		t.Errorf("a stranger's LIST (%d games, %d bytes):\n%s", n, len(body), a[0])
	}
	h.handle(h.mail("eve@example.org", "hello again", "LIST page 3"))
	if a := to(h.flush(), "eve@example.org"); len(a) != 1 || strings.Count(a[0], "send JOIN open") != 5 || !strings.Contains(a[0], "open44") {
		t.Errorf("page 3: %q", a)
	}
	// ann plays in all 46: g1 (under way) and the open ones. Her LIST
	// starts with MY GAMES, 20 of them and a pointer to the rest.
	h.handle(h.mail("ann@example.org", "games", "LIST"))
	if a := to(h.flush(), "ann@example.org"); len(a) != 1 || !strings.Contains(a[0], "YOUR GAMES") || !strings.Contains(a[0], "g1           Toy Race, seat ann: turn 1") ||
		strings.Count(a[0], "Toy Race, seat ann") != 20 || !strings.Contains(a[0], "and 26 more: MY GAMES lists them all") || !strings.Contains(a[0], "YOUR RECORD") {
		t.Errorf("a player's LIST: %q", a)
	}
	h.handle(h.mail("gm@example.org", "games", "SECRET gm-secret\nLIST page 3"))
	if a := to(h.flush(), "gm@example.org"); len(a) != 1 || !strings.Contains(a[0], "(page 3 of 3)") || !strings.Contains(a[0], "\nGAMES\n") {
		t.Errorf("the GM's LIST: %q", a)
	}
}

// TestStrangerBudget: one address in none of our games gets at most
// StrangerDaily replies a day, all of them together StrangerGlobal, and
// none longer than 4 KB.
func TestStrangerBudget(t *testing.T) {
	dir := t.TempDir()
	long := "{{define \"subject\"}}Help{{end}}{{define \"text\"}}" + strings.Repeat("A line of help that goes on and on.\n", 400) +
		"{{end}}{{define \"html\"}}<p>help</p>{{end}}"
	if err := os.WriteFile(filepath.Join(dir, "help.tmpl"), []byte(long), 0o644); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, func(c *daemon.Config) { c.StrangerDaily, c.StrangerGlobal, c.Templates = 2, 3, dir })
	h.flush()
	for i := range 4 {
		h.handle(h.mail("eve@example.org", fmt.Sprintf("question %d", i), "HELP"))
	}
	a := to(h.flush(), "eve@example.org")
	if len(a) != 2 {
		t.Errorf("%d replies to one stranger, want 2", len(a))
	}
	for _, m := range a {
		body := m[strings.Index(m, "\n\n")+2:]
		if len(body) > 4096 || !strings.Contains(body, "The rest is cut") || strings.Contains(m, "multipart/alternative") {
			t.Errorf("a stranger's reply of %d bytes:\n%.300s", len(body), m)
		}
	}
	// (From other domains: one domain's share is spent by eve.)
	h.handle(h.mail("mallory@example.net", "q", "HELP"))
	h.handle(h.mail("trent@example.com", "q", "HELP"))
	if a, b := to(h.flush(), "mallory@example.net"), to(h.flush(), "trent@example.com"); len(a)+len(b) != 1 {
		t.Errorf("the global budget of 3 let %d more through", len(a)+len(b))
	}
	// Players are not strangers.
	h.handle(h.mail("ann@example.org", "q", "HELP"))
	if a := to(h.flush(), "ann@example.org"); len(a) != 1 || !strings.Contains(a[0], "multipart/alternative") {
		t.Errorf("a player's HELP: %q", a)
	}
}

// TestMailNamingTwoGamesIsRefusedWhole: GAME g1, its secret, GAME g2 and
// an order: nothing is submitted, and the answer says so.
func TestMailNamingTwoGamesIsRefusedWhole(t *testing.T) {
	h := newHarness(t)
	if _, err := h.d.Service().Create(context.Background(), game.CreateRequest{ID: "g2", Ruleset: "toy",
		Players: []game.PlayerSpec{{Name: "ann", Email: "ann@example.org"}, {Name: "bob", Email: "bob@example.org"}}}); err != nil {
		t.Fatal(err)
	}
	h.flush()
	h.handle(h.mail("ann@example.org", "orders", "GAME g1\nSECRET "+h.secret("ann")+"\nGAME g2\npush 1"))
	a := to(h.flush(), "ann@example.org")
	if len(a) != 1 || !strings.Contains(a[0], "Nothing from your mail was applied") || !strings.Contains(a[0], "names game g2") {
		t.Errorf("answer: %q", a)
	}
	for _, id := range []string{"g1", "g2"} {
		if g, _ := h.d.Service().Get(context.Background(), id); len(g.Answered) != 0 {
			t.Errorf("%s: orders applied: %v", id, g.Answered)
		}
	}
}

// TestRefusalNeverDeniesWhatWasApplied: a command applied, then orders
// refused: the refusal says the rest was applied.
func TestRefusalNeverDeniesWhatWasApplied(t *testing.T) {
	h := newHarness(t)
	h.flush()
	h.handle(h.mail("ann@example.org", "[g1 "+h.secret("ann")+"]", "WAIT\npush 9"))
	var a []string
	for _, m := range to(h.flush(), "ann@example.org") {
		if strings.Contains(m, "X-Orrery-Kind: reply") {
			a = append(a, m)
		}
	}
	if len(a) != 1 || strings.Contains(a[0], "Nothing from your mail was applied") || !strings.Contains(a[0], "This part of your mail was not applied") ||
		!strings.Contains(a[0], "WAIT noted") && !strings.Contains(a[0], "will not resolve early") {
		t.Errorf("answer: %q", a)
	}
}

// TestPastedReportGetsAShortAnswer: the whole report pasted under the
// orders: the orders are applied and the report is one line of the answer.
func TestPastedReportGetsAShortAnswer(t *testing.T) {
	h := newHarness(t)
	h.flush()
	rep, err := h.d.Service().Report(context.Background(), "g1", "ann")
	if err != nil {
		t.Fatal(err)
	}
	pasted := "Hello ann,\n\nToy Race -- game g1, turn 0\n\n" + rep.Board + "\n. . . .\n/ \\ / \\\n" + rep.Status +
		"\nEVENTS\n- something\nPUSH <1-3>\n\nTo answer, keep [g1 " + h.secret("ann") + "] in the subject: it\ntells me the game.\n"
	a := to(h.say("ann@example.org", "Re: [g1 "+h.secret("ann")+"] report", "push 2\n\n"+pasted), "ann@example.org")
	if len(a) != 1 || !strings.Contains(a[0], "Orders received") || !strings.Contains(a[0], "a report of mine, pasted back") || len(a[0]) > 3000 {
		t.Errorf("answer of %d bytes: %s", len(a[0]), a[0])
	}
}
