package game

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// The plain-domain fast path of canonDomain gives what IDNA gives, on
// domains made of the characters it takes (with punycode prefixes,
// hyphens and dots in every place, empty labels, long labels) and on
// the cases that must go through IDNA.
func TestCanonDomainFastPath(t *testing.T) {
	cases := []string{"", ".", "..", "a..b", ".a", "-a.b", "a-.b", "ab--c.d", "XN--ab.c", "xn--.", "k.Xn--",
		"xn--bcher-kva.example", "XN--BCHER-KVA.example", "a.xn--mnchen-3ya.de", "x.n--a", "xn-a.b",
		strings.Repeat("a", 64) + ".com", strings.Repeat("a.", 200) + "com", "1.2.3.4", "Example.ORG",
		"a_b.c", "bücher.example", "ｅxample.org", "EXAMPLE.org", "exa mple.org"}
	r := rand.New(rand.NewPCG(22, 1))
	for _, alpha := range []string{"aAzZbQ09-.", "xnXN-a0.k"} {
		for range 200000 {
			b := make([]byte, 1+r.IntN(12))
			for j := range b {
				b[j] = alpha[r.IntN(len(alpha))]
			}
			cases = append(cases, string(b))
		}
	}
	plain, bad := 0, 0
	for _, d := range cases {
		if plainDomain(d) {
			plain++
		}
		if got, want := canonDomain(d), idnaDomain(d); got != want {
			if bad++; bad <= 10 {
				t.Errorf("canonDomain(%q) = %q, IDNA gives %q", d, got, want)
			}
		}
	}
	// The fast path must be taken, or this test shows nothing.
	if plain < len(cases)/2 {
		t.Errorf("only %d of %d domains took the fast path", plain, len(cases))
	}
	for _, d := range []string{"xn--bcher-kva.example", "a.XN--x", "bücher.example", "a_b.c"} {
		if plainDomain(d) {
			t.Errorf("plainDomain(%q) = true: it must go through IDNA", d)
		}
	}
}
