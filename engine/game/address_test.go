package game_test

import (
	"testing"

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
