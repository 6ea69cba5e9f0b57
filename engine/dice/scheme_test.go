package dice

import (
	"strconv"
	"strings"
	"testing"
)

// TestStreamsNumberOnTheirOwn: under scheme 2 public rolls come from the
// roll seed numbered 1, 2, 3, …, and each audience's hidden rolls from its
// own seed, numbered on their own, so that the public numbering shows
// neither how many hidden rolls there were nor where.
func TestStreamsNumberOnTheirOwn(t *testing.T) {
	hidden := func(key string) string { return StreamSeed("H", "D", key) }
	d := NewStreams("R", hidden)
	d.Roll(6, "public 1")
	d.RollFor(20, "ann's", "ann")
	d.RollHidden(12, "deck")
	d.RollFor(20, "ann's again", "ann")
	d.RollFor(8, "ann and bob's", "bob", "ann", "bob")
	d.Roll(6, "public 2")
	want := []struct {
		n      int
		stream string
	}{{1, ""}, {1, "ann"}, {1, GMOnly}, {2, "ann"}, {1, "ann,bob"}, {2, ""}}
	rolls := d.Rolls()
	for i, w := range want {
		if rolls[i].N != w.n || rolls[i].Stream != w.stream {
			t.Errorf("roll %d (%s) is #%d of stream %q, want #%d of %q", i+1, rolls[i].Purpose, rolls[i].N, rolls[i].Stream, w.n, w.stream)
		}
	}
	var keys []string
	for _, s := range d.Streams() {
		keys = append(keys, s.Key)
		if s.Seed != hidden(s.Key) {
			t.Errorf("stream %q has seed %s", s.Key, s.Seed)
		}
	}
	if strings.Join(keys, " ") != "ann (gm) ann,bob" {
		t.Errorf("streams %v, want ann (gm) ann,bob in the order of their first roll", keys)
	}
	if v, _ := SeedSource("R").Value(2, 6); v != rolls[5].Value {
		t.Errorf("public roll #2 is %d, the roll seed gives %d", rolls[5].Value, v)
	}
	if err := CheckStreams("R", d.Streams(), rolls); err != nil {
		t.Fatalf("a true record fails: %v", err)
	}
	if err := CheckStreams("R", d.Streams()[:1], rolls); err == nil || !strings.Contains(err.Error(), "no seed for its stream") {
		t.Errorf("a stream without its seed gave %v", err)
	}
	forged := d.Rolls()
	forged[3].Value = forged[3].Value%20 + 1
	if err := CheckStreams("R", d.Streams(), forged); err == nil || !strings.Contains(err.Error(), "#2 [ann]") {
		t.Errorf("a changed roll #2 [ann] gave %v", err)
	}
	if got := rolls[1].String(); got != "#1 [ann] ann's: d20 = "+strconv.Itoa(rolls[1].Value) {
		t.Errorf("a hidden roll reads %q", got)
	}
	// Scheme 1 numbers every roll in one sequence, as old games did.
	old := New("R")
	old.Roll(6, "a")
	old.RollHidden(6, "b")
	if r := old.Rolls()[1]; r.N != 2 || r.Stream != "" || len(old.Streams()) != 0 {
		t.Errorf("scheme 1 gave a hidden roll %+v and streams %v", r, old.Streams())
	}
}

// TestPartsAndDigest pins the texts the hashes are taken of, which players
// rebuild by hand: a head line, a salt line for a secret part, the lines,
// each ending in a newline; the digest of the hashes, one a line.
func TestPartsAndDigest(t *testing.T) {
	pub := Part{Head: "ann turn:ann sent", Lines: []string{"MOVE 5 Sol Vega", "DONE"}}.Sealed()
	if pub.Text() != "ann turn:ann sent\nMOVE 5 Sol Vega\nDONE\n" || pub.Hash != sum(pub.Text()) {
		t.Errorf("public part text %q hash %s", pub.Text(), pub.Hash)
	}
	sec := Part{Head: "bob turn:bob default", Hidden: true, To: []string{"bob"}, Salt: Salt("H", "turn:bob")}.Sealed()
	if sec.Text() != "bob turn:bob default\nsalt "+sec.Salt+"\n" || len(sec.Salt) != 32 || sec.Salt != sum("H:salt:turn:bob")[:32] {
		t.Errorf("secret part text %q", sec.Text())
	}
	if Digest([]Part{pub, sec}) != sum(pub.Hash+"\n"+sec.Hash+"\n") {
		t.Error("the digest is not the SHA-256 of the hashes, one a line")
	}
	if Digest([]Part{sec, pub}) == Digest([]Part{pub, sec}) {
		t.Error("the digest does not depend on the order of the parts")
	}
	r := sec.Redacted()
	if r.Salt != "" || r.Lines != nil || r.Hash != sec.Hash || r.Readable("ann") || !sec.Readable("bob") || !sec.Readable("") || !pub.Readable("ann") {
		t.Errorf("redaction or readability wrong: %+v", r)
	}
	if RollSeed("S", "D") != sum("S:D") || StreamSeed("H", "D", "ann") != sum("H:D:ann") || PublicSeed("H") != sum("H") {
		t.Error("a derivation differs from the README's")
	}
}

// BenchmarkStepScheme2 is what scheme 2 adds to a six-player step with ten
// public rolls and two hidden ones: six salted parts, their digest, the
// roll seed and a stream; BenchmarkStepScheme1 is the same rolls from one
// seed, as before.
func BenchmarkStepScheme2(b *testing.B) {
	for i := 0; i < b.N; i++ {
		hidden := "4f3c2a"
		parts := make([]Part, 6)
		for k := range parts {
			parts[k] = Part{Head: "p turn:p sent", Hidden: true, To: []string{"p"}, Salt: Salt(hidden, strconv.Itoa(k)),
				Lines: []string{"MOVE 5 FROM Sol TO Vega", "SETTLE Rigel 10"}}.Sealed()
		}
		digest := Digest(parts)
		d := NewStreams(RollSeed(PublicSeed(hidden), digest), func(key string) string { return StreamSeed(hidden, digest, key) })
		for k := 0; k < 10; k++ {
			d.Roll(6, "r")
		}
		d.RollFor(6, "h", "ann")
		d.RollHidden(6, "h")
	}
}

func BenchmarkStepScheme1(b *testing.B) {
	for i := 0; i < b.N; i++ {
		d := New("4f3c2a")
		for k := 0; k < 10; k++ {
			d.Roll(6, "r")
		}
		d.RollFor(6, "h", "ann")
		d.RollHidden(6, "h")
	}
}
