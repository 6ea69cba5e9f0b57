package daemon_test

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"net/mail"
	"regexp"
	"strings"
	"testing"

	"orrery/pbem/daemon"
	"orrery/pbem/outbox"
	"orrery/pbem/pbemtest"
	"orrery/pbem/settings"
)

var unsubURI = regexp.MustCompile(`<(https://games\.example\.org/unsubscribe/[^>]+)>, <mailto:` + regexp.QuoteMeta(botAddr) + `\?subject=UNSUBSCRIBE%20([^>]+)>`)

// unsubOf is the one-click URI and the token of a mail's List-Unsubscribe.
func unsubOf(t *testing.T, m pbemtest.Mail) (uri, tok string) {
	t.Helper()
	got := unsubURI.FindStringSubmatch(unfolded(m.Data, "List-Unsubscribe"))
	if got == nil {
		t.Fatalf("mail to %v %q: List-Unsubscribe %q lacks the https and mailto URIs", m.To, header(m.Data, "Subject"), unfolded(m.Data, "List-Unsubscribe"))
	}
	if p := header(m.Data, "List-Unsubscribe-Post"); p != "List-Unsubscribe=One-Click" {
		t.Errorf("List-Unsubscribe-Post %q", p)
	}
	if !strings.HasSuffix(got[1], "/"+got[2]) {
		t.Errorf("the two URIs carry different tokens: %q", got)
	}
	return got[1], got[2]
}

// unfolded is a header's value, unfolded (header reads one line).
func unfolded(raw []byte, name string) string {
	m, err := mail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		return ""
	}
	return strings.Join(strings.Fields(m.Header.Get(name)), " ")
}

func mailsTo(sent []pbemtest.Mail, addr string) []pbemtest.Mail {
	var out []pbemtest.Mail
	for _, m := range sent {
		for _, r := range m.To {
			if r == addr {
				out = append(out, m)
			}
		}
	}
	return out
}

// TestOneClickUnsubscribe: reports, observer reports and reminders carry
// List-Unsubscribe (https and mailto), List-Unsubscribe-Post and List-Id;
// answers to the reader's own mail do not. A POST with no cookie and no
// form acts at once, a GET changes nothing, and the action has the game's
// meaning: an observer is unsubscribed, a reminder's reader gets no more
// reminders, a seated player's reports go to the digest with one mail
// that says so.
func TestOneClickUnsubscribe(t *testing.T) {
	h := newHarness(t, func(c *daemon.Config) { c.UnsubURL = "https://games.example.org" })
	ctx := context.Background()
	svc := h.d.Service()
	if _, _, err := svc.Observe(ctx, "g1", "olga@example.org", true); err != nil {
		t.Fatal(err)
	}
	h.flush()
	h.handle(h.mail("ann@example.org", "[g1 "+h.secret("ann")+"]", "push 1"))
	h.handle(h.mail("bob@example.org", "[g1 "+h.secret("bob")+"]", "push 1"))
	h.handle(h.mail("ann@example.org", "hi", "HELP"))
	sent := h.flush()
	var annReport, olgaReport pbemtest.Mail
	for _, m := range sent {
		kind := header(m.Data, "X-Orrery-Kind")
		switch {
		case m.To[0] == "ann@example.org" && kind == "report":
			annReport = m
		case m.To[0] == "olga@example.org" && kind == "observer":
			olgaReport = m
		case kind == "reply":
			if l := unfolded(m.Data, "List-Unsubscribe"); l != "" {
				t.Errorf("an answer to the reader's own mail carries List-Unsubscribe %q", l)
			}
		}
	}
	if annReport.Data == nil || olgaReport.Data == nil {
		t.Fatalf("no report to ann or to olga among %d mails", len(sent))
	}
	for _, m := range []pbemtest.Mail{annReport, olgaReport} {
		if id := header(m.Data, "List-Id"); id != "<g1.orrery.pbem.test>" {
			t.Errorf("List-Id %q", id)
		}
	}
	annURI, _ := unsubOf(t, annReport)
	olgaURI, _ := unsubOf(t, olgaReport)
	srv := httptest.NewServer(h.d.UnsubscribeHandler())
	defer srv.Close()
	local := func(uri string) string { return srv.URL + strings.TrimPrefix(uri, "https://games.example.org") }
	digestOn := func() bool {
		s, err := settings.Load(ctx, h.st, "ann@example.org")
		if err != nil {
			t.Fatal(err)
		}
		return s.DigestOn()
	}
	observing := func() bool {
		g, _ := svc.Get(ctx, "g1")
		for _, o := range g.Observers {
			if o == "olga@example.org" {
				return true
			}
		}
		return false
	}

	// A link scanner's GET changes nothing.
	for _, uri := range []string{annURI, olgaURI} {
		r, err := http.Get(local(uri))
		if err != nil {
			t.Fatal(err)
		}
		r.Body.Close()
		if r.StatusCode != http.StatusOK {
			t.Errorf("GET %d", r.StatusCode)
		}
	}
	if digestOn() || !observing() || len(h.flush()) != 0 {
		t.Fatal("a GET changed something")
	}

	post := func(uri string) *http.Response {
		t.Helper()
		r, err := http.Post(local(uri), "application/x-www-form-urlencoded", strings.NewReader("List-Unsubscribe=One-Click"))
		if err != nil {
			t.Fatal(err)
		}
		r.Body.Close()
		return r
	}
	// The seated player: reports to the digest, and one mail says so.
	if r := post(annURI); r.StatusCode != http.StatusOK {
		t.Fatalf("POST: %d", r.StatusCode)
	}
	if !digestOn() {
		t.Error("a seated player's unsubscribe did not turn the digest on")
	}
	// One mail says what changed.
	says(t, to(h.flush(), "ann@example.org"), "ann",
		"once a day, in the digest", "SET DIGEST off undoes it", "VACATION g1", "RESIGN g1", "give your seat to the computer")

	// The observer: unsubscribed, and no mail about it.
	if r := post(olgaURI); r.StatusCode != http.StatusOK {
		t.Fatalf("POST: %d", r.StatusCode)
	}
	if observing() {
		t.Error("an observer's unsubscribe did not end the observing")
	}
	if n := len(to(h.flush(), "olga@example.org")); n != 0 {
		t.Errorf("the observer got %d mails after unsubscribing", n)
	}

	// A token altered by a byte is refused and changes nothing.
	bad := annURI[:len(annURI)-1] + string(rune('A'+(annURI[len(annURI)-1]-'A'+1)%26))
	if r := post(bad); r.StatusCode != http.StatusNotFound {
		t.Errorf("POST of an altered token: %d", r.StatusCode)
	}

	// A reminder's unsubscribe turns the reminders off.
	rem, err := h.d.ListHeaders(ctx, outbox.Mail{To: []string{"bob@example.org"}, Kind: "notice", Game: "g1",
		Headers: map[string]string{"X-Orrery-Notice": "reminder"}})
	if err != nil {
		t.Fatal(err)
	}
	uri := unsubURI.FindStringSubmatch(rem.Headers["List-Unsubscribe"])
	if uri == nil {
		t.Fatalf("a reminder's List-Unsubscribe: %q", rem.Headers["List-Unsubscribe"])
	}
	if r := post(uri[1]); r.StatusCode != http.StatusOK {
		t.Fatalf("POST: %d", r.StatusCode)
	}
	if s, _ := settings.Load(ctx, h.st, "bob@example.org"); !s.RemindersOff() || s.DigestOn() {
		t.Errorf("bob's settings after a reminder's unsubscribe: %v", s)
	}
}

// TestUnsubscribeByMail: the mailto: URI's mail ("UNSUBSCRIBE TOKEN")
// does what the POST does, and its answer says what.
func TestUnsubscribeByMail(t *testing.T) {
	h := newHarness(t) // no web pages: List-Unsubscribe is the mailto: alone
	sent := h.flush()
	var tok string
	for _, m := range mailsTo(sent, "ann@example.org") {
		l := unfolded(m.Data, "List-Unsubscribe")
		if _, after, ok := strings.Cut(l, "subject=UNSUBSCRIBE%20"); ok && !strings.Contains(l, "https:") && header(m.Data, "List-Unsubscribe-Post") == "" {
			tok = strings.TrimSuffix(after, ">")
		}
	}
	if tok == "" {
		t.Fatalf("no mailto:-only List-Unsubscribe among ann's %d mails", len(mailsTo(sent, "ann@example.org")))
	}
	told := to(h.say("ann@example.org", "UNSUBSCRIBE "+tok, ""), "ann@example.org")
	if len(told) != 1 || !strings.Contains(strings.Join(strings.Fields(told[0]), " "), "once a day, in the digest") {
		t.Fatalf("the answer to UNSUBSCRIBE: %q", told)
	}
	if s, _ := settings.Load(context.Background(), h.st, "ann@example.org"); !s.DigestOn() {
		t.Error("DIGEST is not on")
	}
}
