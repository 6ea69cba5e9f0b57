package reportjson

import (
	"bytes"
	"encoding/json"
	"testing"

	"orrery/engine"
	"orrery/engine/enginetest"
	"orrery/engine/game"
	"orrery/games"
)

// reports are the report.json of the first seat of a five-seat bot game
// (fewer where a ruleset takes fewer) of every ruleset, at each of its
// first 60 steps, with text that JSON escapes.
func reports(t testing.TB) []*game.Report {
	var out []*game.Report
	for _, rs := range games.All() {
		name := rs.Info().Name
		players := []string{"ann", "bob", "cy", "dee", "eve"}[:min(5, rs.Info().MaxPlayers)]
		enginetest.Walk(t, rs, enginetest.Options{Players: players, Seed: 7, MaxSteps: 60}, func(step int, st engine.State) {
			out = append(out, &game.Report{Game: "g", Ruleset: name, Player: "ann", Step: uint64(step), View: st.View("ann"),
				Board: "<b> & \"c\"\n\u2028Ход", Status: "status\x00", Events: []string{"one"}})
		})
	}
	return out
}

// Marshal writes what encoding/json's MarshalIndent wrote before it, byte
// for byte, for every ruleset's views: players' tools see no change.
func TestMarshalAsEncodingJSONDoes(t *testing.T) {
	rs := reports(t)
	if len(rs) < 100 {
		t.Fatalf("only %d reports", len(rs))
	}
	for i, r := range rs {
		want, err := json.MarshalIndent(Build(r), "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		got, err := Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("report %d (%s, step %d) differs from encoding/json's:\n%s\n---\n%s", i, r.Ruleset, r.Step, got, want)
		}
	}
	// Invalid UTF-8 (which the mail side never lets through) is replaced
	// by U+FFFD by both: encoding/json writes it escaped, v2 as it is;
	// the JSON reads the same.
	r := rs[0]
	r.Status = "bad \xff\xfe UTF-8"
	want, _ := json.MarshalIndent(Build(r), "", "  ")
	got, err := Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var a, b Report
	if err := json.Unmarshal(want, &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(got, &b); err != nil {
		t.Fatal(err)
	}
	if a.Status != b.Status || b.Status != "bad \ufffd\ufffd UTF-8" {
		t.Errorf("invalid UTF-8 read back as %q, encoding/json's as %q", b.Status, a.Status)
	}
}

// BenchmarkMarshal writes the reports of TestMarshalAsEncodingJSONDoes;
// "encoding-json" is encoding/json's MarshalIndent, as before.
func BenchmarkMarshal(b *testing.B) {
	rs := reports(b)
	b.Run("encoding-json", func(b *testing.B) {
		for b.Loop() {
			for _, r := range rs {
				if _, err := json.MarshalIndent(Build(r), "", "  "); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("v2", func(b *testing.B) {
		for b.Loop() {
			for _, r := range rs {
				if _, err := Marshal(r); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}
