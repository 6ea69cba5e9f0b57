package inmail

import (
	"strings"
	"testing"
)

// BenchmarkStripHostile measures stripping hostile text of the largest size
// we read, in the shapes that would make a careless line scanner quadratic:
// a mail may not cost the daemon seconds. Run with
//
//	go test -run - -bench StripHostile ./pbem/inmail/
func BenchmarkStripHostile(b *testing.B) {
	shapes := []struct{ name, body string }{
		{"long-lines", strings.Repeat(strings.Repeat("x", 127)+"\n", DefaultMaxText/128)},
		{"one-line", strings.Repeat("y", DefaultMaxText)},
		{"blank-runs", strings.Repeat("On a wrote:\n\n\n\n", DefaultMaxText/16)},
		{"wrote-lines", strings.Repeat(strings.Repeat("z ", 50)+"wrote:\n", DefaultMaxText/108)},
		{"from-blocks", strings.Repeat("From: a\nx\nx\n", DefaultMaxText/12)},
		{"quote-prefix", strings.Repeat(">"+strings.Repeat(" ", 100)+"\n", DefaultMaxText/102)},
	}
	for _, s := range shapes {
		b.Run(s.name, func(b *testing.B) {
			b.SetBytes(int64(len(s.body)))
			for b.Loop() {
				StripSignOff(StripQuotes(s.body), "Ann Example")
			}
		})
	}
}
