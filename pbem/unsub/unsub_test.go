package unsub

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"orrery/engine/lang"
)

var key = []byte("0123456789abcdef0123456789abcdef")

func TestTokenRoundTrip(t *testing.T) {
	for _, a := range []Ask{
		{Addr: "ann@example.org", Game: "demo1", What: Reports},
		{Addr: "obs@example.org", Game: "demo1", What: Observer},
		{Addr: "bob@example.org", Game: "", What: Reminders},
	} {
		tok := Token(key, a)
		got, err := Parse(key, tok)
		if err != nil || got != a {
			t.Errorf("Parse(Token(%+v)) = %+v, %v", a, got, err)
		}
	}
}

// A token is the reader's own: changed in any byte, made for another
// address or under another key, it is refused.
func TestTokenRefused(t *testing.T) {
	a := Ask{Addr: "ann@example.org", Game: "demo1", What: Reports}
	tok := Token(key, a)
	other := Token(key, Ask{Addr: "bob@example.org", Game: "demo1", What: Reports})
	p, _, _ := strings.Cut(other, ".")
	_, m, _ := strings.Cut(tok, ".")
	bad := []string{
		"", "x", tok + "x", tok[:len(tok)-1], p + "." + m, // bob's payload with ann's MAC
		Token([]byte("another key, another server....."), a),
		strings.Replace(tok, ".", "", 1),
	}
	for _, b := range bad {
		if _, err := Parse(key, b); err != ErrToken {
			t.Errorf("Parse(%q) = %v, want ErrToken", b, err)
		}
	}
	if _, err := Parse(nil, tok); err != ErrToken {
		t.Errorf("with no key: %v, want ErrToken", err)
	}
	if Token(key, a) == Token(key, Ask{Addr: "ann@example.org", Game: "demo2", What: Reports}) {
		t.Error("two games give one token")
	}
}

func TestHeaders(t *testing.T) {
	list, post := Headers("orrery@example.org", "", "TOK.EN")
	if list != "<mailto:orrery@example.org?subject=UNSUBSCRIBE%20TOK.EN>" || post != "" {
		t.Errorf("without web: %q %q", list, post)
	}
	list, post = Headers("orrery@example.org", "https://games.example.org/", "TOK.EN")
	if list != "<https://games.example.org/unsubscribe/TOK.EN>, <mailto:orrery@example.org?subject=UNSUBSCRIBE%20TOK.EN>" ||
		post != "List-Unsubscribe=One-Click" {
		t.Errorf("with web: %q %q", list, post)
	}
	if got := ListID("Demo1", "Example.org"); got != "<demo1.orrery.example.org>" {
		t.Errorf("ListID = %q", got)
	}
	if got := DigestListID("Example.org"); got != "<daily.digest.orrery.example.org>" {
		t.Errorf("DigestListID = %q", got)
	}
}

type actor struct{ calls []string }

func (a *actor) Unsubscribe(_ context.Context, tok string) (lang.Msg, error) {
	if tok == "bad" {
		return lang.Msg{}, ErrToken
	}
	a.calls = append(a.calls, tok)
	return lang.M("Done."), nil
}

// RFC 8058: the POST acts with no cookie and no form; GET and HEAD, what
// link scanners send, change nothing.
func TestHandler(t *testing.T) {
	a := &actor{}
	h := &Handler{Act: a}
	do := func(method, path, body string) *httptest.ResponseRecorder {
		r := httptest.NewRequest(method, path, strings.NewReader(body))
		if body != "" {
			r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w
	}
	for _, m := range []string{http.MethodGet, http.MethodHead} {
		if w := do(m, Path+"tok1", ""); w.Code != http.StatusOK || len(a.calls) != 0 {
			t.Errorf("%s: %d, calls %v: a %s must change nothing", m, w.Code, a.calls, m)
		}
	}
	if w := do(http.MethodGet, Path+"tok1", ""); !strings.Contains(w.Body.String(), `<form method="post">`) {
		t.Errorf("GET page has no button that posts:\n%s", w.Body)
	}
	w := do(http.MethodPost, Path+"tok1", "List-Unsubscribe=One-Click")
	if w.Code != http.StatusOK || len(a.calls) != 1 || a.calls[0] != "tok1" || !strings.Contains(w.Body.String(), "Done.") {
		t.Errorf("POST: %d %v %s", w.Code, a.calls, w.Body)
	}
	if w := do(http.MethodPost, Path+"bad", "List-Unsubscribe=One-Click"); w.Code != http.StatusNotFound {
		t.Errorf("POST of a bad token: %d", w.Code)
	}
	if w := do(http.MethodDelete, Path+"tok1", ""); w.Code != http.StatusMethodNotAllowed || len(a.calls) != 1 {
		t.Errorf("DELETE: %d %v", w.Code, a.calls)
	}
	if w := do(http.MethodPost, Path, ""); w.Code != http.StatusNotFound || len(a.calls) != 1 {
		t.Errorf("POST without a token: %d %v", w.Code, a.calls)
	}
}
