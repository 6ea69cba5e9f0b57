package game_test

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"

	"orrery/engine/game"
)

// Addresses are compared exactly after ASCII lowercasing of the local part
// and IDNA of the domain: no Unicode folding lets a lookalike through.
func TestCanonAddress(t *testing.T) {
	for _, c := range []struct {
		a, b string
		same bool
	}{
		{"Sam@Example.ORG", "sam@example.org", true},
		{" sam@example.org. ", "sam@example.org", true},
		{"sam@ｅxample.org", "sam@example.org", true},              // fullwidth domain: the same domain
		{"sam@EXAMPLE.org", "sam@example.org", true},              // case in the domain
		{"ann@bücher.example", "ann@xn--bcher-kva.example", true}, // IDN and its punycode
		{"ann@BÜCHER.example", "ann@xn--bcher-kva.example", true},
		{"\u017fam@example.org", "sam@example.org", false},           // long s
		{"\u212aim@example.org", "kim@example.org", false},           // Kelvin sign
		{"\u0130da@example.org", "ida@example.org", false},           // capital I with a dot
		{"\u0131da@example.org", "ida@example.org", false},           // dotless i
		{"\uff53am@example.org", "sam@example.org", false},           // fullwidth s
		{"\uff33\uff21\uff2d@example.org", "sam@example.org", false}, // fullwidth SAM
		{"sam+x@example.org", "sam@example.org", false},              // tags are the mail side's business
		{"", "", false},
	} {
		if got := game.SameAddress(c.a, c.b); got != c.same {
			t.Errorf("SameAddress(%q, %q) = %v (%q, %q)", c.a, c.b, got, game.CanonAddress(c.a), game.CanonAddress(c.b))
		}
	}
	g := &game.Game{Players: []game.Player{{Name: "sam", Email: "Sam@Example.org"}, {Name: "kim", Email: "kim@example.org"}}}
	for _, a := range []string{"\u017fam@example.org", "\u212aim@example.org", "SAM@example.org.x"} {
		if p, ok := g.PlayerByEmail(a); ok {
			t.Errorf("PlayerByEmail(%q) found %s", a, p.Name)
		}
	}
	if p, ok := g.PlayerByEmail("sam@ＥXAMPLE.org"); !ok || p.Name != "sam" {
		t.Errorf("PlayerByEmail with the domain in fullwidth capitals: %v %v", p, ok)
	}
}

// A refused submission's log entry keeps what an answer lists: the first
// MaxLoggedErrors errors, a count of the rest, and 1 KB of its text, cut
// at a line; one hostile mail of 80,000 bad lines stored 7.9 MB before.
func TestRejectedEntryBounded(t *testing.T) {
	svc, _ := newService(t)
	create(t, svc, "g1", "ann", "bob")
	res := submit(t, svc, "g1", "ann", strings.Repeat("PUSH 9 "+strings.Repeat("é", 300)+"\n", 5000))
	if res.Accepted || len(res.Errors) != 5000 {
		t.Fatalf("accepted %v with %d errors; want 5000 errors", res.Accepted, len(res.Errors))
	}
	x, err := svc.Export(context.Background(), "g1")
	if err != nil {
		t.Fatal(err)
	}
	var e *game.Entry
	for _, l := range x.Log {
		if l.Kind == "rejected" {
			e = l
		}
	}
	if e == nil {
		t.Fatal("no rejected entry")
	}
	if len(e.Errors) != game.MaxLoggedErrors || e.ErrorsMore != 5000-game.MaxLoggedErrors {
		t.Errorf("the entry keeps %d errors and counts %d more", len(e.Errors), e.ErrorsMore)
	}
	for _, m := range e.Errors {
		if len(m) > 210 || !utf8.ValidString(m) {
			t.Errorf("an error of %d bytes (valid UTF-8: %v)", len(m), utf8.ValidString(m))
		}
	}
	if len(e.Text) > 1100 || !utf8.ValidString(e.Text) || !strings.HasSuffix(e.Text, "[... cut]") {
		t.Errorf("the entry keeps %d bytes of text, ending %q", len(e.Text), e.Text[max(0, len(e.Text)-20):])
	}
}
